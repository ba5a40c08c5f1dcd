"""Hearsay: what someone else is reported to say or think ("my uncle says river will win the league", "my
husband thinks pineapple on pizza is a crime"). An opinion passed on is not a fact about the user or about the
one who holds it; a word from someone whose word is news about the user ("my GP says I'm pre-diabetic", "the
landlord says the rent goes up in april") is, and stays.
"""

from __future__ import annotations

from kenning.lifecycle.extraction import attributes
from kenning.lifecycle.extraction.parse import Sentence, Token
from kenning.lifecycle.extraction.reading import Clause

# verbs that pass on what someone holds true
OPINION_VERBS = frozenset({"say", "think", "reckon", "believe", "feel", "swear", "claim", "insist", "argue", "keep"})
# people whose word about the user is news: what they say is a finding, an order or a term, not a view
ADVISERS = frozenset(
    "doctor doc gp physio physiotherapist dentist nurse consultant surgeon specialist therapist counsellor counselor "
    "midwife pharmacist optician optometrist dietitian dietician nutritionist allergist vet cardiologist dermatologist "
    "psychiatrist psychologist oncologist neurologist paediatrician pediatrician obstetrician hygienist chiropractor "
    "osteopath audiologist radiologist lawyer solicitor accountant mechanic landlord landlady agent bank school teacher "
    "tutor instructor coach employer hr council".split()
)


def _sayer(clause: Clause, sent: Sentence) -> Token | None:
    """The third party a clause passes on the words or thoughts of ("my uncle" in "my uncle says …"), or None."""
    if clause.subject != "other" or clause.question or clause.request:
        return None
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in OPINION_VERBS or not any(c.dep in ("ccomp", "xcomp") for c in sent.children(root.i)):
        return None
    if root.lemma == "keep" and not any(c.dep == "xcomp" and c.lemma in ("say", "tell") for c in sent.children(root.i)):
        return None  # "keeps saying I should …", not "keeps scheduling 8am standups"
    return next((c for c in sent.children(root.i) if c.dep == "nsubj"), None)


def finding(clause: Clause, sent: Sentence) -> bool:
    """Whether the clause passes on the word of someone whose word about the user is news: "doc reckons my blood
    pressure's up", "the physio says no running for six months"."""
    who = _sayer(clause, sent)
    return who is not None and _adviser(sent, who)


def reported(clause: Clause, sent: Sentence) -> bool:
    """Whether the clause only passes on someone else's opinion: a third party says or thinks a clause of its
    own, and is nobody whose word about the user is news."""
    who = _sayer(clause, sent)
    if who is None or _adviser(sent, who) or any(t.pos in ("VERB", "AUX") for t in sent.tokens[: who.i]):
        return False  # (not "got diagnosed with heart failure, mild they reckon": the reckoning is an aside)
    if _named_in_passing(sent, who):
        return False  # "my wife Heather says …": who she is, said in passing, is worth keeping
    said = next((c for c in sent.children(who.head) if c.dep in ("ccomp", "xcomp")), None)
    return not _news(sent, said)


def _named_in_passing(sent: Sentence, who: Token) -> bool:
    """The one who says it comes with a name: "my wife Heather", however the parser hung the name on."""
    if attributes.name_beside(sent, who) is not None or any(c.dep == "appos" for c in sent.children(who.i)):
        return True
    return who.pos == "NOUN" and who.i + 1 < len(sent.tokens) and sent.tokens[who.i + 1].pos == "PROPN"


def _news(sent: Sentence, verb: Token | None) -> bool:
    """A complement that tells of something happening or done ("his girlfriend is moving in with us", "she's
    shifting to JB"), not a view or a forecast ("is a crime", "will win", "is going to waste away")."""
    if verb is None or verb.tag != "VBG" or verb.lower == "going":
        return False
    return not any(c.dep == "aux" and c.lemma in ("will", "would", "should", "could", "might") for c in sent.children(verb.i))


def _adviser(sent: Sentence, who: Token) -> bool:
    words = {who.lemma.lower(), who.lower} | {c.lower for c in sent.children(who.i) if c.dep == "compound"}
    return bool(words & ADVISERS)
