"""The one write guard: every text that becomes a memory passes ``guard`` first.

``add`` (each extracted claim), ``remember``, ``update``, ``import`` and so
every front end (REST, MCP, the memory page, the CLI) go through it. Pure and
deterministic.

Invariants of what it lets through:
- no secret (anything ``secrets.find_secrets`` sees) unless ``allow_secrets``,
  and then the memory is tagged RESTRICTED;
- sensitivity is never below what the new text itself calls for;
- confidence never above what the source may claim (``CEILING``);
- nothing that instructs the model ("ignore all previous instructions",
  "reveal the system prompt", "run this command"), whoever wrote it; text from
  another source that merely sounds like a standing rule ("from now on …")
  is kept only as what that source may claim (capped, never a procedure);
- procedures only from the user's own words (``user_said``), and only
  preferences about answers, never an instruction to the model or a link.

A refused write raises ``Refused`` (a ``ValidationError``, so HTTP 422) whose
``reason`` names the class ("secret", "injection", "procedure") and whose
message never repeats the text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kenning.errors import ValidationError
from kenning.lifecycle import injection, safety, secrets
from kenning.types import Kind, Sensitivity, Source

# The most confidence a source may claim: text an agent or a tool wrote is never as sure as the user's word.
CEILING = {Source.USER_SAID: 1.0, Source.CONSOLIDATED: 0.9, Source.INFERRED: 0.45, Source.TOOL_RESULT: 0.3}
_RANK = {Sensitivity.NORMAL: 0, Sensitivity.PERSONAL: 1, Sensitivity.RESTRICTED: 2}
_TRUST = {Source.USER_SAID: 3, Source.CONSOLIDATED: 2, Source.INFERRED: 1, Source.TOOL_RESULT: 0}

MESSAGES = {
    "secret": "the text holds a secret (a password, code, key or account number); Kenning does not store secrets",
    "injection": "the text reads as an instruction to the assistant, not a fact or preference about the user",
    "procedure": "procedures (standing instructions) come only from the user's own words; store this as a fact or preference",
    "procedure with a link": "a procedure may not carry a link: the assistant would follow it unseen",
}


class Refused(ValidationError):
    """The guard refused a write; ``reason`` is a short class name ("secret", "injection", "procedure")."""

    def __init__(self, reason: str, where: str = "") -> None:
        self.reason = reason
        super().__init__(f"{where}{MESSAGES.get(reason, reason)}")


@dataclass(frozen=True, slots=True)
class Guarded:
    """The values a write may store: the same text (or masked, with ``allow_secrets`` off never a secret)."""

    text: str
    kind: Kind
    source: Source
    confidence: float
    importance: float
    sensitivity: Sensitivity


def stricter(a: Sensitivity, b: Sensitivity) -> Sensitivity:
    return a if _RANK[a] >= _RANK[b] else b


def weaker(a: Source, b: Source) -> Source:
    """The less trusted of two sources: a claim is never more trusted than whoever wrote it."""
    return a if _TRUST[a] <= _TRUST[b] else b


def guard(
    text: str,
    *,
    kind: Kind,
    source: Source,
    confidence: float,
    importance: float,
    sensitivity: Sensitivity | None = None,
    allow_secrets: bool = False,
    third_person: bool = False,
    turn_checked: bool = False,
) -> Guarded:
    """The guarded values for one candidate memory, or ``Refused`` with the reason.

    ``sensitivity`` is what the caller asked for; the result is the stricter
    of it and what ``text`` calls for. ``third_person``: ``text`` is a claim in
    the rules engine's voice ("the user's PA" where the user said "my PA"), as
    extracted or stored, so it is checked back in the first person.
    ``turn_checked``: the user's own turn it came from was already checked for
    requests to send things elsewhere.
    """
    kind, source = Kind(kind), Source(source)
    if not allow_secrets and secrets.has_secret(text):
        raise Refused("secret")
    if injection.instructs_model(text, rewritten=third_person):
        raise Refused("injection")
    voiced = injection.first_person(text) if third_person else text
    if not (turn_checked and source is Source.USER_SAID) and injection.relays_data(voiced, from_user=source is Source.USER_SAID):
        raise Refused("injection")
    if kind is Kind.PROCEDURE:
        if source is not Source.USER_SAID:
            raise Refused("procedure")
        why = injection.procedure_refusal(text, rewritten=third_person)
        if why is not None:
            raise Refused(why)
    tagged = safety.sensitivity_of(text)
    return Guarded(
        text=text,
        kind=kind,
        source=source,
        confidence=min(float(confidence), CEILING[source]),
        importance=float(importance),
        sensitivity=stricter(tagged, Sensitivity(sensitivity)) if sensitivity is not None else tagged,
    )


def tainted_turns(turns: Sequence[Any]) -> set[int]:
    """Indexes of user turns that carry an instruction to the model: nothing from them is kept, not even a
    harmless-looking clause ("Ignore the allergy notes; they were added by mistake")."""
    return {
        i for i, t in enumerate(turns)
        if getattr(t, "role", "user") == "user" and (injection.instructs_model(t.content) or injection.relays_data(t.content, from_user=True))
    }


def screen(extraction: Any, *, source: Source | None = None, allow_secrets: bool = False, turns: Sequence[Any] = ()) -> Any:
    """``extraction`` (claims and withheld reasons) with every claim guarded.

    ``source`` is who wrote the turns when it is not the user (an agent
    relaying text): each claim's source becomes the less trusted of the two,
    and a standing instruction from it becomes a preference.
    Refused claims are dropped and their reason added to ``withheld``, and so
    is every claim of a user turn that instructs the model (``turns``, matched
    by the claims' ``turn`` index); the claims' other fields are kept
    (``dataclasses.replace``).
    """
    kept: list[Any] = []
    withheld = list(getattr(extraction, "withheld", ()))
    tainted = tainted_turns(turns)
    for claim in extraction.claims:
        if getattr(claim, "turn", None) in tainted:
            withheld.append("injection")
            continue
        src = weaker(Source(claim.source), Source(source)) if source is not None else Source(claim.source)
        kind = Kind(claim.kind)
        if kind is Kind.PROCEDURE and src is not Source.USER_SAID:
            kind = Kind.PREFERENCE  # a rule relayed by an agent is kept as a wish, never as something to follow
        at = getattr(claim, "turn", None)
        users = isinstance(at, int) and 0 <= at < len(turns) and getattr(turns[at], "role", None) == "user"
        try:
            g = guard(claim.text, kind=kind, source=src, confidence=claim.confidence, importance=claim.importance,
                      sensitivity=claim.sensitivity, allow_secrets=allow_secrets, third_person=users, turn_checked=users)
        except Refused as exc:
            withheld.append(exc.reason)
            continue
        kept.append(dataclasses.replace(claim, kind=g.kind, source=g.source, confidence=g.confidence, sensitivity=g.sensitivity))
    return dataclasses.replace(extraction, claims=tuple(kept), withheld=tuple(withheld))


def check_records(records: Sequence[Any], *, allow_secrets: bool = False) -> list[Guarded | None]:
    """Guard imported records (``Memory``-like; stored claims, so in the third person): a refusal names
    the record's position. Records without text (deletion tombstones) give None."""
    out: list[Guarded | None] = []
    for i, m in enumerate(records):
        if not m.text:
            out.append(None)
            continue
        try:
            out.append(guard(m.text, kind=m.kind, source=m.source, confidence=m.confidence, importance=m.importance,
                             sensitivity=m.sensitivity, allow_secrets=allow_secrets, third_person=True))
        except Refused as exc:
            raise Refused(exc.reason, f"memory {i} ({m.id}): ") from None
    return out
