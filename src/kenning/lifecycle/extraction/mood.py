"""How a clause is said, where the parse decides what a phrase list would guess: a one-off ask ("can you …"),
a prohibition ("don't …") and whether it names a time, a question that lost its mark ("how do I …"), a
daydream on an unlikely condition ("if I won the lottery …"), a condition on someone else's need ("if the
clinic needs to reach me, …") and a bare maybe said of the sentence before ("might do it, might not").
"""

from __future__ import annotations

import re

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token

# "can you…", "could you…", "would you mind…": one thing asked for now, not a rule for every answer
ASKS = re.compile(r"(?i)^\W*(?:(?:so|and|but|also|oh|ok|okay|pls|please|hey|anyway|anyways|right|well|um|hmm|lol|btw|tbh|honestly|actually)\W+)*(?:can|could|would|will)\s+(?:you|u)\b")
DONT = re.compile(r"(?i)^\W*(?:(?:so|and|but|also|oh|pls|please)\W+)*(?:don'?t|do\s+not)\s+(?!you\b|u\b|i\b|we\b)")
ONE_TIME = frozenset({"today", "tonight", "tomorrow", "yet", "now", "again", "this", "next"})


def asks_how(sent: Sentence) -> bool:
    """ "how do I …", "where can I …", "what should we …", "how on earth do I …", "how long do I …": a question word, then (after
    at most an emphatic phrase of two words) an auxiliary, then I/we."""
    toks = [t for t in sent.tokens if t.pos not in ("PUNCT", "INTJ") and t.lower not in lx.CLAUSE_ADVERBS]
    if len(toks) < 3 or toks[0].tag not in ("WRB", "WP", "WDT"):
        return False
    if toks[0].lower in ("what", "which") and toks[1].lemma == "be" and toks[2].lower == "the" and any(
            t.lower in ("i", "we") and t.dep in ("nsubj", "nsubjpass") and t.head != toks[1].i for t in toks[3:]):
        return True  # "whats the simplest exercise routine i can actually stick to": the thing asked for, for the asker
    return any(toks[k].pos == "AUX" and toks[k].lemma != "be" and toks[k + 1].lower in ("i", "we")
               for k in range(1, min(4, len(toks) - 1)) if all(t.pos in ("ADP", "NOUN", "DET", "ADV", "ADJ") for t in toks[1:k]))


def forbidden(sent: Sentence, verb: Token) -> bool:
    """Whether ``verb`` is a negative imperative: a bare verb with "do" + "not" and no subject ("…so don't
    describe things by colour only")."""
    kids = sent.children(verb.i)
    return (verb.tag == "VB" and any(c.dep == "neg" for c in kids) and any(c.dep == "aux" and c.lemma == "do" for c in kids)
            and not any(c.dep in ("nsubj", "nsubjpass") for c in kids))


def prohibits(sent: Sentence) -> bool:
    """A clause that is a negative imperative ("don't describe things by colour"), addressed to no one named
    ("don't tell Dr. Ramirez" is a joke, not a rule)."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    return root is not None and forbidden(sent, root) and not any(
        c.dep in ("dobj", "dative") and c.pos == "PROPN" for c in sent.children(root.i)
    )


def timed(sent: Sentence) -> bool:
    """A clause that names a time or occasion ("don't forget the milk tomorrow", "don't book it yet")."""
    return any(t.ent in ("DATE", "TIME") or t.lower in ONE_TIME for t in sent.tokens)


TELLING = frozenset({"tell", "mention", "say"})


def keeps_from(sent: Sentence) -> bool:
    """A secret kept between the two speakers: "don't tell the crossfit lads", "don't tell my mum" (the "I" chat may
    have put back in front). Not telling the user something ("don't tell me the ending") is a request."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma != "tell":
        return False  # "don't mention my divorce to anyone" names what is kept, and is a rule
    kids = sent.children(root.i)
    told_to = [c for c in kids if c.dep in ("dobj", "dative") and c.pos in ("NOUN", "PROPN", "PRON")]
    return (any(c.dep == "neg" for c in kids) and any(c.dep == "aux" and c.lemma == "do" for c in kids)
            and bool(told_to) and not any(c.lower in ("me", "us") for c in told_to)
            and not any(c.dep == "ccomp" for c in kids))


def told(sent: Sentence) -> str | None:
    """The statement inside a question about having told it: "did i tell you we're in Kelowna now?",
    "have I mentioned I got the job?" -> "we're in Kelowna now", "I got the job"; None for any other clause."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in TELLING:
        return None
    kids = sent.children(root.i)
    if not any(c.dep == "nsubj" and c.lower == "i" for c in kids) or not any(c.dep == "aux" and c.lemma in ("do", "have") for c in kids):
        return None
    said = next((c for c in kids if c.dep == "ccomp" and c.i > root.i), None)
    if said is None:
        return None
    span = [i for i in sent.subtree(said.i) if sent.tokens[i].dep != "mark" or i != sent.subtree(said.i)[0]]
    return "".join(sent.tokens[i].text + sent.tokens[i].space for i in span).strip(" ?")


_RELEVANCE = lx.WANT_VERBS | {"need", "ask", "wonder", "care", "matter", "help", "count"}  # "if that matters", "if it helps"


_OF_USE = frozenset({"relevant", "useful", "helpful", "important"})


def for_others(sent: Sentence, verb: int) -> bool:
    """A condition on someone else wanting what is said: "if the clinic ever needs to reach me, my cell is …",
    "if anyone asks, I'm vegetarian", "if that's relevant". What follows is said for whoever needs it, and is
    still true."""
    subj = next((c for c in sent.children(verb) if c.dep in ("nsubj", "nsubjpass")), None)
    if sent.tokens[verb].tag == "MD" and all(c.dep in ("nsubj", "mark", "punct") for c in sent.children(verb)):
        return True  # "if I may", "if you can": a courtesy, no condition on what is said
    if subj is not None and subj.lower in ("that", "it", "this") and sent.tokens[verb].lemma == "be" and any(
            c.dep == "acomp" and c.lower in _OF_USE for c in sent.children(verb)):
        return True
    return sent.tokens[verb].lemma in _RELEVANCE and subj is not None and subj.lower not in lx.FIRST_PERSON_STARTS | lx.SECOND_PERSON


def relevance_condition(sent: Sentence) -> tuple[int, int] | None:
    """The first and last token of a condition on what is said being of use ("if that matters for anything
    you suggest", "if you need it", "if it helps"), when it opens or closes the sentence, or None: words
    about the telling, not part of the claim."""
    words = [t.i for t in sent.tokens if t.pos not in ("PUNCT", "SPACE")]
    for t in sent.tokens:
        if t.dep != "mark" or t.lower != "if" or t.head == t.i:
            continue
        verb = sent.tokens[t.head]
        subj = next((c for c in sent.children(verb.i) if c.dep in ("nsubj", "nsubjpass")), None)
        if not for_others(sent, verb.i) and (verb.lemma not in _RELEVANCE or subj is None or subj.lower in lx.FIRST_PERSON_STARTS):
            continue
        span = sent.subtree(verb.i)
        first, last = min(span), max(span)
        if words and (first == words[0] or last == words[-1]) and len(words) > last - first + 1:
            return first, last
    return None


def always_so(sent: Sentence, verb: int) -> bool:
    """A condition on the user's own doing under which something always happens, no maybe: both in the plain present
    ("my knee flares up if I go over 100k", "I get migraines if I skip breakfast"); not "I'll go if it's sunny",
    "I'm moving if I get the job", "if I had the money I'd …", nor a condition on the world ("if it rains I stay
    home", which may not come)."""
    cond = sent.tokens[verb]
    main = sent.tokens[cond.head]
    mine = any(c.dep == "nsubj" and c.lower in ("i", "we") for c in sent.children(cond.i))  # (never "if it rains I stay home")
    return main.i != cond.i and cond.dep == "advcl" and mine and _plain_present(sent, cond) and _plain_present(sent, main)


def _plain_present(sent: Sentence, verb: Token) -> bool:
    kids = sent.children(verb.i)
    misread = verb.tag == "NNS" and any(c.dep == "nsubj" for c in kids)  # "my knee flares up": a verb in -s with its subject
    return (verb.tag in ("VBZ", "VBP") and verb.pos == "VERB" or misread) and not any(c.dep in ("aux", "auxpass") for c in kids)


def imagined(sent: Sentence) -> bool:
    """A daydream on a condition the speaker does not expect: "if I won the lottery I'd …", "if the lottery were
    ever kind to me …", "if i ever win the lottery im buying …" (a past-tense or "ever" condition). Nothing is
    claimed, not even a plan; a condition on the listener ("my number, if you ever need it") is theirs."""
    for t in sent.tokens:
        if t.dep != "mark" or t.lower != "if" or t.head == t.i:
            continue
        verb = sent.tokens[t.head]
        kids = sent.children(verb.i)
        if any(c.dep in ("nsubj", "nsubjpass") and c.lower in lx.SECOND_PERSON for c in kids) or for_others(sent, verb.i):
            continue
        if verb.tag == "VBD" or any(c.lower == "ever" and c.dep == "advmod" for c in kids):
            return True
    return False


_BACK_VERBS = frozenset({"do", "see", "happen"})
_MAYBE = frozenset({"might", "may", "maybe", "perhaps", "possibly", "probably", "could"})


def hedges_back(sent: Sentence) -> bool:
    """A hedge with nothing of its own, said of what came just before: "might do it", "maybe, maybe not" (opening
    with the maybe; no noun, name, number or adjective; no verb but do/see/happen)."""
    words = [t for t in sent.tokens if t.pos not in ("PUNCT", "SPACE")]
    if words and words[0].lower == "i":
        words = words[1:]  # "(I) might do it": the "I" put back
    return bool(words) and words[0].lower in _MAYBE and not any(t.pos in ("NOUN", "PROPN", "NUM", "ADJ") for t in words) and all(
        t.lemma in _BACK_VERBS for t in words if t.pos == "VERB")


def without_condition(sent: Sentence, piece: str) -> str:
    """ "im vegetarian if that matters for anything you suggest" -> "im vegetarian": a condition on the claim
    being of use is about the telling, not the claim."""
    span = relevance_condition(sent)
    if span is None or sent.text != piece:
        return piece
    a, b = span
    after = piece[sent.offset(b + 1):] if b + 1 < len(sent.tokens) else ""
    if a > 0:  # closing the sentence: what is left of it is its punctuation
        return piece[: sent.offset(a)].rstrip(" ,;-") + after.strip()
    return after.lstrip(" ,;-")


_ASKING = frozenset("what whats what's why how which where when who whose is are was were does do did can could should will would".split())


def asks_the_world(first: Token | None) -> bool:
    """Whether a question opens (``first``: its first word past fillers) with a question word or an auxiliary put
    first ("what's the difference between…", "was it filmed on a real island"), not news said with a question
    mark ("Andrei got picked for the team??")."""
    return first is not None and first.lower in _ASKING
