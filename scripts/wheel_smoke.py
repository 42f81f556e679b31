"""The installed wheel, used as a user would: run by scripts/wheel-smoke.sh with the fresh virtual
environment's Python, from a temporary folder, so nothing of the checkout can be imported.

    python wheel_smoke.py CHECKOUT SPACE

Against the Neo4j of the BELIEF_GRAPH_NEO4J__* settings: connect, apply the schema, assert a
claim, update it, read the current belief, recall with the local embedder (its files fetched on
first use into BELIEF_GRAPH_EMBEDDING__LOCAL_MODEL_DIR), update it again through the async client,
run a LangGraph graph whose memory is the LangGraph store over the same space (the `langgraph`
extra), and check what was imported.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

checkout, space = Path(sys.argv[1]).resolve(), sys.argv[2]


def langgraph_store(bg: BeliefGraph) -> None:
    """A StateGraph compiled with the LangGraph store: a node writes a memory, the next reads it."""
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph
    from langgraph.runtime import Runtime

    from belief_graph.integrations.langgraph import BeliefGraphStore

    class State(TypedDict):
        city: str
        reply: str

    def write(state: State, runtime: Runtime[None]) -> dict[str, str]:
        assert runtime.store is not None
        runtime.store.put(("users", "smoke"), "city", {"city": state["city"], "text": f"I live in {state['city']}"})
        return {}

    def read(state: State, runtime: Runtime[None]) -> dict[str, str]:
        assert runtime.store is not None
        hits = runtime.store.search(("users",), query="where do I live?", limit=1)
        return {"reply": hits[0].value["city"] if hits else ""}

    builder = StateGraph(State)
    builder.add_node("write", write)
    builder.add_node("read", read)
    builder.add_edge(START, "write")
    builder.add_edge("write", "read")
    builder.add_edge("read", END)
    graph = builder.compile(store=BeliefGraphStore(bg, agent="agent:smoke"))
    assert graph.invoke({"city": "Nantes", "reply": ""})["reply"] == "Nantes"
    assert graph.invoke({"city": "Brest", "reply": ""})["reply"] == "Brest"
    versions = bg.beliefs.history("lg.users.smoke.city")
    assert [v.claim.status.value for v in versions] == ["superseded", "active"], versions


import belief_graph  # noqa: E402
from belief_graph import AsyncBeliefGraph, BeliefGraph  # noqa: E402
from belief_graph.embeddings import LocalMiniLMEmbedder, make_embedder  # noqa: E402
from belief_graph.settings import load_settings  # noqa: E402

where = Path(belief_graph.__file__).resolve()
assert not where.is_relative_to(checkout), f"belief_graph was imported from the checkout: {where}"
assert "site-packages" in where.parts, where
assert importlib.util.find_spec("belief_graph_lab") is None, "the lab is installed beside the wheel"
for gone in ("belief_graph.benchmarks", "belief_graph.scenarios", "belief_graph.cli.bench", "belief_graph.cli.demo"):
    assert importlib.util.find_spec(gone) is None, f"{gone} is in the installed package"

settings = load_settings()
assert settings.embedding.provider == "local", settings.embedding.provider
model_dir = settings.embedding.local_model_dir
assert model_dir is not None and not model_dir.exists(), "the smoke starts without the model's files"
embedder = make_embedder(settings.embedding, settings.llm)
assert isinstance(embedder, LocalMiniLMEmbedder), type(embedder)

with BeliefGraph.connect(space=space, settings=settings, embedder=embedder) as bg:
    bg.admin.init_schema()
    first = bg.assert_claim("user.city", "Paris", "The user lives in Paris", agent="user:smoke")
    assert first.op.value == "ADD", first.op
    second = bg.assert_claim("user.city", "Lyon", "The user moved to Lyon last spring", agent="user:smoke")
    assert second.op.value == "UPDATE", second.op
    assert second.superseded is not None and second.superseded.value == "Paris", second.superseded
    bg.assert_claim("user.pet", "cat", "The user has a cat called Miso", agent="user:smoke")
    belief = bg.belief("user.city")
    assert belief is not None and belief.value == "Lyon", belief
    hits = bg.recall("which town does she live in now?", k=3)
    assert hits, "recall found nothing"
    assert hits[0].claim.value == "Lyon", [(h.claim.key, h.claim.value, h.score) for h in hits]
    assert all(h.claim.value != "Paris" for h in hits), "a superseded claim was recalled"
    langgraph_store(bg)


async def async_smoke() -> None:
    """The async client of the installed wheel: connect, assert, read the belief back."""
    async with AsyncBeliefGraph.connect(space=space, settings=settings, embedder=embedder) as abg:
        third = await abg.assert_claim("user.city", "Nice", "The user moved to Nice", agent="user:smoke")
        assert third.op.value == "UPDATE", third.op
        belief = await abg.belief("user.city")
        assert belief is not None and belief.value == "Nice", belief
        assert len(await abg.beliefs.history("user.city")) == 3


asyncio.run(async_smoke())

assert (model_dir / "PROVENANCE.txt").is_file(), "the model's files were not kept"
print(f"wheel smoke: ok (belief_graph from {where.parent}, model files in {model_dir})")
