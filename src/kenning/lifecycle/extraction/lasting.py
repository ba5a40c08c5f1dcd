"""Lasting traits said plainly in the present ("I'm left-handed", "I don't drive"): never a mood or one
occasion, so chit-chat scoring leaves them be.
"""

from __future__ import annotations

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, known_modifier_or_verb


_DEGREE = frozenset("so really very too super quite pretty kinda bit proper well totally absolutely".split())


_NOW = frozenset("today tonight now atm rn currently still already yet again".split())


def lasting_quality(sent: Sentence) -> bool:
    """A first-person "be" with an adjective that is no feeling, said plainly, as its complement: "I'm
    left-handed", "I'm red-green colourblind", "I'm asthmatic" (not "I'm so tired", "I'm stressed today")."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None:
        return False
    kids = sent.children(root.i)
    if root.lemma == "be" and root.tag in ("VBP", "VBZ"):
        comp = next((c for c in kids if c.dep in ("acomp", "attr") and c.pos in ("ADJ", "NOUN")), None)
    elif root.tag == "VBN" and any(c.dep == "auxpass" and c.lemma == "be" and c.tag in ("VBP", "VBZ") for c in kids):
        comp = root  # "I'm left-handed": the tagger's participle
    else:
        return False
    if comp is None or comp.lower in lx.FEELINGS | lx.STATE_PARTICIPLES or comp.lemma in lx.FEELINGS or any(c.dep in ("det", "poss") for c in sent.children(comp.i)):
        return False
    if not known_modifier_or_verb(comp.lower):
        return False  # "I'm wanjiru", "im dev": a name given, not a quality; a word no dictionary lists is left to the model
    if not any(c.dep in ("nsubj", "nsubjpass") and c.lower == "i" for c in kids):
        return False
    return not any(t.lower in _DEGREE | _NOW or t.lower in lx.SECOND_PERSON for t in sent.tokens)


_HABITS = lx.LIFE_VERBS | {"eat", "drink", "cook", "fly", "smoke"}


def lasting_habit(sent: Sentence) -> bool:
    """A first-person habit or ability said not to be, plainly, in the present: "I don't drive", "I never drink
    coffee", "I can't swim" (a lasting fact, never a mood; not "I didn't drive today")."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.pos != "VERB" or root.lemma not in _HABITS or root.tag not in ("VB", "VBP"):
        return False
    kids = sent.children(root.i)
    if not any(c.dep == "nsubj" and c.lower == "i" for c in kids) or not any(c.dep == "neg" for c in kids):
        return False
    if any(c.dep == "aux" and c.lemma not in ("do", "can") for c in kids) or any(c.dep == "aux" and c.tag == "VBD" for c in kids):
        return False  # "I won't drive", "I didn't drive": a plan or one occasion
    return not any(t.lower in _NOW or t.lower in lx.SECOND_PERSON for t in sent.tokens)
