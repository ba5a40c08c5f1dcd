"""Search filters (``kenning.types.Filter``) as SQL inside the SQLite engine's queries.

Filtered searches take their own path: the scope's rows that pass the filter
are selected by SQL first and only those are ranked, so a filter never
starves the top k (filtering a top k afterwards would). The unfiltered path,
with its cached per-scope matrix, is untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from kenning.stores.base import Scored
from kenning.stores.sqlite.rows import _MEM_COLS, _FROM, _row, fts_words, to_us, word_postings
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


def search_vector(
    store: "SQLiteStore", scope: Scope, vector: np.ndarray, *, k: int, now: datetime, statuses: Sequence[Status], where: Filter
) -> list[Scored]:
    """Exact cosine top-k among the scope's unexpired records of ``statuses`` that ``where`` keeps."""
    if k <= 0 or not statuses:
        return []
    extra, extra_args = predicate(where)
    with store._read() as con:
        rows = con.execute(
            f"SELECT v.id, v.embedding FROM memory_vectors v JOIN memories m "
            "ON m.tenant_id = v.tenant_id AND m.user_id = v.user_id AND m.id = v.id "
            f"WHERE v.tenant_id = ? AND v.user_id = ? AND v.status IN ({','.join('?' * len(statuses))}) "
            f"AND (v.expires_at IS NULL OR v.expires_at > ?){extra}",
            (scope.tenant_id, scope.user_id, *[s.value for s in statuses], to_us(now), *extra_args),
        ).fetchall()
    if not rows:
        return []
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), store.dim)
    sims = matrix @ np.asarray(vector, dtype=np.float32)
    order = np.argsort(-sims, kind="stable")[:k]
    vecs = {rows[i][0]: matrix[i] for i in order}
    mems = {m.id: m for m in store._fetch(scope, list(vecs), vecs)}
    return [Scored(mems[rows[i][0]], float(sims[i])) for i in order if rows[i][0] in mems]


def search_keywords(
    store: "SQLiteStore", scope: Scope, query: str, *, k: int, now: datetime, statuses: Sequence[Status], where: Filter
) -> list[Scored]:
    """Full-text top-k among the scope's records that ``where`` keeps: the unfiltered ranking (word rarity in the scope)."""
    words = fts_words(query)
    if not words or k <= 0 or not statuses:
        return []
    sql, args = word_postings(scope, words)
    extra, extra_args = predicate(where)
    with store._read() as con:
        hits = np.array(con.execute(sql, args).fetchall(), dtype=np.int64).reshape(-1, 2)
        docs = int(hits[hits[:, 0] < 0][0, 1])
        hits = hits[hits[:, 0] >= 0]
        if not hits.size:
            return []
        df = np.bincount(hits[:, 0], minlength=len(words))
        idf = np.log1p((docs - df + 0.5) / (df + 0.5))
        score: dict[int, float] = {}
        for w, rid in sorted(hits.tolist()):  # by word, so every sum adds in one order
            score[rid] = score.get(rid, 0.0) + float(idf[w])
        rids = list(score)
        found: list[tuple] = []
        for start in range(0, len(rids), 500):
            batch = rids[start : start + 500]
            found += con.execute(
                f"SELECT {_MEM_COLS}, m.rowid {_FROM} WHERE m.rowid IN ({','.join('?' * len(batch))}) "
                f"AND m.tenant_id = ? AND m.user_id = ? AND m.status IN ({','.join('?' * len(statuses))}) "
                f"AND (m.expires_at IS NULL OR m.expires_at > ?){extra}",
                (*batch, scope.tenant_id, scope.user_id, *[s.value for s in statuses], to_us(now), *extra_args),
            ).fetchall()
    found.sort(key=lambda r: (-score[r[-1]], -r[-1]))
    return [Scored(_row(r[:-1]), max(score[r[-1]], 1e-9)) for r in found[:k]]
