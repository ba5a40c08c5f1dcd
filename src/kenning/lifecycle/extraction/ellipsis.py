"""What chat leaves out, put back before a clause is read: the subject ("moved to leeds last month" -> "I moved
…", "not doing bolt anymore" -> "I'm not doing …"), the owner of a relative ("wife's still working" -> "my wife's
…") and the statement inside a question asked only for effect ("did i tell you we're in Kelowna now?").
"""

from __future__ import annotations

import re

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction import mood
from kenning.lifecycle.extraction.clauses import opener, restore
from kenning.lifecycle.extraction.parse import Sentence, Token

_ENDED = re.compile(r"(?i)\bany\s?more\b|\bthese\s+days\b|\bnow\b")


def without_fillers(text: str) -> str:
    """ "yeah set it up" -> "set it up": interjections before a restored subject."""
    words = text.split()
    while words and words[0].lower().strip(",.!") in lx.CLAUSE_ADVERBS and len(words) > 1:
        words.pop(0)
    return " ".join(words)


def as_meant(sent: Sentence, piece: str) -> str | None:
    """The clause as meant, when chat left words out or wrapped it in a question, or None:
    "did i tell you we're in Kelowna now?" -> "we're in Kelowna now"; "wife's still working" -> "my wife's still
    working"; "not doing bolt anymore" -> "I'm not doing bolt anymore"."""
    inner = mood.told(sent)
    if inner:
        return inner
    kin = _bare_relative(sent)
    if kin is not None:
        at = sum(len(t.text) + len(t.space) for t in sent.tokens[: kin.i])
        return f"{piece[:at]}my {piece[at:]}" if piece[at : at + len(kin.text)] == kin.text else None
    if _left_state(sent):
        return f"I'm {without_fillers(piece)}"
    return None


def _bare_relative(sent: Sentence) -> Token | None:
    """The subject of a clause when it is a relative or someone in the user's life named by a bare noun, with
    no article or owner, opening the clause: "wife's still working", "mama is flying in from iloilo"."""
    first = opener(sent)
    if first is None or first.dep not in ("nsubj", "nsubjpass") or first.pos not in ("NOUN", "PROPN"):
        return None
    if first.lower not in lx.PERSON_NOUNS and first.lemma not in lx.PERSON_NOUNS | lx.KIN_NAMES:
        return None
    return None if any(c.dep in ("det", "poss", "compound", "amod") for c in sent.children(first.i)) else first


def _left_state(sent: Sentence) -> bool:
    """A clause opening with "not" and a verb in -ing, a place or a quality, that it says is over:
    "not doing the food bank saturdays anymore", "not on twitch any more"."""
    first = opener(sent)
    if first is None or first.lower != "not" or first.i + 1 >= len(sent.tokens):
        return False
    after = sent.tokens[first.i + 1]
    return (after.tag == "VBG" or after.pos in ("ADP", "ADJ")) and bool(_ENDED.search(sent.text))


def dropped_subject(sent: Sentence) -> str:
    """The subject chat dropped from a clause opening with a verb: "moved to…" -> "I", "heading out…" ->
    "I'm", "might quit…" -> "I"; "" when the clause does not open with a finite or progressive verb."""
    first = opener(sent)
    if first is None or first.i != next((t.i for t in sent.tokens if t.pos not in ("PUNCT", "INTJ") and t.lower not in lx.CLAUSE_ADVERBS), -1):
        return ""
    if first.tag == "VBG":
        return restore("I", first)
    if first.tag in ("VB", "VBP") and any(t.lower in lx.HABITUAL for t in sent.tokens) and "please" not in {t.lower for t in sent.tokens}:
        return "I"  # "cycle to work every day now": a habit, not an order
    if first.tag == "VBZ":
        return ""  # "needs decent driver support": about the thing named before, not the user
    if first.tag == "VBN" and first.lower in ("been", "done", "gone", "had", "got", "seen"):
        return restore("I", first)  # "been up since 4"
    if first.tag in ("VBD", "VBN") or (first.tag == "MD" and first.lower not in ("can", "could", "would", "will")):
        return "I"
    return ""
