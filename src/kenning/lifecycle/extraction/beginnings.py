"""Beginnings: the user's first stretch of time somewhere says where they now are.

"first week doing payroll at Harlow Freight done!!" says the user works at Harlow Freight; "first month in
Hyderabad done" says they live in Hyderabad. A period noun with "first" before it (a day, a week, a shift), the
user's own or nobody's ("Dami's first week" is Dami's), and the nearest "at"/"with" (a workplace) or "in" (a
home: only a month or longer, since a first day or week in a city is as often a trip) with a name after it.
Nothing when the clause makes it a stay ("first week in Lisbon on holiday"). "as" with a common noun after it is
a role: "first week as a district nurse done!" says the user is a district nurse; "first week back" says the user
is back at work.
"""

from __future__ import annotations

from kenning.lifecycle.extraction.parse import Sentence, Token

STAY = frozenset({"visiting", "visit", "holiday", "holidays", "vacation", "trip", "conference", "staying", "layover", "honeymoon"})
_PERIODS = frozenset({"day", "week", "fortnight", "month", "shift", "term", "semester", "year"})
_LONG = frozenset({"month", "term", "semester", "year"})  # long enough that "in <place>" is a home
_WINDOW = 6  # tokens from the period noun to its preposition


def first_period(sent: Sentence) -> tuple[str, Token] | None:
    """("work", the workplace), ("live", the place), ("be", the role) or ("back", "back") for the user's first period
    somewhere, or None."""
    if any(t.lower in STAY for t in sent.tokens):
        return None
    for tok in sent.tokens:
        if tok.lemma not in _PERIODS or tok.pos != "NOUN":
            continue
        kids = sent.children(tok.i)
        before = [t.lower for t in sent.tokens[max(0, tok.i - 2): tok.i]]  # "first full week": the parse may miss it
        if not any(c.dep == "amod" and c.lower == "first" for c in kids) and "first" not in before:
            continue
        if any(c.dep == "poss" and c.lower not in ("my", "our") for c in kids):
            continue  # "Dami's first week at Greenfield": someone else's start
        for prep in sent.tokens[tok.i + 1: tok.i + 1 + _WINDOW]:
            if prep.lower == "back" and prep.i == tok.i + 1:  # "first full week back at the office": at work again
                return ("back", prep) if _at_work(sent, prep) else None
            if prep.lower == "as" and prep.dep in ("prep", "mark"):  # "first week as a district nurse": a role
                return _role(sent, prep)
            if prep.dep != "prep" or prep.lower not in ("at", "with", "in"):
                continue
            obj = next((c for c in sent.children(prep.i) if c.dep == "pobj"), None)
            if obj is None:
                break
            if obj.pos == "NOUN" and (obj.lemma in _WORKPLACES or prep.lower == "at") and any(
                    c.dep == "compound" and c.pos == "PROPN" for c in sent.children(obj.i)):
                return "work", obj  # "first week in Tencent Chengdu office", "first shift at the Sea Life centre": named
            the = any(c.dep == "det" and c.lower == "the" for c in sent.children(obj.i))  # "the Homerton" is no person
            if obj is None or obj.pos != "PROPN" or obj.ent in ("DATE", "TIME") or (obj.ent == "PERSON" and not the):
                break  # the first preposition decides: "first week in the job at Arup" names no home
            if prep.lower == "in":
                return ("live", obj) if tok.lemma in _LONG else None
            return "work", obj
    return None


def _role(sent: Sentence, as_: Token) -> tuple[str, Token] | None:
    """("be", the noun) after "as" when it is a common noun with only an article and modifiers before it ("as a
    district nurse"; the parser may read "as" as a conjunction and the noun as a subject), never a name ("as Santa")
    or someone's ("as her carer")."""
    for tok in sent.tokens[as_.i + 1: as_.i + 5]:
        if tok.pos == "NOUN" and tok.dep != "compound":
            return ("be", tok)
        if tok.pos not in ("DET", "NOUN", "ADJ") or tok.dep == "poss":
            return None
    return None


_WORKPLACES = frozenset({"work", "office", "job", "desk", "ward", "school", "site", "shop", "clinic", "hospital", "depot", "studio",
                         "branch", "store", "factory", "plant", "warehouse", "lab", "campus", "headquarters", "hq"})


def _at_work(sent: Sentence, back: Token) -> bool:
    """Whether "back" is back at work: "back at the office", "back to work", or nothing after it ("first week back
    done"); not "back in Leeds" (a place) or "back from Spain"."""
    rest = [t for t in sent.tokens[back.i + 1:] if t.pos != "DET"]
    if not rest or rest[0].pos in ("PUNCT", "AUX", "CCONJ") or rest[0].lower in ("after", "done", "finished", "over"):
        return True
    return rest[0].lower in ("at", "to", "on") and len(rest) > 1 and rest[1].lemma in _WORKPLACES
