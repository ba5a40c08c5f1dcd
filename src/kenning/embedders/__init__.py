"""Embedders: the protocol, the bundled local model, an OpenAI-compatible client, a deterministic fake."""

from kenning.embedders.base import CachedEmbedder, Embedder, normalise
from kenning.embedders.hashing import HashEmbedder
from kenning.embedders.minilm import MiniLMEmbedder

__all__ = ["Embedder", "CachedEmbedder", "HashEmbedder", "MiniLMEmbedder", "normalise"]
