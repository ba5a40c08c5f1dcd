"""The LLM decider: prompt with short aliases, bounded retry on bad answers, then give up cleanly."""

from __future__ import annotations

from collections.abc import Sequence

from kenning.errors import LLMError
from kenning.lifecycle.reconcile import Neighbour
from kenning.llms import parse, prompts
from kenning.llms.base import LLM
from kenning.types import Decision, Memory, Op


class LLMDecider:
    """Asks ``llm`` for the verdict; tries ``1 + retries`` times on malformed answers or failures.

    With no neighbours there is nothing to reconcile against: ADD without a
    call. After the last failed try it raises ``LLMError``; the write path
    keeps the candidate provisional (nothing dropped, nothing changed).
    """

    name = "llm"

    def __init__(self, llm: LLM, *, retries: int = 1) -> None:
        self.llm = llm
        self.retries = max(0, retries)

    def decide(self, candidate: Memory, neighbours: Sequence[Neighbour]) -> Decision:
        if not neighbours:
            return Decision(Op.ADD, None, None, "nothing to reconcile against")
        messages, aliases = prompts.reconcile_messages(candidate, neighbours)
        last: LLMError | None = None
        for _ in range(1 + self.retries):
            try:
                return parse.parse_decision(self.llm.chat(messages, json=True), aliases)
            except LLMError as exc:
                last = exc
        raise LLMError(f"LLM decider gave up after {1 + self.retries} tries: {last}")
