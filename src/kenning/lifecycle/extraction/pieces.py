"""Pieces: where a sentence is cut before its pieces are read as clauses. At its separators (commas, "and",
"but", "so"…), and where dictated chat runs a clause on without one; never inside what a retraction points
at ("forget what I said about me and Dan splitting up"); and where a cut is undone: a subject set off by an
apposition is joined again to its verb ("the wife, | Carol, | does all the books").
"""

from __future__ import annotations

import re

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token

# a sentence taking back something said about X ("forget what I said about …"): its words about X stay whole
POINTS = re.compile(r"(?i)\b(?:forget|disregard|ignore|scratch|strike)\b.*\babout\b")
SEPARATORS = {",", ";", "—", "–", "-", "and", "but", "so", "plus", "also", "then", "&"}
# two words that open a clause as one subordinator: "in case you need it", "now that we've moved"
_SUBORDINATING = frozenset({("in", "case"), ("now", "that"), ("so", "that"), ("as", "if"), ("as", "though"), ("even", "though"), ("even", "if")})
_OBJECT_CASE = frozenset({"me", "him", "us", "them"})
_LEAD_WORDS = {"and", "but", "so", "plus", "also", "then", "or", "&", ",", ";", "-", "—", "–", "oh", "well", "anyway", "anyways"}


_TAKES_CLAUSE = lx.HEDGE_VERBS | lx.REACTION_VERBS | {"say", "guess", "reckon", "suppose", "bet", "know", "mean", "feel", "hope", "swear", "hear",
                                                     "let", "make", "help", "see", "watch", "ask", "find", "realise", "realize", "notice",
                                                     "would", "'d", "need", "wish"} | lx.WANT_VERBS


def _run_on_starts(sent: Sentence) -> set[int]:
    """Where a clause begins with no word to mark it, as in dictated chat: the first word (with the clause's own
    adverb or auxiliary) of the subject of a verb the parser joined to an earlier verb ("…a bit of solar pv on
    the side | my van is a transit connect") or hung an earlier clause on ("…at the royal infirmary | my
    husband is a teacher"); never after a subordinator, a conjunction or a pronoun."""
    out = set()
    for t in sent.tokens:
        if t.dep not in ("nsubj", "nsubjpass") or t.lower in _OBJECT_CASE:
            continue  # "keeps trying to get | me to sign up": a subject in the object case opens no clause of its own
        verb = sent.tokens[t.head]
        if verb.pos not in ("VERB", "AUX"):
            continue
        joined = verb.dep in ("conj", "parataxis") and verb.head < t.i  # "…on the side | my van is …"
        # "i work with my nephew cian | hes a second year apprentice": a clause the parser made the complement
        # of an earlier verb that takes none, with no "that"/"if" to mark it
        head = sent.tokens[verb.head]
        joined = joined or _run_on_relative(sent, verb, t)
        joined = joined or (verb.dep in ("ccomp", "advcl") and verb.head < t.i and head.pos in ("VERB", "AUX")
                            and (verb.dep == "advcl" or head.lemma not in _TAKES_CLAUSE)
                            and not any(c.dep == "mark" or c.tag == "WRB" or c.lower in lx.SUBORDINATORS for c in sent.children(verb.i))
                            and _definite(sent, t))
        # "I'm a nurse at the royal infirmary | my husband is a teacher": the parser hung the first clause on
        # the second as its complement; a verb of saying or thinking does take one ("I'm tired I think")
        hung = verb.lemma not in _TAKES_CLAUSE and any(
            c.dep == "ccomp" and max(sent.subtree(c.i)) < t.i for c in sent.children(verb.i))
        if not (joined or hung):
            continue
        first = min(sent.subtree(t.i))
        while first > 0:  # "…the April cycle, | now I am SDE-3", "…on humira | every two weeks I do the injection"
            own = _own_modifier(sent, verb, sent.tokens[first - 1])
            if own is None:
                break
            first = min(sent.subtree(own.i))
        if first > 1 and t.pos == "PROPN" and sent.tokens[first - 1].lower in lx.PERSON_NOUNS and sent.tokens[first - 2].lower in ("my", "our"):
            first -= 2  # "…, and my husband | Dev goes back to work": the name's own noun is the subject's first words
        before = sent.tokens[first - 1] if first > 0 else None
        if before is not None and before.pos == "VERB" and t.lower == "it" and verb.lemma != "be":
            continue  # "called | it quits", "made | it count": the object of a verb before, in a small clause
        if before is not None and before.lower not in SEPARATORS | _LEAD_WORDS and before.pos not in ("SCONJ", "CCONJ", "PUNCT", "PRON", "DET") \
                and not (first > 1 and (sent.tokens[first - 2].lower, before.lower) in _SUBORDINATING):
            out.add(first)
    return out | _swallowed_subjects(sent) | _dropped_subjects(sent) | _after_fronted_reason(sent)


def fronted_doing(sent: Sentence) -> Token | None:
    """The "since"/"after"/"once" opening ``sent`` when a clause of the speaker's own doing follows it with its
    subject left out, said before the main clause: "since leaving the band", "after moving to Leeds" (never
    "before", "when"); else None."""
    tok = opener(sent)
    if tok is None or tok.lower not in lx.FACT_MARKS or tok.dep not in ("prep", "mark", "ROOT"):
        return None
    return tok if any(c.dep == "pcomp" and c.tag == "VBG" for c in sent.children(tok.i)) else None


def opener(sent: Sentence) -> Token | None:
    """The first word of a clause that is neither punctuation, an interjection nor a discourse adverb."""
    return first_content(sent, 0, len(sent.tokens))


def first_content(sent: Sentence, a: int, b: int) -> Token | None:
    for t in sent.tokens[a:b]:
        if t.lower in lx.CLAUSE_ADVERBS or t.pos in ("PUNCT", "INTJ") or manner_adverb(t):
            continue
        return t
    return None


def manner_adverb(t: Token) -> bool:
    """An "-ly" adverb before the verb it qualifies: "officially switched my major", "slowly getting there"."""
    return t.pos == "ADV" and t.dep == "advmod" and t.lower.endswith("ly") and t.head > t.i


def _after_fronted_reason(sent: Sentence) -> set[int]:
    """Where the main clause starts after a fronted clause of time or reason with no comma ("Since they bumped me
    up to company stage manager | I spend my life in spreadsheets", "since leaving the band | I've been teaching
    myself ukulele"): its subject's first word."""
    mark = fronted_doing(sent)
    if mark is not None:  # what the user did, then how things are now
        verb = sent.tokens[mark.head]
        subj = next((c for c in sent.children(verb.i) if c.dep in ("nsubj", "nsubjpass") and max(sent.subtree(mark.i)) < c.i < verb.i), None)
        if subj is not None:
            return {min(sent.subtree(subj.i))}
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None:
        return set()
    subj = next((c for c in sent.children(root.i) if c.dep in ("nsubj", "nsubjpass") and c.i < root.i), None)
    if subj is None:
        return set()
    first = min(sent.subtree(subj.i))
    for c in sent.children(root.i):
        if c.dep != "advcl" or c.i > first or max(sent.subtree(c.i)) >= first:
            continue
        if any(g.dep == "mark" and g.lower in lx.FACT_MARKS for g in sent.children(c.i)) and not any(
                sent.tokens[i].text in (",", ";") for i in range(max(sent.subtree(c.i)), first)):
            return {first}
    return set()


def _dropped_subjects(sent: Sentence) -> set[int]:
    """Where dictated chat starts a clause with its verb, the "I" dropped ("…based in wakefield | got a little lad
    called reuben", "…a nurse in leeds | got two kids"): a finite verb with an object and no subject, right after
    the noun that ends a clause, which the parser joined to that clause with no word between (no "and", no comma)
    or made the head of it."""
    out = set()
    for v in sent.tokens:
        if v.i == 0 or v.pos != "VERB" or v.tag not in ("VBD", "VBP", "VBZ"):
            continue
        kids = sent.children(v.i)
        if any(c.dep in ("nsubj", "nsubjpass", "expl") for c in kids) or not any(c.dep == "dobj" for c in kids):
            continue
        joined = v.dep == "conj" and v.head < v.i and not any(
            c.dep in ("cc", "punct") and v.head < c.i < v.i for c in sent.children(v.head))
        hung = v.dep == "ROOT" and any(c.dep == "ccomp" and max(sent.subtree(c.i)) < v.i and c.pos in ("AUX", "VERB") and any(
            g.dep in ("nsubj", "nsubjpass") for g in sent.children(c.i)) for c in kids)
        before = sent.tokens[v.i - 1]
        if (joined or hung) and before.pos in ("NOUN", "PROPN", "NUM") and before.lower not in SEPARATORS | _LEAD_WORDS:
            out.add(v.i)
    return out


def _swallowed_subjects(sent: Sentence) -> set[int]:
    """Where a clause with its own subject was taken for the subject of the next verb ("im studying for my
    licence on my days off | my girlfriend jade is a teaching assistant"): the next verb's own subject is the
    noun with its article or owner that ends right before it, and a clause begins there."""
    out = set()
    for verb in sent.tokens:
        if verb.i == 0 or not any(_swallowing(sent, c) for c in sent.children(verb.i) if c.i < verb.i):
            continue
        first = verb.i  # back over the noun phrase before the verb, to its article or owner: "my sister jo"
        while first > 0 and sent.tokens[first - 1].pos in ("NOUN", "PROPN", "ADJ", "NUM") and sent.tokens[first - 1].dep != "poss":
            first -= 1
        if first == verb.i or first == 0 or sent.tokens[first - 1].dep != "poss" and sent.tokens[first - 1].pos != "DET":
            continue
        first -= 1
        before = sent.tokens[first - 1] if first > 0 else None
        if before is not None and before.pos not in ("SCONJ", "CCONJ", "PUNCT") and before.lower not in SEPARATORS | _LEAD_WORDS:
            out.add(first)
    return out


def _swallowing(sent: Sentence, c: Token) -> bool:
    """A clausal subject with a subject of its own, opened by no "what"/"where" ("what I want for my birthday is a
    bike" is a clause that is the subject, as it should be)."""
    return c.dep == "csubj" and any(g.dep in ("nsubj", "nsubjpass") for g in sent.children(c.i)) and not any(
        sent.tokens[i].tag in ("WP", "WDT", "WRB", "WP$") for i in sent.subtree(c.i))


def _run_on_relative(sent: Sentence, verb: Token, subj: Token) -> bool:
    """"…takes forever to reply to emails | i live in a shared house": what the parser took for a relative clause
    with no "that" ("the emails I send") is a clause of its own when nothing in it is left hanging for the noun
    to fill (no preposition without its object, no verb without its object)."""
    if verb.dep != "relcl" or subj.lower not in ("i", "we") or verb.head > subj.i:
        return False
    kids = sent.children(verb.i)
    if any(c.tag in ("WDT", "WP", "WRB") or c.lower == "that" for c in kids):
        return False
    if verb.lemma in lx.TAKES_A_THING and not any(c.dep in ("dobj", "prt") for c in kids):
        return False  # "the old volvo | i sold to my brother in law": the noun is what was sold
    preps = [c for c in kids if c.dep == "prep"]
    stranded = any(not any(g.dep in ("pobj", "pcomp") for g in sent.children(p.i)) for p in preps)
    filled = bool(preps) or any(c.dep in ("dobj", "attr", "acomp", "xcomp", "ccomp") for c in kids)
    return filled and not stranded


def _own_modifier(sent: Sentence, verb: Token, tok: Token) -> Token | None:
    """The modifier of ``verb`` (an adverb, a time, an auxiliary, a negation) that ``tok`` is part of, or None."""
    while tok.head != verb.i and tok.head != tok.i:
        tok = sent.tokens[tok.head]
    return tok if tok.head == verb.i and tok.i != verb.i and tok.dep in ("advmod", "npadvmod", "aux", "auxpass", "neg") else None


def _definite(sent: Sentence, subj: Token) -> bool:
    """A subject that can open a sentence: a pronoun, a name, or a noun with its article or owner ("he",
    "cian", "my van"), not a bare noun the parser took for one ("crohns disease diagnosed six years ago")."""
    glued = not subj.space and subj.i + 1 < len(sent.tokens) and not sent.tokens[subj.i + 1].text.startswith("'")
    if glued:  # "mon wed sat": "wed" read as "we" + "d"
        return False
    # "a honda" is an object the parser made a subject ("I ride | a honda pcx 125"): a run-on's subject is known
    return subj.pos in ("PRON", "PROPN") or any(c.dep == "poss" or (c.dep == "det" and c.lower not in ("a", "an"))
                                                for c in sent.children(subj.i))


def pieces(sent: Sentence) -> list[tuple[int, int]]:
    """Token ranges ``[start, end)`` between separators, separators dropped; a clause run on without one starts
    a piece of its own (``_run_on_starts``)."""
    out, start = [], 0
    pointer = bool(POINTS.search(sent.text))
    runs = set() if pointer else _run_on_starts(sent)
    inside = bracketed(sent)
    for t in sent.tokens:
        if t.i in inside:
            continue  # "retired firefighter (tyne and wear, 30 years)": words in brackets belong to what they follow
        if t.i in runs and t.i > start:
            out.append((start, t.i))
            start = t.i
        if t.text == "-" and (t.i == 0 or not sent.tokens[t.i - 1].space or not t.space):
            continue  # "left-handed", "5-a-side": a hyphen inside a word is no separator
        if pointer and t.lower != "," and t.lower != ";":
            continue  # "forget what I said about me and Dan splitting up": the pointed-at words stay whole
        if _so_of_degree(sent, t):
            continue  # "thanks so much for …", "which is so tragic": a degree, not "so" joining clauses
        if _between_subject_and_verb(sent, t):
            continue  # "he's also gone vegan": an adverb inside one clause joins nothing
        if _joins_subject(sent, t):
            continue  # "…, me and kofi moved in saturday": "and" joins the subject's people, not two clauses
        colon = t.text == ":" and _clause_follows(sent, t.i)  # "couple things for my profile: | im in austin"
        if colon or t.lower in SEPARATORS and t.pos in ("CCONJ", "PUNCT", "ADV", "SCONJ") or t.text in (",", ";", "—", "–"):
            if t.i > start and not (colon and _heading(sent, start, t.i)):
                out.append((start, t.i))
            start = t.i + 1
    if start < len(sent.tokens):
        out.append((start, len(sent.tokens)))
    return [(a, b) for a, b in out if any(sent.tokens[i].pos != "PUNCT" for i in range(a, b))]


def _so_of_degree(sent: Sentence, t: Token) -> bool:
    """A "so" that says how much ("thanks so much", "which is so tragic", "it went so quickly") right after a verb, not
    one that joins clauses ("i eat fish so pescatarian technically", "so somewhere that's careful")."""
    if t.lower != "so" or t.i + 1 >= len(sent.tokens):
        return False
    word = sent.tokens[t.i + 1]
    if word.lower in ("much", "many"):
        return True
    degree = word.pos == "ADJ" or word.pos == "ADV" and (word.lower in ("well", "often", "far", "long", "little") or word.lower.endswith("ly"))
    return degree and t.dep == "advmod" and t.head == word.i and t.i > 0 and sent.tokens[t.i - 1].pos in ("AUX", "VERB")


def bracketed(sent: Sentence) -> set[int]:
    """The indices of the tokens between a "(" and the ")" that closes it."""
    inside: set[int] = set()
    opened: list[int] = []
    for t in sent.tokens:
        if t.text == "(":
            opened.append(t.i)
        elif t.text == ")" and opened:
            inside.update(range(opened.pop() + 1, t.i))
    return inside


def _between_subject_and_verb(sent: Sentence, t: Token) -> bool:
    """Whether ``t`` is an adverb of a verb after it whose subject comes before it ("he's also gone vegan", "we
    then moved to leeds")."""
    if t.pos != "ADV" or t.dep != "advmod" or t.head <= t.i:
        return False
    return any(c.dep in ("nsubj", "nsubjpass") and c.i < t.i for c in sent.children(t.head))


def _clause_follows(sent: Sentence, colon: int) -> bool:
    """A clause of the speaker's own, with its subject and verb, comes right after the colon ("my profile: im in
    austin"), not a list or a value ("my kids: tom and amy", "the code: 4471") or a heading ("update on Arlo:
    veggie phase lasted 3 weeks")."""
    end = next((t.i for t in sent.tokens[colon + 1 :] if t.text in (",", ";", ":", ".")), len(sent.tokens))
    first = next((t for t in sent.tokens[colon + 1 : end] if t.lower not in lx.CLAUSE_ADVERBS), None)
    if first is not None and first.tag in ("VBD", "VBN") and any(c.dep in ("dobj", "xcomp", "prep", "prt") for c in sent.children(first.i)):
        return True  # "update on the food front: started eating fish again": the "I" left out
    return any(t.dep in ("nsubj", "nsubjpass") and colon < t.head < end and (t.lower in ("i", "we") or any(
        c.dep == "poss" and c.lower in ("my", "our") for c in sent.children(t.i))) for t in sent.tokens[colon + 1 : end])


_BELIEF = frozenset({"guess", "think", "suppose", "reckon"})


def _heading(sent: Sentence, a: int, b: int) -> bool:
    """Words before a colon that only announce what follows: no verb of their own but a hedge ("couple things for
    my profile i guess:", "quick update:", "boring admin thing before we start:")."""
    heads = [t for t in sent.tokens[a:b] if not a <= t.head < b or t.head == t.i]  # the piece's own head words
    return not any((t.pos in ("VERB", "AUX") or t.tag.startswith("VB")) and t.lemma not in _BELIEF for t in heads)


def _joins_subject(sent: Sentence, t: Token) -> bool:
    """An "and" inside a subject of people ("me and kofi moved in saturday", "my sister and I run …"): the
    other person follows it as a short noun phrase, and the verb they share comes after."""
    if t.lower not in ("and", "&") or t.dep != "cc" or t.i == 0 or sent.tokens[t.i - 1].text == ",":
        return False
    subj = sent.tokens[t.head]
    if _person_then_me(sent, t, subj):
        return True
    if subj.dep not in ("nsubj", "nsubjpass") or subj.pos not in ("PRON", "PROPN", "NOUN") or subj.i > t.i:
        return False
    other = next((c for c in sent.children(subj.i) if c.dep == "conj" and c.i > t.i), None)
    if other is None or other.pos not in ("PRON", "PROPN", "NOUN") or subj.head <= other.i:
        return False
    return all(sent.tokens[i].dep in ("det", "poss", "compound", "amod") for i in range(t.i + 1, other.i))


def rejoin_subjects(sent: Sentence, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Pieces a subject set off by commas was cut from, joined again up to its verb: "the wife | Carol | does all
    the books" -> "the wife, Carol, does all the books"."""
    out: list[tuple[int, int]] = []
    n = 0
    while n < len(spans):
        a, b = spans[n]
        m = n
        subj = next((t for t in sent.tokens[a:b] if t.dep in ("nsubj", "nsubjpass") and t.head >= b), None)
        if subj is not None:
            verb = subj.head
            m = next((k for k in range(n + 1, len(spans)) if spans[k][0] <= verb < spans[k][1]), n)
            between = set(range(b, spans[m][0])) if m > n else set()
            apposed = [i for i in between if sent.tokens[i].pos != "PUNCT"]
            appos = {i for c in sent.children(subj.i) if c.dep == "appos" for i in sent.subtree(c.i)}
            if m > n and (not apposed or not all(i in appos for i in apposed)):
                m = n  # only an apposition of the subject may stand between it and its verb
        out.append((a, spans[m][1]))
        n = m + 1
    return out


def _person_then_me(sent: Sentence, t: Token, person: Token) -> bool:
    """ "…, and my partner Ewan and i have a cat": the parser left the person hanging off the clause before and
    made "i" the subject alone; the person named before "and I/we" is the other half of the subject."""
    if t.i + 1 >= len(sent.tokens) or person.i > t.i or person.dep in ("dobj", "pobj", "iobj", "dative", "attr"):
        return False
    me = sent.tokens[t.i + 1]
    if me.lower not in ("i", "we") or me.dep != "nsubj" or me.head <= me.i or sent.tokens[me.head].pos not in ("VERB", "AUX"):
        return False
    owned = person.pos == "PROPN" or any(c.dep == "poss" and c.lower in ("my", "our") for c in sent.children(person.i))
    return person.pos in ("NOUN", "PROPN") and owned and all(
        sent.tokens[i].dep in ("det", "poss", "compound", "amod", "appos", "flat") for i in range(person.i + 1, t.i))


def orders(sent: Sentence) -> bool:
    """A clause opening with a verb in its bare form, as an order does ("add that I'm a divemaster"), whatever the
    reading made of the subject of what it asks to have said."""
    first = opener(sent)
    return first is not None and first.dep == "ROOT" and first.tag == "VB"


def without_reasons(sent: Sentence) -> str:
    """The clause's words without its first-person reasons ("need a dinner idea, since I went vegetarian" -> "need a
    dinner idea"), trailing commas trimmed."""
    drop: set[int] = set()
    for t in sent.tokens:
        subj = next((c for c in sent.children(t.i) if c.dep in ("nsubj", "nsubjpass")), None)
        if t.dep == "advcl" and subj is not None and subj.lower in ("i", "we") and any(
                c.dep == "mark" and c.lower in lx.REASON_MARKS for c in sent.children(t.i)):
            drop |= set(sent.subtree(t.i))
    words = "".join(t.text + t.space for t in sent.tokens if t.i not in drop)
    return words.strip().rstrip(",;: -").strip()
