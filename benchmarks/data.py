"""Synthetic memories and queries for the search benchmarks, shared by every engine's benchmark.

Deterministic for a given seed: the same users, texts, vectors and queries
on every machine, so the SQLite and PostgreSQL figures are comparable.

- Vectors are random unit vectors (dim 384, MiniLM's), float32.
- Texts are short sentences whose content words follow a Zipf law over a
  vocabulary of common English words followed by synthetic ones, so a few
  words ("prefers", "likes", ...) occur in a large share of all memories
  across users, as in real memory stores; FTS cost depends on that skew.
- A query targets one of the user's memories: its vector is that memory's
  vector plus noise (cosine about 0.6), and its text shares two words with
  that memory plus common and rare words.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np

from kenning.types import Kind, Memory, Scope, Source, Status

DIM = 384
TENANT = "bench"
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
KINDS = (Kind.FACT, Kind.PREFERENCE, Kind.EPISODE, Kind.PROCEDURE)
SOURCES = (Source.USER_SAID, Source.INFERRED, Source.TOOL_RESULT)

_COMMON = (
    "user prefers likes works lives meeting project dinner coffee team morning weekly book travel flight hotel "
    "email phone family friend birthday doctor appointment gym running music movie restaurant vegetarian allergy "
    "peanuts dog cat car bike office remote manager report budget deadline release python database server client "
    "invoice payment bank account password reminder schedule calendar tuesday friday weekend summer winter city "
    "london paris berlin tokyo language spanish french german piano guitar garden kitchen recipe pasta sushi tea "
    "wine beer water shoes jacket size color blue green red black white favourite hates avoids allergic wants "
    "plans started finished moved bought sold visited called booked cancelled asked said mentioned"
).split()


def vocabulary(size: int = 20_000) -> list[str]:
    """Common English words first (the frequent ranks), then synthetic pronounceable words."""
    rng = np.random.default_rng(7)
    cons, vows = list("bcdfghjklmnprstvwz"), list("aeiou")
    words = list(dict.fromkeys(_COMMON))
    seen = set(words)
    while len(words) < size:
        n = int(rng.integers(2, 4))
        w = "".join(cons[int(rng.integers(len(cons)))] + vows[int(rng.integers(len(vows)))] for _ in range(n))
        w += cons[int(rng.integers(len(cons)))]
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


def scope_of(user: int) -> Scope:
    return Scope(TENANT, f"user{user:05d}")


def unit_vectors(rng: np.random.Generator, n: int, dim: int = DIM) -> np.ndarray:
    m = rng.standard_normal((n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@dataclass(frozen=True)
class Query:
    """One benchmark query: who asks, the text (for FTS and real embedding) and its precomputed vector."""

    scope: Scope
    text: str
    vector: np.ndarray


class Corpus:
    """``users`` users with ``per_user`` memories each; iterate with ``batches()``, ask with ``queries()``."""

    def __init__(self, users: int, per_user: int, *, dim: int = DIM, seed: int = 0, zipf_s: float = 1.1) -> None:
        self.users, self.per_user, self.dim, self.seed = users, per_user, dim, seed
        self.words = vocabulary()
        ranks = np.arange(1, len(self.words) + 1, dtype=np.float64)
        p = ranks**-zipf_s
        self._cdf = np.cumsum(p / p.sum())

    @property
    def total(self) -> int:
        return self.users * self.per_user

    def _rng(self, user: int, salt: int) -> np.random.Generator:
        return np.random.default_rng([self.seed, user, salt])

    def _sentences(self, rng: np.random.Generator, n: int) -> list[str]:
        lengths = rng.integers(6, 13, size=n)
        picks = np.minimum(np.searchsorted(self._cdf, rng.random(int(lengths.sum()))), len(self.words) - 1)
        out, at = [], 0
        for length in lengths:
            out.append("The " + " ".join(self.words[i] for i in picks[at : at + length]) + ".")
            at += length
        return out

    def vectors(self, user: int) -> np.ndarray:
        """The user's memory vectors, in the order ``memories`` returns them (the in-memory baseline's data)."""
        return unit_vectors(self._rng(user, 1), self.per_user, self.dim)

    def memories(self, user: int) -> list[Memory]:
        """The user's memories: ids ``mem_b<user>x<i>``, created over the 180 days before ``NOW``."""
        rng = self._rng(user, 3)
        scope = scope_of(user)
        vecs = self.vectors(user)
        texts = self.texts(user)
        ages = rng.uniform(0, 180 * 86400, size=self.per_user)
        kinds = rng.integers(0, len(KINDS), size=self.per_user)
        sources = rng.integers(0, len(SOURCES), size=self.per_user)
        imps = rng.uniform(0.1, 0.9, size=self.per_user)
        out = []
        for i in range(self.per_user):
            at = NOW - timedelta(seconds=float(ages[i]))
            out.append(
                Memory(
                    id=f"mem_b{user:05d}x{i:07d}",
                    tenant_id=scope.tenant_id,
                    user_id=scope.user_id,
                    kind=KINDS[kinds[i]],
                    text=texts[i],
                    embedding=vecs[i],
                    source=SOURCES[sources[i]],
                    source_refs=(),
                    created_at=at,
                    last_used_at=at,
                    importance=float(imps[i]),
                    confidence=0.8,
                    status=Status.ACTIVE,
                )
            )
        return out

    def batches(self) -> Iterator[tuple[Scope, list[Memory]]]:
        """Every user's memories, one batch per user (what a bulk load writes in one ``apply``)."""
        for user in range(self.users):
            yield scope_of(user), self.memories(user)

    def queries(self, n: int, *, seed: int = 1, users: int | None = None) -> list[Query]:
        """``n`` queries, each by a user drawn from the first ``users`` users (all by default).

        Texts are unique, so no embedding cache can answer them.
        """
        rng = np.random.default_rng([self.seed, 10_000_019, seed])
        pool = self.users if users is None else min(users, self.users)
        out, texts = [], {}
        for q in range(n):
            user = int(rng.integers(pool))
            target = int(rng.integers(self.per_user))
            if user not in texts:
                texts[user] = self.texts(user)
            shared = texts[user][target].rstrip(".").split()[1:]
            rng.shuffle(shared)
            extra = self._sentences(rng, 1)[0].rstrip(".").split()[1:4]
            text = f"what about {' '.join(shared[:2] + extra)} q{seed}x{q}"
            vec = self.vectors(user)[target] + 0.75 * unit_vectors(rng, 1, self.dim)[0]
            out.append(Query(scope_of(user), text, (vec / np.linalg.norm(vec)).astype(np.float32)))
        return out

    def texts(self, user: int) -> list[str]:
        """The user's memory texts, in the order ``memories`` returns them."""
        return self._sentences(self._rng(user, 2), self.per_user)


class FakeEmbedder:
    """Returns the precomputed vector of each benchmark query (no model): search cost without embedding.

    It takes the real model's id and dimension so the same database file can
    be opened with the bundled embedder for the figures that include embedding.
    """

    def __init__(self, queries: list[Query], model_id: str, dim: int = DIM) -> None:
        self.model_id, self.dim = model_id, dim
        # Keyed by each query's last word, a unique marker (``q<seed>x<n>``): the facade may
        # embed a rewritten query (it drops words naming the user), never that marker.
        self._by_marker = {q.text.split()[-1]: q.vector for q in queries}

    def embed(self, texts, purpose="document") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.stack([self._by_marker[t.split()[-1]] for t in texts])
