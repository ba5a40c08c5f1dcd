"""Readings added in session 10: notes about the speaker between commas, questions about the other speaker,
a picture shown, a retraction asked as a favour.

The sentences are written for these tests, not taken from the extraction corpus; the real bundled spaCy
model parses them.
"""

from __future__ import annotations

import pytest

from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction import extract, notes
from kenning.lifecycle.extraction.normalise import normalise, sentences
from kenning.lifecycle.extraction.parse import default_parser


def texts(text: str) -> list[str]:
    return [c.text for c in extract([Turn("user", text)]).claims]


def read(text: str) -> list[str] | None:
    [sent] = default_parser().parse(sentences(normalise(text)))[0][:1]
    return notes.read(sent)


def one_holding(got: list[str], word: str, *others: str) -> bool:
    return any(word in t.lower() and not any(o in t.lower() for o in others) for t in got)


def test_notes_between_commas_are_one_claim_each():
    got = texts("self employed joiner in wigan, drive a van, daughter's 15 an helps on sundays")
    assert one_holding(got, "joiner", "van") and one_holding(got, "van", "joiner"), got
    got = texts("im priti, 44, radiographer in leeds, mum of two (Ravi, 9)")
    assert one_holding(got, "44", "radiographer", "mum") and one_holding(got, "radiographer", "44", "mum"), got
    assert one_holding(got, "ravi", "radiographer", "44"), got


def test_each_note_is_said_with_the_speaker_as_subject():
    assert read("self employed joiner in wigan, drive a van") == ["I'm a self employed joiner in wigan.", "I drive a van."]
    assert read("im priti, 44, radiographer in leeds") == ["I'm priti.", "I'm 44.", "I'm a radiographer in leeds."]


@pytest.mark.parametrize(
    "text",
    [
        "I like pizza, pasta, and sushi",  # one more item of a list
        "tell me a joke, I need cheering up",  # an order, then a clause
        "My manager Priscilla, who's the only reason I stayed, is leaving",  # someone else's job
        "got three kids, well four if you count my stepson",  # said to someone
        "two dogs, sorry, three dogs, and a nurse on nights",  # corrected as it goes
        "I work at the depot in Crewe, 12 hour shifts, my back is wrecked",  # no note about who the speaker is
        "is she a nurse, 40, from Derby?",  # a question
    ],
)
def test_what_is_not_a_list_of_notes_is_read_as_it_is(text):
    assert read(text) is None


@pytest.mark.parametrize(
    "text",
    ["got any photos of the new kitchen?", "any fun plans for the weekend?", "what type of bike?", "did you go in the end?"],
)
def test_a_question_about_the_other_speaker_is_no_memory(text):
    assert texts(text) == []


@pytest.mark.parametrize(
    ("text", "word"),
    [("any tips for a first triathlon?", "triathlon"), ("can you find me a cheap hotel in Porto?", "porto"),
     ("what should I pack for Iceland?", "iceland")],
)  # (a question about the world alone, "what do runners usually eat before a race?", is not kept: see
#   test_extraction_chat_forms.test_a_question_about_the_world_is_not_a_memory)
def test_a_question_that_asks_for_something_is_kept_as_an_episode(text, word):
    got = extract([Turn("user", text)]).claims
    assert any(word in c.text.lower() for c in got) and all(c.kind.value == "episode" for c in got), [c.text for c in got]


@pytest.mark.parametrize("text", ["check out this bowl I made!", "look at these two in the snow"])
def test_a_picture_shown_is_no_request(text):
    assert texts(text) == []


def test_a_request_to_look_at_the_users_own_thing_is_kept():
    assert any("CV" in t for t in texts("look at my CV and tell me if it reads ok")), texts("look at my CV and tell me if it reads ok")


def test_a_retraction_asked_as_a_favour_points_at_its_topic():
    (p,) = [c for c in extract([Turn("user", "do me a favour and forget what i said about the redundancy")]).claims]
    assert p.metadata.get("pointer") and "redundancy" in p.metadata["pointer_topic"], (p.text, p.metadata)


def test_a_promotion_names_the_new_job_and_nothing_else_reached_by_to_is_one():
    from kenning.lifecycle.extraction.attributes import of_text

    for said, job in (("User got promoted to senior nurse.", "senior nurse"), ("User was promoted to duty manager.", "duty manager")):
        fact = of_text(default_parser(), said)
        assert fact is not None and fact.attribute.name == "occupation" and fact.value == job, fact
    assert of_text(default_parser(), "User works to 6pm most days.") is None


def test_sharing_a_flat_somewhere_is_living_there():
    from kenning.lifecycle.extraction.attributes import of_text

    fact = of_text(default_parser(), "User shares a house in Leith with three nurses.")
    assert fact is not None and (fact.attribute.name, fact.value) == ("residence", "Leith"), fact
    assert of_text(default_parser(), "User shares a room with their sister.") is None  # no place named


@pytest.mark.parametrize("text", ["don't tell my brother", "its class honestly, dont tell the lads at work"])
def test_a_secret_kept_between_the_speakers_is_no_rule_and_no_fact(text):
    assert texts(text) == []


def test_what_not_to_say_to_the_user_or_to_anyone_stays_a_rule():
    assert any(t.startswith("Standing instruction") and "ending" in t for t in texts("don't tell me the ending"))
    assert any(t.startswith("Standing instruction") and "divorce" in t for t in texts("please don't mention my divorce to anyone"))


def test_a_name_right_after_a_greeting_is_an_address_whatever_the_recogniser_calls_it():
    from kenning.lifecycle.extraction.addressee import vocatives

    sent = default_parser().parse(["Wow Caroline, that looks amazing!"])[0][0]
    assert [sent.tokens[i].text for i in vocatives(sent)] == ["Caroline"]
    assert texts("Wow Caroline, that looks amazing!") == []
    assert any("Lisbon" in t for t in texts("I moved to Lisbon, best decision ever"))


def test_a_trade_said_with_here_is_who_is_speaking():
    got = texts("glazier here, mostly conservatories, based near wrexham")
    assert "User is a glazier." in got, got
    assert texts("Marek here, 44, roofer")[0] == "User's name is Marek."


def test_an_opening_that_names_the_job_makes_the_rest_notes():
    got = texts("I'm a chiropodist in Truro, self employed, van's a grey Berlingo")
    assert any("chiropodist" in t and "Berlingo" not in t for t in got), got
    assert "User is self employed." in got, got


def test_a_note_that_is_no_job_or_person_gets_no_article():
    got = texts("I am tram driver in Sheffield, route 52, late shift")
    assert not any(t.startswith("User is a route") or t.startswith("User is a late") for t in got), got


def test_a_list_with_emoji_for_markers_is_read_as_notes_about_the_speaker():
    got = texts("quick about-me:\n🏥 sonographer at Ninewells\n🏡 Broughty Ferry\n🐶 cavapoo called Toffee (2)")
    assert "User works at Ninewells (is a sonographer at Ninewells)." in got, got
    assert "User lives in Broughty Ferry." in got and "User has a cavapoo called Toffee (2)." in got, got
    assert sentences("🏥\nok 👍") == ["ok 👍"]  # an emoji alone says nothing


@pytest.mark.parametrize("text", ["hi. Tom Baker. 34. teacher.", "38. nurse. Tokyo next week."])
def test_a_name_or_a_trip_among_notes_is_no_home_and_no_job(text):
    got = texts(text)
    assert not any(t.startswith("User lives in") or "Baker" in t for t in got), got


def test_a_verb_with_its_i_dropped_after_a_clause_starts_a_clause_of_its_own():
    got = texts("right so im a tiler self employed based in wakefield got a little lad called reuben whos 3 i play darts")
    assert one_holding(got, "tiler", "reuben") and one_holding(got, "reuben", "tiler", "darts"), got
    got = texts("im a nurse based in leeds got two kids")
    assert "User is a nurse based in leeds." in got and "User has got two kids." in got, got
    assert len(texts("the pasta we made tasted great")) <= 1  # a subject of its own: no dropped "I"


@pytest.mark.parametrize("text, want", [("i'm 34, work nights as an ICU nurse, have a greyhound", "I work nights as an ICU nurse."),
                                        ("tom, 41, drive for uber", "I drive for uber.")])
def test_a_note_opening_with_a_verb_of_the_speakers_life_is_what_they_do(text, want):
    assert want in read(text)
