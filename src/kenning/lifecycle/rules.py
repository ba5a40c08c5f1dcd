"""The offline rules engine as a decider (the default: no model, deterministic).

It lives in the lifecycle, beside the rules it applies, so the write path
needs nothing from ``kenning.llms`` (which builds on the lifecycle).
"""

from __future__ import annotations

from collections.abc import Sequence

from kenning.lifecycle import reconcile
from kenning.lifecycle.reconcile import Neighbour
from kenning.types import Decision, Memory


class RulesDecider:
    """Slot, duplicate and trust rules from ``kenning.lifecycle.reconcile.decide``."""

    name = "rules"

    def decide(self, candidate: Memory, neighbours: Sequence[Neighbour]) -> Decision:
        return reconcile.decide(candidate, neighbours)
