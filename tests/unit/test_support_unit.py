"""Pure parts of justifications and reconsolidation: token estimate, statement signature, models, and the bench generators
and reference labelling (checked against clingo as an external oracle)."""

from __future__ import annotations

import clingo
import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from belief_graph.cli import app
from belief_graph.models.support import (
    AuditRecord,
    Premise,
    SupportFamily,
    estimate_tokens,
)
from belief_graph.services.support import statement_signature
from belief_graph_lab.scenarios import (
    World,
    least_model,
    paired_worlds,
    scimap_workspace,
)


def test_estimate_tokens() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("x" * 400) == 100


def test_statement_signature() -> None:
    assert statement_signature("a.b", "t") == statement_signature("a.b", "t")
    assert statement_signature("a.b", "t") != statement_signature(None, "t")
    assert statement_signature(None, "t") != statement_signature(None, "t ")
    assert len(statement_signature(None, "x")) == 40


def test_support_family_intact() -> None:
    ok = SupportFamily(
        id="j", premises=[Premise(id="e", kind="episode"), Premise(id="c", kind="claim", status="superseded")]
    )
    assert ok.intact and ok.premises[1].holds
    broken = SupportFamily(id="j2", premises=[Premise(id="c", kind="claim", status="withdrawn")])
    assert not broken.intact and "withdrawn" in broken.describe()


def test_audit_record_from_row() -> None:
    row = {
        "audit": {"id": "a", "op": "retract", "mode": "justification", "reason": "r", "at": "t", "agent": None},
        "entries": [
            {
                "action": "ROOT",
                "id": "e",
                "kind": "episode",
                "status": "retracted",
                "prior": "active",
                "via": None,
                "lost": None,
                "text": "E",
                "key": None,
            },
            {
                "action": "WITHDREW",
                "id": "c",
                "kind": "claim",
                "status": "withdrawn",
                "lost": ["j lacks e"],
                "via": None,
                "prior": None,
                "text": "C",
                "key": None,
            },
        ],
    }
    a = AuditRecord.from_row(row)
    assert a.roots == ["e"] and a.withdrawn_ids == ["c"] and a.entries[1].lost == ["j lacks e"]


def _clingo(w: World, retracted: set[str]) -> set[str]:
    lines = [f"base({x})." for x in w.episodes] + [f"retracted({x})." for x in retracted]
    lines.append("in(X) :- base(X), not retracted(X).")
    for c, fams in w.families.items():
        for f in fams:
            lines.append(f"in({c}) :- {', '.join(f'in({p})' for p in f)}, not retracted({c}).")
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "\n".join(lines))
    ctl.ground([("base", [])])
    found: list[set[str]] = []
    ctl.solve(on_model=lambda m: found.append({str(s.arguments[0]) for s in m.symbols(atoms=True) if s.name == "in"}))
    return found[0]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_bench_reference_labelling_equals_clingo(data: st.DataObject) -> None:
    n_e = data.draw(st.integers(1, 3))
    n_c = data.draw(st.integers(1, 7))
    w = World("random")
    eps = [w.episode(f"e{i}", "") for i in range(n_e)]
    names = [f"c{i}" for i in range(n_c)]
    for i, c in enumerate(names):
        first = data.draw(st.lists(st.sampled_from(eps + names[:i]), min_size=1, max_size=3, unique=True))
        w.claim(c, "", first)
    for c in names:
        for _ in range(data.draw(st.integers(0, 2))):
            w.also(
                c,
                *data.draw(
                    st.lists(st.sampled_from([x for x in eps + names if x != c]), min_size=1, max_size=3, unique=True)
                ),
            )
    retracted = set(data.draw(st.lists(st.sampled_from(eps + names), max_size=3, unique=True)))
    assert least_model(w, retracted) == _clingo(w, retracted)


def test_paired_worlds_differ_only_in_grouping() -> None:
    pairs = paired_worlds(40)
    assert len(pairs) == 40
    for w_and, w_or in pairs:
        assert w_and.episodes == w_or.episodes and w_and.claims == w_or.claims and w_and.roots == w_or.roots

        def influence(w: World) -> set[tuple[str, str]]:
            return {(p, c) for c, fams in w.families.items() for f in fams for p in f}

        assert influence(w_and) == influence(w_or)
        assert w_and.families["c"] != w_or.families["c"]
        roots = set(w_and.roots)
        assert "c" not in least_model(w_and, roots)  # the AND finding loses its support ...
        assert "c" in least_model(w_or, roots)  # ... the OR finding keeps one
    assert sum(1 for a, _ in pairs if ["d0"] in a.families["c"]) == 20  # half the pairs have a support loop


def test_scimap_workspaces_are_deterministic_and_interesting() -> None:
    for i in range(20):
        w = scimap_workspace(i)
        assert w.claims == scimap_workspace(i).claims
        before, after = least_model(w, set()), least_model(w, set(w.roots))
        assert (before - after) - set(w.roots), "the invalidation has consequences"
        assert w.downstream(w.roots) & after, "something downstream survives through another branch"
        kinds = set(w.kinds.values())
        assert {"observation", "interpretation", "derived"} <= kinds


@pytest.mark.parametrize(
    "args", [["revision-pairs", "--pairs", "0"], ["scimap", "--modes", "all"], ["revision-latency", "--sizes", "ten"]]
)
def test_bench_arguments_are_validated_before_connecting(args: list[str]) -> None:
    r = CliRunner().invoke(app, ["bench", *args])
    assert r.exit_code != 0
    assert r.exception is not None and "must" in str(r.exception)
