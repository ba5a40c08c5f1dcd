"""Denials: a negated claim that says no to what an earlier one says. "Turns out I'm not allergic to penicillin
after all" retires "User is allergic to penicillin"; "Tinashe is NOT at Wolves" retires "User's son Tinashe is
at the Wolves academy"; "Marek is not in Tilburg anymore" retires "User's mate Marek lives in Tilburg".

The rule reads the parse, not a phrase list: the candidate's main verb is negated, and every content word it
says is a word of the earlier claim, which itself is not negated. A denial that adds a word the earlier claim
lacks ("doesn't work weekends" beside "works at Tesco") says something else and retires nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.lifecycle.changes import _subject
from kenning.lifecycle.extraction.parse import default_parser
from kenning.lifecycle.matching import GENERIC, RETRACTION, Neighbour, stems
from kenning.lifecycle.retrieve import terms
from kenning.types import Decision, Kind, Memory, Op, Source, Status

# below this the two claims are about different things whatever words they share. On the dev sets (session 14)
# 0.35 and 0.5 decide the same; 0.65 misses two true denials ("Tinashe is not at Wolves", "not keeping the house")
DENIAL_COSINE = 0.5
# what the negation itself and its hedging adverbs add: no content of their own
_NOT_CONTENT = GENERIC | terms("not doesn don isn aren wasn weren didn never anymore longer any more fact apparently least yet either ever")
_NO_MORE = re.compile(r"(?i)\bno\s+(?:more|longer)\b")
_ASIDES = re.compile(r"(?i)\bafter\s+all\b|\bturn(?:s|ed)?\s+out\b|\bin\s+fact\b|\bat\s+all\b")


def _negated(text: str) -> bool:
    """Whether the main verb of the text's first sentence is negated ("is not", "doesn't", "never")."""
    doc = default_parser().parse([text])[0]
    if not doc:
        return False
    sent = doc[0]
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is not None and root.lemma == "have" and _NO_MORE.search(text):
        return True  # "User has no more nights": what the user had, had no longer
    return root is not None and any(c.dep == "neg" for c in sent.children(root.i))


def _content(text: str, ignore: frozenset[str] | set[str] = _NOT_CONTENT) -> set[str]:
    """The stems of a text's content words, with its figures ("2pm", "28") kept whole."""
    text = _ASIDES.sub(" ", text)
    return stems(" ".join(terms(text) - ignore)) | set(re.findall(r"\d+[a-z]*", text.lower()))


def denial(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """UPDATE of the user's earlier fact or preference that ``candidate`` denies in so many words, or None."""
    if candidate.source is not Source.USER_SAID or candidate.metadata.get("hedge") or candidate.metadata.get("request"):
        return None
    if candidate.kind not in (Kind.FACT, Kind.PREFERENCE, Kind.EPISODE) or not _negated(candidate.text):
        return None
    said = _content(candidate.text)
    if not said:
        return None
    about_user = candidate.text.startswith("User ")
    for n in ranked:
        old = n.memory
        if old.id == candidate.id or old.status is not Status.ACTIVE or old.scope != candidate.scope or n.cosine < DENIAL_COSINE:
            continue
        if old.source is not Source.USER_SAID or old.kind not in (Kind.FACT, Kind.PREFERENCE):
            continue
        if about_user and _subject(old.text) != "user":
            continue  # "User is not a smoker" says nothing of "User's dad is a smoker"
        if said <= _content(old.text, GENERIC) and not _negated(old.text):
            return Decision(Op.UPDATE, old.id, None, RETRACTION)
    return None
