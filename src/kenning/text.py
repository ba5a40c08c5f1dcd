"""Words shared by the stores (keyword queries, the search partition's stored terms) and the lifecycle (scoring, slots): no imports from either."""

from __future__ import annotations

import re
from functools import lru_cache

# Function words that carry no content: left out of keyword queries and evidence.
STOPWORDS = frozenset(
    "a an and are as at be but by can could did do does for from had has have he her hers him his how i if in into "
    "is it its me my no not of on or our she so than that the their them then there these they this to too us was "
    "we were what when where which who whom why will with would you your yours".split()
)


_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def terms(text: str) -> set[str]:
    """Content words of ``text``, lower-cased and crudely stemmed (plural and verb endings dropped).

    Single characters are dropped: the "s" of "Alice's" would otherwise count as a shared word.
    """
    return set(_text_terms(text))


# Retrieval computes the words of every candidate on every query; the same
# memories come back query after query, so both steps are cached (bounded).
@lru_cache(maxsize=16384)
def _text_terms(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in STOPWORDS)


_LEAD = re.compile(r"[\W_]*([^\W\d_]+)", re.UNICODE)


def subject(text: str) -> str | None:
    """The term of the word ``text`` opens with, when it is capitalised: the memory's subject, as claims are written.

    "Maya is allergic to peanuts" -> maya; a turn stored as "Caroline: I'm
    keen on counseling" -> caroline. None when the first word is lower-case,
    a function word ("The", "I") or not a word.
    """
    m = _LEAD.match(text)
    if not m or not m.group(1)[0].isupper():
        return None
    found = _text_terms(m.group(1))
    return next(iter(found)) if found else None


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
          "december")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS, _DAYS = "|".join(MONTHS), "|".join(WEEKDAYS)
# Words that place an event in time: relative ones, a weekday, "in May", "in 2022", "three weeks ago". A
# full date written as "on 8 May, 2023" is left out on purpose: a caller that appends the date of every
# memory (as the LoCoMo adapter does) would otherwise mark them all.
_STATES_TIME = re.compile(
    rf"\b(yesterday|today|tonight|tomorrow|ago|recently|the other day"
    rf"|(last|next|this|past|coming) (week|weekend|month|year|night|summer|winter|spring|fall|autumn|morning|evening|{_DAYS}|{_MONTHS})"
    rf"|(on|last|this|next) ({_DAYS})|in ({_MONTHS}|\d{{4}})"
    rf"|(\d+|a|one|two|three|few|couple of) (days|weeks|months|years) (ago|back|later|before))\b",
    re.IGNORECASE,
)
_ASKS_WHEN = re.compile(r"^\W*when\b|\b(what|which) (year|month|date|day|time)\b|\bhow long ago\b", re.IGNORECASE)


def states_time(text: str) -> bool:
    """Whether ``text`` says when something happened ("yesterday", "last week", "on Friday", "in May", "in 2022",
    "three weeks ago")."""
    return _STATES_TIME.search(text) is not None


_ASIDE = re.compile(r"\s*(\([^()]*\)|\[[^\[\]]*\])\s*$")


def asks(text: str) -> bool:
    """Whether ``text`` ends by asking: its last sentence is a question, once trailing asides in brackets or
    parentheses (a date, "[shares a photo]") are set apart ("How was the trip?", "Did it rain? (8 May, 2023)")."""
    end = text.rstrip()
    while (cut := _ASIDE.sub("", end)) != end:
        end = cut.rstrip()
    return end.endswith("?")


def asks_when(query: str) -> bool:
    """Whether ``query`` asks when something happened ("When did …", "What year …", "How long ago …")."""
    return _ASKS_WHEN.search(query) is not None


@lru_cache(maxsize=65536)
def stem(w: str) -> str:
    """A crude stem: one of -ing, -ed, -es, -s dropped from words long enough to keep four letters."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


__all__ = ["MONTHS", "STOPWORDS", "WEEKDAYS", "asks", "asks_when", "states_time", "stem", "subject", "terms"]
