"""Words shared by the stores (keyword queries) and the lifecycle (scoring, slots): no imports from either."""

from __future__ import annotations

# Function words that carry no content: left out of keyword queries and evidence.
STOPWORDS = frozenset(
    "a an and are as at be but by can could did do does for from had has have he her hers him his how i if in into "
    "is it its me my no not of on or our she so than that the their them then there these they this to too us was "
    "we were what when where which who whom why will with would you your yours".split()
)


__all__ = ["STOPWORDS"]
