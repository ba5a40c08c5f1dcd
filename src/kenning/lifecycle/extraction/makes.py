"""Rows known by their makes (a phone, a car): what the user got, uses or is on ("got a pixel 8", "im on an
iphone 12", "picked up a secondhand nissan leaf"), or what their own thing of the row is ("my phone's a pixel 7").
"""

from __future__ import annotations

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token
from kenning.lifecycle.extraction.phrases import phrase
from kenning.lifecycle.extraction.rows import Attribute, Fact


def made(sent: Sentence, tok: Token | None, attr: Attribute) -> Token | None:
    """``tok`` when a word of its phrase is one of the row's makes ("a secondhand nissan leaf", "a pixel 7")."""
    return tok if tok is not None and any(sent.tokens[i].lower in attr.makes for i in sent.subtree(tok.i)) else None


_HANDSET_PARTS = frozenset({"phone", "battery", "screen", "camera", "charger", "case"})


def by_make(sent: Sentence, root: Token, verb: str, kids: list[Token], attr: Attribute, subject: str, negated: bool) -> Fact | None:
    """A row known by its makes (a phone): what the user got, uses or is on ("got a pixel 8", "I use a Pixel 7",
    "im on an iphone 12"), or what their own thing of the row is ("my phone's a pixel 7")."""
    if verb in lx.GETTING_VERBS | lx.ACQUIRING_VERBS | attr.verbs:
        got = made(sent, next((c for c in kids if c.dep == "dobj"), None), attr)
        if got is not None:
            return Fact(subject, attr, phrase(sent, got), negated)
    if root.lemma == "be":
        on = next((c for c in kids if c.dep == "prep" and c.lower in attr.preps), None)
        value = made(sent, next((c for c in sent.children(on.i) if c.dep == "pobj"), None), attr) if on is not None and subject == "user" else None
        comp = next((c for c in kids if c.dep == "attr"), None)
        subj = next((c for c in kids if c.dep == "nsubj"), None)
        if value is None and subj is not None and subj.lemma in ("phone", "mobile", "handset") and any(c.dep == "poss" for c in sent.children(subj.i)):
            value = made(sent, comp, attr)
        if value is not None:
            return Fact(subject, attr, phrase(sent, value), negated)
    for tok in sent.tokens:  # "my iphone 12 is on its last legs", "User's iphone 12 battery is dying": the user's own
        noun = sent.tokens[tok.head] if tok.dep in ("compound", "nmod", "amod") else tok
        if noun is not tok and noun.lemma not in _HANDSET_PARTS and noun.pos != "NUM":  # "iPhone | 16" as its head
            continue  # "User's samsung tv": another thing of the make
        owner = next((c for c in sent.children(noun.i) if c.dep == "poss"), None)
        if tok.lower in attr.makes and tok.pos in ("NOUN", "PROPN") and owner is not None and owner.lower in ("my", "our", "user"):
            number = [t for t in sent.tokens[tok.i + 1 : tok.i + 2] if t.pos == "NUM"]  # "iphone 12"
            return Fact("user", attr, " ".join(t.text for t in [tok, *number]), False)
    return None
