"""The SQLite engine's administrative state: worker leases, tenant API keys, secrets, and deleted-text residue."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from kenning.stores.sqlite.rows import _key_row, to_us
from kenning.types import ApiKey


class AdminMixin:
    """Leases, keys, secrets and residue purging; mixed into ``SQLiteStore`` (uses its ``_read``/``_write``)."""

    # -- leases ---------------------------------------------------------------

    def acquire_lease(self, name: str, holder: str, now: datetime, ttl_s: float) -> bool:
        now_us = to_us(now)
        until = now_us + int(ttl_s * 1_000_000)
        with self._write() as con:
            cur = con.execute(
                "INSERT INTO leases (name, holder, until) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE "
                "SET holder = excluded.holder, until = excluded.until WHERE leases.holder = excluded.holder OR leases.until <= ?",
                (name, holder, until, now_us),
            )
            return cur.rowcount == 1

    def release_lease(self, name: str, holder: str) -> None:
        with self._write() as con:
            con.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    def purge_residue(self) -> None:
        """Rewrite what still holds deleted text outside any row: FTS5 index segments
        keep a deleted row's terms until they merge, and the WAL keeps old page
        images until a checkpoint. Costs one rewrite of the keyword index (seconds
        at a million memories, holding the write lock), so deletions only flag it,
        in their own transaction, and the worker runs it once a pass; with nothing
        flagged it returns at once."""
        with self._write() as con:
            row = con.execute("SELECT value FROM meta WHERE key = 'residue_pending'").fetchone()
            if not row or row[0] != "1":
                return
            con.execute("INSERT INTO memory_fts(memory_fts) VALUES ('optimize')")
            con.execute("UPDATE meta SET value = '0' WHERE key = 'residue_pending'")
        with self._write_lock:
            try:
                self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:  # readers in other processes: the next checkpoint finishes it
                pass

    # -- API keys and secrets ---------------------------------------------------

    def put_api_key(self, key: ApiKey) -> None:
        with self._write() as con:
            con.execute(
                "INSERT INTO api_keys (id, tenant_id, name, key_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)",
                (key.id, key.tenant_id, key.name, key.key_hash, to_us(key.created_at), to_us(key.revoked_at)),
            )

    def find_api_key(self, key_hash: str) -> ApiKey | None:
        with self._read() as con:
            row = con.execute(f"SELECT {_KEY_COLS} FROM api_keys WHERE key_hash = ?", (key_hash,)).fetchone()
        return _key_row(row) if row else None

    def list_api_keys(self, tenant_id: str) -> list[ApiKey]:
        with self._read() as con:
            rows = con.execute(
                f"SELECT {_KEY_COLS} FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id", (tenant_id,)
            ).fetchall()
        return [_key_row(r) for r in rows]

    def revoke_api_key(self, tenant_id: str, key_id: str, now: datetime) -> bool:
        with self._write() as con:
            cur = con.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ? AND id = ? AND revoked_at IS NULL",
                (to_us(now), tenant_id, key_id),
            )
            return cur.rowcount == 1

    def secret(self, name: str, candidate: str) -> str:
        with self._write() as con:
            con.execute("INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)", (name, candidate))
            return con.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()[0]


_KEY_COLS = "id, tenant_id, name, key_hash, created_at, revoked_at"


def _mark_residue(con: sqlite3.Connection) -> None:
    """Note that deleted text may linger in index segments until ``purge_residue`` runs."""
    con.execute(
        "INSERT INTO meta (key, value) VALUES ('residue_pending', '1') ON CONFLICT (key) DO UPDATE SET value = '1'"
    )
