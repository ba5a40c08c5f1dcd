"""A user's bare answer to what the assistant just asked about them: "Where are you based?" then
"bristol, we rent a flat in bedminster" says the user lives in Bristol, though the word "bristol" alone is
no clause. Only the turn's first words are read, only a place's name answers where, and only a job answers
what the user does; anything else is left to the clauses it forms.
"""

from __future__ import annotations

import re

from kenning.lifecycle.clauses import split_sentences
from kenning.lifecycle.extraction import notes
from kenning.lifecycle.extraction.parse import Parser, well_known_place

_WHERE = re.compile(r"(?i)\b(?:where(?:abouts)?\s+(?:are\s+you\s+(?P<from>from)|(?:are|do)\s+you\s+(?:based|live|living|located|at)|is\s+home)"
                    r"|where'?s\s+home)\b")
_WHAT_DO = re.compile(r"(?i)\bwhat\s+(?:do\s+you\s+do|is\s+your\s+job|do\s+you\s+work\s+as)\b")
_FIRST = re.compile(r"^\W*(?:(?:oh|ah|um+|er+|well|so|yeah|yep|hi|hiya|hey)\b[\s,!.]*)*(?P<x>[^,.;!?\-–—(]+)")


def said(question: str | None, answer: str, parser: Parser) -> str | None:
    """What the first words of ``answer`` say about the user, given the assistant's ``question``, as a clause in
    the first person ("I live in bristol", "I'm a dental hygienist in leicester"), or None."""
    if not question or not question.strip():
        return None
    asked = split_sentences(question)[-1]
    m = _FIRST.match(answer)
    if m is None:
        return None
    words = m.group("x").split()
    if not 1 <= len(words) <= 6:
        return None
    where = _WHERE.search(asked)
    if where and len(words) <= 3 and _a_place(" ".join(words), parser):
        return f"I'm from {' '.join(words)}" if where.group("from") else f"I live in {' '.join(words)}"
    if _WHAT_DO.search(asked) and notes.is_job(words) and not any(w.lower() in ("i", "i'm", "im", "my") for w in words):
        return f"I'm a {' '.join(words)}"
    return None


def _a_place(name: str, parser: Parser) -> bool:
    if well_known_place(name):
        return True
    is_place = getattr(parser, "is_place", None)  # a hand-built parser has no word list of places
    return len(name.split()) == 1 and is_place is not None and is_place(name)
