"""The Embedder protocol: texts in, unit vectors out.

One method does the work (``embed``); everything else is derived. Vectors
are float32, L2-normalised, so a dot product is the cosine similarity.
``purpose`` lets models that embed queries and documents differently do so.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from threading import Lock
from typing import Literal, Protocol, runtime_checkable

import numpy as np

Purpose = Literal["query", "document"]


@runtime_checkable
class Embedder(Protocol):
    """Embeds text into ``dim``-dimensional unit vectors."""

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str], purpose: Purpose = "document") -> np.ndarray:
        """An array of shape (len(texts), dim), each row a unit vector (zero rows for empty text)."""


def normalise(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; all-zero rows stay zero."""
    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms > 0, norms, 1.0)


class CachedEmbedder:
    """Wraps an embedder with a bounded LRU cache of single-text embeddings.

    Repeated queries (an agent asking the same question each turn) then cost a
    dictionary lookup instead of a model run.
    """

    def __init__(self, inner: Embedder, size: int = 2048) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self._size = size
        self._cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = Lock()

    def embed(self, texts: Sequence[str], purpose: Purpose = "document") -> np.ndarray:
        out: list[np.ndarray | None] = []
        missing: list[int] = []
        with self._lock:
            for i, t in enumerate(texts):
                v = self._cache.get((purpose, t))
                if v is not None:
                    self._cache.move_to_end((purpose, t))
                else:
                    missing.append(i)
                out.append(v)
        if missing:
            fresh = self.inner.embed([texts[i] for i in missing], purpose)
            with self._lock:
                for j, i in enumerate(missing):
                    out[i] = fresh[j]
                    self._cache[(purpose, texts[i])] = fresh[j]
                while len(self._cache) > self._size:
                    self._cache.popitem(last=False)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack(out).astype(np.float32)  # type: ignore[arg-type]

    def close(self) -> None:
        """Stop the batcher threads if the inner embedder is a ``BatchingEmbedder``; embedding still works after."""
        from kenning.embedders.batching import BatchingEmbedder

        if isinstance(self.inner, BatchingEmbedder):
            self.inner.close()

    def discard(self, predicate: Callable[[str], bool]) -> int:
        """Drop cached embeddings whose text satisfies ``predicate`` (the deletion cascade's cache invalidation)."""
        with self._lock:
            doomed = [key for key in self._cache if predicate(key[1])]
            for key in doomed:
                del self._cache[key]
        return len(doomed)
