"""Matching: whether a new claim says the same as a memory, how much each source is trusted, and the
reasons a decision records. Pure; used by ``changes`` (what a claim changes) and ``reconcile`` (the verdict).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from kenning.lifecycle import slots
from kenning.lifecycle.retrieve import terms
from kenning.lifecycle.slots import Slot
from kenning.types import Kind, Memory, Source

TRUST = {Source.USER_SAID: 3, Source.CONSOLIDATED: 2, Source.INFERRED: 1, Source.TOOL_RESULT: 1}
DUPLICATE_COSINE = 0.93
EPISODE_DUPLICATE_COSINE = 0.97
EPISODE_DUPLICATE_WINDOW = timedelta(hours=6)
PROCEDURE_REFINE_COSINE = 0.85
MAX_MERGED = 300

# Reason codes (the audit log carries these, never memory text).
DUPLICATE = "duplicate"
STALE = "stale: older than the memory it would replace"
NEW = "new claim"
SLOT_CHANGE = "same attribute, new value"
RETRACTION = "retraction"
UPGRADE = "restated by a more trusted source"
MERGED = "same attribute and value, new wording merged"
CORRECTED = "correction of a value"
REFINED = "refined standing instruction"
CHANGED = "change marker, same topic"
RELATION = "same partner, new relationship status"
BIRTH = "a baby born ends the pregnancy"
POINTED = "retracted by pointing at it"
POINTER_MISSED = "a pointer that points at nothing shown; not stored"
CHATTER = "chit-chat by the chatter model, changes nothing; not stored"
NOT_SHOWN = "target was not shown; kept as new"
HEDGE = "a hedge never retires a memory; kept as new"
NOT_ACTIVE = "target is no longer active; kept as new"
LESS_TRUSTED = "less trusted source cannot override; kept as new"

GENERIC = terms(
    "user lives living live based now still actually really also currently just moved again today works working know "
    "mean guess think basically obviously course said told mentioned before remember please thanks anyway already "
    "definitely totally fully strictly"
)
_NEGATION = re.compile(r"(?i)\b(?:not|no\s+longer|never|any\s?more|stopped|quit|gave\s+up)\b|n't\b")
_NORM = re.compile(r"[^\w]+")


@dataclass(frozen=True, slots=True)
class Neighbour:
    """An active memory shown to a decision, with its cosine similarity to the candidate."""

    memory: Memory
    cosine: float


def slots_of(memory: Memory) -> list[Slot]:
    """The attribute slots a fact or preference states; episodes and procedures have none."""
    if memory.kind not in (Kind.FACT, Kind.PREFERENCE):
        return []
    return slots.parse_all(memory.text)


def trust(memory: Memory) -> int:
    return TRUST[memory.source]


def _norm(text: str) -> str:
    return _NORM.sub(" ", text.lower()).strip()


def stems(value: str) -> set[str]:
    out = set()
    for w in re.findall(r"[^\W\d_]+", value.lower()):
        for suffix in ("ing", "ers", "er", "es", "s"):
            if len(w) > len(suffix) + 2 and w.endswith(suffix):
                w = w[: -len(suffix)]
                break
        if len(w) >= 3:
            out.add(w)
    return out


def same_value(a: str | None, b: str | None) -> bool:
    """Equal values, one containing the other ("york" / "new york"), or the same word stems in another
    order or form ("bus driver" / "driving buses"). Numbers, codes and addresses only match exactly."""
    if not a or not b:
        return False
    if a == b:
        return True
    if re.search(r"\d", a + b):
        return False  # numbers, codes and dates must match exactly
    if len(min(a, b, key=len)) >= 4 and (a in b or b in a):
        return True
    if "@" in a + b:
        return False
    sa, sb = stems(a), stems(b)
    return bool(sa and sb and (sa <= sb or sb <= sa))


def is_duplicate(candidate: Memory, other: Memory, cosine: float) -> bool:
    """Whether ``candidate`` adds nothing to ``other``.

    Episodes are duplicates only when near-verbatim and close in time, so
    several independent episodes survive for consolidation. Other kinds are
    duplicates when highly similar, with the same polarity and no
    distinctive token (name, number, code) the other lacks.
    """
    same_text = _norm(candidate.text) == _norm(other.text)
    if candidate.kind is Kind.EPISODE or other.kind is Kind.EPISODE:
        close = abs(candidate.created_at - other.created_at) <= EPISODE_DUPLICATE_WINDOW
        return candidate.kind is other.kind and close and (same_text or cosine >= EPISODE_DUPLICATE_COSINE)
    if same_text:
        return True
    if cosine < DUPLICATE_COSINE:
        return False
    if bool(_NEGATION.search(candidate.text)) != bool(_NEGATION.search(other.text)):
        return False
    if not slots.distinctive(candidate.text) <= slots.distinctive(other.text):
        return False
    if _swapped(candidate.text, other.text):
        return False  # "always answer in korean" after "always answer in english": one word for another is a change
    a, b = slots_of(candidate), slots_of(other)
    if (a or b) and [(s.key, s.negated) for s in a] != [(s.key, s.negated) for s in b]:
        return False
    if any(not same_value(x.value, y.value) for x, y in zip(a, b)):
        return False
    return True


def conflicts(new: Slot, old: Slot) -> bool | None:
    """True if ``new`` replaces ``old``; False if it restates it; None if they are about different things."""
    if new.key.startswith("rel:died:") and old.key.startswith("rel:"):
        # "Biscuit passed away" retracts "has a dog called Biscuit": the death is matched by name
        if old.key.startswith("rel:died:"):
            return False if old.value == new.value else None
        return True if old.value == new.value else None
    if {new.key.split(":", 1)[0], old.key.split(":", 1)[0]} == {"pref", "like"}:
        # "can't stand window seats" then "always goes for the window seat" (or the other way round):
        # the same value said with the opposite polarity replaces the older statement
        return True if new.negated != old.negated and same_value(new.value, old.value) else None
    if new.key == "occupation" and new.negated and new.value is None and old.key == "employer" and not old.negated:
        return True  # "I'm retired now", "between jobs": no work at all, so no employer either
    if new.key != old.key:
        return None
    if new.negated:
        if old.negated:
            return False if (new.value is None or same_value(new.value, old.value)) else None
        return True if (new.value is None or old.value is None or same_value(new.value, old.value)) else None
    if old.negated:
        # a new positive value after a retraction ("quit driving buses", then "a teacher now") replaces it
        return True
    if same_value(new.value, old.value):
        return False
    return True


def content_stems(text: str) -> set[str]:
    """The stems of ``text``'s words that say something (``GENERIC`` ones left out)."""
    return stems(" ".join(terms(text) - GENERIC))


def _swapped(a: str, b: str) -> bool:
    """Whether each text has a content word (by stem) the other lacks: a word put in another's place."""
    x, y = content_stems(a), content_stems(b)
    return bool(x - y) and bool(y - x)
