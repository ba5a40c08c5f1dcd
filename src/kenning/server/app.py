"""``create_app(settings)``: the REST API, the MCP endpoint and the memory page on one facade.

One ``Kenning`` per app, opened at creation (or passed in) and closed on
shutdown, after in-flight requests finish (uvicorn drains them on SIGTERM).
"""

from __future__ import annotations

import logging
import time
import uuid
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import kenning
from kenning.config import Settings
from kenning.memory import Kenning
from kenning.server import errors
from kenning.server.metrics import Metrics

log = logging.getLogger("kenning.server")

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
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await _too_large(scope, receive, send, self.limit)
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge()
            return msg

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(scope, receive, send, self.limit)


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
            self.metrics.latency.labels(scope["method"], route, str(status["code"])).observe(took)
            state = scope.get("state") or {}
            log.info("request", extra={"fields": {
                "request_id": rid, "method": scope["method"], "route": route, "status": status["code"],
                "duration_ms": round(took * 1000, 2), "tenant": state.get("tenant_id"),
            }})


def create_app(settings: Settings | None = None, *, system: Kenning | None = None, mcp: bool = True) -> FastAPI:
    """The whole server as an ASGI app.

    ``system`` is the facade to serve (opened from ``settings`` if not given;
    the app then owns it and closes it on shutdown). ``mcp`` mounts the
    streamable-HTTP MCP endpoint at ``/mcp``.
    """
    settings = settings or Settings.model_construct()
    owned = system is None
    system = system or kenning.open(settings.db, settings=settings)
    metrics = Metrics()
    mcp_app = None
    if mcp:
        from kenning.server.mcp import http_app

        mcp_app, mcp_lifespan = http_app(system, metrics)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        log.info("started", extra={"fields": {"store": type(system.ctx.store).__name__}})
        try:
            if mcp_app is not None:
                async with mcp_lifespan():
                    yield
            else:
                yield
        finally:
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
    app.state.page_secret = system.secret("page-token")
    errors.install(app)

    from kenning.server import page, routes

    app.include_router(routes.router)
    app.include_router(routes.ops)
    app.include_router(page.router)
    page.mount_static(app)
    if mcp_app is not None:
        app.mount("/mcp", mcp_app)
    app.add_middleware(BodyLimit)
    app.add_middleware(Observe, metrics=metrics)
    return app
