"""The offline extraction engine on a dependency parse: turns in, one-claim candidates out.

parse (``parse.py``: the parser seam) -> clauses (``clauses.py``: split and
read each clause) -> claims (``claims.py``: whether, about whom and how
sure) -> attributes (``lifecycle.slots``: which attribute a claim sets, for
reconciliation). Tool and assistant turns keep the rules of
``lifecycle.extract`` (tool text is untrusted and capped; the assistant's
words are not the user's).
"""

from __future__ import annotations

from collections.abc import Sequence

from kenning.lifecycle import extract as rules
from kenning.lifecycle import safety
from kenning.lifecycle.extraction.claims import TurnState, clause_claims
from kenning.lifecycle.extraction.parse import Parser, default_parser

__all__ = ["extract"]


def extract(
    turns: Sequence[rules.Turn], *, allow_secrets: bool = False, context: str | None = None, parser: Parser | None = None
) -> rules.Extraction:
    """One-claim candidates from ``turns`` in order; ``context`` is the assistant turn said just before, if any."""
    parser = parser or default_parser()
    claims: list[rules.Claim] = []
    withheld: list[str] = []
    state = TurnState()
    last_assistant = context
    for i, turn in enumerate(turns):
        if turn.role == "user":
            text = turn.content if allow_secrets else safety.mask_secrets(turn.content)
            got, why = clause_claims(parser, text, i, state)
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
