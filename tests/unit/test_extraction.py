"""The parser-based offline extraction engine: seam, normalisation, clauses, claims, corrections, attributes.

Most tests use the real bundled spaCy model (loaded once per process); the seam test builds a parse by hand,
so the engine's logic runs without any model.
"""

from __future__ import annotations

import pytest

from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction import corrections, extract
from kenning.lifecycle.extraction.attributes import of_text
from kenning.lifecycle.extraction.reading import read
from kenning.lifecycle.extraction.normalise import normalise, sentences
from kenning.lifecycle.extraction.parse import Sentence, Token, default_parser
from kenning.types import Kind


def claims(text: str, role: str = "user") -> list:
    return list(extract([Turn(role, text)]).claims)


def texts(text: str) -> list[str]:
    return [c.text for c in claims(text)]


# -- the seam --------------------------------------------------------------------------


def test_a_hand_built_parse_is_read_without_a_model():
    toks = (
        Token(0, "I", "i", "PRON", "PRP", "nsubj", 2),
        Token(1, "might", "might", "AUX", "MD", "aux", 2),
        Token(2, "quit", "quit", "VERB", "VB", "ROOT", 2),
        Token(3, "my", "my", "PRON", "PRP$", "poss", 4),
        Token(4, "job", "job", "NOUN", "NN", "dobj", 2, space=""),
    )
    clause = read(Sentence(toks))
    assert clause.subject == "user" and clause.hedged and not clause.question and clause.root == "quit"


def test_parser_caches_and_returns_one_list_per_text():
    p = default_parser()
    a, b = p.parse(["I live in Leeds. I work at Tesco.", "hi"])
    assert len(a) == 2 and len(b) == 1
    assert p.parse(["I live in Leeds. I work at Tesco."])[0] is a


class CountingPipeline:
    """spaCy's pipeline, counting the texts each call is given."""

    def __init__(self, nlp):
        self.nlp, self.calls = nlp, []

    def pipe(self, texts, **kw):
        texts = list(texts)
        self.calls.append(len(texts))
        return self.nlp.pipe(texts, **kw)


BATCH = [
    "hiya, im Ade, 27, and i live in Lagos with my sister Kemi who's a dentist",
    "so i quit the bank last week and started at a fintech called Paystack, loving it",
    "can you suggest a cheap gym near Yaba? i go at 6am before work",
]


def test_prefetch_parses_a_batch_in_two_calls_and_extraction_then_reads_the_cache():
    from kenning.lifecycle.extraction import prefetch
    from kenning.lifecycle.extraction.parse import SpacyParser

    fresh = [extract([Turn("user", t)], parser=SpacyParser(default_parser().nlp)).claims for t in BATCH]
    counting = CountingPipeline(default_parser().nlp)
    parser = SpacyParser(counting)
    prefetch([[Turn("user", t)] for t in BATCH], parser=parser)
    ahead = len(counting.calls)
    got = [extract([Turn("user", t)], parser=parser).claims for t in BATCH]
    assert got == fresh  # the same claims, read from the cache
    assert counting.calls[:2] == [sum(len(sentences(normalise(t))) for t in BATCH), counting.calls[1]]
    assert sum(counting.calls[ahead:]) <= len(BATCH)  # afterwards at most a wording or two per turn is parsed


def test_a_clause_cut_from_a_turn_keeps_the_entity_types_the_turn_gave_its_words():
    from kenning.lifecycle.extraction.parse import InContext

    p = default_parser()
    turn = p.parse(["My neighbour Priya moved to Leeds in March."])[0]
    clause = InContext(p, turn).parse(["I moved to Leeds in March"])[0][0]
    assert {t.text: t.ent for t in clause.tokens} == {"I": "", "moved": "", "to": "", "Leeds": "GPE", "in": "", "March": "DATE"}


# -- normalisation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("im in leeds and i dont drive", "I'm in leeds and I don't drive"),
        ("u should see ur face", "you should see your face"),
        ("i jacked in the job", "I quit the job"),
        ("the teacher says im a natural (lies)", "the teacher says I'm a natural"),
        ("been here 2 years (from cork originally)", "been here 2 years, from cork originally,"),  # where from: kept
        ("my company (Thoughtworks) is moving me", "my company, Thoughtworks, is moving me"),  # a name: an apposition
        ("the leftovers are great (elite tbh)", "the leftovers are great"),
        ("ICU nurse, NHS", "ICU nurse, NHS"),
        ("allergic to kiwi AND avocado, NOT mango", "allergic to kiwi and avocado, not mango"),
        ("I work in IT in the US", "I work in IT in the US"),
        ("I AM NOT VEGAN", "I am not vegan"),  # three words or more in capitals: shouting, lowered ("I" stays)
        ("WE GOT THE KEYS. the flat is ours", "we got the keys. the flat is ours"),
        ("allergic to kiwi AND avocado, NOT mango, ICU", "allergic to kiwi and avocado, not mango, ICU"),  # one word: emphasis or acronym
    ],
)
def test_normalise(raw, expected):
    assert normalise(raw) == expected


def test_sentences_cut_lowercase_chat_but_not_after_titles():
    assert sentences("signed up!! first ever half. i run 3x a week") == ["signed up!!", "first ever half.", "i run 3x a week"]
    assert sentences("My doctor is Dr. Ramirez at the clinic.") == ["My doctor is Dr. Ramirez at the clinic."]


# -- splitting and who a claim is about ----------------------------------------------------


def test_compound_turn_is_one_claim_per_clause():
    got = texts("i'm 34, work nights as an ICU nurse, have a greyhound called Biscotti and im trying to cut out caffeine")
    assert len(got) == 4
    assert any("34" in t and "nurse" not in t for t in got)
    assert any("nurse" in t and "Biscotti" not in t for t in got)
    assert any("Biscotti" in t and "caffeine" not in t for t in got)


def test_people_joined_in_a_subject_stay_one_clause_about_the_user():
    got = claims("the little terrace in walthamstow is officially ours, me and kofi moved in saturday")
    assert [c.text for c in got] == ["The little terrace in walthamstow is officially theirs.", "User lives in walthamstow.", "The user and Kofi moved in saturday."]
    assert all(c.metadata["subject"] == "user" for c in got)
    (both,) = claims("Margaret and I have made it a regular thing, coffee every Thursday at the garden centre")
    assert both.text.startswith("Margaret and the user have made it")  # the user among the subject: their claim, plural
    assert both.metadata["subject"] == "user" and both.kind is Kind.FACT  # "every Thursday": a habit, not an event


def test_what_someone_did_to_the_users_thing_sets_it_whoever_they_are():
    got = texts("saw the gp yesterday and shes upped my sertraline to 100mg, still in the mornings")
    assert "User's sertraline got upped to 100mg, still in the mornings." in got
    assert texts("they moved my appointment to friday") == ["User's appointment got moved to friday."]
    assert texts("she took my car to the garage") == []  # nobody knowable, and no value the car now has


def test_it_after_a_new_or_a_dropped_thing_is_that_thing():
    assert "User's new number is 07700 900876 now, the old one's dead." in texts("new phone new number!! its 07700 900876 now, the old one's dead")
    got = texts("weve ditched the tesco delivery, the subs were a joke. now its a riverford veg box on thursdays")
    assert "User has ditched the tesco delivery." in got
    assert "Now the user's delivery is a riverford veg box on thursdays." in got
    assert texts("new landlord's some company, keystone lettings") == ["User's new landlord is some company, keystone lettings."]


def test_it_after_ending_a_thing_is_that_thing_but_an_order_to_drop_it_is_not():
    got = texts("not doing yoga anymore, swapped it for bouldering")
    assert got == ["User is not doing yoga anymore.", "User swapped yoga for bouldering."]
    assert "User cancelled flyefit." in texts("not at flyefit anymore, cancelled it")
    assert not any("foot from" in t for t in texts("ive pulled out, stress fracture in my foot. just drop it from your notes"))


def test_a_thing_of_the_users_said_without_my_is_theirs_and_a_comment_on_the_weather_is_nothing():
    assert texts("day job is data analyst at an insurance firm") == ["User's day job is data analyst at an insurance firm."]
    assert texts("weather is lovely today") == []


def test_a_death_said_of_a_lowercase_word_is_about_a_being_and_adopting_a_retired_dog_retires_nobody():
    assert texts("sad news first, waffles passed away in february") == ["Waffles passed away in february."]
    assert texts("things died down after that") == []  # "died down": no death
    (dog,) = claims("we've just adopted a retired greyhound called pip")
    assert dog.slot is None or dog.slot.key != "occupation"  # the greyhound retired, not the user


def test_a_name_with_here_introduces_the_speaker():
    assert texts("hiya pet, chloe here, im a receptionist")[:1] == ["User's name is Chloe."]
    assert texts("same here, its raining") == [] and texts("everyone here is lovely") == []
    assert texts("hey, rafael here. i teach high school chem") == ["User's name is Rafael.", "User teaches high school chem."]


def test_a_please_closing_a_short_clause_is_read_first_and_a_request_to_change_answers_is_a_rule():
    assert texts("from now answer me in korean please. english study is finish for this semester") == [
        "Standing instruction: from now on answer the user in korean."]
    assert "Standing instruction: go back to short paragraphs." in texts("hmm the bullets are getting choppy, can you go back to short paragraphs?")
    assert "Standing instruction: go back to english for replies." in texts("ok honestly can we go back to english for replies?")
    assert texts("can we go back to the beach next year?") == ["User asked: can the user go back to the beach next year."]


def test_got_with_a_name_or_a_count_is_having_and_with_a_time_an_event():
    assert texts("got a little girl called poppy, shes 4")[0] == "User has got a little girl called poppy."
    assert texts("got 3 kids and a dog") == ["User has got 3 kids and a dog."]
    (puppy,) = claims("got a puppy last week called rex")
    assert puppy.kind is Kind.EPISODE


@pytest.mark.parametrize(
    "said, claim",
    [("40 days no cigarettes!!!", "User quit smoking 40 days ago!!!"), ("3 weeks off the fags now", "User quit smoking 3 weeks ago now."),
     ("im off the fags", "User has quit smoking.")],
)
def test_smoking_given_up_as_chat_says_it_is_quitting(said, claim):
    assert texts(said) == [claim]


def test_gone_with_a_state_is_what_the_speaker_became_not_a_mood():
    (vegan,) = claims("ok so veganuary kind of stuck?? ive gone fully vegan, no fish, no dairy")
    assert "vegan" in vegan.text and vegan.kind is Kind.FACT
    assert claims("honestly im gone, night all") == [] and claims("ive gone quiet") == []


def test_complements_listed_after_i_am_are_one_claim_each_and_objects_are_not():
    got = texts("so im Tavi, 52, a ferry engineer at a boatyard in Hobart")
    assert any(t.endswith("Tavi.") for t in got)
    assert any("52" in t and "engineer" not in t for t in got)
    assert any("engineer" in t and "52" not in t and "Tavi" not in t for t in got)
    assert len(texts("I love trains, buses and boats")) == 3  # objects: each a preference, none a "User is buses"
    assert not any(t.startswith("User is") for t in texts("I love trains, buses and boats"))


def test_a_verb_the_tagger_reads_as_a_noun_after_i_am_is_still_a_clause():
    got = texts("I'm 52, divorced, work in insurance and I've just taken up golf")
    assert "User works in insurance." in got and not any("is work" in t for t in got)


def test_chat_fillers_at_the_edges_are_not_part_of_a_claim():
    assert texts("nah I'm not a fan of horror films") == ["User is not a fan of horror films."]


def test_have_got_is_having_not_a_past_event():
    assert [(c.kind, c.text) for c in claims("I've got a tortoise called Dennis")] == [(Kind.FACT, "User has got a tortoise called Dennis.")]


def test_a_fronted_time_is_not_a_subordinate_clause():
    got = texts("since last spring I'm in Perth for work - I'm a welder at Austal")
    assert len(got) == 2 and "Perth" in got[0] and "welder" not in got[0]


@pytest.mark.parametrize(
    "text",
    ["I'm allergic to nuts and shellfish", "I'm left-handed", "whenever you book a hotel for me, ask for a high floor"],
)
def test_noun_lists_hyphens_and_subordinate_clauses_are_not_cut(text):
    got = texts(text)
    assert not any(t.strip(" .").endswith(("and", ",")) for t in got)
    if "hotel" in text:
        assert len(got) == 1 and "high floor" in got[0]


def test_a_reaction_framing_a_clause_is_not_a_claim_but_a_plain_inability_is():
    assert texts("I can't remember faces") == ["User can't remember faces."]


def test_an_apology_is_not_a_claim_but_a_fact_said_sorry_is():
    assert texts("sorry, I'm vegetarian") == ["User is vegetarian."]


def test_a_judgement_with_a_figure_in_it_is_still_a_fact():
    assert texts("the rent is £900 a month") == ["User's rent is £900 a month."]


def test_an_allergen_list_is_split_even_with_a_comment_after_it():
    assert texts("heads up im allergic to kiwi AND avocado, which rules out most green smoothies") == [
        "User is allergic to kiwi.", "User is allergic to avocado."]


def test_third_party_facts_are_about_them():
    got = claims("my sister lives in Rome and she loves it there")
    assert [c.text for c in got][0] == "User's sister lives in Rome."
    assert got[0].metadata["subject"] == "other"


def test_he_and_she_stand_for_the_last_person_named_whose_gender_agrees():
    assert "User's grandma is 91." in texts("my grandma moved in with my uncle. she's 91")
    assert "User's brother is 30." in texts("my mum lives with my brother. he's 30")
    assert "User's mum is 60." in texts("my mum lives with my brother. she's 60")


def test_he_she_reads_as_the_person_named_before_and_is_dropped_when_nobody_was():
    assert "User's dad loves fishing." in texts("can you suggest gift ideas for my dad? he loves fishing")
    assert texts("she loves it honestly") == []


# -- what is not a claim ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "You both looked so great on your wedding day!",
        "Totally agree, Mel.",
        "lol I always mix those up",
        "yes please, something I can cook in 15 mins",
        "Lisbon in October is perfect",
        "sorry for the radio silence",
        "cant believe i was paying BT 60 a month",
        "Sorry I went quiet",
        "a sunburn like that is a rite of passage honestly",
        "honestly I don't trust them",
        "haha same",
        "Thank you again for the lovely card.",
        "omg im so so jealous",
        "that sounds amazing",
        "do you ever get tired of people asking you questions?",
        "Maybe later. not decided anything yet.",
        "happy new year!! my dear!",
        "the heat is killing me",  # a feeling; the speaker as the object attaches nothing to it
        "here's my week",  # points at what comes next
        "ok i have to go, dinner chaos",  # leaving the chat, nowhere named
        "cheers for listening to me moan",
        "thanks so much for helping me with the cover letter",  # "so much" is a degree, not a clause boundary
    ],
)
def test_chit_chat_praise_feelings_and_fragments_store_nothing(text):
    assert claims(text) == []


@pytest.mark.parametrize(
    "text, word",
    [
        ("might quit my job, will see how it goes", "job"),
        ("thinking about getting a dog tbh", "dog"),
        ("I would love to see Japan one day", "Japan"),
        ("hoping to start a pottery class soon", "pottery"),  # the lemmatiser reads "hoping" as "hop"
        ("leaning towards the Kia tbh", "Kia"),
        ("we're looking at either Crete or Rhodes for august", "Crete"),  # not chosen yet
        ("still haven't decided about the Open University course", "Open"),
    ],
)
def test_hedges_are_low_confidence_episodes_marked_hedge(text, word):
    got = [c for c in claims(text) if word in c.text]
    assert got and all(c.kind is Kind.EPISODE and c.confidence < 0.5 and c.metadata.get("hedge") for c in got)


@pytest.mark.parametrize(
    "text",
    [
        "If i were rich i'd buy a boat",
        "if i won the lottery id buy the field next door and never think about hay again",
        "and if i ever win the lottery im buying a second kiln",
        "If money were ever no object, a cottage in Sligo would be rather lovely",
    ],
)
def test_a_daydream_on_an_unlikely_condition_stores_nothing_not_even_a_plan(text):
    assert claims(text) == []


def test_a_bare_maybe_after_a_sentence_makes_that_sentence_a_hedge():
    got = claims("My son wants me to move up to Knoxville near the grandkids. Might do it, might not, I go back and forth.")
    knox = [c for c in got if "Knoxville" in c.text]
    assert knox and all(c.confidence < 0.5 and c.metadata.get("hedge") for c in knox), got
    got = claims("i bought a new kettle. we'll see")  # no maybe said: what happened stands
    assert [c.confidence for c in got if "kettle" in c.text] == [0.9], got


def test_a_condition_on_someone_else_needing_it_leaves_the_fact_standing():
    assert [(c.kind, c.confidence) for c in claims("if the school ever needs to reach me, my mobile is 07700 900461")] == [(Kind.FACT, 0.9)]
    assert [c.kind for c in claims("if anyone asks, i'm vegetarian")] == [Kind.FACT]
    got = claims("if it rains on saturday i'll probably take the bus")  # a real condition of the speaker's own: a maybe
    assert got and all(c.confidence < 0.5 for c in got)


def test_a_relative_named_by_a_bare_noun_is_the_users_relative():
    assert texts("hubby works nights at the depot") == ["User's hubby works nights at the depot."]
    assert texts("nan is 94 and still drives") == ["User's nan is 94.", "User's nan still drives."]
    assert claims("cheers mate") == []  # no clause about anyone


def test_either_or_in_a_habit_is_no_hedge():
    assert [c.kind for c in claims("I either walk or cycle to work")] == [Kind.FACT]


def test_requests_are_episodes_and_rules_about_answers_are_procedures():
    (req,) = claims("can you find me a quiet hotel near the Prado?")
    assert req.kind is Kind.EPISODE and "Prado" in req.text
    rules = claims("keep answers short, i read them on my phone between patients")
    assert rules[0].kind is Kind.PROCEDURE and "short" in rules[0].text
    (remind,) = claims("can you remind me every february to renew my parking permit?")
    assert remind.kind is Kind.PROCEDURE
    # asked once ("can you …"), even about a summary or a call, is a request; "your answers" are the user's to rule on
    assert [c.kind for c in claims("can you call me a cab to the station?")] == [Kind.EPISODE]
    assert [c.kind for c in claims("could you help me tighten my CV summary?")] == [Kind.EPISODE]
    assert texts("please write your replies in Spanish") == ["Standing instruction: always write your replies in Spanish."]
    assert [c.kind for c in claims("keep your answers short")] == [Kind.PROCEDURE]
    # "how do I …" without its question mark is still a question, never a fact about the user
    assert [c.kind for c in claims("how do I get candle wax out of a rug")] == [Kind.EPISODE]


def test_a_prohibition_without_a_time_is_a_standing_rule_and_with_one_a_request():
    got = claims("i'm dyslexic so don't send me walls of text")
    assert [c.kind for c in got] == [Kind.FACT, Kind.PROCEDURE]
    assert got[1].text == "Standing instruction: never send the user walls of text."
    timed = claims("don't ring me before 8am")
    assert [(c.kind, c.text) for c in timed] == [(Kind.EPISODE, "User asked not to ring the user before 8am.")]
    assert not any(c.kind is Kind.PROCEDURE for c in claims("Don't tell Mrs. Okafor."))


def test_chat_that_drops_the_subject_is_read_as_the_user():
    (moved,) = claims("finally did it, moved to Bristol last month")
    assert moved.kind is Kind.FACT and "Bristol" in moved.text and moved.text.startswith("User")


def test_a_question_with_an_emphatic_phrase_and_no_mark_is_asked():
    (got,) = claims("how on earth do i get wax out of a carpet")
    assert got.kind is Kind.EPISODE and got.text.startswith("User asked")


@pytest.mark.parametrize("text", ["talk soon xo", "speak later!", "ok talk soon then"])
def test_a_sign_off_is_no_rule_for_answers(text):
    assert texts(text) == []


def test_a_state_left_behind_without_its_subject_is_the_users():
    (band,) = texts("not playing in the band any more, too many late nights")
    assert band.startswith("User is not playing in the band any more")
    assert texts("not at the bakery anymore btw") == ["User is not at the bakery anymore."]
    assert not any("sure" in t for t in texts("not sure yet tbh"))  # a hedge, not a state that ended


def test_a_pointer_carries_its_topic_and_a_correction_inside_it():
    (p,) = claims("ok please forget what i said about me and Dan splitting up")
    assert p.metadata["pointer"] and "Dan" in p.metadata["pointer_topic"]
    (s,) = claims("Scrap what I said about the knee op.")  # British "scrap" takes back as "scratch" does
    assert s.metadata["pointer"] and "knee" in s.metadata["pointer_topic"]
    (w,) = claims("i was wrong about my PB, it's 3:48 not 3:42")
    assert w.metadata["pointer"] and "3:48 not 3:42" in w.text


# -- corrections inside a turn ----------------------------------------------------------------


@pytest.mark.parametrize(
    "pieces, expected",
    [
        (["I go every thursday evening, wait no, tuesdays"], ["I go every tuesdays evening"]),
        (["I fly to Tokyo on the 14th", "wait no sorry, the 15th"], ["I fly to Tokyo on the 15th"]),
        (["we have two cats, sorry three"], ["we have three cats"]),
        (["the budget is £12,000, I mean £9,500"], ["the budget is £9,500"]),
        (["I'm in Leeds, sorry"], ["I'm in Leeds, sorry"]),  # no value: nothing to correct
        (["I start at 9am, wait no, on Mondays"], ["I start at 9am, wait no, on Mondays"]),  # another shape: untouched
        (["I work for a studio in Derby - sorry", "they're in Nottingham"], ["I work for a studio in Nottingham"]),
        (["my choir meets in the church hall, sorry, in the Old Library now"], ["my choir meets in the Old Library now"]),
        (["I bank with Barclays - wait no, with Monzo"], ["I bank with Monzo"]),
        (["my sister lives in Bath, no wait, Bristol"], ["my sister lives in Bristol"]),
        (["I live in Leeds, scratch that, York"], ["I live in York"]),
        (["i shop at tesco - sorry, asda"], ["i shop at asda"]),
        (["I'm tired, sorry I need to go"], ["I'm tired, sorry I need to go"]),  # a clause after the marker, not a value
        (["I'm late, sorry", "I was stuck in traffic"], ["I'm late, sorry", "I was stuck in traffic"]),  # no preposition: two clauses
        (["I'm allergic to shellfish, sorry not shellfish, its sesame"], ["I'm allergic to sesame"]),  # the old value named
        (["I go to spin mondays and wednesdays, scratch that, just mondays"], ["I go to spin mondays"]),  # "just": the list
        (["I go every thursday, wait no, tuesdays"], ["I go every tuesdays"]),
    ],
)
def test_in_turn_corrections_replace_the_value_of_the_same_shape(pieces, expected):
    assert corrections.apply(pieces) == expected


# -- the attribute table ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, subject, attribute, value",
    [
        ("User moved to Exeter.", "user", "residence", "Exeter"),
        ("User is moving into their new flat in Exeter.", "user", "residence", "Exeter"),
        ("User is based in Leeds.", "user", "residence", "Leeds"),
        ("User's sister lives in Rome.", "sister", "residence", "Rome"),
        ("User works at Deloitte.", "user", "employer", "Deloitte"),
        ("User is retraining as a midwife.", "user", "occupation", "midwife"),
        ("User is a nurse.", "user", "occupation", "nurse"),
        ("User's phone number is 07700 900123.", "user", "phone", "07700 900123"),
        ("User supports Spurs.", "user", "team", "Spurs"),
        ("User is a Spurs fan.", "user", "team", "Spurs"),
        ("User's team is Spurs.", "user", "team", "Spurs"),
        ("User is a packers guy now.", "user", "team", "packers"),  # a team's name (a plural) before a person
        ("User is a Liverpool man.", "user", "team", "Liverpool"),
        ("User picked up a secondhand nissan leaf.", "user", "car", "secondhand nissan leaf"),  # a car by its make
        ("User bought a VW Passat.", "user", "car", "VW Passat"),
        ("User is staying in Pune.", "user", "residence", "Pune"),  # a stay nothing bounds is where the user lives
        ("User's manager keiko is moving to tokyo in march.", "keiko", "residence", "tokyo"),  # a person named in lowercase
        ("User got a pixel 8 in the sale.", "user", "handset", "pixel 8"),  # a phone by its make
        ("User's phone is a pixel 7.", "user", "handset", "pixel 7"),
        ("User is on an iphone 12.", "user", "handset", "iphone 12"),
        ("User's iphone 12 battery is dying by lunchtime.", "user", "handset", "iphone 12"),  # the user's own, said in passing
        ("User works in a bike shop.", "user", "employer", "bike shop"),
        ("User resigned from Barclays.", "user", "any", "Barclays"),
        ("User had to rehome Rolo.", "user", "any", "Rolo"),  # the verb after "have to" is what was done
        ("User is in the new flat in Kelowna now.", "user", "residence", "Kelowna"),  # "be in" a named place
        ("User has been in dundee 3 weeks now.", "user", "residence", "dundee"),  # a stay that lasts
        ("User is living in surulere with their wife.", "user", "residence", "surulere"),  # a lowercase name read as an adverb
    ],
)
def test_one_table_reads_the_attribute_whatever_the_wording(text, subject, attribute, value):
    fact = of_text(default_parser(), text)
    assert fact is not None and (fact.subject, fact.attribute.name, fact.value) == (subject, attribute, value)


@pytest.mark.parametrize(
    "text",
    ["User had pasta for lunch.", "User works in London.", "User works in marketing.", "User works in the office on Mondays.",
     "User is at the library on Fridays now, much quieter.", "User is in Paris this week.", "User is in London for work.",
     "User is a nice guy.", "User is a dog guy.", "User bought a mini fridge.", "User's samsung tv is broken.",
     "User's sister's phone is a pixel 7.", "User is staying at a hotel in Shinjuku.", "User is staying in Leeds tonight.",
     "User is staying in Rome for 10 days.", "User stayed at Monzo."],  # "quieter" looks like a job word but is an adjective
)
def test_a_claim_without_a_table_attribute_reads_as_none(text):
    assert of_text(default_parser(), text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("its 850 not 500", ("500", ["850"])),
        ("its mondays and thursdays i climb, not tuesdays", ("tuesdays", ["thursdays", "mondays"])),
        ("turns out it was a V5 i sent not a V4", ("V4", ["V5"])),
        ("and its Dewi not Dai, i always do that", ("Dai", ["Dewi"])),
        ("I'm not vegan", None),  # "not" after an auxiliary negates the verb
        ("I like cats not dogs", None),  # no value of a shape on either side
        ("Sam not Jo is coming", None),  # a capitalised first word is no name to contrast with
        ("earlier i said 3 lodgers at the house, its actually 4", ("3", ["4"])),  # what was said, then what is so
        ("i told you tuesday, its actually wednesday", ("tuesday", ["wednesday"])),
        ("she said it was nice, actually it's great", None),  # no value of a shape said before
    ],
)
def test_a_value_set_against_another_of_the_same_shape(text, expected):
    (sent,) = default_parser().parse([text])[0]
    assert corrections.contrast(sent) == expected


def test_a_bare_noun_set_equal_to_a_figure_is_the_users_own():
    assert texts("deadlift max is 140") == ["User's deadlift max is 140."]
    assert texts("handicap is 18") == ["User's handicap is 18."]
    assert texts("bin day is friday") == ["User's bin day is friday."]
    assert texts("rain is wahala today") == []  # no figure: a comment, not the user's thing


# -- what chat leaves out: introductions as lists, a bare quality -----------------------


def test_a_self_introduction_written_as_a_list_is_one_claim_per_piece():
    got = texts("nadia, 27, physio at a sports clinic in leith. mostly weekends")
    assert "User's name is nadia." in got and "User is 27." in got
    assert any("physio" in t and "27" not in t and "nadia" not in t for t in got), got
    got = texts("welder, 51, divorced, based out of hull")
    assert "User is a welder." in got and "User is 51." in got
    assert any("divorced" in t and "hull" not in t for t in got) and any("hull" in t and "welder" not in t for t in got), got


def test_only_the_introduction_shape_is_read_as_one():
    from kenning.lifecycle.extraction.notes import introduction

    assert introduction("me, 45, still single lol") == ["I'm 45.", "I'm still single lol."]  # "me" is no name
    assert introduction("we went to paris, rome, 12 days total") is None  # no age-like number
    assert introduction("tom is 34, works in retail") is None  # a verb: an ordinary sentence
    assert introduction("bread, milk, eggs") is None
    assert introduction("oh, 19 degrees today") is None  # the number is not a piece of its own


def test_a_bare_quality_with_what_it_is_about_is_the_speakers():
    assert any(t.startswith("User is allergic to latex") for t in texts("allergic to latex 🙃")), texts("allergic to latex 🙃")
    assert texts("proud of you!!") == [] and texts("sorry about that") == []


def test_a_clause_run_on_without_a_separator_is_a_piece_of_its_own():
    got = texts("im a plasterer mostly new builds on the side my van is a transit custom")
    assert any("plasterer" in t and "van" not in t for t in got), got
    assert any("van is a transit custom" in t and "plasterer" not in t for t in got), got
    # a verb's own complement clause is no run-on: "I think my van is dying" stays one claim
    assert len(texts("I think my van is dying")) == 1


def test_chat_spellings_of_he_is_and_she_is():
    assert normalise("hes a second year apprentice and shes 12") == "he's a second year apprentice and she's 12"


def test_asking_not_to_be_remembered_reads_as_a_retraction():
    assert normalise("never mind the puppy") == "forget the puppy"
    assert normalise("please don't remember that I work at Aldi") == "please forget that I work at Aldi"
    assert normalise("I don't remember the name") == "I forget the name"  # said of oneself it means the same
    assert normalise("I don't keep pets") == "I don't keep pets"  # nothing pointed at: left alone


def test_liking_the_other_speakers_thing_is_about_them_not_a_user_preference():
    assert texts("I love your turtles so much!") == []
    assert texts("I really like your recipe") == []
    assert any("remind" in t for t in texts("I'd love you to remind me on fridays"))  # "you" only frames the ask
    assert texts("I love your idea, but I prefer tea") == ["User prefers tea."]


def test_counted_things_beside_a_first_person_be_are_had():
    got = texts("so im 38, two kids, work part time at boots")
    assert "User is 38." in got and "User has two kids." in got, got
    assert any("boots" in t and "kids" not in t for t in got), got


# -- session 7: run-ons inside a clause, appositions, terse notes ----------------------


def test_a_clause_the_parser_hung_inside_another_is_cut_off_with_its_own_time_words():
    got = texts("i work with my nephew cian hes a second year apprentice")
    assert got and got[0] == "User works with their nephew cian.", got
    got = texts("I'm on humira every two weeks I do the injection sunday nights")
    assert "User is on humira." in got and any(t.startswith("Every two weeks the user does the injection") for t in got), got
    # a clause opened by "when" is no run-on, nor a reduced relative with its preposition left hanging
    assert any("when the user starts the message in Spanish" in t for t in texts("go back to english please, Spanish only when I start the message in Spanish"))
    assert texts("the house i live in is tiny") == ["The house the user lives in is tiny."]
    got = texts("my supervisor is doctor hughes who takes forever to reply to emails i live in a shared house in cathays")
    assert any(t.startswith("User lives in a shared house in cathays") for t in got), got


def test_a_subject_set_off_by_an_apposition_keeps_its_verb():
    got = texts("our Ffion's at vet school in Nottingham, and the wife, Carol, does all the books.")
    assert any("Ffion" in t and "Nottingham" in t and "Carol" not in t for t in got), got
    assert any(t.startswith("User's wife, Carol, does all the books") for t in got), got
    assert normalise("Tom's been ill, Anna's at work") == "Tom's been ill, Anna is at work"  # "'s been" is "has"


def test_more_that_the_speaker_is_or_has_beside_the_first():
    got = texts("I'm a lineman for Xcel out of Dumas TX, 29, single, got a blue heeler named Rowdy")
    assert "User is 29." in got and "User is single." in got, got
    assert any("Rowdy" in t and "29" not in t and t.startswith(("User got", "User has got")) for t in got), got
    assert "User is widowed." in texts("I am seventy-four and widowed.")
    got = texts("we've a lurcher called Bramble who's about 4, an ancient tabby named Mr Tumnus who's 17")
    assert any("Bramble" in t and "Tumnus" not in t for t in got) and any("Tumnus" in t and "Bramble" not in t for t in got), got


def test_terse_notes_about_the_speaker_are_said_in_full():
    got = texts("chef. nights. 2 kids. no pork. Leicester.")
    assert "User is a chef." in got and "User has 2 kids." in got and "User lives in Leicester." in got, got  # a bare place: the home
    got = texts("mechanic at a matatu garage in Kariobangi. 41. wife Akinyi, 3 boys.")
    assert "User is 41." in got and "User's wife is Akinyi." in got and "User has 3 boys." in got, got
    # a word merely shaped like a job, or a single note, is not enough
    assert not any(t.startswith("User is a") for t in texts("lekker. 25th october."))
    assert not any("dealer" in t for t in texts("rare books dealer, huh. never thought of that. anyway, late here, night"))


def test_a_person_is_no_employer_and_a_booking_moved_is_the_users():
    assert of_text(default_parser(), "User works with their nephew cian.") is None
    assert texts("the scope got pushed back to the 19th") == ["User's scope got pushed back to the 19th."]
    fact = of_text(default_parser(), "Dr okafor switched the user off humira onto stelara.")
    assert fact is not None and fact.attribute.name == "stopped" and fact.value == "humira"


def test_endings_and_changes_said_the_way_chat_says_them():
    fact = of_text(default_parser(), "User took a job with the co-op instead, Golden Spread.")
    assert fact is not None and fact.attribute.name == "employer", fact
    assert of_text(default_parser(), "User took a job with their uncle.") is None  # a person is no employer
    assert "User's car is gone." in texts("car's gone, flogged it on trade me")
    fact = of_text(default_parser(), "User's car is gone.")
    assert fact is not None and fact.attribute.name == "car" and fact.negated, fact  # whatever car it was
    assert texts("i'm gone") == []  # the speaker leaving is no ending of anything
    assert normalise("Elin's 5 now") == "Elin is 5 now" and normalise("Tom's 3 dogs") == "Tom's 3 dogs"
    assert "Elin is 5 now." in texts("Elin's 5 now, had a party with a lamb-shaped cake.")


def test_formal_requests_and_a_relatives_name_after_s():
    assert normalise("I should be grateful if you would always reply in short paragraphs") == "please always reply in short paragraphs"
    assert normalise("Partner's Priya. Dog's a kelpie called Tilly.") == "Partner is Priya. Dog is a kelpie called Tilly."
    assert normalise("my dad's Ford is old") == "my dad's Ford is old"  # a possessive before a noun phrase stays
    got = texts("Dear assistant. I am partially sighted, so I should be grateful if you would always reply without tables.")
    assert any(t.startswith("Standing instruction: always reply without tables") for t in got), got


def test_a_comment_on_someone_else_with_sound_or_look_is_no_claim():
    assert texts("Muskoka sounds dreamy.") == [] and texts("Jess looks lovely in that photo") == []
    assert texts("my sister Jess looks after my dog on weekends") != []  # "look after" is no comment


def test_a_second_complement_of_i_am_after_a_comma_is_another_thing_the_speaker_is():
    got = texts("ok so im 52, school bus driver in Amarillo, got three kids")
    assert "User is 52." in got and "User is a school bus driver in Amarillo." in got, got
    assert texts("I'm 41, a teacher") == ["User is 41.", "User is a teacher."]
    # a qualifier of the one before, or a complement of someone else's "be", is not
    assert not any(t.startswith("User is mostly") for t in texts("I'm a sound engineer at Harpa, mostly day shifts"))
    assert not any("worth it" in t for t in texts("my knee is in bits, I'm 52 not 22 but the view was unreal, totally worth it."))


def test_a_hyphenated_relative_is_named_whole_for_the_pronouns_after_it():
    got = texts("My mother-in-law lives with us in Mirpur and she has bad arthritis.")
    assert "User's mother-in-law has bad arthritis." in got, got


def test_a_claims_aside_is_read_as_its_own_statement():
    from kenning.lifecycle.extraction.attributes import readings
    assert readings("User lives in Cardiff (relocated from Bristol to Cardiff).") == [
        "User lives in Cardiff.", "User relocated from Bristol to Cardiff."]
    assert readings("User lives in Cardiff.") == ["User lives in Cardiff."]


# -- session 8: asides, list markers, one note holding an age and a job, homes rented or bought ----------


def test_a_list_marker_opening_a_line_is_dropped_and_one_note_with_an_age_and_a_job_is_enough():
    assert sentences("remember these:\n- 38, tax manager\n2) one cat") == ["remember these:", "38, tax manager", "one cat"]
    got = texts("ok remember these about me:\n- 38, tax manager at a family office in Raffles Place")
    assert "User is 38." in got and any("tax manager" in t and "38" not in t for t in got), got
    assert not any(t.startswith("User is") for t in texts("Tuesday, 9am"))  # no age, no job: not a note about the speaker


def test_a_home_rented_or_bought_somewhere_named_is_where_the_user_lives():
    for said in ("User is renting a unit in Scarborough now.", "User has got a place in Joondalup.", "User bought a flat in Leith."):
        fact = of_text(default_parser(), said)
        assert fact is not None and fact.attribute.name == "residence", said
    assert of_text(default_parser(), "User rented a car in Spain.") is None


def test_a_time_said_bare_before_a_verb_is_when_not_who():
    assert any(t.startswith("Weekends the user plays badminton") for t in texts("weekends play badminton at Bishan sports hall"))
    assert texts("weekends are busy") == []  # a comment on the time, not a habit


def test_children_named_with_their_ages_are_claims_about_them():
    got = texts("Aoife is 9, Rory's 6 and little Cian is 8 months.")
    assert "Aoife is 9." in got and "Rory is 6." in got, got  # "Aoife": a name the tagger took for a common noun
    assert normalise("Rory's 6 and Cian") == "Rory is 6 and Cian"


def test_the_wife_and_the_kids_are_the_speakers_own():
    assert texts("the wife works in a bank") == ["User's wife works in a bank."]
    assert not any("User's doctor" in t for t in texts("the doctor says it's fine"))  # anyone's doctor


def test_the_subject_of_a_clause_inside_a_piece_is_not_the_pieces_own():
    got = texts("my mom just got diagnosed with type 2 diabetes, she's 67 and lives in Garden Grove by herself since my dad passed.")
    assert any("Garden Grove" in t and ("mom" in t or "She" in t or "she" in t) for t in got), got
    assert not any(t.startswith("Lives in Garden Grove") for t in got), got


def test_a_pronoun_stands_for_the_relative_with_their_name():
    got = texts("my friend Marek also drives for the same company, he lives in Tilburg near me")
    assert "User's friend Marek lives in Tilburg near the user." in got, got
    got = texts("my sister Crystal loves bluegrass and my dad, he played fiddle for 40 years")
    assert not any("Crystal" in t and "fiddle" in t for t in got), got  # "he" is never the sister, named or not


def test_a_state_said_without_im_and_a_liking_said_as_an_obsession():
    assert texts("obsessed w matcha") == ["User is obsessed with matcha."]
    got = claims("addicted to iced coffee")
    assert [c.kind for c in got] == [Kind.PREFERENCE], got


def test_an_order_with_me_as_its_object_is_no_habit_and_go_on_is_no_request():
    got = claims("km obviously, always use km with me. 3 runs.")
    assert [c.kind for c in got if "km" in c.text] == [Kind.PROCEDURE], got
    assert texts("yes pls, hit me") == [] and texts("tell me more") == []
    assert [c.kind for c in claims("please speak plainly")] == [Kind.PROCEDURE]


def test_a_correction_replaces_the_plain_words_it_stands_for():
    from kenning.lifecycle.extraction.corrections import apply
    assert apply(["my son Caleb is allergic to peanuts - wait no, sorry, tree nuts."]) == ["my son Caleb is allergic to tree nuts"]
    assert apply(["I work at tesco - sorry, asda"]) == ["I work at asda"]


def test_scratch_that_takes_back_what_the_turn_said_just_before():
    got = texts("heads up, I'll be in Denver the week of the 9th for a conference. actually scratch that, they moved it online. so I'm home.")
    assert not any("Denver" in t for t in got) and "User is home." in got, got
    got = texts("I live in Leeds. I'm a nurse, scratch that, a midwife")
    assert any("Leeds" in t for t in got), got  # only what was said just before is taken back


def test_a_job_among_terse_notes_is_said_in_full_alone():
    assert "User is a plumber." in texts("plumber. belfast. run a small firm, 3 vans 5 lads")


def test_an_activity_said_without_i_is_kept_and_an_instructor_is_someone():
    assert "User is learning to drive." in texts("learning to drive.")
    assert "User's instructor is kuya Ben." in texts("instructor is kuya Ben")


def test_tho_closing_a_clause_is_a_filler():
    from kenning.lifecycle.extraction.normalise import trim
    assert trim("swap out dreams tho") == "swap out dreams"


def test_a_lowercase_word_coupled_with_the_speaker_is_a_name():
    assert normalise("so dev and i split up in august") == "so Dev and I split up in august"
    assert normalise("me and kayla went our separate ways") == "me and Kayla went our separate ways"
    assert normalise("mum and i went shopping") == "mum and I went shopping"  # a relative, no name
    assert normalise("you and i should talk") == "you and I should talk"


# -- a bare verb of the speaker's own life: the "I" left out, not an order -----------------


@pytest.mark.parametrize(
    "text, value",
    [
        ("coach an under-11s netball side on saturdays", "netball"),
        ("support Hibs, sadly", "Hibs"),
        ("ride a vespa to the office", "vespa"),
        ("been at the hospice six years", "hospice"),
    ],
)
def test_a_bare_verb_of_the_speakers_life_is_said_of_the_user(text, value):
    got = [c for c in claims(text) if value in c.text]
    assert got and got[0].text.startswith("User ") and got[0].kind is not Kind.EPISODE


@pytest.mark.parametrize("text", ["drive me to the station at six", "teach me to knit please", "book a table for two at eight"])
def test_a_bare_verb_said_to_the_other_speaker_stays_a_request(text):
    assert not any(c.text.startswith("User ") and c.kind is Kind.FACT for c in claims(text))


def test_a_clause_taken_for_the_subject_of_the_next_verb_is_cut_from_it():
    got = texts("and um im training for my HGV licence on my days off my sister jo is a nurse in leeds")
    assert any("HGV" in t and "jo" not in t.split() for t in got), got
    assert any("jo" in t and "nurse" in t and "HGV" not in t for t in got), got
    assert not any("birthday" in t and "bike" in t and "User's birthday is" in t for t in texts("what I want for my birthday is a new bike"))


def test_a_condition_on_the_other_speaker_needing_it_hedges_nothing():
    assert [c.kind for c in claims("my landline is 01632 960441 if you need it")] == [Kind.FACT]
    assert all(c.confidence <= 0.5 for c in claims("I'd take the allotment if you ever fancy giving it up"))


def test_its_where_no_owner_can_stand_is_it_is():
    assert normalise("its 5 not 6") == "it's 5 not 6"
    assert normalise("Its actually fine") == "It's actually fine"
    assert normalise("the dog wagged its tail") == "the dog wagged its tail"


def test_it_right_after_something_new_is_that_thing():
    got = texts("got a new landline last week. it's 01632 960118")
    assert any(t.startswith("User's new landline is 01632 960118") for t in got), got
    got = texts("picked up a new bike on saturday. it's a green Brompton")
    assert any("new bike is a green Brompton" in t for t in got), got
    assert not any("new" in t for t in texts("it's a green Brompton")), "nothing new was named"
    got = texts("got a new car, it's a blue Polo")
    assert any("new car is a blue Polo" in t for t in got), got
    assert any("950" in t and "rent" in t for t in texts("my rent went up, it's 950 now")), "the value stays with its clause"


def test_a_greeting_before_the_first_claim_is_no_part_of_it():
    for said in ("hiya im a welder in hull", "yo im a welder in hull", "heyyy im a welder in hull"):
        assert texts(said) == ["User is a welder in hull."], said


def test_a_new_one_is_the_thing_the_turn_called_old_or_named_last():
    got = texts("the old line got cut off. new one is 0706 555 0198")
    assert any(t.startswith("User's new line is 0706 555 0198") for t in got), got
    got = texts("please change my number. New one is 0706 555 0198")
    fact = of_text(default_parser(), next(t for t in got if "0198" in t))
    assert fact is not None and fact.attribute.name == "phone" and "0198" in fact.value, got
    assert not any("new" in t for t in texts("new one is 0706 555 0198")), "nothing was named for 'one'"


@pytest.mark.parametrize(
    ("text", "row", "value"),
    [
        ("The landlord raised the rent to £720.", "rent", "720"),
        ("The new landlord put the rent up to £720 from june.", "rent", "720"),
        ("They bumped my salary up to 42k.", "pay", "42k"),
        ("User changed their number to 0770 123 456.", "phone", "0770 123 456"),
    ],
)
def test_a_row_of_the_users_changed_to_a_value_by_anyone_sets_it(text, row, value):
    fact = of_text(default_parser(), text)
    assert fact is not None and (fact.subject, fact.attribute.name) == ("user", row) and value in fact.value


def test_a_change_to_someone_elses_row_is_not_the_users():
    assert of_text(default_parser(), "Her landlord raised her rent to £900.") is None
    assert of_text(default_parser(), "The landlord raised the rent.") is None, "no new value"


def test_a_denial_before_what_is_so_sets_it_against_what_was_said():
    assert corrections.said_otherwise("ah wait I said U15, no no it's the U13 this year") == ("U15", ["U13"])
    assert corrections.said_otherwise("I said 6, sorry its 7") == ("6", ["7"])
    assert corrections.said_otherwise("i said i would go, its friday") is None, "no denial, no 'actually'"


def test_i_before_a_verb_the_tagger_took_for_a_noun_is_no_note():
    assert not any("is a" in t or "is an" in t for t in texts("I coach hockey, the U15 AA Chevaliers in Lévis"))


def test_a_participle_after_a_present_be_is_a_state_after_a_past_one_an_event():
    assert [c.kind for c in claims("me and Andrei are finished")] == [Kind.FACT]
    parsed = default_parser().parse(["the car was stolen", "the couple are finished"])
    assert read(parsed[0][0]).past and not read(parsed[1][0]).past


def test_an_order_on_what_the_assistant_does_for_the_user_is_a_rule():
    got = claims("Please correct my grammar mistake always when I write.")
    assert [c.kind for c in got] == [Kind.PROCEDURE], got  # the "I" is the condition's, not the order's
    got = claims("please when you write to me use short sentences")
    assert [c.kind for c in got] == [Kind.PROCEDURE], got
    assert Kind.PROCEDURE not in {c.kind for c in claims("now I never want to see a hill again")}


def test_a_relative_clauses_subject_is_not_the_clauses_own():
    assert texts("Sold the Fiesta to a student from Loughborough who seemed thrilled.") == [
        "User sold the Fiesta to a student from Loughborough who seemed thrilled."]


def test_moved_is_a_feeling_only_when_it_goes_nowhere():
    assert texts("moved to leeds last month") == ["User moved to leeds last month."]
    assert texts("moved by your kindness") == []


def test_a_lowercase_place_after_to_that_is_no_verb_is_the_value():
    fact = of_text(default_parser(), "User moved through to glasgow last month.")
    assert fact is not None and (fact.attribute.name, fact.value) == ("residence", "glasgow")
    assert of_text(default_parser(), "User moved to study.") is None, "'study' is a verb the lemmatiser knows"


def test_a_framing_phrase_and_where_in_the_place_leave_a_home_a_home():
    fact = of_text(default_parser(), "For context the user is in edinburgh, just off leith walk.")
    assert fact is not None and (fact.attribute.name, fact.value) == ("residence", "edinburgh")
    assert of_text(default_parser(), "User is in London for work.") is None, "a stay, not a home"


@pytest.mark.parametrize("text", ["I have a group from Hamburg arriving friday", "im going Newcastle Australia for coal next week"])
def test_something_under_way_for_one_coming_day_is_no_lasting_fact(text):
    assert [c.kind for c in claims(text)] == [Kind.EPISODE]


@pytest.mark.parametrize("text", ["I'm working fridays now", "I'm training for the marathon every friday"])
def test_a_progressive_habit_with_days_stays_a_fact(text):
    assert [c.kind for c in claims(text)] == [Kind.FACT]


def test_an_age_and_where_from_open_a_list_of_notes():
    assert texts("yo im 16 from stockport, main fortnite on ps5, in year 11 at harrytown")[0] == "User is 16 from stockport."


def test_a_verb_list_with_the_i_left_out_is_cut_into_one_claim_each():
    got = texts("handed my notice in at the bank, start at the council monday")
    assert got == ["User handed their notice in at the bank.", "User starts at the council monday."]
    # an order has no "I" to restore: each part stays a request
    assert all(t.startswith("User asked to") for t in texts("book a table for two, send me the link"))


def test_a_pronoun_stands_for_a_name_the_tagger_does_not_know():
    got = texts("Marek is not in Tilburg anymore, he moved back to Gdansk")
    assert "Marek moved back to Gdansk." in got


@pytest.mark.parametrize(
    "text, value",
    [("User is 38.", "38"), ("User is actually 37 still.", "37"), ("User turned 40 last week.", "40"), ("User is 9 years old.", "9")],
)
def test_an_age_is_a_row_of_the_table(text, value):
    fact = of_text(default_parser(), text)
    assert fact is not None and fact.attribute.name == "age" and fact.value == value


@pytest.mark.parametrize("text", ["Cian is 8 months.", "User is 2 weeks into the job.", "User is 5 minutes from the station.", "User starts at 9."])
def test_a_number_that_counts_something_else_is_no_age(text):
    fact = of_text(default_parser(), text)
    assert fact is None or fact.attribute.name != "age"


@pytest.mark.parametrize(
    "text, employer",
    [("User is a mortgage adviser at barclays.", "barclays"), ("User works as a nurse at the QE.", "QE"),
     ("User started last Monday as an associate at Kessler & Holt.", "Kessler & Holt"), ("User starts at the council on Monday.", "council")],
)
def test_where_a_job_is_sets_the_employer(text, employer):
    from kenning.lifecycle.extraction.attributes import all_of_text

    assert employer in [f.value for f in all_of_text(default_parser(), text) if f.attribute.name == "employer"]


@pytest.mark.parametrize("text", ["User is a teacher at heart.", "User started as dry jan.", "User is here as a guest at the wedding."])
def test_a_role_or_place_in_passing_sets_no_employer(text):
    from kenning.lifecycle.extraction.attributes import all_of_text

    assert not [f for f in all_of_text(default_parser(), text) if f.attribute.name == "employer"]


@pytest.mark.parametrize("text", ["they gave me the senior title finally", "they moved me to the night team at the depot"])
def test_what_they_did_to_the_user_is_kept(text):
    got = texts(text)
    assert got and ("the user" in got[0].lower() or got[0].startswith("User ")), got


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("she put me on sertraline, 50mg to start", ["User is now on sertraline, 50mg to start."]),
        ("the consultant took me off the amlodipine", ["User stopped the amlodipine."]),
        ("dr okafor switched me off humira onto stelara", ["User stopped humira.", "User is now on stelara."]),
        ("they moved me onto the automation squad", ["User is now on the automation squad."]),
    ],
)
def test_being_put_on_or_taken_off_something_is_where_the_user_is_now(text, expected):
    assert sorted(texts(text)) == sorted(expected)


def test_being_taken_somewhere_is_no_place_to_be():
    assert not any(t.startswith("User is now") for t in texts("my sister took me to Bath for my birthday"))


def test_a_role_named_as_subject_is_who_she_is_next():
    got = " ".join(texts("gp said the citalopram wasnt doing much so she took me off it"))
    assert "citalopram took" not in got.lower() and "gp took" in got.lower(), got


@pytest.mark.parametrize("text", ["they told me about the party", "they drive me mad"])
def test_what_they_told_or_made_the_user_feel_is_not(text):
    assert texts(text) == []


@pytest.mark.parametrize(
    "text, row, name",
    [("User's manager sarah is super strict about deadlines.", "boss", "sarah"), ("User's new boss is Pedro, seems chill.", "boss", "pedro"),
     ("User's gp is dr patel at the beech grove surgery.", "doctor", "patel"), ("New doctor is dr okonjo, only met her the once.", "doctor", "okonjo"),
     ("User's new landlord is Mr Adeyemi.", "landlord", "adeyemi")],
)
def test_someone_in_a_role_of_the_users_life_is_a_row_valued_by_the_name(text, row, name):
    from kenning.lifecycle.extraction.attributes import all_of_text

    assert (row, name) in [(f.attribute.name, f.value) for f in all_of_text(default_parser(), text) if f.subject == "user"]


@pytest.mark.parametrize("text", ["User's boss is a nightmare.", "User's boss is strict.", "Jo's boss is Pedro.", "User's doctor said to rest."])
def test_a_role_described_or_someone_elses_is_no_row(text):
    from kenning.lifecycle.extraction.attributes import all_of_text

    assert not [f for f in all_of_text(default_parser(), text) if f.attribute.name in ("boss", "doctor")]


@pytest.mark.parametrize("text", ["oh and i said rory was 6", "I told you my shift starts at 7"])
def test_the_user_quoting_themselves_is_no_claim(text):
    assert texts(text) == []


@pytest.mark.parametrize("text", ["I told my boss I'm leaving in March", "I said yes to the job in Leeds"])
def test_telling_someone_else_or_saying_something_by_name_is_kept(text):
    assert texts(text), text


def test_a_retraction_after_ok_is_still_a_pointer():
    from kenning.lifecycle.extraction.pointers import pointer_topic

    sent = default_parser().parse(["ok disregard what I told you about the budget"])[0][0]
    assert pointer_topic(sent) == "the budget"


def test_a_spelling_is_an_instruction_that_respells_a_near_word_only():
    got = claims("oh sorry autocorrect got me the other day, it's caitlin with a c")
    assert len(got) == 1 and got[0].metadata.get("spelling") and got[0].metadata.get("correct_to") == "caitlin"
    assert corrections.respell("User's daughter Kaitlyn turns 10.", "caitlin") == "User's daughter Caitlin turns 10."
    assert corrections.respell("User's flatmate Ciara is from Donegal.", "clodagh") is None  # another name, not a spelling


def test_the_user_said_twice_is_written_once():
    got = texts("luca and me we are finished")
    assert got and "the user the user" not in got[0].lower(), got


@pytest.mark.parametrize("text", ["ok and how long do i boil an egg for a runny yolk", "how often should i water a cactus"])
def test_a_how_question_without_its_mark_is_asked_not_stated_or_hedged(text):
    got = claims(text)
    assert len(got) == 1 and got[0].kind is Kind.EPISODE and got[0].text.startswith("User asked") and not got[0].metadata.get("hedge"), got


@pytest.mark.parametrize(
    "text, want",
    [("kia ora, mixed-practice vet in Rotorua. I've cut out dairy completely, lactose intolerant apparently", "User is lactose intolerant apparently."),
     ("ai. I'm Jaypeetee, carver in Iqaluit, soapstone and caribou antler mostly, bears and drum dancers.",
      "User is carver in Iqaluit, soapstone and caribou antler mostly.")],
)
def test_a_noun_after_a_restored_i_is_what_the_speaker_is_not_a_verb(text, want):
    assert want in texts(text)


def test_a_real_verb_after_i_stays_a_verb():
    assert texts("i volunteer at the tafel on saturdays") == ["User volunteers at the tafel on saturdays."]


def test_a_count_of_people_opening_a_verbless_sentence_is_had():
    assert "User has two kids, Alfie (6) and Rosa (3)." in texts("so im gemma, 34. two kids, alfie (6) and rosa (3). we're selling the house")
    assert not any(t.startswith("User has two weeks") for t in texts("two weeks. then we moved to leeds"))


def test_a_lowercase_name_the_lexicon_does_not_know_is_someone_a_pronoun_can_stand_for():
    from kenning.lifecycle.extraction.people import lowercase_name

    assert [lowercase_name(w) for w in ("rory", "kasia", "dev", "she", "kidney", "photos")] == [True, True, True, False, False, False]
    assert "Rory is actually 7 since tuesday." in texts("oh and i said rory was 6, he's actually 7 since tuesday")



def test_a_value_asked_about_then_answered_is_a_correction():
    assert corrections.said_otherwise("oh wait did i tell you thursdays for physio? its tuesdays, always has been") == ("thursdays", ["tuesdays"])
    assert corrections.said_otherwise("did i tell you about my new job? its great") is None, "no value of the same shape said"
    got = claims("oh wait did i tell you thursdays for physio? its tuesdays")
    assert [c.metadata.get("contrast_old") for c in got] == ["thursdays"] and got[0].metadata.get("pointer"), got


@pytest.mark.parametrize("text", ["always has been lol", "i do", "she will"])
def test_a_bare_auxiliary_says_nothing_of_its_own(text):
    assert texts(text) == []


def test_an_auxiliary_with_a_complement_still_says_something():
    assert texts("i have two kids") == ["User has two kids."]


@pytest.mark.parametrize("text", ["have a lovely evening!", "cheers for the chat, have a lovely evening!", "enjoy the rest of your weekend"])
def test_a_wish_for_the_other_speakers_time_is_no_claim(text):
    assert texts(text) == []


def test_a_time_had_or_planned_is_still_said():
    assert texts("I had a lovely evening with mum") == ["User had a lovely evening with mum."]
    assert texts("we'll have a nice weekend in york")


def test_a_bare_verb_of_an_attribute_row_with_a_name_is_the_speakers_not_an_order():
    assert texts("start at the city council monday") == ["User starts at the city council monday."]
    assert texts("move to the next question")[0].startswith("User asked"), "no name after the preposition: an order"


@pytest.mark.parametrize("text, want", [("from now answer me in korean please", "please from now on answer me in korean"),
                                        ("two weeks from now i fly", "two weeks from now I fly"),
                                        ("from now till june im off sugar", "from now till june I'm off sugar")])
def test_from_now_opening_a_clause_is_from_now_on(text, want):
    assert normalise(text) == want


def test_a_name_after_a_correction_marker_is_the_value_put_right_not_an_address():
    assert texts("my dog is called Brio, no wait, Brina") == ["User's dog is called Brina."]


# -- one clause, not two; the people a session named before -----------------------------


def test_an_adverb_between_a_subject_and_its_verb_cuts_nothing():
    got = texts("my mate Kuba is doing an ironman in june. he's also gone vegan which makes our bbqs awkward lol")
    assert any("Kuba" in t and "vegan" in t for t in got), got
    assert not any(t.startswith("User") and "vegan" in t for t in got), got  # never the user's


def test_a_subject_in_the_object_case_opens_no_clause():
    got = texts("my sister keeps trying to get me to sign up for the marathon")
    assert not any(t.startswith("The user to") or t.rstrip(".").endswith("trying to get") for t in got), got


def test_a_verb_after_but_gets_the_subject_of_the_nearest_clause_before_it():
    got = texts("my dance partner Martín also co-teaches, he is from Rosario like me but lives in Antwerp")
    assert any("Martín lives in Antwerp" in t for t in got), got


def test_people_named_before_the_turn_are_whom_he_and_she_stand_for():
    turn = [Turn("user", "he's also just started on co-careldopa, 4 times a day")]
    assert not extract(turn).claims  # nobody named: not knowable
    got = [c.text for c in extract(turn, others=["my husband Alun"]).claims]
    assert any("husband Alun" in t and "co-careldopa" in t for t in got), got
    got = [c.text for c in extract(turn, others=["my husband Alun", "my sister Jo"]).claims]
    assert any("Alun" in t for t in got) and not any("Jo" in t for t in got), got  # "he" is not the sister


@pytest.mark.parametrize(
    "text, person",
    [
        ("User's husband Alun has parkinson's, diagnosed in 2019.", "my husband Alun"),
        ("User's sister lives in Rome.", "my sister"),
        ("Kuba is doing an ironman in Klagenfurt.", "Kuba"),
        ("User's car is a red Golf.", None),
        ("User lives in Leeds.", None),
        ("The plumber is coming friday.", None),
    ],
)
def test_the_person_a_memory_about_someone_else_opens_with(text, person):
    from kenning.lifecycle.extraction.people import from_memory

    assert from_memory(text) == person


def test_an_instruments_reading_is_the_users_own():
    got = texts("scales said 84.5 this morning!!!")
    assert got and "84.5" in got[0] and got[0].startswith("User"), got


def test_a_marker_cut_off_as_its_own_piece_still_corrects_the_value_before_it():
    assert corrections.apply(["her birthday is the 12th of june.", "wait no", "sorry it's the 21st", "I always mix it up"]) == [
        "her birthday is the 21st of june.", "I always mix it up"]
    kept = ["my badminton is Thursday 8pm", "wait no", "badminton is Wednesday"]  # a clause, not a value: left to the rules
    assert corrections.apply(kept) == kept
    pointer = ["my dentist appointment is thursday at 2.", "scratch that", "they just texted"]  # a pointer, not a value
    assert corrections.apply(pointer) == pointer


@pytest.mark.parametrize(
    "text, expected",
    [
        ("ugh sorry i meant mustard not sesame the other day!!", ("sesame", ["mustard"])),
        ("oops, tuesday's class is pilates not yoga", ("yoga", ["pilates"])),
        ("i like cats not dogs", None),  # nothing put right: a preference said with its contrast
    ],
)
def test_a_word_put_right_in_so_many_words_is_a_contrast(text, expected):
    sent = default_parser().parse([text])[0][0]
    assert corrections.contrast(sent) == expected


@pytest.mark.parametrize(
    "text, held",
    [
        ("i swim with a masters club (the Otters) three times a week", "Otters"),  # a name in brackets is said
        ("my twins (Ada and Ebuka) just started primary school", "Ebuka"),
        ("the car's an old nissan micra, automatic, in case you help me with the insurance later", "micra"),
    ],
)
def test_names_in_brackets_and_a_thing_said_to_be_a_kind_are_kept(text, held):
    got = texts(text)
    assert any(held in t for t in got), got
    assert not any(t.rstrip(".").endswith("in case") for t in got), got  # "in case you …" opens a clause, cut before it


def test_is_after_the_thing_is_read_only_before_a_or_an():
    assert "the car is an old micra" in normalise("the car's an old micra")
    assert "the car's engine" in normalise("the car's engine is shot")


@pytest.mark.parametrize(
    "text, lives",
    [
        ("Life's been pretty quiet here in Reading.", "Reading"),
        ("weather here in boise is unhinged btw", "boise"),  # a place typed in lowercase
        ("it's lovely here in Rome for the week", None),  # a stay
        ("so quiet here in town today", None),  # no place's name
        ("stuck here in traffic", None),
    ],
)
def test_here_in_a_named_place_is_where_the_user_lives(text, lives):
    got = [t for t in texts(text) if t.startswith("User lives in")]
    assert got == ([f"User lives in {lives}."] if lives else []), got


def test_only_a_turn_that_says_he_she_or_they_needs_the_people_named_before():
    from kenning.lifecycle.extraction.people import mentions_someone

    assert mentions_someone("he's also started on co-careldopa") and mentions_someone("their flat is tiny")
    assert not mentions_someone("i started on co-careldopa") and not mentions_someone("the shed is done")


@pytest.mark.parametrize(
    "text, held",
    [
        ("first week doing payroll at Harlow Freight done!!", "User works at Harlow Freight."),
        ("survived my first day at Ocado lol", "User works at Ocado."),
        ("SURVIVED my first shift at the Sea Life centre!!", "User works at Sea Life centre."),  # a place named before its noun
        ("First month in Hyderabad done, the biryani here is too good", "User lives in Hyderabad."),
        ("first day in Rome and it's raining", None),  # a first day in a city is as often a trip
        ("first week at Disneyland on holiday", None),  # a stay
        ("Dami's first week at Greenfield Academy went well", None),  # someone else's start
    ],
)
def test_a_first_period_somewhere_says_where_the_user_now_is(text, held):
    got = [t for t in texts(text) if t.startswith(("User works at", "User lives in"))]
    assert got == ([held] if held else []), got


def test_a_request_after_a_filler_word_is_a_request_not_a_standing_rule():
    got = claims("anyway can u explain what a P45 is, they keep mentioning it")
    assert not any(c.kind is Kind.PROCEDURE for c in got), got
    assert any(c.text.startswith("User asked") and "P45" in c.text for c in got), got


@pytest.mark.parametrize(
    "text, lives",
    [
        ("FINALLY got the keys to our flat in woking!!!", "woking"),  # the place hangs on "got"
        ("my flat in Leeds is freezing", "Leeds"),
        ("our old flat in Leeds had mould", None),
        ("our holiday flat in Spain needs work", None),
        ("my sister's flat in Rome is tiny", None),
    ],
)
def test_a_home_of_the_users_own_in_a_named_place_is_where_they_live(text, lives):
    got = [t for t in texts(text) if t.startswith("User lives in")]
    assert got == ([f"User lives in {lives}."] if lives else []), got


def test_a_home_already_said_gets_no_second_claim_but_a_named_start_in_an_episode_does():
    said = texts("i finally got my own place in uttara, 10 min from my office at the buying house")
    assert not any(t == "User lives in uttara." for t in said) and any("buying house" in t for t in said), said


def test_a_clause_in_brackets_at_the_end_of_a_sentence_is_a_sentence_of_its_own():
    got = texts("i live in antwerp right by the zoo (the sea lions wake me up i swear). my bike got nicked")
    assert "User lives in antwerp right by the zoo." in got, got
    assert not any("(" in t or "swear" in t for t in got), got


@pytest.mark.parametrize("text", ["fun. so cycling only for now", "sorted. thanks", "brilliant, cheers"])
def test_a_lone_word_that_names_no_condition_is_no_quality(text):
    assert not any(t.startswith(("User is", "User has")) for t in texts(text)), texts(text)


def test_a_name_then_a_list_of_what_the_speaker_is_is_one_claim_each():
    got = texts("im clementine, sommelier at the Balmoral, originally from Lyon so yes i have Opinions about beaujolais")
    assert any("Balmoral" in t and "Lyon" not in t for t in got), got
    assert any("Lyon" in t and "Balmoral" not in t for t in got), got
    assert not any("knackered" in t and "QE" in t for t in texts("I'm knackered, nurse at the QE")), "a feeling is no name"


@pytest.mark.parametrize(
    "text, held",
    [
        # a condition or a diet said alone
        ("coeliac. what can i eat at a tapas place on friday", "User is coeliac."),
        ("asthmatic, inhaler basically lives in my pocket.", "User is asthmatic."),
        ("type 1 diabetic btw", "User is type 1 diabetic."),
        ("asthma. so no smoking spots please", "User has asthma."),
        ("vegan. also allergic to soy", "User is vegan."),
        ("hate coriander.", "User hates coriander."),  # the tagger reads "hate" as a noun before "coriander"
        ("still no red meat though", "User doesn't eat red meat."),
        ("no pork for me", "User doesn't eat pork."),
        ("commute by bike on a battered old Brompton.", "User commutes by bike on a battered old Brompton."),  # "commute" read as a noun
        ("play the fiddle in a folk band.", "User plays the fiddle in a folk band."),  # no order to the assistant
        ("strictly vegetarian, no eggs also.", "User is strictly vegetarian, no eggs."),  # with what the comma adds
        ("strictly vegan now.", "User is strictly vegan."),  # the tagger reads "vegan" as a verb
        ("dental hygienist here 🦷", "User is a dental hygienist."),
        ("have a ferret called Kumara, yes like the sweet potato", "User has a ferret called Kumara, yes like the sweet potato."),
        ("anyway single now", "User is single."),
        ("engaged!!", "User is engaged."),
        # a thing said before what the speaker did with it is its object
        ("the old volvo i sold to my brother in law, he is happy", "User sold the old volvo to their brother in law."),
        ("the car i sold last week", "User sold the car last week."),
    ],
)
def test_what_the_speaker_is_has_or_does_said_without_i_is_theirs(text, held):
    assert held in texts(text), texts(text)


@pytest.mark.parametrize("text", ["have a good one!", "have a look at this", "the nurse here was lovely"])
def test_a_wish_an_order_or_someone_else_here_is_no_claim_of_the_speakers(text):
    assert not any(t.startswith(("User has", "User is a")) for t in texts(text)), texts(text)


def test_a_person_named_before_and_i_shares_the_subject():
    got = texts("i row most weekends, have mild asthma which the cold does NOT help, and my partner Ewan and i have a ginger cat called Marmalade")
    assert "User has mild asthma which the cold does not help." in got, got
    assert "User's partner Ewan and the user have a ginger cat called Marmalade." in got, got


def test_it_after_a_verb_is_its_object_not_a_new_clause():
    assert texts("so rafael and i called it quits last week.") == ["Rafael and the user called it quits last week."]
    assert texts("we made it count this year") == ["User made it count this year."], texts("we made it count this year")


def test_a_heading_before_a_colon_is_dropped_even_when_one_clause_follows():
    assert texts("for the recipe thing later: i'm allergic to sesame.") == ["User is allergic to sesame."]
    assert any("Kelowna" in t and not t.lower().startswith("update") for t in texts("update: took the job in Kelowna!!"))


@pytest.mark.parametrize("text, place", [("we've got a one-bed in Peckham above a launderette", "Peckham"),
                                         ("got a 2 bed flat in York", "York")])
def test_a_home_counted_by_its_bedrooms_is_where_the_user_lives(text, place):
    assert f"User lives in {place}" in " ".join(texts(text)), texts(text)


def test_a_hedged_plan_and_counted_children_are_cut_from_the_fact_before():
    got = texts("we live in Sheffield, maybe moving up to Edinburgh if my husband's transfer comes through, "
                "two kids Isla (9) and Rory (6) who'd be gutted to leave their school.")
    assert "User lives in Sheffield." in got, got
    assert any(t.startswith("User has two kids Isla") and "Edinburgh" not in t for t in got), got


def test_a_modal_inside_a_relative_clause_hedges_nothing_the_speaker_says():
    assert "User has a sister who would love a dog." in texts("I have a sister who would love a dog."), texts("I have a sister who would love a dog.")


def test_a_liking_verb_before_a_preposition_is_no_claim_of_the_speakers():
    assert not any(t.startswith("User love") for t in texts("love for my kids")), texts("love for my kids")
    assert texts("Work update, I'm still doing social media for the museum.") == ["User is still doing social media for the museum."]


@pytest.mark.parametrize("text", ["no fish for the kids", "no chicken left in the fridge"])
def test_no_food_said_of_someone_or_something_else_is_no_diet(text):
    assert not any("eat" in t for t in texts(text)), texts(text)


def test_news_of_a_first_with_someone_named_is_kept_however_it_is_exclaimed():
    assert any("Molesey" in t for t in texts("first regatta with Molesey this weekend!!")), texts("first regatta with Molesey this weekend!!")
    assert texts("HAPPY NEW YEAR!!!") == []


@pytest.mark.parametrize(
    "text, lives",
    [
        ("moved in with my girlfriend nadia in walthamstow, we split 1600", "walthamstow"),  # the place hangs on the person
        ("the little terrace in walthamstow is officially ours", "walthamstow"),
        ("i live with my sister in Leeds", "Leeds"),
    ],
)
def test_a_home_said_through_whom_or_whose_it_is_is_where_the_user_lives(text, lives):
    from kenning.lifecycle.extraction.attributes import all_of_text

    facts = [f for t in texts(text) for f in all_of_text(default_parser(), t) if f.attribute.name == "residence"]
    assert [f.value for f in facts] == [lives], texts(text)


def test_working_with_someone_somewhere_names_no_employer():
    from kenning.lifecycle.extraction.attributes import all_of_text

    assert all_of_text(default_parser(), "User works with their cousin in Leeds.") == []


def test_a_lowercase_places_name_after_a_preposition_is_parsed_as_a_name_and_kept_as_typed():
    sent = default_parser().parse(["User is in the new place in didsbury now, boxes everywhere."])[0][0]
    place = next(t for t in sent.tokens if t.lower == "didsbury")
    assert place.pos == "PROPN" and place.text == "didsbury"  # tagged as a name, the user's spelling kept
    uni = default_parser().parse(["i'm going back to uni in september"])[0][0]
    assert next(t for t in uni.tokens if t.lower == "uni").text == "uni"
    from kenning.lifecycle.extraction.attributes import all_of_text

    assert [f.value for f in all_of_text(default_parser(), "User moved to dalston.")] == ["dalston"]


# -- what the user says about keeping things, and names the turn introduced (session 24) -------------------------


@pytest.mark.parametrize("text", [
    "I prefer that is not saved.",
    "I don't want it saved anywhere.",
    "I'd rather you didn't keep that",
])
def test_what_the_user_says_about_keeping_the_conversation_is_no_claim(text):
    assert texts(text) == []


@pytest.mark.parametrize("text, word", [
    ("I keep it in the fridge", "fridge"),
    ("I keep my bike in the hallway", "hallway"),
])
def test_keeping_a_thing_somewhere_is_still_a_claim(text, word):
    assert any(word in t for t in texts(text)), texts(text)


def test_a_name_the_turn_introduced_is_a_person_when_the_tagger_reads_it_as_a_noun():
    got = texts("My son Kacper is 15. Kacper plays football for Lechia juniors.")
    assert any("Lechia" in t and "Kacper" in t for t in got), got


@pytest.mark.parametrize("text, word", [
    ("psoriasis.", "psoriasis"),  # a condition known by the shape of its name
    ("- psoriasis, flares every winter", "psoriasis"),
    ("scoliosis.", "scoliosis"),
    ("endometriosis.", "endometriosis"),
])
def test_a_condition_said_alone_is_the_users_by_the_shape_of_its_name(text, word):
    assert any(t.startswith(f"User has {word}") for t in texts(text)), texts(text)


@pytest.mark.parametrize("text", ["nostalgia.", "academia."])
def test_words_that_only_end_like_conditions_are_none(text):
    assert not any("User has" in t for t in texts(text)), texts(text)


def test_a_job_said_alone_with_its_place_after_a_comma_is_the_users_job():
    assert any("balloon pilot" in t and t.startswith("User is a") for t in texts("commercial hot air balloon pilot, albuquerque"))


def test_here_in_a_place_with_a_new_job_is_a_home_not_a_stay():
    assert "User lives in Darwin." in texts("first week at my new job here in Darwin is done, so hot here")
    assert "User lives in Rome." not in texts("here in Rome for the week, loving it")


def test_a_thing_gone_in_the_passive_is_the_users_and_first_week_back_is_back_at_work():
    assert "User's Yamaha is sold." in texts("The Yamaha is sold")
    assert "User is back at work." in texts("well, first full week back at the office is done.")
    assert "User is back at work." not in texts("my first day back in Leeds")


def test_a_verb_joined_to_i_am_old_shares_the_i():
    got = texts("I am 58 years old and work since 30 years as a lift engineer for a company in Regensburg")
    assert any(t.startswith("User works since 30 years as a lift engineer") for t in got), got


def test_a_name_modifying_a_noun_is_nobody_he_can_be():
    got = texts("My husband is Harbin people, he is crazy about ice fishing.")
    assert "User's husband is crazy about ice fishing." in got, got
    assert not any(t.startswith("Harbin is") for t in got), got


def test_the_commute_from_a_named_place_is_where_the_user_lives():
    assert "User lives in swindon." in texts("ugh the commute from swindon is killing me, 50 min on the train each way")
    assert not any("lives in" in t for t in texts("Tom's commute from Slough is brutal"))
    assert not any("lives in" in t for t in texts("the commute from the house to the clinic is 5 min"))


def test_a_reason_that_sets_an_attribute_is_its_own_claim_after_a_need():
    got = texts("need a high protein dinner idea, something with lentils or tofu, since i went vegetarian last month")
    assert "User went vegetarian last month." in got, got
    assert not any("since" in t for t in got), got


def test_a_first_week_in_a_named_office_is_where_the_user_works():
    assert "User works at Tencent Chengdu office." in texts("First week in Tencent Chengdu office is finish! So tired but happy.")
