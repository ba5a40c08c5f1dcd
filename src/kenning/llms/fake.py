"""A scripted LLM for tests and demos: answers come from a list, prompts are recorded."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Union

from kenning.errors import LLMError

Answer = Union[str, Exception, Callable[[Sequence[dict[str, str]]], str]]


class ScriptedLLM:
    """Replies with ``answers`` in order (a string, an exception to raise, or a function of the messages).

    When the script runs out it raises ``LLMError``. ``calls`` keeps every
    message list it was sent.
    """

    def __init__(self, answers: Sequence[Answer] = ()) -> None:
        self.answers = list(answers)
        self.calls: list[list[dict[str, str]]] = []

    def chat(self, messages: Sequence[dict[str, str]], *, json: bool = True) -> str:
        self.calls.append([dict(m) for m in messages])
        if not self.answers:
            raise LLMError("scripted LLM has no answers left")
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):
            return answer(messages)
        return answer
