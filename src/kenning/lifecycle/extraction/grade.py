"""Grading: how a clause that says something is stored. The rules classifier
(``lifecycle.extract.classify_user_clause``) words it and gives a first kind and importance; the parse then
settles the rest: an order worded as asked, a standing rule only when it acts on something, a third party's
fact at lower confidence, a past event as an episode unless it changes how things are, a habit as a fact,
a contact detail said as one, and an attribute the reader finds.
"""

from __future__ import annotations

import re

from kenning.lifecycle import extract as rules
from kenning.lifecycle import instructions, safety, slots
from kenning.lifecycle import changes as change_markers
from kenning.lifecycle.extraction import addressee, asking, attributes, hearsay, lasting, noise, reading, similes
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.lexicon import first_person
from kenning.lifecycle.extraction.parse import Sentence
from kenning.lifecycle.extraction.pieces import orders
from kenning.lifecycle.extraction.reading import Clause
from kenning.lifecycle.extraction.referents import TurnState, parser_sentence
from kenning.lifecycle.person import third_person
from kenning.lifecycle.retrieve import terms
from kenning.types import Kind, Source

HEDGE_CONFIDENCE = 0.4
OTHER_CONFIDENCE = 0.8
OTHER_IMPORTANCE = 0.45
EPISODE_IMPORTANCE = 0.3
# a wording that is only a relative clause, with nothing to relate to
_ONLY_RELATIVE = re.compile(r"^Which\b(?!.*\?$)")
_CONTACT = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w+])\+?\d[\d ()-]{7,}\d(?![\w-])")


def grade(clause: Clause, sent: Sentence, text: str, index: int, sarcastic: bool, state: TurnState) -> list[rules.Claim]:
    """The claims of a clause the gates in ``claims`` let through, worded, with kind, importance, confidence and marks."""
    got = rules.classify_user_clause(text, _not_present(sent))
    if got is None:
        return []
    body, kind, importance = got
    if _ONLY_RELATIVE.search(body):
        return []  # "Which the user realises is awkward in Portugal", "which I've now fully merged with"
    if clause.request and not clause.question and kind is not Kind.PROCEDURE and not body.startswith(("User", "Standing")) and orders(sent):
        # "go easy on the sugar in the tomato base", "watch the sugar in any recipes you give me": an order the
        # parse reads as one, whatever verb it opens with, is worded as asked, never kept as the user's own words
        body, kind, importance = rules._finish(rules.asked_to(body.rstrip('.!'))), Kind.EPISODE, 0.3
    changes = instructions.changes_answers(text)  # "can you go back to short paragraphs?", "can we go back to english?"
    if kind is Kind.PROCEDURE and (not (changes or asking.for_the_user(sent)) or (
            (clause.subject == "user" and _has_subject(sent) or clause.subject == "other" and _has_subject(sent, before=True))
            and not (changes and clause.question))):
        # "never give up!", "take care of yourself", "now I never want to see a hill again", "they always remind me
        # of that day": no rule ("correct my grammar always when I write" is one: the "I" is the condition's, the
        # order has no subject)
        return []
    asked = (clause.request or body.startswith(rules.ASKED)) and kind is not Kind.PROCEDURE  # the classifier read a request
    yours = any(t.dep != "nsubj" for t in addressee.addressed(sent)) and not any(t.lower in ("my", "our") for t in sent.tokens)
    if asked and (addressee.passes_on(sent) or yours):
        return []  # "give Tom a hug from me", "keep me posted", "send me your drawings": between the two speakers
    if asked and asking.shows(sent):
        return []  # "check out this piece I made!": a picture shown, nothing asked for
    if asked and not first_person(text) and not noise.has_content(sent):
        return []  # "stop it", "get better soon": nothing asked for
    if not (clause.request or clause.question) and similes.only_figure(sent):
        return []  # "my flat is like a sauna", "it's like a bad dream": a figure, nothing to keep
    if not (clause.request or clause.question or clause.hedged) and noise.bare_event(sent):
        return []  # "I screamed", "I caved", "I can't wait", "I promise": a verb and nothing it is about
    if clause.subject == "user" and not (clause.request or clause.question or clause.hedged) and noise.only_pointing(sent):
        return []  # "so excited to check it out", "I'll keep that in mind": nothing named, only pointed at (what someone
        # else did to it, "she took me off it", says at least who acted)
    meta: dict[str, object] = {"subject": "other" if clause.subject == "other" else "user", **({"request": True} if asked else {})}
    if clause.subject == "user" and not (clause.question or clause.request or clause.hedged or clause.past) and (
            lasting.lasting_habit(sent) if clause.negated else lasting.lasting_quality(sent)):
        meta["quality"] = True  # "I'm left-handed", "I don't drive": lasting, never a mood; chit-chat scoring leaves it be
    confidence = rules.USER_CONFIDENCE
    if kind is Kind.EPISODE and clause.subject == "other" and not (clause.question or clause.request or clause.hedged or clause.future or clause.past) \
            and _names_who(sent) and not slots.parse_all(body):  # (a row's words would be read as the user's own row)
        kind, importance = Kind.FACT, OTHER_IMPORTANCE  # "Gloria is 15", "Meera's back at work three days a week now": how things stand for them
    begun = lasting.begun(sent) or (lasting.left_by(sent) and not (clause.subject == "other" and slots.parse_all(body)))
    # (someone else's news the slot table would read as the user's own row stays an episode: "Wren was born on 3 november")
    if kind is Kind.EPISODE and not (clause.question or clause.request or clause.hedged or clause.future) and begun:
        kind, importance = Kind.FACT, max(importance, 0.5)  # "Kirsty's just started her midwifery degree", "started Spanish lessons"
    if clause.subject == "other" and kind in (Kind.FACT, Kind.PREFERENCE):
        confidence, importance = OTHER_CONFIDENCE, min(importance, OTHER_IMPORTANCE)
    if sarcastic and (kind is Kind.PREFERENCE or (kind is Kind.FACT and slots.parse(body) is None)):
        kind, importance = Kind.EPISODE, 0.2
    marked = bool(change_markers.CHANGE_MARKER.search(body))
    changes = marked or bool(change_markers.NAMED_OLD.search(body))
    if hearsay.finding(clause, sent):
        meta["finding"] = True  # "doc reckons my blood pressure's up": a professional's word about the user
    if marked:
        meta["change"] = True  # "doing seoul instead": how things stand now, said as a change; never small talk
    if changes and kind is Kind.EPISODE and clause.subject == "user" and not (clause.question or clause.request or clause.hedged):
        kind, importance = Kind.FACT, max(importance, 0.5)  # "sold the golf last month": how things are now
    if clause.past and kind is Kind.FACT and slots.parse(body) is None and not clause.negated and not changes and not begun:
        kind, importance = Kind.EPISODE, EPISODE_IMPORTANCE  # a past event; "sold the golf", "quit the job" change a fact
    if kind is Kind.EPISODE and clause.subject == "user" and not (clause.question or clause.request or clause.hedged or clause.negated) \
            and reading.recurring(sent.tokens) and not any(t.dep == "ROOT" and t.tag == "VBD" for t in sent.tokens):
        kind, importance = Kind.FACT, max(importance, 0.5)  # "we've made it a regular thing, coffee every thursday": a habit
    if clause.future and kind is Kind.FACT and slots.parse(body) is None:
        kind, importance, confidence = Kind.EPISODE, EPISODE_IMPORTANCE, 0.7
    contact = _CONTACT.search(body)
    if contact and clause.root in lx.CONTACT_VERBS and not clause.question and not clause.negated:
        # "use kwame@fastmail.example from now on", "you can reach me on 07700 900123": how to reach the user
        what = "email address" if "@" in contact.group(0) else "phone number"
        body = rules._finish(f"User's {what} is {contact.group(0)} ({_lower_first(third_person(text)).rstrip('.')})")
        kind, importance = Kind.FACT, 0.6
    if kind in (Kind.EPISODE, Kind.PREFERENCE) and not (clause.question or clause.request or clause.hedged or clause.negated):
        # the clause's own parse where it names its subject; "started last Monday as an associate…" is read as worded
        fact = attributes.read(sent if _has_subject(sent) else parser_sentence(body, state))
        if fact is not None and fact.subject and fact.value and (kind is Kind.EPISODE or fact.attribute.kind is Kind.FACT):
            kind, importance = fact.attribute.kind, fact.attribute.importance  # "moved to Exeter last month": a new home
    out = []
    for one in rules._each_allergen(body):
        slot = slots.parse(one) if kind in (Kind.FACT, Kind.PREFERENCE) else None
        out.append(rules.Claim(one, kind, Source.USER_SAID, importance, confidence, safety.sensitivity_of(one), slot, index, meta))
    return out


def _names_who(sent: Sentence) -> bool:
    """The subject is a person or animal by name ("Gloria", "Meera"), not a pronoun or a thing."""
    subj = next((t for t in sent.tokens if t.dep in ("nsubj", "nsubjpass")), None)
    return subj is not None and subj.pos == "PROPN"


def _has_subject(sent: Sentence, *, before: bool = False) -> bool:
    """Whether the main verb has a subject (``before``: one said before it, as a statement has; "please always cc my PA
    Tom" is an order the parser gave a subject after its verb)."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    return root is not None and any(c.dep in ("nsubj", "nsubjpass") and (c.i < root.i or not before) for c in sent.children(root.i))


def _not_present(sent: Sentence) -> frozenset[str]:
    """Words the parse does not read as a present-tense verb ("split" in "we split up", "and" in "I and my
    husband"): the wording never inflects them after "I"."""
    present = {t.lower for t in sent.tokens if t.tag in ("VBP", "VB")}
    return frozenset(t.lower for t in sent.tokens if t.tag not in ("VBP", "VB") and t.lower not in present)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2].istitle() else text


def hedge(text: str, clause: Clause, index: int) -> list[rules.Claim]:
    """A hedge is kept as a low-confidence possibility in the user's own words, never as a fact."""
    if not first_person(text) and clause.subject not in ("user", "none"):
        return []
    body = rules._finish(third_person(text))
    if len(terms(body)) < 2:
        return []
    meta = {"subject": "user", "hedge": True}
    return [rules.Claim(body, Kind.EPISODE, Source.USER_SAID, EPISODE_IMPORTANCE, HEDGE_CONFIDENCE, safety.sensitivity_of(body), None, index, meta)]
