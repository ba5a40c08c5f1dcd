"""How the memory page speaks to its reader: second person, plain words. Pure functions, display only.

Stored claims say "User lives in York" or "Alice is allergic to peanuts";
the page shows "You live in York" and "You are allergic to peanuts". The
record itself is unchanged (corrections edit the stored text).
"""

from __future__ import annotations

import re
from datetime import datetime

_SECOND = {"is": "are", "was": "were", "has": "have", "does": "do", "doesn't": "don't", "isn't": "aren't",
           "wasn't": "weren't", "hasn't": "haven't", "goes": "go"}
_ADVERBS = {"also", "always", "usually", "often", "never", "still", "now", "really", "sometimes", "rarely", "currently",
            "recently", "mostly", "only", "generally", "normally", "typically", "already", "just", "no", "longer"}
_KEEP_S = {"is", "has", "was", "does", "goes"}  # handled by _SECOND; other -s endings are verbs' third person


def _base(verb: str) -> str:
    """The form a verb takes after "you": "lives" -> "live", "studies" -> "study", "watches" -> "watch"."""
    low = verb.lower()
    if low in _SECOND:
        return _SECOND[low]
    if not low.isalpha() or not low.endswith("s") or low.endswith("ss") or len(low) < 3:
        return verb  # past tenses, modals ("can", "would") and the rest read the same after "you"
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1]


def subject_words(user_id: str) -> list[str]:
    """Words that name the user in a stored claim: "User", "the user", and names in the id ("alice" -> "Alice")."""
    names = [w for w in re.split(r"[^A-Za-z]+", user_id) if len(w) >= 2 and w.lower() != "user"]
    return ["the user", "User", *(n.capitalize() for n in names)]


def display_name(user_id: str) -> str | None:
    """A name to greet the reader with, when the user id holds one ("alice" -> "Alice", "maya.lee" -> "Maya Lee")."""
    names = [w.capitalize() for w in re.split(r"[^A-Za-z]+", user_id) if len(w) >= 2 and w.lower() != "user"]
    return " ".join(names) or None


def second_person(text: str, user_id: str) -> str:
    """``text`` addressed to its subject: a leading subject ("User", "Alice") becomes "You" with its verb
    agreeing, a leading possessive "Your"; later mentions of "the user"/"User" become "you"/"your". A name
    later in the sentence stays (it may be part of someone else's name). Text not about the user is unchanged."""
    alts = "|".join(re.escape(w) for w in sorted(subject_words(user_id), key=len, reverse=True))
    generic = "the user|User"
    subject = re.compile(rf"^(?:{alts})\b(?!')\s+((?:(?:{'|'.join(_ADVERBS)})\s+)*)([A-Za-z']+)", re.IGNORECASE)
    m = subject.match(text)
    if m:
        text = f"You {m.group(1)}{_base(m.group(2))}{text[m.end():]}"
    text = re.sub(rf"^(?:{alts})(?:'s|’s)", "Your", text, flags=re.IGNORECASE)
    text = re.sub(rf"(?<=[\s(\"“])(?:{generic})(?:'s|’s)", "your", text)
    text = re.sub(rf"(?<=\s)(?:{generic})\b(?!['’])", "you", text)
    return text


def date(dt: datetime | None) -> str:
    """3 May 2026."""
    return f"{dt.day} {dt.strftime('%B %Y')}" if dt else "never"


SOURCE_SAID = {
    "user_said": "You said this on {date}.",
    "tool_result": "A tool or document your assistant used said this on {date}; it is trusted less than what you say.",
    "inferred": "Your assistant worked this out on {date} from what you said.",
    "consolidated": "Summed up on {date} from several things you mentioned.",
}


def why(source: str, created: datetime, older: list[tuple[str, datetime]], from_conversation: bool) -> list[str]:
    """The "why is this remembered" lines, in plain words, newest change last."""
    lines = [SOURCE_SAID.get(source, "Remembered on {date}.").format(date=date(created))]
    if from_conversation and source == "user_said":
        lines[0] = f"You said this in a conversation on {date(created)}."
    for text, when in older:
        if text:
            lines.append(f"It replaced “{text}” (from {date(when)}) when you said something new about it.")
        else:
            lines.append(f"It replaced an earlier note from {date(when)} that has since been deleted.")
    return lines


__all__ = ["second_person", "display_name", "subject_words", "why", "date"]
