"""KenningStore against LangGraph's BaseStore behaviour.

LangGraph's package ships no store test suite (langgraph 1.2 has only the
stores themselves), so its reference store, ``InMemoryStore``, is the oracle:
the same operations on both must give the same answers for put, get, delete,
search (filters, namespaces, limits) and list_namespaces. Query search is
checked for Kenning's own ranking separately.
"""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("langgraph")

from langgraph.store.base import InvalidNamespaceError  # noqa: E402
from langgraph.store.memory import InMemoryStore  # noqa: E402

import kenning  # noqa: E402
from kenning.embedders import HashEmbedder  # noqa: E402
from kenning.integrations.langgraph import KenningStore  # noqa: E402

ITEMS = [
    (("acme", "alice", "memories"), "diet", {"text": "Alice is vegetarian", "topic": "food", "n": 3}),
    (("acme", "alice", "memories"), "home", {"text": "Alice lives in York", "topic": "places", "n": 1}),
    (("acme", "alice", "memories", "travel"), "seat", {"text": "Alice takes the aisle seat", "topic": "travel", "n": 2}),
    (("acme", "alice", "profile"), "name", {"content": "Alice Smith", "topic": "identity"}),
    (("acme", "bob", "memories"), "diet", {"text": "Bob eats everything", "topic": "food", "n": 5}),
    (("globex", "carol", "memories"), "pet", {"memory": "Carol has a cat", "topic": "pets", "flag": True}),
]


@pytest.fixture
def stores(tmp_path):
    with kenning.open(f"sqlite:///{tmp_path / 'lg.db'}", embedder=HashEmbedder()) as system:
        ours, ref = KenningStore(system), InMemoryStore()
        for ns, key, value in ITEMS:
            ours.put(ns, key, value)
            ref.put(ns, key, value)
        yield ours, ref, system


def _view(items):
    return sorted((i.namespace, i.key, tuple(sorted(i.value.items()))) for i in items)


def test_get_put_overwrite_delete_match_the_reference(stores):
    ours, ref, system = stores
    for ns, key, _ in ITEMS:
        assert ours.get(ns, key).value == ref.get(ns, key).value
        assert ours.get(ns, key).namespace == ns and ours.get(ns, key).key == key
    assert ours.get(("acme", "alice", "memories"), "nope") is None is ref.get(("acme", "alice", "memories"), "nope")
    assert ours.get(("acme", "alice"), "diet") is None  # another namespace depth is another namespace

    first = ours.get(("acme", "alice", "memories"), "home")
    for s in (ours, ref):
        s.put(("acme", "alice", "memories"), "home", {"text": "Alice lives in Bath", "topic": "places", "n": 9})
    again = ours.get(("acme", "alice", "memories"), "home")
    assert again.value == ref.get(("acme", "alice", "memories"), "home").value
    assert again.created_at == first.created_at and again.updated_at >= first.updated_at
    # an overwrite is a new Kenning version: the old value stays in the history, out of retrieval
    alice = system.scope("acme", "alice")
    (current,) = [m for m in alice.list() if m.metadata.get("lg_key") == "home"]
    assert [v.text for v in alice.history(current.id).versions] == ["Alice lives in York", "Alice lives in Bath"]

    for s in (ours, ref):
        s.delete(("acme", "alice", "memories"), "diet")
        s.delete(("acme", "alice", "memories"), "never-there")
    assert ours.get(("acme", "alice", "memories"), "diet") is None
    assert _view(ours.search(("acme",), limit=50)) == _view(ref.search(("acme",), limit=50))


@pytest.mark.parametrize(
    ("prefix", "flt"),
    [
        ((), None),
        (("acme",), None),
        (("acme", "alice"), None),
        (("acme", "alice", "memories"), None),
        (("acme", "alice", "memories", "travel"), None),
        (("acme", "alice", "nothing"), None),
        (("acme",), {"topic": "food"}),
        (("acme", "alice"), {"topic": {"$eq": "places"}}),
        (("acme", "alice", "memories"), {"n": {"$gt": 1}}),
        (("acme", "alice", "memories"), {"n": {"$lte": 2}, "topic": "places"}),
        ((), {"flag": True}),
        (("acme", "alice"), {"topic": {"$ne": "food"}}),
        (("acme", "alice"), {"missing": None}),
    ],
)
def test_search_without_a_query_keeps_what_the_reference_keeps(stores, prefix, flt):
    ours, ref, _ = stores
    assert _view(ours.search(prefix, filter=flt, limit=50)) == _view(ref.search(prefix, filter=flt, limit=50))


def test_limit_and_offset_page_through(stores):
    ours, _, _ = stores
    pages = [ours.search(("acme",), limit=2, offset=o) for o in (0, 2, 4)]
    assert [len(p) for p in pages] == [2, 2, 1]
    assert len({(i.namespace, i.key) for p in pages for i in p}) == 5


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"prefix": ("acme",)},
        {"prefix": ("acme", "alice")},
        {"suffix": ("memories",)},
        {"prefix": ("acme", "*", "memories")},
        {"max_depth": 2},
        {"prefix": ("acme",), "max_depth": 3},
        {"limit": 2, "offset": 1},
        {"prefix": ("nobody",)},
    ],
)
def test_list_namespaces_matches_the_reference(stores, kwargs):
    ours, ref, _ = stores
    assert ours.list_namespaces(**kwargs) == ref.list_namespaces(**kwargs)


def test_query_search_uses_kenning_scoring_inside_the_namespace(stores):
    ours, _, _ = stores
    hits = ours.search(("acme", "alice"), query="aisle seat", limit=3)
    assert hits[0].key == "seat" and hits[0].score is not None and 0 <= hits[0].score <= 1
    assert all(h.namespace[:2] == ("acme", "alice") for h in hits)
    assert [h.key for h in ours.search(("acme", "alice"), query="vegetarian", filter={"topic": "places"})] == ["home"]
    assert ours.search(("acme", "bob"), query="aisle seat")[0].key == "diet"  # nothing of Alice's reaches Bob


def test_a_fixed_tenant_makes_namespaces_start_with_the_user(tmp_path):
    with kenning.open(f"sqlite:///{tmp_path / 't.db'}", embedder=HashEmbedder()) as system:
        store = KenningStore(system, tenant_id="acme")
        store.put(("alice", "memories"), "diet", {"text": "Alice is vegetarian"})
        assert system.scope("acme", "alice").list()[0].text == "Alice is vegetarian"
        assert store.list_namespaces() == [("alice", "memories")]
        with pytest.raises(InvalidNamespaceError):
            store.put((), "k", {"text": "x"})


def test_the_async_methods_work_the_same(stores):
    ours, _, _ = stores

    async def run():
        await ours.aput(("acme", "dave", "memories"), "tea", {"text": "Dave drinks green tea"})
        got = await ours.aget(("acme", "dave", "memories"), "tea")
        found = await ours.asearch(("acme", "dave"), query="tea")
        names = await ours.alist_namespaces(prefix=("acme", "dave"))
        await ours.adelete(("acme", "dave", "memories"), "tea")
        return got, found, names, await ours.aget(("acme", "dave", "memories"), "tea")

    got, found, names, gone = asyncio.run(run())
    assert got.value == {"text": "Dave drinks green tea"} and found[0].key == "tea"
    assert names == [("acme", "dave", "memories")] and gone is None
