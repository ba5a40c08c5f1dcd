"""Kenning: long-term memory for AI agents.

    import kenning
    mem = kenning.open("sqlite:///memories.db").scope("acme", "alice")
    mem.remember("Alice is allergic to peanuts", kind="fact", importance=0.95)
    for hit in mem.search("book a dinner table"):
        print(hit.score, hit.memory.text)
"""

from kenning.config import Settings
from kenning.errors import (
    ConfigError,
    Conflict,
    EmbedderError,
    Forbidden,
    KenningError,
    LLMError,
    NotFound,
    RuntimeFailure,
    StoreError,
    UsageError,
    ValidationError,
)
from kenning.aio import AsyncKenning, AsyncScopedMemory, open_async
from kenning.lifecycle.retrieve import Policy
from kenning.history import History
from kenning.memory import Kenning, open
from kenning.scoped import ScopedMemory
from kenning.types import AuditEntry, DeletionReport, Filter, Hit, Kind, Memory, Op, Scope, Sensitivity, Source, Status

__version__ = "0.1.0"

__all__ = [
    "open", "Kenning", "ScopedMemory", "History", "DeletionReport", "Settings", "Policy",
    "open_async", "AsyncKenning", "AsyncScopedMemory", "Filter",
    "Memory", "Scope", "Hit", "Kind", "Source", "Sensitivity", "Status", "Op", "AuditEntry",
    "KenningError", "UsageError", "ValidationError", "ConfigError", "RuntimeFailure", "StoreError",
    "Conflict", "EmbedderError", "LLMError", "NotFound", "Forbidden",
]
