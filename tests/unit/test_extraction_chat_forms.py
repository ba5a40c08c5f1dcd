"""Forms of chat the parse alone misreads: a habit said without its "I", a clause taken back inside its sentence,
a contrastive cleft, "I'm afraid" said as "sadly", a place name the tagger reads as an adverb, and a new home or job
mentioned in passing. Each test runs the real bundled spaCy model through ``extract``."""

from __future__ import annotations

import pytest

from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction import extract
from kenning.types import Kind


def texts(text: str) -> list[str]:
    return [c.text for c in extract([Turn("user", text)]).claims]


def naming(text: str, want: str) -> list:
    """The claims of ``text`` whose wording holds ``want``."""
    return [c for c in extract([Turn("user", text)]).claims if want in c.text]


@pytest.mark.parametrize(
    "text, want",
    [
        ("also play 5-a-side every thursday night which is the only thing keeping me sane", "User plays 5-a-side every thursday night"),
        ("also water the plants every morning", "User waters the plants every morning"),
    ],
)
def test_a_bare_verb_with_a_repeating_time_is_a_habit_not_an_order(text, want):
    got = texts(text)
    assert any(t.startswith(want) for t in got), got
    assert not any(t.startswith("User asked") for t in got), got


def test_a_bare_verb_said_for_the_user_is_still_a_request():
    got = texts("remind me every monday to take the bins out")
    assert got and not any(t.startswith("User reminds") for t in got), got


@pytest.mark.parametrize(
    "text, kept, gone",
    [
        ("we're in derby, no wait, we're not any more, we moved to nottingham two months ago", "nottingham", "derby"),
        ("i work at tesco, no wait, i work at asda", "asda", "tesco"),
    ],
)
def test_a_clause_taken_back_with_no_wait_is_not_kept(text, kept, gone):
    got = texts(text)
    assert any(kept in t for t in got), got
    assert not any(gone in t for t in got), got
    assert not any(t.endswith("not any more.") for t in got), got  # a "be" denied of nothing says nothing


def test_scratch_that_in_the_next_sentence_is_left_to_reconciliation():
    got = texts("I'll be in Denver the week of the 9th for a conference. actually scratch that, they moved the conference online")
    assert not any(t.startswith("They moved") and "Denver" in t for t in got), got


@pytest.mark.parametrize(
    "text, want",
    [
        ("wait actually no, it's spurs i support not arsenal!!", "User supports spurs, not arsenal"),
        ("its the jazz i drive, not the civic", "User drives the jazz, not the civic."),
    ],
)
def test_a_contrastive_cleft_reads_in_plain_order(text, want):
    assert any(t.startswith(want) for t in texts(text)), texts(text)


def test_im_afraid_as_sadly_is_no_claim_but_afraid_of_something_is():
    assert not any("afraid" in t for t in texts("i've stepped back from the choir i'm afraid, my voice has never recovered"))
    assert "User is afraid of heights." in texts("i'm afraid of heights")


def test_a_lowercase_place_read_as_an_adverb_is_still_where_the_user_lives():
    assert any("aberystwyth" in t for t in texts("also we live out near aberystwyth so walks are epic"))


@pytest.mark.parametrize(
    "text, want",
    [
        ("ugh the new place in leeds has SUCH a tiny kitchen, i cant even fit the air fryer on the counter", "User lives in leeds."),
        ("loving our new house in bath", "User lives in bath."),
    ],
)
def test_a_new_home_mentioned_in_passing_says_where_the_user_lives(text, want):
    assert want in texts(text), texts(text)


def test_someone_elses_new_home_is_not_the_users():
    assert not any(t.startswith("User lives") for t in texts("my sister's new flat in rome is lovely"))


@pytest.mark.parametrize(
    "text, want",
    [
        ("and i HATE coriander, tastes like soap to me.", "and I hate coriander, tastes like soap to me."),
        ("first week DONE!! the new place has SUCH a tiny kitchen", "first week done!! the new place has such a tiny kitchen"),
        ("i work at the NHS in ICU", "I work at the NHS in ICU"),  # acronyms the dictionary lists as nouns only stay
        ("I use AWS and SQL at IKEA", "I use AWS and SQL at IKEA"),
    ],
)
def test_a_word_said_loudly_is_lowered_but_an_acronym_is_not(text, want):
    from kenning.lifecycle.extraction.normalise import normalise

    assert normalise(text) == want


@pytest.mark.parametrize(
    "text, want",
    [
        ("I'm going mon wed fri 7am before work.", "I'm going mon weds fri 7am before work."),
        ("tues and wed nights", "tues and weds nights"),
        ("off on wed", "off on weds"),
        ("wed love to come", "wed love to come"),  # "we'd", not a day
    ],
)
def test_wed_among_days_is_a_day_not_we_would(text, want):
    from kenning.lifecycle.extraction.normalise import normalise

    assert normalise(text) == want


@pytest.mark.parametrize(
    "text, want",
    [
        ("no more nights at least 🙌", "User has no more nights"),
        ("so no more nursery fees thank god.", "User has no more nursery fees"),
    ],
)
def test_no_more_without_a_verb_is_what_the_user_has_no_longer(text, want):
    assert any(t.startswith(want) for t in texts(text)), texts(text)
    assert not any("no more" in t for t in texts("there is no more milk in the fridge") if t.startswith("User has"))


@pytest.mark.parametrize("text", ["Eli can't have dairy", "Mila is seventeen"])
def test_a_named_persons_short_fact_is_kept(text):
    assert any(t.startswith(text.split()[0]) for t in texts(text)), texts(text)


@pytest.mark.parametrize("text", ["Hrefna is not happy", "Diego texted", "Ramiro's strict"])
def test_a_named_persons_mood_or_bare_act_is_not(text):
    assert texts(text) == []


@pytest.mark.parametrize(
    "text, want",
    [
        ("commute from ashford to maidstone every day", "User commutes from ashford to maidstone every day."),
        ("line cook at a bbq spot in midtown", "line cook at a bbq spot in midtown"),
    ],
)
def test_a_verbless_note_of_a_habit_or_a_job_is_the_users(text, want):
    assert any(want in t for t in texts(text)), texts(text)


@pytest.mark.parametrize("text", ["Yoga teacher!! You'll be perfect", "And charge nurse, you absolute legend"])
def test_the_other_speakers_job_echoed_back_is_not_the_users(text):
    assert not any("User is a" in t or "User works" in t for t in texts(text)), texts(text)


def test_a_condition_after_so_starts_a_clause_of_its_own():
    got = texts("all my money stuff is with monzo, business and personal, so if youre ever helping me chase invoices thats where payments should go")
    assert any(t.startswith("All the user's money stuff is with monzo") and "invoices" not in t for t in got), got


@pytest.mark.parametrize(
    "text, fact",
    [
        ("im vegetarian so no steak places please", "User is vegetarian."),
        ("i live in leeds so nothing down south pls", "User lives in leeds."),
    ],
)
def test_a_please_at_the_end_asks_in_the_last_clause_only(text, fact):
    got = texts(text)
    assert fact in got, got
    assert not any(t.startswith("User asked") and fact[5:15] in t for t in got), got


@pytest.mark.parametrize(
    "text, want",
    [
        ("back to oats every morning now, with honey and banana", "User is back to oats every morning now"),
        ("Back on nights from next week", "User is back on nights from next week"),
    ],
)
def test_back_with_where_the_speaker_is_reads_with_its_i(text, want):
    assert any(t.startswith(want) for t in texts(text))


@pytest.mark.parametrize(
    "text, wrong",
    [
        ("i gave up the fasting thing, was making me very cranky on the early shifts", "User was making"),
        ("i quit the gym, was costing me a fortune", "User was costing"),
        ("gave me a raise last week", "User gave"),
    ],
)
def test_a_verb_done_to_the_speaker_is_not_said_by_them(text, wrong):
    got = texts(text)
    assert not any(t.startswith(wrong) for t in got), got


def test_an_order_with_me_is_still_an_order():
    got = texts("also remind me I prefer WhatsApp over email")
    assert any(t.startswith("User asked") and "WhatsApp" in t for t in got), got


def test_a_noun_the_tagger_reads_as_a_verb_does_not_take_the_speakers_i():
    got = texts("gp ran bloods and i'm coeliac, gluten was the problem all along.")
    assert "User is coeliac." in got, got
    assert not any(t.startswith("User is gluten") for t in got), got


@pytest.mark.parametrize(
    "text, topic",
    [("so turns out it was never lactose!", "lactose"), ("it was never arthritis", "arthritis")],
)
def test_it_was_never_x_points_at_what_it_denies(text, topic):
    claims = extract([Turn("user", text)]).claims
    assert [c.metadata.get("pointer_topic") for c in claims] == [topic], [(c.text, c.metadata) for c in claims]


@pytest.mark.parametrize("text", ["it's not cheap", "turns out it's not a big deal", "it was never about the money"])
def test_a_denied_quality_or_vague_noun_points_at_nothing(text):
    assert not any(c.metadata.get("pointer") for c in extract([Turn("user", text)]).claims)


@pytest.mark.parametrize(
    "text, want",
    [
        ("and im vegetarian if that matters for anything you suggest", "User is vegetarian."),
        ("my number is 07700 900123 if you need it", "User's number is 07700 900123."),
        ("if anyone asks, I'm vegetarian", "User is vegetarian."),
    ],
)
def test_a_condition_on_the_telling_being_of_use_neither_hedges_nor_stays_in_the_claim(text, want):
    assert want in texts(text)


def test_a_condition_on_the_world_still_hedges():
    assert all(c.confidence < 0.9 for c in extract([Turn("user", "if it rains i stay home")]).claims)


def test_a_base_form_verb_after_and_shares_the_i_of_im():
    assert "User works in construction." in texts("i'm 41 and work in construction so the lads all do too")


def test_a_clause_of_the_speakers_after_a_colon_is_its_own_and_the_heading_is_dropped():
    got = texts("couple things for my profile i guess: im in austin, i teach high school chem")
    assert got == ["User is in austin.", "User teaches high school chem."], got


def test_a_heading_before_a_colon_about_someone_else_stays_with_what_follows():
    got = texts("and update on Arlo: veggie phase lasted exactly 3 weeks")
    assert any("veggie phase" in t for t in got), got


def test_an_aside_that_is_the_speakers_own_clause_is_kept():
    got = texts("i use it for navigation a lot for work (i'm a delivery driver)")
    assert "User is a delivery driver." in got, got
    assert "User loves tea." in texts("I love tea (lol)")


@pytest.mark.parametrize("text", ["I'm left-handed.", "i'm coeliac", "im allergic to cats"])
def test_a_lasting_quality_is_marked_so_the_chatter_model_leaves_it(text):
    (claim,) = extract([Turn("user", text)]).claims
    assert claim.metadata.get("quality") is True


@pytest.mark.parametrize("text", ["i'm so tired", "I'm stressed today", "i'm wanjiru", "im useless lol"])
def test_a_mood_or_a_name_is_no_quality(text):
    assert not any(c.metadata.get("quality") for c in extract([Turn("user", text)]).claims)


@pytest.mark.parametrize(
    "text, want",
    [
        ("if you ever book a hotel for me, ask for a high floor", "Standing instruction: whenever you book a hotel for the user, ask for a high floor."),
        ("im on an iphone 12 so if youre giving me instructions for anything keep it to the iphone.",
         "Standing instruction: whenever you're giving the user instructions for anything keep it to the iphone."),
    ],
)
def test_a_condition_on_the_listeners_doing_with_an_order_is_a_standing_rule(text, want):
    assert want in texts(text)


def test_the_subject_of_a_when_clause_is_not_the_subject_of_the_sentence():
    got = texts("love a bit of fell walking on a sunday when the weather plays ball")
    assert got and got[0].startswith("User loves a bit of fell walking"), got


@pytest.mark.parametrize(
    "text, want",
    [
        ("up at 4.30 every day so im usually in bed by 9", "User is up at 4.30 every day."),
        ("out of the office till monday", "User is out of the office till monday."),
    ],
)
def test_where_the_speaker_is_said_without_a_verb_reads_with_im(text, want):
    assert want in texts(text)


@pytest.mark.parametrize("text", ["off to bed", "up for it!"])
def test_a_going_or_an_idiom_is_no_where(text):
    assert not any(t.startswith("User is") for t in texts(text))


@pytest.mark.parametrize(
    "text, want",
    [
        ("do crossfit like 4 times a week", "User does crossfit like 4 times a week."),
        ("swim twice a week", "User swims twice a week."),
    ],
)
def test_a_counted_repeating_time_makes_a_bare_verb_a_habit(text, want):
    assert want in texts(text)


def test_a_lowercase_name_as_a_subject_is_someone_else():
    claims = extract([Turn("user", "layla does piano on thursdays")]).claims
    assert [(c.text, c.metadata.get("subject")) for c in claims] == [("Layla does piano on thursdays.", "other")]


def test_a_clause_without_its_i_after_a_colon_is_its_own():
    assert "User started eating fish again." in texts("update on the food front: started eating fish again, doctor said my b12 was shocking")


def test_if_thats_relevant_neither_hedges_nor_stays():
    assert "User works in marketing at a skincare brand in shoreditch." in texts(
        "i work in marketing at a skincare brand in shoreditch if that's relevant")


@pytest.mark.parametrize(
    "text, want",
    [("huge fan of jazz", "User is a huge fan of jazz."), ("not a coffee person at all", "User is not a coffee person at all.")],
)
def test_what_sort_of_person_said_without_a_verb_reads_with_im(text, want):
    assert want in texts(text)


@pytest.mark.parametrize("text", ["big fan", "what a lovely person"])
def test_praise_is_no_sort_of_person(text):
    assert texts(text) == []


@pytest.mark.parametrize(
    "text, want",
    [
        ("doin maths chem bio english n physics", "doing"),
        ("day job is pickin in a warehouse at hillington", "picking"),
    ],
)
def test_a_dropped_g_is_put_back_when_the_dropped_form_is_no_word(text, want):
    from kenning.lifecycle.extraction.normalise import normalise

    assert want in normalise(text)
    assert normalise("my cousin robin in berlin") == "my cousin robin in berlin"


def test_a_day_said_in_the_plural_makes_a_bare_verb_a_habit():
    assert "User goes to AA tuesday and thursday evenings in rathmines." in texts("go to AA tuesday and thursday evenings in rathmines")


def test_a_repeating_dont_is_a_never_rule():
    assert "Standing instruction: never book anything in person for the user on tuesdays or thursdays." in texts(
        "pls don't book anything in person for me on tuesdays or thursdays")


def test_a_state_measured_in_time_reads_with_im():
    assert any(t.startswith("User is 14 months sober") for t in texts("14 months sober today!!"))


def test_a_subject_said_later_is_not_put_before_an_earlier_clause():
    got = texts("all good now tho, seein a girl called tahlia, she's a vet nurse")
    assert "User is seeing a girl called tahlia." in got, got


def test_a_verb_joined_inside_a_complement_stays_with_it_and_its_hedge():
    got = [(c.text, c.confidence) for c in extract([Turn("user", "Thinking about selling the herd and going straight grain, prices for feed are killing us.")]).claims]
    assert all(conf < 0.9 for _, conf in got) and any("straight grain" in t for t, _ in got), got


def test_a_maybe_said_after_restores_its_i_and_still_hedges_what_came_before():
    got = extract([Turn("user", "My son keeps on at me to sell the house and move up to Knoxville near the grandkids. Might do it, might not.")]).claims
    assert got and all(c.metadata.get("hedge") for c in got if "Knoxville" in c.text), [(c.text, c.metadata) for c in got]


def test_a_second_subject_joined_by_the_parser_starts_its_own_clause():
    got = texts("we're in dennistoun now, top floor tenement, bramble is absolutely raging about the stairs lol.")
    assert "User is in dennistoun now, top floor tenement." in got, got


def test_a_complement_after_a_comma_does_not_hide_where_the_user_is():
    from kenning.lifecycle.extraction import attributes
    from kenning.lifecycle.extraction.parse import default_parser

    (sent,) = default_parser().parse(["User is in dennistoun now, top floor tenement."])[0]
    fact = attributes.read(sent)
    assert fact is not None and (fact.attribute.name, fact.value) == ("residence", "dennistoun")


def test_a_lead_clause_without_its_i_keeps_its_own_subject_before_a_later_one():
    got = texts("Got diagnosed with heart failure in June, mild they reckon, and the doc's got me on a low-salt diet.")
    assert any(t.startswith("User got diagnosed with heart failure in June") for t in got), got


def test_a_piece_opening_with_please_is_a_request_of_its_own():
    assert texts("im vegan, please no dairy") == ["User is vegan."]


@pytest.mark.parametrize(
    "text, want",
    [("already on cetirizine every day tbh", "User is on cetirizine every day."), ("on metformin now", "User is on metformin now.")],
)
def test_on_with_what_the_speaker_takes_reads_with_im(text, want):
    assert want in texts(text)


@pytest.mark.parametrize("text", ["on monday", "on my way", "on it!"])
def test_on_with_a_time_or_a_route_is_not_what_the_speaker_is_on(text):
    assert not any(t.startswith("User is on") for t in texts(text))


def test_the_subject_of_a_relative_clause_is_not_the_sentences():
    got = texts("kindly avoid American spellings in anything you draft for me.")
    assert got == ["User asked to avoid American spellings in anything you draft for the user."], got


def test_an_ly_adverb_before_a_dropped_subject_verb_keeps_the_i():
    got = texts("officially switched my major to nursing!!")
    assert any(t.startswith("User officially switched their major to nursing") for t in got), got


def test_a_bare_noun_subject_after_so_starts_a_clause_of_its_own():
    got = texts("i'm a midwife at king's so sundays are my only proper rest day")
    assert "User is a midwife at king's." in got, got
    assert any(t.startswith("Sundays are the user's only proper rest day") for t in got), got


@pytest.mark.parametrize(
    "text, want, not_want",
    [
        # a name given to someone just brought in is who "she" is from then on, and a job says who they are
        ("i'm seeing someone, her name's ines, we met at my cousin's wedding. she's a vet", "Ines is a vet.", "cousin's a vet"),
        ("i've been seeing someone new for a couple of months, aisha, she's a vet", "Aisha is a vet.", None),
    ],
)
def test_a_name_given_to_someone_new_is_who_the_pronoun_stands_for(text, want, not_want):
    got = texts(text)
    assert want in got, got
    assert not_want is None or not any(not_want in t for t in got), got


def test_a_pronoun_s_is_spelt_out_once_the_person_is_named():
    got = texts("my sister kate is a nurse. she's got two kids")
    assert "User's sister has got two kids." in got, got


def test_a_change_marked_claim_is_flagged_so_small_talk_scoring_leaves_it():
    claims = extract([Turn("user", "doing seoul instead, flying in may 12")]).claims
    assert any(c.metadata.get("change") for c in claims if "seoul" in c.text), [(c.text, c.metadata) for c in claims]
    assert not any(c.metadata.get("change") for c in extract([Turn("user", "slowly getting used to the new job")]).claims)


def test_it_after_a_row_changed_with_no_value_is_that_row():
    got = texts("ugh mrs kowalski raised the rent, it's $1,320 from april")
    assert "User's rent is $1,320 from april." in got, got


def test_a_rows_noun_owned_through_its_complement_is_the_users():
    got = texts("rent for my studio in pilsen is $1,150 a month")
    assert any(t.startswith("User's rent for the user's studio") for t in got), got


def test_a_bare_verb_with_a_past_time_is_no_order():
    claims = extract([Turn("user", "quit the bar last week!!!")]).claims
    assert [c.text for c in claims] == ["User quit the bar last week!!!"], [c.text for c in claims]
    assert not claims[0].metadata.get("request")


def test_an_unknown_verb_before_a_preposition_stays_a_verb():
    assert texts("i bartend at the rusty anchor in portland 4 nights a week") == [
        "User bartends at the rusty anchor in portland 4 nights a week."]


def test_a_lowercase_name_with_a_contracted_is_is_still_a_name():
    got = texts("karim's getting married in june in montreal")
    assert any(t.lower().startswith("karim") and "june" in t for t in got), got


def test_thank_god_is_relief_not_the_verb_of_the_clause():
    got = texts("standups are at 10 now thank god")
    assert any(t.startswith("Standups are at 10 now") for t in got), got


@pytest.mark.parametrize(
    "text, want",
    [
        ("my husband is english, his name is dave", "User's husband's name is dave."),
        ("my sister runs a bakery, her shop is on leith walk", "User's sister's shop is on leith walk."),
    ],
)
def test_his_or_her_at_the_start_of_a_clause_is_the_person_named_before(text, want):
    assert want in texts(text)


def test_her_is_not_given_to_a_name_whose_gender_is_not_said():
    got = texts("so diego and i broke up in december. anyway im seeing someone new, her name is valeria, she's a vet")
    assert "Valeria is a vet." in got, got
    assert not any("diego's name" in t.lower() for t in got), got


@pytest.mark.parametrize(
    "text",
    [
        "my husband thinks pineapple on pizza is a crime",
        "my uncle says river will win the league this year",
        "my gf reckons i'm going to waste away",
    ],
)
def test_someone_elses_opinion_passed_on_is_not_kept(text):
    assert texts(text) == []


@pytest.mark.parametrize(
    "text, want",
    [
        ("my GP says i'm pre-diabetic", "pre-diabetic"),  # a finding from someone whose word is news
        ("now he's saying his girlfriend Lerato is moving in with us next month", "Lerato"),  # news, not a view
        ("my wife Heather says I'd eat all the stock", "Heather"),  # who she is, said in passing
        ("Got diagnosed with heart failure in June, mild they reckon", "heart failure"),  # the reckoning is an aside
    ],
)
def test_news_and_findings_passed_on_are_kept(text, want):
    got = texts(text)
    assert any(want in t for t in got), got


@pytest.mark.parametrize(
    "text, kept",
    [
        ("what's the actual difference between baking soda and baking powder?", None),
        ("was the banshees of inisherin actually filmed on a real island or is that a lie?", None),
        ("what do runners usually eat before a race?", None),
        ("any celiac-safe food tips for korea?", "celiac"),  # no question word: what it asks for says who asks
        ("what's a good gift for my mum's 60th?", "mum"),  # the user's own life
    ],
)
def test_a_question_about_the_world_is_not_a_memory(text, kept):
    got = texts(text)
    assert (got == []) if kept is None else any(kept in t for t in got), got


@pytest.mark.parametrize("text, want", [("missus is shaz", "User's missus is shaz."),
                                        ("hubby works nights at the depot", "User's hubby works nights at the depot.")])
def test_a_relation_with_its_my_left_out_is_the_users(text, want):
    assert want in texts(text)


def test_a_professionals_word_about_the_user_is_never_small_talk():
    claims = extract([Turn("user", "doc reckons my blood pressure's up")]).claims
    assert any(c.metadata.get("finding") for c in claims), [(c.text, c.metadata) for c in claims]


def test_news_said_on_the_way_to_a_request_is_kept_too():
    got = texts("can you help me figure out what to do with the money im saving since i quit the cigarettes 7 weeks ago?")
    assert any(t.startswith("User asked") for t in got), got
    assert any(t.startswith("User quit") for t in got), got


@pytest.mark.parametrize(
    "text, want",
    [
        ("hiii so dmitri and i called it quits", "hi so Dmitri and I called it quits"),  # one sentence to the tagger
        ("sooo goooood, yesss!!", "so good, yes!!"),
        ("loooove it", "love it"),
        ("hmmm, xxx", "hmmm, xxx"),  # chat's own fillers stay as typed
        ("my site is www.kenning.io, email aaa.bbb@x.com", "my site is www.kenning.io, email aaa.bbb@x.com"),  # addresses untouched
        ("zzz so tired", "zzz so tired"),  # never cut to one letter
    ],
)
def test_a_stretched_word_is_read_as_the_word_it_stands_for(text, want):
    from kenning.lifecycle.extraction.normalise import normalise

    assert normalise(text) == want


@pytest.mark.parametrize("text, want", [("no egg mayo sandwiches from the canteen", "No egg mayo sandwiches from the canteen."),
                                        ("no, I moved to leeds in may", "User moved to leeds in may."),
                                        ("no i work at tesco now", "User works at tesco now.")])
def test_no_is_an_answer_only_before_a_stop_or_a_new_clause(text, want):
    assert want in texts(text), texts(text)


@pytest.mark.parametrize("text, topic", [
    ("can you forget what I told you about the court and the speeding, I'd rather that wasn't kept", "the court and the speeding"),
    ("ignore what I said about the job, I was joking", "the job"),
])
def test_a_retraction_about_two_things_points_at_both(text, topic):
    claims = [c for c in extract([Turn("user", text)]).claims if c.metadata.get("pointer")]
    assert [c.metadata.get("pointer_topic") for c in claims] == [topic], [(c.text, c.metadata) for c in claims]


@pytest.mark.parametrize("text, want", [("day job is sound engineering at a studio in andheri", "User's day job is sound engineering at a studio in andheri."),
                                        ("morning commute is brutal", "User's morning commute is brutal.")])
def test_a_thing_of_the_users_named_with_a_modifier_and_no_my_is_still_theirs(text, want):
    assert want in texts(text), texts(text)
    assert not any("User's weather" in t for t in texts("weather is awful"))


@pytest.mark.parametrize("text, want", [("so ill be doing nights on my own", "so I'll be doing nights on my own"),
                                        ("ill have to ask", "I'll have to ask"), ("I was ill for a week", "I was ill for a week"),
                                        ("ill health runs in the family", "ill health runs in the family")])
def test_ill_before_a_verb_is_ill_spelt_as_chat_spells_it(text, want):
    from kenning.lifecycle.extraction.normalise import normalise

    assert normalise(text) == want


def test_a_name_after_my_kin_word_starts_the_clause_with_the_kin_word():
    got = texts("we switched her to formula bc breastfeeding just wasnt working for us, and my husband Dev goes back to work monday")
    assert "User's husband Dev goes back to work monday." in got and not any(t.endswith("husband.") for t in got), got


@pytest.mark.parametrize("text, want", [("main game is valorant", "User's main game is valorant."), ("fave food is sushi", "User's fave food is sushi.")])
def test_a_bare_noun_of_ones_own_choice_is_the_users(text, want):
    assert want in texts(text)


def test_things_searched_for_near_a_place_are_asked_for_not_small_talk():
    assert "User asked: any good pubs near the station." in texts("any good pubs near the station?")
    assert not any("plans" in t for t in texts("any plans in London this weekend?"))


@pytest.mark.parametrize("text, want", [("Go easy on the sugar in the tomato base.", "User asked to go easy on the sugar in the tomato base."),
                                        ("Watch the sugar in any recipes you give me.", "User asked to watch the sugar in any recipes you give the user.")])
def test_an_order_with_any_verb_is_worded_as_asked(text, want):
    assert want in texts(text)


@pytest.mark.parametrize("text, kept", [("my arthritis is worse this winter", "User's arthritis is worse this winter."),
                                         ("my eczema is much better since the new cream", "User's eczema is much better since the new cream.")])
def test_a_thing_of_the_users_said_to_be_worse_or_better_is_no_mood(text, kept):
    assert kept in texts(text)


@pytest.mark.parametrize("text", ["my legs are killing me", "im better now", "feeling worse today"])
def test_how_the_speaker_feels_is_still_a_mood(text):
    assert texts(text) == []


def test_a_comment_word_with_a_reason_keeps_the_reason_alone():
    assert texts("ironic cos i teach year 4 lol, you'd think id know")[:1] == ["User teaches year 4."]


def test_its_after_a_verb_of_saying_opens_what_is_said():
    from kenning.lifecycle.extraction.normalise import normalise

    assert normalise("my mate reckons its sydney") == "my mate reckons it's sydney"
    assert normalise("the dog wagged its tail") == "the dog wagged its tail"
    assert texts("whats the capital of australia, my mate reckons its sydney") == []


@pytest.mark.parametrize(
    "text, read",
    [
        ("Amara's the goalie for the under 11s", "Amara is the goalie for the under 11s"),
        ("Bike's a second hand Trek", "Bike's a second hand Trek"),  # a noun's, the "is" left to the reader
        ("I went to Tom's the other day", "I went to Tom's the other day"),  # a place
    ],
)
def test_a_names_s_before_an_article_is_is(text, read):
    from kenning.lifecycle.extraction.normalise import normalise

    assert normalise(text) == read


def test_a_word_ending_like_a_job_in_a_note_is_no_job():
    got = texts("31, single for 2 years now, quantity surveyor, into five a side")
    assert "User is single for 2 years now." in got and "User is a quantity surveyor." in got, got


@pytest.mark.parametrize("text", ["whats the simplest exercise routine i can actually stick to", "do i type that into the app or the website?"])
def test_a_question_without_its_mark_or_with_do_first_is_asked_not_claimed_or_ordered(text):
    got = extract([Turn("user", text)]).claims
    assert [c.text.split(":")[0] for c in got] == ["User asked"] and all(c.kind is Kind.EPISODE for c in got), [c.text for c in got]


@pytest.mark.parametrize(
    "text, want",
    [
        ("being a junior UX designer is way harder than the bootcamp made it look", "User is a junior UX designer."),
        ("honestly being an English teacher is so glamorous lol", "User is an English teacher."),
        ("work's fine. being a data scientist in the NHS is chaos but it's meaningful chaos", "User is a data scientist in the NHS."),
    ],
)
def test_a_gerund_subject_saying_what_the_speaker_is_is_a_fact_without_its_judgement(text, want):
    got = texts(text)
    assert want in got, got
    assert not any(" is chaos" in t or "glamorous" in t or "harder" in t for t in got), got


@pytest.mark.parametrize(
    "text",
    ["I'm so excited to check it out!", "I can't wait to try them out!", "I'm going to give it a go."],
)
def test_a_clause_that_only_points_back_names_nothing_to_keep(text):
    assert texts(text) == []


@pytest.mark.parametrize(
    "text, kept",
    [("I made it for my mum's 60th", "60th"), ("we've moved it to the 20th of September instead", "September"), ("I got it in Paris", "Paris")],
)
def test_a_pointing_clause_that_names_something_is_kept(text, kept):
    assert any(kept in t for t in texts(text)), texts(text)


@pytest.mark.parametrize("text", ["hey bro how's the knee?? surgery go ok?", "knee go pop again?"])
def test_a_question_asking_after_the_other_speakers_thing_with_did_your_left_out_is_no_claim(text):
    assert not any("surgery" in t or "knee go" in t for t in texts(text)), texts(text)


@pytest.mark.parametrize(
    "text, want",
    [
        ("my wife just opened her own hair salon downtown!!!", "hair salon"),
        ("my girlfriend has started her masters in landscape architecture", "landscape architecture"),
        ("we set up a little charity last year", "charity"),
    ],
)
def test_what_a_past_verb_began_is_a_lasting_fact_not_an_event(text, want):
    got = naming(text, want)
    assert got and got[0].kind is Kind.FACT, [(c.text, c.kind) for c in extract([Turn("user", text)]).claims]


@pytest.mark.parametrize(
    "text, want",
    [
        ("we adopted two ex-racing greyhounds in october", "greyhounds"),
        ("finally finished my masters in ocean science at Bangor", "masters"),
        ("got my citizenship at a ceremony in the town hall", "citizenship"),
        ("i passed my driving test!!", "driving test"),
        ("had a stroke two years ago", "stroke"),
        ("had my appendix out in june", "appendix"),
    ],
)
def test_what_an_event_leaves_behind_for_good_is_a_lasting_fact(text, want):
    got = naming(text, want)
    assert got and got[0].kind is Kind.FACT, [(c.text, c.kind) for c in extract([Turn("user", text)]).claims]


@pytest.mark.parametrize("text", ["I ran my first 10k", "we had a picnic in the park", "I had a lovely time", "I got a parking ticket"])
def test_an_event_stays_an_event(text):
    got = extract([Turn("user", text)]).claims
    assert got and got[0].kind is Kind.EPISODE, [(c.text, c.kind) for c in got]


def test_someone_elses_birth_is_never_read_as_the_users_birthday():
    got = extract([Turn("user", "Wren was born on 3 november")]).claims
    assert not any(c.slot and c.slot.key == "birthday" for c in got), [(c.text, c.slot) for c in got]


def test_chat_that_drops_im_before_an_ing_verb_still_gets_it():
    assert any(t.startswith("User is heading") for t in texts("heading to the gym now")), texts("heading to the gym now")


@pytest.mark.parametrize("text", ["they always remind me of that day", "my mum always tells me to never give up"])
def test_always_said_of_someone_else_is_no_standing_instruction(text):
    assert not any(t.startswith("Standing instruction") for t in texts(text)), texts(text)


def test_an_order_with_always_is_still_a_standing_instruction():
    assert any(t.startswith("Standing instruction") for t in texts("always reply in french")), texts("always reply in french")


@pytest.mark.parametrize("text", ["I joined a ukulele group on thursday nights", "and I joined a roller derby team", "I joined a big band!!"])
def test_joining_a_group_is_a_membership_not_a_job(text):
    claims = extract([Turn("user", text)]).claims
    assert claims and not any("works at" in c.text or (c.slot and c.slot.key.startswith("employer")) for c in claims), [c.text for c in claims]


def test_joining_a_firm_is_still_a_job():
    claims = extract([Turn("user", "I joined a startup in March")]).claims
    assert any(c.slot and c.slot.key.startswith("employer") for c in claims), [c.text for c in claims]


def test_a_feeling_about_a_pronoun_alone_is_a_mood():
    assert texts("I'm really proud of myself this month") == []


@pytest.mark.parametrize("text, want", [("I'm proud of my daughter", "daughter"), ("I'm scared of spiders", "spiders")])
def test_a_feeling_about_something_named_is_kept(text, want):
    assert any(want in t for t in texts(text)), texts(text)


@pytest.mark.parametrize("text", ["Gloria is 15", "Barney is fourteen now", "Kirsty's just started her midwifery degree"])
def test_how_things_stand_for_someone_named_is_a_fact_not_a_passing_episode(text):
    """An episode decays away within weeks; "Gloria is 15" is true until it changes."""
    got = extract([Turn("user", text)]).claims
    assert got and got[0].kind is Kind.FACT, [(c.text, c.kind) for c in got]


def test_a_named_persons_news_that_reads_as_a_row_stays_an_episode():
    """ "Meera's back at work" reads in the older slot table as the end of a leave, with no subject: as a fact it
    could end the user's own leave in reconciliation, so it is not promoted."""
    got = extract([Turn("user", "Meera's back at work three days a week now")]).claims
    assert got and all(c.kind is Kind.EPISODE for c in got), [(c.text, c.kind, c.slot) for c in got]


@pytest.mark.parametrize(
    "text, want",
    [
        ("work at the dental practice has been mental, I'm doing back to back hygiene appointments", "User works at the dental practice."),
        ("my job at the bank is so boring", "User works at the bank."),
        ("shifts at the QE are brutal", "User works at the QE."),
    ],
)
def test_work_at_a_place_said_as_how_it_is_going_is_where_the_user_works(text, want):
    assert want in texts(text), texts(text)


@pytest.mark.parametrize("text", ["my job at the bank was so boring", "Tom's job at Arup is great", "the shifts at work are long"])
def test_a_past_job_someone_elses_or_work_at_work_is_no_employer(text):
    assert not any(t.startswith("User works at") for t in texts(text)), texts(text)


@pytest.mark.parametrize("text, role", [("I got promoted to head pastry chef!!", "head pastry chef"), ("I was promoted to lead developer", "lead developer")])
def test_a_promotion_to_a_job_the_parser_reads_as_to_and_a_verb_names_the_job(text, role):
    got = extract([Turn("user", text)]).claims
    assert any(c.slot and c.slot.key == "occupation" and c.slot.value == role for c in got) or any(
        c.kind is Kind.FACT and role in c.text for c in got), [(c.text, c.kind, c.slot) for c in got]


@pytest.mark.parametrize(
    "text, kept, figure",
    [
        ("my tortoise still tunnels under the fence like a teenager", "tunnels under the fence", "teenager"),
        ("i eat cereal at 4am like a raccoon", "cereal at 4am", "raccoon"),
    ],
)
def test_a_simile_is_left_out_of_what_was_done(text, kept, figure):
    got = texts(text)
    assert any(kept in t for t in got) and not any(figure in t for t in got), got


@pytest.mark.parametrize("text, want", [("went for like a week", "week"), ("i like a glass of red", "glass")])
def test_like_as_a_filler_or_a_verb_is_no_simile(text, want):
    assert any(want in t for t in texts(text)), texts(text)


@pytest.mark.parametrize("text", ["my flat is like a sauna", "it's like a bad dream", "he looks like a film star"])
def test_a_clause_that_only_says_what_something_is_like_is_no_claim(text):
    assert texts(text) == []


@pytest.mark.parametrize(
    "text, want",
    [("can you add that i'm a PADI divemaster", "User is a PADI divemaster"), ("please mention that I speak fluent Welsh", "User speaks fluent Welsh")],
)
def test_what_a_request_asks_to_have_said_about_the_user_is_a_claim(text, want):
    assert any(t.startswith(want) for t in texts(text)), texts(text)


@pytest.mark.parametrize(
    "text, want",
    [
        ("need a cheap-ish city break in late april, 3 or 4 days", "User asked for a cheap-ish city break in late april"),
        ("need help writing a window function", "User asked for help writing a window function"),
        ("book a table for 4 at 7", "User asked to book a table for 4 at 7"),
    ],
)
def test_a_need_said_without_its_i_is_worded_as_what_was_asked_for(text, want):
    assert any(t.startswith(want) for t in texts(text)), texts(text)


@pytest.mark.parametrize(
    "text, want",
    [("i get migraines if i skip breakfast", "migraines"), ("my left knee flares up if i run much over 20k", "knee")],
)
def test_what_always_happens_on_a_condition_is_a_fact_not_a_maybe(text, want):
    got = naming(text, want)
    assert got and got[0].kind is Kind.FACT and not got[0].metadata.get("hedge"), [(c.text, c.kind, c.metadata) for c in got]


@pytest.mark.parametrize("text", ["im moving to leeds if i get the job", "i might quit if they dont pay me more"])
def test_a_condition_on_what_may_happen_still_hedges(text):
    got = extract([Turn("user", text)]).claims
    assert all(c.kind is not Kind.FACT or c.metadata.get("hedge") for c in got), [(c.text, c.kind, c.metadata) for c in got]


@pytest.mark.parametrize("text", ["don't remember that I work at Aldi please", "forget that I'm vegan"])
def test_an_order_to_leave_something_out_keeps_nothing_of_it(text):
    assert not any(t.startswith("User works") or t.startswith("User is vegan") for t in texts(text)), texts(text)


def test_a_verb_in_s_with_its_subject_left_out_is_never_the_users():
    got = texts("our Isla's loving St Andrews, too much if you ask me, phones her old dad for money and nothing else")
    assert not any(t.startswith("User phones") for t in got), got


def test_an_order_the_parser_gave_a_subject_after_its_verb_is_still_a_standing_instruction():
    got = texts("Please always cc my PA Tom when you email my clients.")
    assert any(t.startswith("Standing instruction") for t in got), got
