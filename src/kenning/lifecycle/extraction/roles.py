"""Roles: the people in a role of the user's life a claim names, read off the parse by the table's person rows
(``rows.TABLE``, ``person=True``): "User's manager Sarah", "User's new boss is Pedro", "new doctor is Dr
Okonjo". The value is the name, so a new name in the same role is a new value of the same attribute. Also the
user's own role when someone moved them to it ("they bumped me up to company stage manager").
"""

from __future__ import annotations

import re

from kenning.lifecycle import slots
from kenning.lifecycle.extraction.parse import Sentence, Token
from kenning.lifecycle.extraction.phrases import phrase
from kenning.lifecycle.extraction.rows import TABLE, Fact


def name_beside(sent: Sentence, noun: Token) -> Token | None:
    """The name said right after a noun for someone: "Marek" in "my friend Marek"."""
    return next((c for c in sent.children(noun.i) if c.dep in ("appos", "npadvmod", "compound") and c.pos == "PROPN" and c.i == noun.i + 1), None)


_TITLES = frozenset({"dr", "doctor", "mr", "mrs", "ms", "miss", "prof"})


def roles(sent: Sentence) -> list[Fact]:
    """The people in a role of the user's life a clause names ("User's manager Sarah is strict", "User's new
    boss is Pedro", "new doctor is Dr Okonjo"): facts of the table's person rows, valued by the name."""
    out = []
    for attr in (a for a in TABLE if a.person):
        for n in (t for t in sent.tokens if t.lemma in attr.nouns or t.lower in attr.nouns):
            owner = next((c for c in sent.children(n.i) if c.dep in ("poss", "det")), None)
            if owner is not None and owner.lemma not in ("user", "my", "our", "their", "new"):
                continue  # "Jo's boss", "the doctor": not the user's own
            name = _role_name(sent, n)
            if name:
                out.append(Fact("user", attr, name.lower()))
                break
    return out


def _role_name(sent: Sentence, noun: Token) -> str:
    """The name given to someone in a role: beside the noun ("manager Sarah", "manager sarah"), or what the
    noun is ("boss is Pedro", "gp is dr patel"); never a description ("is a nightmare", "is strict")."""
    beside = name_beside(sent, noun)
    if beside is not None:
        return beside.text
    if noun.dep == "compound" and noun.head == noun.i + 1 and sent.tokens[noun.head].pos in ("PROPN", "NOUN"):
        return sent.tokens[noun.head].text  # "manager sarah": the parser hangs the role on the name
    be = sent.tokens[noun.head]
    if noun.dep != "nsubj" or be.lemma != "be":
        return ""
    comp = next((c for c in sent.children(be.i) if c.dep in ("attr", "acomp")), None)
    if comp is None:
        return ""
    titled = comp.i > 0 and sent.tokens[comp.i - 1].lower.rstrip(".") in _TITLES
    kids = sent.children(comp.i)
    plain = comp.pos in ("PROPN", "NOUN") and not any(c.dep in ("det", "amod", "poss") for c in kids)
    return comp.text if titled or plain else ""


def made_role(sent: Sentence, root: Token) -> Fact | None:
    """The job someone moved the user to: the user the object of the verb, "to" and a job with no article
    after it ("they bumped me up to company stage manager", "made the user up to supervisor"); never "sent me
    to the manager"."""
    if not any(c.dep == "dobj" and c.lower in ("me", "user") for c in sent.children(root.i)):
        return None
    row = next(a for a in TABLE if a.copula == "occupation")
    for prep in (c for c in sent.children(root.i) if c.dep == "prep" and c.lower == "to"):
        job = next((c for c in sent.children(prep.i) if c.dep == "pobj"), None)
        if job is not None and not any(c.dep in ("det", "poss") for c in sent.children(job.i)) and job_word(job):
            return Fact("user", row, phrase(sent, job), False)
    return None


def job_word(tok: Token) -> bool:
    """A noun that names a job ("treasurer", "company stage manager"'s "manager"), never an adjective that looks
    like one ("easier")."""
    return tok.pos in ("NOUN", "PROPN") and bool(re.fullmatch(slots.JOB, tok.lower) or re.fullmatch(slots.JOB, tok.lemma))


def to_role(sent: Sentence, kids: list[Token]) -> str | None:
    """A job the parser read as "to" + a verb and its object ("promoted to head pastry chef", "to lead developer"):
    the verb is the first word of the job's name."""
    for x in kids:
        if x.dep == "xcomp" and any(c.dep == "aux" and c.lower == "to" for c in sent.children(x.i)):
            obj = next((c for c in sent.children(x.i) if c.dep == "dobj"), None)
            if obj is not None and job_word(obj) and not any(c.dep == "det" for c in sent.children(obj.i)):
                return f"{x.text} {phrase(sent, obj)}"
    return None


def in_class(tok: Token, cls: frozenset[str] | str) -> bool:
    """Whether ``tok`` is a value of a row's class: an age, a job, or one of the words listed."""
    if cls == "age":  # a bare number as the object ("turned 40"); "is 38" and "9 years old" are read by _age
        return tok.pos == "NUM" and tok.text.isdigit() and 0 < int(tok.text) <= 120
    if cls == "occupation":
        return job_word(tok)
    return tok.lower in cls or tok.lemma in cls
