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
        ("User's phone number is +44 7700 900123.", Slot("phone", "+447700900123")),
        ("User's new number is 07700 900456.", Slot("phone", "07700900456")),
        ("User prefers morning meetings.", Slot("pref:meeting", "morning")),
        ("User prefers afternoon meetings now.", Slot("pref:meeting", "afternoon")),
        ("User prefers tea to coffee.", Slot("pref:drink", "tea")),
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
        ("User's birthday is on 4 March, not 3 March.", Slot("birthday", "march 4")),
        ("User has switched allegiance to Spurs.", Slot("team", "spurs")),
    ],
)
def test_parse(text, slot):
    assert parse(text) == slot


@pytest.mark.parametrize(
    "text",
    ["User was at the dentist today.", "User asked for a hotel in Lisbon.", "User saw a tortoise that looked just like Zorblax.",
     "User drinks a lot of water.", "User drinks coffee every morning.",
     # "off to" is going somewhere, never going off something
     "User is off to put the kettle on.", "User is off to the gym.", "User is off sick today."],
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


# -- generalisation: values recognised by shape and category, not by the scenarios' wording ---------


@pytest.mark.parametrize(
    "text, number",
    [
        ("Text the user on 07911 123456 when the parcel arrives.", "07911123456"),
        ("The best way to ring the user is 0161 496 0000, weekday evenings.", "01614960000"),
        ("User's mobile is +1 415 555 0199, and WhatsApp works too.", "+14155550199"),
        ("User's work number is 020 7946 0018; the desk line.", "02079460018"),
    ],
)
def test_phone_numbers_are_recognised_by_shape_whatever_the_verb(text, number):
    assert Slot("phone", number) in parse_all(text)


def test_numbers_that_are_not_phones_are_not_phone_slots():
    assert not any(s.key == "phone" for s in parse_all("User's order number is 48213377."))
    assert not any(s.key == "phone" for s in parse_all("User ran 10000000 steps."))


@pytest.mark.parametrize(
    "text, value",
    [
        ("User works for a charity in Leeds.", "charity"),
        ("User is working at the local library these days.", "local library"),
        ("User works as a cashier at a garden centre near Bath.", "garden centre"),
        ("User is a nurse at the children's hospital.", "children's hospital"),
    ],
)
def test_workplaces_named_by_common_nouns_are_employers(text, value):
    assert Slot("employer", value) in parse_all(text)


@pytest.mark.parametrize("text", ["User works at the weekend.", "User works for a living.", "User works at night mostly."])
def test_times_and_manners_are_not_employers(text):
    assert not any(s.attribute == "employer" for s in parse_all(text))


@pytest.mark.parametrize(
    "old, new",
    [
        ("User is a tea drinker.", "User prefers espresso these days."),
        ("User prefers the aisle.", "User would rather have a window seat."),
        ("User prefers to travel by coach.", "User would rather take the train."),
        ("User prefers email over phone calls.", "User prefers WhatsApp now."),
        ("User is a cat person.", "User prefers dogs."),
    ],
)
def test_preferences_in_the_same_category_share_a_key(old, new):
    a, b = parse_all(old), parse_all(new)
    assert a and b and a[0].key == b[0].key and a[0].key.startswith("pref:")
    assert a[0].value != b[0].value


def test_preferences_about_different_topics_keep_their_own_keys():
    assert parse("User prefers Zoom for calls.").key == "pref:call"
    assert parse("User prefers morning meetings.").key == "pref:meeting"
    assert parse("User prefers tea.").key != parse("User prefers aisle seats.").key


@pytest.mark.parametrize(
    "text, diet",
    [
        ("User has stopped eating prawns.", "pescatarian"),
        ("User gave up seafood last spring.", "pescatarian"),
        ("User no longer eats tuna, mercury worries.", "pescatarian"),
        ("User doesn't eat chicken any more.", "omnivore"),
    ],
)
def test_giving_up_a_food_retracts_the_diet_that_includes_it(text, diet):
    assert Slot("diet", diet, True) in parse_all(text)


def test_a_standing_food_exclusion_is_not_a_diet_change():
    assert not any(s.attribute == "diet" for s in parse_all("User doesn't eat shellfish."))


@pytest.mark.parametrize(
    "text",
    ["User was born on the 3rd of May.", "User's birthday falls on May 3.", "User was born on May 3rd, 1990.", "User's birthday is 3 May."],
)
def test_birthdays_in_any_date_order_compare_as_one_value(text):
    assert Slot("birthday", "may 3") in parse_all(text)


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("User's email is ana@example.org, the work one.", "email", "ana@example.org"),
        ("User's home address is 4 Mill Lane, the blue door.", "address", "4 mill lane"),
        ("User's favourite colour is teal - always has been.", "attr:favourite colour", "teal"),
    ],
)
def test_values_stop_at_the_clause_boundary(text, key, value):
    assert Slot(key, value) in parse_all(text)


@pytest.mark.parametrize("text", ["User moved to the back of the queue.", "User changed into dry clothes.", "User switched off the lights."])
def test_movement_and_other_switches_are_not_preference_changes(text):
    assert not any(s.key.startswith("pref:") for s in parse_all(text))


@pytest.mark.parametrize(
    "text, slot",
    [
        ("User has never been vegetarian, meat is fine.", Slot("diet", "vegetarian", True)),
        ("User was never a teacher.", Slot("occupation", "teacher", True)),
        ("User used to be a nurse.", Slot("occupation", "nurse", True)),
        ("User wasn't ever vegan.", Slot("diet", "vegan", True)),
        ("User hasn't ever been pescatarian.", Slot("diet", "pescatarian", True)),
    ],
)
def test_never_been_and_used_to_be_retract_the_state(text, slot):
    assert slot in parse_all(text)


def test_never_been_somewhere_is_not_a_retraction():
    assert parse_all("User has never been to Paris.") == []


@pytest.mark.parametrize(
    "text, occupation",
    [
        ("User works as a cartographer.", "cartographer"),
        ("User is an oceanographer.", "oceanographer"),
        ("User is a sommelier at a wine bar in Leith.", "sommelier"),
        ("User is a sous-chef at the Ivy.", "sous-chef"),
        ("User's job is beekeeping.", "beekeeping"),
        ("User's profession is a stonemason.", "stonemason"),
    ],
)
def test_a_job_is_recognised_by_grammar_not_by_a_list(text, occupation):
    found = {s.key: s for s in parse_all(text)}
    assert found["occupation"] == Slot("occupation", occupation)


@pytest.mark.parametrize(
    "text, employer",
    [
        ("User is a sommelier at a wine bar in Leith.", "wine bar"),
        ("User is a porter at the royal infirmary.", "royal infirmary"),
        ("User works at the Royal Infirmary.", "royal infirmary"),
        ("User is a glassblower for Pilkington.", "pilkington"),
    ],
)
def test_a_job_at_a_place_names_the_employer(text, employer):
    found = {s.key: s for s in parse_all(text)}
    assert found["employer"] == Slot("employer", employer)


@pytest.mark.parametrize(
    "text",
    ["User is a keen runner.", "User is an early riser.", "User's job is stressful.", "User is a big fan of jazz.",
     "User is a regular at the Crown.", "User is a worrier."],
)
def test_descriptions_shaped_like_jobs_are_not_occupations(text):
    assert "occupation" not in {s.key for s in parse_all(text)}
    assert "employer" not in {s.key for s in parse_all(text)}


@pytest.mark.parametrize(
    "text, slot",
    [
        ("User moved over to Globex.", Slot("employer", "globex")),
        ("User has moved over to Umbrella last spring.", Slot("employer", "umbrella")),
        ("User moved to Acme Labs in March.", Slot("employer", "acme labs")),
        ("User switched over to IBM.", Slot("employer", "ibm")),
        ("User moved to a new team.", Slot("workteam", "new team")),
        ("User moved to the platform team last month.", Slot("workteam", "platform team")),
        ("User has moved to the finance department.", Slot("workteam", "finance department")),
    ],
)
def test_moving_to_a_company_or_a_team_is_a_job_change_not_a_home_move(text, slot):
    found = parse_all(text)
    assert slot in found
    assert "residence" not in {s.key for s in found}


@pytest.mark.parametrize(
    "text, town",
    [("User moved over to Spain.", "spain"), ("User moved over to Hartlepool.", "hartlepool"),
     ("User moved to New York.", "new york"), ("User moved to Leeds last year.", "leeds")],
)
def test_moving_to_a_town_is_still_a_home_move(text, town):
    found = {s.key: s for s in parse_all(text)}
    assert found["residence"].value == town and "employer" not in found


@pytest.mark.parametrize(
    "old, new, key",
    [
        ("User plays the cello.", "User doesn't play the cello anymore.", "habit:cello"),
        ("User has taken up the banjo.", "User gave up the banjo last year.", "habit:banjo"),
        ("User took up pottery last spring.", "User gave up pottery.", "habit:pottery"),
        ("User plays tennis on Sundays.", "User gave up tennis.", "habit:tenni"),
        ("User is learning the harp.", "User stopped playing the harp.", "habit:harp"),
    ],
)
def test_instruments_and_hobbies_are_habits_a_retraction_names(old, new, key):
    a, b = {s.key: s for s in parse_all(old)}, {s.key: s for s in parse_all(new)}
    assert not a[key].negated and b[key].negated and a[key].value == b[key].value
    assert "occupation" not in b


@pytest.mark.parametrize(
    "text",
    ["User plays the lottery every week.", "User took up the offer.", "User gave up on him.", "User is no longer the team lead."],
)
def test_playing_or_giving_up_other_things_is_not_a_habit(text):
    assert not any(s.key.startswith("habit:") for s in parse_all(text))


@pytest.mark.parametrize(
    "text, slot",
    [
        ("User always goes for the window seat.", Slot("pref:seat", "window")),
        ("User needs an aisle seat.", Slot("pref:seat", "aisle")),
        ("User always picks Italian.", Slot("pref:cuisine", "italian")),
        ("User usually opts for Thai.", Slot("pref:cuisine", "thai")),
        ("User always orders green tea.", Slot("pref:drink", "green tea")),
    ],
)
def test_choosing_verbs_state_a_preference_keyed_by_category(text, slot):
    assert parse(text) == slot


@pytest.mark.parametrize(
    "text",
    ["User needs a taxi to the airport.", "User needs a new laptop.", "User doesn't pick Thai.", "User picks the kids up at four."],
)
def test_choosing_verbs_without_a_category_are_not_preferences(text):
    found = parse(text)
    assert found is None or not found.key.startswith("pref:")


@pytest.mark.parametrize(
    "text, value",
    [
        ("User gets paid on the 28th of every month.", "28th"),
        ("User's salary hits on the 25th.", "25th"),
        ("Payday falls on the 3rd.", "3rd"),
        ("User's pay packet comes in on the 22nd.", "22nd"),
    ],
)
def test_payday_is_keyed_by_the_day(text, value):
    assert parse_all(text) == [Slot("payday", value)]


@pytest.mark.parametrize(
    "text",
    ["User has a dentist appointment on the 28th.", "User paid the 28th invoice.", "User is paid weekly.",
     "User gets paid 30 pounds an hour."],
)
def test_a_date_or_an_amount_is_not_a_payday(text):
    assert all(s.key != "payday" for s in parse_all(text))


@pytest.mark.parametrize("text, key, value, negated", [
    ("User is working as senior tally clerk at Tema port.", "employer", "tema", False),  # no article, as many speak
    ("User is officially on retirement now.", "occupation", None, True),
    ("User is on maternity leave.", "leave", None, False),
    ("User's first full week back at the office is done.", "leave", None, True),
    ("User signed a 12 month lease on a 1-bed above a bakery in Penzance.", "residence", "penzance", False),
    ("User eats a LOT of meat lol, high protein everything.", "diet", "omnivore", False),
])
def test_session_24_forms(text, key, value, negated):
    got = parse(text)
    assert got is not None and (got.key, got.value, got.negated) == (key, value, negated), got


def test_someone_elses_meat_eating_is_no_diet_of_the_users():
    assert parse("User's kids and the user's partner eat meat.") is None
    assert parse("User doesn't eat meat.") == Slot("diet", "vegetarian", False)


def test_a_partner_in_chat_shorthand_is_someone_else_not_the_user():
    assert parse("User's bf Jaz is a barber.").key == "bf.occupation"
    assert parse("User's gf Ama is a nurse.").key == "gf.occupation"


@pytest.mark.parametrize(
    "text",
    ["User really wants to quit the fags this year.", "User is trying to quit smoking.", "User is going to move to Leeds.",
     "User might go vegan.", "User is thinking of moving to Bristol."],
)
def test_what_the_user_means_or_tries_to_do_sets_no_attribute(text):
    assert parse(text) is None


@pytest.mark.parametrize("text, key", [("User quit smoking.", "smoking"), ("User moved to Leeds.", "residence")])
def test_what_was_done_still_sets_it(text, key):
    assert parse(text).key == key
