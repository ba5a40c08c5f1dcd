"""The SQLite engine's record of background work per scope (``ScheduleStore``): written since last done, or due."""

from __future__ import annotations

from datetime import datetime

from kenning.stores.sqlite.rows import to_us
from kenning.types import Scope


class ScheduleMixin:
    """``pending_scopes`` and ``finish_scope`` over ``scope_gen``; mixed into ``SQLiteStore`` (uses its ``_read``/``_write``)."""

    def pending_scopes(self, now: datetime) -> list[tuple[Scope, int]]:
        # One pass over the small per-scope table (10,000 scopes: a few ms); the rows
        # are the scopes, so idle ones cost a comparison each and nothing else.
        with self._read() as con:
            rows = con.execute(
                "SELECT tenant_id, user_id, gen FROM scope_gen WHERE gen <> done OR due_at <= ? ORDER BY tenant_id, user_id",
                (to_us(now),),
            ).fetchall()
        return [(Scope(t, u), g) for t, u, g in rows]

    def finish_scope(self, scope: Scope, seen: int, writes: int, due_at: datetime | None) -> bool:
        with self._write() as con:
            row = con.execute(
                "UPDATE scope_gen SET done = CASE WHEN gen = ?1 + ?2 THEN gen ELSE ?1 END, due_at = ?3 "
                "WHERE tenant_id = ?4 AND user_id = ?5 RETURNING gen = done",
                (seen, writes, to_us(due_at), scope.tenant_id, scope.user_id),
            ).fetchone()
        return bool(row and row[0])
