"""The two small protocols of this package: an LLM (messages in, text out) and a reconciliation decider."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from kenning.lifecycle.reconcile import Neighbour
from kenning.types import Decision, Memory

Message = dict[str, str]


@runtime_checkable
class LLM(Protocol):
    """A chat model. ``chat`` returns the assistant's text or raises ``LLMError`` (timeouts included)."""

    def chat(self, messages: Sequence[Message], *, json: bool = True) -> str:
        """The reply to ``messages``; ``json=True`` asks for a JSON object where the server supports it."""


@runtime_checkable
class Decider(Protocol):
    """Decides ADD, UPDATE, DELETE or NOOP for one candidate against the active memories it is shown.

    May raise ``LLMError``; the write path then keeps the candidate
    provisional. Its verdict is always passed through ``reconcile.guard``.
    """

    name: str

    def decide(self, candidate: Memory, neighbours: Sequence[Neighbour]) -> Decision:
        """The verdict; ``target_id`` must be the id of one of ``neighbours`` for UPDATE and DELETE."""
