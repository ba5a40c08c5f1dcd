"""The composition root: builds a ``Context`` from a URL, settings and any parts given."""

from __future__ import annotations

from typing import Any

from kenning import registry
from kenning.config import Settings
from kenning.lifecycle.context import Context
from kenning.embedders.base import CachedEmbedder, Embedder
from kenning.embedders.batching import BatchingEmbedder
from kenning.lifecycle.retrieve import Policy
from kenning.stores.base import MemoryStore


def build_embedder(settings: Settings) -> Embedder:
    """The embedder ``settings.embedder`` names: built in (minilm, hash, openai) or registered by a plugin."""
    return registry.build_embedder(settings)


def open_store(url: str | None, embedder: Embedder) -> MemoryStore:
    """The store for ``url`` (``sqlite:///path``, ``postgresql://``, or a plugin's scheme); ConfigError for anything else."""
    return registry.open_store(url, dim=embedder.dim, embedder_id=embedder.model_id)


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
    store: MemoryStore | None = None,
    llm: Any = None,
) -> Context:
    emb = embedder or build_embedder(settings)
    if not isinstance(emb, CachedEmbedder):
        if settings.embed_batch:
            emb = BatchingEmbedder(
                emb, window_s=settings.embed_batch_window_ms / 1000, max_batch=settings.embed_batch_max,
                workers=settings.embed_batch_threads or None,
            )
        emb = CachedEmbedder(emb)  # repeats answered before they reach the batcher
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
