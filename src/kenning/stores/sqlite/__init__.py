"""The embedded SQLite engine."""

from kenning.stores.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
