"""Changes: what a new claim does to an earlier memory it does not simply repeat. Each detector reads the
candidate and its ranked neighbours and returns a ``Decision`` or nothing:

- ``correction``: "it's 3:48 not 3:42", "Tuesdays, not Thursdays": the value the user corrects;
- ``pointed_retraction``: "scratch the shellfish thing", "forget what I said about…": what it points at;
- ``relation_change``: "Marco and I split up": the partner's status;
- ``attribute_change`` (in ``attribute_change``): same subject, same single-valued attribute of the table,
  another value (or an ending such as "quit keto");
- ``change_target``: a change marker ("now", "no longer", "switched") about the same topic.
"""

from __future__ import annotations

import re
from datetime import timedelta
from collections.abc import Callable, Sequence

from kenning.lifecycle import lexicon, safety, slots
from kenning.text import STOPWORDS
from kenning.lifecycle.extraction import attributes
from kenning.lifecycle.extraction.attributes import Fact
from kenning.lifecycle.extraction import corrections
from kenning.lifecycle.extraction.parse import default_parser
from kenning.lifecycle.extraction.lexicon import STRETCH_NOUNS
from kenning.lifecycle.extraction.pointers import LAST
from kenning.lifecycle.retrieve import terms
from kenning.types import Decision, Kind, Memory, Op, Source, Status
from kenning.lifecycle.matching import CORRECTED, GENERIC, POINTED, Neighbour, slots_of, stems

_NAME = r"[£$€]?[A-Z0-9][\w'-]*(?:[:.,]\d+)*(?:\s+[A-Z0-9][\w'-]*)*"
CORRECTION = re.compile(
    rf"(?:\b(?i:meant|mean|said|is|was|are|were|it's|its|make\s+(?:that|it))|(?i:'s|'re))\s+(?P<new>{_NAME}),?\s+(?:\w+\s+)?not\s+(?P<old>{_NAME})\b"
    rf"|\bnot\s+(?P<old2>{_NAME}),?\s+(?:but\s+|it's\s+|it\s+is\s+)(?P<new2>{_NAME})\b"
)


_LOWER_CORRECTION = re.compile(r"(?i)\b(?:meant|it's|its|it\s+is)\s+(?P<new>[a-z][\w'-]+),?\s+not\s+(?P<old>[a-z][\w'-]+)\b")


_SWAP = re.compile(
    rf"\b(?i:swapped|traded|exchanged|replaced|switched|changed)\s+(?:the\s+|their\s+)?(?P<old>{_NAME})\s+(?i:for|with|to)\s+(?:the\s+|a\s+)?(?P<new>{_NAME})\b"
)


LAST_WINDOW = timedelta(hours=1)


def about_last(candidate: Memory) -> bool:
    """Whether ``candidate`` is about what was said last, however unlike it reads: a correction on a turn of
    its own ("wait no, 7pm") or "scratch that"."""
    return bool(candidate.metadata.get("correct_to")) or candidate.metadata.get("pointer_topic") == LAST


def _users_own(candidate: Memory, ranked: Sequence[Neighbour]) -> list[Memory]:
    """The active memories of ``candidate``'s scope that the user said, other than ``candidate``."""
    return [
        n.memory for n in ranked
        if n.memory.id != candidate.id and n.memory.source is Source.USER_SAID and n.memory.status is Status.ACTIVE
        and n.memory.scope == candidate.scope
    ]


def _said_before(candidate: Memory, ranked: Sequence[Neighbour]) -> list[Memory]:
    """The user's own active facts, preferences and episodes said before ``candidate``, newest first: what a
    correction or a new count can rewrite (never a standing rule)."""
    own = [m for m in _users_own(candidate, ranked) if m.created_at <= candidate.created_at and m.kind is not Kind.PROCEDURE]
    return sorted(own, key=lambda m: (m.created_at, m.id), reverse=True)


def retract_last(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """ "scratch that" on a turn of its own: the newest memory the user said, if said within ``LAST_WINDOW``
    before it (a pointer an hour later points at nothing it can name), is deleted."""
    if candidate.source is not Source.USER_SAID:
        return None
    said = [m for m in _users_own(candidate, ranked) if timedelta(0) <= candidate.created_at - m.created_at <= LAST_WINDOW]
    if not said:
        return None
    last = max(said, key=lambda m: (m.created_at, m.id))
    return Decision(Op.DELETE, last.id, None, POINTED)


def corrects(text: str) -> bool:
    """Whether ``text`` replaces a value in so many words ("I meant Leeds, not York", "its bristol not bath")."""
    return bool(CORRECTION.search(text) or _LOWER_CORRECTION.search(text))


def standalone_correction(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """A correction said on its own turn ("wait no, 7pm", "correction: 4 kids"): the newest memory the
    user said that holds a value of the same shape (and, for a counted noun, the same noun) is rewritten."""
    value = candidate.metadata.get("correct_to")
    if not isinstance(value, str):
        return None
    spelling = bool(candidate.metadata.get("spelling"))
    fixes: list[tuple[Memory, str]] = []
    for old in _users_own(candidate, ranked):
        fixed = corrections.respell(old.text, value) if spelling else corrections.replace_value(old.text, value)
        if fixed is not None and fixed != old.text:
            fixes.append((old, fixed))
    if not fixes:
        return None
    fixes.sort(key=lambda f: f[0].created_at, reverse=True)
    also = tuple((o.id, t) for o, t in fixes[1:]) if spelling else ()  # a name is spelt one way in every memory
    return Decision(Op.UPDATE, fixes[0][0].id, fixes[0][1], CORRECTED, also)


def correction(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """A value replaced in so many words, whatever the attribute: the memory holding the old value is
    rewritten to hold the new one (UPDATE with the rewritten text).

    "I meant Leeds, not York" corrects York to Leeds; "I've swapped Lisbon for Barcelona" rewrites
    "works remotely from Lisbon" as "works remotely from Barcelona (has swapped Lisbon for Barcelona)".
    """
    m = CORRECTION.search(candidate.text) or _LOWER_CORRECTION.search(candidate.text)
    swap = None if m else _SWAP.search(candidate.text)
    if m:
        new, old = (m.group("new"), m.group("old")) if m.group("new") else (m.group("new2"), m.group("old2"))
    elif swap:
        new, old = swap.group("new"), swap.group("old")
    else:
        return None
    if m is not None and m.re is _LOWER_CORRECTION:
        old = next((w for n in ranked for w in re.findall(rf"(?i)\b{re.escape(old)}\b", n.memory.text) if w[:1].isupper()), None)
        if old is None:
            return None  # a lowercase word is a value only where a memory names it as one ("Bath")
        new = new[:1].upper() + new[1:]
    # a bare number corrects a number of the same thing: "make that 3 bedrooms not 2" touches "a 2 bedroom
    # condo", never "2 kids"
    unit = re.match(r"\s*(?!not\b)(?P<w>[a-z]{3,})", candidate.text[m.end("new"):]) if m and m.group("new") and new.isdigit() else None
    held = rf"\b{re.escape(old)}\b" + (rf"(?=\s+{re.escape(unit.group('w')[:4])})" if unit else "")
    for n in ranked:
        if n.memory.id != candidate.id and re.search(held, n.memory.text):
            text = re.sub(held, new, n.memory.text)
            if swap:
                text = f"{text.rstrip('.')} ({candidate.text[len('User '):].rstrip('.') if candidate.text.startswith('User ') else candidate.text.rstrip('.')})."
            return Decision(Op.UPDATE, n.memory.id, text, CORRECTED)
    return None


def contrast_correction(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """A value set against another ("its 850 not 500", "mondays and thursdays i climb, not tuesdays"), marked by
    extraction (metadata ``contrast_old``/``contrast_new``): the newest memory the user said before it that holds
    the old value is rewritten with the nearest new value it does not already hold ("on tuesdays and thursdays"
    -> "on mondays and thursdays"). Nothing holds the old value: None, and the claim is an ordinary one ("I work
    at Tesco, not Asda" said for the first time)."""
    old, news = candidate.metadata.get("contrast_old"), candidate.metadata.get("contrast_new")
    if not isinstance(old, str) or not isinstance(news, list):
        return None
    for mem in _said_before(candidate, ranked):
        at = corrections.holds(mem.text, old)
        new = next((v for v in news if not re.search(rf"(?i)\b{re.escape(v)}\b", mem.text)), None)
        if at is None or new is None:
            continue
        new = new.lower() if old.islower() and new[:1].isupper() and new[1:].islower() else new
        new = corrections.fitted(new, at.group(0))  # "thursday evenings" -> "saturday evenings"
        end = at.end()
        suffix = re.match(r"(?i)(?:st|nd|rd|th)\b", mem.text[end:])
        if suffix and re.search(r"(?i)\d(?:st|nd|rd|th)$", new):
            end += suffix.end()  # "the 12th" -> "the 11th": the new ordinal's ending replaces the old one's
        return Decision(Op.UPDATE, mem.id, mem.text[: at.start()] + new + mem.text[end:], CORRECTED)
    return None


# The change-marker fallback. Cosines of the vectors the write path stores (bundled MiniLM over the text
# with the user's naming words removed, Context.embed_documents), measured 2026-11-29 on texts as extraction
# writes them: 18 same-topic old/new pairs scored 0.28-0.74; those with no old value named ("takes the train
# to the office now" after "drives to the office") 0.58-0.74, those naming it ("left the food bank",
# "swapped the Pixel for an iPhone 15", "switched to a Pixel 8" after "a Samsung Galaxy S21") 0.28-0.43.
# 13 pairs that must not supersede scored 0.16-0.73: unrelated "now" claims 0.16-0.42, and new habits
# beside old ones that share a word ("drinks coffee every morning" / "now drinks water before bed" 0.55,
# "cooks Italian food" / "now eats out at Italian restaurants" 0.73). Cosine alone cannot separate them, so
# a change also needs shared evidence (a content word or a topic of lexicon.TOPICS), a bare "now" needs
# another value of a shared topic (_WEAK_MARKER, _new_value), and relatives never stand in for the user.
# With evidence, 0.45 keeps a margin below the weakest unnamed positive (0.58) and above unrelated "now"
# pairs (0.42); a named old value (or, with an explicit marker, another value of the old claim's topic)
# may go down to 0.15 (swept over the dev sets in session 22: 0.25, 0.20, 0.15 gave 7,329, 7,331, 7,332
# checks, nothing lost on any set).
CHANGE_COSINE = 0.45
NAMED_CHANGE_COSINE = 0.15
# a marked change to another value of one topic ("switched my contract to Vodafone" after "is on giffgaff"): two
# names of one closed class read alike to no embedder (0.16 here), and the topic is the evidence
TOPIC_CHANGE_COSINE = 0.1
# a bare "now" is weak: "now drinks water before bed" beside "drinks coffee every morning" is a new habit, not
# a replacement, so it only counts when the claim names a different value of a shared topic (bus -> cycle)
_WEAK_MARKER = re.compile(r"(?i)(?<!right\s)(?<!just\s)\bnow\b(?!\s+and\s+then)")
CHANGE_MARKER = re.compile(
    r"(?i)\bthese\s+days\b|\bnowadays\b|\bany\s?more\b|\bno\s+(?:longer|more)\b|"
    r"\binstead\b|\b(?:switched|swapped|traded|changed|moved\s+over)\s+(?:from|to|over|for|\w+\s+for|(?:my|our|the|their)\s+[\w-]+\s+(?:over\s+)?to)\b|"
    r"\b(?:upgraded|converted|(?:gone|went)\s+over)\s+to\b|\b(?:moved|reorged|reorganised|reorganized|put|transferred|shifted|bumped)\s+onto\b|\b(?:swapped|traded|replaced|ditched|dropped)\b|"
    r"(?<!get\s)(?<!got\s)(?<!gets\s)(?<!getting\s)(?<!'m\s)(?<!am\s)\bused\s+to\b(?!\s+it\b)|\bfrom\s+now\s+on\b|\bis\s+history\b|\bnot\s+[\w\s-]{1,30}?,?\s+but\b"
)
# the old value named after a marker: "swapped the Pixel for", "no more Netflix", "used to lift weights"
NAMED_OLD = re.compile(
    r"(?i)\b(?:stepped\s+(?:down|back)\s+from|dropped\s+out\s+of|pulled\s+out\s+of|walked\s+away\s+from|moved\s+out\s+of|"
    r"swapped|traded|replaced|ditched|dropped|switched\s+from|moved\s+from|no\s+more|instead\s+of|used\s+to|gave\s+up|quit|left|sold|stopped|"
    r"cancell?ed|unsubscribed\s+from|got\s+rid\s+of)\s+"
    r"(?:the\s+|their\s+|a\s+|an\s+|my\s+)?(?P<old>[\w+-]+(?:\s+[\w+-]+)?)"
    r"|\b(?:the\s+)?(?P<old2>[\w+-]+)\s+is\s+history\b"
)
# words that say nothing about what a habit is: routine verbs, times of day and week, the subject itself
_NOT_EVIDENCE = GENERIC | terms(
    "user users play plays take takes go goes use uses have has get gets do does make makes like likes want wants need "
    "needs keep keeps day days daily week weeks weekend weekends month year morning mornings evening evenings night "
    "nights monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays "
    "sunday sundays every most usually always often time times thing things work home lot bit good fine instead "
    "switched swapped used longer more anymore history days since last"
)


def _subject(text: str) -> str:
    """Whom a claim is about: "user", or the relation it opens with ("User's sister lives …" -> "sister")."""
    m = slots._REL_SUBJECT.match(text.strip())
    return m.group("rel").lower() if m and not re.search(r"(?i)\band\s+the\s+user\b", text) else "user"


def _evidence(a: str, b: str) -> bool:
    """Whether two claims share a content word (by stem) or a topic, so a change of one can be about the other."""
    mine, theirs = stems(" ".join(terms(a) - _NOT_EVIDENCE)), stems(" ".join(terms(b) - _NOT_EVIDENCE))
    return bool(mine & theirs or _clipped(mine, theirs) or lexicon.topics(a) & lexicon.topics(b))


def _clipped(a: set[str], b: set[str]) -> bool:
    """Whether one side names a word by its clipped form: "scope" for "colonoscopy", "physio" for
    "physiotherapy"; never a word of four letters or fewer ("rent" is no clip of "renews")."""
    def clips(x: str, y: str) -> bool:
        return len(x) >= 5 and len(y) > len(x) and (y.startswith(x) or y.rstrip("y").endswith(x.rstrip("e")))
    return any(clips(x, y) or clips(y, x) for x in a for y in b)


def _new_value(a: str, b: str) -> bool:
    """Whether ``a`` names another value of a topic ``b`` holds, and not ``b``'s own ("train" after "drives")."""
    mine, theirs = lexicon.topic_words(a), lexicon.topic_words(b)
    return any(t in theirs and not words & theirs[t] for t, words in mine.items())


_WEEKDAY = re.compile(r"(?i)\b(mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\b")


def _days(text: str) -> set[str]:
    return {m.group(1).lower()[:3] for m in _WEEKDAY.finditer(text)}


def _new_days(a: str, b: str) -> bool:
    """Whether ``a`` puts on other weekdays what ``b`` puts on its own: "pickups are tuesdays and fridays now"
    after "does the school pickup on mondays and wednesdays"."""
    mine, theirs = _days(a), _days(b)
    return bool(mine and theirs and not mine & theirs)


def _new_degree(a: str, b: str) -> bool:
    """Whether ``a`` gives the same thing ``b`` describes another quality, and ``b`` says nothing else:
    "User's shellfish allergy is severe now" after "User has a mild shellfish allergy"."""
    pa, pb = (default_parser().parse([t])[0] for t in (a, b))
    if not pa or not pb:
        return False
    def parts(sents):
        toks = [t for s in sents for t in s.tokens]
        return ({t.lemma for t in toks if t.pos == "ADJ"}, {t.lemma for t in toks if t.pos in ("NOUN", "PROPN") and t.lemma != "user"})
    adj_a, nouns_a = parts(pa)
    adj_b, nouns_b = parts(pb)
    return bool(adj_a and adj_b and not adj_a & adj_b and nouns_b and nouns_b <= nouns_a)


def _names_old(candidate: str, other: str) -> bool:
    """Whether ``candidate`` names, as the value it leaves behind, a word that ``other`` holds."""
    held = stems(" ".join(terms(other) - _NOT_EVIDENCE))
    for m in NAMED_OLD.finditer(candidate):
        if stems(" ".join(terms(m.group("old") or m.group("old2") or "") - _NOT_EVIDENCE)) & held:
            return True
    return False


_NEW_THING = re.compile(r"(?i)\b(?:my|our|the|a|his|her|their)\s+new\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)\s+(?:is|are|'s|was)\b")


def _renewed(text: str) -> set[str]:
    """The stems of the thing a claim says is new, as what it is: "my new phone is an iPhone 15" -> {"phone"},
    "the new head chef is Roshan" -> {"head", "chef"}; a new thing only had ("got a new bike") is no
    replacement of an old one."""
    return {w for m in _NEW_THING.finditer(text) for w in stems(" ".join(terms(m.group(1)) - _NOT_EVIDENCE))}


def change_target(candidate: Memory, ranked: Sequence[Neighbour]) -> Memory | None:
    """The memory a user's explicitly marked change replaces when no attribute slot decided, or None.

    The candidate must be a fact or preference the user said with a change marker ("now", "these days",
    "no longer", "instead", "swapped … for", "used to"). The target is the most similar active fact or
    preference the user said about the same subject (never a procedure, never a relative's claim for the
    user's own), not about a different recognised attribute, sharing a content word or a topic, and
    similar enough (``CHANGE_COSINE``, or ``NAMED_CHANGE_COSINE`` when the old value is named). No
    evidence, no change: a wrong supersession loses true data, a missed one only leaves a stale neighbour.
    """
    compatible = (Kind.FACT, Kind.PREFERENCE)
    if candidate.kind not in compatible or candidate.source is not Source.USER_SAID:
        return None
    renewed = _renewed(candidate.text)  # "the new laptop is a ThinkPad": the laptop named before is replaced
    marked = bool(CHANGE_MARKER.search(candidate.text)) or bool(renewed)
    weak = not marked and bool(_WEAK_MARKER.search(candidate.text))
    if not marked and not weak and not NAMED_OLD.search(candidate.text):
        return None  # "left", "sold", "quit" count only with the old value named in the neighbour
    # "now also", "another", "too": something added beside the old habit, unless the old value is named
    adds = bool(re.search(r"(?i)\b(?:also|too|as\s+well|another|second|besides|on\s+top)\b", candidate.text))
    who = _subject(candidate.text)
    mine = {s.key for s in slots_of(candidate)}
    for n in ranked:
        old = n.memory
        if old.id == candidate.id or old.kind not in compatible or old.source is not Source.USER_SAID:
            continue
        if old.status is not Status.ACTIVE or old.scope != candidate.scope or _subject(old.text) != who:
            continue
        if old.source_refs and set(old.source_refs) <= set(candidate.source_refs):
            continue  # said in the same turn: "pickups are tuesdays now, swapped with my wife" changes no part of itself
        theirs = {s.key for s in slots_of(old)}
        if mine and theirs and not mine & theirs:
            continue  # two different recognised attributes ("works at X now" vs "lives in Y")
        # an old value named, or (with an explicit marker) another value of a topic the old claim holds
        # ("switched to a Pixel 8" after "a Samsung Galaxy S21", cosine 0.40), may be less similar
        new_value, new_days = _new_value(candidate.text, old.text), _new_days(candidate.text, old.text)
        by_topic = (marked or weak) and not adds and new_value  # "everything's in starling now"
        named = _names_old(candidate.text, old.text) or (marked and (new_value or new_days)) or bool(
            renewed & stems(" ".join(terms(old.text) - _NOT_EVIDENCE)))
        if (adds or not (marked or weak)) and not named:
            continue
        if weak and not named and not new_value and not new_days and not _new_degree(candidate.text, old.text):
            continue
        if n.cosine < (TOPIC_CHANGE_COSINE if by_topic else NAMED_CHANGE_COSINE if named else CHANGE_COSINE):
            continue
        if named or _evidence(candidate.text, old.text):
            return old
    return None


_DROP = r"(?:scratch|scrap|forget|ignore|disregard|strike|delete|cross\s+out|drop)"
_TOPIC = r"(?P<x>[\w'-]+(?:\s+[\w'-]+){0,2}?)"
# an earlier claim pointed at by a word of it, not restated: "ignore what I said about AQA",
# "scratch the shellfish thing", "forget the bit about the gym", "that marathon stuff was wrong"
_POINTER = re.compile(
    rf"(?i)\b{_DROP}\s+(?:what\s+(?:the\s+user|user|i|they)\s+(?:said|told\s+you|mentioned)|the\s+(?:bit|part|thing|stuff|comment|note)|"
    rf"everything|anything|that)\s+(?:about|re|regarding|on)\s+(?:the\s+|their\s+|my\s+)?{_TOPIC}(?=\s*(?:[,;.!?\-–—]|$))"
    rf"|\b{_DROP}\s+(?:the|that|my|their)\s+{_TOPIC.replace('?P<x>', '?P<x2>')}\s+(?:thing|bit|part|stuff|comment|one)\b"
    rf"|\b(?:the|that)\s+{_TOPIC.replace('?P<x>', '?P<x3>')}\s+(?:thing|bit|part|stuff)\s+(?:(?:was|is)\s+(?:wrong|incorrect|a\s+mistake|not\s+(?:right|true))|"
    r"(?P<over>(?:isn't|is\s+not|wasn't|doesn't|does\s+not|won't)\s+(?:working|work)(?:\s+out)?(?:\s+(?:for\s+(?:me|them|the\s+user)\s+)?any\s?(?:more|longer))?))\b"
)
_REPLACED_BY = re.compile(rf"^(?:it's|it\s+is|it\s+was|it\s+should\s+be|actually|rather)\s+(?P<new>{_NAME})\W*$")
POINTER_MARGIN = 0.1


_SHORT_NOT_POINTED = STOPWORDS | {"up", "ok", "oh", "ah", "eh", "ha", "ya", "yo", "lo", "ll", "ve", "re", "nt", "st", "nd", "rd", "th"}


def _pointer_words(text: str) -> set[str]:
    """Word stems plus tokens holding a digit ("6am", "28th"), which ``stems`` leaves out; a final "e" goes, so
    the word pointed at meets the same word in another form ("the divorce" / "getting divorced")."""
    short = {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) == 2 and w not in _SHORT_NOT_POINTED}  # "my ex", "the PE job"
    return {w[:-1] if w.endswith("e") and len(w) >= 4 else w for w in stems(text)} | {w for w in text.lower().split() if re.search(r"\d", w)} | short


def facts_of(memory: Memory) -> list[Fact]:
    """The attributes a fact or preference sets (``lifecycle.extraction.attributes``), read off its parsed text."""
    if memory.kind not in (Kind.FACT, Kind.PREFERENCE):
        return []
    return attributes.all_of_text(default_parser(), memory.text)


def fact_of(memory: Memory) -> Fact | None:
    """The first attribute a fact or preference sets, or None (``facts_of`` has them all)."""
    found = facts_of(memory)
    return found[0] if found else None


def _measured(topic: str) -> Callable[[str], bool]:
    """Whether a text gives a figure of a measured quantity the pointed topic names: "forget what I told you
    about my salary" points at "User is on 52k", which names no salary."""
    from kenning.lifecycle.quantities import QUANTITIES, readings  # quantities builds on this module
    named = {q.name for q in QUANTITIES if q.cues & stems(topic)}
    return (lambda text: bool(named & set(readings(text)))) if named else (lambda text: False)


_EVERYTHING = re.compile(r"(?i)\b(?:everything|anything|all)\s+(?:about|re|regarding|to\s+do\s+with)\b")


def _category(topic: str) -> str | None:
    """The personal category a pointer's topic names and nothing else ("the religion part", "my medical stuff")."""
    words = {w for w in re.findall(r"[a-z]+", topic.lower()) if w not in STOPWORDS and w not in STRETCH_NOUNS}
    return safety.category_named(words) if words else None


def _forget_all(hits: Sequence[Neighbour]) -> Decision | None:
    """One pointed deletion of every memory in ``hits``: the first is the target, the others ride in ``also``."""
    if not hits:
        return None
    return Decision(Op.DELETE, hits[0].memory.id, None, POINTED, also=tuple((n.memory.id, "") for n in hits[1:]))


def pointed_retraction(candidate: Memory, ranked: Sequence[Neighbour]) -> Decision | None:
    """An earlier claim the user takes back by naming a word of it ("scratch the shellfish thing").

    The target is the one active fact or preference the user said whose content words hold the pointed
    word; with several, the most similar only if it leads the next by ``POINTER_MARGIN``, otherwise
    nothing happens (a wrong retraction loses true data). A replacement after the pointer updates the
    target instead: "…about AQA, it's Edexcel" rewrites AQA as Edexcel, a clause ("their school actually
    uses Edexcel") becomes the new text.
    """
    if candidate.source is not Source.USER_SAID:
        return None
    m = _POINTER.search(candidate.text)
    topic = candidate.metadata.get("pointer_topic")
    if m is None and not topic:
        return None
    x = topic or m.group("x") or m.group("x2") or m.group("x3")
    wanted = _pointer_words(" ".join(terms(x) - _NOT_EVIDENCE))
    if not wanted:
        return None
    # the parse's topic ("me and Dan splitting up") may hold more words than the claim it points at: most must match
    need = len(wanted) if not topic else max(1, (len(wanted) + 1) // 2)
    measured = _measured(x)
    eligible = [
        n for n in ranked
        if n.memory.id != candidate.id and n.memory.source is Source.USER_SAID and n.memory.status is Status.ACTIVE
        and n.memory.kind in (Kind.FACT, Kind.PREFERENCE, Kind.EPISODE) and n.memory.scope == candidate.scope
    ]
    hits = [n for n in eligible if len(wanted & _pointer_words(" ".join(terms(n.memory.text)))) >= need or measured(n.memory.text)]
    category = _category(x) if m is None or not m.group("over") else None
    if category is not None:  # "forget the religion part": every memory about it goes ("my salary": its figure too)
        return _forget_all([n for n in eligible if n in hits or safety.in_category(n.memory.text, category)])
    if hits and _EVERYTHING.search(candidate.text):  # "delete everything about Kacper": all of it
        return _forget_all(hits)
    if not hits or (len(hits) > 1 and hits[0].cosine - hits[1].cosine < POINTER_MARGIN):
        return None
    target = hits[0].memory
    if m is not None and m.group("over"):
        # "the 6am thing isn't working any more, can we move it to 8pm": the whole statement replaces the old one
        return Decision(Op.UPDATE, target.id, candidate.text, CORRECTED)
    rest = candidate.text[m.end():].strip(" ,;:-–—.!?") if m is not None else ""
    rest = re.sub(r"(?i)^(?:but|and|so|because|as)\s+", "", rest)
    swap = _REPLACED_BY.match(rest)
    if swap and re.search(rf"(?i)\b{re.escape(x)}\b", target.text):
        text = re.sub(rf"(?i)\b{re.escape(x)}\b", swap.group("new"), target.text)
        return Decision(Op.UPDATE, target.id, text, CORRECTED)
    if len(terms(rest) - _NOT_EVIDENCE) >= 2 and not re.match(r"(?i)that's|that\s+is|it's\s+(?:my|the\s+user's|their)", rest):
        text = re.sub(r"(?i)^(?:their|my)\s+", "User's ", re.sub(r"(?i)^(?:they|i)\s+", "User ", rest))
        return Decision(Op.UPDATE, target.id, f"{text[:1].upper()}{text[1:]}.", CORRECTED)
    return Decision(Op.DELETE, target.id, None, POINTED)
