"""The stand-in models of ``bench memory``: the gold model says the gold facts, the noisy extractor
drifts from them the way models do, deterministically."""

from __future__ import annotations

from belief_graph.llm import LLMClient
from belief_graph.llm.jobs import Turn
from belief_graph_lab.benchmarks.memory_models import Noise, drift_variants, gold_model
from belief_graph_lab.benchmarks.memory_suite import FactDef, load_suite


def test_drift_variants_are_synonyms_nesting_plurals_and_flattening() -> None:
    f = FactDef(key="user.sister.age", about="how old the sister is", drift=["user.sibling.age"])
    assert drift_variants(f) == [
        "user.sibling.age",
        "user.sister.personal.age",
        "user.sister.ages",
        "user.sister_age",
    ]
    assert "user.city" not in drift_variants(FactDef(key="user.city", about="x"))


def _extractions(noise: Noise | None) -> list[list[tuple[str | None, object]]]:
    out = []
    for item in load_suite(categories=["update"])[:8]:
        client = LLMClient(gold_model(item, noise))
        for _, _, _, t in item.turns():
            if t.agent == "assistant" or t.derive is not None:
                continue
            got = client.extract([Turn(id="t1", agent=t.agent, text=t.text)]).output.facts
            out.append([(f.key, f.value) for f in got])
    return out


def test_the_gold_model_says_each_turn_s_gold_facts_under_their_keys() -> None:
    item = load_suite(categories=["update"])[0]
    client = LLMClient(gold_model(item))
    _, _, _, turn = next(x for x in item.turns() if x[3].states)
    facts = client.extract([Turn(id="t1", agent=turn.agent, text=turn.text)]).output.facts
    assert [(f.key, f.value) for f in facts] == [(item.facts[s.fact].key, s.value) for s in turn.states]


def test_the_noisy_extractor_drifts_the_same_way_every_run() -> None:
    gold, noisy, again = _extractions(None), _extractions(Noise()), _extractions(Noise())
    assert noisy == again  # seeded per item and turn
    assert noisy != gold
    assert _extractions(Noise(key_drift=0, value_alias=0, drop=0, extra=0)) == gold
