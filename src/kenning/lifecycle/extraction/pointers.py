"""Pointers: a clause that points at an earlier claim ("forget what I said about X", "scratch the bit
about X", "I was wrong about X", "forget Hafsa's address") and the replacement that may follow it
("…, it's actually £9,500"). Reconciliation decides what the pointer retracts; these read its topic.
"""

from __future__ import annotations

import re

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.pieces import POINTS
from kenning.lifecycle.extraction.parse import Sentence, Token, known_modifier_or_verb


LAST = "(the last thing said)"


def pointer_topic(sent: Sentence) -> str | None:
    """The topic of a retraction pointing at an earlier claim: "forget/ignore/disregard what I said about
    X", "scratch the bit about X" or "I was wrong about X" -> the words of X; None when the clause is not
    such a pointer ("turns out it was never X" is ``denied_before``)."""
    first = next((t for t in sent.tokens if t.lower not in lx.CLAUSE_ADVERBS and t.lower != "please" and t.pos != "PUNCT"), None)
    root = first if first is not None and first.lemma in lx.RETRACT_VERBS else next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is not None and root.lemma not in lx.RETRACT_VERBS and root.tag == "VB":
        # "do us a favour and forget what I said about …", "be a love and ignore …": the order is the second verb
        root = next((t for t in sent.tokens if t.lemma in lx.RETRACT_VERBS and t.tag == "VB" and t.dep in ("conj", "xcomp")
                     and t.head == root.i), root)
    wrong = any(t.lemma in lx.WRONG_WORDS and t.dep in ("acomp", "attr") and sent.tokens[t.head].lemma == "be" for t in sent.tokens)
    if root is None or (not wrong and (root.lemma not in lx.RETRACT_VERBS or root.tag not in ("VB", "VBP", "NN", "NNP"))):
        return None  # (after "ok" the tagger may read the order as a name: "ok disregard what I told you…")
    if wrong:
        about = next((t for t in sent.tokens if t.lower == "about"), None)
    else:
        said = any(t.lemma in ("say", "tell", "mention", "write") for t in sent.tokens)
        # "the bit about", "everything about": a stretch of what was said, not a thing ("delete the photo about …")
        pointed = said or any(t.lower in lx.STRETCH_NOUNS for t in sent.tokens)
        about = next((t for t in sent.tokens if t.lower in ("about", "re", "regarding") and t.i > root.i), None) if pointed else None
    if about is None and not wrong and root.tag in ("VB", "NN") and _points_back(sent, root):
        return LAST  # "scratch that", "forget that", "ignore all that": what was said last
    if about is None and not wrong and root.tag == "VB":
        # "forget that I work at Aldi": the clause it governs is what it points at
        said = next((c for c in sent.children(root.i) if c.dep == "ccomp" and any(
            g.dep == "mark" and g.lower == "that" for g in sent.children(c.i))), None)
        if said is not None:
            words = [sent.tokens[i].text for i in sent.subtree(said.i) if sent.tokens[i].dep != "mark"]
            return " ".join(words) or None
    if about is None and not wrong:
        # "forget Hafsa's address too": the object of the imperative is what it points at
        obj = next((c for c in sent.children(root.i) if c.dep == "dobj" and c.pos in ("NOUN", "PROPN")), None)
        if obj is not None and root.tag == "VB":
            words = [sent.tokens[i].text for i in sent.subtree(obj.i) if sent.tokens[i].dep != "case" and sent.tokens[i].pos != "PART"]
            return " ".join(words) or None
    if about is None:
        return None
    start, end = about.i + 1, max(sent.subtree(about.i)) + 1
    if end > start and end < len(sent.tokens) and sent.tokens[end].pos == "CCONJ":
        end += 1  # "about the court and the speeding": the parser may leave "and" and what follows outside the phrase
    if end > start and sent.tokens[end - 1].pos == "CCONJ":
        while end < len(sent.tokens) and sent.tokens[end].pos in ("DET", "ADJ", "NOUN", "PROPN", "NUM", "PART"):
            end += 1
    words = [t.text for t in sent.tokens[start:end]]
    words = words[: next((k for k, w in enumerate(words) if w in (",", ";")), len(words))]  # up to a replacement
    return " ".join(words) or None


_VAGUE = frozenset({"deal", "problem", "thing", "issue", "fault", "point", "case", "way", "idea", "plan", "matter", "time", "bother"})


def denied_before(sent: Sentence) -> str | None:
    """ "so turns out it was never lactose", "turned out it wasn't a sprain", "it's not an allergy after all": a noun
    the speaker named before, now denied with "it" and "never" (or "not" with "turns out" or "after all"), is what
    they take back. A denial of a
    quality ("it's not cheap") or of something vague ("it's not a big deal") points at nothing."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None:
        return None
    if root.lemma == "turn" and any(c.lower == "out" for c in sent.children(root.i)):  # "turns out | it was never …"
        root = next((c for c in sent.children(root.i) if c.dep == "ccomp" and c.lemma == "be"), root)
        turned = True
    else:  # "turns out, it's not an allergy after all": the parser may hang "turns out" under the "be", and "after
        # all" says as much
        turned = any(t.lemma == "turn" and any(c.lower == "out" for c in sent.children(t.i)) for t in sent.tokens) or any(
            t.lower == "after" and t.i + 1 < len(sent.tokens) and sent.tokens[t.i + 1].lower == "all" for t in sent.tokens)
    if root.lemma != "be" or not any(c.dep == "nsubj" and c.lower in ("it", "that") for c in sent.children(root.i)):
        return None
    neg = [t for t in sent.tokens if (t.dep == "neg" or t.lower == "never") and root.i in (t.head, sent.tokens[t.head].head)]
    if not neg or not (turned or any(c.lower == "never" for c in neg)):
        return None
    comp = next((c for c in sent.children(root.i) if c.i > neg[0].i and (
        c.dep == "attr" and c.pos in ("NOUN", "PROPN") or c.dep == "acomp" and not known_modifier_or_verb(c.lower))), None)  # "lactose"
    if comp is None or comp.lemma in _VAGUE:
        return None
    words = [sent.tokens[i].text for i in sent.subtree(comp.i) if sent.tokens[i].pos not in ("DET", "PUNCT") and sent.tokens[i] not in neg]
    return " ".join(words) or None


def _points_back(sent: Sentence, root: Token) -> bool:
    """The imperative's object is "that"/"this"/"it" alone (maybe with "all"), and nothing else is said."""
    objs = [c for c in sent.children(root.i) if c.dep == "dobj"]
    if len(objs) != 1 or objs[0].lower not in ("that", "this", "it"):
        return False
    rest = [t for t in sent.tokens if t.pos not in ("PUNCT", "INTJ") and t.i != root.i and t.i != objs[0].i
            and t.lower not in lx.CLAUSE_ADVERBS and t.lower not in ("all", "please", "pls", "wait", "oh", "no", "oops", "sorry")]
    return not rest


_REPLACES = re.compile(r"(?i)^(?:it'?s|it\s+is|its|it\s+should\s+be|actually|rather)\b")


_IT_IS_VALUE = re.compile(r"(?i)^(?:it'?s|its|it\s+is|which\s+is|that'?s)\s+(?:now\s+)?(?=[^,;]*(?:\d|@|\b[A-Z]))[^,;]{1,40}$")


# "got a new number | it's 07700 900456": the value is said of the new thing by itself (claims._what_it_is)
_NEW_THING = re.compile(r"(?i)\b(?:a|an)\s+new\s+[a-z]+$")


def keep_replacements(pieces: list[str]) -> list[str]:
    """ "disregard what I told you about the budget, it's actually £9,500": the replacement stays with its pointer;
    "my rent went up, it's 950 now": a value stays with the clause it belongs to (a new thing takes its own)."""
    out: list[str] = []
    for p in pieces:
        if out and ((POINTS.search(out[-1]) and _REPLACES.match(p)) or (_IT_IS_VALUE.match(p) and not _NEW_THING.search(out[-1]))):
            out[-1] = f"{out[-1]}, {p}"
        else:
            out.append(p)
    return out


_SAYING = frozenset({"say", "tell", "mention", "write"})


def reports_earlier(sent: Sentence) -> bool:
    """Whether the clause quotes what the user told the assistant before ("I said Rory was 6", "I told you my
    shift starts at 7", "I mentioned Leeds"): talk about the conversation, no new claim; what follows it says
    what is true. Telling someone else ("I told my boss I'm leaving") is an event of its own."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in _SAYING or root.tag != "VBD":
        return False
    kids = sent.children(root.i)
    if not any(c.dep == "nsubj" and c.lower == "i" for c in kids):
        return False
    if any(c.dep in ("dative", "dobj") and c.pos in ("NOUN", "PROPN") for c in kids):
        return False  # someone told, or something said by name ("said yes to the job")
    return any(c.dep in ("ccomp", "dobj") for c in kids)
