"""The attribute-slot grammar over normalised third-person claims (pure)."""

from __future__ import annotations

import pytest

from kenning.lifecycle.slots import Slot, distinctive, parse, parse_all


@pytest.mark.parametrize(
    "text, slot",
    [
        ("User lives in Leeds.", Slot("residence", "leeds")),
        ("Maya lives in the Hague.", Slot("residence", "hague")),
        ("User moved from Leeds to York last weekend.", Slot("residence", "york", False, "leeds")),
        ("User relocated to Newcastle upon Tyne in May.", Slot("residence", "newcastle upon tyne")),
        ("User is currently based in Oslo.", Slot("residence", "oslo")),
        ("User no longer lives in Leeds.", Slot("residence", "leeds", True)),
        ("User works at Initech.", Slot("employer", "initech")),
        ("User left Initech, now at Hooli.", Slot("employer", "hooli", False, "initech")),
        ("User no longer works at Initech.", Slot("employer", "initech", True)),
        ("User handed in their notice.", Slot("employer", None, True)),
        ("User works as a bus driver in Manchester.", Slot("occupation", "bus driver")),
        ("User is a primary school teacher now.", Slot("occupation", "primary school teacher")),
        ("User is vegetarian.", Slot("diet", "vegetarian")),
        ("User has gone vegan.", Slot("diet", "vegan")),
        ("User is not vegetarian any more.", Slot("diet", "vegetarian", True)),
        ("User gave up being vegan last month.", Slot("diet", "vegan", True)),
        ("User eats chicken and fish again.", Slot("diet", "omnivore")),
        ("User doesn't eat meat.", Slot("diet", "vegetarian")),
        ("Maya is severely allergic to peanuts.", Slot("allergy:peanut", "peanuts")),
        ("User is not allergic to penicillin after all.", Slot("allergy:penicillin", "penicillin", True)),
        ("User's wife is called Anna.", Slot("rel:partner", "anna")),
        ("Kim's daughter is called Hana.", Slot("rel:daughter:hana", "hana")),
        ("User's phone number is +44 7700 900123.", Slot("phone", "+44 7700 900123")),
        ("User's new number is 07700 900456.", Slot("phone", "07700 900456")),
        ("User prefers morning meetings.", Slot("pref:meeting", "morning")),
        ("User prefers afternoon meetings now.", Slot("pref:meeting", "afternoon")),
        ("User prefers tea to coffee.", Slot("pref:coffee|tea", "tea")),
        ("User hates middle seats.", Slot("like:middle seat", "middle seat", True)),
        ("User actually loves coffee.", Slot("like:coffee", "coffee")),
        ("User's favourite band is Muse now.", Slot("attr:favourite band", "muse")),
        ("User's sister Lucia-8812 lives in Seville.", Slot("sister.residence", "seville")),
        ("User just bought a house in Lyon.", Slot("residence", "lyon")),
        ("User drives a Toyota Corolla.", Slot("car", "toyota corolla")),
        ("User sold the Corolla and bought a Tesla Model 3.", Slot("car", "tesla model", False, "corolla")),
        ("User got married to Lena in June!", Slot("relstatus", "married")),
        ("User is a keen vegetarian.", Slot("diet", "vegetarian")),
        ("User is now living alone in Brighton.", Slot("residence", "brighton")),
        ("User quit smoking in January!", Slot("smoking", None, True)),
        ("Sam and the user split up.", Slot("rel:partner", None, True)),
        ("User has been sober for five years.", Slot("alcohol", None, True)),
        ("User doesn't drink alcohol at all.", Slot("alcohol", None, True)),
        ("User works remotely from Lisbon.", Slot("residence", "lisbon")),
        ("User would rather have meetings in the morning.", Slot("pref:meeting", "morning")),
        ("User now prefers Google Meet for calls.", Slot("pref:call", "google meet")),
        ("User prefers to travel by train.", Slot("pref:travel", "train")),
        ("User's birthday is on 4 March, not 3 March.", Slot("birthday", "4 march")),
        ("User has switched allegiance to Spurs.", Slot("team", "spurs")),
    ],
)
def test_parse(text, slot):
    assert parse(text) == slot


@pytest.mark.parametrize(
    "text",
    ["User was at the dentist today.", "User asked for a hotel in Lisbon.", "User saw a tortoise that looked just like Zorblax.",
     "User drinks a lot of water.", "User drinks coffee every morning."],
)
def test_no_slot(text):
    assert parse(text) is None


def test_one_claim_can_state_two_attributes():
    keys = {s.key for s in parse_all("User works as a nurse at St Mary's Hospital.")}
    assert keys == {"employer", "occupation"}


def test_someone_elses_attributes_never_share_the_users_keys():
    assert all(s.key.startswith("wife.") for s in parse_all("User's wife works at Globex."))
    assert parse("User's wife Julia and the user live in Oxford.").key == "residence"


def test_distinctive_tokens():
    assert distinctive("User's frequent flyer number is BA-55821, says Leo.") == {"ba-55821", "leo"}
