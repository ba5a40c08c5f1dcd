"""Chatter: how likely an extracted claim is chit-chat rather than something worth remembering.

The rules engine decides *how* a turn splits into claims; whether a claim is worth keeping at all ("The
kids look so cute!", "User asked: thoughts.", "Bit of a change since the user last spoke.") is where hand
rules generalise worst. This is a logistic model over the claim's own vector from the bundled embedder
plus a few surface features (length, commas, digits, capitalised words, a second person, an exclamation,
a question, a leftover first person, a request, a cut-off text, the kind, a hedge, a tool source).

It is trained by ``scripts/train_chatter.py`` on the labelled extraction corpora (``tests/extraction/dev*``:
a memory the scenario's ``claims``/``allow`` entries accept is worth keeping, any other is chatter), never
on ``val/`` or ``test/``. The weights (``data/chatter.json``) belong to one embedding model: with any other
embedder the model is not applied. The offline engine marks claims scored at or above
``Settings.chatter_cutoff``, and reconciliation stores a marked claim only when it changes a memory (an
update, a retraction), never as a new one. The cutoff and its measured effect are in docs/benchmarks.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from kenning.types import Kind, Source

WEIGHTS = Path(__file__).parent / "data" / "chatter.json"
MARK = "chatter"  # the metadata key of a claim scored at or above the cutoff (its score)
KINDS = (Kind.FACT, Kind.PREFERENCE, Kind.EPISODE, Kind.PROCEDURE)
# the kinds the model scores: the corpora hold ~1,000 facts and ~900 episodes the rules engine extracted, but
# only ~60 preferences and ~15 procedures, too few to learn what small talk looks like in them
SCORED = (Kind.FACT, Kind.EPISODE)
# Never scored, whatever they read like: claims that carry a decision about other memories (a retraction's
# pointer, a correction's values), and requests, which consolidation counts as evidence of a recurring need
# ("asked for a quiet room" the fifth time); and claims said as a change ("doing seoul instead", "no more
# nights"), which say how things stand now, or a professional's word about the user ("doc reckons my blood
# pressure's up").
_KEPT = frozenset({"pointer", "pointer_topic", "contrast_old", "contrast_new", "request", "change", "finding"})

_DIGIT = re.compile(r"\d")
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+")
_SECOND_PERSON = re.compile(r"(?i)\b(?:you|your)\b")
_FIRST_PERSON = re.compile(r"(?i)\b(?:i|my|me)\b")
_ASKED = re.compile(r"(?i)^user asked")


def scored(kind: Kind, metadata: Mapping[str, Any], *, recognised: bool, source: Source = Source.USER_SAID) -> bool:
    """Whether the model judges a claim at all: a fact or an episode, carrying no decision, not a request,
    and not ``recognised`` by the attribute table (a home, a job, a relationship status: "User is single."
    reads like small talk to the model, which learned that short "User is …" claims are mostly moods), nor
    read by the parse as a lasting quality (metadata ``quality``: "User is left-handed."), nor a tool's result."""
    if source is Source.TOOL_RESULT:
        return False  # what a tool returned is no chit-chat, and the corpora hold too little of it to learn from
    return kind in SCORED and not recognised and not _KEPT & metadata.keys() and not metadata.get("quality")


def surface(text: str, kind: Kind, *, hedged: bool, source: Source) -> list[float]:
    """The features of a claim besides its vector, in the order the weights expect."""
    words = text.split()
    return [
        *(float(kind is k) for k in KINDS),
        float(hedged),
        float(source is Source.TOOL_RESULT),
        len(words) / 10,
        text.count(",") / 2,
        float(bool(_DIGIT.search(text))),
        float(bool(_CAPITALISED.search(text[4:]))),  # past the subject ("User", "Ana's") that opens most claims
        float(text.startswith("User")),
        float("!" in text),
        float("?" in text),
        float(bool(_SECOND_PERSON.search(text))),
        float(bool(_FIRST_PERSON.search(text))),
        float(bool(_ASKED.search(text))),
        float(text.endswith("…")),
    ]


def features(vector: np.ndarray, text: str, kind: Kind, *, hedged: bool, source: Source) -> np.ndarray:
    return np.concatenate([np.asarray(vector, dtype=np.float64), surface(text, kind, hedged=hedged, source=source)])


@dataclass(frozen=True)
class Model:
    """Weights over ``features`` for vectors of ``model_id``."""

    model_id: str
    weights: np.ndarray
    bias: float
    meta: Mapping[str, Any]

    def score(self, x: np.ndarray) -> np.ndarray:
        """P(chatter) of each row of ``x`` (or of one feature vector)."""
        return 1.0 / (1.0 + np.exp(-(np.asarray(x) @ self.weights + self.bias)))

    def to_json(self) -> dict[str, Any]:
        return {**self.meta, "model_id": self.model_id, "bias": round(float(self.bias), 6),
                "weights": [round(float(w), 6) for w in self.weights]}


def from_json(data: Mapping[str, Any]) -> Model:
    meta = {k: v for k, v in data.items() if k not in ("model_id", "weights", "bias")}
    return Model(str(data["model_id"]), np.asarray(data["weights"], dtype=np.float64), float(data["bias"]), meta)


@lru_cache(maxsize=None)
def load(path: Path) -> Model | None:
    """A model shipped as weights in ``path``, or None when the file is missing."""
    try:
        return from_json(json.loads(path.read_text()))
    except FileNotFoundError:
        return None


def bundled() -> Model | None:
    """The shipped model, or None when the file is missing (the engine then keeps every claim)."""
    return load(WEIGHTS)


def fit(x: np.ndarray, y: np.ndarray, *, l2: float = 1.0, iterations: int = 100) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method (deterministic; the bias is not penalised)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = l2 * np.diag(np.r_[np.ones(d), 0.0])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        gradient = xb.T @ (p - y) + penalty @ w
        hessian = (xb * (p * (1 - p))[:, None]).T @ xb + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w[:-1], float(w[-1])
