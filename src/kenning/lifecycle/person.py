"""Person normalisation: a first-person clause rewritten about the user in the third person. Pure.

"I walk my dog" -> "User walks their dog"; "my sister and I live in Leeds" -> "User's sister and the
user live in Leeds". Verbs after I/we get their third-person singular form (modals, past tenses and
contractions are kept as they are), possessives and objects follow the subject.
"""

from __future__ import annotations

import re

_MODALS = {"can", "could", "will", "would", "should", "shall", "may", "might", "must", "can't", "cannot", "won't",
           "wouldn't", "shouldn't", "couldn't", "didn't", "wasn't", "weren't", "used", "also", "still", "just", "never",
           "always", "really", "usually", "often", "sometimes", "now", "currently", "recently", "finally", "actually",
           "only", "mostly", "rarely", "hardly", "even", "definitely", "absolutely", "totally", "already", "generally",
           "normally", "typically", "honestly", "basically", "literally", "probably", "certainly", "strongly", "much",
           "no", "not", "simply", "truly", "especially", "ever", "once", "first", "then", "again", "both"}
_IRREGULAR_PAST = set(
    "was were had went got saw left took made came became began bought brought thought told said found felt gave kept knew "
    "lost met paid ran sat sent spent stood understood wore won wrote ate drank drove flew forgot grew heard held hurt let "
    "put read quit set shut hit cut cost fell fought hid lay led lent lit meant rode rang rose sang sank slept spoke stole "
    "swam taught threw woke broke chose froze did sold built caught dealt dug fed fled hung leant learnt burnt dreamt "
    "moved".split()
)
_BASE_ED = {"need", "feed", "bleed", "breed", "speed", "proceed", "succeed", "exceed", "seed", "heed", "shred", "wed", "embed", "bed", "shed"}
_3SG = {"have": "has", "do": "does", "go": "goes", "am": "is", "are": "is", "don't": "doesn't", "haven't": "hasn't",
        "aren't": "isn't", "'m": "is", "'re": "is", "'ve": "has", "be": "is"}


def _third(verb: str) -> str:
    low = verb.lower()
    if low in _3SG:
        return _3SG[low]
    if low == "to":  # "I used to cycle": the infinitive marker after a modal-like word is not a verb
        return verb
    past = low.endswith("ed") and low not in _BASE_ED
    if low in _MODALS or low in _IRREGULAR_PAST or past or low.endswith(("'d", "n't")) or not low.isalpha():
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(low) > 2 and low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


_SUBJ_VERB = re.compile(
    r"\b(?P<s>I|we|We)\b(?!-)(?P<c>'m|'ve|'d|'ll|'re)?(?P<rest>(?:\s+(?:\w+ly|no\s+longer|" + "|".join(sorted(_MODALS - {"no", "not"})) + r"))*)(?:\s+(?P<v>[A-Za-z']+))?"
)
_QUANTIFIED = re.compile(r"\b(we|We)\s+(?:all|both)\b")  # "we all have" -> "User has"
_AUX_FIRST = {"can", "could", "will", "would", "should", "shall", "may", "might", "must", "can't", "cannot", "won't",
              "wouldn't", "shouldn't", "couldn't", "didn't", "wasn't", "weren't"}
# another person before "I" at the start of the clause: "my wife and I", "my partner Ewan and I", "Sam & I"
_JOINED = re.compile(r"^\s*(?:(?:[Mm]y|[Oo]ur|[Tt]he)\s+[a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?|(?!I\b)[A-Z][a-z'’-]+)\s+(?:and|&|n)\s+$")
_AUX_BEFORE = re.compile(r"(?i)\b(?:can|could|would|will|shall|should|do|did|does|may|might|must|to|let|make|help|have|had)\s*$")


def third_person(clause: str, keep: frozenset[str] = frozenset()) -> str:
    """``clause`` rewritten with the user as a third person ("I walk my dog" -> "User walks their dog").

    ``keep`` holds words (lowercase) that must not be inflected after "I"/"we": a parse knows "split" in
    "we split up" is a past tense and "and" in "I and my husband" no verb.
    """

    def sv(m: re.Match[str]) -> str:
        subj = "User" if m.start() == 0 else "the user"
        c, rest, verb = m.group("c"), m.group("rest") or "", m.group("v")
        if _JOINED.search(m.string[: m.start()]) and m.group("s") == "I":  # "Margaret and I have": they both have
            return f"{subj}{rest}" + {"'ve": " have", "'re": " are", "'d": " would", "'ll": " will"}.get(c or "", "") + (f" {verb}" if verb else "")
        if c in ("'m", "'re"):
            return f"{subj} is{rest}" + (f" {verb}" if verb else "")
        if c == "'ve":
            return f"{subj} has{rest}" + (f" {verb}" if verb else "")
        if c == "'d":
            return f"{subj} would{rest}" + (f" {verb}" if verb else "")
        if c == "'ll":
            return f"{subj} will{rest}" + (f" {verb}" if verb else "")
        if verb is None:
            return subj + rest
        if verb.isupper() and len(verb) > 1:
            verb = verb.lower()
        if _AUX_BEFORE.search(m.string[: m.start()]):
            return f"{subj}{rest} {verb}"
        if rest.strip() and rest.split()[0].lower() in _AUX_FIRST:
            return f"{subj}{rest} {verb}"  # "I wasn't ever vegan", "I can't ever sleep": the next word keeps its form
        return f"{subj}{rest} {verb if verb.lower() in keep else _third(verb)}"

    text = _SUBJ_VERB.sub(sv, _QUANTIFIED.sub(r"\1", clause.strip()))
    text = re.sub(r"\bIm\b", "User is", text)
    starts_user = text.startswith("User")
    poss, obj = ("their", "them") if starts_user else ("the user's", "the user")
    text = re.sub(r"^(?:My|Our|my|our)\b", "User's", text)
    text = re.sub(r"\b(?:my|our|My|Our)\b", poss, text)
    text = re.sub(r"\b(?:myself|ourselves)\b", "themselves" if starts_user else "the user", text)
    text = re.sub(r"\b(?:mine|ours)\b", "theirs", text)
    text = re.sub(r"\b(?:me|us)\b", obj, text)
    text = re.sub(r"\bI\b(?!-)", "the user", text)  # not the I-95
    text = text.strip(" ,;:")
    return text[:1].upper() + text[1:] if text else text
