"""Supersession: how likely a new claim replaces one the user said before, when no rule decided.

The rules of reconciliation (an attribute of the row table with a new value, a value of the same shape said as
a change, a correction, a pointer) decide the changes they recognise. What they miss is the long tail of
updates said in the user's own words: "we're in dennistoun now" after "living in a wee flat in paisley",
"cancelled the gym, started bouldering instead" after "at puregym 4x a week". This is a logistic model over
a few features of a (new claim, earlier memory) pair: their cosine and its margin over the next-best
memory, the change markers of the new claim, the words and shapes the two share or do not, their kinds and
the time between them. It is consulted only when the rules said ADD, only for a claim about the user against
the user's own earlier fact or preference, and only with the embedder whose cosines it was trained on.

It is trained by ``scripts/train_supersede.py`` on the labelled extraction corpora (``tests/extraction/dev*``;
never ``val/``, ``test/`` or ``dev6/``): a memory a scenario forbids that is still active after a later
claim of the user's that the scenario wants kept is a pair that should have been superseded; a memory a
scenario requires that is still active is a pair that should not. A wrong supersession loses a true fact, a
missed one only leaves a stale neighbour, so the cutoff is chosen for few false supersessions; its measured
effect is in docs/benchmarks.md.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kenning.lifecycle import slots
from kenning.lifecycle.changes import _WEAK_MARKER, CHANGE_MARKER, NAMED_OLD, _evidence, _subject, facts_of
from kenning.lifecycle.extraction.chatter import MARK, Model, load
from kenning.lifecycle.extraction.dates import said
from kenning.lifecycle.matching import Neighbour, content_stems
from kenning.lifecycle.shape_change import MOVED, _values
from kenning.types import Kind, Memory, Source, Status

WEIGHTS = Path(__file__).parent / "extraction" / "data" / "supersede.json"
MIN_COSINE = 0.2  # below this a pair is never considered: nothing in common
REASON = "supersession model: what the earlier memory said, changed"
KINDS = (Kind.FACT, Kind.PREFERENCE)
_NEGATED = re.compile(r"(?i)\b(?:not|no|never|n't)\b|n't\b")
_PAST = re.compile(r"(?i)\b(?:was|were|had|did|used\s+to)\b|\w+ed\b")


def eligible(candidate: Memory, ranked: Sequence[Neighbour]) -> list[Neighbour]:
    """The earlier memories a candidate may supersede: the user's own active facts and preferences about the same
    subject, said in an earlier turn, at least ``MIN_COSINE`` alike, most alike first."""
    if candidate.source is not Source.USER_SAID or candidate.kind not in (*KINDS, Kind.EPISODE) or candidate.metadata.get("hedge"):
        return []
    if candidate.metadata.get("request") or candidate.metadata.get("pointer") or candidate.text.startswith("User asked"):
        return []
    if MARK in candidate.metadata:
        return []  # small talk by the chatter model changes nothing on a guess
    who = _subject(candidate.text)
    if who != "user":
        return []  # "my mum got cancelled on" is news of the day, never the end of "mum lives in Leeds"
    keys = _keys(candidate)
    out = []
    for n in ranked:
        old = n.memory
        if old.id == candidate.id or old.status is not Status.ACTIVE or old.source is not Source.USER_SAID or old.kind not in KINDS:
            continue
        if old.scope != candidate.scope or old.created_at > candidate.created_at or n.cosine < MIN_COSINE:
            continue
        if old.source_refs and set(old.source_refs) <= set(candidate.source_refs):
            continue  # said in the same turn
        if _subject(old.text) != who:
            continue
        if keys and (theirs := _keys(old)) and not keys & theirs:
            continue  # "doesn't smoke" after "doesn't drink": two attributes the table tells apart, neither replaces the other
        out.append(n)
    return sorted(out, key=lambda n: -n.cosine)


def _keys(memory: Memory) -> set[str]:
    """The attributes the slot table reads in a memory's text ("alcohol", "smoking", "residence").

    A preference is left out: it is read from a topic word ("switched to uber eats" reads as
    travel), too loose to say two memories cannot be about the same thing."""
    return {k for s in slots.parse_all(memory.text) if (k := s.key.split(":")[0]) != "pref"}


def features(candidate: Memory, old: Memory, cosine: float, margin: float) -> np.ndarray:
    """The features of one (candidate, earlier memory) pair, in the order the weights expect."""
    new_text, old_text = said(candidate), said(old)  # as worded, without the dates the engine wrote in
    new_words, old_words = content_stems(new_text), content_stems(old_text)
    shared = len(new_words & old_words) / max(1, min(len(new_words), len(old_words)))
    shapes_new, shapes_old = set(_values(new_text)), set(_values(old_text))
    mine, theirs = {f.attribute.name for f in facts_of(candidate)}, {f.attribute.name for f in facts_of(old)}
    days = max(0.0, (candidate.created_at - old.created_at).total_seconds() / 86400)
    return np.array([
        cosine,
        margin,
        float(bool(CHANGE_MARKER.search(new_text))),
        float(bool(_WEAK_MARKER.search(new_text))),
        float(bool(MOVED.search(new_text))),
        float(bool(NAMED_OLD.search(new_text))),
        float(_evidence(new_text, old_text)),
        shared,
        float(bool(new_words - old_words)),
        float(old_words <= new_words),
        float(bool(shapes_new & shapes_old)),
        float(candidate.kind is Kind.EPISODE),
        float(candidate.kind is Kind.PREFERENCE),
        float(old.kind is Kind.PREFERENCE),
        float(bool(mine and theirs and not mine & theirs)),  # two different recognised attributes
        float(bool(slots.parse(old_text))),
        math.log1p(days),
        float(bool(_NEGATED.search(new_text))),
        float(bool(_PAST.search(new_text))),
        len(new_text.split()) / 10,
    ])


def pairs(candidate: Memory, ranked: Sequence[Neighbour]) -> list[tuple[Memory, np.ndarray]]:
    """Each eligible earlier memory with the features of its pair."""
    near = eligible(candidate, ranked)
    out = []
    for i, n in enumerate(near):
        other = near[1].cosine if i == 0 and len(near) > 1 else near[0].cosine if i > 0 else MIN_COSINE
        out.append((n.memory, features(candidate, n.memory, n.cosine, n.cosine - other)))
    return out


def replaced(model: Model, candidate: Memory, ranked: Sequence[Neighbour], cutoff: float) -> Memory | None:
    """The earlier memory ``candidate`` most likely supersedes, if the model scores it at or above ``cutoff``."""
    scored = [(float(model.score(x)), old) for old, x in pairs(candidate, ranked)]
    if not scored:
        return None
    p, old = max(scored, key=lambda s: s[0])
    return old if p >= cutoff else None


def bundled() -> Model | None:
    """The shipped model, or None when the file is missing (reconciliation then adds what no rule decided)."""
    return load(WEIGHTS)
