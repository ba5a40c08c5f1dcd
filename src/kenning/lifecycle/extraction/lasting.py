"""What lasts, though said as it happened or plainly in the present: traits ("I'm left-handed", "I don't
drive"), never a mood or one occasion, so chit-chat scoring leaves them be; what a past verb began ("took up
bonsai") or left behind ("adopted two greyhounds", "had a heart attack"), a fact, not an episode that fades.
"""

from __future__ import annotations

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction import noise
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


def begun(sent: Sentence) -> bool:
    """A past verb that begins what goes on now, with what it began: "opened her own hair salon", "has started her
    masters", "took up bonsai", "set up a charity". What was begun lasts, unlike an event ("ran a 10k")."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in lx.BEGINNING_VERBS:
        return False
    if root.lemma in ("take", "set") and not any(c.dep == "prt" and c.lower == "up" for c in sent.children(root.i)):
        return False  # "took up bonsai", "set up a charity"; not "took the bus", "set a record"
    return any(c.dep in ("dobj", "xcomp") and c.lower not in noise.POINTING for c in sent.children(root.i))


# What an event leaves behind that lasts: the verb, and the words its object must be one of (None: whatever it
# names). "adopted two greyhounds": they are the family's now; "was born": someone new; "finished my masters",
# "got my citizenship", "passed my driving test": a qualification held; "had a heart attack", "got diagnosed with
# coeliac": medical history.
LEFT_BY: dict[str, frozenset[str] | None] = {
    "adopt": None, "bear": None, "qualify": None, "graduate": None, "emigrate": None, "diagnose": None,
    "finish": lx.QUALIFICATIONS, "complete": lx.QUALIFICATIONS, "get": lx.QUALIFICATIONS, "earn": lx.QUALIFICATIONS,
    "pass": lx.QUALIFICATIONS | {"test"},
    "have": lx.MEDICAL_EVENTS,
}


def left_by(sent: Sentence) -> bool:
    """Whether a clause tells of an event whose outcome lasts (``LEFT_BY``): "adopted two ex-racing greyhounds",
    "Wren was born on 3 november", "had my gallbladder out". A birth only of someone by name ("I was born and
    raised in Leeds" says where, not who); an adoption only of something named ("we adopted", with no object, is
    not enough to hold)."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in LEFT_BY or root.tag not in ("VBD", "VBN"):
        return False
    kids = sent.children(root.i)
    if root.lemma == "bear":  # "was born": said of someone by name
        return any(c.dep == "nsubjpass" and c.pos == "PROPN" for c in kids)
    objects = [c for c in kids if c.dep in ("dobj", "attr")]
    words = LEFT_BY[root.lemma]
    if words is None:
        return root.lemma != "adopt" or any(c.dep == "dobj" and c.pos in ("NOUN", "PROPN") for c in kids)
    if root.lemma == "have" and any(c.dep == "prt" and c.lower in ("out", "removed") for c in kids):
        return True  # "had my gallbladder out"
    return any(o.lemma in words or o.lower in words for o in objects)
