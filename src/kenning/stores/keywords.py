"""Keyword search, the same on every engine: Kenning's words, ranked by their summed rarity among the records searched.

A query's words are ``text.terms`` of it; a record holds a word when the terms
of its text do (``partition.encode_terms``, stored with each record; its
context does not count here). Each word weighs BM25's always-positive IDF
over the n records searched, ``log(1 + (n - df + 0.5) / (df + 0.5))``; a
record scores the sum of the weights of the words it holds, added word by
word in sorted order so that every engine gets the same floating-point sum.
Among equal sums the newer record (``created_at``) goes first, then the
smaller id.

Engines use their storage only to fetch the records searched: the scope's
cached ``Partition`` when it covers them (active or provisional records,
unfiltered), otherwise the scope's rows that pass the statuses, expiry and
filter, read in id order. No engine's own tokeniser or ranking (FTS5's
porter stems, PostgreSQL's English dictionary, ``ts_rank``) decides which
records match or in what order, so both engines return the same records in
the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kenning.text import terms

_CTX = "|"  # separates a record's text terms from its context's (``partition.encode_terms``)


def query_words(query: str) -> list[str]:
    """The query's content words (``text.terms``), sorted: the order sums are added in."""
    return sorted(terms(query))


def idf(n: int, df: Any) -> Any:
    """BM25's inverse document frequency (the always-positive form) of words held by ``df`` of ``n`` records."""
    df = np.asarray(df, dtype=np.float64)
    return np.log1p((n - df + 0.5) / (df + 0.5))


def sums(postings: Sequence[np.ndarray], n: int, size: int) -> np.ndarray:
    """Per position in ``range(size)``, the summed IDF of the words whose ``postings`` (positions, one array per
    word, among the ``n`` records searched) hold it; 0 for a position holding none."""
    if not postings:
        return np.zeros(size)
    lengths = np.fromiter(map(len, postings), dtype=np.int64, count=len(postings))
    flat = np.concatenate(postings)
    return np.bincount(flat, weights=np.repeat(idf(n, lengths), lengths), minlength=size)


def best(scores: np.ndarray, created: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` best records with a score above 0: highest score first, then the newer, then the
    smaller position (positions are in id order)."""
    matched = np.flatnonzero(scores)
    order = np.lexsort((matched, -created[matched], -scores[matched]))
    return matched[order[: max(k, 0)]]


def in_partition(part: Any, words: Sequence[str], live: np.ndarray | None, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best positions of a ``Partition`` among ``live`` ones (None: all) and their scores."""
    posts = [part.postings(w) for w in words]
    if live is not None:
        posts = [p[live[p]] for p in posts]
    n = len(part) if live is None else int(live.sum())
    s = sums(posts, n, len(part))
    top = best(s, part.created, k)
    return top, s[top]


def in_rows(encoded: Sequence[str], created: Sequence[int], words: Sequence[str], k: int) -> tuple[np.ndarray, np.ndarray]:
    """The same over rows read from a store in id order: each row's encoded terms and creation time (µs)."""
    held = [set(e.partition(_CTX)[0].split()) for e in encoded]
    posts = [np.array([i for i, h in enumerate(held) if w in h], dtype=np.int64) for w in words]
    s = sums(posts, len(held), len(held))
    top = best(s, np.asarray(created, dtype=np.int64), k)
    return top, s[top]


__all__ = ["best", "idf", "in_partition", "in_rows", "query_words", "sums"]
