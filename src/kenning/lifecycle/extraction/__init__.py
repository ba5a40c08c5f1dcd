"""The offline extraction engine on a dependency parse: turns in, one-claim candidates out.

parse (``parse.py``: the parser seam) -> clauses (``clauses.py``: a sentence
split into clauses; ``reading.py``: each read for subject, mood and tense) ->
claims (``claims.py``: whether, about whom and how sure) -> attributes
(``attributes.py`` on the ``rows.py`` table: which attribute a claim sets, for
reconciliation). Tool and assistant turns keep the rules of
``lifecycle.extract`` (tool text is untrusted and capped; the assistant's
words are not the user's).
"""

from __future__ import annotations

from collections.abc import Sequence

from kenning.lifecycle import extract as rules
from kenning.lifecycle import secrets
from kenning.lifecycle.extraction import answers
from kenning.lifecycle.extraction.normalise import normalise, sentences
from kenning.lifecycle.extraction.claims import TurnState, clause_claims
from kenning.lifecycle.extraction.ahead import cut_all
from kenning.lifecycle.extraction.parse import Parser, default_parser

__all__ = ["extract", "prefetch"]


def extract(
    turns: Sequence[rules.Turn], *, allow_secrets: bool = False, context: str | None = None, parser: Parser | None = None,
    others: Sequence[str] = (),
) -> rules.Extraction:
    """One-claim candidates from ``turns`` in order; ``context`` is the assistant turn said just before, if any;
    ``others`` the people the conversation named before these turns, oldest first (whom "he" or "she" can
    stand for when the turns name nobody)."""
    parser = parser or default_parser()
    claims: list[rules.Claim] = []
    withheld: list[str] = []
    state = TurnState(others=list(others))
    last_assistant = context
    for i, turn in enumerate(turns):
        if turn.role == "user":
            text = turn.content if allow_secrets else secrets.mask_secrets(turn.content)
            got, why = clause_claims(parser, text, i, state)
            if (answered := answers.said(last_assistant, text, parser)) is not None:  # "Where are you based?" "bristol, …"
                got = clause_claims(parser, answered, i, state)[0] + got
            if not got and last_assistant:
                yes = rules._confirmed(last_assistant, turn.content, i)
                got = [yes] if yes else []
            last_assistant = None
        elif turn.role == "tool":
            got, why = rules._tool_claims(turn, i, allow_secrets)
        else:
            got, why = rules._assistant_claims(turn, i, allow_secrets)
            last_assistant = turn.content
        claims.extend(got)
        withheld.extend(why)
    return rules.Extraction(tuple(claims), tuple(withheld))


def prefetch(batches: Sequence[Sequence[rules.Turn]], *, allow_secrets: bool = False, parser: Parser | None = None) -> None:
    """Parse, ahead and in two pipeline calls, most of what extracting each batch of turns will ask the
    parser for: every user turn's sentences, then every clause cut from them.

    A parser answers a batch of texts several times faster than the same texts one by one (about 1.1
    against 3.6 ms for a short sentence with spaCy's small pipeline), so the background worker prefetches
    the captures it is about to extract; ``extract`` then finds the parses in the parser's cache. Turns
    are masked as ``extract`` masks them, so the texts (the cache keys) are the same.
    """
    parser = parser or default_parser()
    texts = [
        t.content if allow_secrets else secrets.mask_secrets(t.content) for turns in batches for t in turns if t.role == "user"
    ]
    if not texts:
        return
    parser.parse([s for text in texts for s in sentences(normalise(text))])
    cuts = cut_all(parser, texts)  # the sentences' parses come from the cache now; what cutting asks for, in batches
    todo = list(dict.fromkeys(p for cut in cuts for p in cut.todo))
    if todo:
        plain = getattr(parser, "parse_without_entities", parser.parse)
        plain(todo)
