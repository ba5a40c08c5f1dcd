"""The facade: ``kenning.open(...)`` wires the parts once; ``.scope(tenant, user)`` is what callers hold.

Every front end (CLI, REST, MCP, the web page, the evaluation runner) calls
this module and nothing below it. Every call that depends on time takes an
optional ``now`` (timezone-aware); the default is the wall clock.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter, OrderedDict
from collections.abc import Sequence
from datetime import datetime
from threading import Lock
from typing import Any

from kenning.config import Settings
from kenning.embedders.base import Embedder
from kenning.errors import ConfigError, NotFound, ValidationError
from kenning.history import History
from kenning.inputs import clean_now
from kenning.lifecycle.context import Context
from kenning.lifecycle.retrieve import Policy
from kenning.scoped import ScopedMemory
from kenning.stores.base import KeyStore, MemoryStore, supports
from kenning.types import DEFAULT_CONFIDENCE, DEFAULT_IMPORTANCE, MAX_ID_CHARS, ApiKey, DeletionReport, Scope, check_str, new_id


def open(  # noqa: A001 - the natural name, as in sqlite3/shelve
    url: str | None = None,
    *,
    embedder: Embedder | None = None,
    policy: Policy | None = None,
    settings: Settings | None = None,
    store: MemoryStore | None = None,
    llm: Any = None,
) -> "Kenning":
    """Open a memory system: ``sqlite:///path.db`` (default: the user data dir) or ``postgresql://…``.

    Parts not given are built from ``settings`` (defaults: the bundled
    embedder, the offline rules engine, no LLM).
    """
    from kenning import wiring

    settings = settings or Settings.model_construct()
    ctx = wiring.build_context(url, settings=settings, embedder=embedder, policy=policy, store=store, llm=llm)
    return Kenning(ctx)


class Kenning:
    """A memory system over one store. Thread-safe; open once per process."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._refreshes: OrderedDict[tuple[Scope, str], Counter[str]] = OrderedDict()
        self._refresh_lock = Lock()

    def scope(self, tenant_id: str, user_id: str) -> "ScopedMemory":
        """The handle for one tenant's user; every read and write goes through one."""
        return ScopedMemory(self, Scope(tenant_id, user_id))

    user = scope

    def maintain(self, *, now: datetime | None = None, progress: Any = None) -> list[Any]:
        """Run all background work to completion for every scope that has some (what ``kenning worker`` does on a schedule).

        A scope has work when it was written to since its last pass or when an
        expiry or decay has come due; others are not visited. Returns one report
        per scope visited; ``progress(done, total, scope)`` is called after each.
        """
        from kenning import worker

        return worker.maintain_all(self.ctx, now=clean_now(now), progress=progress)

    def maintenance_pass(
        self, *, holder: str, lease_ttl_s: float = 300.0, now: datetime | None = None, progress: Any = None
    ) -> list[Any]:
        """One ``kenning worker`` pass: maintain every scope with work whose lease ``holder`` can take (safe beside other workers)."""
        from kenning import worker

        return worker.run_once(self.ctx, holder=holder, lease_ttl_s=lease_ttl_s, now=now, progress=progress)

    def scopes(self) -> list[Scope]:
        """Every (tenant, user) holding memories. Administrative: for workers and integrations spanning users."""
        return self.ctx.store.scopes()

    # -- tenant API keys: the server authenticates with these ------------------

    def create_api_key(self, tenant_id: str, name: str = "", *, now: datetime | None = None) -> tuple[Any, str]:
        """Make a key for ``tenant_id``; returns ``(record, raw_key)``. Only the hash is stored: show the raw key once."""
        if not isinstance(name, str) or len(name) > 200:
            raise ValidationError("key name must be a string of at most 200 characters")
        check_str(name, "key name")
        Scope(tenant_id, "-")  # the tenant id obeys the same rules as in every scope
        raw = "kn_" + secrets.token_urlsafe(32)
        key = ApiKey(new_id("key"), tenant_id, name, hashlib.sha256(raw.encode()).hexdigest(), clean_now(now))
        self._keys().put_api_key(key)
        return key, raw

    def authenticate(self, raw_key: str) -> str | None:
        """The tenant an unrevoked ``raw_key`` belongs to; None for anything else."""
        key = self.authenticate_key(raw_key)
        return key.tenant_id if key is not None else None

    def authenticate_key(self, raw_key: str) -> ApiKey | None:
        """The unrevoked key record ``raw_key`` is; None for anything else (malformed, unknown, revoked)."""
        if not isinstance(raw_key, str) or not raw_key.startswith("kn_") or len(raw_key) > 200:
            return None
        try:
            digest = hashlib.sha256(raw_key.encode()).hexdigest()
        except UnicodeEncodeError:
            return None
        key = self._keys().find_api_key(digest)
        return key if key is not None and key.revoked_at is None else None

    def key_active(self, tenant_id: str, key_id: str) -> bool:
        """True if ``key_id`` is one of the tenant's keys and not revoked (page links die with their key)."""
        return any(k.id == key_id and k.revoked_at is None for k in self._keys().list_api_keys(tenant_id))

    def list_api_keys(self, tenant_id: str) -> list[Any]:
        """The tenant's key records (hashes only), oldest first."""
        Scope(tenant_id, "-")
        return self._keys().list_api_keys(tenant_id)

    def revoke_api_key(self, tenant_id: str, key_id: str, *, now: datetime | None = None) -> None:
        """Revoke one of the tenant's keys; ``NotFound`` if the tenant has no such active key."""
        Scope(tenant_id, "-")
        if not isinstance(key_id, str) or len(key_id) > MAX_ID_CHARS:
            raise NotFound("no such active key for this tenant")
        check_str(key_id, "key id")
        if not self._keys().revoke_api_key(tenant_id, key_id, clean_now(now)):
            raise NotFound(f"no active key {key_id!r} for this tenant")

    def secret(self, name: str) -> bytes:
        """A random secret persisted in the database under ``name`` (made on first use); e.g. for signing links."""
        return bytes.fromhex(self._keys().secret(name, secrets.token_hex(32)))

    def _keys(self) -> KeyStore:
        if not supports(self.ctx.store, KeyStore):
            raise ConfigError("this store holds no API keys or secrets (it is not a KeyStore); the server needs one that is")
        return self.ctx.store

    def close(self) -> None:
        self.ctx.store.close()
        close = getattr(self.ctx.embedder, "close", None)
        if callable(close):
            close()  # a batching embedder's threads

    def __enter__(self) -> "Kenning":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Refresh cap: how often retrieval may refresh one memory's last_used_at
    # in one session, so the same few memories do not win for ever.
    def _allowed_refreshes(self, scope: Scope, session: str, ids: Sequence[str]) -> list[str]:
        cap = self.ctx.settings.refresh_cap_per_session
        with self._refresh_lock:
            counts = self._refreshes.setdefault((scope, session), Counter())
            self._refreshes.move_to_end((scope, session))
            while len(self._refreshes) > 10_000:
                self._refreshes.popitem(last=False)
            allowed = [i for i in ids if counts[i] < cap]
            counts.update(allowed)
        return allowed


__all__ = ["open", "Kenning", "ScopedMemory", "History", "DeletionReport", "DEFAULT_IMPORTANCE", "DEFAULT_CONFIDENCE"]
