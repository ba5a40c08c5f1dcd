"""psycopg adapters for pgvector's ``vector`` type, and driver-error translation.

Vectors travel in pgvector's binary format (a big-endian uint16 dimension, a
uint16 reserved field, then big-endian float32s), so neither side formats or
parses decimal text: that keeps bulk ingest and search cheap.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import psycopg
from psycopg import errors as pg_errors
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format

from kenning.errors import Conflict, StoreError, ValidationError

_HEAD = struct.Struct(">HH")


class Vector:
    """A query parameter sent as a pgvector ``vector`` (float32)."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray) -> None:
        self.array = np.asarray(array, dtype=">f4")


def register_vector(conn: psycopg.Connection, oid: int) -> None:
    """Teach ``conn`` to send ``Vector`` and to load ``vector`` columns as float32 arrays (binary results)."""

    class VectorDumper(Dumper):
        format = Format.BINARY

        def dump(self, obj: Vector) -> bytes:
            return _HEAD.pack(obj.array.shape[0], 0) + obj.array.tobytes()

    VectorDumper.oid = oid

    class VectorLoader(Loader):
        format = Format.BINARY

        def load(self, data: bytes | bytearray | memoryview) -> np.ndarray:
            dim, _ = _HEAD.unpack_from(data)
            return np.frombuffer(data, dtype=">f4", count=dim, offset=4).astype(np.float32)

    conn.adapters.register_dumper(Vector, VectorDumper)
    conn.adapters.register_loader(oid, VectorLoader)


@contextmanager
def translated(what: str) -> Iterator[None]:
    """Re-raise driver errors as Kenning errors.

    Integrity violations, deadlocks and serialization failures mean a
    concurrent or duplicate change won: ``Conflict``. Values the server
    refuses (a NUL character, an out-of-range number) are the caller's:
    ``ValidationError``. Anything else is a ``StoreError``.
    """
    try:
        yield
    except (pg_errors.IntegrityError, pg_errors.DeadlockDetected, pg_errors.SerializationFailure) as exc:
        raise Conflict(f"{what} rejected: {_first_line(exc)}") from exc
    except pg_errors.DataError as exc:
        raise ValidationError(f"{what}: PostgreSQL refused a value: {_first_line(exc)}") from exc
    except psycopg.Error as exc:
        raise StoreError(f"{what} failed: {_first_line(exc)}") from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
