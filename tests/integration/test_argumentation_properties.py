"""Property tests: the grounded labelling computed in Neo4j on random frameworks (self-attacks, odd
and even cycles, chains attached to cycles) is conflict-free, defends itself, is the least complete
extension, is invariant under renaming, and equals clingo (standard encoding) and formal-argumentation."""

from __future__ import annotations

import random
from collections.abc import Iterable

import clingo
import pytest
from argumentation.core.dung import ArgumentationFramework, grounded_extension
from hypothesis import HealthCheck, given, settings, strategies as st

from belief_graph.db.driver import Graph
from belief_graph.models.argumentation import AttackGraph, GroundedResult
from belief_graph.services import argumentation as argmod
from belief_graph.services.argumentation import ArgumentationService

Pair = tuple[int, int]

# The positive program whose unique (least) model is the grounded labelling: IN = in/1,
# OUT = defeated/1 (the encoding used to build the corpus's expected answers).
GROUNDED_ASP = """
in(X) :- arg(X), defeated(Y) : att(Y,X).
defeated(X) :- att(Y,X), in(Y).
"""

# Complete extensions (ASPARTIX-style guess and check), plus: some grounded argument is missing.
# UNSAT <=> every complete extension contains the given set.
COMPLETE_MISSING_ASP = """
in(X) :- not out(X), arg(X).
out(X) :- not in(X), arg(X).
:- in(X), in(Y), att(X,Y).
defeated(X) :- in(Y), att(Y,X).
undefended(X) :- att(Y,X), not defeated(Y).
:- in(X), undefended(X).
:- out(X), not undefended(X).
missing :- grounded(X), not in(X).
:- not missing.
"""


@st.composite
def frameworks(draw: st.DrawFn) -> tuple[int, list[Pair]]:
    """A union of components: random digraphs (self-attacks allowed), odd/even cycles, and chains
    whose head is attacked by (or attacks) a cycle; plus a few random attacks between components."""
    n = 0
    attacks: set[Pair] = set()
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["random", "cycle", "chain_into_cycle", "cycle_into_chain", "chain"]))
        if kind == "random":
            k = draw(st.integers(1, 6))
            pairs = draw(st.lists(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), max_size=k * 2))
            attacks |= {(n + a, n + b) for a, b in pairs}
        elif kind == "cycle":
            k = draw(st.integers(1, 6))  # 1 = a self-attack, odd and even lengths
            attacks |= {(n + i, n + (i + 1) % k) for i in range(k)}
        elif kind == "chain":
            k = draw(st.integers(1, 8))
            attacks |= {(n + i, n + i + 1) for i in range(k - 1)}
        else:
            c = draw(st.integers(1, 5))
            length = draw(st.integers(1, 6))
            k = c + length
            attacks |= {(n + i, n + (i + 1) % c) for i in range(c)}
            attacks |= {(n + c + i, n + c + i + 1) for i in range(length - 1)}
            if kind == "chain_into_cycle":
                attacks.add((n + k - 1, n))  # the chain's last argument attacks the cycle
            else:
                attacks.add((n, n + c))  # the cycle attacks the chain's head
        n += k
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    attacks |= set(extra)
    return n, sorted(attacks)


def _names(n: int) -> list[str]:
    return [f"x{i}" for i in range(n)]


def _clingo(n: int, attacks: Iterable[Pair]) -> tuple[set[int], set[int]]:
    ctl = clingo.Control(["--warn=none"])
    facts = "".join(f"arg({i})." for i in range(n)) + "".join(f"att({a},{b})." for a, b in attacks)
    ctl.add("base", [], facts + GROUNDED_ASP)
    ctl.ground([("base", [])])
    models: list[list[clingo.Symbol]] = []
    ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
    assert len(models) == 1  # a positive program has exactly one (least) model
    ins = {s.arguments[0].number for s in models[0] if s.name == "in"}
    defeated = {s.arguments[0].number for s in models[0] if s.name == "defeated"}
    return ins, defeated


def _some_complete_extension_misses(n: int, attacks: Iterable[Pair], grounded: Iterable[int]) -> bool:
    ctl = clingo.Control(["--warn=none"])
    facts = "".join(f"arg({i})." for i in range(n)) + "".join(f"att({a},{b})." for a, b in attacks)
    facts += "".join(f"grounded({i})." for i in grounded)
    ctl.add("base", [], facts + COMPLETE_MISSING_ASP)
    ctl.ground([("base", [])])
    return bool(ctl.solve().satisfiable)


def _solve(svc: ArgumentationService, ns: str, af: AttackGraph) -> GroundedResult:
    svc.store_attacks(ns, af.arguments, af.attacks)
    return svc.ground(ns)


@pytest.fixture()
def svc(graph: Graph, space: str) -> ArgumentationService:
    return ArgumentationService(graph, space)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(fw=frameworks(), seed=st.integers(0, 2**32 - 1))
def test_grounded_properties_and_external_solvers(
    svc: ArgumentationService, fw: tuple[int, list[Pair]], seed: int
) -> None:
    n, pairs = fw
    names = _names(n)
    af = AttackGraph.from_lists(names, [(names[a], names[b]) for a, b in pairs])
    res = _solve(svc, "study:prop", af)
    lab = res.labelling()
    IN, OUT = set(res.in_), set(res.out)
    assert set(lab) == set(names) and res.arguments == n
    attackers = {x: {a for a, b in af.attacks if b == x} for x in names}

    # labelling rules: IN iff every attacker OUT; OUT iff some attacker IN; UNDEC otherwise
    for x in names:
        if lab[x] == "IN":
            assert attackers[x] <= OUT
        elif lab[x] == "OUT":
            assert attackers[x] & IN
        else:
            assert not attackers[x] & IN and not attackers[x] <= OUT
    # conflict-free and self-defending (admissible)
    assert not any(a in IN and b in IN for a, b in af.attacks)
    assert all(any((d, y) in af.attacks for d in IN) for x in IN for y in attackers[x])
    # the least complete extension: complete (the rules above) and inside every complete extension
    index = {x: i for i, x in enumerate(names)}
    assert not _some_complete_extension_misses(n, pairs, [index[x] for x in IN])
    framework = ArgumentationFramework(arguments=frozenset(names), defeats=frozenset(af.attacks))
    # equal to formal-argumentation and to clingo on the standard encoding
    assert grounded_extension(framework) == frozenset(IN)
    c_in, c_defeated = _clingo(n, pairs)
    assert {names[i] for i in c_in} == IN and {names[i] for i in c_defeated} == OUT

    # invariant under renaming (a random bijection onto other names, order shuffled)
    rng = random.Random(seed)
    new = [f"r{v}-{chr(0x3B1 + v % 20)}" for v in rng.sample(range(10 * n), n)]
    mapping = dict(zip(names, new, strict=True))
    shuffled = list(af.renamed(mapping).attacks)
    rng.shuffle(shuffled)
    renamed = AttackGraph.from_lists(rng.sample(new, n), shuffled)
    res2 = _solve(svc, "study:renamed", renamed)
    assert res2.labelling() == {mapping[x]: label for x, label in lab.items()}
    assert res2.waves == res.waves


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(fw=frameworks())
def test_continued_waves_match_the_one_statement_solve(
    svc: ArgumentationService, fw: tuple[int, list[Pair]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand-off from start_grounded to propagate_waves (taken when the first
    statement's waves do not suffice) gives the same labels and waves as the one-statement solve
    (ground_small for these sizes): here forced by the small path off, a first batch of 1 wave
    and batches capped at 2 waves."""
    n, pairs = fw
    names = _names(n)
    af = AttackGraph.from_lists(names, [(names[a], names[b]) for a, b in pairs])
    one = _solve(svc, "study:one", af)
    assert one.round_trips == 1 or one.waves > 16  # up to 16 waves (8 + 8) fit in the first statement
    with monkeypatch.context() as m:
        m.setattr(argmod, "SMALL_MAX", 0)
        m.setattr(argmod, "FIRST_BATCH", 1)
        m.setattr(argmod, "MAX_BATCH", 2)
        many = _solve(svc, "study:many", af)
    assert many.labelling() == one.labelling() and many.waves == one.waves
    framework = ArgumentationFramework(arguments=frozenset(names), defeats=frozenset(af.attacks))
    assert grounded_extension(framework) == frozenset(many.in_)
    expected = _oracle(af)
    assert _stored(svc, "study:one") == expected and _stored(svc, "study:many") == expected
    # 1 wave, then batches of at most 2 (a chain jump may skip empty waves, never busy ones)
    assert many.round_trips >= 1 + (one.waves - _jumped(expected)) // 2


# -- chains: the jump must give every argument the label AND wave of the plain wave loop -------------


def _oracle(af: AttackGraph) -> dict[str, tuple[str, int | None]]:
    """The wave loop in Python, per argument (label, wave): wave k labels its frontier IN, their
    undecided targets OUT (wave k) and decrements, per attack edge, the counters of what those
    attack; a counter reaching 0 puts the argument on the frontier of wave k + 1."""
    attackers: dict[str, int] = {x: 0 for x in af.arguments}
    targets: dict[str, list[str]] = {x: [] for x in af.arguments}
    for a, b in af.attacks:
        attackers[b] += 1
        targets[a].append(b)
    out: dict[str, tuple[str, int | None]] = {}
    frontier = [x for x in af.arguments if attackers[x] == 0]
    k = 1
    while frontier:
        new_out = []
        for c in frontier:
            out[c] = ("IN", k)
        for c in frontier:
            for t in targets[c]:
                if t not in out:
                    out[t] = ("OUT", k)
                    new_out.append(t)
        nxt = []
        for t in new_out:
            for u in targets[t]:
                if u not in out:
                    attackers[u] -= 1
                    if attackers[u] == 0:
                        nxt.append(u)
        frontier, k = sorted(set(nxt)), k + 1
    return {x: out.get(x, ("UNDEC", None)) for x in af.arguments}


def _stored(svc: ArgumentationService, ns: str) -> dict[str, tuple[str, int | None]]:
    rows = svc.graph.driver.execute_query(
        "MATCH (a:Argument {space: $space, ns: $ns}) RETURN a.name AS name, a.label AS label, a.wave AS wave,"
        " [k IN ['state', 'undefeated', 'frontier', 'link'] WHERE a[k] IS NOT NULL] AS working,"
        " [m IN labels(a) WHERE m IN ['In', 'Out', 'Undec']] AS marks",
        space=svc.space,
        ns=ns,
        database_=svc.graph.database,
    ).records
    # the solver's working label and counters never outlive a solve
    assert [(r["name"], r["working"]) for r in rows if r["working"]] == []
    # each argument carries exactly the mark of its label (:In, :Out, :Undec), on both solve paths
    marks = {"IN": ["In"], "OUT": ["Out"], "UNDEC": ["Undec"]}
    assert [(r["name"], r["label"], r["marks"]) for r in rows if r["marks"] != marks.get(r["label"])] == []
    return {r["name"]: (r["label"], r["wave"]) for r in rows}


def _jumped(expected: dict[str, tuple[str, int | None]]) -> int:
    return 0 if not expected else max((w or 0) for _, w in expected.values())


@st.composite
def chainy(draw: st.DrawFn) -> tuple[int, list[Pair]]:
    """Long unbranched runs (the case the chain jump handles) in every position: from an
    unattacked head or from a head attacked by a cycle, branching into several runs, feeding a
    node with several attackers, with an extra attack on a middle argument, a run closed into a
    cycle, and a few random attacks on top."""
    n = 0
    attacks: set[Pair] = set()
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["run", "cycle_head", "fork", "join", "cut", "loop"]))
        length = draw(st.integers(2, 40))
        run = list(range(n, n + length))
        attacks |= {(run[i], run[i + 1]) for i in range(length - 1)}
        n += length
        if kind == "cycle_head":
            c = draw(st.integers(1, 4))
            attacks |= {(n + i, n + (i + 1) % c) for i in range(c)} | {(n, run[0])}
            n += c
        elif kind == "fork":
            other = list(range(n, n + draw(st.integers(2, 20))))
            attacks |= {(other[i], other[i + 1]) for i in range(len(other) - 1)}
            attacks.add((run[draw(st.integers(0, length - 1))], other[0]))
            n += len(other)
        elif kind == "join":
            attacks |= {(n, n + 1), (run[-1], n + 1)}
            n += 2
        elif kind == "cut":
            attacks.add((n, run[draw(st.integers(1, length - 1))]))
            n += 1
        elif kind == "loop":
            attacks.add((run[-1], run[draw(st.integers(0, length - 1))]))
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    attacks |= set(extra)
    return n, sorted(attacks)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(fw=chainy())
def test_chain_jumps_give_the_labels_and_waves_of_the_wave_loop(
    svc: ArgumentationService, fw: tuple[int, list[Pair]]
) -> None:
    n, pairs = fw
    names = _names(n)
    af = AttackGraph.from_lists(names, [(names[a], names[b]) for a, b in pairs])
    res = _solve(svc, "study:chains", af)
    expected = _oracle(af)
    assert _stored(svc, "study:chains") == expected
    assert res.waves == max([w for lab, w in expected.values() if lab == "IN"], default=0)
    framework = ArgumentationFramework(arguments=frozenset(names), defeats=frozenset(af.attacks))
    assert grounded_extension(framework) == frozenset(res.in_)
    again = svc.ground("study:chains")  # a re-solve over the stored labels changes nothing
    assert again.labelling() == res.labelling() and _stored(svc, "study:chains") == expected


def test_chain_jump_follows_changes_to_the_framework(svc: ArgumentationService) -> None:
    """Re-solving after an attack lands in the middle of a long chain (its links are recomputed by
    the next solve): the labels and waves match the wave loop before and after."""
    names = [*_names(200), "z"]
    chain = [(names[i], names[i + 1]) for i in range(199)]
    svc.store_attacks("study:edit", names, chain)
    res = svc.ground("study:edit")
    assert res.waves == 100 and res.wave_iterations < res.waves  # the jump skipped the empty waves
    assert _stored(svc, "study:edit") == _oracle(AttackGraph.from_lists(names, chain))
    assert _stored(svc, "study:edit")["x150"] == ("IN", 76)  # counted from x0
    svc.add_attacks("study:edit", [("z", "x101")])  # the unattacked z cuts the chain
    svc.ground("study:edit")
    assert _stored(svc, "study:edit") == _oracle(AttackGraph.from_lists(names, [*chain, ("z", "x101")]))
    assert _stored(svc, "study:edit")["x150"] == ("IN", 26)  # counted from z


def test_chain_jump_ignores_attacks_from_and_to_other_namespaces(svc: ArgumentationService) -> None:
    """Only attacks inside the namespace count. Released claims keep their ATTACKS edges, so an
    argument can be attacked from (or attack into) another namespace, even on a detour that leaves
    the namespace and comes back further down the chain; the jump walks only arguments with
    exactly one attacker and one target at all, so such an argument cuts the run and the waves
    take over there: labels and waves still equal the wave loop on the namespace's own attacks."""
    names = _names(60)
    chain = [(names[i], names[i + 1]) for i in range(59)]
    svc.store_attacks("study:xa", names, chain)
    svc.store_attacks("study:xb", ["f", "g", "k"], [])
    svc.graph.driver.execute_query(
        "MATCH (f:Argument {space: $s, ns: 'study:xb', name: 'f'}), (g:Argument {space: $s, ns: 'study:xb', name: 'g'}),"
        " (k:Argument {space: $s, ns: 'study:xb', name: 'k'}),"
        " (x:Argument {space: $s, ns: 'study:xa', name: 'x20'}), (y:Argument {space: $s, ns: 'study:xa', name: 'x40'}),"
        " (u:Argument {space: $s, ns: 'study:xa', name: 'x44'}), (v:Argument {space: $s, ns: 'study:xa', name: 'x52'})"
        " CREATE (f)-[:ATTACKS]->(x), (y)-[:ATTACKS]->(g), (u)-[:ATTACKS]->(k), (k)-[:ATTACKS]->(v)",
        s=svc.space,
        database_=svc.graph.database,
    )
    res = svc.ground("study:xa")
    expected = _oracle(AttackGraph.from_lists(names, chain))
    assert _stored(svc, "study:xa") == expected
    # the export sees the namespace's own attacks only, each pair once
    exported = svc.export_framework("study:xa")
    assert sorted(exported.arguments) == sorted(names) and sorted(exported.attacks) == sorted(chain)
    assert res.waves == 30 and res.in_ == sorted(n for n, (lab, _) in expected.items() if lab == "IN")
