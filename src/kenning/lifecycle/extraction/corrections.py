"""Corrections inside one turn: "thursdays, wait no, tuesdays", "on the 14th. sorry, the 15th", "two cats, sorry three".

A correction marker followed by a short value replaces the nearest value of
the same *shape* said before it (a weekday for a weekday, a day of the month
for a day of the month, a time, a sum of money, a number, a month). The
shapes are closed classes, so this works whatever the sentence is about;
a correction whose value has no earlier counterpart changes nothing.
"""

from __future__ import annotations

import re

_DAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?"
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
SHAPES = {
    "weekday": re.compile(rf"(?i)\b{_DAY}\b"),
    "time": re.compile(r"(?i)\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\b\d{1,2}:\d\d\b"),
    "ordinal": re.compile(r"(?i)\b\d{1,2}(?:st|nd|rd|th)\b"),
    "money": re.compile(r"[£$€]\s?\d[\d,.]*k?\b|\b\d[\d,.]*\s?(?:k|grand|quid|pounds|dollars|euros)\b", re.I),
    "month": re.compile(rf"(?i)\b{_MONTH}\b"),
    "number": re.compile(r"(?i)\b\d+(?:\.\d+)?\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"),
}
_MARKER = r"(?:wait\s*,?\s*no|no\s*,?\s*wait|sorry|i\s+mean|i\s+meant|or\s+rather|make\s+(?:that|it)|correction|actually\s+no|no\s*,?\s*sorry|oops)"
# "…, wait no, tuesdays[, …]" inside a clause, or "wait no sorry, the 15th" opening the next clause
_TAIL = re.compile(rf"(?i)[\s,;.!-]*\b{_MARKER}\b(?:[\s,;:!-]+{_MARKER}\b)*[\s,;:!-]+(?:it'?s\s+|its\s+|the\s+|on\s+(?:the\s+)?)?(?P<val>(?:[^,;.!?]|(?<=\d)[,.](?=\d)){{1,24}}?)(?:[\s.!]*$|\s*(?<!\d)[,;]\s*(?P<rest>.+)$)")
_LEAD = re.compile(rf"(?i)^\W*{_MARKER}\b(?:[\s,;:!-]+{_MARKER}\b)*[\s,;:!-]+(?:it'?s\s+|its\s+|the\s+|on\s+(?:the\s+)?)?(?P<val>(?:[^,;.!?]|(?<=\d)[,.](?=\d)){{1,24}}?)[\s.!]*$")


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
    m = found[-1]
    return text[: m.start()] + value.strip() + text[m.end() :]


def is_marker(text: str) -> bool:
    """Whether ``text`` opens with a correction marker ("wait no", "sorry", "I mean")."""
    return bool(re.match(rf"(?i)^\W*{_MARKER}\b", text))


def apply(pieces: list[str]) -> list[str]:
    """``pieces`` (the clauses of one turn, in order) with in-turn corrections applied and their markers removed."""
    out: list[str] = []
    for piece in pieces:
        tail = _TAIL.search(piece)
        if tail and (kind := shape(tail.group("val"))):
            fixed = _replace_last(piece[: tail.start()], kind, tail.group("val"))
            if fixed is not None:
                out.append(fixed)
                if tail.group("rest"):
                    out.append(tail.group("rest").strip())  # "…, thursday is my spanish class": a clause of its own
                continue
        lead = _LEAD.match(piece)
        if lead and out and (kind := shape(lead.group("val"))):
            fixed = _replace_last(out[-1], kind, lead.group("val"))
            if fixed is not None:
                out[-1] = fixed
                continue
        out.append(piece)
    return out
