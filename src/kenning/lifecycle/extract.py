"""Extraction: conversation turns in, one-claim candidate memories out. Pure and deterministic.

The offline rules engine reads each turn sentence by sentence, splits
compound statements into clauses at the points where a new self-statement
starts ("I'm vegetarian, I live in Leeds and I prefer morning meetings"),
and classifies each clause:

- small talk ("thanks", "ok great") yields nothing;
- standing instructions aimed at the assistant ("whenever you book flights,
  always add my frequent flyer number …") become procedures (user turns only);
- requests and questions become episodes ("User asked to book …");
- statements about the user become facts, preferences or episodes, written
  in the third person with every distinctive token kept ("User lives in York").

Source follows the role: user turns are ``user_said``; tool content is
``tool_result`` with confidence ≤ 0.4 and never a procedure; assistant turns
give at most ``inferred`` episodes. Clauses holding a secret are withheld
(unless allowed); tool text from the first injected instruction on is
withheld.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kenning.errors import ValidationError
from kenning.lifecycle import injection, instructions, safety, secrets, slots
from kenning.lifecycle.clauses import SELF as _SELF
from kenning.lifecycle.clauses import split_clauses, split_sentences
from kenning.lifecycle.clauses import subject as _subject
from kenning.lifecycle.person import third_person
from kenning.lifecycle.retrieve import terms
from kenning.lifecycle.slots import Slot
from kenning.types import Kind, Sensitivity, Source

ROLES = ("user", "assistant", "tool")
MAX_TOOL_CLAIMS = 3
TOOL_CONFIDENCE = 0.3
INFERRED_CONFIDENCE = 0.45
USER_CONFIDENCE = 0.9


@dataclass(frozen=True, slots=True)
class Turn:
    """One message: ``role`` is user, assistant or tool; ``name`` names the tool; ``id`` is the caller's
    id for the turn (a memory extracted from it lists it in ``source_refs``)."""

    role: str
    content: str
    name: str | None = None
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """A candidate memory before it is embedded and written."""

    text: str
    kind: Kind
    source: Source
    importance: float
    confidence: float
    sensitivity: Sensitivity
    slot: Slot | None = None
    turn: int = 0
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Extraction:
    """The claims of a batch of turns and the reasons for anything withheld (never the withheld text)."""

    claims: tuple[Claim, ...] = ()
    withheld: tuple[str, ...] = field(default_factory=tuple)


def parse_messages(messages: Any, *, max_chars: int) -> list[Turn]:
    """Validate ``messages`` (a string or a list of ``{role, content[, name]}``) into turns.

    Raises ``ValidationError`` naming the first problem; nothing is written then.
    """
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    if not isinstance(messages, Sequence) or isinstance(messages, (bytes, bytearray)) or not messages:
        raise ValidationError("messages must be a non-empty string or a non-empty list of {role, content} dicts")
    turns = []
    for i, msg in enumerate(messages):
        if not isinstance(msg, dict):
            raise ValidationError(f"message {i} must be a dict with 'role' and 'content'")
        role, content, name = msg.get("role"), msg.get("content"), msg.get("name")
        if role not in ROLES:
            raise ValidationError(f"message {i}: role must be one of {', '.join(ROLES)}; got {role!r}")
        if not isinstance(content, str) or not content.strip():
            raise ValidationError(f"message {i}: content must be a non-empty string")
        if len(content) > max_chars:
            raise ValidationError(f"message {i} is {len(content)} characters; the limit is {max_chars}")
        if name is not None and not isinstance(name, str):
            raise ValidationError(f"message {i}: name must be a string")
        turn_id = msg.get("id")
        if turn_id is not None and not (isinstance(turn_id, str) and turn_id.strip() and len(turn_id) <= 200):
            raise ValidationError(f"message {i}: id must be a non-empty string of at most 200 characters")
        turns.append(Turn(role, content.strip(), name, turn_id))
    return turns


# -- clause classification ----------------------------------------------------------

_MARKERS = (
    r"oh|ok|okay|well|so|also|anyway|anyways|actually|btw|by\s+the\s+way|fyi|just\s+so\s+you\s+know|for\s+the\s+record|"
    r"big\s+news|good\s+news|bad\s+news|quick\s+update|update|news|hey|hi|hello|thanks|thank\s+you|great|cool|right|um|uh|"
    r"ugh|yeah|yes|no(?=\s*(?:[,:;.!\-–—]|$)|\s+(?:i|i'm|im|i've|it|it's|its|that|that's|thats|she|he|we|they|you|my|wait|sorry|actually|but|and|thanks|problem|worries|no)\b)|sure|alright|and|but|plus|funny|honestly|basically|incidentally|as\s+it\s+happens|heads\s+up|"
    r"quick\s+intro|intro|oh\s+(?:wonderful|great|fantastic|brilliant|perfect|joy)|sadly|luckily|unfortunately|"
    r"fortunately|by\s+the\s+way|one\s+more\s+thing|last\s+thing|note|p\.?s\.?|correction|wait|(?:it\s+)?turns\s+out(?:\s+that)?|"
    r"apparently|it\s+seems(?:\s+that)?|these\s+days|nowadays|just\s+to\s+let\s+you\s+know|to\s+be\s+honest|tbh|also\s+worth\s+knowing|"
    r"oh\s+and|and\s+also|one\s+other\s+thing|small\s+correction|quick\s+correction|update|"
    # "no" answers only when a stop or a new clause follows: "no egg mayo sandwiches" is said of the sandwiches
    # change markers: they signal that what follows replaces an earlier value; they are not memories themselves
    r"(?:i(?:'ve|\s+have)?\s+)?changed\s+my\s+mind(?=\s*(?:[,:;.!\-–—]|$))|on\s+second\s+thoughts?|scratch\s+that|"
    r"change\s+of\s+plans?|(?:i\s+)?stand\s+corrected|let\s+me\s+correct\s+(?:that|myself)|to\s+correct\s+myself"
)
_LEAD = re.compile(rf"(?i)^(?:(?:{_MARKERS})\b[\s,:;.!\-–—]*)+")
_REMEMBER = re.compile(
    r"(?i)^(?:(?:please|always|do|and|also|just)\s+)*(?:remember|note|keep\s+in\s+mind|don't\s+forget|do\s+not\s+forget|never\s+forget|"
    r"bear\s+in\s+mind|for\s+future\s+reference|make\s+a\s+note)(?:\s+(?:that|of\s+this))?[\s,:]+(?!to\b)(?=\S)"
)
_PREAMBLE = re.compile(
    rf"^(?!(?:if|when|whenever|once|unless|because|since|after|before|although|though)\b)(?![^,:;]*\b(?:I|I'm|my|we|our|me|us)\b)[^,:;]{{1,30}}[,:;]\s+(?={_SELF})",
    re.I,
)
_TAIL = re.compile(
    r"(?i)[\s,;-]*(?:keep\s+(?:that|this)\s+in\s+mind|in\s+case\s+you\s+need\s+(?:it|that)|just\s+so\s+you\s+know|fyi|"
    r"thanks|thank\s+you|if\s+that\s+helps|for\s+(?:future\s+)?reference|please\s+remember\s+(?:that|this)|"
    r"remember\s+(?:that|this)|noted|cheers|by\s+the\s+way|btw|(?:and\s+)?(?:please\s+)?(?:don't|do\s+not)\s+forget(?:\s+(?:it|that|this))?|"
    r"(?:please\s+)?(?:make\s+a\s+note\s+of|note|remember)\s+(?:it|that|this)|write\s+(?:it|that)\s+down|for\s+the\s+record)[.!]*$"
)
_SMALL = frozenset(
    "thank thanks ok okay great cool nice hello hi hey bye goodbye good morning evening night afternoon lol haha yes yeah "
    "yep no nope sure perfect awesome brilliant cheers noted got sound sounds alright fine right wonderful please much "
    "appreciate appreciated welcome see later ta thx ty lovely excellent amazing gotcha understood done oh ah wow hmm "
    "agreed exactly indeed absolutely definitely true fair enough help helpful glad well about intro introduction myself "
    "update news quick bit little things thing stuff".split()
)
STANDING = re.compile(
    r"(?i)\b(?:always|never|whenever|every\s+time|each\s+time|from\s+now\s+on|in\s+(?:the\s+)?future|going\s+forward|"
    r"for\s+(?:all\s+)?future|all\s+future|for\s+every|for\s+all\s+(?:my|our)\s+\w+|if\s+you\s+ever|"
    r"any\s?time\s+you|by\s+default|as\s+a\s+rule|make\s+sure\s+(?:to|you)|remember\s+to|don't\s+ever|do\s+not\s+ever)\b"
)
_REQUEST_LEAD = re.compile(
    r"(?i)^(?:please\s+|pls\s+|kindly\s+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?|^(?:please|pls|kindly)\s+|"
    r"^(?:i\s+(?:need|want|would\s+like|'d\s+like)\s+you\s+to)\s+|^(?:help\s+me)\s+"
)
# "When booking restaurants for me, …", "If you ever book me a hotel, …": a rule for the assistant's actions.
_ON_ACTION = re.compile(
    r"(?i)^(?:when(?:ever)?|if|each\s+time|every\s+time|any\s?time|for\s+(?:all\s+)?(?:future\s+)?)\s+(?:you\s+(?:ever\s+)?)?"
    r"(?:book|order|schedule|plan|arrange|reserve|buy|send|email|call|pick|choose|make)\w*\b.*\b(?:me|my|us|our)\b"
    # whatever the assistant does to or for the user, said as the time of an order: "please when you write to me use …"
    r"|^(?:please\s+|pls\s+)?(?:when(?:ever)?|each\s+time|every\s+time|any\s?time)\s+you\s+(?:ever\s+)?[a-z]+\w*\s+(?:to\s+|for\s+)?(?:me|us)\b"
)
_QUESTION = re.compile(r"(?i)^(?:can|could|would|will|shall|should|what|what's|where|when|who|whom|why|how|which|is|are|do|does|did|any)\b")
IMPERATIVES = frozenset(
    "book find get send remind schedule order cancel check show tell give call email text reserve add remove set make buy "
    "pay arrange look search help recommend suggest plan organise organize create write draft translate convert change "
    "update move put note keep let use avoid pick choose compare confirm print share play start stop turn open close read "
    "summarise summarize list track sign register renew request ask contact notify don't do never always please sort "
    "upgrade downgrade rebook reschedule switch transfer forward".split()
)
_RECENT = re.compile(
    r"(?i)\b(?:today|yesterday|tonight|this\s+(?:morning|afternoon|evening|week|weekend)|last\s+(?:night|week|weekend|month)|"
    r"just\s+now|earlier|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?!\s+(?:nights|mornings|evenings|afternoons)\b)|at\s+the\s+moment|right\s+now)\b"
)
_PAST = re.compile(r"^(?:User|The user)\s+(?:\w+ly\s+|just\s+|finally\s+|also\s+)*(?:was|were|got|went|had|saw|met|took|did|ate|\w+ed)\b")
# a one-time exception, not a standing fact or preference: "just this once I'll take the red-eye"
_ONE_OFF = re.compile(
    r"(?i)\b(?:just\s+this\s+(?:once|time)|(?:only\s+)?this\s+(?:one\s+)?time(?:\s+only)?|for\s+this\s+(?:trip|booking|flight|stay|visit|order|once)(?:\s+only)?|"
    r"(?:as\s+a\s+)?one[- ]off|for\s+(?:today|tonight|tomorrow)\s+only|exceptionally)\b"
)
_NOW_LEAD = re.compile(r"(?i)^(?:(?:so|and|but|well|oh|actually|anyway)\W+)*(?:these\s+days|nowadays)\b")
# a past event told to explain a present habit ("bought an e-bike last month so I cycle in now", "I used to
# run, these days I swim") states how things are now: a fact, not an episode
_HABIT_NOW = re.compile(r"(?i)(?<!right\s)(?<!just\s)\bnow\b(?!\s+and\s+then)|\bthese\s+days\b|\bnowadays\b|\binstead\b")
_PREFERENCE = re.compile(r"(?i)\b(?:prefers?|likes?|loves?|enjoys?|hates?|dislikes?|can't\s+stand|favou?rite|rather|fan\s+of|into|obsessed\s+with|addicted\s+to|hooked\s+on)\b")
_SARCASM = re.compile(
    r"(?i:^(?:oh|ah)\s+(?:wonderful|great|fantastic|brilliant|perfect|joy|lovely|super)|\byeah\s+right\b|\b(?:just|exactly)\s+what\s+i\s+(?:needed|wanted)\b|\bmy\s+favou?rite\s+thing\b|\blove\s+that\s+for\s+me\b|"
    r"\bsure,\s+because\b|\bas\s+if\b|^(?:oh\s+)?(?:great|wonderful|fantastic|brilliant|perfect|lovely|marvellous|super|awesome)[,!]+\s+(?:another|yet\s+another|more)\b)|\b(?:LOVE|ADORE|LOVED|ADORED)\b|\b[Ll]ove(?:d)?\s+(?:another|yet\s+another)\b"
)

IMPORTANCE = {
    "allergy": 0.9, "diet": 0.7, "residence": 0.7, "employer": 0.6, "rel": 0.6, "phone": 0.6, "email": 0.6,
    "address": 0.6, "birthday": 0.6, "age": 0.5, "name": 0.7, "car": 0.5, "relstatus": 0.6, "alcohol": 0.6, "smoking": 0.6, "attr": 0.6, "pref": 0.55, "like": 0.5, "occupation": 0.6,
}


def _strip(clause: str) -> str:
    c = clause.strip().strip("\"'")
    for _ in range(3):
        before = c
        c = _LEAD.sub("", c)
        c = _REMEMBER.sub("", c)
        c = _PREAMBLE.sub("", c) if len(c.split(",")[0].split()) <= 4 else c
        c = _TAIL.sub("", c).strip()
        c = _subject(c)
        if c == before:
            break
    return c.strip(" ,;:-")


def is_small_talk(text: str) -> bool:
    """True when ``text`` has no content word outside the small-talk vocabulary."""
    words = {w for w in re.findall(r"[a-z']+", text.lower())}
    content = {w for w in terms(text)} - _SMALL
    return not content or not (words - _SMALL - {"i", "it", "that", "this", "you", "is", "a", "the", "so", "for", "to", "and", "me"})


# -- the rules ------------------------------------------------------------------------


def _finish(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip(" ,;:-")
    text = re.sub(r"(?i)\b(the user)\s+the user\b", r"\1", text)  # "luca and me we are finished": one user, said twice
    return text if text.endswith((".", "!", "?")) else text + "."


_CANON = {
    "residence": ("User lives in {v}", re.compile(r"(?i)\b(?:lives?|living|resides?|based)\b")),
    "employer": ("User works at {v}", re.compile(r"(?i)\b(?:works?|working|employed)\s+(?:at|for|by|with)\b")),
}


def canonical(text: str, slot: slots.Slot) -> str:
    """A change stated indirectly gets the attribute's plain form first, the original words kept after it:
    "User relocated from Bristol to Cardiff." -> "User lives in Cardiff (relocated from Bristol to Cardiff)."
    """
    form = _CANON.get(slot.key)
    if form is None or slot.negated or not slot.value or form[1].search(text) or not text.startswith("User "):
        return text
    at = text.lower().rfind(slot.value)
    if at < 0:
        return text
    art = re.search(r"(?i)\b(?:the|a|an)\s+$", text[:at])
    at = art.start() if art else at  # a common-noun value keeps its article: "works at the local hospital"
    value = text[at : at + len(slot.value) + (len(art.group()) if art else 0)]
    rest = text[len("User ") :].rstrip(".!?")
    return _finish(f"{form[0].format(v=value)} ({rest})")


def _is_standing_instruction(c: str, req: str, first: str) -> bool:
    """A rule for the assistant's future actions: a marker (always, whenever, from now on…) in a
    clause addressed to the assistant (you, please, an imperative), or a condition on what the
    assistant does for the user ("when booking restaurants for me, …"). Never a self-statement
    ("I always take the train")."""
    if re.match(r"(?i)^(?:I|we)\b", c):
        return False
    if _ON_ACTION.match(c):
        return True
    standing = STANDING.search(c)
    if not standing:
        return False
    verbs = [w.lower() for w in re.findall(r"(?i)\b(?:always|never|please|to)\s+(\w+)", c)]
    # "for all future bookings use my account": an imperative just after the marker
    verbs += [w.lower() for w in re.findall(r"[A-Za-z']+", c[standing.end() :])[:3]]
    return bool(re.search(r"(?i)\byou(?:r)?\b|\bplease\b", c)) or first in IMPERATIVES or req != c or any(w in IMPERATIVES for w in verbs)


def _is_request(c: str, req: str, first: str, starts_self: bool) -> bool:
    """A question or request to the assistant (an episode), not a statement about the user."""
    asks = (c.endswith("?") and (not starts_self or bool(_QUESTION.match(c)))) or bool(
        _QUESTION.match(c) and not starts_self and re.search(r"(?i)\byou\b", c)
    )
    pleads = bool(re.search(r"(?i)\bplease\b", c)) and not starts_self
    # "For this trip only, book me a middle seat": an imperative after a short leading phrase
    led = re.match(r"^[^,]{1,40},\s*(?P<w>[A-Za-z']+)", c)
    commands = bool(led and led.group("w").lower() in IMPERATIVES and not starts_self)
    return req != c or asks or (first in IMPERATIVES and not starts_self) or pleads or commands


def _contact_detail(c: str) -> tuple[str, Kind, float] | None:
    """ "You can email me at x@y.org from now on", "Please use 07700 900222": how to reach the user is a
    fact about them, however it is phrased (instruction, request), so a new number replaces the old one."""
    addressed = re.search(r"(?i)\b(?:me|my|I|us|our)\b", c) or re.match(r"(?i)(?:please\s+)?(?:use|try|dial)\b", c)
    if c.endswith("?") or not addressed:
        return None
    body = third_person(_REQUEST_LEAD.sub("", c))
    text = _finish(body if re.search(r"(?i)\b(?:me|my|I|us|our)\b", c) else f"User asked to {body[:1].lower()}{body[1:]}")
    slot = slots.parse(text)
    if slot is None or slot.key not in ("phone", "email"):
        return None
    return text, Kind.FACT, IMPORTANCE[slot.key]


ASKED = "User asked"  # how a request or question is worded as an episode ("User asked to book …", "User asked: …")


_DENIED = re.compile(r"(?i)\b(?:not|no\s+longer)\b|n't\b")


_NUMBER_WORD = re.compile(r"(?i)\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                          r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b")
_JOB_SAID = re.compile(rf"(?i)^[A-Z][a-z]+(?:'s|\s+is)\s+an?\s+(?:[\w-]+\s+)?{slots.JOB}\W*$")  # "Ines is a vet": who someone is
_COPULA_LEAD = re.compile(r"(?i)^[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?(?:'s|\s+(?:is|was|are|were|isn't|wasn't|seems?|looks?|sounds?))\b")


def asked_to(order: str) -> str:
    """How a request reads in a memory: "book a table" -> "User asked to book a table"; a need said with its "I" left
    out is what was asked for: "need a cheap city break in april" -> "User asked for a cheap city break in april",
    "need to renew my passport" -> "User asked to renew …"."""
    order = order[:1].lower() + order[1:]
    need = re.match(r"(?i)(?:need|want)(?:s|ed)?\s+(to\s+)?", order)
    if need is None:
        return f"{ASKED} to {order}"
    return f"{ASKED} {'to' if need.group(1) else 'for'} {order[need.end():]}"


def classify_user_clause(clause: str, keep: frozenset[str] = frozenset()) -> tuple[str, Kind, float] | None:
    """(normalised text, kind, importance) for one clause of a user turn, or None for small talk.

    Order: small talk (nothing), standing instruction (procedure), request or
    question (episode), sarcasm (episode), statement about someone or something
    else (low episode), recognised attribute (fact or preference), recent or past
    event (episode), stated liking (preference), anything else about the user (fact).
    ``keep``: words a parse says are not present-tense verbs, never inflected after "I".
    """
    c = _strip(clause)
    if not c or is_small_talk(c) or len(terms(c)) < 1:
        return None
    if _NOW_LEAD.match(clause.strip()) and not re.search(r"(?i)\bnow\b", c):
        # "These days I walk in": the lead marker is stripped, but the change it marks is kept as "now"
        c = re.sub(r"^(?P<s>I|We|we)(?P<c>'m|'re)?\b", lambda m: f"{m.group('s')}{m.group('c') or ''} now", c, count=1)
    sarcastic = bool(_SARCASM.search(clause))
    starts_self = bool(re.match(_SELF, c) or re.match(r"(?i)^(?:when|since|after|before|because|if|as)\s+I\b", c))
    req = _REQUEST_LEAD.sub("", c)
    first = req.split()[0].lower().strip(",") if req.split() else ""
    contact = _contact_detail(c)
    if contact is not None:
        return contact
    changes = not sarcastic and _is_request(c, req, first, starts_self) and instructions.changes_answers(c)
    if not sarcastic and (_is_standing_instruction(c, req, first) or changes):
        # (or a request that answers come another way: "can you go back to short paragraphs?")
        body = third_person(re.sub(r"(?i)^(?:can|could|shall)\s+we\s+", "", req).rstrip("?"), keep)
        return _finish(f"Standing instruction: {body[:1].lower() + body[1:]}"), Kind.PROCEDURE, 0.85
    if _is_request(c, req, first, starts_self):
        body = third_person(req, keep).rstrip("?.!")
        inverted = len(req.split()) > 1 and req.split()[1].lower() in ("i", "we")  # "do I type it into the app …?": a question
        if first in IMPERATIVES and req.split()[0].lower() == first and not inverted:
            if (neg := re.match(r"(?i)(?:don'?t|do\s+not)\s+", body)) is not None:  # "asked not to call before 9am"
                return _finish(f"{ASKED} not to {body[neg.end():]}"), Kind.EPISODE, 0.3
            return _finish(asked_to(body)), Kind.EPISODE, 0.3
        return _finish(f"{ASKED}: {body[:1].lower() + body[1:]}"), Kind.EPISODE, 0.3
    text = _finish(third_person(c, keep))
    if sarcastic:
        return text, Kind.EPISODE, 0.2
    if _ONE_OFF.search(clause):
        # an exception for one occasion never becomes (or replaces) a standing preference
        return text, Kind.EPISODE, 0.3
    if re.match(slots.DEATH, text):
        # "Biscuit passed away": a named pet or relative died; kept as a fact so it can retract "has a dog called Biscuit"
        return text, Kind.FACT, IMPORTANCE["rel"]
    if not starts_self and not re.search(r"(?i)\b(?:I|my|me|we|our|us)\b", c):
        # about someone else: "Elin is 5 now", "Tinashe is not at Wolves" (a name with a figure, or a name denied
        # another name) say enough; "Kasia is not happy" does not; a comment needs more words
        named = bool(re.match(r"[A-Z][a-z]+\b", c))
        figure = bool(re.search(r"\d", c) or _NUMBER_WORD.search(c))  # "Mila is seventeen"
        does = len(terms(c)) >= 2 and len(c.split()) >= 3 and not _COPULA_LEAD.match(c)  # "Eli can't have dairy": a verb and its object, not a comment
        enough = len(terms(c)) >= 3 or (named and (figure or does or _JOB_SAID.match(c) or (bool(_DENIED.search(c)) and bool(re.search(r"\s[A-Z][a-z]", c)))))
        return (text, Kind.EPISODE, 0.2) if enough else None
    slot = slots.parse(text)
    if slot is not None and not (_RECENT.search(c) and slot.attribute not in IMPORTANCE):
        attr = slot.attribute.split(".")[-1].split(":")[0]
        kind = Kind.PREFERENCE if attr in ("pref", "like") else Kind.FACT
        return canonical(text, slot), kind, IMPORTANCE.get(attr, 0.5) if "." not in slot.key else 0.5
    if (_RECENT.search(c) or _PAST.match(text)) and not _HABIT_NOW.search(c):
        return text, Kind.EPISODE, 0.3
    if _PREFERENCE.search(c):
        return text, Kind.PREFERENCE, 0.5
    return text, Kind.FACT, 0.5


def _user_claims(turn: Turn, index: int, allow_secrets: bool) -> tuple[list[Claim], list[str]]:
    claims, withheld = [], []
    text = turn.content if allow_secrets else secrets.mask_secrets(turn.content)
    sarcastic = bool(_SARCASM.search(text))
    for sentence in split_sentences(text):
        one_off = _ONE_OFF.search(sentence)
        for clause in split_clauses(sentence):
            if secrets.SECRET_MARK in clause:
                withheld.append("secret")
                continue
            if one_off and not _ONE_OFF.sub("", clause).strip(" ,.;:!-"):
                continue  # "This time only," on its own says nothing
            got = classify_user_clause(clause)
            if got is None:
                continue
            body, kind, importance = got
            if sarcastic and (kind is Kind.PREFERENCE or (kind is Kind.FACT and slots.parse(body) is None)):
                # "Oh great, another middle seat. I just love middle seats." is not a preference, and
                # "Just what I wanted." after it is not a fact; a stated attribute ("I live in Leeds") still is
                kind, importance = Kind.EPISODE, 0.2
            if one_off and kind is Kind.PREFERENCE:
                # "This time only, I'd like the vegetarian menu": an exception, not a standing preference
                kind, importance = Kind.EPISODE, 0.3
            if one_off and kind is Kind.EPISODE and not _ONE_OFF.search(body):
                body = f"{body.rstrip('.!')} ({one_off.group(0).lower()})."  # keep the qualifier with the claim
            for one in _each_allergen(body):
                slot = slots.parse(one) if kind in (Kind.FACT, Kind.PREFERENCE) else None
                claims.append(Claim(one, kind, Source.USER_SAID, importance, USER_CONFIDENCE, safety.sensitivity_of(one), slot, index))
    return claims, withheld


_ITEM = r"[\w-]+(?:\s+(?!and\b|or\b)[\w-]+)?"
_ALLERGEN_LIST = re.compile(rf"^(?P<head>.*\ballergic\s+to\s+)(?P<items>{_ITEM}(?:\s*,\s*{_ITEM})*\s*,?\s+(?:and|or)\s+{_ITEM})(?P<tail>\W*)$")
# other multi-valued attributes stated as a list: languages spoken, things liked or disliked
_VALUE_LIST = re.compile(
    rf"^(?P<head>(?:User|The\s+user)\s+(?:\w+ly\s+|also\s+|still\s+|really\s+)*(?:speaks|loves|likes|enjoys|adores|hates|dislikes|can't\s+stand)\s+)"
    rf"(?P<items>{_ITEM}(?:\s*,\s*{_ITEM})*\s*,?\s+and\s+{_ITEM})(?P<tail>\W*)$"
)
# pairs that name one thing, never split
_IDIOMS = re.compile(
    r"(?i)\b(?:fish\s+and\s+chips|salt\s+and\s+vinegar|salt\s+and\s+pepper|rock\s+and\s+roll|mac\s+and\s+cheese|gin\s+and\s+tonic|"
    r"drum\s+and\s+bass|bread\s+and\s+butter|peanut\s+butter\s+and\s+jelly|rhythm\s+and\s+blues|strawberries\s+and\s+cream|"
    r"sweet\s+and\s+sour|pie\s+and\s+mash|bangers\s+and\s+mash|cheese\s+and\s+onion|bed\s+and\s+breakfast)\b"
)


_WHICH_ASIDE = re.compile(r",\s*which\s+[^,]*$")


def _each_allergen(text: str) -> list[str]:
    """ "User is allergic to nuts and shellfish." -> one claim per allergen, so each can be retracted alone."""
    m = _ALLERGEN_LIST.match(text) or (None if _IDIOMS.search(text) else _VALUE_LIST.match(text))
    if not m and (aside := _WHICH_ASIDE.search(text)):  # "…kiwi and avocado, which rules out half the green ones"
        m = _ALLERGEN_LIST.match(text[: aside.start()] + ".")
    if not m:
        return [text]
    items = [re.sub(r"^to\s+", "", i) for i in re.split(r"\s*,\s*|\s+(?:and|or)\s+", m.group("items")) if i]
    return [f"{m.group('head')}{item}{m.group('tail')}" for item in items]


_ADDRESSES_READER = re.compile(r"(?i)\b(?:you\s+(?:must|should|need\s+to|have\s+to|are\s+(?:required|instructed))|please\s+(?:send|forward|reply|click|call|ignore))\b")


def _tool_claims(turn: Turn, index: int, allow_secrets: bool) -> tuple[list[Claim], list[str]]:
    claims, withheld = [], []
    text = turn.content if allow_secrets else secrets.mask_secrets(turn.content)
    cut = injection.injection_start(text)
    if cut is not None:
        withheld.append("injection")
        text = text[:cut]
    name = (turn.name or "tool").strip()[:40] or "tool"
    for sentence in split_sentences(text):
        s = sentence.strip(" -*#>\t")
        if secrets.SECRET_MARK in s:
            withheld.append("secret")
            continue
        if len(terms(s)) < 2 or is_small_talk(s) or s.endswith("?") or _ADDRESSES_READER.search(s) or STANDING.search(s):
            continue
        body = _finish(f"{name} reported: {s}")
        claims.append(Claim(body, Kind.EPISODE, Source.TOOL_RESULT, 0.25, TOOL_CONFIDENCE, safety.sensitivity_of(body), None, index))
        if len(claims) >= MAX_TOOL_CLAIMS:
            break
    return claims, withheld


_CONFIRMS = re.compile(r"(?i)\b(?:I've|I\s+have|I)\s+(?:booked|reserved|scheduled|ordered|cancelled|canceled|arranged|rebooked)\b|\byou(?:'re|\s+are)\s+(?:booked|confirmed)\b")
_YES = re.compile(r"(?i)^(?:yes|yeah|yep|yup|sure|correct|that's\s+(?:right|correct)|exactly|definitely|absolutely|please\s+do|right)\b[\s,.!]*(?:please)?[.!]*$")
_ASK = re.compile(
    r"(?i)^(?:so\s+|just\s+to\s+confirm,?\s+)?(?:are|were)\s+you\s+(?P<a>.+?)\??$"
    r"|^(?:so\s+|just\s+to\s+confirm,?\s+)?(?:do|did)\s+you\s+(?!want\s+me|like\s+me)(?P<d>.+?)\??$"
    r"|^(?:should|shall)\s+I\s+(?:remember|note)\s+(?:that\s+)?(?P<r>.+?)\??$"
    r"|^(?:should|shall)\s+I\s+(?:always\s+)?(?P<s>.+?)\??$"
    r"|^(?:would|do)\s+you\s+(?:like|want)\s+me\s+to\s+(?:always\s+)?(?P<w>.+?)\??$"
)


def _swap(text: str) -> str:
    """The assistant's "you" as the user's "I": "you're vegetarian" -> "I'm vegetarian"."""
    text = re.sub(r"(?i)\byou're\b|\byou\s+are\b", "I'm", text)
    text = re.sub(r"(?i)\byour\b", "my", text)
    text = re.sub(r"(?i)\byours\b", "mine", text)
    text = re.sub(r"(?i)^you\b", "I", text)
    return re.sub(r"(?i)\byou\b", "me", text)


def _assistant_claims(turn: Turn, index: int, allow_secrets: bool) -> tuple[list[Claim], list[str]]:
    claims, withheld = [], []
    text = turn.content if allow_secrets else secrets.mask_secrets(turn.content)
    if injection.is_injection(text):
        withheld.append("injection")
        return claims, withheld
    for sentence in split_sentences(text):
        if secrets.SECRET_MARK in sentence:
            withheld.append("secret")
            continue
        # Only confirmed actions with a reference, time or seat: an assistant restating what the
        # user said would otherwise keep a stale copy alive after the user changes it.
        if _CONFIRMS.search(sentence) and re.search(r"\d", sentence) and not sentence.endswith("?"):
            body = _finish("Assistant noted: " + sentence.strip())
            claims.append(Claim(body, Kind.EPISODE, Source.INFERRED, 0.25, INFERRED_CONFIDENCE, safety.sensitivity_of(body), None, index))
    return claims[:MAX_TOOL_CLAIMS], withheld


def _confirmed(question: str, answer: str, index: int) -> Claim | None:
    """A user's bare "yes" to an assistant's yes/no question about them, as the user's own claim."""
    if not _YES.match(answer.strip()):
        return None
    last = split_sentences(question)[-1] if question.strip() else ""
    m = _ASK.match(last.strip())
    if not m:
        return None
    if m.group("a"):
        said = f"I am {_swap(m.group('a'))}"
    elif m.group("d"):
        said = f"I {_swap(m.group('d'))}"
    elif m.group("r"):
        said = _swap(m.group("r"))
    else:  # a standing rule only if the question offered one; else a one-off request
        act = _swap(m.group("s") or m.group("w"))
        said = f"always {act}" if STANDING.search(last) else f"please {act}"
    got = classify_user_clause(said)
    if got is None:
        return None
    body, kind, importance = got
    slot = slots.parse(body) if kind in (Kind.FACT, Kind.PREFERENCE) else None
    return Claim(body, kind, Source.USER_SAID, importance, 0.8, safety.sensitivity_of(body), slot, index)


def extract(turns: Sequence[Turn], *, allow_secrets: bool = False, context: str | None = None) -> Extraction:
    """One-claim candidates from ``turns`` in order; ``context`` is the assistant turn said just before, if any."""
    claims: list[Claim] = []
    withheld: list[str] = []
    last_assistant = context
    for i, turn in enumerate(turns):
        if turn.role == "user":
            got, why = _user_claims(turn, i, allow_secrets)
            if not got and last_assistant:
                yes = _confirmed(last_assistant, turn.content, i)
                got = [yes] if yes else []
            last_assistant = None
        elif turn.role == "tool":
            got, why = _tool_claims(turn, i, allow_secrets)
        else:
            got, why = _assistant_claims(turn, i, allow_secrets)
            last_assistant = turn.content
        claims.extend(got)
        withheld.extend(why)
    return Extraction(tuple(claims), tuple(withheld))
