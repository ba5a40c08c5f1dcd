"""A batch of turns cut into clauses ahead of extraction, every parse the cutting asks for batched.

Cutting a turn parses its sentences and then, sentence by sentence, the few short texts that decide
where a clause starts ("I moved through to glasgow": does the piece read as a verb with "I" before
it?). Asked one at a time those cost about three times what they cost in a batch. So the turns are
cut against a parser that answers only from its cache and notes what it was asked for instead; a
turn that asked for something new is set aside, everything noted is parsed in one call, and the turns
set aside are cut again, until each is cut. The parses are the parser's own, so what is cut is what
cutting the turns one by one gives.
"""

from __future__ import annotations

from collections.abc import Sequence

from kenning.lifecycle.extraction.parse import InContext, Parser, Sentence
from kenning.lifecycle.extraction.turns import Pieces, keep, turn_pieces

ROUNDS = 6  # a turn is rarely set aside more than twice; past this it is cut with the parser itself


class _Asked(Exception):
    """A turn asked for a text not parsed yet."""


class _CacheOnly:
    """A parser that answers from ``parser``'s cache and notes the texts it has not parsed yet."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        self.asked: dict[bool, dict[str, None]] = {True: {}, False: {}}  # by whether entities were asked for

    def parse(self, texts: Sequence[str]) -> list[list[Sentence]]:
        return self._ask(texts, entities=True)

    def parse_without_entities(self, texts: Sequence[str]) -> list[list[Sentence]]:
        return self._ask(texts, entities=False)

    def _ask(self, texts: Sequence[str], *, entities: bool) -> list[list[Sentence]]:
        got = self.parser.cached(texts, entities=entities)  # type: ignore[attr-defined]
        if got is None:
            self.asked[entities].update(dict.fromkeys(texts))
            raise _Asked
        return got


def cut_all(parser: Parser, texts: Sequence[str]) -> list[Pieces]:
    """``turn_pieces`` of every text, with the parses it asks for made a batch at a time."""
    if getattr(parser, "cached", None) is None or getattr(parser, "parse_without_entities", None) is None:
        return [turn_pieces(parser, t) for t in texts]  # a hand-built parser: nothing to batch
    cuts: dict[int, Pieces] = {}
    pending = list(range(len(texts)))
    for _ in range(ROUNDS):
        if not pending:
            break
        ahead, again = _CacheOnly(parser), []
        for n in pending:
            try:
                cuts[n] = _rebound(turn_pieces(ahead, texts[n]), ahead, parser)
            except _Asked:
                again.append(n)
        if ahead.asked[True]:
            parser.parse(list(ahead.asked[True]))
        if ahead.asked[False]:
            parser.parse_without_entities(list(ahead.asked[False]))  # type: ignore[attr-defined]
        pending = again
    for n in pending:
        cuts[n] = turn_pieces(parser, texts[n])
    for n, text in enumerate(texts):
        keep(parser, text, cuts[n])  # extracting the turn takes this cut instead of cutting it again
    return [cuts[n] for n in range(len(texts))]


def _rebound(cut: Pieces, ahead: _CacheOnly, parser: Parser) -> Pieces:
    """``cut`` with what is cut from the turn parsed by ``parser`` itself, not the cache-only one it was cut with."""
    if isinstance(cut.parser, InContext) and cut.parser.parser is ahead:
        cut.parser.parser = parser
    return cut
