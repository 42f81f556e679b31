"""Property test: random AND/OR support graphs with cycles, random retract/restore traces.

After every step the labelling the engine computed in Cypher must equal two independent oracles:

* ``least_model`` below: the definition (DESIGN.md "Support"), a naive fixpoint recomputed from
  scratch over the whole graph: an episode or base claim is IN unless retracted; a derived claim
  is IN iff it is not retracted and one of its justifications has every premise IN; iterate from
  the empty set until nothing changes (the least fixpoint);
* clingo (PyPI ``clingo``, an external ASP solver): ``in(X) :- base(X), not retracted(X).`` and one
  rule ``in(c) :- in(p1), ..., in(pk), not retracted(c).`` per justification; the unique stable
  model of this stratified program is the least model.
"""

from __future__ import annotations

import uuid
from typing import Any

import clingo
from hypothesis import HealthCheck, given, settings, strategies as st

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.settings import Settings

Graph = dict[str, Any]  # {"episodes": [...], "base": [...], "derived": [...], "justs": {d: [[p, ...], ...]}}


def least_model(g: Graph, retracted: set[str]) -> set[str]:
    """The definition, recomputed from scratch: the smallest IN set closed under the rules."""
    inn: set[str] = set()
    changed = True
    while changed:
        changed = False
        for x in g["episodes"] + g["base"]:
            if x not in retracted and x not in inn:
                inn.add(x)
                changed = True
        for d in g["derived"]:
            if d in inn or d in retracted:
                continue
            if any(all(p in inn for p in j) for j in g["justs"][d]):
                inn.add(d)
                changed = True
    return inn


def clingo_model(g: Graph, retracted: set[str]) -> set[str]:
    """The same least model from clingo's grounder and solver."""
    lines = [f"base({x})." for x in g["episodes"] + g["base"]]
    lines += [f"retracted({x})." for x in sorted(retracted)]
    lines.append("in(X) :- base(X), not retracted(X).")
    for d in g["derived"]:
        for j in g["justs"][d]:
            body = ", ".join(f"in({p})" for p in j)
            lines.append(f"in({d}) :- {body}, not retracted({d}).")
    ctl = clingo.Control(["--models=0", "--warn=none"])
    ctl.add("base", [], "\n".join(lines))
    ctl.ground([("base", [])])
    models: list[set[str]] = []
    ctl.solve(on_model=lambda m: models.append({str(s.arguments[0]) for s in m.symbols(atoms=True) if s.name == "in"}))
    assert len(models) == 1, f"a stratified positive program has exactly one model, got {len(models)}"
    return models[0]


@st.composite
def support_graphs(draw: st.DrawFn) -> Graph:
    episodes = [f"e{i}" for i in range(draw(st.integers(1, 3)))]
    base = [f"b{i}" for i in range(draw(st.integers(0, 2)))]
    derived = [f"d{i}" for i in range(draw(st.integers(2, 8)))]
    every = episodes + base + derived
    justs: dict[str, list[list[str]]] = {}
    for i, d in enumerate(derived):
        # the first family only uses earlier nodes (so the claim can be created); the others may
        # use anything but d itself, which creates support cycles and OR-alternatives. Premises
        # are drawn from derived claims half of the time, so AND-families often have several
        # premises inside one reactivation region.
        early = episodes + base + derived[:i]
        early_pick = st.one_of(st.sampled_from(derived[:i] or early), st.sampled_from(early))
        first = draw(st.lists(early_pick, min_size=1, max_size=3, unique=True))
        others_d = [x for x in derived if x != d]
        any_pick = st.one_of(st.sampled_from(others_d), st.sampled_from([x for x in every if x != d]))
        others = draw(st.lists(st.lists(any_pick, min_size=1, max_size=3, unique=True), max_size=3))
        families: list[list[str]] = []
        for f in [first, *others]:
            if sorted(f) not in [sorted(x) for x in families]:
                families.append(sorted(f))
        justs[d] = families
    trace = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["retract", "restore"]),
                st.lists(st.sampled_from(every), min_size=1, max_size=3, unique=True),
            ),
            min_size=1,
            max_size=6,
        )
    )
    return {"episodes": episodes, "base": base, "derived": derived, "justs": justs, "trace": trace}


def build(bg: BeliefGraph, g: Graph) -> dict[str, str]:
    ids: dict[str, str] = {}
    for e in g["episodes"]:
        ids[e] = bg.add_episode(f"episode {e}", agent="user:prop").id
    for b in g["base"]:
        ids[b] = bg.assert_claim(None, None, f"base claim {b}", agent="user:prop").claim.id
    for d in g["derived"]:
        first, *others = g["justs"][d]
        ids[d] = bg.derive(f"derived {d}", [ids[p] for p in first], agent="agent:prop").id
    for d in g["derived"]:
        for fam in g["justs"][d][1:]:
            assert bg.derive(f"derived {d}", [ids[p] for p in fam], agent="agent:prop").id == ids[d]
    return ids


def labelling(bg: BeliefGraph, ids: dict[str, str]) -> tuple[set[str], set[str]]:
    """(IN names, retracted names) as stored in the graph."""
    rows = bg.support.repo.find_nodes(list(ids.values()))
    name = {v: k for k, v in ids.items()}
    inn = {name[i] for i, r in rows.items() if r["status"] not in ("withdrawn", "retracted")}
    retracted = {name[i] for i, r in rows.items() if r["status"] == "retracted"}
    return inn, retracted


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(g=support_graphs())
def test_cypher_labelling_equals_least_model(base_settings: Settings, graph: Any, g: Graph) -> None:
    space = f"test-prop-{uuid.uuid4().hex[:10]}"
    bg = BeliefGraph(graph, base_settings, space, HashingEmbedder(base_settings.embedding.dimension))
    try:
        ids = build(bg, g)
        retracted: set[str] = set()
        inn, stored_retracted = labelling(bg, ids)
        assert inn == least_model(g, retracted) == clingo_model(g, retracted)
        for op, names in g["trace"]:
            if op == "retract":
                roots = [n for n in names if n not in retracted]
            else:
                roots = [n for n in names if n in retracted]
            if not roots:
                continue
            before = inn
            audit = getattr(bg, op)([ids[n] for n in roots], f"{op} {roots}")
            retracted = retracted | set(roots) if op == "retract" else retracted - set(roots)
            inn, stored_retracted = labelling(bg, ids)
            expected = least_model(g, retracted)
            assert expected == clingo_model(g, retracted), "the two oracles disagree"
            assert stored_retracted == retracted
            assert inn == expected, f"after {op} {roots}: engine {sorted(inn)} != least model {sorted(expected)}"
            name = {v: k for k, v in ids.items()}
            derived_or_base = set(g["base"]) | set(g["derived"])
            changed_out = {n for n in (before - inn) & derived_or_base if n not in roots}
            changed_in = {n for n in (inn - before) & derived_or_base}
            assert {name[i] for i in audit.withdrawn_ids} == changed_out
            # a restored claim root that holds again is recorded as reinstated too
            assert {name[i] for i in audit.reinstated_ids} == changed_in
    finally:
        graph.write("admin.delete_space", space=space)
