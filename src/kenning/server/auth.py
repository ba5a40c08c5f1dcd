"""Who is calling: tenant API keys for applications, signed page tokens for one end user.

Invariants:
- the tenant always comes from the credential, never from the path or body;
- an API key acts for any user of its tenant; a page token for exactly one
  (tenant, user) until it expires or the key that minted it is revoked, and
  only to read, correct and delete (on REST, MCP and the page alike);
- a user id that is not the token's answers 404, exactly like a foreign id,
  so a caller never learns what exists outside its scope.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from kenning.memory import Kenning
from kenning.scoped import ScopedMemory
from kenning.types import MAX_ID_CHARS, Scope, check_str

PAGE_PREFIX = "kp_"
bearer = HTTPBearer(auto_error=False, description="A tenant API key (kn_…) or a page token (kp_…)")


@dataclass(frozen=True)
class Principal:
    """An authenticated caller: a tenant, and for page tokens the one user it may act for."""

    tenant_id: str
    user_id: str | None = None  # set only for page tokens
    key_id: str = ""  # the API key used (or, for a page token, the key that minted it)

    @property
    def is_page(self) -> bool:
        return self.user_id is not None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign_page_token(secret: bytes, scope: Scope, expires_at: datetime, key_id: str = "") -> str:
    """``kp_<payload>.<HMAC-SHA256(payload)>``; the payload names tenant, user, expiry and the minting key."""
    claims = {"t": scope.tenant_id, "u": scope.user_id, "exp": int(expires_at.timestamp()), "k": key_id}
    payload = _b64(json.dumps(claims).encode())
    sig = _b64(hmac.new(secret, payload.encode(), hashlib.sha256).digest())
    return f"{PAGE_PREFIX}{payload}.{sig}"


def _claims(secret: bytes, token: str, now: datetime) -> tuple[Scope, str] | None:
    if not isinstance(token, str) or not token.startswith(PAGE_PREFIX) or len(token) > 2000:
        return None
    payload, _, sig = token[len(PAGE_PREFIX):].partition(".")
    try:
        want = _b64(hmac.new(secret, payload.encode(), hashlib.sha256).digest())
    except UnicodeEncodeError:  # an unpaired surrogate in a forged token
        return None
    if not sig or not hmac.compare_digest(sig.encode("utf-8", "replace"), want.encode()):
        return None
    try:
        data = json.loads(_unb64(payload))
        scope = Scope(str(data["t"]), str(data["u"]))
        expires = datetime.fromtimestamp(int(data["exp"]), timezone.utc)
        key_id = str(data.get("k") or "")
    except (ValueError, KeyError, TypeError, OverflowError):
        return None
    return (scope, key_id) if expires > now else None


def verify_page_token(secret: bytes, token: str, now: datetime) -> Scope | None:
    """The scope a validly signed, unexpired token names; None for anything else (tampered, expired, malformed).

    This checks the signature only; ``check_page_token`` also checks the minting key is still active.
    """
    got = _claims(secret, token, now)
    return got[0] if got else None


def check_page_token(system: Kenning, secret: bytes, token: str, now: datetime) -> Scope | None:
    """The scope a page token grants now: validly signed, unexpired, and minted by a key of its tenant
    that is not revoked (revoking a key revokes every page link it made). None otherwise."""
    got = _claims(secret, token, now)
    if got is None:
        return None
    scope, key_id = got
    return scope if key_id and system.key_active(scope.tenant_id, key_id) else None


def page_expiry(now: datetime, ttl_s: int) -> datetime:
    return now + timedelta(seconds=ttl_s)


def credential(request: Request, creds: HTTPAuthorizationCredentials | None) -> str | None:
    if creds is not None and creds.credentials:
        return creds.credentials
    return request.headers.get("x-api-key") or None


def principal(request: Request, creds: HTTPAuthorizationCredentials | None = Depends(bearer)) -> Principal:
    """The caller, from ``Authorization: Bearer`` (or ``X-API-Key``); 401 otherwise."""
    raw = credential(request, creds)
    state = request.app.state
    if raw:
        if raw.startswith(PAGE_PREFIX):
            scope = check_page_token(state.system, state.page_secret, raw, datetime.now(timezone.utc))
            if scope is not None:
                request.state.tenant_id = scope.tenant_id
                return Principal(scope.tenant_id, scope.user_id)
        else:
            key = state.system.authenticate_key(raw)
            if key is not None:
                request.state.tenant_id = key.tenant_id
                return Principal(key.tenant_id, None, key.id)
    raise HTTPException(401, "a valid API key or page token is required", headers={"WWW-Authenticate": "Bearer"})


async def api_key_only(who: Principal = Depends(principal)) -> Principal:
    """Routes an application uses but a user's page may not (capture, remember, maintenance, page links).

    This and the two scope dependencies below do no I/O, so they run on the event loop (each sync
    dependency would cost the request one more trip through the thread pool)."""
    if who.is_page:
        raise HTTPException(403, "this route needs a tenant API key")
    return who


def scoped_for(request: Request, user_id: str, who: Principal) -> ScopedMemory:
    """The facade handle for ``user_id`` within the caller's tenant."""
    if not user_id or len(user_id) > MAX_ID_CHARS or not user_id.strip():
        raise HTTPException(422, f"user id must be 1 to {MAX_ID_CHARS} characters")
    check_str(user_id, "user id")
    if who.is_page and user_id != who.user_id:
        raise HTTPException(404, "no such user in this scope")
    system: Kenning = request.app.state.system
    return system.scope(who.tenant_id, user_id)


async def user_scope(request: Request, user_id: str, who: Principal = Depends(principal)) -> ScopedMemory:
    """Dependency: the caller's scope for the path's user (API key or that user's page token)."""
    return scoped_for(request, user_id, who)


async def app_scope(request: Request, user_id: str, who: Principal = Depends(api_key_only)) -> ScopedMemory:
    """Dependency: as ``user_scope`` but API keys only."""
    return scoped_for(request, user_id, who)
