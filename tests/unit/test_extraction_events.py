"""What the user did, said on the way to something else: a fronted "since/after" clause with its subject left out
("since leaving the band I've been teaching myself ukulele"), "now that" opening a clause, and the time a verb's
object names ("work nights at …"). Each test runs the real bundled spaCy model."""

from __future__ import annotations

import pytest

from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction import attributes, extract
from kenning.lifecycle.extraction.normalise import normalise
from kenning.lifecycle.extraction.parse import default_parser


def texts(text: str) -> list[str]:
    return [c.text for c in extract([Turn("user", text)]).claims]


def facts(text: str) -> list[tuple[str, str, bool]]:
    [sent] = default_parser().parse([text])[0][:1]
    return [(f.attribute.name, f.value, f.negated) for f in attributes.read_all(sent)]


@pytest.mark.parametrize(
    "text, did",
    [
        ("since leaving the band ive been teaching myself ukulele", "User left the band."),
        ("honestly since switching to history my seminars are SO much better, we're doing the tudors this term.", "User switched to history."),
        ("Since stopping the pill I've had headaches", "User stopped the pill."),
    ],
)
def test_a_fronted_doing_is_a_claim_of_its_own(text, did):
    got = texts(text)
    assert did in got and not any(t.startswith(("Since", "After")) for t in got), got


def test_a_fronted_move_sets_where_the_user_lives():
    got = extract([Turn("user", "after moving to Leeds I got a dog")]).claims
    assert any(c.slot is not None and c.slot.key == "residence" and "Leeds" in c.text for c in got), [c.text for c in got]


def test_before_or_when_opens_no_claim_of_its_own():
    assert not any(t.startswith("User left") for t in texts("before leaving the band I played every friday"))


def test_now_that_opens_a_clause_of_its_own():
    assert normalise("Now that I'm retired I finally have time for a garden.").startswith("Since I'm retired")
    assert normalise("I know now that it was wrong") == "I know now that it was wrong"
    got = texts("Now that I'm retired I finally have time for a proper vegetable garden.")
    assert "User is retired." in got, got


def test_the_time_a_verb_takes_as_its_object_leaves_the_place_to_the_verb():
    assert ("employer", "Toyota plant", False) in facts("User works nights at the Toyota plant in Georgetown.")


def test_a_cleft_after_im_puts_the_value_back_in_place():
    assert normalise("it's aspirin I'm allergic to, not ibuprofen.") == "I'm allergic to aspirin, not ibuprofen."
    assert "User is allergic to aspirin." in texts("sorry I got something wrong. it's aspirin I'm allergic to, not ibuprofen.")


def test_two_things_said_of_a_bare_kin_name_are_both_kept(real_system):
    mem = real_system.scope("t", "u")
    mem.add([{"role": "user", "content": "my mam has early stage dementia and shes after moving in with us here in cork, shes 81."}], wait=True)
    active = [m.text for m in mem.list()]
    assert "User's mam is 81." in active and any(t.startswith("User's mam is after moving in") for t in active), active


@pytest.mark.parametrize(
    "text, implied",
    [
        ("the commute to my new job at the uni library is like 9 miles each way", "I work at the uni library"),
        ("my new job at Arup is fun", "I work at Arup"),
        ("the new place in the centre is tiny", None),  # a home "in the centre" names no place
        ("my new job at a startup is fun", None),
    ],
)
def test_a_new_thing_of_the_users_names_where_they_are_now(text, implied):
    from kenning.lifecycle.extraction import passing

    [sent] = default_parser().parse([text])[0][:1]
    assert passing.implied(sent) == implied
