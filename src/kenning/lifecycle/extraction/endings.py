"""Endings: a row's value ended or reset by an act, whoever did it.

"User's dentist got cancelled", "the trip was called off" (the user's thing is off); "the doctor took the user
off the amlodipine" (what the user was taken off); "got laid off", "they let me go" (the row the user lost);
"the landlord raised the rent to £720" (a row's noun changed to a new value).
"""

from __future__ import annotations

import re

from kenning.lifecycle import slots
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token
from kenning.lifecycle.extraction.phrases import phrase, verb_of
from kenning.lifecycle.extraction.rows import TABLE, Attribute, Fact

# called off, or gone from the user by a sale or a new home: "the trip was called off", "the Yamaha is sold"
_CALLED_OFF = frozenset({"cancel", "axe", "call off"}) | lx.PARTING_VERBS


def called_off(sent: Sentence, root: Token, subject: str) -> Token | None:
    """The user's own thing said to be off: "User's dentist got cancelled" (the appointment, whatever noun
    names it), "the trip was called off", "the Yamaha is sold" (the thing as the passive subject); None otherwise."""
    said = root
    if root.lemma == "be":  # "User's car is gone": the parser may make "gone" the complement of "is"
        said = next((c for c in sent.children(root.i) if c.dep == "acomp" and c.lower == "gone"), root)
    gone = said.lower == "gone" and not any(c.dep in ("prep", "advmod", "xcomp") for c in sent.children(said.i))
    if (verb_of(sent, root) not in _CALLED_OFF and not gone) or said.tag != "VBN":
        return None
    thing = next((c for c in sent.children(root.i) if c.dep in ("nsubjpass", "nsubj")), None)
    if thing is None or thing.pos not in ("NOUN", "PROPN") or thing.lower == "user":
        return None
    if thing.lemma in lx.PERSON_NOUNS and not re.fullmatch(slots.JOB, thing.lemma):
        return None  # "my mum got cancelled" is no appointment; "my dentist got cancelled" (a job) is
    owned = any((c.dep == "poss" and c.lemma in ("user", "my", "our", "their")) or (c.dep == "det" and c.lower == "the")
                for c in sent.children(thing.i))
    return thing if owned or subject == "user" else None


def taken_off(sent: Sentence, root: Token, subject: str) -> Token | None:
    """What the user was taken off: "the doctor took the user off the amlodipine", "User was taken off the
    statins"; None otherwise. ("came off my bike" is a fall, not an ending: only "take" counts.)"""
    kids = sent.children(root.i)
    taken = any(c.dep == "dobj" and c.lower in ("user", "me", "us") for c in kids) or (
        subject == "user" and any(c.dep == "nsubjpass" for c in kids))
    if root.lemma not in ("take", "switch", "move", "wean", "change") or not taken:  # "switched me off humira onto stelara"
        return None
    whom = [c for c in kids if c.dep == "dobj" and c.lower in ("user", "me", "us")]  # "switched the user off humira"
    off = next((c for k in [root, *whom] for c in sent.children(k.i) if c.lower == "off" and c.dep in ("prep", "prt")), None)
    if off is None:
        return None
    obj = next((c for c in sent.children(off.i) if c.dep == "pobj"), None)
    if obj is None and off.dep == "prt":
        obj = next((c for c in kids if c.dep == "dobj" and c.lower not in ("user", "me", "us")), None)
    return obj if obj is not None and obj.pos in ("NOUN", "PROPN") and obj.lower not in lx.THING_PRONOUNS else None


def lost(sent: Sentence, root: Token, subject: str) -> Attribute | None:
    """The row whose value the user lost by someone else's act: "User got laid off", "User was made redundant",
    "They let the user go" (``Attribute.lost_by``)."""
    kids = sent.children(root.i)
    said = verb_of(sent, root)
    if root.lemma == "let" and any(c.lemma == "go" for c in kids) and any(t.lower in ("user", "me", "us") and t.head != t.i for t in sent.tokens):
        said = "let go"
    elif subject == "user" and any(c.dep == "auxpass" for c in kids):
        said = f"{said} redundant" if any(c.dep in ("oprd", "acomp") and c.lower == "redundant" for c in kids) else said
    else:
        return None
    return next((a for a in TABLE if said in a.lost_by), None)


_CHANGING = frozenset({"raise", "increase", "up", "bump", "hike", "put up", "put down", "drop", "cut", "lower", "reduce", "change", "switch"})


def _changed_row(sent: Sentence, verb: Token) -> tuple[Token, Attribute] | None:
    """The noun and row ``verb`` changes, when it is a changing verb ("raise", "bump … up") whose object or
    passive subject names a row of the table ("the rent"); None otherwise."""
    up = next((c.lower for c in sent.children(verb.i) if c.dep in ("prt", "advmod") and c.lower in ("up", "down")), "")
    if f"{verb.lemma} {up}" not in _CHANGING and verb.lemma not in _CHANGING:
        return None
    noun = next((c for c in sent.children(verb.i) if c.dep in ("dobj", "nsubjpass")), None)
    row = next((a for a in TABLE if noun is not None and noun.lemma in a.nouns), None)
    return (noun, row) if noun is not None and row is not None else None


def changed_row_noun(sent: Sentence) -> str:
    """The noun of a row a clause says was changed, with no new value given: "mrs kowalski raised the rent" ->
    "rent" (what "it's $1,320 from april" goes on to give); "" otherwise."""
    return next((found[0].text for t in sent.tokens if t.pos == "VERB" and (found := _changed_row(sent, t))), "")


def changed_to(sent: Sentence, root: Token, subject: str) -> Fact | None:
    """A row's noun of the user's changed to a new value, by whoever: "the landlord raised the rent to £720",
    "they bumped my salary up to 42k", "changed my number to 0770 …"; None otherwise."""
    kids = sent.children(root.i)
    found = _changed_row(sent, root)
    if found is None:
        return None
    noun, row = found
    if not (subject == "user" or any(c.dep in ("poss", "det") and c.lower in ("my", "our", "user", "the") for c in sent.children(noun.i))):
        return None
    # "to £720" on the verb, or on its "up"/"down" ("put the rent up to £720" parses "720" as the object of "up")
    heads = [c for c in kids if c.dep == "prep" and c.lower == "to"] + [c for c in kids if c.dep in ("prt", "advmod")]
    value = next((c for h in heads for c in sent.children(h.i) if c.dep == "pobj"), None)
    return Fact("user", row, phrase(sent, value)) if value is not None else None
