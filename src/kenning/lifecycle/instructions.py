"""Standing instructions: which aspect of an answer each one sets, and which earlier one a new one replaces.

One declarative table: an aspect of an answer (its language, its format, its length, its units, its
register) and the words that name a value of it. A standing instruction that names values of an aspect
replaces an earlier one naming other values of the same aspect ("from now on answer me in korean" after
"always answer in english"; "short paragraphs" after "summaries in bullet points"), whatever the cosine of
the two texts; instructions about different aspects stand side by side ("answer in english" and "keep it
short"). A request to change an aspect ("can you go back to short paragraphs?", "can we switch to english for
replies?") is such an instruction, not a one-off question. An instruction said the other way round about the
same thing replaces the earlier one too ("never again ryanair" after "always book me ryanair").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.lifecycle.matching import Neighbour, content_stems, stems
from kenning.types import Decision, Kind, Memory, Op, Source, Status

REPLACED = "standing instruction about the same aspect of answers, another value"
REVERSED = "standing instruction about the same thing, the other way round"

ASPECTS: dict[str, frozenset[str]] = {
    "language": frozenset(
        "english spanish french german italian portuguese dutch polish korean japanese chinese mandarin cantonese arabic "
        "hindi urdu bengali punjabi tamil turkish greek russian ukrainian swedish norwegian danish finnish icelandic irish "
        "welsh gaelic hebrew persian farsi swahili yoruba igbo hausa amharic vietnamese thai indonesian malay tagalog "
        "filipino romanian hungarian czech slovak croatian serbian catalan basque galician".split()
    ),
    "format": frozenset("bullet bullets bullet-points list lists numbered paragraph paragraphs prose table tables headings "
                        "sentences".split()),
    "length": frozenset("short shorter brief briefer concise long longer detailed lengthy one-liners".split()),
    "units": frozenset("metric imperial km kilometres kilometers miles celsius fahrenheit kg kilos lbs pounds stone".split()),
    "register": frozenset("formal informal casual plain simple technical jargon".split()),
}
# what an instruction about answers is about, when it names no aspect's value outright
_ANSWERS = r"(?:answers?|repl(?:y|ies)|responses?|summar(?:y|ies)|messages?|explanations?|texts?)"
# a request that changes how answers come: "go back to", "switch (back) to", "change to", "stick to", "instead"
_CHANGE = re.compile(r"(?i)\b(?:go(?:ing)?\s+back\s+to|switch(?:ing)?\s+(?:back\s+)?to|change\s+(?:back\s+)?to|stick\s+to|"
                     r"instead|from\s+now\s+on|going\s+forward)\b")
_WORD = re.compile(r"[a-z][a-z-]*")


def aspects(text: str) -> dict[str, frozenset[str]]:
    """The aspects of an answer ``text`` names, each with the values it names: "answer in korean" ->
    {"language": {"korean"}}; "bullet points" is one value of the format."""
    words = set(_WORD.findall(text.lower().replace("bullet points", "bullet-points").replace("bullet point", "bullet-points")))
    out = {}
    for aspect, values in ASPECTS.items():
        named = words & values
        if named:
            out[aspect] = frozenset("bullet-points" if w in ("bullet", "bullets") else w for w in named)
    return out


def changes_answers(text: str) -> bool:
    """Whether a request asks for answers to come another way from now on: a change phrase and a value of an
    aspect ("can you go back to short paragraphs?", "can we go back to english for replies?")."""
    return bool(_CHANGE.search(text)) and bool(aspects(text))


def replaced_instruction(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """The user's earlier standing instruction that sets the same aspect of answers to other values, if any."""
    if candidate.kind is not Kind.PROCEDURE or candidate.source is not Source.USER_SAID:
        return None
    mine = aspects(candidate.text)
    for n in ranked:
        old = n.memory
        if old.kind is not Kind.PROCEDURE or old.status is not Status.ACTIVE or old.source is not Source.USER_SAID:
            continue
        if old.created_at > candidate.created_at or set(old.source_refs) & set(candidate.source_refs):
            continue
        theirs = aspects(old.text)
        if mine and not _negated(candidate.text) and any(a in theirs and theirs[a] != v for a, v in mine.items()):
            return Decision(Op.UPDATE, old.id, None, REPLACED)  # (a prohibition sets no value: "never reply in spanish")
        if _negated(candidate.text) != _negated(old.text) and _about(candidate.text) & _about(old.text):
            return Decision(Op.UPDATE, old.id, None, REVERSED)  # "never again ryanair" after "always book me ryanair"
    return None


_NEGATION = re.compile(r"(?i)\b(?:never|don't|do\s+not|no\s+more|not\s+any\s*more|stop)\b")
# the words of any instruction, which say nothing of what it is about
_RULE_WORDS = stems("standing instruction always never again please user user's book give use send answer reply keep "
                    "make sure every time when whenever there option from now on anymore any more stop call text email message "
                    "ring remind tell ask write recommend suggest include mention add put show check schedule")


def _negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


def _about(text: str) -> set[str]:
    """What an instruction is about, by stem: "always book the user ryanair" -> {"ryanair"}."""
    return content_stems(text) - _RULE_WORDS
