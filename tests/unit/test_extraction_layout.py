"""How a turn is laid out before it is read: a list numbered inside one line, words in brackets, a well-known place
typed in lowercase, a habit said not to be, and a fronted clause of what happened. Each test runs the real bundled
spaCy model."""

from __future__ import annotations

import pytest

from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction import extract
from kenning.lifecycle.extraction.normalise import sentences
from kenning.lifecycle.extraction.parse import default_parser


def texts(text: str) -> list[str]:
    return [c.text for c in extract([Turn("user", text)]).claims]


@pytest.mark.parametrize(
    "text, want",
    [
        ("quick facts: 1) I run a rehab clinic 2) I'm vegan 3) I don't drive", ["quick facts:", "I run a rehab clinic", "I'm vegan", "I don't drive"]),
        ("my kids are a) Tom, 9 and b) Ella, 6", ["my kids are", "Tom, 9 and", "Ella, 6"]),
        ("1. rent is due 2. gym at six", ["rent is due", "gym at six"]),
    ],
)
def test_a_list_numbered_inside_a_line_is_one_item_to_a_sentence(text, want):
    assert sentences(text) == want


@pytest.mark.parametrize("text", ["I have 1) cat", "I paid 2) then 3) later", "plan b) is fine", "a) tea or c) coffee"])
def test_a_lone_or_out_of_order_marker_is_no_list(text):
    assert sentences(text) == [text]


def test_each_numbered_item_is_its_own_claim():
    assert texts("quick facts: 1) I run a rehab clinic 2) I'm vegan 3) I don't drive") == [
        "User runs a rehab clinic.", "User is vegan.", "User doesn't drive."]


def test_words_in_brackets_stay_with_what_they_follow():
    got = texts("i'm a retired firefighter (tyne and wear, 30 years) and i love fishing")
    assert got == ["User is a retired firefighter (tyne and wear, 30 years).", "User loves fishing."]


@pytest.mark.parametrize(
    "text, place",
    [
        ("we just moved to new york last month", ["new", "york"]),
        ("my sister lives in sao paulo", ["sao", "paulo"]),
        ("i'm from des moines originally", ["des", "moines"]),
    ],
)
def test_a_well_known_place_in_lowercase_is_read_as_one_place(text, place):
    [sent] = default_parser().parse([text])[0]
    assert [t.text for t in sent.tokens if t.ent == "GPE"] == place


def test_a_common_word_after_in_is_not_taken_for_a_place():
    [sent] = default_parser().parse(["we went to see the show in town"])[0]
    assert not [t for t in sent.tokens if t.ent]


@pytest.mark.parametrize("text", ["I don't drive", "I never drink coffee", "I can't swim", "i don't drive when it's icy"])
def test_a_habit_said_not_to_be_is_lasting(text):
    (claim,) = extract([Turn("user", text)]).claims
    assert claim.metadata.get("quality") is True


@pytest.mark.parametrize("text", ["I didn't drive today", "I won't drive tomorrow", "I don't drive to your office"])
def test_one_occasion_or_a_plan_is_no_lasting_habit(text):
    assert not any(c.metadata.get("quality") for c in extract([Turn("user", text)]).claims)


def test_a_fronted_clause_of_what_happened_is_a_claim_of_its_own():
    got = texts("Since they bumped me up to company stage manager here at the Theatre Royal I spend my life in spreadsheets")
    assert got[0] == "They bumped the user up to company stage manager here at the Theatre Royal.", got
    assert "User spends their life in spreadsheets." in got, got
    assert texts("Since I moved to Leeds, I've been happier")[0].startswith("User lives in Leeds"), texts("Since I moved to Leeds, I've been happier")


@pytest.mark.parametrize("text", ["If I won the lottery I would retire to Ludhiana", "whenever you book a hotel for me, ask for a high floor"])
def test_a_condition_stays_with_what_it_conditions(text):
    assert len(texts(text)) <= 1, texts(text)
