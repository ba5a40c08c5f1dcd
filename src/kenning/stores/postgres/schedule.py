"""The PostgreSQL engine's record of background work per scope (``ScheduleStore``): written since last done, or due."""

from __future__ import annotations

from datetime import datetime

from kenning.types import Scope


class ScheduleMixin:
    """``pending_scopes`` and ``finish_scope`` over ``kenning_scope_gen``; mixed into ``PostgresStore``."""

    def pending_scopes(self, now: datetime) -> list[tuple[Scope, int]]:
        rows = self._rows(
            "schedule",
            "SELECT tenant_id, user_id, gen FROM kenning_scope_gen WHERE gen <> done OR due_at <= %s ORDER BY tenant_id, user_id",
            (now,),
        )
        return [(Scope(t, u), g) for t, u, g in rows]

    def finish_scope(self, scope: Scope, seen: int, writes: int, due_at: datetime | None) -> bool:
        with self._tx("schedule") as conn:
            row = conn.execute(
                "UPDATE kenning_scope_gen SET done = CASE WHEN gen = %(seen)s::bigint + %(writes)s::bigint THEN gen ELSE %(seen)s::bigint END, "
                "due_at = %(due)s::timestamptz WHERE tenant_id = %(t)s AND user_id = %(u)s RETURNING gen = done",
                {"seen": seen, "writes": writes, "due": due_at, "t": scope.tenant_id, "u": scope.user_id},
            ).fetchone()
        return bool(row and row[0])
