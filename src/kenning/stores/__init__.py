"""Storage engines behind the ``Store`` protocol: SQLite (embedded) and PostgreSQL."""

from kenning.stores.base import RETRIEVABLE, Scored, Store, StoreBase

__all__ = ["Store", "StoreBase", "Scored", "RETRIEVABLE"]
