"""The PostgreSQL engine (psycopg 3, pgvector); ``kenning.open("postgresql://…")`` selects it."""

from kenning.stores.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
