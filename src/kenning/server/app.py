"""``create_app(settings)``: the REST API, the MCP endpoint and the memory page on one facade.

One ``Kenning`` per app, opened at creation (or passed in) and closed on
shutdown, after in-flight requests finish (uvicorn drains them on SIGTERM).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from contextlib import asynccontextmanager
from urllib.parse import unquote_to_bytes
from typing import AsyncIterator

import anyio.to_thread
from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import kenning
from kenning.config import Settings
from kenning.errors import KenningError
from kenning.memory import Kenning
from kenning.server import errors
from kenning.server.admission import Admission, Gate
from kenning.server.metrics import Metrics
from kenning.types import new_id

log = logging.getLogger("kenning.server")

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
MAX_BODY_BYTES = 1 << 20  # 1 MiB: a request body beyond this is a 413, read no further


class BodyLimit:
    """Reject bodies over ``limit`` bytes with 413 (by header or while streaming), and NUL in URLs with 422."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if "\x00" in scope["path"] or b"%00" in scope.get("query_string", b""):
            resp = errors.error_response(422, "invalid", "the URL must not contain NUL characters", "ValidationError")
            return await resp(scope, receive, send)
        if not _utf8_url(scope):
            # Starlette would turn invalid bytes into U+FFFD, so two different raw ids could name one user.
            resp = errors.error_response(422, "invalid", "the URL must be valid UTF-8 once percent-decoded", "ValidationError")
            return await resp(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await _too_large(scope, receive, send, self.limit)
        seen, over, replaced = 0, False, False

        async def limited() -> Message:
            nonlocal seen, over
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    over = True
                    raise _TooLarge()
            return msg

        async def guarded_send(msg: Message) -> None:
            # The framework may turn the aborted read into its own 400; answer 413 instead.
            nonlocal replaced
            if over:
                if not replaced:
                    replaced = True
                    await _too_large(scope, receive, send, self.limit)
                return
            await send(msg)

        try:
            await self.app(scope, limited, guarded_send)
        except _TooLarge:
            if not replaced:
                await _too_large(scope, receive, send, self.limit)


def _utf8_url(scope: Scope) -> bool:
    raw = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
    try:
        unquote_to_bytes(raw).decode("utf-8")
        unquote_to_bytes(scope.get("query_string", b"")).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class _TooLarge(Exception):
    pass


async def _too_large(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
    resp = errors.error_response(413, "too_large", f"request body is larger than {limit} bytes", "ValidationError")
    await resp(scope, receive, send)


class Observe:
    """Request id, latency histogram and one structured log line per request (no bodies, no content)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        rid = uuid.uuid4().hex[:16]
        status = {"code": 500}
        start = time.perf_counter()

        async def send_wrapped(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                status["code"] = msg["status"]
                msg.setdefault("headers", []).append((b"x-request-id", rid.encode()))
            await send(msg)

        try:
            await self.app(scope, receive, send_wrapped)
        finally:
            took = time.perf_counter() - start
            route = getattr(scope.get("route"), "path", None) or ("/mcp" if scope["path"].startswith("/mcp") else "unmatched")
            method = scope["method"] if scope["method"] in METHODS else "OTHER"  # label values stay bounded
            self.metrics.latency.labels(method, route, str(status["code"])).observe(took)
            state = scope.get("state") or {}
            log.info("request", extra={"fields": {
                "request_id": rid, "method": scope["method"], "route": route, "status": status["code"],
                "duration_ms": round(took * 1000, 2), "tenant": state.get("tenant_id"),
            }})


class Maintenance:
    """Background maintenance in a thread: a leased worker pass every ``interval`` seconds, stopped on shutdown.

    Passes are safe beside ``kenning worker`` processes and other servers (per-scope leases, guarded writes).
    """

    def __init__(self, system: Kenning, metrics: Metrics, interval: float) -> None:
        self.system, self.metrics, self.interval = system, metrics, interval
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{new_id('srv')}"
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="kenning-maintenance", daemon=True)

    def _loop(self) -> None:
        while not self.stop.wait(self.interval):
            self.run_pass()

    def run_pass(self) -> None:
        start = time.perf_counter()
        try:
            reports = self.system.maintenance_pass(holder=self.holder)
        except KenningError as exc:
            self.metrics.jobs.labels("error").inc()
            log.warning("maintenance pass failed", extra={"fields": {"error": type(exc).__name__}})
            return
        self.metrics.jobs.labels("ok").inc()
        for report in reports:
            for op, value in report.items():
                if isinstance(value, bool):
                    continue
                if isinstance(value, int):
                    self.metrics.count(op, value)
                elif isinstance(value, (list, tuple)):
                    self.metrics.count(op, len(value))
        log.info("maintenance pass", extra={"fields": {"scopes": len(reports), "duration_ms": round((time.perf_counter() - start) * 1000, 2)}})

    def close(self) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(timeout=60)  # a pass in progress finishes its current atomic write first


def create_app(
    settings: Settings | None = None, *, system: Kenning | None = None, mcp: bool = True, maintenance_interval: float = 0.0
) -> FastAPI:
    """The whole server as an ASGI app.

    ``system`` is the facade to serve (opened from ``settings`` if not given;
    the app then owns it and closes it on shutdown). ``mcp`` mounts the
    streamable-HTTP MCP endpoint at ``/mcp``. ``maintenance_interval > 0``
    runs background maintenance (reconciliation, consolidation, forgetting)
    every that many seconds while the app is up.
    """
    settings = settings or (system.ctx.settings if system is not None else Settings.model_construct())
    owned = system is None
    if owned and settings.embed_batch is None:  # unset: a server batches concurrent embeddings
        settings = settings.model_copy(update={"embed_batch": True})
    system = system or kenning.open(settings.db, settings=settings)
    metrics = Metrics()
    mcp_app = None
    if mcp:
        from kenning.server.mcp import http_app

        mcp_app, mcp_lifespan = http_app(system, metrics)

    background = Maintenance(system, metrics, maintenance_interval) if maintenance_interval > 0 else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        log.info("started", extra={"fields": {"store": type(system.ctx.store).__name__,
                                              "maintenance_interval_s": maintenance_interval}})
        # Requests that are admitted hold at most one pool thread at a time: never let the pool be the bound.
        pool = anyio.to_thread.current_default_thread_limiter()
        pool.total_tokens = max(pool.total_tokens, settings.server_concurrency + 8)
        if background is not None:
            background.thread.start()
        try:
            if mcp_app is not None:
                async with mcp_lifespan():
                    yield
            else:
                yield
        finally:
            if background is not None:
                background.close()
            if owned:
                system.close()
            log.info("shutdown complete")

    app = FastAPI(
        title="Kenning",
        version=kenning.__version__,
        description="Long-term memory for AI agents. Authenticate with `Authorization: Bearer kn_…` (a tenant API key).",
        lifespan=lifespan,
    )
    app.state.system = system
    app.state.metrics = metrics
    app.state.settings = settings
    app.state.maintenance = background
    app.state.page_secret = system.secret("page-token")
    errors.install(app)

    from kenning.server import page, routes

    app.include_router(routes.router)
    app.include_router(routes.ops)
    app.include_router(page.router)
    page.mount_static(app)
    if mcp_app is not None:
        app.mount("/mcp", mcp_app)
    app.state.admission = Gate(
        concurrency=settings.server_concurrency, queue=settings.server_queue,
        timeout_s=settings.server_queue_timeout_s, retry_after_s=settings.server_retry_after_s,
    )
    app.add_middleware(Admission, gate=app.state.admission)
    app.add_middleware(BodyLimit)
    app.add_middleware(Observe, metrics=metrics)
    _state_the_text_limit(app, system.ctx.settings.max_text_chars)
    return app


def _state_the_text_limit(app: FastAPI, limit: int) -> None:
    """Make the OpenAPI document state the configured text limit, the one the facade enforces (a 422 beyond it)."""
    from kenning.server.schemas import MAX_TEXT

    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            doc = build()

            def fix(node: object) -> None:
                if isinstance(node, dict):
                    if node.get("maxLength") == MAX_TEXT:
                        node["maxLength"] = min(limit, MAX_TEXT)
                    for v in node.values():
                        fix(v)
                elif isinstance(node, list):
                    for v in node:
                        fix(v)

            fix(doc)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
