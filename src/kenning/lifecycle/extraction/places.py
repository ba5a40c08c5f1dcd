"""Places said in passing: "here in <a place's name>" is where the speaker is ("life's been quiet here in Reading",
"weather here in boise is unhinged"), unless the clause makes it a stay ("here in Rome for the week"); where the
user's commute starts from ("the commute from swindon is killing me")."""

from __future__ import annotations

from kenning.lifecycle.extraction.parse import Sentence, Token, default_parser

_STAY = frozenset({"visiting", "visit", "holiday", "holidays", "vacation", "trip", "week", "weekend", "conference", "tonight", "today",
                   "staying", "layover", "work", "days", "nights"})


def here_in(sent: Sentence) -> Token | None:
    """The place a "here in X" names, when X is a name (no article: not "here in the office") and nothing in the
    clause makes it a stay ("here in Rome for the week", "here in Lisbon on holiday")."""
    for t in sent.tokens:
        if t.lower != "here" or t.i + 2 >= len(sent.tokens) or sent.tokens[t.i + 1].lower != "in":
            continue
        obj = next((c for c in sent.children(t.i + 1) if c.dep == "pobj"), None)
        if obj is None or any(c.dep in ("det", "poss") for c in sent.children(obj.i)) or obj.i != t.i + 2 and not any(
                sent.tokens[i].pos == "PROPN" for i in range(t.i + 2, obj.i)):
            continue
        bounds = _STAY - _SPANS if _settled(sent) else _STAY
        if named_place(obj) and not any(x.lower in bounds for x in sent.tokens):
            return obj
    return None


_SPANS = frozenset({"week", "weekend", "days", "nights", "work"})  # a stretch of time, or work: no bound to a new life
_NEW_LIFE = frozenset({"job", "role", "position", "post", "place", "flat", "house", "home", "apartment", "life"})


def _settled(sent: Sentence) -> bool:
    """Whether the clause speaks of a new job or home ("first week at my new job here in Darwin"): then a week or
    work in it is the start of something lasting, not a stay."""
    return any(t.lower == "new" and sent.tokens[t.head].lemma in _NEW_LIFE for t in sent.tokens)


def commute_from(sent: Sentence) -> Token | None:
    """The place the user's commute starts from: "the commute from swindon is killing me", "my commute from Didcot";
    a place's name only (not "from the house"), never someone else's ("Tom's commute from Slough")."""
    for tok in sent.tokens:
        if tok.lemma != "commute" or tok.pos != "NOUN":
            continue
        kids = sent.children(tok.i)
        if any(c.dep == "poss" and c.lower not in ("my", "our") for c in kids):
            return None
        for prep in kids:
            obj = next((c for c in sent.children(prep.i) if c.dep == "pobj"), None) if prep.dep == "prep" and prep.lower == "from" else None
            if obj is not None and not any(c.dep in ("det", "poss") for c in sent.children(obj.i)) and named_place(obj):
                return obj
    return None


def named_place(tok: Token) -> bool:
    """Whether a token names a place: a proper noun, a place entity, or a lowercase word the parser's probe knows."""
    return tok.pos == "PROPN" or tok.ent in ("GPE", "LOC") or (tok.pos == "NOUN" and tok.text.islower() and _a_place(tok.text))


def _a_place(word: str) -> bool:
    """Whether a word typed in lowercase is a place's name (``SpacyParser.is_place``, the parser's own probe)."""
    parser = default_parser()
    return bool(getattr(parser, "is_place", lambda w: False)(word))
