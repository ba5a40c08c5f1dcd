"""Search filters (``kenning.types.Filter``) as SQL inside the SQLite engine's queries.

A filter is applied before ranking, never to a top k afterwards, so it never
starves the top k: over the cached partition, the ids its SQL keeps narrow the
records ranked; for statuses outside the partition (retired records), the
rows that pass it are read and ranked here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from kenning.stores.base import Scored
from kenning.stores import keywords
from kenning.stores.partition import best, context_of, encode_terms, similarities
from kenning.stores.sqlite.rows import to_us
from kenning.types import Filter, Scope, Status

if TYPE_CHECKING:
    from kenning.stores.sqlite.store import SQLiteStore


def predicate(where: Filter | None, alias: str = "m") -> tuple[str, list[Any]]:
    """``(" AND …", args)`` keeping the rows of ``alias`` (the memories table) that ``where`` keeps; empty for no filter."""
    if not where:
        return "", []
    sql: list[str] = []
    args: list[Any] = []
    if where.kinds is not None:
        sql.append(f"{alias}.kind IN ({','.join('?' * len(where.kinds))})" if where.kinds else "0")
        args += [k.value for k in where.kinds]
    if where.sources is not None:
        sql.append(f"{alias}.source IN ({','.join('?' * len(where.sources))})" if where.sources else "0")
        args += [s.value for s in where.sources]
    if where.since is not None:
        sql.append(f"{alias}.created_at >= ?")
        args.append(to_us(where.since))
    if where.until is not None:
        sql.append(f"{alias}.created_at < ?")
        args.append(to_us(where.until))
    if where.min_confidence is not None:
        sql.append(f"{alias}.confidence >= ?")
        args.append(where.min_confidence)
    if where.session_id is not None:
        sql.append(f"{alias}.session_id = ?")
        args.append(where.session_id)
    for key, value in where.metadata.items():
        path = f'$."{key}"'  # keys with quotes or backslashes are refused by Filter
        kind = f"json_type({alias}.metadata, ?)"
        if value is None:
            sql.append(f"{kind} = 'null'")
            args.append(path)
        elif isinstance(value, bool):
            sql.append(f"{kind} = ?")
            args += [path, "true" if value else "false"]
        elif isinstance(value, (int, float)):
            sql.append(f"{kind} IN ('integer', 'real') AND json_extract({alias}.metadata, ?) = ?")
            args += [path, path, value]
        else:
            sql.append(f"{kind} = 'text' AND json_extract({alias}.metadata, ?) = ?")
            args += [path, path, value]
    return "".join(f" AND ({s})" for s in sql), args


def kept_ids(store: "SQLiteStore", scope: Scope, where: Filter) -> list[str]:
    """Ids of the scope's records that ``where`` keeps (any status)."""
    extra, extra_args = predicate(where)
    with store._read() as con:
        return [r[0] for r in con.execute(
            f"SELECT m.id FROM memories m WHERE m.tenant_id = ? AND m.user_id = ?{extra}",
            (scope.tenant_id, scope.user_id, *extra_args),
        )]


def search_vector(
    store: "SQLiteStore", scope: Scope, vector: np.ndarray, *, k: int, now: datetime, statuses: Sequence[Status],
    where: Filter | None,
) -> list[Scored]:
    """Exact top-k among the scope's unexpired records of ``statuses`` (any, retired too) that ``where`` keeps (None: all),
    read in id order and ranked as ``Partition.nearest`` ranks."""
    if k <= 0 or not statuses:
        return []
    extra, extra_args = predicate(where)
    with store._read() as con:
        rows = con.execute(
            f"SELECT v.id, v.embedding FROM memory_vectors v JOIN memories m "
            "ON m.tenant_id = v.tenant_id AND m.user_id = v.user_id AND m.id = v.id "
            f"WHERE v.tenant_id = ? AND v.user_id = ? AND v.status IN ({','.join('?' * len(statuses))}) "
            f"AND (v.expires_at IS NULL OR v.expires_at > ?){extra} ORDER BY v.id",
            (scope.tenant_id, scope.user_id, *[s.value for s in statuses], to_us(now), *extra_args),
        ).fetchall()
    if not rows:
        return []
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), store.dim)
    sims = similarities(matrix, vector)
    order = best(sims, k)
    vecs = {rows[i][0]: matrix[i] for i in order}
    mems = {m.id: m for m in store._fetch(scope, list(vecs), vecs)}
    wanted = {s.value for s in statuses}
    return [
        Scored(mems[rows[i][0]], float(sims[i])) for i in order
        if rows[i][0] in mems and mems[rows[i][0]].status.value in wanted
    ]


def search_keywords(
    store: "SQLiteStore", scope: Scope, words: Sequence[str], *, k: int, now: datetime, statuses: Sequence[Status],
    where: Filter | None,
) -> list[Scored]:
    """Keyword top-k (``stores.keywords``) among the scope's unexpired records of ``statuses`` that ``where`` keeps
    (all of them for None): their stored terms read in id order, ranked by word rarity among them."""
    if not words or k <= 0 or not statuses:
        return []
    extra, extra_args = predicate(where)
    with store._read() as con:
        rows = con.execute(
            "SELECT m.id, m.created_at, v.terms, CASE WHEN v.terms IS NULL THEN m.text END, "
            "CASE WHEN v.terms IS NULL THEN m.metadata END FROM memories m LEFT JOIN memory_vectors v "
            "ON v.tenant_id = m.tenant_id AND v.user_id = m.user_id AND v.id = m.id "
            f"WHERE m.tenant_id = ? AND m.user_id = ? AND m.status IN ({','.join('?' * len(statuses))}) "
            f"AND (m.expires_at IS NULL OR m.expires_at > ?){extra} ORDER BY m.id",
            (scope.tenant_id, scope.user_id, *[s.value for s in statuses], to_us(now), *extra_args),
        ).fetchall()
    if not rows:
        return []
    encoded = [r[2] if r[2] is not None else encode_terms(r[3], context_of(json.loads(r[4] or "{}"))) for r in rows]
    top, scores = keywords.in_rows(encoded, [r[1] for r in rows], words, k)
    ids = [rows[i][0] for i in top.tolist()]
    found = {m.id: m for m in store._fetch(scope, ids)}
    return [Scored(found[m], s) for m, s in zip(ids, scores.tolist()) if m in found]
