"""Dense chat turns (session 30, dev30): what packing several facts into one run-on message does to the parse,
and the small talk such turns carry. An adjective or a verb listed with the subject left out, an aside in
brackets, a condition complete in its own piece, "so" as a degree, a first word of how someone lives read as a
noun, the weather, passers-by, what "it" is when it is the user's home, a bare answer to the assistant's
question, an amount said with "'s", a requirement of a thing, a subject the parse gives a piece, and a modal
two verbs share. Each test runs the real bundled spaCy model through ``extract``."""

from __future__ import annotations

import pytest

from kenning.lifecycle import lexicon, slots
from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction import extract
from kenning.lifecycle.extraction.normalise import normalise
from kenning.lifecycle.extraction.parse import default_parser
from kenning.lifecycle.extraction.pointers import denied_before
from kenning.types import Kind


def claims(*turns: tuple[str, str] | str) -> list:
    said = [Turn("user", t) if isinstance(t, str) else Turn(*t) for t in turns]
    return list(extract(said).claims)


def texts(*turns) -> list[str]:
    return [c.text for c in claims(*turns)]


def test_an_adjective_listed_after_a_verb_gets_its_be():
    got = texts("i do nights at the warehouse in tilbury, live in grays w my cousin, allergic to penicillin fyi")
    assert "User is allergic to penicillin." in got, got


def test_a_condition_complete_in_its_piece_does_not_swallow_the_next_clause():
    got = texts("if i ever ask about antibiotics remember that, and i only drink oat milk cos dairy wrecks my stomach")
    assert any(t.startswith("User only drinks oat milk") for t in got), got


def test_a_verb_joined_to_a_condition_without_a_subject_still_shares_it():
    got = claims("if i won the lottery id quit tomorrow and open a little bakery. im an accountant in leicester")
    assert not any("bakery" in c.text and c.confidence > 0.5 for c in got), [(c.text, c.confidence) for c in got]
    assert any("accountant" in c.text for c in got)


def test_days_off_is_no_shift_pattern():
    assert "shift-pattern" not in lexicon.topic_words("User gets proper days off now finally.")
    assert "shift-pattern" in lexicon.topic_words("User works nights now.")


def test_so_before_an_adjective_is_a_degree_not_a_joint():
    got = texts("im allergic to shellfish which is so tragic bc my whole family is from new orleans")
    assert len([t for t in got if "shellfish" in t]) == 1 and not any(t.startswith("Tragic") for t in got), got
    got = texts("booking dinner for saturday, i'm allergic to shellfish so somewhere that's careful with that")
    assert "User is allergic to shellfish." in got, got


def test_an_aside_in_brackets_gives_no_subject_to_what_follows():
    got = texts("im brianna, paralegal in atlanta, studying for the lsat rn (test is june 13 pray for me), got a corgi named waffles")
    assert any(t.startswith("User has got a corgi named waffles") for t in got), got
    assert any(t.startswith("User is studying for the lsat") for t in got), got
    assert not any(t.lower().startswith("test") for t in got), got


def test_a_left_out_i_before_a_verb_read_as_a_noun_is_put_back():
    got = texts("hiya. work at a call centre in sunderland doing insurance claims and the targets are doing my head in.")
    assert any(t.startswith("User works at a call centre in sunderland") for t in got), got
    assert not any("works in progress" in t for t in texts("work in progress is slow")), "a noun phrase stays one"


@pytest.mark.parametrize("text", ["Wow its raining again, shocker, portland in february", "aw ta. its chucking it down here, been raining since 6 lol."])
def test_the_weather_is_no_claim(text):
    got = texts(text)
    assert not any("rain" in t for t in got), got


def test_passers_by_are_no_claim_but_the_users_own_news_is():
    assert texts("omg the bloke in the chippy queue tonight was singing abba at full volume, made my week lol.") == []
    assert texts("saw a bloke walking a ferret in bute park today i kid you not") == []
    assert any("car" in t for t in texts("some guy rear-ended my car on the a13"))
    assert any("rafael" in t for t in texts("been seeing this guy rafael i met at my climbing gym"))


def test_it_after_the_users_home_is_the_home():
    got = texts("so me and tonya are thinking about ripping out the kitchen in our place. it's a 1920s bungalow in kansas city")
    assert any("place is a 1920s bungalow in kansas city" in t for t in got), got


def test_a_place_given_as_the_answer_to_where_the_user_is_based():
    got = texts(("assistant", "How exciting! Where are you based?"), "bristol, we rent a ground floor flat in bedminster.")
    assert "User lives in bristol." in got, got
    assert not any("bristol" in t for t in texts(("assistant", "What did you have for lunch?"), "bristol, we rent a flat."))


def test_an_amount_said_with_s_is_is():
    assert "budget is actually £1000 now" in normalise("update, budget's actually £1000 now")
    assert "sophie's 10th" in normalise("my daughter sophie's 10th birthday party")
    assert "who's 17" in normalise("an ancient tabby named Mr Tumnus who's 17")


def test_a_diagnosis_lasts_and_a_denial_of_it_reads_as_one():
    got = claims("so i got diagnosed with a wheat allergy last week")
    assert got and got[0].kind is Kind.FACT, got
    assert slots.parse("User doesn't have a wheat allergy after all.").negated
    assert slots.parse("User has been vegan for about two years now.").value == "vegan"
    assert slots.parse("User is eating everything again now.").value == "omnivore"


def test_what_a_thing_has_to_be_is_kept():
    got = texts("hang on, I actually work every other saturday, so long runs have to be sundays")
    assert any("sundays" in t for t in got), got


def test_an_owner_after_the_verb_does_not_own_the_subject():
    got = texts("take home is £2,100, rent's £850 (my half, I split with Tash)")
    assert any(t.startswith("User's rent is £850") for t in got), got


def test_the_parses_own_subject_of_a_piece_is_kept():
    got = texts("the new family across the road, the okafors, have twin boys who are into everything")
    assert not any(t.startswith("User has twin") for t in got), got


def test_a_modal_two_verbs_share_goes_to_both():
    got = claims("been thinking i might go back to college and do hairdressing")
    hair = [c for c in got if "hairdress" in c.text]
    assert hair and all("might" in c.text and c.confidence <= 0.5 for c in hair), [(c.text, c.confidence) for c in got]


def test_the_one_a_present_is_for_is_who_he_is_next():
    got = texts("need a present for my dad's 70th on the 21st. he's obsessed with birdwatching")
    assert any(t.startswith("User's dad is obsessed with birdwatching") for t in got), got


def test_a_list_of_amounts_is_one_row_each():
    got = texts("need help with a budget. take home is about 4200 a month, rent is 1650 for my place in denver, car payment 380, student loans 290")
    assert "User's car payment is 380." in got and any(t.startswith("User's student loans are 290") for t in got), got
    assert not any("car payment" in t and "rent" in t for t in got), got


def test_a_kin_word_the_tagger_reads_as_a_name_and_a_child_named_with_an_age():
    got = texts("hard day. went to see mam at the care home in swansea. her dementia's got worse")
    assert any("mam's dementia" in t for t in got), got
    assert "Mason (10) has" in normalise("ok mom brain is at max capacity. mason (10) has travel soccer")
    assert "my son (10)" in normalise("my son (10) loves it")


@pytest.mark.parametrize("text", ["see!!! never accept the first offer.", "never take the first thing that comes along just out of panic",
                                  "never let the builders start everything at once"])
def test_advice_to_a_friend_is_no_standing_instruction(text):
    assert not any(c.kind is Kind.PROCEDURE for c in claims(text)), texts(text)


@pytest.mark.parametrize("text", ["never suggest anything with coriander", "always use km with me", "never again ryanair after that lisbon fiasco"])
def test_a_rule_for_the_assistant_still_is_one(text):
    assert any(c.kind is Kind.PROCEDURE for c in claims(text)), texts(text)


def test_a_wording_that_is_only_a_relative_clause_is_no_claim():
    assert not any(t.startswith("Which") for t in texts("now im one with the sofa. which i have now fully merged with"))


def test_an_allergy_said_without_its_object_is_to_what_was_refused_before():
    assert "User is allergic to kiwi." in texts("a quick fruit salad recipe for daddy's party, but no kiwi, i'm allergic, makes my mouth swell up")
    assert "User is allergic to nuts." in texts("nothing with nuts please, I'm allergic")


def test_years_of_experience_beside_a_job_are_had():
    got = texts("right now I'm a market research analyst at Kantar in London, 4 years experience. mostly qual, interviews")
    assert "User has 4 years experience." in got and not any("is a 4 years" in t for t in got), got


def test_a_noun_denied_with_after_all_is_taken_back():
    def denied(text):
        return denied_before(default_parser().parse([normalise(text)])[0][0])

    assert denied("ok plot twist, turns out its not an allergy after all lol") == "allergy"
    assert denied("it's not a sprain after all") == "sprain"
    assert denied("it's not cheap after all") is None and denied("it's not an allergy") is None
