"""Relations: the status of a couple changes. The user's own partner, named ("Ciaran's my fiancé now" after "my
boyfriend Ciaran", "Maxime and I aren't a thing anymore"), is rewritten with the new relation or as an ex-,
keeping whatever else the memory says; two other people who are no longer a couple ("Dev and Sophie have
called it all off") replace the memory naming both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.lifecycle import slots
from kenning.lifecycle.changes import _said_before
from kenning.lifecycle.matching import BIRTH, RELATION, Neighbour
from kenning.types import Decision, Kind, Memory, Op, Source, Status

_PARTNER = r"boyfriend|girlfriend|partner|fianc[eé]e?|husband|wife|spouse|gf|bf|hubby|missus"
_WHO = r"(?P<name>[A-Z][a-z][\w-]*)"
_OWNER = r"(?:User's|the\s+user's|their)"
# how a couple's ending is said after the two of them: "split up", "are finished", "called it a day", "went our separate ways"
_ENDED = (r"(?:split|splits|broke|break|breaks)\s+up|separated|divorced|(?:are|is)\s+(?:finished|over|done|through)|"
          r"called\s+it\s+(?:off|quits|a\s+day)|went\s+(?:our|their|the\s+user's)\s+separate\s+ways|parted\s+ways")
_PARTNER_NAMED = (
    # "User's boyfriend Ciaran …", "Ciaran's the user's fiancé now", "Priya is now their wife"
    re.compile(rf"\b{_OWNER}\s+(?:new\s+)?(?P<rel>{_PARTNER}),?\s+{_WHO}"),
    re.compile(rf"\b{_WHO}(?:'s|\s+is)\s+(?:now\s+|officially\s+)*{_OWNER}\s+(?:new\s+)?(?P<rel>{_PARTNER})\b"),
    # "User's ex Greg has the kids", "User's ex-wife Priya …": the partner named as an ex is a couple ended
    re.compile(rf"\b{_OWNER}\s+(?P<event>ex)(?:-?(?:{_PARTNER}))?,?\s+{_WHO}"),
    # "Rukmini's birthday is Saturday, the first one as the user's wife": the name, then the relation with "as"
    re.compile(rf"\b{_WHO}\b[^.;]*?\bas\s+{_OWNER}\s+(?P<rel>{_PARTNER})\b"),
    # "Ciaran and the user got engaged", "Sam and the user split up"
    re.compile(rf"\b{_WHO}\s+and\s+the\s+user\s+(?:have\s+|has\s+|just\s+|finally\s+)*(?P<event>got\s+(?:married|engaged|hitched)|{_ENDED})\b"),
    # "the user n Shannon split up", "Maxime and the user aren't a thing anymore", "…are no longer together"
    re.compile(rf"(?i:\bthe\s+user\s+(?:and|n|&)\s+){_WHO}\s+(?:have\s+|has\s+|just\s+|finally\s+)*(?P<event>{_ENDED})\b"),
    re.compile(rf"\b{_WHO}\s+(?:and|n|&)\s+the\s+user\s+(?P<event>(?:are|is|were|was)(?:n't|\s+not|\s+no\s+longer)\s+"
               r"(?:together|a\s+thing|an\s+item|a\s+couple|dating|seeing\s+each\s+other)(?:\s+any\s?more)?\s*(?=[.!,;]|$)|"
               r"(?:are|is)\s+(?:finished|over|done|through))"),
)
# the partner named in a memory held: also "User's Partner is Kayla", "User's gf is shannon" (lowercase in chat)
_HELD_PARTNER = re.compile(rf"\b{_OWNER}\s+(?:new\s+)?(?P<rel>(?i:{_PARTNER})),?\s+(?:is\s+)?(?P<name>[A-Za-z][a-z][\w-]*)")
_AFTER_EVENT = {"married": {"boyfriend": "husband", "girlfriend": "wife", "fiance": "husband", "fiancé": "husband",
                            "fiancee": "wife", "fiancée": "wife", "partner": "spouse"},
                "engaged": {"boyfriend": "fiancé", "girlfriend": "fiancée"}}


def _partner_status(text: str) -> tuple[str, str] | None:
    """(name, relation word or event) for a claim about the user's partner by name, or None."""
    for rx in _PARTNER_NAMED:
        m = rx.search(text)
        if m and m.group("name").lower() not in ("user", "they", "the"):
            event = m.groupdict().get("event") or ""
            word = m.groupdict().get("rel") or ("off" if event == "ex" or re.search(r"(?i)n't|\bnot\b|no\s+longer|\b(?:done|finished|over|through|day|ways)\b", event) else event.split()[-1])
            return m.group("name"), word.lower()
    return None


def relation_change(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """A change of status for the same named partner ("Ciaran's my fiancé now" after "my boyfriend Ciaran",
    "Sam and I split up" after "my girlfriend Sam"): the memory naming the partner is rewritten with the
    new relation (or as an ex-), keeping whatever else it says. Only the user's own claims, matched by name.
    """
    if candidate.source is not Source.USER_SAID or candidate.kind not in (Kind.FACT, Kind.EPISODE):
        return None
    new = _partner_status(candidate.text)
    if new is None:
        return None
    name, word = new  # said as a fact or as what happened ("me and kayla went our separate ways in feb")
    held = [(m, n.memory) for n in ranked if (m := _HELD_PARTNER.search(n.memory.text)) and m.group("name").lower() == name.lower()]
    held.sort(key=lambda p: p[0].start() > 0)  # the partner as the subject ("User's girlfriend Lena is …") before a mention
    for m, old in held:
        if old.id == candidate.id or old.source is not Source.USER_SAID or old.status is not Status.ACTIVE:
            continue
        was = m.group("rel").lower()
        if word in _ENDINGS:
            now = f"ex-{was}"
        elif word in _AFTER_EVENT:
            now = _AFTER_EVENT[word].get(was)
        else:
            now = word
        if not now or now == was or re.sub(r"[eé]+$", "e", now) == re.sub(r"[eé]+$", "e", was):
            return None
        text = old.text[: m.start("rel")] + now + old.text[m.end("rel"):]
        if slots.distinctive(candidate.text) - slots.distinctive(text):  # "… split up in march": the when is kept too
            text = _and_said(text, candidate.text)
        # every other memory naming the partner as such says the new relation too ("boyfriend jamie's a line cook")
        also = tuple((o.id, o.text[: k.start("rel")] + now + o.text[k.end("rel"):]) for k, o in held
                     if o.id not in (old.id, candidate.id) and o.source is Source.USER_SAID and o.status is Status.ACTIVE
                     and k.group("rel").lower() == was)
        return Decision(Op.UPDATE, old.id, text, RELATION, also)
    return _plans_ended(candidate, ranked, name) if word in _ENDINGS else None


_ENDINGS = frozenset({"up", "separated", "divorced", "off", "quits"})  # the last word of an ending, or "off"
# what a couple plans or is, said of the user and the partner by name: "the user and Liam are getting married"
_TOGETHER = re.compile(r"(?i)\b(?:getting\s+married|engaged|wedding|moving\s+in|together|dating|seeing\s+each\s+other)\b")


def _plans_ended(candidate: Memory, ranked: Sequence[Neighbour], name: str) -> Decision | None:
    """A couple ended: the newest memory of the user and the partner together ("the user and Liam are getting
    married!!") is replaced by the candidate."""
    for old in _said_before(candidate, ranked):
        if re.search(rf"\b{re.escape(name)}\b", old.text) and re.search(r"(?i)\bthe\s+user\b", old.text) and _TOGETHER.search(old.text):
            return Decision(Op.UPDATE, old.id, None, RELATION)
    return None


# two other people who are no longer a couple: "Dev and Sophie have called it all off", "Jo and Sam split up"
_COUPLE_ENDED = re.compile(
    r"^(?P<a>[A-Z][a-z][\w-]*)\s+(?:and|&)\s+(?P<b>[A-Z][a-z][\w-]*)\s+(?:have\s+|has\s+|just\s+|finally\s+|officially\s+)*"
    r"(?:(?:split|broke|broken)\s+up|separated|divorced|called\s+it\s+(?:all\s+)?(?:off|quits)|(?:are|aren't|are\s+not)\s+(?:not\s+)?"
    r"(?:together|a\s+thing)\s+any\s?more|(?:are\s+)?no\s+longer\s+together)\b"
)


def couple_change(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """Two people the user spoke of, no longer a couple ("Dev and Sophie have called it all off" after "my best
    mate Dev just got engaged to his girlfriend Sophie"): the candidate replaces the newest memory naming both."""
    if candidate.source is not Source.USER_SAID or candidate.kind not in (Kind.FACT, Kind.EPISODE):
        return None
    m = _COUPLE_ENDED.match(candidate.text.strip())
    if m is None or "user" in (m.group("a").lower(), m.group("b").lower()):
        return None
    for old in _said_before(candidate, ranked):
        if all(re.search(rf"\b{re.escape(m.group(k))}\b", old.text) for k in ("a", "b")):
            return Decision(Op.UPDATE, old.id, None, RELATION)
    return None


# someone the user spoke of by name has died: "Bram died on monday", "User's nan Edith passed away", "we lost Waylon",
# "we buried Mochi under the plum tree"
_DIED = re.compile(
    r"^(?:User's\s+(?P<rel>[\w-]+)\s+)?(?P<name>[A-Z][a-z][\w-]*\s+)?(?:has\s+|had\s+|just\s+|sadly\s+|finally\s+)*"
    r"(?P<pred>died|passed(?:\s+away|\s+on)?|(?:was|had\s+to\s+be)\s+put\s+(?:down|to\s+sleep))\b(?P<rest>.*)$"
    r"|^(?:The\s+user|User)\s+(?:just\s+|sadly\s+)*(?:lost|buried|had\s+to\s+put\s+down)\s+(?P<lost>[A-Z][a-z][\w-]*)\b"
    # "we had to say goodbye to miso last tuesday": the name after a farewell, however it was typed
    r"|^(?:The\s+user|User)\s+(?:just\s+|sadly\s+|finally\s+)*(?:had\s+to\s+say|said)\s+(?:goodbye|good\s+bye|bye)\s+to\s+(?!(?:the|a|an|my|our|their|his|her)\b)(?P<bye>[A-Za-z][a-z][\w-]*)\b"
    # "had to have pickle put to sleep on saturday", "we had to put Luna down": the one put down, named however typed
    r"|^(?:(?:The\s+user|User)\s+)?(?:just\s+|sadly\s+|finally\s+)*(?i:had|has|have)\s+to\s+(?:(?:have|get)\s+)?(?P<put_verb>put\s+)?"
    r"(?!(?:the|a|an|my|our|their|his|her|him|them|it)\b)(?P<put>[A-Za-z][a-z][\w-]*)\s+(?(put_verb)|put\s+)(?:down|to\s+sleep)\b"
)
_KIN = r"User's\s+(?:(?:late|old|little|big|elderly)\s+)?"  # "User's dog", "User's old cat"
_HELD_NAMED = rf"^(?P<head>{_KIN}[a-z-]+\s+){{name}}\b"


def death_change(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """A death of someone the user spoke of by name ("Bram died on monday" after "my dog Bram (old beagle, 13)
    comes along …"): the memory about them says so. "User's dog Bram …" becomes "User's dog Bram died on
    monday."; any other memory naming them ("got an old beagle named Waylon") keeps its words and the death."""
    if candidate.source is not Source.USER_SAID or candidate.kind not in (Kind.FACT, Kind.EPISODE):
        return None
    m = _DIED.match(candidate.text.strip())
    if m is None:
        return None
    name, rel = (m.group("name") or m.group("lost") or m.group("bye") or m.group("put") or "").strip(), m.group("rel")
    if name.lower() in ("user", "the", "they") or not (name or rel):
        return None  # "User's nan passed away": the relation is enough, when the user spoke of one
    said = rf"\b{re.escape(name)}\b" if name else rf"^{_KIN}{re.escape(rel)}\b"
    about = [old for old in _said_before(candidate, ranked)
             if not set(old.source_refs) & set(candidate.source_refs) and old.text.startswith("User") and re.search(said, old.text, re.I if name else 0)]
    # (a name typed in lowercase before is the same name: "a rabbit called waffles")
    for old in about:
        held = re.match(_HELD_NAMED.format(name=re.escape(name) if name else r"(?P<named>[A-Z][a-z][\w-]*)"), old.text)
        if held is not None and m.group("pred"):
            text = f"{held.group('head')}{name or held.group('named')} {m.group('pred')}{m.group('rest')}"
        else:
            text = _and_said(old.text, candidate.text)
        # every other memory about them says so too: "User's dog Luna has bad hips" is no longer how things are
        also = tuple((other.id, _and_said(other.text, candidate.text)) for other in about if other.id != old.id) if name else ()
        return Decision(Op.UPDATE, old.id, text, RELATION, also)
    return None


# a baby born: said outright ("Nell arrived", "we had the baby"), or a baby's age in weeks or months ("Ava is 4 months now")
_BIRTH = re.compile(r"(?i)\b(?:was\s+born|born\s+(?:on|in|at|last)|arrived|gave\s+birth|had\s+(?:the|a|our|my|their)\s+(?:baby|little)|newborn|"
                    r"(?:is|'s)\s+(?:nearly\s+|almost\s+|just\s+)?\d{1,2}\s+(?:weeks?|months?)(?:\s+old)?(?=\s*(?:now|today|already|old|and|[.,!?;]|$)))")
# someone else's: "User's sister had a baby girl" (never "User's daughter Nell was born", the user's own child)
_OTHERS = re.compile(r"(?i)^(?:The\s+)?User's\s+(?!(?:new\s+|little\s+|baby\s+)?(?:son|daughter|baby|boy|girl|little\s+one|twins)\b)")
# what the user said of their own pregnancy: "User is 22 weeks pregnant", "User is due mid august", "User is expecting twins"
_PREGNANCY = re.compile(r"(?i)^(?:User|The\s+user)(?:'s\s+due\s+date\b|\s+(?:is|was|has\s+been)\s+(?:[\w-]+\s+){0,3}?"
                        r"(?:pregnan\w*|due\b(?!\s+to\b)|expecting\b))")


def birth_change(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """A baby born ends the user's pregnancy: "Ava is 4 months now" after "User is 22 weeks pregnant" and "User is
    due mid august". The newest memory of the pregnancy is replaced by the candidate, any other retired with it."""
    if candidate.source is not Source.USER_SAID or candidate.kind not in (Kind.FACT, Kind.EPISODE) or not _BIRTH.search(candidate.text) \
            or _OTHERS.match(candidate.text):
        return None
    if _PREGNANCY.match(candidate.text):
        return None  # "User is due in 4 weeks": still the pregnancy
    carried = [old for old in _said_before(candidate, ranked) if _PREGNANCY.match(old.text) and not set(old.source_refs) & set(candidate.source_refs)]
    if not carried:
        return None
    return Decision(Op.UPDATE, carried[0].id, None, BIRTH, tuple((old.id, "") for old in carried[1:]))


def _and_said(held: str, said: str) -> str:
    """A memory with what was just said of it appended: "User got a beagle named Waylon; the user lost Waylon …"."""
    said = re.sub(r"^User\b", "the user", said)
    return f"{held.rstrip('.')}; {said[:1].lower()}{said[1:]}"
