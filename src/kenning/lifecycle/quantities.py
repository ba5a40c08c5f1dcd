"""Measured quantities: a new reading of something that has one value at a time replaces the one said before.

"scales said 84.5 this morning" after "weighed in at 92kg", "salary don enter 620k monthly" after "my salary na
450k naira per month", "the consultant bumped me up to 100" after "on levothyroxine 75 micrograms": a weight,
a rent, a salary or a dose is a figure the user only ever has one of, so a new figure of the same quantity is
the change even when no change is said and no other word is shared. What a figure measures is read from one
declarative table (``QUANTITIES``): the units written after it, or a word naming the quantity in the same
claim. The old memory is rewritten with the new figure (its unit kept when the new one gives none), so what
else it says ("for a 1br in columbus", "since the thyroid op") stays.

A figure that is a target ("goal is 75 by christmas"), a difference ("lost 3kg", "went up 50") or one of two
figures of the same quantity in a claim is no reading: anything but exactly one reading on each side leaves
the old memory as it is, since a wrong rewrite loses a true value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kenning.lifecycle.changes import _said_before, _subject
from kenning.lifecycle.extraction.parse import Sentence, Token
from kenning.lifecycle.extraction import dates
from kenning.lifecycle.matching import CHANGED, Neighbour, stems
from kenning.lifecycle.shape_change import SHAPES, _other_model
from kenning.types import Decision, Kind, Memory, Op, Source


@dataclass(frozen=True)
class Quantity:
    name: str
    cues: frozenset[str]  # stems of the words that name it: "weigh", "scale"
    units: frozenset[str] = frozenset()  # unit words written after the figure: "kg", "mg"
    money: bool = False  # a sum: a currency sign, or "k" for thousands, stands for the unit


def _q(name: str, cues: str, units: str = "", money: bool = False) -> Quantity:
    return Quantity(name, frozenset(stems(cues)), frozenset(units.split()), money)


QUANTITIES = (
    _q("weight", "weigh weighed weight scales", "kg kgs kilo kilos lb lbs stone st"),
    _q("dose", "dose dosage", "mg mcg microgram micrograms µg ug iu"),
    _q("rent", "rent", money=True),
    _q("salary", "salary wage wages paycheck payslip paid earn earns earning", money=True),
    _q("mortgage", "mortgage", money=True),
)
_UNITS = {u: q for q in QUANTITIES for u in q.units}
_FIGURE = re.compile(
    r"(?<![\w.,/:-])(?P<sign>[£$€₦])?(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?P<k>[km](?![a-z]))?"
    r"(?:(?P<gap>\s?)(?P<unit>[a-zµ]+)\b)?(?![\w/:-])",
    re.IGNORECASE,
)
# someone changing the user to a figure: "bumped me up to 100", "the consultant upped the user to 150"
_DOSING = r"(?i)\b(?:bump|up|increas|rais|lower|reduc|drop|cut|put|mov)\w*\s+(?:me|the\s+user)\s+(?:(?:up|down|back)\s+)?(?:to|on)\s+"
_DOSED = re.compile(_DOSING + "$")  # the words right before the figure
_DOSED_TO = re.compile(_DOSING + r"\d")  # anywhere in a claim
# a sum someone is on is their pay: "is on £38k", "first payslip on the new 47k" (a dose has its unit)
_ON_PAY = re.compile(r"(?i)\b(?:is|am|'m|are|'re|was|been|be|on)\s+on\s+(?:about\s+|around\s+|like\s+|the\s+)?(?:new\s+)?$|\bon\s+(?:the\s+)?new\s+$")
# a figure to reach, not one that is: "goal is 75 by christmas", "want to get down to 80kg"
_TARGET = re.compile(r"(?i)\b(?:goal|target|aim\w*|want\w*|hop(?:e|es|ing)|wish\w*|trying|plan\w*|by\s+(?:christmas|summer|the\s+end))\b")
# a figure that is a difference: "lost 3kg", "went up 50", "put on 2 stone"
_DELTA = re.compile(
    r"(?i)\b(?:lost|lose|losing|shed|gained?|gaining|up|down|by|another|extra|more|less|put\s+on|off)\s+(?:about\s+|like\s+|nearly\s+|almost\s+)?$"
)


def readings(text: str) -> dict[str, list[re.Match[str]]]:
    """The figures of ``text`` that are readings of a quantity of the table, by quantity name."""
    if _TARGET.search(text):
        return {}
    words = stems(text)
    figures = list(_FIGURE.finditer(text))
    signed = any(f.group("sign") for f in figures)  # a sum written with its sign: a bare number beside it is no sum
    out: dict[str, list[re.Match[str]]] = {}
    for m in figures:
        if _DELTA.search(text[: m.start()]):
            continue
        by_unit = _UNITS.get((m.group("unit") or "").lower())  # "92kg", "75 micrograms"
        for q in QUANTITIES:
            if by_unit is not None:
                hit = by_unit is q
            else:  # no unit of the table: the words of the claim say what the figure is of
                hit = bool(q.cues & words) or (q.name == "dose" and bool(_DOSED.search(text[: m.start()])))
                hit = hit or (q.name == "salary" and bool(_ON_PAY.search(text[: m.start()])) and not any(
                    p.cues & words for p in QUANTITIES if p.money and p is not q))
                hit = hit and (not q.money or bool(m.group("sign") or m.group("k")) or not signed)
            if hit:
                out.setdefault(q.name, []).append(m)
    return out


_READS = frozenset({"say", "read", "show"})  # what an instrument does with a figure


def owned_reading(sent: Sentence, subj: Token) -> bool:
    """Whether a clause whose subject is a thing gives the speaker's own reading: an instrument's ("scales said
    84.5 this morning") or a figure of a quantity of the table ("first rent payment at $1,620 went out today")."""
    if subj.pos != "NOUN":
        return False
    head = sent.tokens[subj.head]
    return bool(readings(sent.text)) or (head.lemma in _READS and any(c.dep == "dobj" and c.pos == "NUM" for c in sent.children(head.i)))


def _value(m: re.Match[str]) -> float:
    return float(m.group("n").replace(",", "")) * {"k": 1e3, "m": 1e6}.get((m.group("k") or "").lower(), 1)


def _rewritten(old: str, held: re.Match[str], new: re.Match[str]) -> str:
    """``old`` with the figure ``held`` replaced by ``new``: the new unit if it gives one, else the old one."""
    figure = (new.group("sign") or held.group("sign") or "") + new.group("n") + (new.group("k") or "")
    if new.group("unit") and new.group("unit").lower() in _UNITS:
        return old[: held.start()] + figure + new.group("gap") + new.group("unit") + old[held.end() :]
    end = held.end("k") if held.group("k") else held.end("n")
    return old[: held.start()] + figure + old[end:]


def quantity_change(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """The newest memory the user said before that holds a reading of a quantity the candidate gives one new
    reading of, rewritten with it; None when nothing qualifies."""
    said = dates.said(candidate)  # as worded: the dates the engine wrote in are no values of the thing
    if candidate.source is not Source.USER_SAID or candidate.kind not in (Kind.FACT, Kind.PREFERENCE, Kind.EPISODE):
        return None
    if candidate.metadata.get("hedge") or candidate.metadata.get("request") or said.startswith("User asked"):
        return None
    if _subject(said) != "user" and not _DOSED_TO.search(said):
        return None  # (but "User's gp bumped the user up to 100": the user's dose, whoever changed it)
    mine = {name: ms[0] for name, ms in readings(said).items() if len(ms) == 1}
    if not mine:
        return None
    for old in _said_before(candidate, ranked):
        if set(old.source_refs) & set(candidate.source_refs) or _subject(old.text) != "user":
            continue
        dated = [m.span() for m in SHAPES["date"].finditer(old.text)]  # "on 5 January 2026", written in by the engine
        for name, held in readings(old.text).items():
            held = [h for h in held if not any(a <= h.start() < b for a, b in dated)]
            new = mine.get(name)
            if new is None or len(held) != 1 or _value(held[0]) == _value(new):
                continue
            if _other_model(said, new, old.text, held[0]):
                continue  # "sertraline, 50mg" is no new dose of "citalopram 20mg": another thing of the same quantity
            return Decision(Op.UPDATE, old.id, _rewritten(old.text, held[0], new), CHANGED)
    return None
