"""Evidence besides the vector and the keywords, read off a query and the memories' texts.

Entity evidence: the names a query writes ("What does Melanie do?"), which of them are some memory's
subject in a partition, and how far each memory is about them. Time evidence: whether a memory says when
something happened, for a query asking when. And whether a memory ends by asking. The partition path
(``retrieve.search_partition``) reads the same from markers stored with each record's terms
(``stores.partition.SUBJECT``, ``TIMED``, ``ASKS``); the filtered path (``lifecycle.search``) scores its
candidates' texts with these functions. The weights and how they were chosen are ``retrieve.Policy``'s.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from kenning.lifecycle.retrieve import user_names
from kenning.text import _text_terms, asks, states_time, subject, terms

_WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)


def query_names(query: str, user_id: str) -> list[str]:
    """The names a query writes: its words capitalised past the first ("What does Melanie do?" -> ["Melanie"]).

    The first word is left out (a capital there says nothing), and so are
    function words and the words naming the user (the whole scope is about
    them; ``query_terms`` leaves them out too).
    """
    capitalised = [w for w in _WORDS.findall(query)[1:] if w[0].isupper()]
    if not capitalised:
        return []
    own = terms(" ".join(user_names(user_id) | {"user"}))
    return [w for w in capitalised if terms(w) and not terms(w) <= own]


def subject_names(part: Any, names: Sequence[str]) -> list[str]:
    """Those of ``names`` that are the subject of some record of a partition (``stores.partition.Partition``)."""
    from kenning.stores.partition import SUBJECT

    return [w for w in names if any(part.postings(SUBJECT + t).size for t in terms(w))]


def entity_scores(entities: Collection[str], texts: Sequence[str], mention: float) -> list[float]:
    """For each text, the mean over ``entities`` (terms of ``query_names``) of 1 when the text's subject
    (``text.subject``) is that entity, ``mention`` when the text holds it elsewhere, else 0."""
    if not entities:
        return [0.0] * len(texts)
    out = []
    for t in texts:
        lead, held = subject(t), _text_terms(t)
        out.append(sum(1.0 if e == lead else mention if e in held else 0.0 for e in entities) / len(entities))
    return out


def asking_scores(texts: Sequence[str]) -> list[float]:
    """For each text, 1 when it ends by asking (``text.asks``), else 0."""
    return [1.0 if asks(t) else 0.0 for t in texts]


def time_scores(texts: Sequence[str]) -> list[float]:
    """For each text, 1 when it says when something happened (``text.states_time``), else 0."""
    return [1.0 if states_time(t) else 0.0 for t in texts]
