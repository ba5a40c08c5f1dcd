"""The composition root: builds a ``Context`` from a URL, settings and any parts given."""

from __future__ import annotations

from typing import Any

from kenning.config import Settings, default_db_path
from kenning.context import Context
from kenning.embedders.base import CachedEmbedder, Embedder
from kenning.errors import ConfigError
from kenning.lifecycle.retrieve import Policy
from kenning.stores.base import Store


def build_embedder(settings: Settings) -> Embedder:
    """The embedder ``settings`` name: the bundled MiniLM, the hashing fake, or an OpenAI-compatible endpoint."""
    if settings.embedder == "hash":
        from kenning.embedders.hashing import HashEmbedder

        return HashEmbedder()
    if settings.embedder == "openai":
        from kenning.embedders.openai import OpenAIEmbedder

        if not (settings.embed_base_url and settings.embed_model and settings.embed_dim):
            raise ConfigError("embedder=openai needs embed_base_url, embed_model and embed_dim")
        return OpenAIEmbedder(settings.embed_base_url, settings.embed_model, settings.embed_dim, settings.embed_api_key)
    from kenning.embedders.minilm import MiniLMEmbedder

    return MiniLMEmbedder()


def open_store(url: str | None, embedder: Embedder) -> Store:
    """A store for ``url``: ``sqlite:///path``, a bare path, ``:memory:``-less temp files, or ``postgresql://``."""
    if url is None:
        path = default_db_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{path}"
    if url.startswith(("postgresql://", "postgres://")):
        try:
            from kenning.stores.postgres import PostgresStore
        except ImportError as exc:
            raise ConfigError(f"PostgreSQL support needs the 'postgres' extra: pip install 'kenning[postgres]' ({exc})") from exc
        return PostgresStore(url, dim=embedder.dim, embedder_id=embedder.model_id)
    from kenning.stores.sqlite import SQLiteStore

    path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else url
    if "://" in path:
        raise ConfigError(f"unsupported database URL {url!r}: use sqlite:///path.db or postgresql://…")
    return SQLiteStore(path, dim=embedder.dim, embedder_id=embedder.model_id)


def build_decider(settings: Settings, llm: Any = None) -> Any:
    """The reconciliation decider: the LLM one when an endpoint is configured, else the offline rules engine."""
    from kenning.llms import build_decider as _build

    return _build(settings, llm)


def build_extractor(settings: Settings, llm: Any = None) -> Any:
    """The LLM extractor when an LLM is given or configured (and ``settings.llm_extract``), else None: offline."""
    from kenning.llms import build_extractor as _build

    return _build(settings, llm)


def build_context(
    url: str | None,
    *,
    settings: Settings,
    embedder: Embedder | None = None,
    policy: Policy | None = None,
    store: Store | None = None,
    llm: Any = None,
) -> Context:
    emb = embedder or build_embedder(settings)
    if not isinstance(emb, CachedEmbedder):
        emb = CachedEmbedder(emb)
    url = url or settings.db
    if llm is None and settings.llm_base_url:
        from kenning.llms import build_llm

        chat = build_llm(settings)  # one client for the decider and the extractor; ctx.llm stays what was passed
    else:
        chat = llm
    return Context(
        store=store or open_store(url, emb),
        embedder=emb,
        policy=policy or Policy(),
        settings=settings,
        decider=build_decider(settings, chat),
        extractor=build_extractor(settings, chat),
        llm=llm,
    )
