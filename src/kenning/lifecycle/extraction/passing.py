"""News said in passing: a row's value that a new thing of the user's names ("the new place in leeds has a tiny
kitchen" -> "I live in leeds"), where "here" is, where a commute starts, or a first week somewhere.
"""

from __future__ import annotations

from kenning.lifecycle.extraction import beginnings, places
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence
from kenning.lifecycle.extraction.phrases import governing_verb, object_lemma, phrase, verb_of
from kenning.lifecycle.extraction.rows import TABLE


_NOT_HOME = frozenset({"old", "former", "previous", "last", "holiday", "student", "second", "rental", "buy-to-let", "summer", "weekend"})


def implied(sent: Sentence) -> str | None:
    """The row value a new thing of the user's names, as a first-person clause: "the new place in leeds has a tiny
    kitchen" -> "I live in leeds", "my new job at Arup is fun" -> "I work at Arup". A row's ``objects`` with "new"
    before them and one of its prepositions with a name after them; never someone else's ("my sister's new flat").
    Or where the speaker says "here" is: "weather here in boise is unhinged" -> "I live in boise"."""
    here = places.here_in(sent)
    if here is not None:
        return f"I live in {phrase(sent, here)}"
    home = places.commute_from(sent)
    if home is not None:  # "the commute from swindon is killing me" -> "I live in swindon"
        return f"I live in {phrase(sent, home)}"
    first = beginnings.first_period(sent)
    if first is not None:  # "first week doing payroll at Harlow Freight done!!" -> "I work at Harlow Freight"
        verb, place = first
        if verb == "back":  # "first full week back at the office is done" -> "I am back at work" (a leave is over)
            return "I am back at work"
        if verb == "be":  # "first week as a district nurse done!" -> "I am a district nurse"
            role = phrase(sent, place)
            return f"I am {'an' if role[:1].lower() in 'aeiou' else 'a'} {role}"
        return f"I {verb} {'in' if verb == 'live' else 'at'} {phrase(sent, place)}"
    work = _work_at(sent)
    if work is not None:  # "work at the dental practice has been mental" -> "I work at the dental practice"
        return work
    for tok in sent.tokens:
        row = next((a for a in TABLE if a.objects and a.verbs and object_lemma(sent, tok) in a.objects), None)
        kids = sent.children(tok.i)
        if row is None or any(c.dep == "poss" and c.lower not in ("my", "our") for c in kids):
            continue
        ours = tok.dep == "nsubj" and any(c.dep in ("acomp", "attr") and c.lower in ("ours", "mine") for c in sent.children(tok.head))
        owned = row.located and (any(c.dep == "poss" for c in kids) or ours) and not any(
            c.dep in ("amod", "compound") and c.lower in _NOT_HOME for c in kids)  # "the terrace in walthamstow is ours"
        if not owned and not any(c.dep == "amod" and c.lower == "new" for c in kids):
            continue  # "our flat in woking", "the new place in leeds": where the user lives; "our old flat" is not
        preps = [c for c in kids if c.dep == "prep" and c.lower in row.preps]
        getter = governing_verb(sent, tok)  # "got the keys to our flat in woking": the parser hangs the place on "got"
        if owned and getter is not None and verb_of(sent, getter) in lx.GETTING_VERBS:
            preps += [c for c in sent.children(getter.i) if c.dep == "prep" and c.lower == "in" and c.i > tok.i]
        for prep in preps:
            obj = next((c for c in sent.children(prep.i) if c.dep == "pobj"), None)
            # a home in "the centre" is no place's name; a job "at the uni library" is where the user works
            if obj is not None and obj.pos in ("PROPN", "NOUN") and not any(
                    c.dep == "poss" or (c.dep == "det" and (row.located or c.lower != "the")) for c in sent.children(obj.i)):
                verb = "live" if row.located else sorted(row.verbs)[-1] if "work" not in row.verbs else "work"
                the = "the " if any(c.dep == "det" for c in sent.children(obj.i)) else ""
                return f"I {verb} {prep.lower} {the}{phrase(sent, obj)}"
    return None


_WORK = frozenset({"work", "job", "shift", "shifts"})


def _work_at(sent: Sentence) -> str | None:
    """The speaker's work at a place as the subject of how it is going, now: "work at the dental practice has been
    mental", "my job at the bank is so boring", "shifts at the QE are brutal" -> "I work at …". Never someone else's
    ("Tom's job at Arup"), never said in the past ("my job at the bank was dull": a job that may be over)."""
    for tok in sent.tokens:
        if tok.dep != "nsubj" or tok.lemma not in _WORK or tok.pos not in ("NOUN", "VERB"):  # ("work" as the tagger's verb)
            continue
        if any(c.dep == "poss" and c.lower not in ("my", "our") or c.dep == "det" and c.lower != "the" for c in sent.children(tok.i)):
            return None
        head = sent.tokens[tok.head]
        if head.tag == "VBD" or any(c.tag == "VBD" and c.dep in ("aux", "auxpass") for c in sent.children(head.i)):
            return None
        prep = next((c for c in sent.children(tok.i) if c.dep == "prep" and c.lower == "at"), None)
        obj = next((c for c in sent.children(prep.i) if c.dep == "pobj"), None) if prep is not None else None
        if obj is None or obj.pos not in ("PROPN", "NOUN") or obj.lemma in _WORK | {"home"} or any(
                c.dep == "poss" or (c.dep == "det" and c.lower != "the") for c in sent.children(obj.i)):  # "at a startup" names none
            return None
        the = "the " if any(c.dep == "det" and c.lower == "the" for c in sent.children(obj.i)) else ""
        return f"I work at {the}{phrase(sent, obj)}"
    return None
