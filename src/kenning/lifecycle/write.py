"""The write path: capture turns, extract claims, reconcile them. (Arrives with the write-path issue.)"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kenning.context import Context
from kenning.errors import KenningError
from kenning.types import Scope


class CapabilityMissing(KenningError):
    """The entry point exists but its capability has not been built yet."""


def add_messages(ctx: Context, scope: Scope, messages: Any, *, session_id: str | None, now: datetime, wait: bool) -> Any:
    raise CapabilityMissing("extraction from conversation turns is not implemented yet")


def reconcile_pending(ctx: Context, scope: Scope, now: datetime) -> int:
    """Reconcile provisional memories of ``scope``; returns how many were decided."""
    return 0
