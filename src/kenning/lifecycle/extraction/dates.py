"""Dates: the relative time words of a claim anchored to the day its turn was said.

"ran my first 10k last saturday" is true of one Saturday; stored as said, the memory means a different
day every time it is read, and "when did the user run the 10k?" has no answer. The offline engine writes
the day instead: "User ran their first 10k on Saturday 7 March 2026". One table below maps each relative
expression to a date, a week, a month, a season or a year counted from the turn's own date (the capture's
``created_at``, UTC). What has no single answer is left as said: a bare weekday ("on friday" is last or
next by tense), "the last week" (a span, not a week), "the last Friday of the month" (a rule, not a day).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from kenning.text import MONTHS, WEEKDAYS

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "a couple of": 2, "a couple": 2, "couple of": 2}
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}  # the month each season starts in
# a preposition before the expression keeps its place ("since last week" -> "since the week of …")
_PREPOSITIONS = frozenset("since until till by before after from on in during over for of to as at around about".split())
# a verb whose object the expression is: "let's make tomorrow unforgettable", "enjoy this weekend"
_TAKES_IT = frozenset("make makes made making spend spent spending enjoy enjoyed enjoying save saved love loved remember".split())


def _day(d: date, weekday: bool = False) -> str:
    """"7 March 2026", or "Saturday 7 March 2026" where the words named the weekday ("last saturday")."""
    named = f"{WEEKDAYS[d.weekday()].capitalize()} " if weekday else ""
    return f"{named}{d.day} {MONTHS[d.month - 1].capitalize()} {d.year}"


def _month(year: int, month: int) -> str:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return f"{MONTHS[month - 1].capitalize()} {year}"


def _on(d: date, weekday: bool = False) -> tuple[str, str]:
    return "on", _day(d, weekday)


def _week(monday: date) -> tuple[str, str]:
    return "in", f"the week of {_day(monday)}"


def _weekend(saturday: date) -> tuple[str, str]:
    return "on", f"the weekend of {_day(saturday, True)}"


def _in_month(year: int, month: int) -> tuple[str, str]:
    return "in", _month(year, month)


def _season(name: str, today: date, step: int) -> tuple[str, str]:
    """The last (step -1) or next (step 1) season ``name`` wholly before or after ``today``'s month; a season is
    named by the year it starts in ("winter 2025" runs from December 2025)."""
    now = today.year * 12 + today.month - 1
    first = _SEASONS[name] - 1  # its first month, 0-based
    if step < 0:
        year = (now - 3 - first) // 12  # the latest start whose three months have all passed
    else:
        year = (now - first) // 12 + 1  # the first start after this month
    return "in", f"{name} {year}"


def _weekday_before(today: date, weekday: int) -> date:
    return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def _weekday_after(today: date, weekday: int) -> date:
    return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def _coming_saturday(today: date, next_one: bool) -> date:
    """This weekend's Saturday (today's, on a Saturday); "next weekend" said on a weekday is the one after."""
    saturday = _weekday_after(today - timedelta(days=1), 5)
    return saturday + timedelta(days=7) if next_one and today.weekday() < 5 else saturday


def _ago(n: int, unit: str, today: date) -> tuple[str, str]:
    if unit.startswith("day"):
        return _on(today - timedelta(days=n))
    if unit.startswith("week"):
        return _week(today - timedelta(days=7 * n + today.weekday()))
    if unit.startswith("month"):
        return _in_month(today.year, today.month - n)
    return "in", str(today.year - n)


_DAYS = "|".join(WEEKDAYS)
_COUNT = r"(?P<n>\d{1,2}|a couple of|a couple|couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
_Rule = tuple[re.Pattern[str], Callable[[re.Match[str], date], tuple[str, str]]]
_RULES: tuple[_Rule, ...] = tuple((re.compile(rf"(?i)\b{p}\b"), f) for p, f in (
    (r"the day before yesterday", lambda m, t: _on(t - timedelta(days=2))),
    (r"the day after tomorrow", lambda m, t: _on(t + timedelta(days=2))),
    (r"yesterday", lambda m, t: _on(t - timedelta(days=1))),
    (r"last night", lambda m, t: _on(t - timedelta(days=1))),
    (r"tomorrow", lambda m, t: _on(t + timedelta(days=1))),
    (r"(?:today|tonight|this (?:morning|afternoon|evening))", lambda m, t: _on(t)),
    (rf"(?:last|this past) (?P<d>{_DAYS})", lambda m, t: _on(_weekday_before(t, WEEKDAYS.index(m["d"].lower())), True)),
    (rf"(?:next|this coming) (?P<d>{_DAYS})", lambda m, t: _on(_weekday_after(t, WEEKDAYS.index(m["d"].lower())), True)),
    (rf"this (?P<d>{_DAYS})", lambda m, t: _on(_weekday_after(t - timedelta(days=1), WEEKDAYS.index(m["d"].lower())), True)),
    (r"last weekend", lambda m, t: _weekend(_weekday_before(t - timedelta(days=t.weekday()), 5))),
    (r"(?P<w>this|next) weekend", lambda m, t: _weekend(_coming_saturday(t, m["w"].lower() == "next"))),
    (r"last week", lambda m, t: _week(t - timedelta(days=t.weekday() + 7))),
    (r"next week", lambda m, t: _week(t - timedelta(days=t.weekday() - 7))),
    (r"last month", lambda m, t: _in_month(t.year, t.month - 1)),
    (r"next month", lambda m, t: _in_month(t.year, t.month + 1)),
    (r"last year", lambda m, t: ("in", str(t.year - 1))),
    (r"next year", lambda m, t: ("in", str(t.year + 1))),
    (r"(?P<w>last|next) (?P<s>spring|summer|autumn|fall|winter)", lambda m, t: _season(m["s"].lower(), t, -1 if m["w"].lower() == "last" else 1)),
    (rf"{_COUNT} (?P<u>days?|weeks?|months?|years?) ago", lambda m, t: _ago(_NUMBERS.get(m["n"].lower(), 0) or int(m["n"]), m["u"].lower(), t)),
))
_BEFORE = re.compile(r"(?i)(?:^|\s)([\w'.]+)\s*$")  # the word before, whole ("84.5" is no day of a month)
_DATED = re.compile(rf"(?i)^(?:\d{{1,2}}(?:st|nd|rd|th)?|{'|'.join(MONTHS)})$")  # a day or month said before it
_IS = re.compile(r"(?i)\s*(?:is|was|will be|'s)\b")
_THE = re.compile(r"(?i)\b(?:the|over|for|past)\s*$")  # "the last week", "over the last month": a span, not a date


SAID = "said"  # the metadata key of a claim's words before its dates were anchored, where they differ


def said(memory: Any) -> str:
    """A memory's words as the user said them: what reconciliation's learned model was trained on."""
    return (memory.metadata or {}).get(SAID) or memory.text


def anchor(text: str, when: datetime) -> str:
    """``text`` with each relative time expression replaced by the date it means as of ``when``."""
    today = when.date()
    for pattern, resolve in _RULES:
        text = _replace(text, pattern, resolve, today)
    return text


def _replace(text: str, pattern: re.Pattern[str], resolve: Callable[[re.Match[str], date], tuple[str, str]], today: date) -> str:
    out, end = [], 0
    for m in pattern.finditer(text):
        before, after = text[:m.start()], text[m.end():]
        if _THE.search(before) or re.match(r"\s+of\b", after):
            continue  # "the last week has been mad", "the last friday of the month"
        prep, value = resolve(m, today)
        word = _BEFORE.search(before)
        bare = (word is not None and (word.group(1).lower() in _PREPOSITIONS | _TAKES_IT or _DATED.match(word.group(1)))) or _IS.match(after)
        # "since last week", "next sunday is my 50th parkrun", "october 16th next year": the expression's place is taken
        phrase = value if bare else f"{prep} {value}"
        if m.start() == 0 or re.search(r"[.!?]\s+$", before):
            phrase = phrase[:1].upper() + phrase[1:]
        out.append(text[end:m.start()] + phrase)
        end = m.end()
    return "".join(out) + text[end:]
