"""Similes: "snores like a tractor", "cried like a baby", "tunnels under the fence like a teenager". The
comparison says how, in a figure; what was done is the claim ("Kenny snores"), and a memory that keeps the
figure reads as if the user had a tractor or a teenager. A comparison with "like" plus "a" or "an" that
qualifies a verb of doing is left out of the claim's words. Not a verb of seeming ("sounds like a spa",
"my flat is like a sauna": there the comparison is all that is said), not the verb "like" ("I like a glass
of wine"), and not "like" as a filler before an amount ("for like a week").
"""

from __future__ import annotations

import re

from kenning.lifecycle.extraction.parse import Sentence, Token

SEEMING = frozenset("be feel look sound seem smell taste appear".split())  # "X is/looks like a Y": the comparison is the claim
_AMOUNTS = frozenset("second minute hour day week month year decade bit lot couple few dozen hundred thousand million".split())
_NOT_FIGURES = frozenset("DATE TIME QUANTITY CARDINAL MONEY PERCENT".split())


def spans(sent: Sentence) -> list[list[int]]:
    """The tokens of each simile qualifying a verb of doing in ``sent``, "like" and all it governs."""
    out = []
    for t in sent.tokens:
        if t.lower != "like" or t.pos != "ADP" or t.dep != "prep" or t.head == t.i:
            continue
        verb = sent.tokens[t.head]
        if verb.pos != "VERB" or verb.lemma in SEEMING:
            continue
        if _a_figure(sent, t):
            out.append(sent.subtree(t.i))
    return out


def _a_figure(sent: Sentence, like: Token) -> bool:
    """Whether "like" compares with something said with "a" or "an" that is no amount or date ("like a teenager";
    not "like a week", "like a Tuesday")."""
    obj = next((c for c in sent.children(like.i) if c.dep == "pobj"), None)
    return obj is not None and obj.lemma not in _AMOUNTS and obj.lower not in _AMOUNTS and obj.ent not in _NOT_FIGURES and any(
        c.dep == "det" and c.lower in ("a", "an") for c in sent.children(obj.i))


def without(sent: Sentence, piece: str) -> str:
    """``piece`` (the text ``sent`` was parsed from) with its similes left out; ``piece`` itself when it has none."""
    cut = spans(sent)
    if not cut:
        return piece
    drop = {i for span in cut for i in span}
    kept = "".join(t.text + t.space for t in sent.tokens if t.i not in drop)
    kept = re.sub(r"\s+([,.!?;:])", r"\1", kept).strip()
    return kept if len(kept.split()) >= 2 else piece


def only_figure(sent: Sentence) -> bool:
    """Whether a clause says nothing but what something is like: "my flat is like a sauna", "it's like a bad dream",
    "he looks like a film star" (a verb of seeming whose one complement is a comparison with "a" or "an")."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in SEEMING:
        return False
    kids = sent.children(root.i)
    if any(c.dep in ("acomp", "attr", "dobj", "ccomp", "xcomp", "oprd") for c in kids):
        return False
    like = next((c for c in kids if c.lower == "like" and c.dep == "prep"), None)
    return like is not None and _a_figure(sent, like)
