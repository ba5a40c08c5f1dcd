"""Engines and embedders by name, built in or added by other packages through entry points.

A third-party package adds a storage engine for a URL scheme, or an embedder
for a ``KENNING_EMBEDDER`` name, by declaring an entry point (the way the
``llm`` CLI finds its plugins)::

    [project.entry-points."kenning.stores"]
    mystore = "my_package:open_store"        # kenning.open("mystore://…")

    [project.entry-points."kenning.embedders"]
    myembed = "my_package:build_embedder"    # KENNING_EMBEDDER=myembed

A store factory is called as ``factory(url, dim=..., embedder_id=...)`` and
returns a ``kenning.stores.base.MemoryStore`` (optionally also ``KeyStore``,
``LeaseStore``, ``ResidueStore``); an embedder factory is called with the
``Settings`` and returns an ``Embedder``. Built-in names win over plugins.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kenning.config import Settings, default_db_path
from kenning.errors import ConfigError

STORE_GROUP = "kenning.stores"
EMBEDDER_GROUP = "kenning.embedders"



def _sqlite(url: str, *, dim: int, embedder_id: str) -> Any:
    from kenning.stores.sqlite import SQLiteStore

    return SQLiteStore(sqlite_path(url), dim=dim, embedder_id=embedder_id)


def _postgres(url: str, *, dim: int, embedder_id: str) -> Any:
    try:
        from kenning.stores.postgres import PostgresStore
    except ImportError as exc:
        raise ConfigError(f"PostgreSQL support needs the 'postgres' extra: pip install -e '.[postgres]' ({exc})") from exc
    return PostgresStore(url, dim=dim, embedder_id=embedder_id)


def _minilm(settings: Settings) -> Any:
    from kenning.embedders.minilm import MiniLMEmbedder

    return MiniLMEmbedder()


def _hash(settings: Settings) -> Any:
    from kenning.embedders.hashing import HashEmbedder

    return HashEmbedder()


def _openai(settings: Settings) -> Any:
    from kenning.embedders.openai import OpenAIEmbedder

    if not (settings.embed_base_url and settings.embed_model and settings.embed_dim):
        raise ConfigError("embedder=openai needs embed_base_url, embed_model and embed_dim")
    return OpenAIEmbedder(settings.embed_base_url, settings.embed_model, settings.embed_dim, settings.embed_api_key)


BUILTIN_STORES: dict[str, Callable[..., Any]] = {"sqlite": _sqlite, "postgresql": _postgres, "postgres": _postgres}
BUILTIN_EMBEDDERS: dict[str, Callable[[Settings], Any]] = {"minilm": _minilm, "hash": _hash, "openai": _openai}


def _plugins(group: str) -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=group)}


def store_schemes() -> list[str]:
    """Every URL scheme a store is registered for, built in or by a plugin."""
    return sorted({*BUILTIN_STORES, *_plugins(STORE_GROUP)})


def embedder_names() -> list[str]:
    """Every embedder name registered, built in or by a plugin."""
    return sorted({*BUILTIN_EMBEDDERS, *_plugins(EMBEDDER_GROUP)})


def store_factory(scheme: str) -> Callable[..., Any]:
    if scheme in BUILTIN_STORES:
        return BUILTIN_STORES[scheme]
    ep = _plugins(STORE_GROUP).get(scheme)
    if ep is None:
        raise ConfigError(f"no storage engine for {scheme}:// URLs; known: {', '.join(s + '://' for s in store_schemes())}")
    return ep.load()


def embedder_factory(name: str) -> Callable[[Settings], Any]:
    if name in BUILTIN_EMBEDDERS:
        return BUILTIN_EMBEDDERS[name]
    ep = _plugins(EMBEDDER_GROUP).get(name)
    if ep is None:
        raise ConfigError(f"unknown embedder {name!r}; known: {', '.join(embedder_names())}")
    return ep.load()


def check_url(url: str) -> str:
    """``url`` if it names a registered engine; ``ConfigError`` in words otherwise (nothing is created).

    A bare word or path is refused rather than taken as a SQLite file name:
    ``--db notaurl`` must not leave a file called ``notaurl`` behind.
    """
    if not isinstance(url, str) or "://" not in url:
        raise ConfigError(f"database URL {url!r} is not a URL: {_hint(url)}use {_FORMS}")
    scheme = urlsplit(url).scheme.lower() or url.split("://", 1)[0]
    store_factory(scheme)  # raises for an unknown scheme
    if scheme == "sqlite":
        path = sqlite_path(url)
        if not path.parent.is_dir():
            raise ConfigError(f"directory {str(path.parent)!r} of {url!r} does not exist; create it first")
    return url


_FORMS = "sqlite:///relative/path.db, sqlite:////absolute/path.db or postgresql://user@host/dbname"
_KEYWORD = re.compile(r"^\s*\w+\s*=")


def _hint(value: object) -> str:
    """What a refused database argument looks like it meant, as the start of the error message."""
    if not isinstance(value, str):
        return ""
    if _KEYWORD.match(value):
        return "it looks like a key=value PostgreSQL connection string, which is not accepted (write it as a postgresql:// URL); "
    if value.lower().endswith((".db", ".sqlite", ".sqlite3")):
        return f"for a SQLite file write sqlite:///{value} ({'four slashes: absolute' if value.startswith('/') else 'three slashes: relative'}); "
    return ""


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///`` URL: three slashes then a relative path, four for an absolute one."""
    if not url.startswith("sqlite:///") or len(url) == len("sqlite:///"):
        raise ConfigError(f"SQLite URLs look like sqlite:///path.db (relative) or sqlite:////abs/path.db; got {url!r}")
    return Path(url[len("sqlite:///") :])


def open_store(url: str | None, *, dim: int, embedder_id: str) -> Any:
    """The store for ``url`` (default: a SQLite file in the user data dir, created with its directory)."""
    if url is None:
        path = default_db_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{path}"
    check_url(url)
    return store_factory(urlsplit(url).scheme.lower())(url, dim=dim, embedder_id=embedder_id)


def build_embedder(settings: Settings) -> Any:
    """The embedder ``settings.embedder`` names."""
    return embedder_factory(settings.embedder)(settings)


__all__ = [
    "STORE_GROUP", "EMBEDDER_GROUP", "store_schemes", "embedder_names", "store_factory", "embedder_factory",
    "check_url", "sqlite_path", "open_store", "build_embedder",
]
