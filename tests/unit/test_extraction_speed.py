"""How texts are parsed faster without parsing differently: the attribute ruler's table and the lemmatiser's kept
answers (extraction/pipeline.py), a turn cut ahead kept for its extraction (extraction/turns.py)."""

from __future__ import annotations

import pytest
from spacy.pipeline import AttributeRuler

from kenning.lifecycle.extraction import pipeline as ruler
from kenning.lifecycle.extraction.parse import default_parser

# every kind of pattern the small model's ruler holds: tag map entries, word + tag exceptions, two-word runs
# ("gonna", "gotta", "let's", "y'all", "ain't"), dependency tests ("I" as subject or object, "there is"), spaces
TEXTS = [
    "I'm gonna move to Leeds, y'all, and I ain't coming back",
    "we gotta go, let's get the 9am train  tomorrow",
    "there is a dog and there's a cat, but it isn't mine",
    "she gave it to me because I'd asked; nothin' else",
    "c'mon, do you have what I did? I don't, tho",
    "Jo gets the bus, Sam got a lift\n\nand    that's that",
    "",
]


def _matches(match, nlp, text):
    doc = nlp(text, disable=["attribute_ruler", "lemmatizer", "ner"])  # what the ruler sees: tagged and parsed
    return sorted(set(match(doc)))


def test_the_table_finds_what_spacys_matcher_finds():
    nlp = default_parser().nlp
    attribute_ruler = nlp.get_pipe("attribute_ruler")
    table = ruler.indexed(attribute_ruler)
    assert table is not None
    for text in TEXTS * 2:  # the second time from the table alone
        assert _matches(table, nlp, text) == _matches(lambda d: AttributeRuler.match(attribute_ruler, d), nlp, text), text
    assert any(_matches(table, nlp, TEXTS[0])), "the test must see matches"


def test_the_loaded_pipeline_uses_the_table_and_tags_as_the_model_does():
    nlp = default_parser().nlp
    assert isinstance(nlp.get_pipe("attribute_ruler").match, ruler.IndexedMatch)
    doc = nlp("I'm gonna sell it")
    assert [(t.lemma_, t.pos_) for t in doc] == [("I", "PRON"), ("be", "AUX"), ("go", "VERB"), ("to", "PART"), ("sell", "VERB"), ("it", "PRON")]


def test_kept_lemmas_are_the_lemmatisers_own_and_base_forms_are_worked_out_once():
    nlp = default_parser().nlp
    lemmatizer = nlp.get_pipe("lemmatizer")
    kept = lemmatizer.lemmatize
    assert isinstance(kept, ruler.KeptLemmas)
    asked = []

    def counting(token):
        asked.append(token.text)
        return kept.lemmatize(token)

    fresh = ruler.KeptLemmas(counting)
    for text in TEXTS * 2:
        doc = nlp(text, disable=["lemmatizer", "ner"])
        assert [fresh(t) for t in doc] == [lemmatizer.rule_lemmatize(t) for t in doc], text
    words = [t for text in TEXTS for t in nlp(text, disable=["lemmatizer", "ner"])]
    assert len(asked) == len({(t.orth, t.pos, t.morph.key) for t in words})  # each reading worked out once
    assert [t.lemma_ for t in nlp("the kids were running to houses")] == ["the", "kid", "be", "run", "to", "house"]


@pytest.mark.parametrize("pattern", [
    [{"LOWER": "a", "OP": "+"}],  # an operator
    [{"ORTH": "A"}],  # an attribute the table does not read
    [{"LOWER": {"FUZZY": "colour"}}],  # a predicate it does not answer
])
def test_a_ruler_with_a_pattern_outside_the_table_keeps_its_matcher(pattern):
    import spacy

    nlp = spacy.blank("en")
    attribute_ruler = nlp.add_pipe("attribute_ruler")
    attribute_ruler.add([[{"LOWER": "the"}]], {"LEMMA": "THE"})
    assert ruler.indexed(attribute_ruler) is not None
    attribute_ruler.add([pattern], {"LEMMA": "x"})
    assert ruler.indexed(attribute_ruler) is None
    ruler.install(nlp)
    assert not isinstance(attribute_ruler.match, ruler.IndexedMatch)


def test_a_turn_cut_ahead_is_not_cut_again_and_parses_what_is_cut_from_it_with_the_parser_itself():
    from kenning.lifecycle.extraction.ahead import cut_all
    from kenning.lifecycle.extraction.parse import SpacyParser
    from kenning.lifecycle.extraction.turns import turn_pieces

    text = "finally did it, moved through to glasgow last month, and the wife, Carol, does all the books"
    parser = SpacyParser(default_parser().nlp)
    (ahead,) = cut_all(parser, [text])
    assert turn_pieces(parser, text) is ahead  # handed out once, to the extraction of the same turn
    again = turn_pieces(parser, text)
    assert again is not ahead and (again.pieces, sorted(again.known)) == (ahead.pieces, sorted(ahead.known))
    assert turn_pieces(SpacyParser(default_parser().nlp), text) is not ahead  # another parser cuts for itself
    assert ahead.parser.parse(["a text nobody parsed before, Carol"])[0]  # not the cache-only parser it was cut with
