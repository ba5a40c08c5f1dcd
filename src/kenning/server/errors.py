"""Errors to HTTP: one table, one body.

Every failing response has the body ``{"error": {"type", "code", "message"}}``.
``STATUS`` is the single place a Kenning error class meets a status code;
the first matching row wins, so subclasses come before their parents.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from kenning.errors import (
    ConfigError,
    Conflict,
    EmbedderError,
    Forbidden,
    KenningError,
    LLMError,
    NotFound,
    StoreError,
    UsageError,
    ValidationError,
)

from kenning.server.schemas import MAX_TEXT

log = logging.getLogger("kenning.server")

STATUS: list[tuple[type[BaseException], int, str]] = [
    (NotFound, 404, "not_found"),
    (Forbidden, 403, "forbidden"),
    (Conflict, 409, "conflict"),
    (ValidationError, 422, "invalid"),
    (ConfigError, 500, "misconfigured"),
    (UsageError, 400, "bad_request"),
    (StoreError, 503, "store_unavailable"),
    (EmbedderError, 503, "embedder_unavailable"),
    (LLMError, 502, "llm_failed"),
    (KenningError, 501, "not_implemented"),  # e.g. a capability not built into this release
]

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
              409: "conflict", 413: "too_large", 415: "unsupported_media_type", 422: "invalid", 429: "too_many_requests"}


# pydantic's words for a lone surrogate, replaced by the facade's so every surface says the same
UNICODE_MESSAGE = "must be valid Unicode text (it holds an unpaired surrogate)"


def status_of(exc: BaseException) -> tuple[int, str]:
    """The (status, code) row for a Kenning error."""
    for cls, status, code in STATUS:
        if isinstance(exc, cls):
            return status, code
    return 500, "internal"


def error_response(status: int, code: str, message: str, type_: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"type": type_, "code": code, "message": message}}, status_code=status, headers=headers)


def describe_invalid(errors: list[dict], text_limit: int | None = None) -> str:
    """Validation errors in words: which field, what is wrong, one line per field (at most five).

    A text over the schema's hard bound is reported with ``text_limit``, the
    configured limit the OpenAPI document states (and the facade enforces).

    pydantic names union branches and validator functions in an error's location
    (``function-after[…]``, ``list[Message]``); those are not fields and are left
    out. A field that fails every branch of a union keeps the first reason.
    """
    seen: dict[str, str] = {}
    for e in errors:
        parts = []
        for p in e.get("loc", ()):
            if isinstance(p, int):
                parts.append(f"[{p}]")
            elif isinstance(p, str) and p not in ("body", "query", "path") and not any(c in p for c in "[(<"):
                parts.append(("." if parts else "") + p)
        field = "".join(parts) or "request body"
        msg = e.get("msg", "is invalid")
        if e.get("type") == "string_unicode":
            msg = UNICODE_MESSAGE
        ctx = e.get("ctx") or {}
        if e.get("type") in ("string_too_long", "too_long") and "max_length" in ctx:
            if isinstance(e.get("input"), str):
                bound = ctx["max_length"]
                if text_limit is not None and bound == MAX_TEXT:
                    bound = min(bound, text_limit)
                msg = f"is too long: at most {bound} characters"
            else:
                msg = f"has too many items: at most {ctx['max_length']}"
        seen.setdefault(field, msg)
    return "; ".join(f"{f}: {m}" for f, m in list(seen.items())[:5]) or "invalid request"


def install(app: FastAPI) -> None:
    """Register the handlers that turn every failure into the one error body."""

    @app.exception_handler(KenningError)
    async def kenning_error(request: Request, exc: KenningError) -> JSONResponse:
        status, code = status_of(exc)
        if status >= 500:
            log.warning("request failed", extra={"fields": {"error": type(exc).__name__, "status": status}})
        return error_response(status, code, str(exc), type(exc).__name__)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        system = getattr(request.app.state, "system", None)
        limit = system.ctx.settings.max_text_chars if system is not None else None
        return error_response(422, "invalid", describe_invalid(exc.errors(), limit), "ValidationError")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "error")
        type_ = "Forbidden" if exc.status_code in (401, 403) else "HTTPError"
        return error_response(exc.status_code, code, str(exc.detail), type_, getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", extra={"fields": {"error": type(exc).__name__}})
        return error_response(500, "internal", "internal error", "InternalError")
