"""Words shared by the stores (keyword queries, the search partition's stored terms) and the lifecycle (scoring, slots): no imports from either."""

from __future__ import annotations

import re
from functools import lru_cache

# Function words that carry no content: left out of keyword queries and evidence.
STOPWORDS = frozenset(
    "a an and are as at be but by can could did do does for from had has have he her hers him his how i if in into "
    "is it its me my no not of on or our she so than that the their them then there these they this to too us was "
    "we were what when where which who whom why will with would you your yours".split()
)


_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def terms(text: str) -> set[str]:
    """Content words of ``text``, lower-cased and crudely stemmed (plural and verb endings dropped).

    Single characters are dropped: the "s" of "Alice's" would otherwise count as a shared word.
    """
    return set(_text_terms(text))


# Retrieval computes the words of every candidate on every query; the same
# memories come back query after query, so both steps are cached (bounded).
@lru_cache(maxsize=16384)
def _text_terms(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in STOPWORDS)


_LEAD = re.compile(r"[\W_]*([^\W\d_]+)", re.UNICODE)


def subject(text: str) -> str | None:
    """The term of the word ``text`` opens with, when it is capitalised: the memory's subject, as claims are written.

    "Maya is allergic to peanuts" -> maya; a turn stored as "Caroline: I'm
    keen on counseling" -> caroline. None when the first word is lower-case,
    a function word ("The", "I") or not a word.
    """
    m = _LEAD.match(text)
    if not m or not m.group(1)[0].isupper():
        return None
    found = _text_terms(m.group(1))
    return next(iter(found)) if found else None


@lru_cache(maxsize=65536)
def stem(w: str) -> str:
    """A crude stem: one of -ing, -ed, -es, -s dropped from words long enough to keep four letters."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


__all__ = ["STOPWORDS", "stem", "subject", "terms"]
