"""The wired parts one facade hands to every lifecycle stage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kenning.config import Settings
from kenning.embedders.base import Embedder
from kenning.errors import ValidationError
from kenning.lifecycle.retrieve import Policy, impersonal, user_names
from kenning.stores.base import MemoryStore
from kenning.types import Scope

# The text's share of a contextual vector (see ``Context.embed_documents``).
# Measured on LoCoMo turns, the two previous turns as context, context words
# as keyword evidence at 0.45 (pooled R@10): share 0.2 -> 0.748, 0.3 -> 0.749,
# 0.4 -> 0.745, 0.5 -> 0.740 (at 0.5); the concatenated vector alone
# (share 0) 0.715 (at keyword 0). Picked on either half of the conversations,
# the best share came within 0.003 of the other half's best. The text is also
# inside the joined string, so its own meaning still leads.
CONTEXT_BLEND = 0.3


@dataclass
class Context:
    """Store, embedder, policy, settings, the reconciliation decider and the extractor, built once in ``kenning.open``.

    ``extractor`` None means the offline engine extracts; otherwise an
    ``LLMExtractor`` extracts and decides each captured batch in one call.
    """

    store: MemoryStore
    embedder: Embedder
    policy: Policy = field(default_factory=Policy)
    settings: Settings = field(default_factory=Settings.model_construct)
    decider: Any = None
    extractor: Any = None
    llm: Any = None
    parser: Any = None  # the offline engine's parser (lifecycle.extraction.parse.Parser); None: the default spaCy one

    def embed_documents(
        self, scope: Scope, texts: Sequence[str], contexts: Sequence[str | None] | None = None
    ) -> np.ndarray:
        """Vectors for memory texts of ``scope``, embedded without the words naming the user.

        Queries get the same treatment (``embed_query``), so "Hugo uses a wheelchair",
        "User uses a wheelchair" and "Does Hugo need step-free access?" compare by
        their claims alone.

        ``contexts`` (one per text, None for none) situates a text, as in
        "contextual retrieval" of chunks: a text with a context gets the
        normalised mean of its own vector and the vector of ``context + "\n" +
        text`` (``CONTEXT_BLEND`` is the text's share). The text alone keeps
        half the say, so a context cannot drown the claim; a pure function of
        (text, context), so re-embedding reproduces it. Texts without a context
        get exactly the vector they get with no ``contexts`` at all.
        """
        names = user_names(scope.user_id)
        vectors = self.embedder.embed([impersonal(t, names) for t in texts], "document")
        if contexts is None:
            return vectors
        if len(contexts) != len(texts):
            raise ValidationError("contexts must have one entry (or None) per text")
        situated = [i for i, c in enumerate(contexts) if c]
        if situated:
            joined = self.embedder.embed([impersonal(f"{contexts[i]}\n{texts[i]}", names) for i in situated], "document")
            mixed = CONTEXT_BLEND * vectors[situated] + (1.0 - CONTEXT_BLEND) * joined
            vectors = vectors.copy()
            vectors[situated] = mixed / np.maximum(np.linalg.norm(mixed, axis=1, keepdims=True), 1e-12)
        return vectors

    def embed_query(self, scope: Scope, text: str, without: Sequence[str] = ()) -> np.ndarray:
        """The vector of one query of ``scope``, embedded without the words naming the user (nor the words ``without``)."""
        names = user_names(scope.user_id) | {w.lower() for w in without}
        return self.embedder.embed([impersonal(text, names)], "query")[0]
