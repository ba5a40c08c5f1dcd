"""Word classes the clause reader needs: closed classes of English, not phrases of any test.

Each set is a grammatical or semantic class (modal verbs, hedging adverbs,
nouns that name people), so a new sentence is read by the class its words
belong to, not by matching its wording.
"""

from __future__ import annotations

import re

from kenning.lifecycle.slots import OCCUPATIONS, RELATIONS

# a bare number that reads as someone's age in a self-introduction ("priya, 34", "…Dumas TX, 29, single")
AGE = re.compile(r"1[3-9]|[2-9]\d")
# a word naming a job from the closed list ("chef", "mechanic", "co-pilot"); words merely shaped like one
# ("lekker", "october") are not
JOB_WORD = re.compile(rf"(?i)(?:\w+-)?(?:{OCCUPATIONS})")

# adverbs and discourse words that can open a clause without being its verb or subject
CLAUSE_ADVERBS = frozenset(
    "also just still now then really actually honestly basically literally finally recently currently usually "
    "always never sometimes often even only already again so and but plus oh well um uh like anyway anyways tbh "
    "btw lol haha ok okay yeah yes no hey hi hiya sorry though mostly kinda sorta gosh wow omg god jeez ugh aw aww".split()
)
# words that open a clause but say nothing: dropped before a restored subject ("yeah set it up" -> "I set it up")
FILLER_WORDS = frozenset("and but plus so oh well um uh like anyway anyways tbh btw lol haha ok okay yeah yes hey hi hiya gosh wow omg jeez ugh aw aww then".split())
# words that start a piece after a separator but never begin a clause of their own
NOT_PREDICATES = frozenset(
    "a an the my our your his her their this that these those some any no not very too more most less so such "
    "which who whom whose where when while because since although though if unless until than as like with "
    "without for from in on at by of to into about over under after before around near".split()
)
# words that open a subordinate clause: "whenever you book a hotel for me, …" is one rule with what follows
SUBORDINATORS = frozenset(
    {"if", "when", "whenever", "because", "since", "although", "though", "unless", "once", "while", "before", "after",
     "every time", "each time", "any time", "anytime", "as soon as", "as long as", "in case"}
)
AUXILIARIES = frozenset({"be", "have", "do", "will", "would", "can", "could", "shall", "should", "may", "might", "must", "get", "to"})
# predicates that end what their object names: "quit keto", "gave up the gym", "stopped being vegan"
ENDING_VERBS = frozenset({"quit", "stop", "leave", "drop", "give up", "pack in", "ditch", "abandon", "end", "sell", "switch", "change",
                          "resign", "retire", "rehome", "give away", "flog", "scrap", "trade in"})
# parting with a thing: "the Yamaha is sold", "Rolo got rehomed" (the passive subject is the user's thing, now gone)
PARTING_VERBS = frozenset({"sell", "scrap", "flog", "rehome", "give away", "trade in"})
# verbs that always take the thing they act on: without an object after them, the noun before is it ("the old volvo
# i sold to my brother")
TAKES_A_THING = frozenset({"sell", "buy", "flog", "scrap", "rehome", "ditch", "trade", "swap", "get", "order", "adopt", "rent", "lease"})
# endings of something one takes or does (not of a place or a thing one can leave for a moment)
STOPPING_VERBS = frozenset({"quit", "stop", "give up", "pack in", "ditch"})
# words of thanks opening a clause: "cheers for listening", "thanks so much for …"
THANKS = frozenset({"thanks", "thank", "thx", "ty", "ta", "cheers"})
# verbs of how one speaker treats the other: "I miss you", "I owe you one", "thank you"
SOCIAL_VERBS = frozenset({"miss", "love", "adore", "owe", "thank", "hug", "appreciate", "promise", "wish", "congratulate", "envy", "trust"})
# words that open a reason: "which is awkward because I'm a barista"
REASON_MARKS = frozenset({"because", "bc", "cos", "coz", "cause", "'cause", "since", "as"})
# what a verb can have attached that says what it is about (an object, a complement, a phrase, a clause)
ARGUMENT_DEPS = frozenset({"dobj", "attr", "acomp", "prep", "xcomp", "ccomp", "dative", "oprd", "advcl"})
# what a question asks the other speaker for when it asks for help: "any tips for…", "recs?", "ideas please"
HELP_NOUNS = frozenset("tip idea rec recommendation suggestion advice pointer hint recipe option alternative".split())
# verbs of keeping the other speaker up to date: "keep me posted", "tell me everything", "fill me in"
NEWS_VERBS = frozenset({"tell", "keep", "fill", "update", "send", "show", "let"})
# what a person does with their life and an assistant cannot do for them: said bare ("drive a corsa van",
# "support gor mahia"), the speaker is the subject left out, not the one asked to do it
LIFE_VERBS = frozenset("""live work drive ride run support own teach study coach volunteer commute cycle swim train play
    grow breed farm sing bake brew rent lodge attend belong love adore enjoy hate loathe detest prefer""".split())
# words opening a clause that says what is so, a claim of its own ("since they bumped me up to …"); never "if", "when"
FACT_MARKS = frozenset({"since", "because", "after", "once"})
# the past of the irregular verbs people tell their news with; any other verb takes -ed
IRREGULAR_PAST = dict(pair.split(":") for pair in """leave:left quit:quit get:got go:went take:took make:made become:became
    begin:began buy:bought sell:sold find:found give:gave lose:lost meet:met build:built come:came win:won break:broke
    choose:chose drive:drove feel:felt have:had do:did put:put set:set send:sent spend:spent teach:taught split:split
    run:ran fall:fell grow:grew hear:heard keep:kept learn:learnt pay:paid sit:sat stand:stood tell:told think:thought
    write:wrote shut:shut cut:cut""".split())

LIKING_VERBS = frozenset({"love", "adore", "enjoy", "hate", "loathe", "detest", "prefer"})
# the other speaker, in any form chat spells it
SECOND_PERSON = frozenset({"you", "your", "yours", "yourself", "yourselves", "u", "ur", "ya", "y'all", "yall"})
FIRST_PERSON_STARTS = frozenset({"i", "im", "i'm", "ive", "i've", "id", "i'd", "ill", "i'll", "we", "we're", "we've", "me", "my"})
NEGATORS = frozenset({"not", "n't", "never", "no", "nt", "dont", "didnt", "cant", "wont", "isnt", "arent", "havent", "hasnt"})

# modality: words that say the speaker is not asserting the claim
HEDGE_MODALS = frozenset({"might", "may", "could", "should", "must"})
HEDGE_WORDS = frozenset(
    {"maybe", "perhaps", "possibly", "probably", "hopefully", "ideally", "someday", "idk", "dunno", "unsure", "considering", "tempted", "undecided", "torn"}
)
HEDGE_PHRASES = ("not sure", "no idea", "one day", "some day", "will see", "we'll see", "wait and see", "thinking about",
                 "thinking of", "fingers crossed", "in theory", "might", "wondering", "toying with", "on the fence")
HEDGE_VERBS = frozenset({"think", "consider", "wonder", "hope", "wish", "dream", "debate", "contemplate", "fantasize", "fantasise", "lean"})
# "would like/love/prefer" + a noun is a wish about service (a preference), not a hedge
WANT_VERBS = frozenset({"like", "love", "prefer", "want", "rather"})

# what children call their parents and grandparents, as bare nouns: "mama is flying in", "nan's 90 now"
KIN_NAMES = frozenset({"mama", "mam", "mammy", "mummy", "mommy", "ma", "papa", "pa", "daddy", "nan", "nana", "nanna", "gran",
                       "granny", "grandma", "grandpa", "grandad", "granddad", "lola", "lolo"})
# nouns that name a person or an animal: a subject "my X" of this class is a third party
PERSON_NOUNS = frozenset(
    w.replace("\\s+", " ").replace("[eé]e?", "e")
    for w in RELATIONS.split("|")
) | frozenset(
    "mum mom mother father dad parents kids children sons daughters brothers sisters friends colleagues coworker "
    "co-worker workmate teammate classmate flatmate housemate roommate bf gf hubby wifey bestie bff mate mates buddy pal "
    "fiance fiancee fiancé fiancée partner ex grandparents grandkids grandchildren twins baby toddler teenager teen "
    "boys girls lads lasses bairn bairns youngest eldest oldest "
    "stepson stepdaughter stepmom stepmum stepdad in-laws mother-in-law father-in-law sister-in-law brother-in-law "
    "therapist coach tutor teacher lecturer supervisor mentor vet doctor nurse neighbour neighbor landlady landlord "
    "instructor trainer physio dentist gp consultant manager "
    "cat cats dog dogs puppy pup kitten horse bird parrot rabbit bunny hamster gerbil guinea tortoise lizard snake".split()
) | KIN_NAMES  # "my mam has early stage dementia … she's 81": whom "she" stands for
# adjectives that make a bare noun the speaker's own choice, "my" left out: "main game is valorant", "fave food is sushi"
OWN_MARKS = frozenset({"main", "fave", "fav", "favourite", "favorite", "usual", "current"})
# times of the week and day: said bare before a verb they are when, not who ("weekends play badminton")
TIME_NOUNS = frozenset(
    "weekend weekday morning afternoon evening night monday tuesday wednesday thursday friday saturday sunday".split()
)
# the speaker's own household, said with "the" in British, Irish and Australian chat: "the wife does the books",
# "the daughter's getting married" (not friends or professionals: "the doctor" is anyone's)
HOUSEHOLD = frozenset("wife husband missus hubby kids children daughter son baby twins grandkids boys girls bairns "
                      "dog dogs cat cats puppy kitten".split())
# participles that name a state the speaker is in, with what it is in ("obsessed with matcha", "married to a kiwi")
STATE_PARTICIPLES = frozenset("obsessed addicted hooked married engaged based interested involved enrolled registered".split())
# nouns that name something the user has: "the allergy is severe now" is about the user's allergy
OWN_NOUNS = frozenset(
    "allergy intolerance diet job role position salary commute flat apartment house lease mortgage rent car phone "
    "number email address diagnosis condition injury knee back migraine medication prescription appointment "
    "surgery operation shift shifts schedule team contract exam course degree wedding marathon plan plans budget "
    "salary income savings deposit pension limit".split()
)

# what happens to something booked: "the scope got pushed back", "the meeting was moved to friday"
SCHEDULE_VERBS = frozenset({"move", "push", "postpone", "reschedule", "cancel", "delay", "bring", "book", "shift", "rebook", "call"})

# a clause that is only one of these words, or these plus fillers, says nothing about anyone
NOISE_LEMMAS = frozenset(
    "thank thanks ok okay great cool nice awesome amazing wonderful lovely brilliant fantastic perfect sweet good fun "
    "hello hi hey hiya yo bye goodbye cheers lol haha hahaha lmao omg wow yay yep yeah yes no nope sure totally "
    "absolutely definitely agree agreed exactly true right same congrats congratulations welcome sorry please "
    "morning evening night afternoon day glad happy sad love hug hugs bless aw aww ugh hmm um uh oh ah well so "
    "anyway anyways indeed really oh-my-god wowza nice one fair enough later soon ttyl chat catch gosh eek eeks yikes "
    "damn dang crikey blimey whoa woah phew".split()
)
# evaluative verbs and adjectives: "that sounds great", "you look amazing", "it was so powerful"
EVALUATIVE_VERBS = frozenset({"sound", "look", "seem", "feel"})
# verbs of the weather, whose subject is the empty "it" ("it's raining again", "been pouring since 6"): never "I"
WEATHER_VERBS = frozenset({"rain", "snow", "pour", "drizzle", "hail", "sleet", "thunder"})
# people met by chance, named by what they are rather than who ("a bloke in the queue", "some random lady")
STRANGERS = frozenset("bloke guy man woman lady dude fella fellow geezer stranger gentleman chap lad lass driver couple "
                      "kid girl boy".split())

# feelings and passing states: "I'm knackered", "so jealous", "gutted": how the speaker feels now, not a durable claim
FEELINGS = frozenset(
    "happy sad tired knackered exhausted shattered gutted excited nervous terrified scared frightened anxious stressed "
    "jealous envious mortified embarrassed bored angry annoyed upset thrilled chuffed proud relieved worried "
    "overwhelmed lonely sick ill sore broke busy grumpy buzzing pumped hungover sleepy starving hungry full fine ok "
    "okay great good awful terrible rough miserable glad delighted ecstatic devastated heartbroken sorry grateful "
    "thankful confused lost stuck fed-up curious amazed shocked surprised impressed disappointed frustrated furious "
    "knocked done cold hot freezing boiling wrecked destroyed dead killing mortifying gone emotional teary weepy "
    "lucky blessed honoured honored flattered touched moved calm chill relaxed comfy cosy cozy homesick hopeful "
    "optimistic pessimistic positive motivated inspired determined ready eager appreciative content satisfied "
    "alright better worse relaxing loving wiped useless hopeless rubbish clueless".split()
)
# what an instruction about the assistant's own answers is about: "keep answers short", "speak plainly"
RESPONSE_NOUNS = frozenset("answer answers reply replies response responses message messages explanation explanations summary summaries output tone language units".split())
RESPONSE_VERBS = frozenset({"speak", "talk", "write", "explain", "reply", "answer", "respond", "address", "call"})
# what a standing rule asks the assistant to do (beside answering): to suggest, book, remind, show, and the like,
# or what the user's own house rules forbid ("never do fish", "never drink alcohol"); "never accept the first offer",
# "never give up", "never take the first thing that comes along" are advice to a friend, not a rule for the assistant
SERVICE_VERBS = RESPONSE_VERBS | frozenset(
    """suggest recommend propose offer book schedule plan arrange remind send give show find check list draft use include
    put add mention round describe correct tell help make assume convert translate format order buy pick choose flag warn
    ask cc copy email text quote price cook serve keep go stick do eat drink need spell label sign summarise summarize
    repeat read ping message note count say""".split())
# adverbs of habit: a bare verb with one of these describes the speaker's routine, not an order
HABITUAL = frozenset({"now", "nowadays", "usually", "normally", "always", "daily", "weekly", "every", "most", "often"})
# verbs that take back something said earlier: "forget what I said about…", "scratch the gym thing"
# nouns for a stretch of what was said, as a retraction points at it: "the bit about", "everything about"
STRETCH_NOUNS = frozenset({"bit", "part", "thing", "things", "stuff", "side", "details", "info", "everything", "anything", "all"})
RETRACT_VERBS = frozenset({"forget", "disregard", "ignore", "scratch", "scrap", "strike", "delete", "drop", "erase", "remove", "cancel"})
# "you can reach me on …", "you can call me Jo": the other speaker addressed about how to reach the user
CONTACT_VERBS = frozenset({"reach", "contact", "call", "email", "text", "ring", "message", "find", "use"})
THING_PRONOUNS = frozenset({"it", "this", "that", "there", "which", "what", "everything", "nothing", "something", "anything", "these", "those"})
WRONG_WORDS = frozenset({"wrong", "mistaken", "incorrect"})
# where someone is rather than whom they work for: "work in the city centre", "in the office on Mondays"
PLACE_NOUNS = frozenset(
    {"city", "town", "centre", "center", "area", "office", "field", "sector", "industry", "country", "region", "village",
     "suburb", "countryside", "capital", "north", "south", "east", "west", "middle", "same", "home", "world", "place"}
)
# entity types that name places and times, never a person a claim can be about
PLACE_ENTITIES = frozenset({"GPE", "LOC", "FAC", "DATE", "TIME", "EVENT"})
# the gender a kinship or role noun carries, for "he"/"she" (a name or "partner" agrees with either)
PRONOUN_GENDER = {"he": "m", "she": "f"}
NOUN_GENDER = {
    **dict.fromkeys("mum mom mother mam mommy mummy sister daughter wife girlfriend gf aunt auntie niece grandma gran granny "
                    "nan nana grandmother stepmum stepmom stepdaughter wifey fiancee fiancée landlady".split(), "f"),
    **dict.fromkeys("dad father daddy brother son husband boyfriend bf uncle nephew grandad granddad grandpa grandfather "
                    "stepdad stepson hubby fiance fiancé landlord".split(), "m"),
}
# verbs of the mind that, negated with "can't", frame a reaction to a clause: "can't believe I paid that"
REACTION_VERBS = frozenset({"believe", "imagine", "remember", "recall", "think", "say", "tell", "decide"})


def first_person(text: str) -> bool:
    """Whether ``text`` has a word of the first person (I, my, we, ours…)."""
    return bool(re.search(r"(?i)\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|our|ours|ourselves|us)\b", text))


# what one holds for good once got: "finished my masters", "got my citizenship", "passed my driving test"
QUALIFICATIONS = frozenset("degree masters master phd doctorate diploma apprenticeship citizenship licence license "
                           "qualification certificate certification residency".split())
# what one has had for good: "had a heart attack", "had a stroke", "had surgery"
MEDICAL_EVENTS = frozenset("attack stroke surgery operation op transplant stent bypass seizure miscarriage replacement "
                           "mastectomy hysterectomy appendectomy vasectomy".split())
# verbs of getting a thing, and of acquiring one by its make: "took a job at", "picked up a secondhand leaf"
# verbs that begin something that then goes on: "opened a salon", "started a masters", "took up bonsai"
BEGINNING_VERBS = frozenset({"start", "begin", "open", "launch", "found", "establish", "set", "take"})
GETTING_VERBS = frozenset({"take", "get", "accept", "start", "land", "find", "begin", "have", "sign", "rent", "buy", "share"})
ACQUIRING_VERBS = frozenset({"pick up", "lease", "collect", "order", "purchase", "own"})
