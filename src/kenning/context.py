"""Kept for imports written before ``Context`` moved to ``kenning.lifecycle.context`` (below the lifecycle's users)."""

from kenning.lifecycle.context import CONTEXT_BLEND, Context

__all__ = ["Context", "CONTEXT_BLEND"]
