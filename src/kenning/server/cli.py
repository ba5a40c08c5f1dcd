"""``kenning serve``, ``kenning keys …`` and ``kenning mcp``: thin commands over the server and the facade.

Registered lazily by ``kenning.cli`` as ``kenning.server.cli:serve_cmd``,
``:keys_cmd`` and ``:mcp_cmd``.
"""

from __future__ import annotations

import json
import sys

import click

from kenning.cliutil import db_option as _db_option

DEFAULT_PORT = 8420


def _settings(db: str | None):
    from kenning.config import Settings

    settings = Settings()
    return settings.model_copy(update={"db": db}) if db else settings


def _where(settings) -> str:
    from kenning.config import default_db_path

    return settings.db or f"sqlite:///{default_db_path()}"


db_option = _db_option()


@click.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on (0.0.0.0 for all).")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=int, help="TCP port.")
@click.option("--log-level", default="info", show_default=True, type=click.Choice(["debug", "info", "warning", "error"]))
@click.option("--no-mcp", is_flag=True, help="Do not mount the MCP endpoint at /mcp/.")
@click.option("--maintenance-interval", default=60.0, show_default=True, type=click.FloatRange(min=0.0),
              help="Seconds between background maintenance passes (reconcile, consolidate, forget); 0 = leave it to `kenning worker`.")
def serve_cmd(db: str | None, host: str, port: int, log_level: str, no_mcp: bool, maintenance_interval: float) -> None:
    """Start the REST API (/v1, docs at /docs), the MCP endpoint (/mcp/) and the memory page (/page).

    Stops gracefully on SIGTERM or Ctrl-C: in-flight requests finish, then the store closes.
    """
    import uvicorn

    from kenning.errors import KenningError
    from kenning.server import logs
    from kenning.server.app import create_app

    logs.configure(log_level)
    settings = _settings(db)
    try:
        app = create_app(settings, mcp=not no_mcp, maintenance_interval=maintenance_interval)
    except KenningError as exc:
        raise click.ClickException(str(exc)) from exc
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    click.echo(f"Kenning is listening on http://{shown}:{port}  (database: {_where(settings)})", err=True)
    click.echo(f"  API docs:   http://{shown}:{port}/docs", err=True)
    if not no_mcp:
        click.echo(f"  MCP:        http://{shown}:{port}/mcp/  (streamable HTTP)", err=True)
    click.echo("  Create a key:  kenning keys create --tenant <your-app>" + (f" --db {db}" if db else ""), err=True)
    config = uvicorn.Config(
        app, host=host, port=port, log_config=None, log_level=log_level, timeout_graceful_shutdown=10,
        # uvicorn's own cap (a bare 503) stays above the app's gate, which answers with Retry-After
        limit_concurrency=max(256, settings.server_concurrency + settings.server_queue + 64),
        server_header=False, access_log=False,  # kenning.server logs each request
    )
    uvicorn.Server(config).run()


@click.group("keys")
def keys_cmd() -> None:
    """Create, list and revoke tenant API keys (only their hashes are stored)."""


def _open(db: str | None):
    import kenning

    settings = _settings(db)
    return kenning.open(settings.db, settings=settings)


@keys_cmd.command("create")
@db_option
@click.option("--tenant", required=True, help="The tenant this key acts for.")
@click.option("--name", default="", help="A label, e.g. the application's name.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def keys_create(db: str | None, tenant: str, name: str, as_json: bool) -> None:
    """Make a key; the raw key is printed once and cannot be shown again."""
    from kenning.errors import KenningError

    try:
        with _open(db) as system:
            key, raw = system.create_api_key(tenant, name)
    except KenningError as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(json.dumps({"id": key.id, "tenant_id": key.tenant_id, "name": key.name, "key": raw}))
    else:
        click.echo(raw)
        click.echo(f"Key {key.id} for tenant {tenant!r}. Store it now: it is not shown again.", err=True)


@keys_cmd.command("list")
@db_option
@click.option("--tenant", required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def keys_list(db: str | None, tenant: str, as_json: bool) -> None:
    """The tenant's keys (ids, names, dates; never the keys)."""
    with _open(db) as system:
        keys = system.list_api_keys(tenant)
    rows = [{"id": k.id, "name": k.name, "created_at": k.created_at.isoformat(),
             "revoked_at": k.revoked_at.isoformat() if k.revoked_at else None} for k in keys]
    if as_json:
        click.echo(json.dumps(rows))
        return
    for r in rows:
        click.echo(f"{r['id']}  {r['name'] or '-'}  created {r['created_at'][:19]}  {'revoked ' + r['revoked_at'][:19] if r['revoked_at'] else 'active'}")


@keys_cmd.command("revoke")
@db_option
@click.option("--tenant", required=True)
@click.argument("key_id")
def keys_revoke(db: str | None, tenant: str, key_id: str) -> None:
    """Revoke one of the tenant's keys; it stops working at once."""
    from kenning.errors import KenningError

    try:
        with _open(db) as system:
            system.revoke_api_key(tenant, key_id)
    except KenningError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"revoked {key_id}", err=True)


@click.command("mcp")
@db_option
@click.option("--tenant", required=True, help="Tenant id.")
@click.option("--user", required=True, help="User id within the tenant; every tool acts for this user only.")
def mcp_cmd(db: str | None, tenant: str, user: str) -> None:
    """Serve one tenant's user over MCP on stdin/stdout (for Claude Desktop, Cursor, …)."""
    from kenning.errors import KenningError
    from kenning.server import logs
    from kenning.server.mcp import run_stdio

    logs.configure("warning", sys.stderr)  # stdout belongs to the protocol
    try:
        system = _open(db)
        system.scope(tenant, user)  # validates the ids before the session starts
    except KenningError as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        run_stdio(system, tenant, user)
    finally:
        system.close()
