"""A value of the same shape said as changed, and a new count of the same thing: "physio is fridays now" after
"I have physio tuesdays for my back", "rent went up to 2,550" after "Rent's 2,400 a month", "now I am SDE-3"
after "working as SDE-2 in Flipkart", "I have 3 cats now" after "2 cats and a dog called Biscuit".

Shapes are closed classes (a weekday, a time, a day of the month, a sum, a number, a code of letters and
digits), so this works whatever the sentence is about. The old memory is rewritten with the new value, so
what else it says ("for my back", "a month") is kept. It takes a change said as such (``MOVED``), the same
subject (or the user's own thing changed by someone else: "doctor upped the user's citalopram"), a content
word both share (or, for codes, the same letters), and exactly one value of the shape on each side:
anything less leaves the old memory as it is, since a wrong rewrite loses a true value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.lifecycle.changes import _NOT_EVIDENCE, _WEAK_MARKER, CHANGE_MARKER, _evidence, _said_before, _subject
from kenning.lifecycle.extraction import corrections
from kenning.lifecycle.lexicon import MONTH
from kenning.lifecycle.extraction import dates
from kenning.lifecycle.matching import CHANGED, GENERIC, Neighbour, content_stems, stems
from kenning.lifecycle.retrieve import terms
from kenning.types import Decision, Kind, Memory, Op, Source

# a change said as such: "now", "these days", "moved to", "pushed back to", "went up to", "changed to"
MOVED = re.compile(
    r"(?i)\bnow\b|\bthese\s+days\b|\bnowadays\b|\binstead\b|\bany\s?more\b|"
    r"\b(?:moved|pushed|brought|put|changed|switched|shifted|rescheduled|bumped|increased|raised|upped|dropped|reduced|cut|lowered|rose)"
    r"(?:\s+(?!to\b)[\w'-]+){0,3}?\s+(?:back\s+|forward\s+|up\s+|down\s+)?(?:to|till|until|for)\b|"
    r"\b(?:up|down)\s+to\b"
)
# a change to another day or time said as such, which names no thing: "they've moved me to Fridays", "now I switch to evening"
_MOVED_TO = re.compile(r"(?i)\b(?:moved|move|pushed|push|changed|change|switched|switch|shifted|shift|rescheduled|reschedule)\b(?:\s+(?!to\b)[\w'-]+){0,3}?\s+(?:back\s+|forward\s+)?to\b")
_WHEN = frozenset({"date", "weekday", "time", "daypart"})
# a change of value says little before the value: this many words before it (by stem, change words aside) that
# the earlier memory lacks name another thing
_OTHER_THING = 3
_MARKER_STEMS = stems("got get now moved move pushed push changed change switched switch shifted shift rescheduled reschedule "
                      "upped up increased increase dropped drop cut back forward instead new actually")
_DAY_OF = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\b")
# the shapes corrections know (weekday, time, day of the month), with a code and a number that keeps its
# thousands separator and unit ("2,550", "30mg", "14k")
SHAPES = {
    # a date, month and day in either order: "april 18", "18th of april", "9 may"
    # with its year, and a month or season of a year, as the offline engine anchors "last month" ("in February
    # 2026"): the year's digits are no number of their own
    "date": re.compile(rf"(?i)\b{MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}}\b)?|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\b(?:,?\s+\d{{4}}\b)?"
                       rf"|\b(?:{MONTH}|spring|summer|autumn|fall|winter)\s+\d{{4}}\b|\bin\s+\d{{4}}\b"),
    **{k: corrections.SHAPES[k] for k in ("weekday", "time", "ordinal")},
    "daypart": re.compile(r"(?i)\b(?:mornings?|afternoons?|evenings?|nights?|lunchtimes?)\b"),
    "code": re.compile(r"\b[A-Za-z]{1,5}-?\d{1,3}[A-Za-z]?\b"),
    "number": re.compile(
        rf"(?i)(?<![\w:.,-])[£$€]?(?:\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)(?:k|mg|mcg|g|kg|ml|km|mi|lbs?|%)?(?![\w:-])"
        rf"|\b(?:{corrections.WORD_NUMBERS})\b"
    ),
}
_USERS_THING = re.compile(r"(?i)\b(?:the\s+)?user's\s+([a-z][\w-]{3,})")
_THE_THING = re.compile(r"^(?:The|the)\s+([a-z][\w-]{3,})\b")
_ORDER = ("date", "weekday", "time", "daypart", "ordinal", "code", "number")  # a date's, time's or code's digits are no number of their own


def _values(text: str) -> dict[str, list[re.Match[str]]]:
    """The values of each shape in ``text``, each span counted once (the first shape of ``_ORDER`` that takes it)."""
    taken: list[tuple[int, int]] = []
    out: dict[str, list[re.Match[str]]] = {}
    for name in _ORDER:
        for m in SHAPES[name].finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            if name == "code" and not re.search(r"[A-Za-z]", m.group(0)[:1]):
                continue
            taken.append(m.span())
            out.setdefault(name, []).append(m)
    return out


def _same_kind(a: str, b: str, shape: str) -> bool:
    """Two values of one shape that can replace each other: codes need the same letters ("SDE-2", "SDE-3")."""
    if a.lower().rstrip("s") == b.lower().rstrip("s"):
        return False
    if shape == "code":
        return re.match(r"[A-Za-z]+", a).group(0).lower() == re.match(r"[A-Za-z]+", b).group(0).lower()
    return True


def value_change(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """The newest memory the user said before that holds another value of a shape the candidate gives, said as a
    change, rewritten with the candidate's value; None when nothing qualifies."""
    said = dates.said(candidate)  # as worded: the dates the engine wrote in are no values of the thing
    if candidate.source is not Source.USER_SAID or candidate.kind not in (Kind.FACT, Kind.PREFERENCE, Kind.EPISODE):
        return None
    if candidate.metadata.get("hedge") or not MOVED.search(said):
        return None
    mine = {k: v for k, v in _values(said).items() if len(v) == 1}
    if not mine:
        return None
    who = _whom(candidate)
    owned = {m.group(1).lower() for m in _USERS_THING.finditer(said)}  # "…upped the user's citalopram to 30mg"
    owned |= {m.group(1).lower() for m in _THE_THING.finditer(said)}  # "the defense got pushed to may 9": the one said before
    fallback: Decision | None = None
    before = _said_before(candidate, ranked)
    moved_to = bool(_MOVED_TO.search(said))
    sole = _holders(candidate, before, [k for k in mine if k in _WHEN]) if moved_to else {}
    for old in before:
        if old.kind is Kind.PROCEDURE or set(old.source_refs) & set(candidate.source_refs):
            continue  # a standing rule, or said in the same turn (no change from it)
        theirs_who = _whom(old)
        its = theirs_who == {"user"} and any(re.search(rf"(?i)\b{re.escape(w)}\b", old.text) for w in who - {"user"})
        if not theirs_who & who and not its and not (theirs_who == {"user"} and any(re.search(rf"(?i)\b{re.escape(w)}", old.text) for w in owned)):
            continue  # someone else's, unless the candidate names the user's own thing the old memory holds
        theirs = _values(old.text)
        swaps: list[tuple[re.Match[str], str]] = []  # every value the change gives, in the old memory: "Fridays, afternoons"
        placed = True
        for shape, (new,) in mine.items():
            held = theirs.get(shape, [])
            if shape == "ordinal" and not held:  # "pushed back to the 19th" after "booked for march 12th": the day of the date
                held = [d for m in theirs.get("date", []) if (d := _DAY_OF.search(old.text, m.start(), m.end())) is not None]
            if len(held) > 1:  # "base salary is $58,400 plus a $6,000 stipend": the one said of what the new one is
                held = [h for h in held if _lead(old.text, h) & _lead(said, new)]
            if len(held) != 1 or not _same_kind(new.group(0), held[0].group(0), shape):
                continue
            if shape != "code" and not _evidence(_without(said, new), _without(old.text, held[0])) and not (
                    shape in _WHEN and moved_to and sole.get(shape) == old.id):
                continue  # no word in common, unless "moved to" a day or time only this memory holds
            if len(content_stems(said[: new.start()]) - content_stems(old.text) - _MARKER_STEMS) >= _OTHER_THING:
                continue  # "now it's a riverford veg box on thursdays" after "a tesco delivery every saturday": another thing
            if shape == "number" and _other_model(said, new, old.text, held[0]):
                continue  # "switched to a pixel 8" gives no new number to "uses iphone 13"
            at = held[0]
            if any(a.start() < at.end() and at.start() < a.end() for a, _ in swaps):
                continue
            swaps.append((at, corrections.fitted(new.group(0), at.group(0))))
            # "milking 120 now" is a count: rather "milking 90 friesians" than the hour of "milking at 6 and 5 every day"
            placed = placed and not (shape == "number" and _placed(old.text, at) != _placed(said, new))
        if not swaps:
            continue
        text = old.text
        for at, value in sorted(swaps, key=lambda x: -x[0].start()):
            text = text[: at.start()] + value + text[at.end() :]
        decision = Decision(Op.UPDATE, old.id, text, CHANGED)
        if placed:
            return decision
        fallback = fallback or decision
    return fallback


def _holders(candidate: Memory, memories: Sequence[Memory], shapes: Sequence[str]) -> dict[str, str]:
    """For each shape, the id of the one memory of the candidate's subject said before that holds a value of it,
    when exactly one does."""
    who = _whom(candidate)
    out: dict[str, str] = {}
    for shape in shapes:
        ids = [m.id for m in memories if _whom(m) & who and SHAPES[shape].search(m.text) and not set(m.source_refs) & set(candidate.source_refs)]
        if len(ids) == 1:
            out[shape] = ids[0]
    return out


# a claim that opens with someone's name, alone or after the relation: "Elin is 5 now", "User's granddaughter Elin is 4"
_NAMED = re.compile(r"^(?:User's\s+[a-z-]+\s+)?(?!(?:User|The|A|An|It|This|That|There|Standing)\b)([A-Z][a-z]+)\b(?!')")


def _whom(memory: Memory) -> set[str]:
    """Whom a claim is about, by relation and, for someone else, by name: "User's granddaughter Elin is 4." ->
    {"granddaughter", "elin"}, "Elin is 5 now." (said of someone else) -> {"elin"}, "User is 29." -> {"user"}."""
    rel = _subject(memory.text)
    named = _NAMED.match(memory.text.strip()) if memory.metadata.get("subject") == "other" or rel != "user" else None
    if named is None:
        return {rel}
    return {named.group(1).lower()} | ({rel} if rel != "user" else set())


def _named_by(text: str, value: re.Match[str]) -> str:
    """The word a number is glued to as part of a name ("iphone 13", "Series 7", "pixel 8"), or ""."""
    before = re.findall(r"[\w'-]+", text[: value.start()])[-1:]
    word = before[0].lower() if before and text[: value.start()].endswith(" ") else ""
    return word if word.isalpha() and word not in GENERIC and not terms(word) <= _NOT_EVIDENCE and len(word) > 2 else ""


def _counted(text: str, value: re.Match[str]) -> set[str]:
    """The stem of the word a number counts ("3 days" -> {"day"}), if any."""
    after = re.match(r"\s+([a-z]{3,})", text[value.end() :])
    return stems(after.group(1)) if after else set()


def _other_model(a: str, new: re.Match[str], b: str, held: re.Match[str]) -> bool:
    """Whether two numbers belong to differently named things: "pixel 8" and "iphone 13" (but "daycare 3 days"
    and "doing 5 days" count the same days)."""
    x, y = _named_by(a, new), _named_by(b, held)
    counted = _counted(a, new)
    return bool(x and y and x != y and not (counted and counted == _counted(b, held)))


def _lead(text: str, value: re.Match[str]) -> set[str]:
    """The content words (by stem) of the three words said just before a value: what the value is of."""
    before = re.findall(r"[\w'-]+", text[: value.start()])[-3:]
    return stems(" ".join(terms(" ".join(before)) - _NOT_EVIDENCE))


_PLACING = frozenset("at since from before after".split())


def _placed(text: str, value: re.Match[str]) -> bool:
    """Whether a number is the object of a preposition that places it ("at 6", "since 2019") rather
    than counting something ("milking 90 friesians", "rent's 2,400"); "up to" and "till" introduce a new value."""
    before = re.findall(r"[\w'-]+", text[: value.start()])[-1:]
    return bool(before) and before[0].lower() in _PLACING


def _without(text: str, value: re.Match[str]) -> str:
    return text[: value.start()] + " " + text[value.end() :]


_COUNT = re.compile(rf"(?i)\b(\d+|{corrections.WORD_NUMBERS})\s+([a-z]{{3,}})")
_IN_WORDS = {w: str(i) for i, w in enumerate(corrections.WORD_NUMBERS.split("|"), 1)}


def _counts(text: str) -> dict[str, re.Match[str]]:
    """Each counted thing of ``text`` (by the first four letters of its noun) and where its number is."""
    return {m.group(2).lower()[:4]: m for m in _COUNT.finditer(text)}


def _number(word: str) -> str:
    return _IN_WORDS.get(word.lower(), word)


def count_change(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """Another number of a thing the user counted before, said as how things are now ("I have 3 cats now" after
    "has 2 cats and a dog called Biscuit", "only 4 nights in queenstown now" after "queenstown for 5 nights"):
    the old memory is rewritten with the new number, so what else it says is kept."""
    if candidate.source is not Source.USER_SAID or candidate.kind not in (Kind.FACT, Kind.PREFERENCE):
        return None
    if not (CHANGE_MARKER.search(candidate.text) or _WEAK_MARKER.search(candidate.text)):
        return None
    mine, who = _counts(candidate.text), _subject(candidate.text)
    for old in _said_before(candidate, ranked):
        if _subject(old.text) != who:
            continue
        for noun, m in _counts(old.text).items():
            new = mine.get(noun)
            if new is not None and _number(new.group(1)) != _number(m.group(1)):
                return Decision(Op.UPDATE, old.id, old.text[: m.start(1)] + new.group(1) + old.text[m.end(1) :], CHANGED)
    return None
