"""Notes about the speaker, said in full before they are read as clauses.

Three shapes: a self-introduction written as a list ("priya, 34, midwife at the royal gwent" -> "My name is
priya. I'm 34. I'm a midwife at the royal gwent.", ``introduction``); sentences that are terse notes ("chef.
nights. 2 kids. Leicester.", ``terse``); and one sentence of notes between commas ("self employed plumber
in barnsley, drive a transit, lad's 17 an helps on saturdays", "im jess, 38, paramedic in hobart, mum of
one", ``read``). The small parser reads such a run as one clause with odd attachments, so its pieces would
end up in one claim. Read as notes, each piece is said in full with the speaker as its subject: a piece with
no verb is what the speaker is ("I'm a paramedic in hobart", "I'm 38"), a piece opening with a bare verb is
what the speaker does ("I drive a transit"), and a piece with its own subject and verb stays as it is.
"""

from __future__ import annotations

import re

from kenning.lifecycle import slots
from kenning.lifecycle.extraction import corrections
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token, known_modifier_or_verb
from kenning.text import STOPWORDS

_VERB_WORDS = re.compile(r"(?i)\b(?:am|is|are|was|were|be|been|have|has|had|do|does|did|'m|'s|'re|'ve)\b")
_ARTICLE = re.compile(r"(?i)^(?:a|an|the|my)\s")


def _top_level_commas(sentence: str) -> list[str]:
    """``sentence`` cut at the commas outside brackets, each piece stripped of spaces and a final stop."""
    pieces, depth, start = [], 0, 0
    for i, ch in enumerate(sentence):
        depth += ch == "("
        depth -= ch == ")" and depth > 0
        if ch == "," and depth == 0:
            pieces.append(sentence[start:i])
            start = i + 1
    pieces.append(sentence[start:])
    return [p.strip().rstrip(".!").strip() for p in pieces]


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: "a joiner", "an optician"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def is_job(words: list[str]) -> bool:
    """Whether one of the first words names a job: a known occupation, or a word of a job's shape that is no function
    word or adverb ("for", "after", "never" end like "tutor" and "baker")."""
    return any(re.fullmatch(slots.OCCUPATIONS, w.lower()) or (
        re.fullmatch(slots.JOB, w.lower()) and w.lower() not in STOPWORDS | _FUNCTION and not known_modifier_or_verb(w.lower())) for w in words[:3])


_FUNCTION = frozenset({"nor", "per", "whether"})  # job-shaped words the stopword list lacks


def introduction(sentence: str) -> list[str] | None:
    """The sentences of a self-introduction written as a list, or None when ``sentence`` is none.

    The shape: pieces between commas, one of them an age (a bare number from 13 to 99), none holding a verb
    form of "be", "have" or "do": "priya, 34, midwife at the royal gwent in newport", "plasterer, 42, self
    employed out of stockport", "dev, 29, backend eng at a fintech". A number is the age ("I'm 34."); a
    word alone before the age is the user's name, unless it names a job; a piece naming a job is what the user
    is ("I'm a midwife at …"); any other piece is said of the user as it is ("I'm self employed out of …").
    """
    pieces = [p for p in _top_level_commas(sentence) if p]
    if len(pieces) < 2 or len(pieces) > 6 or not any(lx.AGE.fullmatch(p) for p in pieces):
        return None
    if any(_VERB_WORDS.search(p) or len(p.split()) > 9 for p in pieces):
        return None
    out = []
    for i, piece in enumerate(pieces):
        words = piece.split()
        if lx.AGE.fullmatch(piece):
            out.append(f"I'm {piece}.")
        elif i == 0 and len(words) == 2 and words[1].lower() == "here" and words[0].isalpha():
            named = words[0][:1].isupper() and not lx.JOB_WORD.fullmatch(words[0])  # "Peter here", "farrier here"
            out.append(f"My name is {words[0]}." if named else f"I'm {_a(words[0])}.")
        elif i == 0 and len(words) == 1 and words[0].isalpha() and not is_job(words):
            if words[0].lower() not in lx.FIRST_PERSON_STARTS | lx.FILLER_WORDS:  # "me, 45, …": no name
                out.append(f"My name is {words[0]}.")
        elif is_job(words) and not _ARTICLE.match(piece):
            out.append(f"I'm {_a(piece)}.")
        elif words[0].lower() not in lx.FILLER_WORDS:
            out.append(f"I'm {piece}.")
    return out


_NAMED_LIST = re.compile(r"(?i)^(?:I'm|I\s+am)\s+(?P<name>[a-z][a-z'-]+),\s+(?P<rest>.+?)[.!]?$")
_FROM = re.compile(r"(?i)^(?:(?:originally|born\s+and\s+raised|born)\s+)?(?:from|in)\s+\S")


def named_list(piece: str) -> list[str] | None:
    """A name given, then what the speaker is, as a list: "I'm clementine, sommelier at the Balmoral, originally
    from Lyon" -> "My name is clementine." "I'm a sommelier at the Balmoral." "I'm originally from Lyon."; None
    unless every piece after the name is a job or where the speaker is from, with no verb, and the name is no
    word of manner or feeling ("I'm knackered, nurse at …")."""
    m = _NAMED_LIST.match(piece.strip())
    if m is None or m.group("name").lower() in lx.FEELINGS | lx.FILLER_WORDS or known_modifier_or_verb(m.group("name")):
        return None
    rest = [p for p in _top_level_commas(m.group("rest")) if p]
    if not rest or len(rest) > 4 or any(_VERB_WORDS.search(p) or len(p.split()) > 9 for p in rest):
        return None
    said = []
    for p in rest:
        if is_job(p.split()) and not _ARTICLE.match(p):
            said.append(f"I'm {_a(p)}.")
        elif _FROM.match(p):
            said.append(f"I'm {p}.")
        else:
            return None
    return [f"My name is {m.group('name')}.", *said]


_COUNTED = re.compile(rf"(?i)(?:\d+|{corrections.WORD_NUMBERS})\s+[a-z]+s")
_HERE = re.compile(r"(?i)^([a-z][\w-]*)\s+here$")
_CALLED = re.compile(r"^(?:an?\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:called|named)\s+[A-Z][\w'-]*(?:\s*\(\d+\))?$")
_SPANS = frozenset("second min minute hr hour day night week weekend month yr year decade time".split())


def terse(sents: list[Sentence]) -> dict[int, str]:
    """Sentences of a turn written as terse notes about the speaker, said in full: "chef. nights. 2 kids.
    Leicester." or "otieno here. mechanic at a matatu garage in Kariobangi. 41. wife Akinyi, 3 boys."

    The shape: two or more sentences with no verb, one of them naming a job or an age (or one such sentence
    naming both). Each note is read as
    a piece of a self-introduction (``introduction``): an age, a job, a count of people or things ("I have 3
    boys"), a relative with a name ("My wife is Akinyi"), a name ("otieno here"); any other note (a place, a
    shift, "no pork") is left as written. Returns the replaced sentences by index; empty when the turn has
    no such shape."""
    notes = [n for n, s in enumerate(sents) if _verbless(s)]
    said = {n: [p for p in _top_level_commas(sents[n].text) if p] for n in notes}
    # a count of people or things that opens a verbless sentence is had, whatever else the turn says:
    # "two kids, alfie (6) and rosa (3)" -> "I have two kids, alfie (6) and rosa (3)."
    counted = {n: f"I have {sents[n].text.rstrip(' .!')}." for n in notes
               if said[n] and _COUNTED.fullmatch(said[n][0]) and sents[n].tokens[0].pos == "NUM"
               and said[n][0].split()[-1].lower().rstrip("s") not in _SPANS}  # "two weeks." is no possession
    # one note holding both an age and a job is shape enough: "- 38, tax manager at a family office"
    both = any(any(lx.AGE.fullmatch(p) for p in ps) and any(_job_note(p.split()) for p in ps) for ps in said.values())
    if len(notes) < 2 and not both:
        return counted
    if not any(lx.AGE.fullmatch(p) or _job_note(p.split()) for ps in said.values() for p in ps):
        return counted
    out, stated = {}, 0
    for n in notes:
        # a word the parser calls a place, a name or a modifier is no job and no name: "Leicester.", "late here"
        other = {t.lower for t in sents[n].tokens if t.ent in ("GPE", "LOC", "FAC", "ORG", "PERSON", "NORP") or t.pos in ("ADJ", "ADV")}
        full = [(note(p) if not other & {w.lower() for w in p.split()[:1]} or _held_job(p.split()) else None) or _home(sents[n], p)
                for p in said[n]]
        if any(full):
            out[n] = " ".join(f or f"{p}." for f, p in zip(full, said[n]))
            stated += len(said[n])  # every note of a sentence said in full counts, as written or not
    return out if len(notes) >= 2 or stated >= 2 else counted  # two notes, or one holding two things said in full


def _job_note(words: list[str]) -> bool:
    """A note naming a job from the closed list ("chef", "mechanic at a matatu garage"): a word merely shaped
    like one ("lekker", "october", "coriander") is not enough in a note, unless it is held at or for a place
    ("sonographer at Ninewells")."""
    return any(lx.JOB_WORD.fullmatch(w) for w in words[:3]) or _held_job(words)


def _held_job(words: list[str]) -> bool:
    """A note opening with a word shaped like a job held at or for somewhere: "sonographer at Ninewells"."""
    return len(words) >= 3 and words[1].lower() in ("at", "for") and bool(re.fullmatch(slots.JOB, words[0].lower()))


def _home(sent: Sentence, piece: str) -> str | None:
    """A note that is a place's name and nothing else, in notes about the speaker ("chef. nights. Leicester.",
    "sonographer at Ninewells / Broughty Ferry"): where the speaker lives."""
    words = [t for t in sent.tokens if t.pos not in ("PUNCT", "SYM")]
    if piece != sent.text.strip().rstrip(".!").strip() or not 0 < len(words) <= 3 or not all(t.text.isalpha() for t in words):
        return None
    if all(t.ent in ("GPE", "LOC") for t in words) or (all(t.pos == "PROPN" and t.text[:1].isupper() for t in words)
                                                      and not any(t.ent in ("PERSON", "ORG", "NORP") for t in words)):
        return f"I live in {piece}."
    return None


def _verbless(s: Sentence) -> bool:
    words = [t for t in s.tokens if t.pos not in ("PUNCT", "SYM")]
    return 0 < len(words) <= 12 and not any(t.pos in ("VERB", "AUX") and t.tag != "VBN" for t in words) and not s.text.rstrip().endswith("?")


_NOT_NAMES = frozenset("same me us all everyone everybody nobody someone somebody something nothing it that this you we they he she "
                       "there still just also not over out back in up down around right new hot cold raining sunny quiet busy lovely "
                       "nice fine ok okay good great bad life things stuff anyone".split())


def named_here(piece: str) -> str | None:
    """A clause that is only "<name> here" ("chloe here", "hey, rafael here"): who is speaking, "My name is
    Chloe."; a trade said so is the user's trade ("glazier here"); "same here", "everyone here" are no one."""
    here = _HERE.match(re.sub(r"(?i)^(?:hi+|hey+|hiya|hello|heya|yo|evening|morning|afternoon)\W+", "", piece.strip(" .!")))
    if here is None or here.group(1).lower() in _NOT_NAMES | lx.FIRST_PERSON_STARTS | lx.FILLER_WORDS:
        return None
    word = here.group(1)
    if lx.JOB_WORD.fullmatch(word.lower()):
        return f"I'm {_a(word)}."
    return f"My name is {word[:1].upper()}{word[1:]}."


def note(piece: str) -> str | None:
    words = piece.split()
    if lx.AGE.fullmatch(piece):
        return f"I'm {piece}."
    if _job_note(words) and not _ARTICLE.match(piece) and len(words) <= 10:
        return f"I'm {_a(piece)}."
    if _COUNTED.fullmatch(piece):
        return f"I have {piece}."
    if _CALLED.match(piece):  # "cavapoo called Toffee (2)": a pet or a thing of the speaker's, by its name
        return f"I have {piece if _ARTICLE.match(piece) else _a(piece)}."
    if len(words) == 2 and words[0].lower() in lx.PERSON_NOUNS and words[1][:1].isupper():
        return f"My {words[0]} is {words[1]}."
    here = _HERE.match(piece)
    if here and here.group(1).lower() not in lx.FIRST_PERSON_STARTS | lx.FILLER_WORDS:
        return f"My name is {here.group(1)}."
    return None


MAX_WORDS = 12  # a note is short; a longer piece is prose, and the sentence is read as it is
_OPENERS = frozenset({"and", "an", "n", "&", "plus", "also"})


def pieces(sent: Sentence) -> list[list[Token]]:
    """The sentence's tokens between its commas and semicolons outside brackets, separators dropped; a piece
    ending in a colon ("so context:") is a heading, not a note."""
    out: list[list[Token]] = [[]]
    depth = 0
    for t in sent.tokens:
        depth += t.text == "("
        depth -= t.text == ")" and depth > 0
        if t.text in (",", ";", ".", "!") and depth == 0:
            out.append([])
        elif t.text == ":" and depth == 0:
            out[-1] = []
        else:
            out[-1].append(t)
    return [p for p in out if any(t.pos != "PUNCT" for t in p)]


def _content(piece: list[Token]) -> list[Token]:
    """The piece without the fillers and conjunctions it opens with."""
    i = 0
    while i < len(piece) - 1 and (piece[i].lower in _OPENERS or piece[i].lower in lx.FILLER_WORDS or piece[i].pos == "INTJ"):
        i += 1
    return piece[i:]


def _has_subject(piece: list[Token]) -> bool:
    inside = {t.i for t in piece}
    return any(t.dep in ("nsubj", "nsubjpass", "expl") and t.head in inside and t.head != t.i for t in piece)


def _kind(piece: list[Token]) -> str:
    """ "clause" (its own subject and verb), "verb" (opens with a bare verb), "note" (no verb) or "other" (a
    verb with no subject, not opening the piece: left as it is)."""
    words = _content(piece)
    if len(words) > MAX_WORDS:
        return "other"
    verbs = [t for t in words if t.pos in ("VERB", "AUX") and t.tag not in ("VBN", "VBG")]
    if _has_subject(words) and verbs:
        return "clause"
    if words[0].lower in ("i", "we") and len(words) > 1:
        return "clause"  # "I coach hockey": a verb the tagger took for a noun ("coach"), still the speaker's clause
    if words[0].tag in ("VB", "VBP") and words[0].pos == "VERB" and words[0].lower not in lx.NOT_PREDICATES:
        return "verb"
    if len(words) > 1 and words[0].lower in lx.LIFE_VERBS - lx.LIKING_VERBS and (
            words[1].lemma in lx.TIME_NOUNS or (words[1].pos == "ADP" and words[1].lower != "of")):
        return "verb"  # "work nights as an ICU nurse", "drive for uber": the tagger's noun is the speaker's verb
    if _strong(piece) and all(t.tag in ("VBN", "VBD") and t.i < words[-1].i for t in verbs):
        return "note"  # "self employed plumber in barnsley": a job, its participle read as a verb
    return "note" if not verbs else "other"


def _listed(sent: Sentence, piece: list[Token]) -> bool:
    """A piece that is one more item of a list in the piece before it: "pizza, pasta, and sushi"."""
    inside = {t.i for t in piece}
    root = next((t for t in piece if t.head not in inside or t.head == t.i), None)
    if root is None or root.dep != "conj":
        return False
    head = sent.tokens[root.head]
    return head.dep in ("dobj", "pobj", "conj", "nsubj") and head.pos in ("NOUN", "PROPN", "PRON")


def _strong(piece: list[Token]) -> bool:
    """A note that can only be about who the speaker is: an age ("38", "61 years old") or a job ("paramedic in
    hobart", "self employed plumber")."""
    tokens = [t for t in _content(piece) if t.pos != "PUNCT"]
    words = [t.text for t in tokens]
    if len(words) == 1 and lx.AGE.fullmatch(words[0]):
        return True
    if len(words) >= 3 and lx.AGE.fullmatch(words[0]) and words[1].lower() in ("years", "yrs", "yo") and words[2].lower() == "old":
        return True
    if len(words) >= 3 and lx.AGE.fullmatch(words[0]) and words[1].lower() == "from":
        return True  # "16 from stockport": an age and where from
    if any(t.dep == "poss" or t.lower in ("the", "his", "her", "their") for t in piece):
        return False  # "my manager Priscilla": someone else's job
    return _job_note(words) or any(_shaped_job(tokens, n) for n in range(min(3, len(tokens))))


def _after_be(piece: list[Token]) -> list[Token]:
    """What "I'm …" says the speaker is: "I'm a locksmith in cardiff" -> "a locksmith in cardiff"."""
    at = next((t for t in piece if _is_be(t)), None)
    return [t for t in piece if at is not None and t.i > at.i]


def _is_be(tok: Token) -> bool:
    """ "be", or the "m" the tokeniser cuts from "im" (its lemma left as "m")."""
    return tok.lemma == "be" or tok.lower in ("m", "'m")


def _shaped_job(tokens: list[Token], n: int) -> bool:
    """A noun shaped like a job ("joiner", "radiographer", "sommelier") followed by where it is done: "joiner in
    wigan", "sommelier at a hotel" (alone, "lekker" or "banger" is no job)."""
    t = tokens[n]
    after = tokens[n + 1].lower if n + 1 < len(tokens) else ""
    before = tokens[n - 1] if n else None
    if before is not None and before.pos == "ADP":
        return False  # "maybe at christ in bangalore": a place, however it ends
    return t.pos in ("NOUN", "PROPN") and bool(re.fullmatch(slots.JOB, t.lower)) and after in ("in", "at", "for", "from", "on", "here")


def _speaks_to(piece: list[Token]) -> bool:
    """A piece that addresses the other speaker or asks something of them: "tell me a joke", "wait no"."""
    return any(t.lower in ("me", "you", "u", "please", "pls", "no") for t in piece)


def _text(piece: list[Token]) -> str:
    return "".join(t.text + t.space for t in piece).strip()


def _said(piece: list[Token], kind: str) -> str:
    words = _content(piece)
    text = _text(words)
    if kind in ("clause", "other"):
        return f"{text}."
    if kind == "verb":
        return f"I {text}."
    if words[0].tag == "VBG":
        return f"I'm {text}."  # "doing an electrician apprenticeship"
    if len(words) > 1 and words[-1].lower == "here" and words[-2].pos == "NOUN" and _strong(piece):
        return f"I'm {_a(_text(words[:-1]))}."  # "farrier here": who is speaking, by trade
    if (said := note(text)) is not None:
        return said
    if words[-1].tag in ("VBN", "JJ") and all(t.pos in ("NOUN", "ADJ", "VERB", "ADV") for t in words) and len(words) <= 3:
        return f"I'm {text}."  # "self employed", "fully vaccinated": a quality, no article
    if (words[0].pos == "ADP" or (len(words) == 1 and words[0].pos == "ADJ")) and words[0].lower not in lx.FILLER_WORDS:
        return f"I'm {text}."  # "single", "from Kraków", "out of stockport"
    if words[0].lower in ("a", "an"):
        return f"I'm {text}."  # "I'm 41, a teacher"
    head = next((t for t in words if t.pos not in ("ADJ", "NUM", "DET")), words[0])
    if head.tag == "NN" and head.lemma not in lx.TIME_NOUNS and not corrections.shape(head.text) and words[0].pos != "NUM" and any(
            t.pos in ("NOUN", "PROPN") and (re.fullmatch(slots.JOB, t.lower) or t.lemma in lx.PERSON_NOUNS) for t in words):
        return f"I'm {_a(text)}."  # "radiographer in leeds", "self employed joiner", "mum of two"; "route 46A" is no one
    return f"{text}."  # a shift, a count, "no pork": as written


def read(sent: Sentence) -> list[str] | None:
    """The sentences the notes of ``sent`` mean, or None when ``sent`` is no list of notes.

    The shape: two or more pieces between commas; the first piece is a note or "I'm …"; at least one note is an
    age or a job (``_strong``); no note or bare verb is one more item of a list ("I like pizza, pasta"), no
    bare verb is an order ("tell me a joke"), and nothing is said to someone or corrected as it goes; at most
    half the pieces are neither a note, a bare verb nor a clause of their own."""
    parts = pieces(sent)
    if len(parts) < 2 or sent.text.rstrip().endswith("?"):
        return None
    kinds = [_kind(p) for p in parts]
    if kinds[0] == "other" or kinds.count("other") > len(kinds) // 2 or not {"note", "verb"} & set(kinds[1:] if kinds[0] == "clause" else kinds):
        return None
    if any(k in ("note", "verb") and _listed(sent, p) for p, k in zip(parts[1:], kinds[1:])):
        return None
    if any(t.lower in lx.SECOND_PERSON for t in sent.tokens) or any(corrections.is_marker(_text(p[i:])) for p in parts for i in range(len(p))):
        return None  # "and charge nurse, you absolute legend": said to someone; "two cats, sorry, three": corrected
    opening = _content(parts[0])
    if kinds[0] == "clause" and not (opening[0].lower in ("i", "im", "i'm") and any(_is_be(t) for t in opening[:3])):
        return None  # "I go every thursday, …": an ordinary clause goes on; "I'm jess, 38, …" lists
    if not any(k == "note" and _strong(p) for p, k in zip(parts, kinds)) and not (
            kinds[0] == "clause" and "clause" not in kinds[1:] and _strong(_after_be(opening))):
        return None  # "thursday nights", "10 hour shifts": notes on the clause before, not on the speaker
    if any(k == "verb" and (n == 0 or _speaks_to(p)) for n, (p, k) in enumerate(zip(parts, kinds))):
        return None  # "tell me a joke, I need cheering up": an order, not a note
    return [_said(p, k) for p, k in zip(parts, kinds)]
