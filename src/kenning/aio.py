"""The async API: the same methods as the sync facade, each run in a worker thread.

    memory = await kenning.open_async("sqlite:///memories.db")
    alice = memory.scope("acme", "alice")
    await alice.remember("Alice is allergic to peanuts", kind="fact", importance=0.95)
    hits = await alice.search("book a dinner table")

There is one implementation, the synchronous one: SQLite, the local embedder
and psycopg's pool all block, so each call is handed to a thread (anyio's
``to_thread``, which works under asyncio and trio) and the event loop stays
free. ``scope`` is cheap and stays synchronous. The method list is the sync
facade's; a test checks none is missing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import anyio.to_thread

from kenning.memory import Kenning
from kenning.scoped import ScopedMemory

# Methods of the sync classes that are not I/O and stay synchronous.
_LOCAL = {"scope", "user"}


def _offload(name: str, sync: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(sync)
    async def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return await anyio.to_thread.run_sync(functools.partial(getattr(self._sync, name), *args, **kwargs))

    method.__doc__ = f"Async ``{sync.__qualname__}``, run in a worker thread.\n\n{sync.__doc__ or ''}"
    return method


def _public(cls: type) -> dict[str, Callable[..., Any]]:
    return {n: f for n, f in vars(cls).items() if not n.startswith("_") and callable(f) and n not in _LOCAL}


class AsyncScopedMemory:
    """``ScopedMemory`` for async code: every method is awaitable and runs in a worker thread."""

    def __init__(self, sync: ScopedMemory) -> None:
        self._sync = sync
        self.scope = sync.scope

    @property
    def sync(self) -> ScopedMemory:
        """The synchronous handle underneath (same scope, same store)."""
        return self._sync


class AsyncKenning:
    """``Kenning`` for async code: ``scope()`` returns an ``AsyncScopedMemory``; other methods are awaitable."""

    def __init__(self, sync: Kenning) -> None:
        self._sync = sync

    @property
    def sync(self) -> Kenning:
        """The synchronous facade underneath."""
        return self._sync

    def scope(self, tenant_id: str, user_id: str) -> AsyncScopedMemory:
        """The async handle for one tenant's user."""
        return AsyncScopedMemory(self._sync.scope(tenant_id, user_id))

    user = scope

    async def __aenter__(self) -> "AsyncKenning":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


for _cls, _sync_cls in ((AsyncScopedMemory, ScopedMemory), (AsyncKenning, Kenning)):
    for _name, _fn in _public(_sync_cls).items():
        if _name not in vars(_cls):
            setattr(_cls, _name, _offload(_name, _fn))


async def open_async(url: str | None = None, **kwargs: Any) -> AsyncKenning:
    """``kenning.open`` for async code (opening runs in a worker thread too); same arguments."""
    from kenning.memory import open as open_sync

    return AsyncKenning(await anyio.to_thread.run_sync(functools.partial(open_sync, url, **kwargs)))


__all__ = ["AsyncKenning", "AsyncScopedMemory", "open_async"]
