"""The ``kenning`` command: a thin map from commands onto the facade.

Subcommands that live with their subsystem (eval, worker, serve, keys, mcp,
pg) are imported only when invoked, so ``kenning --help`` stays fast and a
missing optional extra only breaks the command that needs it.
"""

from __future__ import annotations

import importlib
import json
import sys
from datetime import datetime
from typing import Any

import click

import kenning
from kenning.cliutil import HELP, db_option
from kenning.config import Settings
from kenning.errors import KenningError
from kenning.scoped import WAIT_DEFAULT
from kenning.progress import bar
from kenning.serialize import audit_to_dict, memory_to_dict

MAX_IMPORT_BYTES = 512 << 20

LAZY = {
    "eval": ("kenning.evals.cli", "eval_cmd", "Run scenario files or the LoCoMo retrieval benchmark."),
    "serve": ("kenning.server.cli", "serve_cmd", "Start the REST API, MCP endpoint and memory page."),
    "keys": ("kenning.server.cli", "keys_cmd", "Create, list and revoke tenant API keys."),
    "mcp": ("kenning.server.cli", "mcp_cmd", "Serve one tenant's user over MCP (stdio)."),
    "pg": ("kenning.stores.postgres.cli", "pg_cmd", "Start or stop a local pgvector PostgreSQL."),
}


class LazyGroup(click.Group):
    """A group whose heavy subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY:
            module, attr, _ = LAZY[name]
            try:
                return getattr(importlib.import_module(module), attr)
            except (ImportError, AttributeError) as exc:
                msg = f"'kenning {name}' is unavailable: {exc}"

                @click.command(name=name, help=LAZY[name][2])
                def unavailable() -> None:
                    raise click.ClickException(msg)

                return unavailable
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context) -> Any:
        """Every command's failures on bad input end as one line and exit status 1, never a traceback."""
        try:
            return super().invoke(ctx)
        except KenningError as exc:
            raise click.ClickException(f"{type(exc).__name__}: {exc}") from None
        except (OverflowError, RecursionError, UnicodeError) as exc:
            raise click.ClickException(f"invalid input: {_why(exc)}") from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(n, LAZY[n][2]) if n in LAZY else (n, (self.commands[n].get_short_help_str(60))) for n in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def scope_options(f: Any) -> Any:
    """--db, --tenant, --user and --json, shared by every data command."""
    f = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(f)
    f = click.option("--user", default="user", show_default=True, help="User id within the tenant.")(f)
    f = click.option("--tenant", default="default", show_default=True, help="Tenant id.")(f)
    return db_option()(f)


def open_scope(db: str | None, tenant: str, user: str) -> kenning.ScopedMemory:
    return run(lambda: kenning.open(db, settings=Settings()).scope(tenant, user))


def emit(data: Any, as_json: bool, text: str) -> None:
    click.echo(json.dumps(data, indent=2, default=str) if as_json else text)


def fmt_memory(m: kenning.Memory) -> str:
    when = m.created_at.strftime("%Y-%m-%d %H:%M")
    return f"{m.id}  [{m.kind.value}/{m.source.value} imp={m.importance:.2f} conf={m.confidence:.2f} {when}]  {m.text}"


@click.group(cls=LazyGroup, context_settings=HELP)
@click.version_option(kenning.__version__, prog_name="kenning")
def main() -> None:
    """Kenning: long-term memory for AI agents."""


def _why(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, UnicodeError):
        return "not valid UTF-8 text"
    return f"a number is out of range ({exc})"


def run(fn: Any) -> Any:
    """Turn Kenning errors into a one-line message and exit status 1."""
    try:
        return fn()
    except KenningError as exc:
        raise click.ClickException(f"{type(exc).__name__}: {exc}") from None


@main.command()
@scope_options
@click.argument("text")
@click.option("--kind", type=click.Choice([k.value for k in kenning.Kind]), default="fact", show_default=True)
@click.option("--importance", type=float, default=None)
@click.option("--confidence", type=float, default=None)
@click.option("--expires", "expires_at", type=click.DateTime(["%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%d %H:%M:%S%z"]), default=None,
              help="Expiry with a UTC offset, e.g. 2026-02-10T00:00:00+0000.")
def remember(db, tenant, user, as_json, text, kind, importance, confidence, expires_at) -> None:
    """Store one claim as given."""
    m = run(lambda: open_scope(db, tenant, user).remember(text, kind=kind, importance=importance, confidence=confidence, expires_at=expires_at))
    emit(memory_to_dict(m, embedding=False), as_json, fmt_memory(m))


@main.command()
@scope_options
@click.argument("messages", nargs=-1, required=True)
@click.option("--role", type=click.Choice(["user", "assistant", "tool"]), default="user", show_default=True)
@click.option("--session", default=None)
@click.option("--wait/--no-wait", default=WAIT_DEFAULT, show_default=True,
              help="Extract and reconcile before returning (--no-wait: only store the turns).")
def add(db, tenant, user, as_json, messages, role, session, wait) -> None:
    """Capture conversation turns: extract claims and reconcile them."""
    turns = [{"role": role, "content": m} for m in messages]
    mem = run(lambda: open_scope(db, tenant, user))
    result = run(lambda: mem.add(turns, session_id=session, wait=wait))
    lines = [f"{len(result.ids)} candidate(s) captured" + (f"; withheld: {', '.join(result.withheld)}" if result.withheld else "")]
    for d in result.decisions:
        kept = mem.get(d.memory_id).text if d.memory_id else "(nothing kept)"
        lines.append(f"  {d.op.value if d.op else 'PENDING':<7} {kept}" + (f"  [replaces {d.target_id}]" if d.target_id else ""))
    emit(_plain(result), as_json, "\n".join(lines))


@main.command()
@scope_options
@click.argument("query")
@click.option("-k", "--k", "k", default=5, show_default=True, type=int)
@click.option("--kind", "kinds", multiple=True, type=click.Choice([k.value for k in kenning.Kind]), help="Only these kinds.")
@click.option("--agent", "agent_id", default=None, help="Only memories this agent wrote.")
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), default=None, help="Only memories created on or after this date (UTC).")
def search(db, tenant, user, as_json, query, k, kinds, agent_id, since) -> None:
    """Retrieve the best memories for a query, with why they ranked."""
    from datetime import timezone

    filters = {"kinds": list(kinds) or None, "agent_id": agent_id, "since": since.replace(tzinfo=timezone.utc) if since else None}
    filters = {key: v for key, v in filters.items() if v is not None}
    hits = run(lambda: open_scope(db, tenant, user).search(query, k=k, **filters))
    data = [{"score": h.score, "components": dict(h.components), "memory": memory_to_dict(h.memory, embedding=False)} for h in hits]
    lines = [
        f"{h.score:.3f}  rel={h.components['relevance']:.2f} rec={h.components['recency']:.2f} "
        f"imp={h.components['importance']:.2f}  {h.memory.text}  ({h.memory.id})"
        for h in hits
    ]
    emit(data, as_json, "\n".join(lines) or "(nothing relevant)")


@main.command(name="list")
@scope_options
@click.option("--kind", "kinds", multiple=True, type=click.Choice([k.value for k in kenning.Kind]))
@click.option("--all", "include_all", is_flag=True, help="Include provisional, retired and deleted records.")
@click.option("--limit", type=int, default=None)
def list_(db, tenant, user, as_json, kinds, include_all, limit) -> None:
    """List remembered memories, newest first."""
    statuses = list(kenning.Status) if include_all else [kenning.Status.ACTIVE]
    mems = run(lambda: open_scope(db, tenant, user).list(kinds=kinds or None, statuses=statuses, limit=limit))
    emit([memory_to_dict(m, embedding=False) for m in mems], as_json, "\n".join(map(fmt_memory, mems)) or "(no memories)")


@main.command()
@scope_options
@click.argument("memory_id")
def get(db, tenant, user, as_json, memory_id) -> None:
    """Show one memory."""
    m = run(lambda: open_scope(db, tenant, user).get(memory_id))
    emit(memory_to_dict(m, embedding=False), as_json, fmt_memory(m) + f"  status={m.status.value}")


@main.command()
@scope_options
@click.argument("memory_id")
def history(db, tenant, user, as_json, memory_id) -> None:
    """Show a memory's versions and audit trail."""
    h = run(lambda: open_scope(db, tenant, user).history(memory_id))
    data = {"versions": [memory_to_dict(m, embedding=False) for m in h.versions], "audit": [audit_to_dict(a) for a in h.audit]}
    lines = ["versions:"] + [f"  {m.status.value:<11} {fmt_memory(m)}" for m in h.versions]
    lines += ["audit:"] + [f"  {a.at:%Y-%m-%d %H:%M} {a.op.value:<11} {' '.join(a.memory_ids)} {a.reason}" for a in h.audit]
    emit(data, as_json, "\n".join(lines))


@main.command()
@scope_options
@click.argument("memory_id")
def delete(db, tenant, user, as_json, memory_id) -> None:
    """Delete a memory and everything derived from it."""
    report = run(lambda: open_scope(db, tenant, user).delete(memory_id))
    emit(_plain(report), as_json, f"deleted {len(report.deleted)}, retired {len(report.retired)}, regenerated {len(report.regenerated)}")


@main.command(name="forget-user")
@scope_options
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def forget_user(db, tenant, user, as_json, yes) -> None:
    """Delete everything remembered about one user (account deletion)."""
    if not yes:
        click.confirm(f"Delete everything of {tenant}/{user}?", abort=True)
    n = run(lambda: open_scope(db, tenant, user).delete_all())
    emit({"deleted": n}, as_json, f"deleted {n} memories of {tenant}/{user}")


@main.command()
@scope_options
@click.option("-o", "--output", type=click.File("w"), default="-", help="File to write (default stdout).")
def export(db, tenant, user, as_json, output) -> None:
    """Export everything held for one user as JSON (every field, every status)."""
    data = run(lambda: open_scope(db, tenant, user).export())
    json.dump(data, output, indent=2)
    output.write("\n")


@main.command(name="import")
@scope_options
@click.argument("source", type=click.File("rb"))
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def import_(db, tenant, user, as_json, source, quiet) -> None:
    """Import a `kenning export` document into a scope (any engine)."""
    raw = source.read(MAX_IMPORT_BYTES + 1)
    if len(raw) > MAX_IMPORT_BYTES:
        raise click.ClickException(f"the document is larger than {MAX_IMPORT_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise click.ClickException("the document is not valid UTF-8") from None
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"the document is not valid JSON: {exc}") from None
    except RecursionError:
        raise click.ClickException("the document is nested too deeply") from None
    mem = open_scope(db, tenant, user)
    with bar("importing", enabled=not quiet) as progress:
        n = run(lambda: mem.import_(data, progress=progress))
    emit({"imported": n}, as_json, f"imported {n} records into {tenant}/{user}")


@main.command()
@db_option()
@click.option("--json", "as_json", is_flag=True, help="Print the reports as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def maintain(db, as_json, quiet) -> None:
    """Run all background work once, to completion (reconcile, consolidate, forget), for every user written to or due."""
    system = run(lambda: kenning.open(db, settings=Settings()))
    with system, bar("maintaining users", enabled=not quiet and not as_json) as progress:
        reports = run(lambda: system.maintain(progress=progress))
    emit(_plain(reports), as_json, describe_maintenance(reports))


def describe_maintenance(reports: list[dict[str, Any]]) -> str:
    """What a maintenance pass did, in sentences: one line per user with work done, then a total."""
    parts = {"reconciled": "{} new claim(s) reconciled", "consolidated": "{} summary(ies) written",
             "expired": "{} expired", "decayed": "{} faded away", "capacity": "{} dropped over capacity"}
    lines, busy = [], 0
    for r in reports:
        done = [fmt.format(n) for key, fmt in parts.items() if (n := _count(r.get(key)))]
        if done:
            busy += 1
            lines.append(f"{r['scope']}: " + ", ".join(done))
    lines.append(f"{len(reports)} user(s) checked, {busy} with changes." if reports else "Nothing to do: no user was written to or came due.")
    return "\n".join(lines)


def _count(value: Any) -> int:
    return len(value) if isinstance(value, (list, tuple)) else int(value or 0)


@main.command("worker")
@db_option()
@click.option("--interval", default=60.0, show_default=True, type=click.FloatRange(min=0.0), help="Seconds between passes.")
@click.option("--once", is_flag=True, help="Run one pass over every user with work (written to or due) and exit.")
@click.option("--lease-ttl", default=300.0, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds a user stays claimed by a worker that stopped answering.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def worker_cmd(db, interval, once, lease_ttl, quiet) -> None:
    """Run background work (reconciliation, consolidation, forgetting) on a schedule.

    Several workers (and servers) can run side by side: each user is leased to one at a time.
    """
    import os
    import socket
    import time

    from kenning.types import new_id

    holder = f"{socket.gethostname()}:{os.getpid()}:{new_id('wrk')}"
    system = run(lambda: kenning.open(db, settings=Settings()))
    with system:
        try:
            while True:
                started = time.monotonic()
                with bar("worker pass", enabled=not quiet) as progress:
                    reports = run(lambda: system.maintenance_pass(holder=holder, lease_ttl_s=lease_ttl, progress=progress))
                click.echo(describe_maintenance(reports), err=True)
                if once:
                    return
                time.sleep(max(0.0, interval - (time.monotonic() - started)))
        except KeyboardInterrupt:  # Ctrl-C between or during passes: every write so far is whole
            click.echo("worker stopped", err=True)


@main.command()
@db_option(help="Keep the demo's memories in this database (default: a temporary file).")
def demo(db) -> None:
    """A short multi-session story: what Kenning remembers, forgets and recalls, and why."""
    from kenning.demo import run_demo

    run(lambda: run_demo(db, echo=click.echo))


def _plain(obj: Any) -> Any:
    """A JSON-ready view of dataclass results."""
    import dataclasses

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, kenning.Memory):
        return memory_to_dict(obj, embedding=False)
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, datetime):
        return obj.isoformat()
    if hasattr(obj, "value") and isinstance(getattr(obj, "value"), str):
        return obj.value
    return obj


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
