"""Search filters (``kenning.types.Filter``) as SQL inside the PostgreSQL engine's queries."""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from kenning.types import Filter


def predicate(where: Filter | None, alias: str = "m") -> tuple[str, dict[str, Any]]:
    """``(" AND …", params)`` keeping the rows of ``alias`` that ``where`` keeps; named params start ``f_``."""
    if not where:
        return "", {}
    sql: list[str] = []
    params: dict[str, Any] = {}
    if where.kinds is not None:
        sql.append(f"{alias}.kind = ANY(%(f_kinds)s::text[])")
        params["f_kinds"] = [k.value for k in where.kinds]
    if where.sources is not None:
        sql.append(f"{alias}.source = ANY(%(f_sources)s::text[])")
        params["f_sources"] = [s.value for s in where.sources]
    if where.since is not None:
        sql.append(f"{alias}.created_at >= %(f_since)s")
        params["f_since"] = where.since
    if where.until is not None:
        sql.append(f"{alias}.created_at < %(f_until)s")
        params["f_until"] = where.until
    if where.min_confidence is not None:
        sql.append(f"{alias}.confidence >= %(f_conf)s")
        params["f_conf"] = where.min_confidence
    if where.session_id is not None:
        sql.append(f"{alias}.session_id = %(f_session)s")
        params["f_session"] = where.session_id
    for i, (key, value) in enumerate(where.metadata.items()):
        # jsonb equality: numbers by value (1 = 1.0), never "1" = 1 or true = 1, a missing key never matches.
        sql.append(f"{alias}.metadata -> %(f_mk{i})s = %(f_mv{i})s::jsonb")
        params[f"f_mk{i}"] = key
        params[f"f_mv{i}"] = Jsonb(value)
    return "".join(f" AND ({s})" for s in sql), params
