"""Bounded work: a fixed number of requests at once, a bounded queue behind them, 503 + Retry-After beyond.

Without a bound every request the socket accepts starts at once: all of them
share the cores, so each one's latency grows with the crowd and the thread
pool fills (and anything else needing a thread waits behind it). With one,
``concurrency`` requests run, up to ``queue`` more wait (on the event loop,
holding no thread), and the rest, or any that waited ``timeout_s``, are
answered at once with ``503`` ``{"error": {"code": "overloaded"}}`` and a
``Retry-After`` header. The probes and metrics (``EXEMPT``) never queue.
"""

from __future__ import annotations

import anyio
from starlette.types import ASGIApp, Receive, Scope, Send

from kenning.server import errors

EXEMPT = frozenset({"/healthz", "/readyz", "/metrics"})


class Gate:
    """The admission state one app shares with its middleware: limits, and how many run, wait and were refused."""

    def __init__(self, *, concurrency: int, queue: int, timeout_s: float, retry_after_s: int) -> None:
        self.concurrency, self.queue, self.timeout_s, self.retry_after_s = concurrency, queue, timeout_s, retry_after_s
        self.running = 0
        self.waiting = 0
        self.rejected = 0
        self._slots: anyio.Semaphore | None = None  # made on first use, inside the running event loop

    def slots(self) -> anyio.Semaphore:
        if self._slots is None:
            self._slots = anyio.Semaphore(self.concurrency)
        return self._slots


class Admission:
    """ASGI middleware admitting at most ``gate.concurrency`` HTTP requests at once, ``gate.queue`` more waiting."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app, self.gate = app, gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in EXEMPT:
            return await self.app(scope, receive, send)
        gate = self.gate
        slots = gate.slots()
        if slots.value == 0 and gate.waiting >= gate.queue:
            return await self._overloaded(scope, receive, send, f"{gate.running} requests running and {gate.waiting} waiting")
        gate.waiting += 1
        try:
            with anyio.move_on_after(gate.timeout_s) as wait:
                await slots.acquire()
        finally:
            gate.waiting -= 1
        if wait.cancelled_caught:
            return await self._overloaded(scope, receive, send, f"no slot within {gate.timeout_s:g} s")
        gate.running += 1
        try:
            await self.app(scope, receive, send)
        finally:
            gate.running -= 1
            slots.release()

    async def _overloaded(self, scope: Scope, receive: Receive, send: Send, why: str) -> None:
        gate = self.gate
        gate.rejected += 1
        resp = errors.error_response(
            503, "overloaded", f"the server is at capacity ({why}); retry after {gate.retry_after_s} s", "Overloaded",
            headers={"Retry-After": str(gate.retry_after_s)},
        )
        await resp(scope, receive, send)
