"""The wired parts one facade hands to every lifecycle stage."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kenning.config import Settings
from kenning.embedders.base import Embedder
from kenning.lifecycle.retrieve import Policy
from kenning.stores.base import Store


@dataclass
class Context:
    """Store, embedder, policy, settings and the reconciliation decider, built once in ``kenning.open``."""

    store: Store
    embedder: Embedder
    policy: Policy = field(default_factory=Policy)
    settings: Settings = field(default_factory=Settings.model_construct)
    decider: Any = None
    llm: Any = None
