"""Attribute changes: the same subject, the same single-valued row of ``extraction.rows.TABLE``, another value.

"User moved to Exeter" replaces "User lives in Leeds", and the memories that held the old value with it ("User's
flat in Leeds is damp"); an ending ("User quit keto", "sold the Fiesta") retires the fact it ends. Read off
each memory's parse (``changes.facts_of``), whatever the wording.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.lifecycle.changes import _subject, _users_own, facts_of
from kenning.lifecycle.extraction import attributes
from kenning.lifecycle.extraction.attributes import Fact
from kenning.lifecycle.matching import RETRACTION, SLOT_CHANGE, Neighbour, same_value
from kenning.types import Decision, Kind, Memory, Op, Source, Status


def attribute_change(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """Same subject, same single-valued attribute of the table, another value: UPDATE of the old memory.

    "User moved to Exeter" replaces "User lives in Leeds"; "User is a Spurs fan" replaces "User supports
    Arsenal"; an ending ("User quit keto") retires the fact it ends ("User is doing keto"). The same value,
    or a relative's attribute beside the user's, decides nothing here.
    """
    news = [f for f in facts_of(candidate) if f.value and (f.attribute.single or f.negated)]
    if not news:
        return None
    named = [f.value for f in news if f.subject == "user" and (
        (f.attribute is attributes.ANY and f.value[:1].isupper()) or f.attribute is attributes.STOPPED)]
    # a thing ended by its common name ("rehomed the rabbits", "sold the car"): the user's fact of having it
    owned = [f.value for f in news if f.subject == "user" and f.attribute is attributes.ANY and f.value[:1].islower()]
    for n in ranked:
        old = n.memory
        if old.id == candidate.id or old.status is not Status.ACTIVE or old.scope != candidate.scope:
            continue
        if old.source is Source.USER_SAID and old.kind in (Kind.FACT, Kind.PREFERENCE) and any(
            re.search(rf"\b{re.escape(v)}\b", old.text, 0 if v[:1].isupper() else re.IGNORECASE)
            and (_subject(old.text) == "user" or re.match(rf"User's\s+[\w-]+\s+{re.escape(v)}\b", old.text)) for v in named
        ):  # the user's fact naming it, or one about it by name ("User's cat Mochi is a ragdoll")
            return Decision(Op.UPDATE, old.id, None, RETRACTION)  # "had to rehome Rolo" ends "has a dog called Rolo"
        if old.source is Source.USER_SAID and old.kind is Kind.FACT and _subject(old.text) == "user" and any(
            re.search(rf"(?i)\b(?:has|have|had|got|owns?)\b(?:\s+[\w'-]+){{0,3}}?\s+{re.escape(v)}\b", old.text) for v in owned
        ):
            return Decision(Op.UPDATE, old.id, None, RETRACTION)  # "rehomed the rabbits" ends "has got two rabbits"
        for was in facts_of(old):
            for new in news:
                if was.negated or not was.same_subject(new):
                    continue
                if new.attribute in (attributes.ANY, attributes.STOPPED):
                    if same_value(new.value.lower(), was.value.lower()) or _names_value(new.value, was.value):
                        return Decision(Op.UPDATE, old.id, None, RETRACTION)  # "sold the Fiesta" ends "drives a Fiesta"
                    continue
                if was.attribute is not new.attribute:
                    continue
                if new.negated and new.value == attributes.ANY_VALUE:
                    return Decision(Op.UPDATE, old.id, None, RETRACTION)  # "switched gyms" ends the gym held
                same = same_value(new.value.lower(), was.value.lower())
                if new.negated and same:
                    return Decision(Op.UPDATE, old.id, None, RETRACTION)  # "quit keto" ends "is doing keto"
                if not new.negated and not same and not (old.source_refs and set(old.source_refs) <= set(candidate.source_refs)):
                    # two values said in one turn are both meant; the old value held by other memories goes with it
                    return Decision(Op.UPDATE, old.id, None, SLOT_CHANGE, _holding(candidate, ranked, old, was))
    return None


def _holding(candidate: Memory, ranked: Sequence[Neighbour], old: Memory, was: Fact) -> tuple[tuple[str, str], ...]:
    """The other memories of the user's own that set the same attribute to the old value ("User's flat in Phibsborough
    is a damp nightmare" beside "User lives in Phibsborough"), to retire with ``old`` (text ""): what they say was
    of the old value. Never one said in the candidate's turn."""
    out = []
    for m in _users_own(candidate, ranked):
        if m.id == old.id or m.kind not in (Kind.FACT, Kind.PREFERENCE) or (m.source_refs and set(m.source_refs) <= set(candidate.source_refs)):
            continue
        if any(f.attribute is was.attribute and not f.negated and f.same_subject(was) and same_value(f.value.lower(), was.value.lower())
               for f in facts_of(m)) or (was.subject == "user" and _owned_at(m.text, was)):
            out.append((m.id, ""))
    return tuple(out)


def _owned_at(text: str, was: Fact) -> bool:
    """Whether ``text`` is about the user's thing of the row at the old value, by the row's own objects and
    prepositions: "User's flat in Phibsborough is a damp nightmare" for a residence in Phibsborough."""
    row = was.attribute
    if not row.objects or not row.preps:
        return False
    objects = "|".join(sorted(map(re.escape, row.objects)))
    preps = "|".join(sorted(map(re.escape, row.preps)))
    return bool(re.search(rf"(?i)^User's\s+(?:[\w-]+\s+){{0,2}}(?:{objects})s?\s+(?:{preps})\s+{re.escape(was.value)}\b", text))


def _names_value(ended: str, value: str) -> bool:
    """ "Fiesta" names "2009 Fiesta": every word of what ended is a word of the value (numbers aside)."""
    a, b = set(ended.lower().split()), set(value.lower().split())
    return bool(a) and a <= b
