"""Deleted text leaves no bytes behind in the SQLite file or its WAL, whatever the build's default.

Some SQLite builds compile in ``SQLITE_SECURE_DELETE`` (this machine's does), which hid that Kenning
never asked for it: freed pages kept deleted text. These tests force the default off on every
connection the store opens, then check the raw bytes after one maintenance pass.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import kenning
from kenning.embedders import HashEmbedder
from kenning.stores.sqlite import store as sqlite_store

CANARY = "Quokkafrond-44871"


class _DefaultOff(sqlite3.Connection):
    """A connection whose build default is secure_delete=OFF (set before the store's own pragmas)."""

    ignore_store_pragma = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        super().execute("PRAGMA secure_delete = OFF")

    def execute(self, sql, *args):
        if self.ignore_store_pragma and sql.replace(" ", "").lower().startswith("pragmasecure_delete"):
            sql = "PRAGMA secure_delete = OFF"
        return super().execute(sql, *args)


def _open(path: Path, monkeypatch, *, honour_store_pragma: bool):
    real = sqlite3.connect
    factory = type("Conn", (_DefaultOff,), {"ignore_store_pragma": not honour_store_pragma})
    monkeypatch.setattr(sqlite_store.sqlite3, "connect", lambda *a, **kw: real(*a, factory=factory, **kw))
    return kenning.open(f"sqlite:///{path}", embedder=HashEmbedder())


def _plant_and_delete(system) -> None:
    mem = system.scope("acme", "alice")
    for i in range(40):  # enough rows that the canary's page is not simply truncated away
        mem.remember(f"Alice noted ordinary thing number {i} about her garden and the weather")
    doomed = [mem.remember(f"My tortoise is called {CANARY} and sleeps under the stairs"),
              mem.remember(f"{CANARY} likes dandelions more than lettuce")]
    for m in doomed:
        mem.delete(m.id)
    mem.forget(CANARY)


def _residue(path: Path) -> int:
    found = 0
    for f in (path, path.with_name(path.name + "-wal")):
        if f.exists():
            found += f.read_bytes().count(CANARY.encode())
    return found


def test_every_connection_turns_secure_delete_on(tmp_path, monkeypatch):
    system = _open(tmp_path / "k.db", monkeypatch, honour_store_pragma=True)
    try:
        con = system.ctx.store._reader()
        assert con.execute("PRAGMA secure_delete").fetchone()[0] == 1
        assert system.ctx.store._writer.execute("PRAGMA secure_delete").fetchone()[0] == 1
    finally:
        system.close()


def test_deleted_text_is_gone_from_the_file_and_wal_after_one_pass(tmp_path, monkeypatch):
    path = tmp_path / "k.db"
    system = _open(path, monkeypatch, honour_store_pragma=True)
    try:
        _plant_and_delete(system)
        system.maintain()
        assert _residue(path) == 0
    finally:
        system.close()
    assert _residue(path) == 0


def test_the_check_would_see_residue_without_the_pragma(tmp_path, monkeypatch):
    """The control: with the store's pragma ignored, the same steps leave the canary in the bytes,
    so the test above can fail."""
    path = tmp_path / "k.db"
    system = _open(path, monkeypatch, honour_store_pragma=False)
    try:
        assert system.ctx.store._writer.execute("PRAGMA secure_delete").fetchone()[0] == 0
        _plant_and_delete(system)
        system.maintain()
        leftover = _residue(path)
    finally:
        system.close()
    if leftover == 0:
        pytest.fail("no residue even without secure_delete: the check cannot tell the two apart")
