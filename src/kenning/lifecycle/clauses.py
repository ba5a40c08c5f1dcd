"""Clauses: a user turn cut into sentences and one-claim clauses, each with its subject. Pure and deterministic.

Compound statements split where a new self-statement starts ("I'm vegetarian, I live in Leeds and I
prefer morning meetings"), at semicolons, and where several predicates share one subject ("I'm
vegetarian, live in Leeds and prefer …"); a clause whose subject was dropped ("software engineer at
Arculus", "now living in Brighton", "Name's Theo") gets it back, so the rules downstream always see
a self-statement. An appositive ("…, my old tortoise, …") stays attached, and a clause holding a
masked secret is never merged with its neighbour.
"""

from __future__ import annotations

import re

from kenning.lifecycle import secrets
from kenning.lifecycle.slots import OCCUPATIONS

_SENT = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n+|(?<=[!?])\s*(?=[A-Z])")
SELF = r"(?:I|I'm|I've|I'd|I'll|Im|my|My|we|We|we're|We're|we've|We've|our|Our)\b"
_CLAUSE = re.compile(
    r"\s+[–—]\s+|\s+-\s+(?=[A-Za-z])|\s*;\s*(?=\S)|"
    rf"\s*(?:,|;|:)\s*(?:and\s+|but\s+|so\s+|also\s+|plus\s+|though\s+)?(?:(?:by\s+the\s+way|btw|oh|also|anyway|please\s+note(?:\s+that)?|note\s+that|fyi),?\s+)?(?={SELF})"
    rf"|\s+(?:and|but|plus|while|whereas|though)\s+(?:also\s+|now\s+)?(?={SELF})"
    # a masked secret's span already stops where the next statement starts (secrets._clause_stop), so
    # whatever follows the mark is a statement of its own: cut there, dropping the joining words
    rf"|(?<={re.escape(secrets.SECRET_MARK)})[^\S\n]*,?[^\S\n]*(?:(?:and|but|plus)\s+)?"
    r"(?:(?:please\s+note(?:\s+that)?|note\s+that|btw|by\s+the\s+way|fyi|also),?\s+)?(?=[\w\"'(])"
)
_FINITE = re.compile(
    r"(?i)\b(?:am|'m|is|are|was|were|has|have|had|'s|lives|works|called|named|died|passed|loves|likes|hates|got|turned|"
    r"does|did|do|makes|made|takes|took|runs|ran|plays|drives|goes|went|owns|teaches|cooks|studies|speaks|wants|needs|"
    r"knows|says|said|came|joined|moved|started|became|will|can|would|should|could)\b"
)


_SUBORDINATE = re.compile(r"(?i)^(?:if|when|whenever|every\s+time|each\s+time|any\s?time|as\s+soon\s+as|before|after|once|unless|because|since|although|though)\b")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (punctuation kept), empty pieces dropped."""
    return [s.strip() for s in _SENT.split(text) if s and s.strip()]


def split_clauses(sentence: str) -> list[str]:
    """Clauses of a compound self-statement; an appositive ("…, my old tortoise, …") stays attached."""
    label = _LABEL.match(sentence)
    if label and secrets.SECRET_MARK not in label.group(0) and subject(sentence[label.end() :]) != sentence[label.end() :]:
        sentence = sentence[label.end() :]  # "Background: diabetic, …": the label is not part of the claim
    parts = [p.strip() for p in _CLAUSE.split(sentence) if p and p.strip()]
    out: list[str] = []
    for p in parts:
        starts_poss = re.match(r"(?i)(?:my|our)\b", p)
        if out and starts_poss and not _FINITE.search(p) and secrets.SECRET_MARK not in p:
            out[-1] = f"{out[-1]}, {p}"
        elif out and len(out) == 1 and _SUBORDINATE.match(out[-1]):
            out[-1] = f"{out[-1]}, {p}"  # "If you ever book me a hotel, I need a low floor": one rule
        elif out and len(out[-1].split()) <= 3 and secrets.SECRET_MARK not in out[-1] and not _FINITE.search(out[-1]) and re.match(r"(?:I|we)\b", p) and not re.match(r"(?:I|I'm|I've|we|We|we're|We're)\b", out[-1]) and (
            re.match(r"(?i)(?:my|our)\b", out[-1]) or re.fullmatch(r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?", out[-1])
        ):
            out[-1] = f"{out[-1]} and {p}"  # "My wife Julia and I live in Oxford": one subject, one claim
        else:
            out.append(p)
    out = _link_workplace(out)
    return [piece for clause in out for tele in _split_telegraphic(clause) for piece in _split_shared_subject(tele)]


# "left the infirmary" / "quit my job at the bakery" ends the clause; "left the party early" does not name a workplace
_LEFT_WORKPLACE = re.compile(
    r"(?i)\b(?:left|quit|resigned\s+from|moved\s+on\s+from)\s+(?:the|my|a|an)\s+(?!(?:party|house|room|meeting|pub|bar|"
    r"flat|country|city|town|car|train|bus|plane|station|airport|gym|hotel|restaurant|show|event|wedding)\b)"
    r"[a-z][\w-]*(?:\s+(?!(?:early|late|yesterday|today|behind|open|alone|again|there)\b)[a-z][\w-]*){0,2}\s*(?:,\s*(?:and\s+)?(?:now)?)?[.!]?$"
)
_AT_NOW = re.compile(r"(?i)^(?:(?:and|but|so)\s+)?(?:now\s+)?(?P<s>I'm|I\s+am|we're)\s+(?:now\s+)?at\s+(?=(?:a|an|the)\s+[a-z])")


def _link_workplace(parts: list[str]) -> list[str]:
    """ "I left the infirmary, I'm at a care home now": after leaving a workplace, "I'm at a Y" names
    the new one, so it is said as work ("I work at a care home now"), not as where the user is standing."""
    out = list(parts)
    for i in range(1, len(out)):
        m = _AT_NOW.match(out[i])
        if m and _LEFT_WORKPLACE.search(out[i - 1]):
            out[i] = "I work at " + out[i][m.end() :]
    return out


def _split_telegraphic(clause: str) -> list[str]:
    """ "Name's Bea, architect in Porto, originally from Lyon" -> three clauses: a self-description
    continues after a comma with another subjectless self-description."""
    if not (re.match(SELF, clause) or subject(clause) != clause):
        return [clause]
    out, start = [], 0
    for m in re.finditer(r",\s*(?:and\s+|plus\s+)?", clause):
        nxt = clause[m.end() :]
        if subject(nxt) != nxt and not _SUBJECTLESS.match(nxt):
            out.append(clause[start : m.start()].strip())
            start = m.end()
    out.append(clause[start:].strip())
    return [out[0]] + [subject(p) for p in out[1:] if p] if out[0] else [subject(p) for p in out if p]


_SHARED_VERBS = (
    r"live|work|prefer|like|love|hate|enjoy|eat|drink|have|own|drive|speak|support|play|walk|run|use|need|want|"
    r"study|teach|commute|cycle|moved|relocated|started|joined|left|quit|avoid|follow|go|take|am"
)
_SHARED_ADJS = r"allergic|vegetarian|vegan|pescatarian|married|single|divorced|engaged|retired|based|lactose|diabetic|pregnant"
_SHARED = re.compile(rf"(?:,\s*(?:and\s+|but\s+)?|\s+(?:and|but)\s+)(?=(?:also\s+|now\s+|still\s+)?(?:(?P<v>{_SHARED_VERBS})|(?P<a>{_SHARED_ADJS}))\b)", re.I)


def _split_shared_subject(clause: str) -> list[str]:
    """ "I'm vegetarian, live in Leeds and prefer morning meetings" -> three clauses, each with its subject."""
    if not re.match(r"(?i)(?:I|I'm|I've|we|we're)\b", clause):
        return [clause]
    out: list[str] = []
    pos = 0
    for m in _SHARED.finditer(clause):
        left = clause[pos : m.start()].strip()
        if re.fullmatch(r"(?i)(?:(?:I|we)\s+)?\w+", left):  # "I live and work in Leeds" stays whole
            continue
        out.append(left)
        pos = m.end()
    if not out:
        return [clause]
    rest = clause[pos:].strip()
    out.append(rest)
    return [out[0]] + [p for piece in out[1:] for p in _split_shared_subject(_with_subject(piece))]


def _with_subject(piece: str) -> str:
    m = re.match(rf"(?i)(?:also\s+|now\s+|still\s+)?(?:{_SHARED_ADJS})\b", piece)
    return ("I'm " if m else "I ") + piece


_SUBJECTLESS = re.compile(
    r"(?i)^(?:(?:now|currently|just|recently|finally|also|no\s+longer|not)\s+)*(?P<v>living|working|based|studying|training|staying|moved|relocated|started|joined|left|quit|"
    r"switched|changed|retired|got\s+married|went\s+vegan|went\s+vegetarian|gave\s+up|(?:fully\s+|strictly\s+|also\s+)?"
    r"(?:vegetarian|vegan|pescatarian|allergic|married|single|divorced|engaged|pregnant|lactose|gluten-free|diabetic))\b"
)


# Telegraphic self-descriptions with no subject and no verb: "software engineer at Arculus",
# "Name's Theo", "originally from Porto", "live in Leeds".
_ROLE = re.compile(
    r"(?i)^(?:(?:now|currently|also|still|just)\s+)*(?:(?:a|an)\s+)?(?:[\w-]+\s+){0,2}(?:" + OCCUPATIONS + r")(?=\s+(?:at|for|in|with|from|by|and)\b|\s*[,.;!]?\s*$)"
)
_NAME = re.compile(r"(?i)^name(?:'s|\s+is|\s*:)\s+(?=[A-Z])")
_ORIGIN = re.compile(r"(?i)^(?:originally\s+from|from\s+[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*\s+originally)\b")
_NEW_JOB = re.compile(r"(?i)^(?:(?:just\s+)?started\s+)?(?:a\s+)?new\s+job\s+(?=(?:at|with|in)\b)")
_BARE_VERB = re.compile(
    r"(?i)^(?:(?:now|currently|also|still|really)\s+)*(?:live\s+(?:in|at|near)|work\s+(?:at|for|as|in)|speak\s+[A-Z]|commute\s+(?:by|to|from)|"
    r"(?:love|adore|enjoy|hate|prefer)\s+(?!you\b|it\b|that\b|this\b)\w)"
)
_PARENT = re.compile(r"(?i)^(?:a\s+)?(?:proud\s+|single\s+)?(?:mum|mom|dad|mother|father|parent)\s+(?:of|to)\s+\w+")
# a short label before a colon ("Background:", "About me:", "Quick intro:")
_LABEL = re.compile(r"^(?:[A-Za-z][\w'-]*)(?:\s+[A-Za-z][\w'-]*){0,2}\s*:\s+(?=\S)")


def subject(clause: str) -> str:
    """A self-statement with its subject dropped ("now living in Brighton") gets it back ("I'm now living in Brighton")."""
    name = _NAME.match(clause)
    if name:
        return "My name is " + clause[name.end() :]
    if not _FINITE.search(clause):
        if _ROLE.match(clause):
            lead = "" if re.match(r"(?i)(?:(?:now|currently|also|still|just)\s+)*(?:a|an)\s", clause) else "a "
            noun = clause[:1].lower() + clause[1:]
            return f"I'm {lead}{noun}" if not lead else f"I'm {_article(noun)} {noun}"
        if _NEW_JOB.match(clause):
            return "I got a new job " + clause[_NEW_JOB.match(clause).end() :]
        if _PARENT.match(clause):
            return "I'm " + ("" if re.match(r"(?i)a\s", clause) else "a ") + clause[:1].lower() + clause[1:]
        if _ORIGIN.match(clause):
            return "I'm " + clause[:1].lower() + clause[1:]
        if _BARE_VERB.match(clause):
            return "I " + clause[:1].lower() + clause[1:]
    m = _SUBJECTLESS.match(clause)
    if not m:
        return clause
    verb = m.group("v").lower().split()[-1]
    adjective = verb.endswith("ing") or verb in {"based", "vegetarian", "vegan", "pescatarian", "allergic", "married", "single",
                                                 "divorced", "engaged", "pregnant", "lactose", "gluten-free", "diabetic"}
    if verb == "married" and "got" in m.group("v").lower():
        adjective = False
    return ("I'm " if adjective else "I ") + clause[:1].lower() + clause[1:]


def _article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"
