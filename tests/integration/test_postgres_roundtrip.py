"""Export from one engine, import into the other, through the facade and the CLI: every field survives."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from click.testing import CliRunner

import kenning
from kenning.cli import main as cli
from kenning.embedders import HashEmbedder


pytestmark = pytest.mark.postgres

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)


def populate(k: kenning.Kenning) -> None:
    """A user whose records cover every field and every status: versions, tombstones, provisional, expiry."""
    alice = k.scope("acme", "alice")
    tea = alice.remember(
        "Alice drinks green tea",
        kind="preference",
        importance=0.3,
        confidence=0.7,
        source="inferred",
        source_refs=("evt_1", "evt_2"),
        session_id="s-1",
        metadata={"channel": "chat", "tags": ["drink", 1, None, 2.5]},
        now=T0,
    )
    alice.update(tea.id, text="Alice drinks black tea", now=T0 + timedelta(minutes=1, microseconds=3))
    alice.remember("Alice's booking reference is QX7", kind="episode", expires_at=T0 + timedelta(days=2), now=T0)
    alice.remember("Alice is allergic to peanuts", kind="fact", sensitivity="personal", now=T0 + timedelta(seconds=5))
    gone = alice.remember("Alice's old address was 1 Elm Street", now=T0 + timedelta(seconds=6))
    alice.delete(gone.id, now=T0 + timedelta(minutes=2))
    alice.search("what does Alice drink", now=T0 + timedelta(hours=1), session_id="s-2")  # refreshes last_used_at
    k.scope("acme", "bob").remember("Bob is not exported with Alice", now=T0)


def strip_scope(doc: dict) -> dict:
    return {key: value for key, value in doc.items() if key not in ("tenant_id", "user_id")}


@pytest.mark.parametrize("direction", ["sqlite->postgres", "postgres->sqlite"])
def test_export_import_round_trips_every_field_between_engines(direction, tmp_path, pg_url):
    sqlite_url = f"sqlite:///{tmp_path / 'k.db'}"
    src_url, dst_url = (sqlite_url, pg_url) if direction == "sqlite->postgres" else (pg_url, sqlite_url)
    emb = HashEmbedder()
    with kenning.open(src_url, embedder=emb) as src:
        populate(src)
        exported = src.scope("acme", "alice").export()
    statuses = {m["status"] for m in exported["memories"]}
    assert statuses == {"active", "retired", "deleted"}
    with kenning.open(dst_url, embedder=emb) as dst:
        assert dst.scope("acme", "alice").import_(json.loads(json.dumps(exported))) == len(exported["memories"])
        again = dst.scope("acme", "alice").export()
        assert again == exported  # every field of every record and audit line, embeddings included
        assert dst.scope("acme", "bob").count() == 0
        alice = dst.scope("acme", "alice")
        assert [h.memory.text for h in alice.search("black tea", now=T0 + timedelta(hours=2))][:1] == ["Alice drinks black tea"]
        history = alice.history(alice.list(kinds=["preference"])[0].id)
        assert [v.text for v in history.versions] == ["Alice drinks green tea", "Alice drinks black tea"]
        original = {m["id"]: m for m in exported["memories"]}
        for m in alice.list(statuses=("active", "retired", "deleted")):
            want = original[m.id]["embedding"]
            assert (m.embedding is None) == (want is None)
            if want is not None:
                assert np.array_equal(m.embedding, np.asarray(want, np.float32))  # bit for bit


def test_the_cli_moves_a_user_from_sqlite_to_postgres(tmp_path, pg_url, monkeypatch):
    monkeypatch.setenv("KENNING_EMBEDDER", "hash")
    sqlite_url = f"sqlite:///{tmp_path / 'k.db'}"
    with kenning.open(sqlite_url, embedder=HashEmbedder()) as src:
        populate(src)
        exported = src.scope("acme", "alice").export()
    runner = CliRunner()
    out = runner.invoke(cli, ["export", "--db", sqlite_url, "--tenant", "acme", "--user", "alice", "-o", str(tmp_path / "a.json")])
    assert out.exit_code == 0, out.output
    out = runner.invoke(cli, ["import", "--db", pg_url, "--tenant", "acme", "--user", "alice", str(tmp_path / "a.json")])
    assert out.exit_code == 0, out.output
    with kenning.open(pg_url, embedder=HashEmbedder()) as dst:
        assert strip_scope(dst.scope("acme", "alice").export()) == strip_scope(exported)
