"""What chat leaves out, put back before a clause is read: the subject ("moved to leeds last month" -> "I moved
…", "not doing bolt anymore" -> "I'm not doing …", "allergic to latex" -> "I'm allergic …"), the owner of a
relative ("wife's still working" -> "my wife's …"), the statement inside a question asked only for effect
("did i tell you we're in Kelowna now?") and the sentences of a self-introduction written as a list
("priya, 34, midwife at the royal gwent" -> "My name is priya. I'm 34. I'm a midwife at the royal gwent.").
"""

from __future__ import annotations

import re

from kenning.lifecycle import slots
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction import corrections, mood
from kenning.lifecycle.extraction.clauses import at_me, opener, restore
from kenning.lifecycle.extraction.parse import Sentence, Token

_ENDED = re.compile(r"(?i)\bany\s?more\b|\bthese\s+days\b|\bnow\b")


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


def _is_job(words: list[str]) -> bool:
    return any(re.fullmatch(slots.JOB, w.lower()) for w in words[:3])


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
        elif i == 0 and len(words) == 1 and words[0].isalpha() and not _is_job(words):
            if words[0].lower() not in lx.FIRST_PERSON_STARTS | lx.FILLER_WORDS:  # "me, 45, …": no name
                out.append(f"My name is {words[0]}.")
        elif _is_job(words) and not _ARTICLE.match(piece):
            out.append(f"I'm {'an' if piece[0].lower() in 'aeiou' else 'a'} {piece}.")
        elif words[0].lower() not in lx.FILLER_WORDS:
            out.append(f"I'm {piece}.")
    return out


_COUNTED = re.compile(rf"(?i)(?:\d+|{corrections.WORD_NUMBERS})\s+[a-z]+s")
_HERE = re.compile(r"(?i)^([a-z][\w-]*)\s+here$")


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
    # one note holding both an age and a job is shape enough: "- 38, tax manager at a family office"
    both = any(any(lx.AGE.fullmatch(p) for p in ps) and any(_job_note(p.split()) for p in ps) for ps in said.values())
    if len(notes) < 2 and not both:
        return {}
    if not any(lx.AGE.fullmatch(p) or _job_note(p.split()) for ps in said.values() for p in ps):
        return {}
    out, stated = {}, 0
    for n in notes:
        # a word the parser calls a place, a name or a modifier is no job and no name: "Leicester.", "late here"
        other = {t.lower for t in sents[n].tokens if t.ent in ("GPE", "LOC", "FAC", "ORG", "PERSON", "NORP") or t.pos in ("ADJ", "ADV")}
        full = [_note(p) if not other & {w.lower() for w in p.split()[:1]} else None for p in said[n]]
        if any(full):
            out[n] = " ".join(f or f"{p}." for f, p in zip(full, said[n]))
            stated += len(said[n])  # every note of a sentence said in full counts, as written or not
    return out if len(notes) >= 2 or stated >= 2 else {}  # two notes, or one holding two things said in full


def _job_note(words: list[str]) -> bool:
    """A note naming a job from the closed list ("chef", "mechanic at a matatu garage"): a word merely shaped
    like one ("lekker", "october", "coriander") is not enough in a note."""
    return any(lx.JOB_WORD.fullmatch(w) for w in words[:3])


def _verbless(s: Sentence) -> bool:
    words = [t for t in s.tokens if t.pos not in ("PUNCT", "SYM")]
    return 0 < len(words) <= 12 and not any(t.pos in ("VERB", "AUX") and t.tag != "VBN" for t in words) and not s.text.rstrip().endswith("?")


def _note(piece: str) -> str | None:
    words = piece.split()
    if lx.AGE.fullmatch(piece):
        return f"I'm {piece}."
    if _job_note(words) and not _ARTICLE.match(piece) and len(words) <= 10:
        return f"I'm {'an' if piece[0].lower() in 'aeiou' else 'a'} {piece}."
    if _COUNTED.fullmatch(piece):
        return f"I have {piece}."
    if len(words) == 2 and words[0].lower() in lx.PERSON_NOUNS and words[1][:1].isupper():
        return f"My {words[0]} is {words[1]}."
    here = _HERE.match(piece)
    if here and here.group(1).lower() not in lx.FIRST_PERSON_STARTS | lx.FILLER_WORDS:
        return f"My name is {here.group(1)}."
    return None


def without_fillers(text: str) -> str:
    """ "yeah set it up" -> "set it up": interjections before a restored subject."""
    words = text.split()
    while words and words[0].lower().strip(",.!") in lx.CLAUSE_ADVERBS and len(words) > 1:
        words.pop(0)
    return " ".join(words)


def as_meant(sent: Sentence, piece: str) -> str | None:
    """The clause as meant, when chat left words out or wrapped it in a question, or None:
    "did i tell you we're in Kelowna now?" -> "we're in Kelowna now"; "wife's still working" -> "my wife's still
    working"; "not doing bolt anymore" -> "I'm not doing bolt anymore"."""
    inner = mood.told(sent)
    if inner:
        return inner
    the = _household(sent)
    if the is not None:  # "the daughter's getting married": the speaker's own daughter
        at = sent.offset(the.i)
        return f"{piece[:at]}my{piece[at + 3:]}" if piece[at : at + 3].lower() == "the" else None
    kin = _bare_relative(sent)
    if kin is not None:
        at = sent.offset(kin.i)
        return f"{piece[:at]}my {piece[at:]}" if piece[at : at + len(kin.text)] == kin.text else None
    if _left_state(sent) or _bare_quality(sent):
        return f"I'm {without_fillers(piece)}"
    when = _bare_time(sent)
    if when is not None:  # "weekends play badminton": when, with the "I" left out
        at = sent.offset(when.i + 1)
        return f"{piece[:at]}I {piece[at:]}" if piece[at - len(when.text) - len(when.space) : at].strip() == when.text else None
    return None


def _bare_time(sent: Sentence) -> Token | None:
    """A time of the week or day said bare, as the subject of a verb other than "be", opening the clause:
    "weekends play badminton", "mornings walk the dog" (not "weekends are busy")."""
    first = opener(sent)
    if first is None or first.dep != "nsubj" or first.tag != "NNS" or first.lemma not in lx.TIME_NOUNS or sent.children(first.i):
        return None
    return first if sent.tokens[first.head].pos == "VERB" and sent.tokens[first.head].lemma != "be" else None


def _bare_quality(sent: Sentence) -> bool:
    """A clause that is an adjective and what it is about, nothing before it: "allergic to latex", "scared of
    heights", "married to a kiwi" (a quality of the speaker's, the subject left out)."""
    first = opener(sent)
    state = first is not None and first.tag == "VBN" and first.lower in lx.STATE_PARTICIPLES  # "obsessed w matcha"
    if first is None or (first.pos != "ADJ" and not state) or first.dep != "ROOT" or first.lower in lx.FEELINGS:
        return False
    return first.i == next((t.i for t in sent.tokens if t.pos not in ("PUNCT", "INTJ")), -1) and any(
        c.dep == "prep" for c in sent.children(first.i))


def _bare_relative(sent: Sentence) -> Token | None:
    """The subject of a clause when it is a relative or someone in the user's life named by a bare noun, with
    no article or owner, opening the clause: "wife's still working", "mama is flying in from iloilo"."""
    first = opener(sent)
    if first is None or first.dep not in ("nsubj", "nsubjpass") or first.pos not in ("NOUN", "PROPN"):
        return None
    if first.lower not in lx.PERSON_NOUNS and first.lemma not in lx.PERSON_NOUNS | lx.KIN_NAMES:
        return None
    return None if any(c.dep in ("det", "poss", "compound", "amod") for c in sent.children(first.i)) else first


def _household(sent: Sentence) -> Token | None:
    """The "the" of a clause opening with a member of the speaker's household as its subject: "the wife does
    the books", "the kids love it"."""
    first = opener(sent)
    if first is None or first.lower != "the" or first.head == first.i:
        return None
    noun = sent.tokens[first.head]
    return first if noun.dep in ("nsubj", "nsubjpass") and noun.lower in lx.HOUSEHOLD else None


def _left_state(sent: Sentence) -> bool:
    """A clause opening with "not" and a verb in -ing, a place or a quality, that it says is over:
    "not doing the food bank saturdays anymore", "not on twitch any more"."""
    first = opener(sent)
    if first is None or first.lower != "not" or first.i + 1 >= len(sent.tokens):
        return False
    after = sent.tokens[first.i + 1]
    return (after.tag == "VBG" or after.pos in ("ADP", "ADJ")) and bool(_ENDED.search(sent.text))


def dropped_subject(sent: Sentence) -> str:
    """The subject chat dropped from a clause opening with a verb: "moved to…" -> "I", "heading out…" ->
    "I'm", "might quit…" -> "I"; "" when the clause does not open with a finite or progressive verb."""
    first = opener(sent)
    if first is None or first.i != next((t.i for t in sent.tokens if t.pos not in ("PUNCT", "INTJ") and t.lower not in lx.CLAUSE_ADVERBS), -1):
        return ""
    if first.tag == "VBG":
        return restore("I", first)
    if first.tag in ("VB", "VBP") and any(t.lower in lx.HABITUAL for t in sent.tokens) and "please" not in {t.lower for t in sent.tokens} and not at_me(sent):
        return "I"  # "cycle to work every day now": a habit, not an order
    if first.tag == "VBZ":
        return ""  # "needs decent driver support": about the thing named before, not the user
    if first.tag == "VBN" and first.lower in ("been", "done", "gone", "had", "got", "seen"):
        return restore("I", first)  # "been up since 4"
    if first.tag in ("VBD", "VBN") or (first.tag == "MD" and first.lower not in ("can", "could", "would", "will")):
        return "I"
    return ""
