"""Phrases: the words of a value and of a predicate, as an attribute reads them off the parse."""

from __future__ import annotations

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token


def phrase(sent: Sentence, head: Token) -> str:
    """The value phrase: the head with its compounds and modifiers, without determiners, possessives,
    "new"/"old" or trailing prepositional phrases; a proper noun inside it wins ("new flat in Exeter" -> Exeter)."""
    idx = sent.subtree(head.i)
    names = [sent.tokens[i] for i in idx if sent.tokens[i].pos == "PROPN" and sent.tokens[i].i != head.i and sent.tokens[i].lower != "user"]
    if head.pos != "PROPN" and names and head.lemma in lx.OWN_NOUNS | {"flat", "house", "place", "home"}:
        return " ".join(t.text for t in names)
    stop = next((i for i in idx if sent.tokens[i].dep == "prep" and sent.tokens[i].head == head.i), None)
    keep = [sent.tokens[i] for i in idx if (stop is None or i < stop) and sent.tokens[i].pos not in ("DET", "PUNCT")
            and sent.tokens[i].dep not in ("poss", "case") and sent.tokens[i].lower not in ("new", "old", "current")]
    return " ".join(t.text for t in keep)


def verb_of(sent: Sentence, root: Token) -> str:
    """The predicate with its particle: "work out" is not "work", "give up" is not "give"."""
    prt = next((c for c in sent.children(root.i) if c.dep == "prt"), None)
    return f"{root.lemma} {prt.lower}" if prt is not None else root.lemma


def governing_verb(sent: Sentence, tok: Token) -> Token | None:
    """The nearest verb above a noun, at most four heads up ("our flat" in "got the keys to our flat" -> "got")."""
    head = tok
    for _ in range(4):
        if head.dep == "ROOT" or head.head == head.i:
            break
        head = sent.tokens[head.head]
        if head.pos in ("VERB", "AUX"):
            return head
    return None


def object_lemma(sent: Sentence, tok: Token) -> str:
    """The lemma a row's objects are matched on: a home counted by its bedrooms ("a one-bed in Peckham", "our 2
    bed in Fremantle") is a flat."""
    if tok.lemma in ("bed", "bedroom", "bedder") and any(c.dep == "nummod" for c in sent.children(tok.i)):
        return "flat"
    return tok.lemma
