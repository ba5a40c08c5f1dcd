"""Bounded memoisation of the pure text functions extraction calls many times over the same text.

A turn's text is masked once when the worker prefetches its batch and again when it extracts it; a
claim's wording is asked for its slots and its secrets by several rules in turn. The functions wrapped
here are pure (their docstrings say so), so a cache changes their cost, never their answers; each
returns a fresh list, so a caller may change what it gets.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
CACHE_SIZE = 4096
_CLEARERS: list[Callable[[], None]] = []


def list_cache(fn: Callable[[str], list[T]]) -> Callable[[str], list[T]]:
    """``fn`` (a pure function of one text returning a list) with its last ``CACHE_SIZE`` answers kept;
    each call gets its own list."""
    cached = text_cache(lambda text: tuple(fn(text)))

    @functools.wraps(fn)
    def wrapper(text: str) -> list[T]:
        return list(cached(text))

    return wrapper


def text_cache(fn: Callable[[str], T]) -> Callable[[str], T]:
    """``fn`` (a pure function of one text returning an immutable answer) with its last ``CACHE_SIZE`` answers kept."""
    cached = functools.lru_cache(maxsize=CACHE_SIZE)(fn)
    _CLEARERS.append(cached.cache_clear)
    return cached


def clear() -> None:
    """Empty every cache (a benchmark measures each mode from cold)."""
    for clear_one in _CLEARERS:
        clear_one()
