"""A fast deterministic embedder for unit tests: hashed words and character trigrams.

It is not a language model: texts that share words or word pieces are
similar, others are not. That is enough to test scoring and reconciliation
logic exactly and quickly; the integration tests use the bundled model.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from kenning.embedders.base import Purpose, normalise

_WORD = re.compile(r"[a-z0-9]+")


class HashEmbedder:
    """Deterministic bag-of-features embedding; same text, same vector, on every machine."""

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.model_id = f"hash-{dim}"

    def _features(self, text: str) -> list[tuple[str, float]]:
        words = _WORD.findall(text.lower())
        feats = [(w, 1.0) for w in words]
        for w in words:
            padded = f"#{w}#"
            feats.extend((padded[i : i + 3], 0.3) for i in range(len(padded) - 2))
        return feats

    def embed(self, texts: Sequence[str], purpose: Purpose = "document") -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat, weight in self._features(text):
                h = int.from_bytes(hashlib.blake2b(feat.encode(), digest_size=8).digest(), "little")
                out[row, h % self.dim] += weight if (h >> 32) & 1 else -weight
        return normalise(out)
