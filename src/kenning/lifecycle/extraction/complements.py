"""Complements: what else a first-person "be" or "have" says beside its first complement or object, when a
comma cuts it off: "I'm 41, | a teacher", "im 52, | school bus driver in Amarillo", "…out of Dumas TX, | 29, |
single", "I am seventy-four and | widowed", "we've a lurcher …, | an ancient tabby …", "I'm 38, | two kids" (counted
things are had). Each returns the subject with its verb to put before the piece ("I'm", "I'm a", "we have").
"""

from __future__ import annotations

from dataclasses import replace

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token


def complement_of(sent: Sentence, a: int, b: int, since: int = 0) -> str | None:
    """ "I'm 41, a teacher" / "im priya, 29, QA lead at…": a piece whose head is a noun, number or adjective
    set beside the complement of a first-person "be" (or joined to the "be" itself) is another thing the
    speaker is. Returns the subject with its verb ("I'm", "we're"), or None. "I love trains, buses" is a
    list of objects, not complements."""
    head = next((t for t in sent.tokens[a:b] if not a <= t.head < b or t.head == t.i), None)
    if head is None:
        return None
    if sent.tokens[a].pos == "ADV" and sent.tokens[a].lower in ("mostly", "mainly", "usually", "largely", "partly", "sometimes", "often"):
        return None  # "…a sound engineer at Harpa, mostly day shifts": how the one before is, not another thing
    # "I am seventy-four and widowed": a participle joined to the "be" itself is a state, like an adjective
    state = head.tag == "VBN" and head.dep in ("conj", "acomp") and sent.tokens[head.head].lemma == "be" and head.i == b - 1 - (sent.tokens[b - 1].pos == "PUNCT")
    if head.pos not in ("NOUN", "PROPN", "NUM", "ADJ") and not state:
        return None
    counted = head.pos == "NUM" or any(c.dep == "nummod" for c in sent.children(head.i))
    if b - a == 1 and (head.pos == "ADJ" or (head.pos == "NUM" and lx.AGE.fullmatch(head.text))) and head.dep in ("appos", "amod", "conj", "npadvmod"):
        head = _up_to_complement(sent, head) or head  # "I'm a lineman … out of Dumas TX, 29, single": the age and
        # the state sit beside the place the parser hung them on, but are said of the speaker
    second = (head.dep in ("attr", "acomp") or (head.dep == "npadvmod" and any(c.dep == "det" for c in sent.children(head.i)))) and sent.tokens[head.head].lemma == "be" and any(
        c.dep in ("attr", "acomp") and since <= c.i < a
        for c in sent.children(head.head))  # "I'm 52, | school bus driver in Amarillo": in the piece just before
    if head.dep not in ("appos", "conj") and not second and not (head.dep == "attr" and counted and sent.tokens[head.head].lemma == "be"):
        return None  # a second, counted complement of the same "be" may also be tagged attr: "I'm 38, two kids"
    to = sent.tokens[head.head]
    while to.dep in ("conj", "appos") and to.pos in ("NOUN", "PROPN", "NUM") and to.head < to.i:
        to = sent.tokens[to.head]  # "a lurcher …, an ancient tabby …, and my son's bearded dragon": one list
    verb = sent.tokens[to.head]
    if head.dep == "conj" and to.lemma == "have" and to.dep == "ROOT":
        to, verb = head, to  # "we've a lurcher …, and my son's bearded dragon": the parser joined it to "have"
    if to.dep in ("dobj", "conj") and verb.lemma == "have" and head.pos == "NOUN" and (to.i < a or to is head):
        subj = next((c for c in sent.children(verb.i) if c.dep == "nsubj"), None)
        if subj is not None and subj.lower in ("i", "we"):
            return "I have" if subj.lower == "i" else "we have"  # another thing the speaker has
        return None
    be = verb if to.dep in ("attr", "acomp") else to
    if be.lemma != "be" or to.i >= a:
        return None
    subj = next((c for c in sent.children(be.i) if c.dep == "nsubj"), None)
    if subj is None or subj.lower not in ("i", "we"):
        return None
    if head.tag == "NNS" and any(c.dep == "nummod" for c in sent.children(head.i)) or head.lemma == "experience":
        return "I have" if subj.lower == "i" else "we have"  # "I'm 38, two kids", "…, 4 years experience": had
    be_said = "I'm" if subj.lower == "i" else "we're"
    if head.tag == "NN" and head.pos == "NOUN" and not any(c.dep in ("det", "poss") for c in sent.children(head.i)):
        opening = sent.tokens[min([head.i] + [c.i for c in sent.children(head.i) if c.dep in ("compound", "amod", "nmod") and c.i < head.i])].lower
        return f"{be_said} {'an' if opening[:1] in 'aeiou' else 'a'}"  # "school bus driver in Amarillo" -> "I'm a school …"
    return be_said


def first_person_be(sent: Sentence, be: Token, verb: Token) -> bool:
    """A past or present verb joined to "I'm …" shares its subject: "I'm a lineman…, got a blue heeler"; so does
    one the tagger left in its base form right after "and" ("I'm 41 and work in construction")."""
    anded = verb.tag == "VB" and verb.i > 0 and sent.tokens[verb.i - 1].lower == "and"
    return (verb.tag in ("VBD", "VBP", "VBZ") or anded) and any(c.dep == "nsubj" and c.lower in ("i", "we") for c in sent.children(be.i))



def _up_to_complement(sent: Sentence, tok: Token) -> Token | None:
    """The complement of a "be" that ``tok`` hangs under, through prepositions, as a stand-in with the same head
    (dep "appos"), or None."""
    seen = tok
    for _ in range(6):
        up = sent.tokens[seen.head]
        if up.i == seen.i:
            return None
        if up.dep in ("attr", "acomp") and sent.tokens[up.head].lemma == "be":
            return replace(tok, dep="appos", head=up.i)
        seen = up
    return None
