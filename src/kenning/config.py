"""Settings: one explicit object, read from ``KENNING_*`` variables only by entry points.

Nothing here runs at import. ``Settings()`` reads the environment when an
entry point (CLI, server, worker) builds it; library users pass values.
"""

from __future__ import annotations

from pathlib import Path


from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/kenning/kenning.db`` (``~/.local/share/kenning/kenning.db``)."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kenning" / "kenning.db"


class Settings(BaseSettings):
    """Everything an operator can set. Defaults run fully offline on one machine."""

    model_config = SettingsConfigDict(env_prefix="KENNING_", extra="forbid")

    db: str | None = Field(None, description="sqlite:///path.db or postgresql://…; default: a file in the user data dir")
    embedder: str = Field("minilm", description="minilm (bundled), hash (tests), openai, or a name a plugin registers")
    embed_base_url: str | None = None
    embed_model: str | None = None
    embed_dim: int | None = None
    embed_api_key: str | None = None

    llm_base_url: str | None = Field(None, description="OpenAI-compatible chat endpoint; unset = offline rules engine")
    llm_model: str | None = None
    llm_api_key: str | None = None
    llm_timeout_s: float = 20.0
    llm_retries: int = 1
    llm_extract: bool = Field(True, description="with an LLM configured, it also extracts the claims (one call per add batch)")
    llm_extract_prompt: str | None = Field(None, description="replaces the extraction instructions; the answer schema is always appended")

    capacity: int = Field(5000, ge=1, description="active memories per user before capacity eviction")
    allow_secrets: bool = Field(False, description="store credentials and card numbers (never by default)")
    max_text_chars: int = Field(4000, ge=1)
    chatter_cutoff: float = Field(
        0.5, ge=0.0, le=1.0, description="the offline engine does not store a claim its chit-chat model scores at or above this; 1 keeps all"
    )
    supersede_cutoff: float = Field(
        0.6, ge=0.0, le=1.0, description="the offline engine lets a new claim replace an earlier memory its supersession model scores at or above this; 1 never"
    )
    refresh_cap_per_session: int = Field(1, ge=0, description="last_used_at refreshes per memory per session")

    embed_batch: bool | None = Field(
        None, description="micro-batch concurrent embeddings (one model call for several requests); unset: on in the server, off in the library"
    )
    embed_batch_window_ms: float = Field(0.0, ge=0.0, le=50.0, description="how long a batch waits for companions")
    embed_batch_max: int = Field(16, ge=1, le=256, description="texts per batched model call at most")
    embed_batch_threads: int = Field(0, ge=0, le=64, description="model calls running at once; 0: one per core but one (at least 1)")

    server_concurrency: int = Field(8, ge=1, le=1024, description="work requests the server handles at once")
    server_queue: int = Field(64, ge=0, le=100_000, description="work requests waiting beyond those; more get 503")
    server_queue_timeout_s: float = Field(10.0, gt=0.0, description="a request that waited this long for a slot gets 503")
    server_retry_after_s: int = Field(1, ge=0, description="the Retry-After a 503 for saturation carries")
