"""Questions and orders, read off the parse: whether a question points back at the other speaker's words
("what concert was it?", "got any pics?") or asks for something of its own ("any decent gyms in leeds?"),
whether an order shows a picture, is about the assistant's own answers, or acts on the user.
"""

from __future__ import annotations

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.addressee import addressed
from kenning.lifecycle.extraction.lexicon import first_person
from kenning.lifecycle.extraction.noise import has_content
from kenning.lifecycle.extraction.parse import Sentence, Token, known_verb
from kenning.lifecycle.extraction.pieces import opener


def asks_back(sent: Sentence) -> bool:
    """A question whose subject points back at the other speaker's last words: "what concert was it?",
    "how was that?", "did they like it?". A question with its own topic ("any tips for a first marathon?")
    says what the user wants to know."""
    first = opener(sent)
    if first is not None and first.lower == "how" and any(t.lemma in ("be", "go") for t in sent.tokens):
        return True  # "how's the pottery going?", "how was the trip?": asking after the other's news
    return any(t.dep in ("nsubj", "nsubjpass", "expl") and t.lower in ("it", "this", "that", "these", "those", "they", "he", "she") for t in sent.tokens) or not has_content(sent)


def asks_after(sent: Sentence) -> bool:
    """A question about the other speaker, "you" said or left out, asking for nothing: "did you go in the
    end?", "got any paintings to show?", "any fun plans for the summer?", "what type of guitar?". One that
    asks for help ("any tips for a first marathon?") or has a subject of its own ("what insoles do
    people rate?") says what the user wants to know."""
    if any(t.lemma in lx.HELP_NOUNS for t in sent.tokens):
        return False
    if _searched_near(sent):
        return False  # "any decent coworking spaces in easton?": something the user is looking for, somewhere
    return all(t.lower in lx.SECOND_PERSON for t in _subjects(sent))


def _subjects(sent: Sentence) -> list[Token]:
    return [t for t in sent.tokens if t.dep in ("nsubj", "nsubjpass", "expl", "csubj")]


def elliptical_after(sent: Sentence) -> bool:
    """A question asking after something of the other speaker's with "did your" left out ("surgery go ok?",
    "interview go well?"): a bare noun and the verb's base form."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    subjects = _subjects(sent)
    if not sent.text.rstrip().endswith("?") or root is None or root.tag not in ("VB", "VBP") or len(subjects) != 1 or any(
            c.dep in ("aux", "auxpass") for c in sent.children(root.i)):
        return False
    subj = subjects[0]  # (a singular noun with "go" for "goes": the base form, said after a "did" left out)
    return subj.tag == "NN" and subj.head == root.i and not any(c.dep in ("det", "poss") for c in sent.children(subj.i))


# what one asks a friend whether they have: "any plans …?", "any pics …?"
_HAD_NEWS = frozenset({"plan", "pic", "photo", "picture", "news", "update", "trip", "holiday", "vacation"})


def _searched_near(sent: Sentence) -> bool:
    """Things asked after in or near a named place: "any good pubs near the station?", "decent gyms in leeds?"."""
    if not any(t.tag == "NNS" for t in sent.tokens) or any(t.lemma in _HAD_NEWS for t in sent.tokens):
        return False  # "any plans in London this weekend?" asks after the other speaker's news
    for t in sent.tokens:
        if t.lower in ("in", "near", "around") and t.dep == "prep":
            place = next((c for c in sent.children(t.i) if c.dep == "pobj"), None)
            if place is not None and (place.pos == "PROPN" or place.ent in ("GPE", "LOC", "FAC") or place.lower in ("station", "centre", "center", "town", "here", "me")):
                return True
    return False


def shows(sent: Sentence) -> bool:
    """An order to look at something the speaker is showing: "check out this piece I made!", "look at this pic
    of him". The picture is in the conversation; nothing is asked for ("look at my CV" asks for a reading)."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.tag != "VB" or root.lemma not in ("check", "look", "see"):
        return False
    kids = sent.children(root.i)
    looked = [c for c in kids if c.dep == "dobj"] if any(c.dep == "prt" and c.lower == "out" for c in kids) else [
        g for c in kids if c.dep == "prep" and c.lower == "at" for g in sent.children(c.i) if g.dep == "pobj"]
    return any(d.lower in ("this", "these", "that", "those") for o in looked for d in sent.children(o.i)) and not any(
        t.lower in ("for", "if", "whether", "when") for t in sent.tokens)


def pleads(sent: Sentence) -> bool:
    return any(t.lower in ("please", "pls", "plz") for t in sent.tokens)


def for_the_user(sent: Sentence) -> bool:
    """A standing rule says what the assistant does, to something: "always remind me", "never suggest
    anything with coriander". "never give up!" has nothing to act on and "take care of yourself" acts on
    the other speaker: encouragement."""
    if any(t.dep not in ("nsubj", "nsubjpass") for t in addressed(sent)):
        return False  # "take care of yourself", "talk to you soon": the other speaker is the one acted on
    if first_person(sent.text) or "'s" in {t.lower for t in sent.tokens if t.dep == "nsubj"}:
        return True
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None:
        return False
    if about_answers(sent):
        return True
    if root.lemma not in lx.SERVICE_VERBS and known_verb(root.lemma):
        return False  # "never accept the first offer", "never let the builders start everything at once": advice
        # (a word no dictionary lists as a verb is a name misread as one: "never again ryanair")
    return any(c.dep in ("dobj", "prep", "xcomp", "ccomp", "dative", "attr", "acomp") for c in sent.children(root.i))


_SIGN_OFF = frozenset({"soon", "later", "tomorrow", "tonight", "then", "again", "xo", "xx", "x"})


def about_answers(sent: Sentence) -> bool:
    """An imperative about the assistant's own answers: their length, tone, units or language."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.tag != "VB":
        return False
    if root.lemma in lx.RESPONSE_VERBS:
        # "speak plainly", "reply in French"; "talk soon", "speak later" say goodbye
        said = [c for c in sent.children(root.i) if c.dep not in ("punct", "intj", "dep", "npadvmod") and c.pos not in ("INTJ", "X")]
        return any(c.lower not in _SIGN_OFF for c in said)
    return any(t.lemma in lx.RESPONSE_NOUNS and t.dep in ("dobj", "nsubj", "pobj") for t in sent.tokens)
