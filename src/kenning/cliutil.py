"""Pieces every ``kenning`` command shares: the checked ``--db`` option and the help flags."""

from __future__ import annotations

from typing import Any

import click

HELP = {"help_option_names": ["-h", "--help"]}


def _check_db(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse a database argument that is not a URL of a known engine, before anything opens or creates a file."""
    if value is None:
        return None
    from kenning import registry
    from kenning.errors import ConfigError

    try:
        return registry.check_url(value)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def db_option(help: str = "sqlite:///path.db (relative), sqlite:////abs/path.db, or postgresql://… (default: KENNING_DB or the user data dir).") -> Any:
    """``--db URL`` (also read from ``KENNING_DB``), checked as it is parsed."""
    return click.option("--db", "db", envvar="KENNING_DB", default=None, callback=_check_db, help=help)


__all__ = ["HELP", "db_option"]
