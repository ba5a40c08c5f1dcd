"""Who a clause is about: a place's name is no one "he" can be, a hyphened kin word is a person, and a name said
right after a thing the user has is that thing's name. Each test runs the real bundled spaCy model."""

from __future__ import annotations

import pytest

from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction import extract, people
from kenning.lifecycle.extraction.parse import default_parser


def texts(text: str) -> list[str]:
    return [c.text for c in extract([Turn("user", text)]).claims]


def named(text: str) -> list[str]:
    [sent] = default_parser().parse([text])[0][:1]
    return people.named(sent)


def test_a_place_joined_to_a_place_is_no_one_he_can_be():
    assert named("Dad still drives lorries between Kaunas and Rotterdam, he's 64 and won't retire") == ["Dad"]
    got = texts("Dad still drives lorries between Kaunas and Rotterdam, he's 64 and won't retire, stubborn man.")
    assert "User's Dad is 64." in got and not any("Rotterdam is" in t for t in got), got


@pytest.mark.parametrize("text, who", [("My co-brother is also in Coimbatore", "My co-brother"), ("my step-dad is 60", "my step-dad"),
                                       ("my mother-in-law is visiting", "my mother-in-law")])
def test_a_hyphened_kin_word_is_the_person_named(text, who):
    assert named(text) == [who]


def test_he_after_a_hyphened_kin_word_is_that_person():
    got = texts("My co-brother is also in Coimbatore so he helped with the shifting.")
    assert "User's co-brother helped with the shifting." in got, got


@pytest.mark.parametrize(
    "text, want",
    [
        ("I have one cat, name is Bagsh, he is very fat hahaha.", "User has one cat called Bagsh."),
        ("I have a dog, her name is Pip", "User has a dog called Pip."),
        ("I have a sister. Her name is Ana.", "User has a sister called Ana."),
    ],
)
def test_a_name_said_after_a_thing_the_user_has_is_its_name(text, want):
    got = texts(text)
    assert want in got and not any(t.startswith(("User's name", "Name is")) for t in got), got


def test_a_name_with_no_thing_before_it_is_left_to_the_other_rules():
    assert not any("called" in t for t in texts("I love my job. Her name is Ana."))


@pytest.mark.parametrize("text, who", [("married to Kevin, hes a pharmacist at HEB", "Kevin"),
                                       ("I spent all morning at Gran's in Cardiff. She's 93", "Gran")])
def test_a_person_reached_by_to_or_at_is_still_a_person(text, who):
    assert any(t.startswith(f"{who} is") for t in texts(text)), texts(text)


@pytest.mark.parametrize("text, place", [("my flatmate Morag's in her final year of vet med at Glasgow, she's out on placements", "Glasgow"),
                                         ("My daughter Rudo got her offer from Nottingham for nursing! She starts in September.", "Nottingham")])
def test_a_well_known_place_after_at_or_from_is_no_one_she_can_be(text, place):
    got = texts(text)
    assert not any(t.startswith(place) for t in got), got


@pytest.mark.parametrize("text, who", [("gf is ama", "my gf Ama"), ("my husband is tunde", "my husband Tunde"), ("bf is jaz", "my bf Jaz")])
def test_the_name_a_kin_word_is_given_is_who_comes_next(text, who):
    assert named(text) == [who]
    assert named("my cat Nimbus is a ragdoll, and he's been sneezing") == ["my cat"]  # "a ragdoll" is no one's name


def test_an_aside_saying_what_the_one_just_named_is_is_kept():
    got = texts("omg ok so basically: nursery nurse in dudley, bf is jaz (hes a barber), we got a corn snake called noodle")
    assert "User's bf Jaz is a barber." in got and "User's bf is jaz." in got, got
    assert "User loves tea." in texts("I love tea (lol)")  # commentary in brackets is still dropped


def test_the_household_said_with_the_is_the_users():
    assert "User's boys loved the fajitas." in texts("the meal ideas were great tho, the boys loved the fajitas")
    assert "User's girls are 9." in texts("my eldest is 14 and the girls are 9")


def test_they_after_the_household_the_user_has_is_that_household():
    got = texts("need cheap meal ideas for the weekends i have the boys, theyre 9 and 12")
    assert "User's boys are 9 and 12." in got, got


def test_a_bare_kin_name_is_whom_she_stands_for():
    got = texts("my mam has early stage dementia and shes after moving in with us here in cork, shes 81.")
    assert "User's mam is 81." in got and "User's mam has early stage dementia." in got, got


def test_a_subject_in_brackets_is_not_the_clauses():
    got = texts("got type 2 diabetes last year (doc caught it on a routine blood test)")
    assert any(t.startswith("User got type 2 diabetes") for t in got), got


def test_she_skips_a_name_a_kin_word_made_a_man():
    got = texts("my sister Giulia lives in Rome and she just got engaged to her boyfriend Marco!!! shes lactose intolerant btw")
    assert "User's sister Giulia is lactose intolerant." in got and not any(t.startswith("Marco is") for t in got), got
    [sent] = default_parser().parse(["she just got engaged to her boyfriend Marco"])[0][:1]
    assert people.genders(sent) == {"Marco": "m"}


def test_a_bare_kin_word_is_the_speakers_and_who_he_is_next():
    got = texts("visited dad at the care home this morning and he thought i was my mum again. hes 84, been there since last autumn")
    assert "User's dad is 84." in got, got


def test_a_bare_kin_word_after_a_preposition_is_no_one_she_stands_for():
    got = texts("we both live in croydon with mum. Efua wants to do art, she wants to go to central saint martins")
    assert not any(t.startswith("User's mum") for t in got), got


@pytest.mark.parametrize("name, many", [("my son Idris", False), ("my son idris", False), ("my parents", True), ("Jo and Sam", True),
                                        ("my boys", True), ("Idris", False), ("my boss", False)])
def test_how_many_a_named_person_is_is_read_off_the_kin_word_not_the_name(name, many):
    assert people.plural(name) is many


def test_they_after_a_son_whose_name_ends_in_s_is_not_him():
    got = texts("my son Idris is 8. he's just started at a new school in Walthamstow and they're super strict about no nuts")
    assert not any("Idris are" in t or "Idris is super strict" in t for t in got), got


def test_a_subject_the_recogniser_takes_for_an_unknown_place_is_someone_he_can_be():
    got = texts("can you help me prep my husband for an interview. Kenji's going for a senior role at Toyota in Derby, hes been at Rolls-Royce 9 years")
    assert "Kenji has been at Rolls-Royce 9 years." in got, got
