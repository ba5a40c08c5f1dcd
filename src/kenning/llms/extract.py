"""LLM extraction: one structured call per captured batch extracts the claims and decides each one.

``parse_extraction(raw, turns, shown, ...)`` is pure and strict: it returns
the claims and one ``Decision`` per claim, or raises ``MalformedAnswer``
(a ``LLMError``). Whatever the model answers, the rules below hold:

- a target the model names must be one of the numbered memories it was
  shown; an unknown number (or a real id smuggled in) makes the claim an ADD;
- the source follows the turn's role, never the model: user turns are
  ``user_said``, assistant turns ``inferred`` (confidence at most 0.45),
  tool turns ``tool_result`` (confidence at most 0.3, never a procedure, at
  most three claims per tool turn); a claim citing a user turn whose words
  come from a tool turn counts as the tool's;
- procedures come only from the user's own turns about the user;
- a hedge ("might", "thinking about", "if I were") has confidence at most
  0.5, never updates or retracts a memory held with more confidence, and is
  marked ``metadata["hedge"]`` so ``reconcile.guard`` keeps it from
  updating anything; every claim names its ``metadata["subject"]``;
- text holding a secret or an injected instruction is withheld.

``LLMExtractor.extract`` builds the prompt, calls the model, retries a
bounded number of times and raises ``LLMError`` when it gives up; the write
path then falls back to the offline engine, so a capture is never lost.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kenning.errors import LLMError
from kenning.lifecycle import injection, reconcile, safety, secrets
from kenning.lifecycle.extract import Claim, Extraction, Turn
from kenning.lifecycle.retrieve import terms
from kenning.llms import extract_prompt
from kenning.llms.base import LLM
from kenning.llms.parse import MalformedAnswer, _json_object
from kenning.types import DEFAULT_IMPORTANCE, Decision, Kind, Memory, Op, Source

# The offline engine's ceilings, so a claim is worth the same whichever engine extracted it.
TOOL_CONFIDENCE = 0.3
INFERRED_CONFIDENCE = 0.45
USER_CONFIDENCE = 0.9
HEDGE_CONFIDENCE = 0.5
MAX_TOOL_CLAIMS = 3
CLAIMS_PER_TURN = 12

SOURCES = {"user": Source.USER_SAID, "assistant": Source.INFERRED, "tool": Source.TOOL_RESULT}
CAP = {Source.USER_SAID: USER_CONFIDENCE, Source.INFERRED: INFERRED_CONFIDENCE, Source.TOOL_RESULT: TOOL_CONFIDENCE}
KINDS = {k.value: k for k in Kind}
OPS = {"ADD": Op.ADD, "UPDATE": Op.UPDATE, "DELETE": Op.DELETE, "NOOP": Op.NOOP, "NONE": Op.NOOP}
SUBJECTS = ("user", "other", "assistant")
REASONS = {Op.ADD: reconcile.NEW, Op.UPDATE: reconcile.SLOT_CHANGE, Op.DELETE: reconcile.RETRACTION, Op.NOOP: reconcile.DUPLICATE}

# A second line of defence when the model forgets its own hedge flag.
_HEDGE = re.compile(
    r"(?i)\b(?:might|maybe|perhaps|possibly|probably|thinking\s+(?:about|of)|considering|wondering\s+(?:if|whether)|"
    r"not\s+sure|unsure|undecided|would\s+(?:love|like)\s+to|if\s+\w+\s+were|hypothetical(?:ly)?|dreams?\s+of)\b"
)


@dataclass(frozen=True, slots=True)
class Decided:
    """What one call produced: the claims, a verdict per claim (targets are real ids), and what was withheld."""

    extraction: Extraction
    decisions: tuple[Decision, ...]


def _number(value: Any, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise MalformedAnswer(f"claim {name} is not a number")
    try:
        v = float(value)
    except ValueError:
        raise MalformedAnswer(f"claim {name} is not a number") from None
    if v != v:  # NaN
        raise MalformedAnswer(f"claim {name} is not a number")
    return min(1.0, max(0.0, v))


def _integer(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*#?\d{1,6}\s*", value):
        return int(value.strip().lstrip("#"))
    return None


def _cited_turn(claim_text: str, index: int, turns: Sequence[Turn]) -> int:
    """``index``, or the tool turn a user-turn claim's words really come from."""
    if turns[index].role != "user":
        return index
    words = terms(claim_text)
    if not words:
        return index
    own = len(words & terms(turns[index].content))
    best = index
    for j, t in enumerate(turns):
        if t.role == "tool":
            shared = len(words & terms(t.content))
            if shared > own and shared >= len(words) / 2:
                best, own = j, shared
    return best


def parse_extraction(
    raw: str,
    turns: Sequence[Turn],
    aliases: Mapping[int, str],
    shown: Mapping[str, Memory],
    *,
    allow_secrets: bool = False,
    max_chars: int = 4000,
) -> Decided:
    """The claims and verdicts in ``raw``; ``aliases`` maps the numbers shown to real ids of ``shown``."""
    if not isinstance(raw, str):
        raise MalformedAnswer("answer is not text")
    obj = _json_object(raw)
    items = obj.get("claims")
    if not isinstance(items, list):
        raise MalformedAnswer("answer has no claims list")
    if len(items) > CLAIMS_PER_TURN * max(1, len(turns)):
        raise MalformedAnswer("answer has more claims than the turns can hold")
    claims: list[Claim] = []
    decisions: list[Decision] = []
    withheld: list[str] = []
    per_tool: dict[int, int] = {}
    for item in items:
        if not isinstance(item, dict):
            raise MalformedAnswer("a claim is not an object")
        text = item.get("text")
        if not isinstance(text, str) or not text.strip():
            raise MalformedAnswer("a claim has no text")
        text = " ".join(text.split())
        if len(text) > max_chars:
            raise MalformedAnswer("a claim's text is too long")
        turn_no = _integer(item.get("turn"))
        if turn_no is None or not 1 <= turn_no <= len(turns):
            raise MalformedAnswer("a claim cites no turn of the batch")
        kind = KINDS.get(str(item.get("kind", "")).strip().lower())
        if kind is None:
            raise MalformedAnswer("a claim has no valid kind")
        op = OPS.get(str(item.get("op", "ADD")).strip().upper())
        if op is None:
            raise MalformedAnswer("a claim has no valid op")
        subject = str(item.get("subject", "user")).strip().lower()
        if subject not in SUBJECTS:
            raise MalformedAnswer("a claim has no valid subject")
        importance = _number(item.get("importance"), "importance")
        confidence = _number(item.get("confidence"), "confidence")
        hedge = item.get("hedge") is True or bool(_HEDGE.search(text))

        if not allow_secrets:
            text = secrets.mask_secrets(text)
        if secrets.SECRET_MARK in text or (not allow_secrets and secrets.has_secret(text)):
            withheld.append("secret")
            continue
        if injection.is_injection(text):
            withheld.append("injection")
            continue

        index = _cited_turn(text, turn_no - 1, turns)
        source = SOURCES[turns[index].role]
        if source is Source.TOOL_RESULT:
            per_tool[index] = per_tool.get(index, 0) + 1
            if per_tool[index] > MAX_TOOL_CLAIMS:
                continue
        if kind is Kind.PROCEDURE and (source is not Source.USER_SAID or subject != "user" or hedge):
            kind = Kind.EPISODE  # tool content, the assistant's words and maybes are never standing instructions
        if subject == "assistant" and kind in (Kind.FACT, Kind.PREFERENCE):
            kind = Kind.EPISODE  # what the assistant said or suggested is not a fact about anyone
        cap = CAP[source]
        if hedge:
            cap = min(cap, HEDGE_CONFIDENCE)
        confidence = min(cap, USER_CONFIDENCE if confidence is None else confidence)
        if importance is None:
            importance = DEFAULT_IMPORTANCE[kind]

        decisions.append(_decision(op, item.get("target"), aliases, shown, hedge, confidence))
        claims.append(
            Claim(
                text=text,
                kind=kind,
                source=source,
                importance=importance,
                confidence=confidence,
                sensitivity=safety.sensitivity_of(text),
                turn=index,
                metadata={"subject": subject, **({"hedge": True} if hedge else {})},
            )
        )
    return Decided(Extraction(tuple(claims), tuple(withheld)), tuple(decisions))


def _decision(op: Op, target: Any, aliases: Mapping[int, str], shown: Mapping[str, Memory], hedge: bool, confidence: float) -> Decision:
    if op is Op.ADD:
        return Decision(Op.ADD, None, None, reconcile.NEW)
    alias = _integer(target)
    target_id = aliases.get(alias) if alias is not None else None
    if target_id is None or target_id not in shown:
        return Decision(Op.ADD, None, None, reconcile.NOT_SHOWN)  # never touch a record that was not shown
    if hedge and op in (Op.UPDATE, Op.DELETE) and shown[target_id].confidence > confidence:
        return Decision(Op.ADD, None, None, "a hedge never retires a firmer memory")
    return Decision(op, target_id, None, REASONS[op])


class LLMExtractor:
    """Extracts and decides a batch in one call to ``llm``; ``1 + retries`` tries, then ``LLMError``.

    ``prompt`` replaces the instructions (``extract_prompt.SYSTEM``); the
    answer schema is always appended.
    """

    name = "llm-extract"

    def __init__(self, llm: LLM, *, retries: int = 1, prompt: str | None = None) -> None:
        self.llm = llm
        self.retries = max(0, retries)
        self.prompt = prompt

    def extract(
        self,
        turns: Sequence[Turn],
        shown: Sequence[Memory],
        *,
        allow_secrets: bool = False,
        context: str | None = None,
        when: datetime | None = None,
        max_chars: int = 4000,
    ) -> Decided:
        """Claims from ``turns`` with a verdict each against ``shown`` (the scope's nearest active memories)."""
        messages, aliases = extract_prompt.extract_messages(turns, shown, context=context, when=when, prompt=self.prompt)
        by_id = {m.id: m for m in shown if m.id in aliases.values()}
        last: LLMError | None = None
        ask = messages
        for _ in range(1 + self.retries):
            try:
                raw = self.llm.chat(ask, json=True)
                return parse_extraction(raw, turns, aliases, by_id, allow_secrets=allow_secrets, max_chars=max_chars)
            except MalformedAnswer as exc:
                last = exc
                ask = messages + [{"role": "user", "content": f"Your answer was not usable ({exc}). Reply with the JSON object only."}]
            except LLMError as exc:
                last = exc
                ask = messages
        raise LLMError(f"LLM extraction gave up after {1 + self.retries} tries: {last}")
