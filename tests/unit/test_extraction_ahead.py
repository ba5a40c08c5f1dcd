"""Cutting a batch of turns ahead of extraction (extraction/ahead.py): the same cuts, in fewer parser calls."""

from __future__ import annotations

from kenning.lifecycle.extraction.ahead import cut_all
from kenning.lifecycle.extraction.parse import SpacyParser, default_parser
from kenning.lifecycle.extraction.turns import turn_pieces
from tests.unit.test_extraction import CountingPipeline  # spaCy's pipeline, counting the texts each call is given

# each of these asks, while it is cut, for short texts of its own: "I moved through to glasgow …" (does the
# piece read as a verb once "I" is restored?), "the wife, Carol, does all the books" (a clause the long parse missed)
TURNS = [
    "finally did it, moved through to glasgow last month",
    "our Ffion's at vet school in Nottingham, and the wife, Carol, does all the books",
    "work in insurance, drive a transit, lad's 17",
    "yeah set it up last night, works great",
    "been up since 4, fed the baby and walked the dog",
]


def _shape(cut):
    return cut.pieces, sorted(cut.known), cut.addressed, cut.contrasts, cut.spoken


def test_a_batch_is_cut_as_each_turn_alone_is_cut():
    alone = [turn_pieces(SpacyParser(default_parser().nlp), t) for t in TURNS]
    together = cut_all(SpacyParser(default_parser().nlp), TURNS)
    assert [_shape(c) for c in together] == [_shape(c) for c in alone]


def test_what_cutting_asks_for_is_parsed_in_a_few_calls_not_one_per_turn():
    one_by_one = CountingPipeline(default_parser().nlp)
    for t in TURNS:
        turn_pieces(SpacyParser(one_by_one), t)
    batched = CountingPipeline(default_parser().nlp)
    cut_all(SpacyParser(batched), TURNS)
    assert sum(batched.calls) == sum(one_by_one.calls)  # the same texts parsed, each once
    assert len(batched.calls) < len(one_by_one.calls) / 2


def test_a_parser_without_a_cache_cuts_each_turn_with_the_parser_itself():
    class Plain:
        def __init__(self):
            self.parser = default_parser()

        def parse(self, texts):
            return self.parser.parse(texts)

    assert [_shape(c) for c in cut_all(Plain(), TURNS[:2])] == [_shape(turn_pieces(default_parser(), t)) for t in TURNS[:2]]
