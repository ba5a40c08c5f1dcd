"""Embeddings from any OpenAI-compatible ``/embeddings`` endpoint (OpenAI, Ollama, vLLM, llama.cpp)."""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import numpy as np

from kenning.embedders.base import Purpose, normalise
from kenning.errors import EmbedderError


class OpenAIEmbedder:
    """Calls ``POST {base_url}/embeddings``; ``dim`` must match what the model returns."""

    def __init__(self, base_url: str, model: str, dim: int, api_key: str | None = None, timeout: float = 30.0) -> None:
        self.model_id = f"openai:{model}"
        self.dim = dim
        self._model = model
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout)

    def embed(self, texts: Sequence[str], purpose: Purpose = "document") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        try:
            resp = self._client.post("/embeddings", json={"model": self._model, "input": list(texts)})
            resp.raise_for_status()
            data = sorted(resp.json()["data"], key=lambda d: d["index"])
            matrix = np.array([d["embedding"] for d in data], dtype=np.float32)
        except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
            raise EmbedderError(f"embedding endpoint failed: {exc}") from exc
        if matrix.shape != (len(texts), self.dim):
            raise EmbedderError(f"embedding endpoint returned shape {matrix.shape}, expected ({len(texts)}, {self.dim})")
        return normalise(matrix)
