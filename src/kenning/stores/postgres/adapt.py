"""psycopg adapters for pgvector's ``vector`` type, driver-error translation, and a query sent ahead of its reply.

Vectors travel in pgvector's binary format (a big-endian uint16 dimension, a
uint16 reserved field, then big-endian float32s), so neither side formats or
parses decimal text: that keeps bulk ingest and search cheap.
"""

from __future__ import annotations

import select
import struct
from collections.abc import Iterator, Sequence
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


class Pending:
    """A query sent now whose reply is read later, so the client can work while the server answers.

    Text parameters and raw text results (``bytes``: the replies read this way
    are numbers and booleans, which ``int`` and ``== b"t"`` read directly),
    through libpq's asynchronous calls on a connection the caller holds
    exclusively (outside any pipeline). ``rows`` reads the reply (once; later
    calls return it again); it must be called before the connection runs
    anything else or goes back to its pool. Every PostgreSQL search goes
    through it, so it stays close to libpq: no cursor, no adaptation, no
    decoding.
    """

    __slots__ = ("conn", "_pg", "_reply", "_error")

    def __init__(self, conn: psycopg.Connection, sql: str, params: Sequence[str], *, prepared: bool = False) -> None:
        """Send ``sql`` (``$1``-style placeholders), or with ``prepared`` the statement of that name prepared on ``conn``."""
        self.conn = conn
        self._pg = pg = conn.pgconn
        self._reply: list[tuple[bytes | None, ...]] | None = None
        self._error: BaseException | None = None
        (pg.send_query_prepared if prepared else pg.send_query_params)(sql.encode(), [p.encode() for p in params])
        while pg.flush():  # a non-blocking connection may keep part of the message
            select.select([], [pg.socket], [])

    def rows(self) -> list[tuple[bytes | None, ...]]:
        """The reply's rows (each value its text form as bytes, or None), once the server has answered; driver errors
        are raised as psycopg's."""
        if self._reply is None and self._error is None:
            try:
                self._reply = self._read()
            except BaseException as exc:
                self._error = exc
        if self._error is not None:
            raise self._error
        return self._reply  # type: ignore[return-value]

    def _read(self) -> list[tuple[bytes | None, ...]]:
        pg, out, error = self._pg, [], None
        # The reply has usually arrived while the client worked: take what is there before
        # waiting on the socket (the connection is non-blocking, so this never blocks).
        pg.consume_input()
        while True:
            while pg.is_busy():
                select.select([pg.socket], [], [])
                pg.consume_input()
            res = pg.get_result()
            if res is None:
                break
            if res.error_message:  # only an error carries one (cheaper to read than ``status``)
                if error is None:
                    error = pg_errors.error_from_result(res, encoding=self.conn.info.encoding)
                continue
            get, nf = res.get_value, res.nfields
            for i in range(res.ntuples):
                out.append(tuple([get(i, j) for j in range(nf)]))
        if error is not None:
            raise error
        return out
