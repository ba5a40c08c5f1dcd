"""The facade over a real SQLite file: remember, search, get, list, update, history, export, import, and bad input."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

import kenning
from kenning.errors import NotFound, ValidationError
from kenning.types import Kind, Op, Source, Status

from ..conftest import T0, at


def test_remember_then_search_returns_hits_with_components(system):
    alice = system.scope("acme", "alice")
    m = alice.remember("Alice prefers morning meetings", kind="preference", now=T0)
    alice.remember("Alice walks her dog Biscuit", kind="fact", now=T0)
    hits = alice.search("morning meetings", k=1, now=T0)
    assert hits[0].memory.id == m.id
    assert set(hits[0].components) >= {"relevance", "recency", "importance", "cosine", "keyword"}
    assert m.importance == 0.5 and m.confidence == 0.9 and m.source is Source.USER_SAID


def test_search_refreshes_last_used_at_at_most_once_per_session(system):
    alice = system.scope("acme", "alice")
    m = alice.remember("Alice likes tea", kind="episode", now=T0)
    alice.search("tea", now=T0 + timedelta(days=1), session_id="s1")
    assert alice.get(m.id).last_used_at == T0 + timedelta(days=1)
    alice.search("tea", now=T0 + timedelta(days=2), session_id="s1")
    assert alice.get(m.id).last_used_at == T0 + timedelta(days=1)  # capped within the session
    alice.search("tea", now=T0 + timedelta(days=3), session_id="s2")
    assert alice.get(m.id).last_used_at == T0 + timedelta(days=3)


def test_expired_memories_are_invisible(system):
    alice = system.scope("acme", "alice")
    alice.remember("Booking reference QX7731", kind="episode", expires_at=at("2026-02-10T00:00"), now=at("2026-02-01T10:00"))
    assert alice.search("booking reference", now=at("2026-02-05T10:00"))
    assert alice.search("booking reference", now=at("2026-02-11T10:00")) == []


def test_update_writes_a_new_version_and_history_shows_the_chain(system):
    alice = system.scope("acme", "alice")
    old = alice.remember("Alice lives in Leeds", now=T0)
    new = alice.update(old.id, text="Alice lives in York", now=T0 + timedelta(days=1))
    assert new.supersedes == (old.id,) and alice.get(old.id).status is Status.RETIRED
    assert [h.memory.id for h in alice.search("Where does Alice live?", now=T0 + timedelta(days=2))] == [new.id]
    hist = alice.history(old.id)
    assert [v.id for v in hist.versions] == [old.id, new.id]
    assert [a.op for a in hist.audit] == [Op.ADD, Op.UPDATE]
    assert alice.history(new.id).versions == hist.versions
    with pytest.raises(ValidationError):
        alice.update(old.id, text="again")


def test_export_import_round_trip_into_another_database(system, tmp_path, hash_embedder):
    alice = system.scope("acme", "alice")
    a = alice.remember("Alice lives in Leeds", now=T0)
    alice.update(a.id, text="Alice lives in York", now=T0 + timedelta(days=1))
    doc = alice.export()
    with kenning.open(f"sqlite:///{tmp_path / 'other.db'}", embedder=hash_embedder) as other:
        target = other.scope("acme", "alice")
        assert target.import_(doc) == 2
        assert target.export() == doc


def test_delete_removes_the_record_and_its_earlier_versions(system):
    alice = system.scope("acme", "alice")
    old = alice.remember("Alice lives in Leeds", now=T0)
    new = alice.update(old.id, text="Alice lives in York", now=T0)
    report = alice.delete(new.id, now=T0)
    assert set(report.deleted) >= {old.id, new.id}
    texts = [m["text"] for m in alice.export()["memories"]]
    assert not any("Leeds" in t or "York" in t for t in texts)


def test_scope_isolation_through_the_facade(system):
    alice, bob, other = system.scope("acme", "alice"), system.scope("acme", "bob"), system.scope("globex", "alice")
    secret = alice.remember("Project codename Bluefin-4410", now=T0)
    for s in (bob, other):
        assert s.search("project codename Bluefin", k=50, now=T0) == []
        assert s.list() == [] and s.export()["memories"] == []
        with pytest.raises(NotFound):
            s.get(secret.id)
        with pytest.raises(NotFound):
            s.update(secret.id, text="hijacked")
        with pytest.raises(NotFound):
            s.delete(secret.id)
        with pytest.raises(NotFound):
            s.history(secret.id)
    assert alice.get(secret.id).text == "Project codename Bluefin-4410"


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.remember(""),
        lambda s: s.remember("   "),
        lambda s: s.remember("x" * 5000),
        lambda s: s.remember(None),
        lambda s: s.remember("ok", kind="rumour"),
        lambda s: s.remember("ok", source="gossip"),
        lambda s: s.remember("ok", importance=2),
        lambda s: s.remember("ok", now=datetime(2026, 1, 1)),
        lambda s: s.remember("ok", expires_at=datetime(2026, 1, 1)),
        lambda s: s.search(""),
        lambda s: s.search("ok", k=0),
        lambda s: s.search("ok", k=10_000),
        lambda s: s.get(""),
        lambda s: s.list(kinds=["rumour"]),
    ],
)
def test_bad_input_raises_a_clear_error_and_changes_nothing(system, call):
    alice = system.scope("acme", "alice")
    with pytest.raises(ValidationError):
        call(alice)
    assert alice.export()["memories"] == []


@pytest.mark.parametrize("call", [lambda s: s.get("mem_nope"), lambda s: s.delete("mem_nope"), lambda s: s.history("mem_nope"),
                                  lambda s: s.update("mem_nope", text="x")])
def test_unknown_ids_are_not_found(system, call):
    with pytest.raises(NotFound):
        call(system.scope("acme", "alice"))


def test_list_filters_by_kind_and_status(system):
    alice = system.scope("acme", "alice")
    f = alice.remember("fact one", kind=Kind.FACT, now=T0)
    e = alice.remember("episode one", kind=Kind.EPISODE, now=T0 + timedelta(seconds=1))
    assert [m.id for m in alice.list()] == [e.id, f.id]
    assert [m.id for m in alice.list(kinds=["fact"])] == [f.id]
    assert alice.count() == 2


def test_real_embedder_ranks_paraphrases(real_system):
    alice = real_system.scope("acme", "alice")
    alice.remember("Alice lives in York", now=T0)
    alice.remember("Alice's dog is called Biscuit", now=T0)
    alice.remember("Alice prefers window seats on long flights", kind="preference", now=T0)
    assert "York" in alice.search("Where is Alice's home?", k=1, now=T0)[0].memory.text
    assert "Biscuit" in alice.search("What is the name of her pet?", k=1, now=T0)[0].memory.text
    assert "window" in alice.search("Which seat does she like on a plane?", k=1, now=T0)[0].memory.text
