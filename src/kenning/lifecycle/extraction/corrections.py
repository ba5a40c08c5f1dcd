"""Corrections inside one turn: "thursdays, wait no, tuesdays", "on the 14th. sorry, the 15th", "two cats, sorry three".

A correction marker followed by a short value replaces the nearest value of
the same *shape* said before it (a weekday for a weekday, a day of the month
for a day of the month, a time, a sum of money, a number, a month), or the
object of the same preposition ("a company in Leicester - sorry, they're in
Sheffield"). Shapes and prepositions are closed classes, so this works
whatever the sentence is about; a correction whose value has no earlier
counterpart changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.lifecycle.extraction.parse import Sentence
from kenning.text import STOPWORDS

_DAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?"
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
WORD_NUMBERS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"  # numbers said in words, as a pattern
SHAPES = {
    "weekday": re.compile(rf"(?i)\b{_DAY}\b"),
    "time": re.compile(r"(?i)\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\b\d{1,2}:\d\d\b"),
    "ordinal": re.compile(r"(?i)\b\d{1,2}(?:st|nd|rd|th)\b"),
    "money": re.compile(r"[£$€]\s?\d[\d,.]*k?\b|\b\d[\d,.]*\s?(?:k|grand|quid|pounds|dollars|euros)\b", re.I),
    "month": re.compile(rf"(?i)\b{_MONTH}\b"),
    "number": re.compile(rf"(?i)\b\d+(?:\.\d+)?\b|\b(?:{WORD_NUMBERS})\b"),
}
_MARKER = r"(?:scratch\s+that|wait\s*,?\s*no|no\s*,?\s*wait|sorry|i\s+mean|i\s+meant|or\s+rather|make\s+(?:that|it)|correction|actually\s+no|no\s*,?\s*sorry|oops)"
_MARKERS = rf"\b{_MARKER}\b(?:[\s,;:!-]+{_MARKER}\b)*"  # "wait no sorry"
_OPENER = r"(?:it'?s\s+|its\s+)?(?:the\s+|on\s+(?:the\s+)?)?"  # "it's Thursday", "the 15th": the value after it
_SHORT = r"(?P<val>(?:[^,;.!?]|(?<=\d)[,.](?=\d)){1,24}?)"  # a value of a shape: "tuesdays", "£9,500"
_LONG = r"(?P<val>[^,;.!?]{1,40}?)"  # a value kept whole for the preposition rule: "they're in Sheffield"
# "…, wait no, tuesdays[, …]" inside a clause, or "wait no sorry, the 15th" opening the next clause
# the value may follow the old one denied ("sorry not shellfish, its sesame") or "just"/"only" ("just mondays":
# the one value left of a list)
_DENIED = r"(?:not\s+(?P<old>[^,;.!?]{1,24}?)[\s,;]+)?(?P<only>(?:just|only)\s+)?"
_TAIL = re.compile(rf"(?i)[\s,;.!-]*{_MARKERS}[\s,;:!-]+{_DENIED}{_OPENER}{_SHORT}(?:[\s.!]*$|\s*(?<!\d)[,;]\s*(?P<rest>.+)$)")
_LEAD = re.compile(rf"(?i)^\W*{_MARKERS}[\s,;:!-]+{_OPENER}{_SHORT}[\s.!]*$")
_TAIL_CLAUSE = re.compile(rf"(?i)[\s,;.!-]*{_MARKERS}[\s,;:!-]+{_LONG}[\s.!]*$")
_LEAD_CLAUSE = re.compile(rf"(?i)^\W*{_MARKERS}[\s,;:!-]+{_LONG}[\s.!]*$")
# the markers that take back the whole clause before them in one sentence (not "sorry" or "I mean", which also
# apologise and explain; "scratch that" points at what reconciliation retracts)
_WITHDRAWN = re.compile(r"(?i)\b(?:no\s*,?\s*wait|wait\s*,?\s*no|actually\s+no)\b")
_SAID_AGAIN = re.compile(r"(?i)^\W*(?:i|we|i'?m|we'?re|i'?ve|we'?ve|it'?s|its|they|they'?re|he|she|he'?s|she'?s)\b")  # a clause of its own
_ONLY_MARKERS = re.compile(rf"(?i)\W*{_MARKERS}\W*")
_ENDS_MARKED = re.compile(rf"(?i)[\s,;.!-]*{_MARKERS}[\s,;:!-]*$")  # "…in Leicester - sorry"


def shape(value: str) -> str | None:
    """The shape class of a short value, or None when it is not one value of a known shape."""
    v = value.strip()
    for name, pattern in SHAPES.items():
        m = pattern.fullmatch(v) or pattern.match(v)
        if m and len(v) - len(m.group(0)) <= 6:  # "tuesdays", "the 15th", "three" (a word or two of slack)
            return name
    return None


def _replace_last(text: str, kind: str, value: str) -> str | None:
    found = list(SHAPES[kind].finditer(text))
    if kind == "number":  # a number inside a time, date or sum is not "a number"
        taken = [m.span() for k in ("time", "ordinal", "money") for m in SHAPES[k].finditer(text)]
        found = [m for m in found if not any(a <= m.start() < b for a, b in taken)]
    if not found:
        return None
    return _put(text, found[-1], value)


def _put(text: str, at: re.Match[str], value: str) -> str:
    """``text`` with ``value`` where ``at`` matched."""
    return text[: at.start()] + value.strip() + text[at.end() :]


# "they're in Sheffield", "it's at the Crown", "with Monzo": a preposition and its new object
_PREP_VALUE = re.compile(
    r"(?i)^(?:(?:it|they|he|she|we|that)(?:'re|'s|\s+are|\s+is|\s+was|\s+were)\s+|its\s+)?"
    r"(?P<prep>in|at|for|with|from|on|near)\s+(?P<val>[^,;.!?]{1,30}?)[\s.!]*$"
)


def _replace_object(text: str, value: str) -> str | None:
    """``text`` with the object of its last ``prep`` replaced by the one in ``value`` ("they're in Sheffield")."""
    m = _PREP_VALUE.match(value.strip())
    if not m:
        return None
    prep, new = m.group("prep").lower(), m.group("val").strip()
    found = list(re.finditer(rf"(?i)\b{prep}\s+(?:the\s+|a\s+|an\s+)?(?P<old>[\w'&-]+(?:\s+[A-Z][\w'&-]*)*)", text))
    if not found:
        return None
    old = found[-1]
    if old.group("old").lower() == new.lower():
        return None
    return text[: old.start()] + f"{prep} {new}" + text[old.end() :]


# words a bare correcting value never is: "sorry I need to go" is an apology and a new clause, not a value
_NOT_VALUE = STOPWORDS | {"i'm", "im", "i've", "i'd", "it's", "been", "should", "must", "just", "about", "lol", "haha"}


def _plain(words: Sequence[str]) -> bool:
    return all(re.fullmatch(r"[\w'&-]+", w) and w.lower() not in _NOT_VALUE for w in words)


def _replace_tail(text: str, value: str) -> str | None:
    """``text`` with its last words replaced by a bare ``value`` of as many words ("my sister lives in Bath,
    no wait, Bristol"; "I work at tesco - sorry, asda"), when the value is one to three plain words."""
    v = value.strip(" .!")
    words = v.split()
    if not 1 <= len(words) <= 3 or not _plain(words):
        return None
    for n in range(len(words), 0, -1):  # "allergic to peanuts - wait no, tree nuts": the plain words at the end, fewer if need be
        m = re.search(r"(?P<old>(?:[\w'&-]+\s+){%d}[\w'&-]+)\W*$" % (n - 1), text)
        if m is not None and _plain(m.group("old").split()):
            break
    else:
        return None
    if m.group("old").lower() == v.lower():
        return None
    return text[: m.start("old")] + v + text[m.end("old") :]


def _fixed(text: str, value: str, old: str | None = None, only: bool = False) -> str | None:
    """``text`` corrected by ``value``: the ``old`` value named as wrong where ``text`` holds it, else a value of
    the same shape (with ``only``, the whole list of them: "mondays and wednesdays" -> "mondays"), else the
    object of the same preposition, else as many words at its end."""
    if old and (said := list(re.finditer(rf"(?i)\b{re.escape(old.strip())}\b", text))):
        return _put(text, said[-1], value)
    kind = shape(value)
    if kind and only:
        one = SHAPES[kind].pattern.removeprefix("(?i)")
        runs = list(re.finditer(rf"(?i){one}(?:(?:\s*,\s*|\s+(?:and|&|or|n)\s+){one})*", text))
        if runs:
            return _put(text, runs[-1], value)
    if kind:
        return _replace_last(text, kind, value)
    return _replace_object(text, value) or _replace_tail(text, value)


def standalone(piece: str) -> str | None:
    """The value of a correction said on its own, to what was said before this turn ("wait no, 7pm",
    "no wait it's Thursday", "correction: 4 kids"): the value, when it has a shape; else None."""
    lead = _LEAD.match(piece)
    if lead is None or shape(lead.group("val")) is None:
        return None
    return lead.group("val").strip()


_SPELLED = re.compile(
    r"(?i)\b(?:it'?s|it\s+is|that'?s)\s+(?P<v>[a-z][a-z'-]{2,})\s+with\s+an?\s+[a-z]\b"
    r"|\b(?:spelt|spelled|spelling\s+is|written)\s+(?:as\s+|like\s+)?(?P<v2>[a-z][a-z'-]{2,})\b"
)


def spelled(piece: str) -> str | None:
    """The spelling a clause gives a word said before ("it's caitlin with a c", "spelt Siobhán"), or None."""
    m = _SPELLED.search(piece)
    return (m.group("v") or m.group("v2")) if m else None


def respell(text: str, word: str) -> str | None:
    """``text`` with the word it spells differently from ``word`` ("kaitlyn" for "caitlin") written as ``word``,
    keeping the old word's capital; None when no word of ``text`` is a near spelling of it."""
    from difflib import SequenceMatcher

    def near(w: str) -> bool:
        a, b = w.lower(), word.lower()
        return a != b and abs(len(a) - len(b)) <= 2 and SequenceMatcher(None, a, b).ratio() >= SPELLING_RATIO

    hits = [m for m in re.finditer(r"[A-Za-z][A-Za-z'-]{2,}", text) if near(m.group(0))]
    if not hits:
        return None
    out = text
    for m in reversed(hits):
        w = m.group(0)
        out = out[: m.start()] + (word[:1].upper() + word[1:] if w[:1].isupper() else word.lower()) + out[m.end() :]
    return out


# "kaitlyn" -> "caitlin" 0.71, "Siobhan" -> "Shivaun" 0.57: a respelling, not another name ("Ciara" -> "Clodagh" 0.33)
SPELLING_RATIO = 0.6


def is_marker(text: str) -> bool:
    """Whether ``text`` opens with a correction marker ("wait no", "sorry", "I mean")."""
    return bool(re.match(rf"(?i)^\W*{_MARKER}\b", text))


def apply(pieces: list[str]) -> list[str]:
    """``pieces`` (the clauses of one turn, in order) with in-turn corrections applied and their markers removed."""
    out: list[str] = []
    for n, piece in enumerate(pieces):
        if n > 0 and _ONLY_MARKERS.fullmatch(pieces[n - 1]) and out and out[-1] == pieces[n - 1]:
            # a marker cut off as a piece of its own, then a value: "…the 12th of june. wait no | sorry its the 21st"
            lead = _LEAD.match(f"{pieces[n - 1]} {piece}")
            if lead and shape(lead.group("val")) and len(out) > 1 and (fixed := _fixed(out[-2], lead.group("val"))) is not None:
                out[-2:] = [fixed]
                continue
        tail = _TAIL.search(piece) or _TAIL_CLAUSE.search(piece)
        extra = tail.groupdict() if tail else {}
        if tail and (fixed := _fixed(piece[: tail.start()], tail.group("val"), extra.get("old"), bool(extra.get("only")))) is not None:
            out.append(fixed)
            if tail.groupdict().get("rest"):
                out.append(tail.group("rest").strip())  # "…, thursday is my spanish class": a clause of its own
            continue
        ends = _ENDS_MARKED.search(out[-1]) if out else None
        if ends and (fixed := _fixed(out[-1][: ends.start()], piece)) is not None:
            out[-1] = fixed  # "…in Leicester - sorry" + "they're in Sheffield": the clause after the marker corrects
            continue
        if ends and _WITHDRAWN.search(out[-1][ends.start() :]) and not re.search(r"[.!?]", out[-1][: ends.start()]) and _SAID_AGAIN.match(piece):
            out[-1] = piece  # "we're in derby, no wait, we moved to nottingham": the clause is taken back, said again
            continue
        lead = _LEAD.match(piece) or _LEAD_CLAUSE.match(piece)
        if lead and out and (fixed := _fixed(out[-1], lead.group("val"))) is not None:
            out[-1] = fixed
            continue
        out.append(piece)
    return out


def replace_value(text: str, value: str) -> str | None:
    """``text`` (a memory said before) with its last value of ``value``'s shape replaced; a number with a noun
    after it ("4 kids") replaces only a number before the same noun ("has 3 kids", never "3 cats")."""
    kind = shape(value)
    if kind is None:
        return None
    m = re.fullmatch(rf"(?P<n>\d+|{WORD_NUMBERS})\s+(?P<unit>[a-z]{{3,}})\W*", value.strip(), re.I)
    if kind == "number" and m:
        held = list(re.finditer(rf"(?i)\b(?:\d+|{WORD_NUMBERS})(?=\s+{re.escape(m.group('unit')[:4])})", text))
        if not held:
            return None
        last = held[-1]
        return text[: last.start()] + m.group("n") + text[last.end() :]
    return _replace_last(text, kind, value)


def _token_shape(word: str) -> str | None:
    """A value's shape for a contrast: one of ``SHAPES``, a code of letters and digits ("V5", "B1", "N3"), or
    a capitalised name; None for any other word."""
    if re.fullmatch(r"[A-Za-z]{1,3}\d{1,3}[A-Za-z]?", word):
        return "code"
    kind = shape(word)
    if kind:
        return "number" if kind == "ordinal" else kind  # "july 14 not the 12th": a day of the month either way
    return "name" if word[:1].isupper() and word[1:].islower() and word.lower() not in _NOT_VALUE | {"user"} else None


# "i said 10 years at the Crown, its actually 12", "told you thursday but it's actually friday": what was said
# before, then what is so
_SAYING = r"\b(?:said|told\s+(?:you|u)|wrote|put\s+down)\b"
_SAID = re.compile(
    rf"(?i){_SAYING}(?P<said>[^.;!?]{{1,60}}?)[\s,;-]*(?:but\s+)?"
    r"(?:(?:it'?s|its|it\s+is|it\s+was|that'?s|thats)\s+actually|actually\s+(?:it'?s|its|it\s+is|it\s+was)"
    # or a denial before it: "i said U15, no no it's the U13"
    r"|(?:(?:no|nope|sorry|wrong|oops)\b[\s,!-]*)+(?:it'?s|its|it\s+is|it\s+was|that'?s|thats))\s+(?:a\s+|the\s+)?(?P<new>[\w£$€:.,-]+)"
)


# or asked about, then answered: "did i tell you thursdays for physio? its tuesdays"
_ASKING = r"\bdid\s+i\s+(?:say|tell\s+(?:you|u)|write|put\s+down|mention)\b"
_ASKED = re.compile(
    rf"(?i){_ASKING}(?P<said>[^.;!?]{{1,60}}?)\?+[\s,;-]*"
    r"(?:(?:no|nope|sorry|oops|wrong)\b[\s,!-]*)*(?:it'?s|its|it\s+is|it\s+was|that'?s|thats|it\s+should\s+be)\s+"
    r"(?:actually\s+)?(?:a\s+|the\s+)?(?P<new>[\w£$€:.,-]+)"
)


def said_otherwise(text: str) -> tuple[str, list[str]] | None:
    """A value the speaker said before, set against what is actually so: "earlier i said 10 years at the
    Crown, its actually 12" -> ("10", ["12"]), "did i tell you thursdays? its tuesdays" -> ("thursdays",
    ["tuesdays"]). The old value is the last word of the same shape as the new one in what was said; None
    when there is none."""
    m = _SAID.search(text) or _ASKED.search(text)
    if m is None:
        return None
    new = m.group("new").rstrip(".,")
    kind = _token_shape(new)
    if kind is None:
        return None
    olds = [w for w in re.findall(r"[\w£$€:.-]+", m.group("said")) if w.lower() != new.lower() and _token_shape(w.rstrip(".")) == kind]
    return (olds[-1].rstrip("."), [new]) if olds else None


def says_said(piece: str, old: str) -> bool:
    """Whether ``piece`` is the part of a said-otherwise contrast that says what was said ("told you plot 14",
    cut from "told you plot 14 but it's actually 41"; "did i tell you thursdays?")."""
    said = re.search(rf"(?i){_SAYING}|{_ASKING}", piece)
    return said is not None and re.search(rf"(?i)(?<!\w){re.escape(old)}(?!\w)", piece[said.end():]) is not None


_FUNCTION = frozenset({"DET", "PRON", "AUX", "ADP", "PART", "CCONJ", "SCONJ", "NUM", "PUNCT", "INTJ"})


def _word_put_right(sent: Sentence, at: int, old: int) -> str | None:
    """The word set against the one after "not" (``old``) in a sentence that says it puts something right ("sorry
    I meant mustard not sesame", "oops, tuesday's is pilates not yoga"): the noun or adjective right before
    "not" (``at``), set against a content word (the tagger may call "sesame" a verb); None without a
    correction marker, since "I like cats not dogs" puts nothing right."""
    toks = sent.tokens
    if not re.search(rf"(?i){_MARKERS}", sent.text) or toks[old].pos in _FUNCTION or not toks[old].text.isalpha():
        return None
    i = at - 1
    while i >= 0 and toks[i].pos == "PUNCT":
        i -= 1
    if i < 0 or toks[i].pos not in ("NOUN", "PROPN", "ADJ") or toks[i].lower == toks[old].lower or not toks[i].text.isalpha():
        return None
    return toks[i].text


def contrast(sent: Sentence) -> tuple[str, list[str]] | None:
    """A value set against another in so many words, whatever the wording around it: "its 850 not 500",
    "mondays and thursdays i climb, not tuesdays", "it was a V5 i sent not a V4", "its Dewi not Dai", and
    what was said set against what is so ("i said 10 years, its actually 12", ``said_otherwise``).

    Returns the old value (after "not") and the values of the same shape said before it in the sentence,
    nearest first, or None. A "not" after an auxiliary negates the verb ("is not vegan"): no contrast.
    """
    said = said_otherwise(sent.text)
    if said is not None:
        return said
    toks = sent.tokens
    for t in toks:
        if t.lower != "not" or t.i == 0 or toks[t.i - 1].pos in ("AUX", "PART"):
            continue
        j = t.i + 1
        while j < len(toks) and (toks[j].pos == "DET" or toks[j].text in ("£", "$", "€")):
            j += 1
        if j >= len(toks):
            continue
        kind = _token_shape(toks[j].text)
        if kind is None:
            word = _word_put_right(sent, t.i, j)
            if word is not None:
                return toks[j].text, [word]  # "sorry i meant mustard not sesame": a word put right in so many words
            continue
        # values of the same shape before it, nearest first (a capitalised first word is no name)
        news = [toks[i].text for i in range(t.i - 1, -1, -1)
                if toks[i].lower != toks[j].lower and _token_shape(toks[i].text) == kind and (i > 0 or kind != "name")]
        if news:
            return toks[j].text, news
    return None


def fitted(new: str, old: str) -> str:
    """A new weekday in the form of the old one it replaces: "fridays" for "tuesdays", "friday" for "tuesday";
    any other value as it is."""
    if not (SHAPES["weekday"].fullmatch(new) and SHAPES["weekday"].fullmatch(old)):
        return new
    return new.rstrip("sS") + ("s" if old[-1:].lower() == "s" else "")


def holds(text: str, value: str) -> re.Match[str] | None:
    """Where ``text`` holds ``value`` as a value (a number also with a unit joined to it: "500" in "500mg"),
    never right after "not"."""
    if re.fullmatch(r"(?i)\d+(?:st|nd|rd|th)", value):
        value = value[:-2]  # "the 12th" is held by "july 12" too
    tail = r"(?=[a-z]{0,3}\b)" if value[:1].isdigit() else r"\b"
    word = re.escape(value)
    if SHAPES["weekday"].fullmatch(value):
        word = re.escape(value[:-1] if value[-1:].lower() == "s" else value) + "s?"  # "thursdays" held by "thursday evenings"
    for m in re.finditer(rf"(?i)\b{word}{tail}", text):
        if not re.search(r"(?i)\bnot\s+(?:a\s+|an\s+|the\s+)?$", text[: m.start()]):
            return m
    return None
