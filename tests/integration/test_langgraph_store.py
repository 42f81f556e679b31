"""BeliefGraphStore (belief_graph/integrations/langgraph.py) against the real Neo4j.

LangGraph publishes no conformance suite for ``BaseStore`` (``langgraph-checkpoint-conformance``
0.0.2 tests checkpointers only), so this is a suite of our own modelled on LangGraph's store tests
(``libs/checkpoint/tests/test_store.py``: namespaces, wildcards, depth, pagination, invalid
namespaces, search with filters and queries) and on ``InMemoryStore``'s behaviour, sync and async;
then what the store adds: versions, a dispute between two agents, deletes that keep history, and a
LangGraph graph that reads and writes memory through it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypedDict, TypeVar

import pytest
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import GetOp, InvalidNamespaceError, Item, PutOp, SearchItem, SearchOp

from belief_graph import BeliefGraph
from belief_graph.errors import ValidationError
from belief_graph.integrations.langgraph import BeliefGraphStore

T = TypeVar("T")


@pytest.fixture()
def store(bg: BeliefGraph) -> BeliefGraphStore:
    return BeliefGraphStore(bg, agent="agent:planner")


def _claims(bg: BeliefGraph) -> int:
    return sum(int(r["count"]) for r in bg.admin.stats() if r["label"] == "Claim")


# -- get / put / delete ----------------------------------------------------------------------------
def test_put_then_get_returns_the_item(store: BeliefGraphStore, bg: BeliefGraph) -> None:
    assert store.get(("users", "alice"), "theme") is None
    store.put(("users", "alice"), "theme", {"mode": "dark", "size": 12, "tags": ["a", "b"], "meta": {"x": None}})
    item = store.get(("users", "alice"), "theme")
    assert isinstance(item, Item)
    assert item.namespace == ("users", "alice") and item.key == "theme"
    assert item.value == {"mode": "dark", "size": 12, "tags": ["a", "b"], "meta": {"x": None}}
    assert item.created_at == item.updated_at and item.created_at.tzinfo is not None
    belief = bg.belief("lg.users.alice.theme")  # the item is a belief of the store's agent
    assert belief is not None and belief.agent == "agent:planner"
    assert store.get(("users", "bob"), "theme") is None


def test_two_puts_make_two_versions_and_keep_created_at(store: BeliefGraphStore, bg: BeliefGraph) -> None:
    ns = ("users", "alice", "prefs")
    store.put(ns, "theme", {"mode": "dark"})
    first = store.get(ns, "theme")
    store.put(ns, "theme", {"mode": "light"})
    second = store.get(ns, "theme")
    assert first is not None and second is not None
    assert second.value == {"mode": "light"}
    assert second.created_at == first.created_at
    assert second.updated_at > first.updated_at
    versions = bg.beliefs.history("lg.users.alice.prefs.theme")
    assert [(v.claim.value, v.claim.status.value, v.current) for v in versions] == [
        ('{"mode": "dark"}', "superseded", False),
        ('{"mode": "light"}', "active", True),
    ]
    assert versions[1].supersedes == versions[0].claim.id
    store.put(ns, "theme", {"mode": "light"})  # the same dict again: no new version
    assert len(bg.beliefs.history("lg.users.alice.prefs.theme")) == 2


def test_delete_retracts_and_history_keeps_it(store: BeliefGraphStore, bg: BeliefGraph) -> None:
    ns = ("notes",)
    store.put(ns, "n1", {"text": "The launch is on Friday"})
    store.put(ns, "n2", {"text": "The budget is 40k"})
    store.delete(ns, "n1")
    store.put(ns, "n2", None)  # put(None) is a delete too
    assert store.get(ns, "n1") is None and store.get(ns, "n2") is None
    assert store.search(ns) == []
    assert store.search(ns, query="when is the launch?") == []
    assert store.list_namespaces() == []
    (gone,) = bg.beliefs.history("lg.notes.n1")
    assert gone.claim.status.value == "retracted"
    assert [r.status for r in gone.revisions] == ["active", "retracted"]
    assert bg.support.audits()[0].reason == "deleted through the LangGraph store"
    store.delete(ns, "n1")  # deleting what is gone, or was never there, changes nothing
    store.delete(ns, "never")
    assert len(bg.beliefs.history("lg.notes.n1")) == 1
    store.put(ns, "n1", {"text": "The launch moved to Monday"})  # back, as a new version
    again = store.get(ns, "n1")
    assert again is not None and again.value == {"text": "The launch moved to Monday"}
    assert [v.claim.status.value for v in bg.beliefs.history("lg.notes.n1")] == ["retracted", "active"]


def test_a_delete_that_a_put_overtook_leaves_the_put_current(store: BeliefGraphStore, bg: BeliefGraph) -> None:
    # delete reads the current belief, then retracts it: the steps of a put landing in between, by hand
    store.put(("a",), "k", {"v": 1})
    read_by_delete = bg.belief("lg.a.k")
    store.put(("a",), "k", {"v": 2})
    assert read_by_delete is not None
    bg.retract(read_by_delete.id, "deleted through the LangGraph store", agent=store.agent)
    got = store.get(("a",), "k")
    assert got is not None and got.value == {"v": 2}
    assert [v.claim.status.value for v in bg.beliefs.history("lg.a.k")] == ["retracted", "active"]


def test_labels_and_keys_the_key_grammar_refuses_round_trip(store: BeliefGraphStore) -> None:
    odd = [(("a b", "ünï", "x-y"), "k.1"), (("-lead",), ""), (("langgraph-ish", "é"), "a/b?c")]
    for ns, key in odd:
        store.put(ns, key, {"key": key})
    for ns, key in odd:
        got = store.get(ns, key)
        assert got is not None and got.namespace == ns and got.key == key and got.value == {"key": key}
    assert store.list_namespaces() == sorted(ns for ns, _ in odd)


def test_a_batch_runs_in_order(store: BeliefGraphStore) -> None:
    got = store.batch(
        [
            GetOp(("a",), "k"),
            PutOp(("a",), "k", {"v": 1}),
            GetOp(("a",), "k"),
            PutOp(("a",), "k", None),
            GetOp(("a",), "k"),
        ]
    )
    assert got[0] is None and got[1] is None and got[3] is None and got[4] is None
    assert isinstance(got[2], Item) and got[2].value == {"v": 1}


# -- bad input: a typed error, nothing written ------------------------------------------------------
def test_bad_input_raises_and_writes_nothing(store: BeliefGraphStore, bg: BeliefGraph) -> None:
    store.put(("ok",), "k", {"v": 0})
    before = _claims(bg)
    assert before == 1
    with pytest.raises(InvalidNamespaceError):
        store.put((), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.put(("the", "thing.about"), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):  # past the public API: a valid put before it is not run
        store.batch([PutOp(("ok",), "k", {"v": 1}), PutOp(("some", ""), "k", {"v": 1})])
    with pytest.raises(ValidationError):  # the same, as belief_graph's typed error
        store.batch([PutOp(("ok",), "k", {"v": 1}), PutOp(("x.y",), "k", {"v": 1})])
    with pytest.raises(ValidationError, match="JSON"):
        store.put(("ok",), "k", {"when": object()})
    with pytest.raises(ValidationError, match="JSON"):
        store.put(("ok",), "k", {"x": float("nan")})
    with pytest.raises(ValidationError, match="at most 256"):
        store.put(("ok",), "k" * 300, {"v": 1})
    with pytest.raises(ValidationError, match="at most 20,000"):
        store.put(("ok",), "k", {"v": "x" * 20_001})
    with pytest.raises(ValidationError, match="surrogate"):
        store.put(("ok",), "k", {"v": "a\ud800b"})
    with pytest.raises(ValidationError, match="query"):  # checked before the put before it runs
        store.batch([PutOp(("ok",), "k", {"v": 1}), SearchOp(("ok",), query="x" * 10_001)])
    with pytest.raises(ValidationError, match="index"):
        store.put(("ok",), "k", {"v": "x"}, index=[3])  # type: ignore[list-item]
    with pytest.raises(NotImplementedError, match="TTL"):
        store.put(("ok",), "k", {"v": 1}, ttl=5)
    with pytest.raises(ValidationError, match="operator"):
        store.search(("ok",), filter={"v": {"$regex": "x"}})
    with pytest.raises(ValidationError, match="limit"):
        store.search(("ok",), limit=-1)
    assert _claims(bg) == before
    got = store.get(("ok",), "k")
    assert got is not None and got.value == {"v": 0}


def test_the_store_checks_what_it_is_given(bg: BeliefGraph) -> None:
    with pytest.raises(ValidationError, match="prefix"):
        BeliefGraphStore(bg, prefix="lg.")
    with pytest.raises(ValidationError, match="agent"):
        BeliefGraphStore(bg, agent=" ")
    with pytest.raises(ValidationError, match="BeliefGraph"):
        BeliefGraphStore(object())  # type: ignore[arg-type]


# -- list_namespaces (LangGraph's test_list_namespaces_*) -------------------------------------------
NAMESPACES = [
    ("a", "b", "c"),
    ("a", "b", "d", "e"),
    ("a", "b", "d", "i"),
    ("a", "b", "f"),
    ("a", "c", "f"),
    ("b", "a", "f"),
    ("users", "123"),
    ("users", "456", "settings"),
    ("admin", "users", "789"),
]


def test_list_namespaces(store: BeliefGraphStore) -> None:
    for i, ns in enumerate(NAMESPACES):
        store.put(ns, f"id_{i}", {"data": f"value_{i:02d}"})
    ls = store.list_namespaces
    assert ls() == sorted(NAMESPACES)
    assert ls(prefix=("a", "b")) == [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert ls(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert ls(prefix=("a",), suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert ls(prefix=("a", "b"), max_depth=3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert ls(max_depth=1) == [("a",), ("admin",), ("b",), ("users",)]
    assert ls(prefix=("a", "b"), limit=2) == [("a", "b", "c"), ("a", "b", "d", "e")]
    assert ls(prefix=("a", "b"), offset=2) == [("a", "b", "d", "i"), ("a", "b", "f")]
    assert ls(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert ls(suffix=("*", "f")) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert ls(prefix=("users", "*")) == [("users", "123"), ("users", "456", "settings")]
    assert ls(prefix=("*", "users"), suffix=("*", "settings")) == []
    assert ls(prefix=("nonexistent",)) == []
    assert ls(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_pages_and_ignores_other_keys(store: BeliefGraphStore, bg: BeliefGraph) -> None:
    for i in range(12):
        store.put(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"data": i})
    bg.assert_claim("user.city", "Lyon", "The user lives in Lyon", agent="user:alice")  # not the store's
    bg.assert_claim("lg.odd-2", "x", "A key under the prefix the store did not write", agent="user:alice")
    ls = store.list_namespaces
    assert ls(prefix=("namespace",), limit=5) == [("namespace", f"sub_{i:02d}") for i in range(5)]
    assert ls(prefix=("namespace",), limit=5, offset=10) == [("namespace", "sub_10"), ("namespace", "sub_11")]
    assert len(ls()) == 12
    assert BeliefGraphStore(bg, prefix="other").list_namespaces() == []


# -- search ----------------------------------------------------------------------------------------
def _fill(store: BeliefGraphStore) -> None:
    store.put(("docs", "alice"), "d1", {"text": "Alice prefers window seats on long flights", "kind": "pref", "n": 1})
    store.put(("docs", "alice"), "d2", {"text": "Alice is allergic to peanuts", "kind": "health", "n": 2})
    store.put(("docs", "bob"), "d3", {"text": "Bob drives an old blue Volvo", "kind": "fact", "n": 3})
    store.put(("docs", "bob"), "d4", {"text": "Bob is vegetarian", "kind": "health", "n": 4})
    store.put(("misc",), "d5", {"text": "Peanut butter is on the shopping list", "kind": "todo", "n": 5})


def test_search_without_query_lists_by_prefix(store: BeliefGraphStore) -> None:
    _fill(store)
    got = store.search(("docs",))
    assert [i.key for i in got] == ["d4", "d3", "d2", "d1"]  # the most recently updated first
    assert all(isinstance(i, SearchItem) and i.score is None for i in got)
    assert [i.key for i in store.search(("docs", "alice"))] == ["d2", "d1"]
    assert [i.key for i in store.search(())] == ["d5", "d4", "d3", "d2", "d1"]
    assert [i.key for i in store.search(("docs",), limit=2, offset=1)] == ["d3", "d2"]
    assert [i.key for i in store.search(("docs",), filter={"kind": "health"})] == ["d4", "d2"]
    assert [i.key for i in store.search((), filter={"n": {"$gte": 2, "$lt": 5}}, offset=1)] == ["d3", "d2"]
    assert [i.key for i in store.search((), filter={"kind": {"$ne": "health"}})] == ["d5", "d3", "d1"]
    assert store.search(("docs", "carol")) == []
    assert store.search(("docs",), limit=0) == []


def test_search_with_query_is_recall_under_the_prefix(store: BeliefGraphStore) -> None:
    _fill(store)
    got = store.search(("docs",), query="does anyone have a nut allergy?", limit=3)
    assert got[0].key == "d2" and got[0].namespace == ("docs", "alice")
    assert all(i.namespace[0] == "docs" for i in got)  # d5 is about peanuts too, outside the prefix
    assert all(isinstance(i.score, float) for i in got)
    assert [i.score for i in got] == sorted((i.score for i in got), reverse=True)  # type: ignore[arg-type]
    health = store.search((), query="food restrictions", filter={"kind": "health"})
    assert {i.key for i in health} == {"d2", "d4"}
    first_two = store.search(("docs",), query="what does bob eat or drive?", limit=2)
    assert store.search(("docs",), query="what does bob eat or drive?", limit=1, offset=1)[0].key == first_two[1].key


# -- what belief_graph adds: policy and disputes ---------------------------------------------------
def test_conflicting_puts_by_two_agents_open_a_dispute(bg: BeliefGraph) -> None:
    bg.conflicts.set_policy("lg.users.*", "authority")
    bg.conflicts.set_authority("agent:profile", "lg.users.*", 0.9)
    bg.conflicts.set_authority("agent:chat", "lg.users.*", 0.3)
    profile = BeliefGraphStore(bg, agent="agent:profile")
    chat = BeliefGraphStore(bg, agent="agent:chat")
    profile.put(("users", "alice"), "city", {"city": "Lyon"})
    chat.put(("users", "alice"), "city", {"city": "Paris"})  # weaker: parked as disputed
    got = chat.get(("users", "alice"), "city")
    assert got is not None and got.value == {"city": "Lyon"}
    (dispute,) = bg.conflicts.disputes("open")
    assert dispute.key == "lg.users.alice.city"
    assert (dispute.incumbent.value, dispute.challenger.value) == ('{"city": "Lyon"}', '{"city": "Paris"}')
    assert dispute.challenger.agent == "agent:chat"


# -- async ---------------------------------------------------------------------------------------
async def _async_round(store: BeliefGraphStore) -> dict[str, Any]:
    ns = ("users", "alice")
    await store.aput(ns, "food", {"text": "Alice loves Sichuan food"})
    await store.aput(ns, "pet", {"text": "Alice has a cat named Miso"})
    both = await asyncio.gather(store.aget(ns, "food"), store.aget(ns, "pet"))
    found = await store.asearch(("users",), query="what animal lives with her?", limit=1)
    spaces = await store.alist_namespaces(prefix=("users",))
    await store.adelete(ns, "food")
    return {"both": both, "found": found, "spaces": spaces, "after": await store.aget(ns, "food")}


def _check_async_round(got: dict[str, Any]) -> None:
    assert [i.value["text"] for i in got["both"]] == ["Alice loves Sichuan food", "Alice has a cat named Miso"]
    assert [i.key for i in got["found"]] == ["pet"]
    assert got["spaces"] == [("users", "alice")]
    assert got["after"] is None


def test_async_store_in_a_worker_thread(store: BeliefGraphStore, bg: BeliefGraph) -> None:
    _check_async_round(asyncio.run(_async_round(store)))
    assert [v.claim.status.value for v in bg.beliefs.history("lg.users.alice.food")] == ["retracted"]


class _Caller:
    """An async client's ``call`` (``AsyncBeliefGraph``): runs ``fn(bg, *args)`` in a worker thread."""

    def __init__(self, bg: BeliefGraph) -> None:
        self.bg, self.calls = bg, 0

    async def call(self, fn: Callable[..., T], /, *args: Any) -> T:
        self.calls += 1
        return await asyncio.to_thread(fn, self.bg, *args)


def test_async_store_through_an_async_clients_call(bg: BeliefGraph) -> None:
    caller = _Caller(bg)
    store = BeliefGraphStore(caller, agent="agent:planner")
    _check_async_round(asyncio.run(_async_round(store)))
    assert caller.calls >= 6
    with pytest.raises(ValidationError, match="async"):
        store.get(("users", "alice"), "pet")


# -- a LangGraph graph that reads and writes memory through the store ------------------------------
class State(TypedDict):
    user: str
    message: str
    reply: str


def remember(state: State, runtime: Runtime[None]) -> dict[str, str]:
    assert runtime.store is not None
    if state["message"].startswith("I live in "):
        city = state["message"].removeprefix("I live in ").rstrip(".")
        runtime.store.put(("users", state["user"]), "city", {"city": city, "text": f"The user lives in {city}"})
    return {}


def reply(state: State) -> dict[str, str]:
    store = get_store()
    item = store.get(("users", state["user"]), "city")
    hits = store.search(("users", state["user"]), query="where does the user live?", limit=1)
    known = item.value["city"] if item is not None else "unknown"
    return {"reply": f"city={known}; recalled={hits[0].value['city'] if hits else None}"}


async def areply(state: State, runtime: Runtime[None]) -> dict[str, str]:
    assert runtime.store is not None
    item = await runtime.store.aget(("users", state["user"]), "city")
    return {"reply": f"city={item.value['city'] if item is not None else 'unknown'}"}


def _graph(store: BeliefGraphStore, answer: Callable[..., Any]) -> Any:
    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("reply", answer)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "reply")
    builder.add_edge("reply", END)
    return builder.compile(store=store)


def test_a_langgraph_graph_keeps_memory_in_belief_graph(store: BeliefGraphStore, bg: BeliefGraph) -> None:
    graph = _graph(store, reply)
    first = graph.invoke({"user": "alice", "message": "I live in Lyon.", "reply": ""})
    assert first["reply"] == "city=Lyon; recalled=Lyon"
    second = graph.invoke({"user": "alice", "message": "I live in Porto.", "reply": ""})
    assert second["reply"] == "city=Porto; recalled=Porto"
    assert graph.invoke({"user": "bob", "message": "hello", "reply": ""})["reply"] == "city=unknown; recalled=None"
    versions = bg.beliefs.history("lg.users.alice.city")
    assert [v.claim.status.value for v in versions] == ["superseded", "active"]

    agraph = _graph(store, areply)  # the same memory, through the store's async methods
    out = asyncio.run(agraph.ainvoke({"user": "alice", "message": "I live in Oslo.", "reply": ""}))
    assert out["reply"] == "city=Oslo"
    assert len(bg.beliefs.history("lg.users.alice.city")) == 3
