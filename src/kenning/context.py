"""The wired parts one facade hands to every lifecycle stage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kenning.config import Settings
from kenning.embedders.base import Embedder
from kenning.lifecycle.retrieve import Policy, impersonal, user_names
from kenning.stores.base import Store
from kenning.types import Scope


@dataclass
class Context:
    """Store, embedder, policy, settings and the reconciliation decider, built once in ``kenning.open``."""

    store: Store
    embedder: Embedder
    policy: Policy = field(default_factory=Policy)
    settings: Settings = field(default_factory=Settings.model_construct)
    decider: Any = None
    llm: Any = None

    def embed_documents(self, scope: Scope, texts: Sequence[str]) -> np.ndarray:
        """Vectors for memory texts of ``scope``, embedded without the words naming the user.

        Queries get the same treatment (``embed_query``), so "Hugo uses a wheelchair",
        "User uses a wheelchair" and "Does Hugo need step-free access?" compare by
        their claims alone.
        """
        names = user_names(scope.user_id)
        return self.embedder.embed([impersonal(t, names) for t in texts], "document")

    def embed_query(self, scope: Scope, text: str) -> np.ndarray:
        """The vector of one query of ``scope``, embedded without the words naming the user."""
        return self.embedder.embed([impersonal(text, user_names(scope.user_id))], "query")[0]
