"""Referents: what a pronoun or "one" in a clause stands for, from what the turn's earlier clauses named.

"I drive it to work" after "my Golf": the user's thing named last; "it's 07700 900876 now" after "new phone
new number": the new thing; "now it's a veg box" after "ditched the tesco delivery": what was dropped; "swapped
it for bouldering" after "not doing yoga anymore": the object the clause before named. ``TurnState`` carries
what each clause names to the next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kenning.lifecycle.extraction import attributes
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Parser, Sentence, default_parser


@dataclass
class TurnState:
    """What earlier clauses of the batch named: third parties (for he/she/they) and the user's things (for "it");
    and the parser, to read a claim's own text."""

    others: list[str] = field(default_factory=list)
    genders: dict[str, str] = field(default_factory=dict)  # a name's gender, said by a kin word beside it: "her boyfriend Marco"
    things: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)  # things the user just got: "got a new number" -> "my new number"
    replaced: list[str] = field(default_factory=list)  # things called old: "the old MTN line" -> "my MTN line"
    ended: list[str] = field(default_factory=list)  # things the user stopped: "ditched the tesco delivery" -> "my delivery"
    changed: list[str] = field(default_factory=list)  # rows changed with no value yet: "raised the rent" -> "my rent"
    named: str = ""  # the last thing the clause before named as an object: "not doing yoga anymore" -> "yoga"
    parser: Parser | None = None
    hedged: bool = False  # the clause before was a hedge: "… I'd open a cafe. Or just repaint the flat."
    alone: bool = False  # the clause is the whole turn: "scratch that" then points at the turn before


def parser_sentence(text: str, state: TurnState) -> Sentence:
    """The first parsed sentence of a claim's text."""
    parser = state.parser or default_parser()
    parsed = parser.parse([text])[0]
    return parsed[0] if parsed else Sentence(())


def things(sent: Sentence) -> list[str]:
    """The user's things a clause names: "my Golf", "my flat", "our car" (not people)."""
    out = []
    for t in sent.tokens:
        poss = [c for c in sent.children(t.i) if c.dep == "poss" and c.lower in ("my", "our")]
        if poss and t.pos in ("NOUN", "PROPN") and t.lemma not in lx.PERSON_NOUNS and t.lower not in lx.PERSON_NOUNS:
            out.append(f"{poss[0].text} {t.text}")
    return out


def object_named(sent: Sentence) -> str:
    """The last thing a clause names as the object of a verb or preposition (with its compound words): "not doing
    yoga anymore" -> "yoga", "not at flyefit anymore" -> "flyefit", "but no kiwi" -> "kiwi"; "" when none (people and
    pronouns are none)."""
    objs = [t for t in sent.tokens if (t.dep in ("dobj", "pobj") or any(c.dep == "det" and c.lower == "no" for c in sent.children(t.i)))
            and t.pos in ("NOUN", "PROPN") and t.lemma not in lx.PERSON_NOUNS and t.lower not in lx.PERSON_NOUNS and t.ent != "PERSON"]
    if not objs:
        return ""
    t = objs[-1]
    return " ".join(sent.tokens[i].text for i in sent.subtree(t.i) if i == t.i or (sent.tokens[i].dep == "compound" and i < t.i))


def replaced(sent: Sentence) -> list[str]:
    """What a clause calls the user's old one: "the old MTN line" -> "my MTN line" (a "new one" replaces it)."""
    return ["my " + " ".join(sent.tokens[i].text for i in sent.subtree(t.i) if sent.tokens[i].dep == "compound" or i == t.i)
            for t in sent.tokens if t.pos == "NOUN" and t.lemma not in lx.PERSON_NOUNS and any(c.lower == "old" for c in sent.children(t.i))]


def ended(sent: Sentence) -> list[str]:
    """What a clause says the user has stopped: "we've ditched the tesco delivery" -> "my delivery" (what "now
    it's …" goes on to replace)."""
    return [f"my {t.text}" for t in sent.tokens if t.dep == "dobj" and t.pos == "NOUN" and t.lemma not in lx.PERSON_NOUNS
            and sent.tokens[t.head].lemma in lx.ENDING_VERBS]


def new_things(sent: Sentence) -> list[str]:
    """What a clause says the user just got, as theirs: "got a new number" -> "my new number", "bought a new van",
    "new phone, new number!!"."""
    return [f"my new {t.text}" for t in sent.tokens if t.pos == "NOUN" and t.lemma not in lx.PERSON_NOUNS
            and any(c.lower == "new" and c.dep == "amod" for c in sent.children(t.i))]


_HOMES = frozenset("place flat house home apartment bungalow cottage condo maisonette terrace semi townhouse studio".split())
_ALLERGIC = re.compile(r"(?i)^\W*(?:I'm|I\s+am|im)\s+(?:(?:very|so|really|severely|deathly)\s+)?allergic\W*$")
_IT_IS = re.compile(r"(?i)^\W*(now\s+|and\s+now\s+)?(?:it's|it\s+is)\s+(?=\S)")
_NEW_ONE = re.compile(r"(?i)^\W*(?:(?:the|my|our)\s+)?new\s+one(?:'s|\s+is)\s+(?=\S)")


def what_it_is(sent: Sentence, piece: str, state: TurnState) -> str:
    """ "it's 07700 900872 now" right after "got a new number": "it" is the new thing, so "my new number is …";
    "new one is 0706 …" after "change my number" or "the old line": "one" is the thing the turn named last, one
    that names an attribute first ("number" before "phone")."""
    m = _IT_IS.match(piece)
    # the new thing, or (said with "now") the thing dropped: "ditched the tesco delivery, now it's a veg box"
    meant = (state.new or state.changed or (state.ended if m.group(1) else [])) if m is not None else []
    if meant and any(t.dep == "attr" for t in sent.tokens):
        return f"{m.group(1) or ''}{meant[-1]} is {piece[m.end():]}"
    home = [t for t in state.things if t.split()[-1].lower() in _HOMES] if m is not None else []
    if home and any(t.dep == "attr" and t.lower in _HOMES | {"bed", "bedroom"} for t in sent.tokens):
        return f"{home[-1]} is {piece[m.end():]}"  # "it's a 1920s bungalow in kansas city" after "our place"
    if _ALLERGIC.match(piece) and state.named:
        return f"I'm allergic to {state.named}"  # "no kiwi, i'm allergic": to what the clause before refused
    m = _NEW_ONE.match(piece)
    held = state.replaced + state.things
    if m is None or not held:
        return piece
    named = [n for n in held if n.split()[-1].lower() in attributes.NOUNS] or held
    return f"my new {named[-1].split(maxsplit=1)[-1]} is {piece[m.end():]}"


_ENDS_IT = lx.ENDING_VERBS | {"cancel", "swap", "replace", "trade", "bin", "sack"}


def ended_it(sent: Sentence, piece: str, state: TurnState) -> str:
    """ "not doing yoga anymore, swapped it for bouldering": the object "it" of a verb that ended or swapped
    something is the thing the clause before named (never "drop it from your notes": an order, a pointer)."""
    obj = next((t for t in sent.tokens if t.lower == "it" and t.dep == "dobj"), None)
    if obj is None or not state.named or re.match(r"(?i)\W*it\b", piece):
        return piece
    verb = sent.tokens[obj.head]
    if verb.lemma not in _ENDS_IT or verb.tag not in ("VBD", "VBN"):
        return piece
    return re.sub(r"(?i)\bit\b", state.named, piece, count=1)


def resolve_it(sent: Sentence, piece: str, state: TurnState) -> str:
    """ "I drive it to work" after "my Golf": the object "it" is the user's thing named last in the turn."""
    if not state.things:
        return piece
    obj = next((t for t in sent.tokens if t.lower == "it" and t.dep in ("dobj", "pobj")), None)
    if obj is None:
        return piece
    return re.sub(r"(?i)\bit\b", state.things[-1], piece, count=1) if re.search(r"(?i)\bit\b", piece) and not re.match(r"(?i)\W*it\b", piece) else piece
