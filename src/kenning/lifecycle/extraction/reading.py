"""Reading a clause: who it is about and how it is said, from its own parse.

- ``subject``: ``user`` (I, we, my job…), ``other`` (a named person, a
  relative or a pet: "my sister", "Jo", "he" after "my dad"), ``you`` (the
  other speaker), ``thing`` (it, that, this, there), or ``none`` (an
  imperative or a fragment);
- mood: a question, a request to the assistant;
- modality: a hedge (might, may, could, would, maybe, thinking about,
  hoping to, if…), a negation;
- time: a past event, an ended habit ("used to"), a future plan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kenning.lifecycle.extraction import mood, people
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.clauses import in_relative, lived, opener
from kenning.lifecycle.extraction.lexicon import first_person
from kenning.lifecycle.extraction.parse import Sentence, Token
from kenning.lifecycle.extraction.pieces import bracketed


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a turn as typed (``text``, first person kept) and what its parse says about it."""

    text: str
    subject: str  # user | other | you | thing | none
    subject_text: str = ""
    root: str = ""  # lemma of the main verb (or of the copula's complement)
    negated: bool = False
    hedged: bool = False
    question: bool = False
    request: bool = False
    past: bool = False
    ended: bool = False
    future: bool = False


def read(sent: Sentence, *, others: Sequence[str] = ()) -> Clause:
    """What one parsed clause says; ``others`` are third parties named earlier (for he/she/they)."""
    toks = sent.tokens
    text = sent.text
    root = next((t for t in toks if t.dep == "ROOT"), toks[0])
    subj = _subject(sent, root)
    subject, subject_text = _who(sent, subj, others)
    # "two kids who'd be gutted to leave": a modal inside a relative clause hedges the noun's clause, not the speaker's
    aux = {c.lemma for c in toks if (c.dep in ("aux", "auxpass") or (c.pos == "AUX" and c.i < root.i)) and not in_relative(toks, c)}
    words = {t.lower for t in toks}
    lemmas = {t.lemma for t in toks}
    question = text.rstrip().endswith("?") or _inverted(toks) or mood.asks_how(sent)
    request = _request(toks, root, subj, question)
    negated = any(t.dep == "neg" or t.lower in lx.NEGATORS for t in toks)
    hedged = _hedged(sent, root, aux, words, lemmas) and not mood.asks_how(sent)  # "how often should I…" asks, it hedges nothing
    ended = "used" in words and any(t.lower == "used" and t.i + 1 < len(toks) and toks[t.i + 1].lower == "to" for t in toks)
    future = bool(aux & {"will", "shall"}) or (root.lemma == "go" and any(c.dep == "xcomp" for c in sent.children(root.i)) and root.tag == "VBG") or (
        _coming(sent, root) and not words & lx.HABITUAL)
    got = root.lower == "got" and ("have" in aux or _had(sent, root))  # "I've got two kids": having, not a past event
    past = not ended and not got and (root.tag == "VBD" or "did" in words or ("have" in aux and root.tag == "VBN" and root.lower != "got") or (_past_passive(toks, root) and not toks[0].lower.startswith("i")))
    if root.lemma == "be" and root.tag == "VBD":
        past = True
    return Clause(text, subject, subject_text, root.lemma, negated, hedged, question, request, past, ended, future)


def _had(sent: Sentence, root: Token) -> bool:
    """ "got a little girl called poppy", "got 3 kids": chat's "I've got", a name or a count for what is had, and
    no time said of getting it ("got a puppy last week" is an event)."""
    kids = sent.children(root.i)
    if any(c.dep in ("npadvmod", "advmod", "prep") and (c.ent in ("DATE", "TIME") or c.lower in ("yesterday", "today", "ago", "just")) for c in kids):
        return False
    obj = next((c for c in kids if c.dep == "dobj" and c.pos == "NOUN"), None)
    return obj is not None and any(
        (c.dep == "acl" and c.lemma in ("call", "name")) or c.dep == "nummod" for c in sent.children(obj.i))


def _subject(sent: Sentence, root: Token) -> Token | None:
    for c in sent.children(root.i):
        if c.dep == "expl" and c.i > root.i and root.tag == "VBN":
            continue  # "been there 10 years": a place after a participle, the "I" left out
        if c.dep in ("nsubj", "nsubjpass", "expl"):
            return c
    # a misattached subject ("he loves/AUX fishing/ROOT"): the first subject anywhere, but not a relative
    # pronoun ("sold the Fiesta to a student who seemed thrilled": "who" is no subject of "sold"), nor one in
    # brackets ("got type 2 diabetes last year (doc caught it …)": the aside has a subject of its own)
    aside = bracketed(sent)
    return next((t for t in sent.tokens if t.dep in ("nsubj", "nsubjpass") and t.tag not in ("WP", "WDT") and not _subordinate(sent, t.head)
                 and t.i not in aside), None)


def _subordinate(sent: Sentence, verb: int) -> bool:
    """A relative clause ("anything you draft for me") or one that says when or which ("when the weather plays
    ball"): its subject is never the sentence's."""
    head = sent.tokens[verb]
    return head.dep == "relcl" or (head.dep in ("advcl", "acl") and any(c.dep == "mark" or c.tag in ("WRB", "WDT", "WP") for c in sent.children(verb)))


# what happens to a thing, never to a person: a name with "the" before it as their subject is a thing ("the Yamaha")
_GONE = lx.PARTING_VERBS | {"write", "steal", "crash", "total", "repossess", "tow"}


def _who(sent: Sentence, subj: Token | None, others: Sequence[str]) -> tuple[str, str]:
    if subj is None:
        first = sent.tokens[0]
        if first.lower in lx.FIRST_PERSON_STARTS:  # "im trying", "i'd love" when the tagger missed it
            return "user", first.text
        return "none", ""
    low = subj.lower
    span = " ".join(sent.tokens[i].text for i in sent.subtree(subj.i))
    me = ("i", "we", "me", "myself", "ourselves", "im", "i'm", "ive")
    if low in me or any(c.dep == "conj" and c.lower in me for c in sent.children(subj.i)):
        # "my sister and I", "Margaret and I": a shared subject with another person is still the user's claim
        return "user", span
    if low in ("you", "u", "ya", "y'all", "yall"):
        return "you", span
    if low in ("it", "that", "this", "there", "which", "what", "everything", "nothing", "something", "anything"):
        return "thing", span
    poss = [c for c in sent.children(subj.i) if c.dep == "poss"]
    if poss and poss[0].lower in ("my", "our"):
        if subj.lemma in lx.PERSON_NOUNS or subj.lower in lx.PERSON_NOUNS:
            return "other", span
        return "user", span  # "my job is …", "my flight leaves at 6": the user's own attribute
    if poss and poss[0].lower in ("your", "ur"):
        return "you", span
    if low in ("he", "she", "they", "him", "her", "them"):
        return ("other", others[-1]) if others else ("other", span)
    the = any(c.dep == "det" and c.lower == "the" for c in sent.children(subj.i))
    if subj.pos == "PROPN" and the and subj.ent != "PERSON" and sent.tokens[subj.head].lemma in _GONE:
        return "user", span  # "the Yamaha is sold": a thing the user had (theirs, as "the trip was called off"), not a person
    if subj.pos == "PROPN" or subj.ent == "PERSON" or subj.lemma in lx.PERSON_NOUNS or _named_by_age(sent, subj) or people.died(sent):
        return "other", span
    if not sent.children(subj.i) and any(o.split()[-1].lower() == low for o in others if o[:1].isupper() or " " in o):
        return "other", span  # "My son Kacper is 15. Kacper plays football": a name the turn introduced, read as a noun
    if not sent.children(subj.i) and people.lowercase_name(subj.text) and sent.tokens[subj.head].pos in ("VERB", "AUX"):
        return "other", span  # "layla does piano on thursdays": a name typed without its capital
    bare = subj.tag == "NN" and min(sent.subtree(subj.i)) == 0 and not any(  # "car is gone", "day job is sound engineering"
        sent.tokens[i].dep in ("det", "poss") for i in range(subj.i)) and not any(c.dep in ("det", "poss") for c in sent.children(subj.i))
    if (bare or any(c.dep == "det" and c.lower == "the" for c in sent.children(subj.i))) and subj.lemma in lx.OWN_NOUNS:
        return "user", span  # "the shellfish allergy is severe now": a known attribute of the user's
    if bare and subj.lemma not in ("thing", "point") and any(c.dep == "amod" and c.lower in lx.OWN_MARKS for c in sent.children(subj.i)):
        return "user", span  # "main game is valorant", "fave food is sushi": a choice of the speaker's own
    verb = sent.tokens[subj.head]
    if subj.dep == "nsubjpass" and subj.pos == "NOUN" and verb.lemma in lx.SCHEDULE_VERBS and any(
            c.dep == "det" and c.lower == "the" for c in sent.children(subj.i)):
        return "user", span  # "the scope got pushed back to the 19th": something on the user's calendar moved
    return "thing", span


def _named_by_age(sent: Sentence, subj: Token) -> bool:
    """ "Aoife is 9": a capitalised bare noun the tagger did not know, whose age is given, is someone's name
    (a thing's figure has its article or owner: "the rent is 900", "my car is 12")."""
    verb = sent.tokens[subj.head]
    return subj.text[:1].isupper() and subj.tag == "NN" and not sent.children(subj.i) and verb.lemma == "be" and any(
        c.dep == "attr" and c.pos == "NUM" and re.fullmatch(r"\d{1,2}", c.text) for c in sent.children(verb.i))


def _inverted(toks: Sequence[Token]) -> bool:
    """ "can you…", "do you…", "is it…", "what time…": a question without its question mark."""
    first = next((t for t in toks if t.lower not in lx.CLAUSE_ADVERBS and t.pos != "INTJ"), None)
    if first is None:
        return False
    if first.tag in ("WDT", "WP", "WP$", "WRB") and first.i + 1 < len(toks) and toks[first.i + 1].pos in ("AUX", "VERB", "NOUN", "ADJ", "ADV"):
        return True
    if first.pos == "AUX" and first.tag not in ("VBN", "VBG") and first.i + 1 < len(toks) and toks[first.i + 1].dep in ("nsubj", "expl"):
        return True
    return False


def _request(toks: Sequence[Token], root: Token, subj: Token | None, question: bool) -> bool:
    words = [t.lower for t in toks]
    if "please" in words or "pls" in words or "plz" in words:
        return True
    if subj is not None and subj.lower in ("you", "u") and any(t.lemma in ("can", "could", "would", "will") for t in toks[: subj.i]):
        return True
    if subj is None and root.tag == "VB" and root.i == next((t.i for t in toks if t.lower not in lx.CLAUSE_ADVERBS and t.pos != "INTJ"), 0):
        # an imperative: "book me a table", "remind me on Friday"; not "drive a corsa", nor a habit with its time
        # and no one it is for ("also play 5-a-side every thursday night": the "I" left out)
        if _PAST_TIME.search(" ".join(t.lower for t in toks)):
            return False  # "quit the bar last week!!!": a past act, its "I" left out; an order is never in the past
        return not (lived(toks) or (recurring(toks) and not any(
            (t.lower in _FOR_SOMEONE or t.lower in lx.SECOND_PERSON) and not in_relative(toks, t) for t in toks)))
    if root.lemma in ("need", "want") and any(t.lower in ("you", "u") for t in toks[root.i + 1 : root.i + 3]):
        return True  # "I need you to …"
    return False  # "do you ever get tired of questions?" asks about the assistant; it requests nothing


_PAST_TIME = re.compile(r"\b(?:yesterday|ago|last\s+(?:week|month|year|night|weekend|summer|winter|spring|autumn|fall|\w+day))\b")
_FOR_SOMEONE = frozenset({"me", "myself", "us", "please", "pls", "plz"})


def recurring(toks: Sequence[Token]) -> bool:
    """A time that repeats: "every February", "each Sunday night", "every morning", "on mondays", "4 times a week",
    "twice a month"."""
    if any(t.lower in ("every", "each") and t.head != t.i and toks[t.head].pos in ("NOUN", "PROPN") for t in toks):
        return True
    if any(t.tag in ("NNS", "NNPS") and t.lemma in lx.TIME_NOUNS for t in toks):
        return True  # "tuesday and thursday evenings", "on mondays", "weekends": a day or time said in the plural
    words = [t.lower for t in toks]
    for n, w in enumerate(words):
        counted = w in ("once", "twice", "thrice") or (w in ("times", "x") and n > 0 and toks[n - 1].pos == "NUM")
        if counted and n + 2 < len(words) and words[n + 1] in ("a", "per", "an") and words[n + 2] in _PERIODS:
            return True
    return False


_PERIODS = frozenset("day week month year fortnight night morning evening weekend term season".split())


def _hedged(sent: Sentence, root: Token, aux: set[str], words: set[str], lemmas: set[str]) -> bool:
    if aux & lx.HEDGE_MODALS:
        return True
    if "rather" in words or "prefer" in lemmas:
        return False  # "I'd rather have meetings after lunch": a preference, not a maybe
    if aux & {"would"} and not (root.lemma in lx.WANT_VERBS and not any(c.dep == "xcomp" for c in sent.children(root.i))):
        return True  # "I'd buy a boat", "I would love to see Japan"; but "I'd like a window seat" is a preference
    if words & lx.HEDGE_WORDS or any(p in sent.text.lower() for p in lx.HEDGE_PHRASES):
        return True
    if root.lemma in lx.HEDGE_VERBS or _inflected(root.lower) & lx.HEDGE_VERBS:
        return True  # "thinking about getting a dog", "hoping to move", "considering a masters"
    if "either" in words and "or" in words and root.tag not in ("VBP", "VBZ", "VBD"):
        return True  # "looking at either the YHA or an airbnb": not chosen yet ("I either walk or cycle" is a habit)
    if root.lemma == "decide" and any(t.dep == "neg" for t in sent.children(root.i)):
        return True  # "still haven't decided about clydesdale"
    if any(t.dep == "mark" and t.lower in ("if", "unless") and not _yours(sent, t.head) and not mood.for_others(sent, t.head)
           and not rule_for_you(sent, t.head) and not mood.always_so(sent, t.head) for t in sent.tokens):
        return True
    return False


def rule_for_you(sent: Sentence, verb: int) -> bool:
    """ "if you ever help with anything numbers-y, don't dumb it down": a condition on the listener's own doing,
    with an order after it, is a rule like "whenever you …", not a maybe."""
    kids = sent.children(verb)
    if not any(c.dep in ("nsubj", "nsubjpass") and c.lower in lx.SECOND_PERSON for c in kids):
        return False
    order = sent.tokens[sent.tokens[verb].head]
    return order.i != verb and order.tag == "VB" and not any(c.dep in ("nsubj", "nsubjpass", "aux") and c.lower not in ("do", "don't", "dont", "n't", "not") for c in sent.children(order.i))


def _yours(sent: Sentence, verb: int) -> bool:
    """A condition on the other speaker needing what was just said ("my number is … if you need it", "if u want
    it"): it hedges nothing the speaker says of themselves ("if you need help I'm in" is an offer)."""
    kids = sent.children(verb)
    return sent.tokens[verb].lemma in lx.WANT_VERBS | {"need"} and any(c.dep == "nsubj" and c.lower in lx.SECOND_PERSON for c in kids) and any(
        c.dep == "dobj" and c.lower in ("it", "them", "that", "this") for c in kids)


def _inflected(word: str) -> set[str]:
    """The base forms ``word`` may inflect, whatever the lemmatiser said ("hoping" is lemmatised "hop")."""
    out = {word}
    for end, back in (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", "")):
        if word.endswith(end) and len(word) > len(end) + 2:
            out.add(word[: -len(end)] + back)
    return out


def _past_passive(toks: tuple[Token, ...] | list[Token], root: Token) -> bool:
    """A participle after a past "be" ("the car was stolen"): an event; after a present one ("Andrei and I are
    finished", "the windows are cleaned weekly") a state or a habit."""
    if root.tag != "VBN":
        return False
    be = [t for t in toks if t.dep in ("aux", "auxpass") and t.lemma == "be"]
    return bool(be) and not all(t.tag in ("VBP", "VBZ") for t in be)


_ONE_DAY = frozenset("monday tuesday wednesday thursday friday saturday sunday tomorrow tonight".split())


def _coming(sent: Sentence, root: Token) -> bool:
    """Something under way for one coming day: "going Newcastle for coal on friday", "have a group from Hamburg
    arriving friday" (a progressive with a single day, not "fridays" or "every friday")."""
    progressive = root.tag == "VBG" or any(t.tag == "VBG" and t.dep in ("acl", "xcomp", "ccomp") for t in sent.tokens)
    return progressive and any(t.lower in _ONE_DAY or (t.lower == "next" and t.dep == "amod") for t in sent.tokens)


def declarative(sent: Sentence) -> bool:
    """A statement with a question mark ("I think I might be lactose intolerant??"): no question word
    and no auxiliary before its subject. Said so, it is a guess, not a question to the assistant."""
    first = opener(sent)
    if first is None or first.tag in ("WDT", "WP", "WP$", "WRB") or first.pos == "AUX" or first.tag == "MD":
        return False
    return first_person(sent.text) and any(t.dep in ("nsubj", "nsubjpass") for t in sent.tokens)


def alternative(sent: Sentence) -> bool:
    """A clause offered as the other option to the one before ("or just repaint the flat")."""
    first = next((t for t in sent.tokens if t.pos != "PUNCT"), None)
    return first is not None and first.lower in ("or", "otherwise")
