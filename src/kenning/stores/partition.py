"""One scope's retrievable records held in memory: the unit of search and of every engine's cache.

A ``Partition`` holds, for the active and provisional records of one (tenant,
user), what scoring needs and nothing else: ids (sorted, so a position is the
id order), status, kind, importance, confidence, created, last used and
expiry times (microseconds since the epoch), the vectors as one matrix, and
each record's keyword terms (``retrieve.terms`` of its text, and of its
context). Whole records (text, metadata, references) stay in the store and
are read only for the few hits a search returns.

Keyword postings are found lazily: the terms of all records are one string,
and a term's postings are the records whose part of that string holds it,
computed on the first query that asks for the term and kept. Loading a
partition therefore costs no tokenisation when the engine stores the terms
(the SQLite engine writes them with each record).

A partition is valid for one generation of its scope; engines bump the
generation on every write. ``last_used_at`` changes on reads too
(``Store.touch``), counted by a separate ``touched`` number, so a refresh
does not throw the partition away: the engine updates it in place or
reloads that one column.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from threading import Lock
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np

from kenning.text import asks, states_time, subject, terms
from kenning.types import Kind, Memory

# Bump when ``retrieve.terms`` (or ``encode_terms``) changes meaning: engines that persist terms recompute them.
# 2: a record's subject is stored with its terms. 3: and whether its text says when (``TIMED``). 4: and whether
# it ends by asking (``ASKS``).
TERMS_VERSION = "4"
NEVER = np.iinfo(np.int64).max
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
KIND_CODES = {k: i for i, k in enumerate(Kind)}
KINDS = tuple(Kind)
_CTX = "|"  # never inside a term (terms are letters and digits)
SUBJECT = "^"  # marks a record's subject among its text terms: "^maya" (no query word starts with it)
TIMED = "~when"  # among a record's text terms when its text says when something happened (``text.states_time``)
ASKS = "~asks"  # among a record's text terms when its text ends by asking (``text.asks``)


def encode_terms(text: str, context: object = None) -> str:
    """The stored form of a record's keyword terms: its text's terms (sorted, space-separated), its subject
    (``text.subject``) marked ``^``, ``TIMED`` when the text says when, ``ASKS`` when it ends by asking, then ``|`` and
    its context's terms."""
    out = " ".join(sorted(terms(text)))
    lead = subject(text)
    if lead is not None:
        out += f" {SUBJECT}{lead}"
    if states_time(text):
        out += f" {TIMED}"
    if asks(text):
        out += f" {ASKS}"
    if isinstance(context, str) and context.strip():
        out += _CTX + " ".join(sorted(terms(context)))
    return out


# A record's immutable scoring attributes packed in one value (the SQLite engine stores it).
ATTRS = np.dtype([("kind", "i1"), ("importance", "<f8"), ("confidence", "<f8"), ("created", "<i8")])


def pack_attrs(kind: Kind, importance: float, confidence: float, created_us: int) -> bytes:
    """``ATTRS`` of one record as bytes."""
    return np.array([(KIND_CODES[kind], importance, confidence, created_us)], dtype=ATTRS).tobytes()


def kind_code_sql(column: str) -> str:
    """A SQL expression turning a kind column into its ``KIND_CODES`` number (both engines' dialects)."""
    return "CASE " + column + "".join(f" WHEN '{k.value}' THEN {i}" for k, i in KIND_CODES.items()) + " END"


def context_of(metadata: object) -> object:
    """The ``context`` a record was remembered with, from its metadata (a dict or None)."""
    return metadata.get("context") if isinstance(metadata, dict) else None


@dataclass
class Partition:
    """The searchable state of one scope at generation ``gen`` (see the module docstring)."""

    gen: int
    touched: int
    ids: list[str]
    active: np.ndarray  # bool: active (else provisional)
    kinds: np.ndarray  # int8 codes into KINDS
    importance: np.ndarray  # float64
    confidence: np.ndarray  # float64
    created: np.ndarray  # int64 microseconds
    last_used: np.ndarray  # int64 microseconds (updated in place by touch)
    expires: np.ndarray  # int64 microseconds, NEVER when none
    matrix: np.ndarray  # float32 (n, dim), rows as ids
    text_terms: str  # the records' terms joined as " t1 t2 \n t3 \n ..."
    ctx_terms: str | None  # the same for contexts; None when no record has one
    starts: np.ndarray  # offset of each record's part in text_terms
    ctx_starts: np.ndarray | None
    _postings: dict[tuple[int, str], np.ndarray] = field(default_factory=dict, repr=False)
    _records: dict[int, Memory] = field(default_factory=dict, repr=False)
    _all_active: bool | None = field(default=None, repr=False)
    _first_expiry: int = field(default=0, repr=False)
    _index: dict[str, int] | None = field(default=None, repr=False)
    _lock: Lock = field(default_factory=Lock, repr=False)

    @classmethod
    def build(
        cls,
        *,
        gen: int,
        touched: int,
        ids: Sequence[str],
        active: Sequence[int],
        kinds: Sequence[int],
        importance: Sequence[float],
        confidence: Sequence[float],
        created: Sequence[int],
        last_used: Sequence[int],
        expires: Sequence[int],
        matrix: np.ndarray,
        encoded_terms: Sequence[str],
    ) -> "Partition":
        """A partition from columns in id order: ``active`` 1/0, ``kinds`` as ``KIND_CODES``, ``expires`` NEVER for none,
        ``encoded_terms`` as ``encode_terms`` makes them."""
        n = len(ids)
        if any(_CTX in e for e in encoded_terms):
            texts, ctxs = [], []
            for e in encoded_terms:
                t, _, c = e.partition(_CTX)
                texts.append(t)
                ctxs.append(c)
            text_blob, starts = _joined(texts)
            ctx_blob, ctx_starts = _joined(ctxs)
        else:
            (text_blob, starts), ctx_blob, ctx_starts = _joined(encoded_terms), None, None
        return cls(
            gen=gen,
            touched=touched,
            ids=list(ids),
            active=np.array(active, dtype=bool).reshape(n),
            kinds=np.array(kinds, dtype=np.int8).reshape(n),
            importance=np.array(importance, dtype=np.float64).reshape(n),
            confidence=np.array(confidence, dtype=np.float64).reshape(n),
            created=np.array(created, dtype=np.int64).reshape(n),
            last_used=np.array(last_used, dtype=np.int64).reshape(n),
            expires=np.array(expires, dtype=np.int64).reshape(n),
            matrix=matrix,
            text_terms=text_blob,
            ctx_terms=ctx_blob,
            starts=starts,
            ctx_starts=ctx_starts,
        )

    def __len__(self) -> int:
        return len(self.ids)

    def live(self, now_us: int) -> np.ndarray | None:
        """Which records are retrievable (active, unexpired) at ``now_us``; None when all are."""
        if self._all_active is None:
            self._all_active = bool(self.active.all())
            self._first_expiry = int(self.expires.min()) if len(self.ids) else NEVER
        if self._all_active and now_us < self._first_expiry:
            return None
        return self.active & (self.expires > now_us)

    @property
    def nbytes(self) -> int:
        """Approximate memory held: vectors, columns, term strings, ids."""
        cols = 8 * 6 * len(self.ids)
        terms_bytes = len(self.text_terms) + (len(self.ctx_terms) if self.ctx_terms else 0)
        return self.matrix.nbytes + cols + terms_bytes + 80 * len(self.ids)

    def postings(self, term: str, context: bool = False) -> np.ndarray:
        """Positions (ascending) of the records whose text (or, with ``context``, context) holds ``term``."""
        key = (int(context), term)
        found = self._postings.get(key)
        if found is not None:
            return found
        blob, starts = (self.ctx_terms, self.ctx_starts) if context else (self.text_terms, self.starts)
        if blob is None or starts is None:
            found = np.zeros(0, dtype=np.int64)
        else:
            # Where the pieces between occurrences end is where each occurrence starts
            # (all in C: no match objects, which cost more for the common words).
            pattern = f" {term} "
            pieces = np.fromiter(map(len, blob.split(pattern)), dtype=np.int64)
            offsets = np.cumsum(pieces[:-1]) + len(pattern) * np.arange(pieces.size - 1, dtype=np.int64)
            found = np.searchsorted(starts, offsets, side="right") - 1
        with self._lock:
            if len(self._postings) > 4096:  # a bound for scopes asked about very many words
                self._postings.clear()
            self._postings[key] = found
        return found

    def mask(self, statuses: Sequence[str], now_us: int) -> np.ndarray | None:
        """Which records have one of ``statuses`` (among active, provisional) and are unexpired at ``now_us``; None when all."""
        mask = self.expires > now_us
        wanted = set(statuses)
        if wanted == {"active"}:
            mask &= self.active
        elif wanted == {"provisional"}:
            mask &= ~self.active
        return None if mask.all() else mask

    def nearest(self, vector: np.ndarray, k: int, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` positions (among ``mask``; None: all) with the largest inner product with ``vector``, best first,
        ties to the smaller position (id order), and those products.

        Every engine ranks this way (``similarities``, ``best``), so a vector
        search gives the same records, order and similarities on all of them,
        from a cached partition or from rows read for the occasion.
        """
        sims = similarities(self.matrix, vector)
        if mask is None:
            top = best(sims, k)
        else:
            idx = np.flatnonzero(mask)
            top = idx[best(sims[idx], k)]
        return top, sims[top]

    def positions(self, ids: Sequence[str]) -> np.ndarray:
        """A mask of the records among ``ids`` (ids outside the partition are ignored)."""
        mask = np.zeros(len(self.ids), dtype=bool)
        for m in ids:
            i = self.position(m)
            if i is not None:
                mask[i] = True
        return mask

    def position(self, memory_id: str) -> int | None:
        if self._index is None:
            self._index = {m: i for i, m in enumerate(self.ids)}
        return self._index.get(memory_id)

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Read-only rows of the matrix for those ``ids`` that are in the partition."""
        out = {}
        for m in ids:
            i = self.position(m)
            if i is not None:
                out[m] = self.matrix[i]
        return out

    def records(self, positions: Sequence[int], fetch: Callable[[list[str]], list[Memory]]) -> list[Memory]:
        """Whole records for ``positions``, in order: built once per generation (``fetch`` reads the missing ones by id).

        A record cannot change within a generation except for ``last_used_at``,
        which is taken from the partition; records ``fetch`` no longer finds
        active or provisional (a concurrent write) are left out.
        """
        missing = [self.ids[i] for i in positions if i not in self._records]
        if missing:
            for m in fetch(missing):
                if m.status.value in ("active", "provisional"):
                    i = self.position(m.id)
                    if i is not None:
                        self._records[i] = m
        out = []
        for i in positions:
            m = self._records.get(i)
            if m is None:
                continue
            used = _EPOCH + timedelta(microseconds=int(self.last_used[i]))
            if m.last_used_at != used:
                m = self._records[i] = m.evolve(last_used_at=used)
            out.append(m)
        return out

    def touch(self, ids: Sequence[str], at_us: int, touched: int) -> None:
        """Apply a refresh of ``last_used_at`` (as the store wrote it) and record its ``touched`` number."""
        for m in ids:
            i = self.position(m)
            if i is not None and self.last_used[i] < at_us:
                self.last_used[i] = at_us
        self.touched = touched


def similarities(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """Each row's inner product with ``vector`` (float32), computed row by row.

    ``np.einsum`` sums every row in the same order whatever the other rows,
    where BLAS (``matrix @ vector``) blocks rows and may round a row's sum
    differently in a different matrix: a record's similarity then depends
    only on its vector and the query's, so every engine and every path (a
    cached partition, a filtered subset, candidates from a server) gives the
    same value. It costs about 0.06 ms per 1,000 rows of 384 dims more.
    """
    return np.einsum("ij,j->i", matrix, np.asarray(vector, dtype=np.float32))


def best(values: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` largest ``values``, best first, ties to the smaller index: a stable descending sort's
    first ``k``, without sorting everything."""
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    if values.size > k:
        # Every value tied with the k-th largest is kept, so ties still go to the lower index.
        kth = values[np.argpartition(-values, k - 1)[k - 1]]
        pool = np.flatnonzero(values >= kth)
        return pool[np.argsort(-values[pool], kind="stable")[:k]]
    return np.argsort(-values, kind="stable")


def _joined(parts: Sequence[str]) -> tuple[str, np.ndarray]:
    """``" p0 \\n p1 \\n ... "`` and the offset where each part's leading space is."""
    lengths = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts)) + 3
    starts = np.zeros(len(parts), dtype=np.int64)
    if len(parts) > 1:
        np.cumsum(lengths[:-1], out=starts[1:])
    return (" " + " \n ".join(parts) + " \n") if parts else "", starts


class PartitionCache:
    """Scopes' partitions, least recently used evicted past a byte budget (by default a quarter of the machine's memory).

    A partition costs about 1.6 kB per 384-dim record, so on a 16 GB machine the
    budget holds about 2.5M records: the working set of the active users of a
    large single-node deployment, rather than a fixed count of partitions.
    """

    def __init__(self, budget_bytes: int | None = None) -> None:
        self.budget = default_cache_bytes() if budget_bytes is None else budget_bytes
        self._parts: OrderedDict[Any, Partition] = OrderedDict()
        self._bytes = 0
        self._lock = Lock()

    def get(self, scope: Any) -> Partition | None:
        with self._lock:
            part = self._parts.get(scope)
            if part is not None:
                self._parts.move_to_end(scope)
            return part

    def put(self, scope: Any, part: Partition) -> None:
        with self._lock:
            old = self._parts.pop(scope, None)
            self._bytes += part.nbytes - (old.nbytes if old is not None else 0)
            self._parts[scope] = part
            while self._bytes > self.budget and len(self._parts) > 1:
                _, gone = self._parts.popitem(last=False)
                self._bytes -= gone.nbytes

    def discard(self, scope: Any) -> None:
        with self._lock:
            old = self._parts.pop(scope, None)
            if old is not None:
                self._bytes -= old.nbytes

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()
            self._bytes = 0

    def touched(self, scope: Any, gen: int, touched: int, ids: Sequence[str], at_us: int) -> None:
        """A refresh numbered ``touched`` was written: apply it in place if the cached partition missed no other."""
        with self._lock:
            part = self._parts.get(scope)
            if part is not None and part.gen == gen and part.touched == touched - 1:
                part.touch(ids, at_us, touched)


def default_cache_bytes() -> int:
    """A quarter of the machine's physical memory; 1 GiB where that cannot be read."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4
    except (ValueError, OSError, AttributeError):
        return 1 << 30
