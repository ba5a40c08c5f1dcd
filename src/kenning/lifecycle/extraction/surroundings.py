"""What chat says of the world around the speaker rather than of anyone in their life: the weather ("its raining
again, shocker") and people met by chance ("the bloke in the chippy queue was singing abba", "saw a bloke walking a
ferret"). Small talk, never a claim; what such a stranger did to the speaker ("some guy rear-ended my car") is
the speaker's news and stays.
"""

from __future__ import annotations

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token
from kenning.lifecycle.extraction.reading import Clause


def weather(clause: Clause) -> bool:
    """A clause whose verb is the weather's, with no subject but the empty "it": "it's raining again"."""
    return clause.root in lx.WEATHER_VERBS and clause.subject in ("thing", "none")


_PERCEIVE = frozenset({"see", "spot", "watch", "hear", "notice", "overhear"})


def stranger(sent: Sentence) -> bool:
    """A clause about someone met by chance, named only by what they are: its subject ("a bloke", "some random
    lady", "the bloke in the chippy queue": "the" with where they were), or who was seen or heard ("saw a bloke
    walking a ferret"), and nothing of the speaker's own in it ("some guy rear-ended my car" is the user's news)."""
    for t in sent.tokens:
        if t.lemma not in lx.STRANGERS or t.pos != "NOUN":
            continue
        head = sent.tokens[t.head]
        if not (t.dep in ("nsubj", "nsubjpass") and t.head != t.i or t.dep == "dobj" and head.lemma in _PERCEIVE):
            continue
        if _touches_me(sent, head):
            continue
        kids = sent.children(t.i)
        dets = {c.lower for c in kids if c.dep == "det"}
        if any(c.dep in ("poss", "appos", "relcl") or c.pos == "PROPN" for c in kids) or t.lower != t.text:
            continue  # "this guy rafael i met at my climbing gym": someone with a name, or met through the speaker
        if dets & {"a", "an", "some", "this", "these"} or "the" in dets and any(c.dep == "prep" for c in kids):
            return True
    return False


_ME = frozenset({"i", "me", "my", "we", "us", "our", "mine", "myself"})


def _touches_me(sent: Sentence, verb: Token) -> bool:
    """Whether the speaker is an argument of ``verb``, or owns one ("asked me out", "rear-ended my car")."""
    args = [c for c in sent.children(verb.i) if c.dep not in ("conj", "advcl", "ccomp", "parataxis")]
    args += [g for c in args if c.dep == "prep" for g in sent.children(c.i)]
    return any(a.lower in _ME or any(g.dep == "poss" and g.lower in _ME for g in sent.children(a.i)) for a in args)
