"""What two friends say to each other and is not a claim about the speaker (``extraction.exchange``), with the
requests to an assistant and the plans that look like them kept. The real bundled parser throughout."""

from __future__ import annotations

import pytest

from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction import extract


def texts(text: str) -> list[str]:
    return [c.text for c in extract([Turn("user", text)]).claims]


@pytest.mark.parametrize("said", ["Keep up the brilliant effort!", "keep at it and keep smiling"])
def test_being_told_to_keep_at_it_is_no_request(said):
    assert texts(said) == []


def test_keeping_something_named_or_the_speaker_posted_is_still_a_rule():
    assert texts("Keep replies under fifty words.") == ["Standing instruction: always keep replies under fifty words."]


@pytest.mark.parametrize("said", ["Need any help packing the van?", "Want to come sailing on the lake?", "Care to send a few snaps?"])
def test_an_offer_or_invitation_with_you_left_out_is_no_claim(said):
    assert texts(said) == []


def test_a_need_of_the_speakers_own_is_kept():
    assert texts("I need a costume for the party.") == ["User needs a costume for the party."]
    assert texts("Need help with my tax return - any advice on deadlines?")


@pytest.mark.parametrize("said", ["What was the funniest bit?", "How did the recital turn out?", "Were there many people at the gig?"])
def test_a_question_about_what_happened_to_the_other_is_no_claim(said):
    assert texts(said) == []


def test_a_question_about_the_speakers_own_past_or_asked_now_is_kept():
    assert texts("What did I tell you about my knee last month?")
    assert texts("Got any advice for planting tulips?")
    assert any("priya" in t.lower() for t in texts("Priya got picked for the county chess squad??"))  # news with a question mark


def test_a_proposal_is_no_claim_unless_it_is_about_the_speakers_own():
    assert texts("Let's keep cheering each other on!") == []
    assert texts("Let's plan my week.")


@pytest.mark.parametrize("said", ["Sorry to hear about the flood.", "Congrats on wrapping up the season!", "Take care and speak soon!", "Appreciate the kind words."])
def test_a_friendly_formula_without_its_subject_is_no_claim(said):
    assert texts(said) == []


def test_taking_care_of_something_named_is_not_a_formula():
    assert texts("Take care of my cat while I'm in Oslo.")


@pytest.mark.parametrize("said", ["I won't quit, whatever happens.", "I'm going to keep fighting!", "I'm not giving up on my dreams."])
def test_a_resolve_with_nothing_it_is_about_is_no_claim(said):
    assert texts(said) == []


def test_a_resolve_that_names_what_is_kept_at_is_kept():
    assert texts("I'm going to keep going to the choir every week.")
    assert texts("I won't stop running marathons.")
    assert texts("I gave up smoking last year.")


def test_being_sure_how_the_others_thing_goes_is_no_claim_but_someone_named_is_kept():
    assert texts("I'm sure it'll all work out.") == []
    assert texts("I bet that was exhausting.") == []
    assert texts("I'm sure my brother will like the mug.")


def test_looking_forward_to_the_others_news_is_no_claim_but_seeing_ones_own_people_is_kept():
    assert texts("Can't wait to hear about it!") == []
    assert texts("I can't wait to see my cousins in June.")


def test_a_comment_verb_never_takes_the_speaker_as_its_subject():
    assert texts("Haha yes, sounds delicious!") == []
    assert texts("I made pancakes and sounds like you had fun too.") == ["User made pancakes."]


@pytest.mark.parametrize("said", ["I love how you frame your photos.", "I remember when you first took up the drums.", "I can see why you like that trail."])
def test_the_speakers_mind_on_what_the_other_does_is_no_claim(said):
    assert texts(said) == []


def test_liking_what_the_other_gave_or_wanting_to_be_answered_a_way_is_kept():
    assert texts("I still like the bread recipe you sent.")
    assert texts("I'd rather you replied in French from now on.")


def test_a_liking_of_a_thing_named_is_kept_whatever_the_other_does():
    assert any("window table" in t for t in texts("I'd like a window table whenever you book us somewhere"))
