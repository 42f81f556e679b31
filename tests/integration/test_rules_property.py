"""Property: after any sequence of asserts, updates, retracts, restores and reverts on generated
multi-hop worlds, the current derived beliefs equal a plain-Python evaluation of the same rules, and
nothing stale, superseded or withdrawn is reachable through belief / context / recall.

The world is generated here (works, persons, countries, parties and the relations between them);
the rules chain 1 to 6 hops, share premises, derive from each other's conclusions (one of them also
from the premise of the conclusion it reads: a diamond), and the data
has cycles (a head of state is a citizen of the country they head, or of another).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.models.rules import RuleSpec
from belief_graph.services.rules import parse_rule

WORKS = ["w0", "w1"]
PERSONS = ["p0", "p1", "p2", "p3"]
COUNTRIES = ["c0", "c1", "c2"]
PARTIES = ["red", "blue"]

BASE_KEYS: dict[str, list[str]] = {
    **{f"work.{w}.performer": PERSONS + ["nobody"] for w in WORKS},
    **{f"person.{p}.citizenship": COUNTRIES + ["atlantis"] for p in PERSONS},
    **{f"country.{c}.head": PERSONS for c in COUNTRIES},
    **{f"person.{p}.party": PARTIES for p in PERSONS},
}


def _r(name: str, premises: list[tuple[str, str]], key: str, value: str) -> dict[str, Any]:
    anchor = re.findall(r"\{(\w+)\}", key)[0]
    text = name + " of {" + anchor + "} is " + value
    return {
        "name": name,
        "premises": [{"key": k, "as": a} for k, a in premises],
        "conclusion": {"key": key, "value": value, "text": text},
    }


RULES = [
    _r("by", [("work.{w}.performer", "p")], "work.{w}.by", "{p}"),  # 1 hop
    _r(
        "head",
        [("work.{w}.performer", "p"), ("person.{p}.citizenship", "c"), ("country.{c}.head", "h")],
        "work.{w}.head",
        "{h}",
    ),  # 3 hops
    _r(
        "head_party", [("work.{w}.head", "h"), ("person.{h}.party", "party")], "work.{w}.head_party", "{party}"
    ),  # a conclusion of a conclusion
    _r(
        "deep",
        [
            ("work.{w}.performer", "p"),
            ("person.{p}.citizenship", "c1"),
            ("country.{c1}.head", "h1"),
            ("person.{h1}.citizenship", "c2"),
            ("country.{c2}.head", "h2"),
            ("person.{h2}.citizenship", "c3"),
        ],
        "work.{w}.deep",
        "{c3}",
    ),  # 6 hops through cycles of the data
    _r(
        "ruling", [("country.{c}.head", "h"), ("person.{h}.party", "party")], "country.{c}.ruling", "{party}"
    ),  # shares person.*.party with head_party
    _r(
        "credit", [("work.{w}.performer", "p"), ("work.{w}.head", "h")], "work.{w}.credit", "{p} under {h}"
    ),  # a diamond: reads the performer and the head derived from it
]
ORDER = ["by", "head", "credit", "deep", "ruling", "head_party"]  # dependencies first
SPECS: dict[str, RuleSpec] = {r["name"]: parse_rule(r) for r in RULES}
DERIVED_KEYS = [f"work.{w}.{n}" for w in WORKS for n in ("by", "head", "head_party", "deep", "credit")] + [
    f"country.{c}.ruling" for c in COUNTRIES
]


def reference(values: dict[str, str | None]) -> dict[str, str | None]:
    """The same rules evaluated from scratch in plain Python over the current base values."""
    known: dict[str, str | None] = dict(values)
    out: dict[str, str | None] = {}
    for name in ORDER:
        spec = SPECS[name]
        c = spec.compile()
        anchors = [k for k, v in known.items() if v is not None and re.match(c.anchor_regex, k)]
        for anchor in anchors:
            segs = anchor.split(".")
            binds: list[str] = [segs[i] for i in c.anchor_pos]
            resolved = True
            for template in c.premise_keys:
                key = ".".join(binds[int(s[1:-1])] if s.startswith("{") else s for s in template.split("."))
                v = known.get(key)
                if v is None:
                    resolved = False
                    break
                binds.append(v)
            dkey = ".".join(binds[int(s[1:-1])] if s.startswith("{") else s for s in c.conclusion_key.split("."))
            value = spec.conclude(dict(zip(c.variables, binds, strict=True)))[0] if resolved else None
            out[dkey] = value  # type: ignore[assignment]
            known[dkey] = value  # type: ignore[assignment]
    return out


def test_derived_beliefs_equal_a_reference_evaluator(base_settings, graph) -> None:  # type: ignore[no-untyped-def]
    seen: dict[str, int] = {"checks": 0, "resolved": 0, "deep": 0, "head_party": 0, "credit": 0, "changed": 0}

    class World(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.space = f"prop-{uuid.uuid4().hex[:10]}"
            self.bg = BeliefGraph.connect(space=self.space, settings=base_settings, embedder=HashingEmbedder(384))
            self.versions: dict[str, list[dict[str, Any]]] = {}  # key -> [{id, value, retracted}]
            self.rules_added = False
            self.last: dict[str, Any] = {}

        # -- the reference's view of the base facts --------------------------------------------------
        def values(self) -> dict[str, str | None]:
            out: dict[str, str | None] = {}
            for k, vs in self.versions.items():
                cur = vs[-1]
                out[k] = None if cur["retracted"] else cur["value"]
            return out

        def _write(self, key: str, value: str) -> None:
            cur = self.versions.get(key, [None])[-1]  # type: ignore[list-item]
            r = self.bg.assert_claim(key, value, f"{key} is {value}", agent="user:u")
            if cur is not None and not cur["retracted"] and cur["value"] == value:
                assert r.op.value == "NOOP"
                return
            assert r.op.value in ("ADD", "UPDATE"), r
            self.versions.setdefault(key, []).append({"id": r.claim.id, "value": value, "retracted": False})

        @initialize(early=st.booleans(), data=st.data())
        def setup(self, early: bool, data: st.DataObject) -> None:
            """A whole world first (every base key, values drawn), the rules before or after it."""
            if early:
                self.add_rules()
            for key in sorted(BASE_KEYS):
                values = BASE_KEYS[key]
                # mostly resolvable: the unknown entities (nobody, atlantis) are drawn one time in ten
                known = [v for v in values if v not in ("nobody", "atlantis")]
                pick = data.draw(
                    st.sampled_from(values) if data.draw(st.integers(0, 9)) == 0 else st.sampled_from(known)
                )
                self._write(key, pick)

        @precondition(lambda self: not self.rules_added)
        @rule()
        def add_rules(self) -> None:
            for r in RULES:
                self.bg.rules.add(r, agent="user:admin")
            self.rules_added = True

        @rule(data=st.data())
        def assert_(self, data: st.DataObject) -> None:
            key = data.draw(st.sampled_from(sorted(BASE_KEYS)))
            self._write(key, data.draw(st.sampled_from(BASE_KEYS[key])))

        @precondition(lambda self: any(len(vs) >= 2 for vs in self.versions.values()))
        @rule(data=st.data())
        def revert(self, data: st.DataObject) -> None:
            key = data.draw(st.sampled_from(sorted(k for k, vs in self.versions.items() if len(vs) >= 2)))
            vs = self.versions[key]
            target = vs[-2]
            r = self.bg.beliefs.revert(key, agent="user:u")
            assert r.claim.value == target["value"]
            if not vs[-1]["retracted"] and vs[-1]["value"] == target["value"]:
                assert r.op.value == "NOOP"
                return
            vs.append({"id": r.claim.id, "value": target["value"], "retracted": False})

        @precondition(lambda self: any(not v["retracted"] for vs in self.versions.values() for v in vs))
        @rule(data=st.data())
        def retract(self, data: st.DataObject) -> None:
            live = [v for k in sorted(self.versions) for v in self.versions[k] if not v["retracted"]]
            v = data.draw(st.sampled_from(live))
            self.bg.retract([v["id"]], "the source was wrong")
            v["retracted"] = True

        @precondition(lambda self: any(v["retracted"] for vs in self.versions.values() for v in vs))
        @rule(data=st.data())
        def restore(self, data: st.DataObject) -> None:
            gone = [v for k in sorted(self.versions) for v in self.versions[k] if v["retracted"]]
            v = data.draw(st.sampled_from(gone))
            self.bg.restore([v["id"]], "it was right after all")
            v["retracted"] = False

        # -- the property ---------------------------------------------------------------------------------
        @invariant()
        def derived_beliefs_equal_the_reference(self) -> None:
            expected = reference(self.values()) if self.rules_added else {}
            got = {}
            for k in DERIVED_KEYS:
                b = self.bg.belief(k)
                assert b is None or b.status.value == "active"
                got[k] = None if b is None else b.value
            want = {k: expected.get(k) for k in DERIVED_KEYS}
            assert got == want
            seen["checks"] += 1
            seen["resolved"] += any(v is not None for v in got.values())
            seen["deep"] += any(got[f"work.{w}.deep"] is not None for w in WORKS)
            seen["head_party"] += any(got[f"work.{w}.head_party"] is not None for w in WORKS)
            seen["credit"] += any(got[f"work.{w}.credit"] is not None for w in WORKS)
            seen["changed"] += got != self.last
            self.last = got
            for k, vs in self.versions.items():
                b = self.bg.belief(k)
                assert (None if b is None else b.id) == (None if vs[-1]["retracted"] else vs[-1]["id"])

        @invariant()
        def context_uses_current_beliefs_only(self) -> None:
            ctx = self.bg.context(keys=DERIVED_KEYS + sorted(self.versions), budget_tokens=100_000, limit=100)
            for item in ctx.items:
                assert item.claim.status.value == "active"
                if item.certificate is not None:
                    assert all(p.current for p in item.certificate.premises), item

        def teardown(self) -> None:
            try:
                hits = self.bg.recall("the head of state's party of the work", k=30)
                assert all(h.claim.status.value == "active" for h in hits)
                stale = self.bg.support.stale(limit=1000)
                assert all(s.claim.status.value == "stale" for s in stale)
            finally:
                graph.write("admin.delete_space", space=self.space)
                self.bg.close()

    run_state_machine_as_test(
        World,
        settings=settings(
            max_examples=30,
            stateful_step_count=20,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    # the generated worlds exercised what the property is about (not only empty or unresolved ones)
    assert seen["resolved"] > seen["checks"] // 4, seen
    assert seen["deep"] > 0 and seen["head_party"] > 0 and seen["credit"] > 0 and seen["changed"] > 20, seen


def test_the_reference_itself() -> None:
    values = {
        "work.w0.performer": "p0",
        "person.p0.citizenship": "c0",
        "country.c0.head": "p0",
        "person.p0.party": "red",
    }
    ref = reference(values)
    assert ref["work.w0.by"] == "p0" and ref["work.w0.head"] == "p0" and ref["work.w0.head_party"] == "red"
    assert ref["work.w0.deep"] == "c0" and ref["country.c0.ruling"] == "red"
    assert ref["work.w0.credit"] == "p0 under p0"
    values["country.c0.head"] = None
    ref = reference(values)
    assert ref["work.w0.head"] is None and ref.get("work.w0.head_party") is None and ref["work.w0.deep"] is None
    assert ref["work.w0.credit"] is None
