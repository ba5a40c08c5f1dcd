"""Chat orthography made standard before parsing: "im" -> "I'm", "i" -> "I", "dont" -> "don't", "u" -> "you".

The parser was trained on edited text; lowercase "i" and apostrophe-less
contractions are read as nouns or foreign words. Only unambiguous chat
spellings are rewritten ("ill", "wont", "id", "were" are English words).
Leading and trailing fillers ("tbh", "lol", "haha") are dropped from clauses.
"""

from __future__ import annotations

import re

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.memo import text_cache

_WORDS = {
    "i": "I", "im": "I'm", "ive": "I've", "i'm": "I'm", "i've": "I've", "i'd": "I'd", "i'll": "I'll",
    "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "cant": "can't", "couldnt": "couldn't",
    "wouldnt": "wouldn't", "shouldnt": "shouldn't", "isnt": "isn't", "wasnt": "wasn't", "arent": "aren't",
    "havent": "haven't", "hasnt": "hasn't", "weve": "we've", "youve": "you've", "theyve": "they've", "werent": "weren't", "wont": "won't",
    "whos": "who's", "wouldve": "would've", "couldve": "could've", "shouldve": "should've", "theyre": "they're", "youre": "you're", "thats": "that's", "hes": "he's", "shes": "she's",
    "whats": "what's", "u": "you", "ur": "your", "pls": "please", "plz": "please", "thx": "thanks",
    "gonna": "going to", "wanna": "want to", "gotta": "have to", "cuz": "because", "coz": "because", "bc": "because",
    "b/c": "because", "w/": "with", "w": "with", "ppl": "people", "abt": "about", "rn": "right now", "tmrw": "tomorrow", "tmr": "tomorrow",
}
_WORD = re.compile(r"(?<![\w'])(" + "|".join(re.escape(w) for w in sorted(_WORDS, key=len, reverse=True)) + r")(?![\w'])", re.I)
FILLERS = r"hiya|heya|hii+|heyy+|yo|howdy|tho|tbh|lol|lmao|haha+|hehe+|ngl|imo|imho|fyi|btw|xx+|x|:\)|:\(|:D|lol+|omg|jk|nah|yeah|yep|yup|meh|hmm+|ugh|i swear|i kid you not|no joke|not gonna lie"
_EDGE = re.compile(rf"(?i)^(?:(?:{FILLERS})\b[\s,.!]*)+|[\s,]*(?:\b(?:{FILLERS}))+[\s.!]*$")


# phrasal verbs that mean ending something, read as the plain verb reconciliation knows ("jacked in the job")
_PHRASAL = [
    (re.compile(r"(?i)\b(jack|pack)(ed|ing|s)?\s+in\b"), {"": "quit", "ed": "quit", "ing": "quitting", "s": "quits"}),
    (re.compile(r"(?i)\b(hand)(ed|ing|s)?\s+in\s+(?:my|our|his|her|their)\s+notice\s+(?:at|to|with)\b"), {"": "quit", "ed": "quit", "ing": "quitting", "s": "quits"}),
    (re.compile(r"(?i)\b(pull)(ed|ing|s)?\s+out\s+of\b"), {"": "left", "ed": "left", "ing": "leaving", "s": "leaves"}),
]
# smoking given up, said as chat says it: "40 days no cigarettes", "3 weeks off the fags now", "off the ciggies"
_SMOKES = r"(?:cigarettes|cigarette|fags|ciggies|ciggys|cigs|smokes|smoking|tobacco)"
_SMOKE_FREE = [
    (re.compile(rf"(?i)\b(?P<n>\d+|a|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?P<u>days?|weeks?|months?|years?)\s+(?:now\s+)?"
                rf"(?:no|off\s+the|without|free\s+of)\s+{_SMOKES}\b"), r"I quit smoking \g<n> \g<u> ago"),
    (re.compile(rf"(?i)\bI(?:'m|\s+am)\s+(?:now\s+)?off\s+the\s+{_SMOKES}\b"), "I've quit smoking"),
    (re.compile(rf"(?i)\b(?:off|quit|stopped|gave\s+up|packed\s+in)\s+the\s+{_SMOKES}\b"), "quit smoking"),
]
# asking for something to go unremembered, said as an idiom: read as the retraction verb the pointers know
# ("never mind the puppy", "don't remember that I work at Aldi", "please don't save my address")
_RETRACTING = re.compile(
    r"(?i)(?<![\w'])(?:never\s?mind|(?:do\s+not|don'?t)\s+(?:remember|save|store|record|keep|note(?:\s+down)?))(?=\s+(?:that|this|it|what|the|my|about|any|all)\b)"
)


# a short aside in brackets is commentary ("(lies)", "(deserved tbh)"), not a claim's words, unless it names
# (capitalised: "(Teams)", "(Fleetwood Mac)", "(the Otters)", "(Ada and Ebuka)") or says where from ("(from
# cebu originally)"): then it is an apposition, read as one
_NAMING_ASIDE = re.compile(
    r"\s*\(((?:from|in)\s+[^()\d]{1,22}|(?:the\s+)?[A-Z][\w-]*(?:(?:\s+|\s*,\s*|\s+(?:and|&)\s+)[A-Z][\w-]*){0,3})\)"
)
# "(i'm a delivery driver)", "(hes a barber)": an aside that is a clause of the speaker's own, or says what the one
# just named is, is said, not dropped
_OWN_ASIDE = re.compile(r"(?i)\s*\(((?:i|i'm|im|i've|ive|my|we|we're|were|our|he's|hes|she's|shes|they're|theyre)\s[^()]{3,100})\)"
                        r"(?P<end>\s*(?:[.!?]|$))?")
# "i live in antwerp right by the zoo (the sea lions wake me up i swear).": a clause in brackets that ends the
# sentence is a sentence of its own, not words of the claim before it
_CLAUSE_ASIDE = re.compile(r"\s*\(((?:[^()\s]+\s+){4,30}[^()\s]+)\)(?P<end>\s*(?:[.!?]+|$))")
_ASIDE = re.compile(r"\s*\((?:[^()\d]{0,24})\)|\s*\((?:lies|jk|lol|haha|sigh|ugh)[^()]*$", re.I)


# a square-bracketed span describes an attachment or an action ("[shares a photo of a bowl]", "[image]"):
# a note about the message, not the speaker's words
_ANNOTATION = re.compile(r"\s*\[[^\[\]]*\](?!\()|\s*\[[^\[\]]*$")


# thanks tacked on after a comma closes a request; it is not the clause's verb ("…for the Doha leg, thanks.")
_THANKS = re.compile(r"(?i),\s*(?:thanks|thank you|thx|ty|cheers)(?:\s+(?:so much|a lot|again))?(?=\s*(?:[.!?]|$))")
# relief said in passing is no verb of the clause: "standups are at 10 now thank god"
_THANK_GOD = re.compile(r"(?i),?\s*\bthank\s+(?:god|goodness|heavens|christ|fuck)\b,?(?=[\s.!?]|$)")
# a pseudo-cleft says a plain clause with emphasis: "what I actually do is volunteer…" -> "I actually volunteer…"
# "being a junior UX designer is way harder than I thought": a gerund subject says what the speaker is, then
# judges it; the judgement is split off ("I'm a junior UX designer. It is way harder …")
_BEING_A = re.compile(r"(?i)(?:^|(?<=[.!?,;]\s)|(?<=\bbut\s)|(?<=\band\s)|(?<=\bso\s)|(?<=\btbh\s)|(?<=\bhonestly\s))being\s+((?:an?|the)\s+[^.!?,;]{2,60}?)\s+(?:is|was|has\s+been)\s+")
_CLEFT = re.compile(r"(?i)\bwhat (I|we) (\w+ly )?do (?:is|'s) (?:to )?")

# a name's "'s" before a place or a state is "is", which the parser reads as a possessive: "our Ffion's at
# vet school" -> "our Ffion is at vet school" (never "'s been", "'s got": those are "has")
# words before "'s" that are no name or thing: "it's", "that's", "let's" are read right as they are
_NOT_NAMES = r"(?!(?i:let|it|that|he|she|what|there|here|who)['’])"
# a lowercase word coupled with the speaker as a subject is a person's name: "so dev and i split up", "me and kayla
# went our separate ways" (capitalised, the parser reads it as one)
_COUPLED = re.compile(r"(?:^|(?<=[.!?,;]\s)|(?<=\bso\s)|(?<=\band\s)|(?<=\bbut\s))(?:(?P<x>[a-z]{3,})\s+(?:and|n|&)\s+I\b"
                      r"|[Mm]e\s+(?:and|n|&)\s+(?P<y>[a-z]{3,})\b)")
_NOT_COUPLED = frozenset("you him her them us everyone everybody nobody somebody someone this that".split())


def _named(m: re.Match[str]) -> str:
    g = "x" if m.group("x") else "y"
    word = m.group(g)
    if word in _NOT_COUPLED or word in lx.PERSON_NOUNS or word in lx.KIN_NAMES:
        return m.group(0)  # "you and I", "mum and I": no name to mark
    a, b = m.start(g) - m.start(), m.end(g) - m.start()
    return m.group(0)[:a] + word.capitalize() + m.group(0)[b:]


# a child's age in brackets after a word typed in lowercase names that child: "mason (10) has travel soccer"
_AGED = re.compile(r"\b([a-z][a-z'-]{2,})(?=\s+\((?:1?\d)\))")


def _aged(m: re.Match[str]) -> str:
    word = m.group(1)
    if word in lx.PERSON_NOUNS or word in lx.KIN_NAMES or word in lx.HOUSEHOLD or word in _NOT_COUPLED:
        return word  # "my son (10)": a relation, not a name
    return word.capitalize()


_NOT_A_PLACE = r"(?<!\bto\s)(?<!\bat\s)(?<!\bfrom\s)(?<!\bround\s)"  # "at Tom's", "round Jo's": someone's place
_NAME_IS = re.compile(rf"{_NOT_A_PLACE}\b{_NOT_NAMES}([A-Z][a-z]+)['’]s"
                      r"(?=\s+(?:at|in|on|off|away|back|doing|going|getting|working|studying|living|from|with)\b"
                      r"|\s+\d{1,2}(?:\s+(?:now|today|next|this|in|on|and)\b|\s*[,.!;]|\s*$))"  # "Elin's 5 now": an age
                      # "Amara's the goalie": an owner comes before a noun, never before an article ("at Tom's the other day" is a place)
                      rf"|{_NOT_A_PLACE}\b([A-Z][a-z]+)['’]s(?=\s+(?:the|a|an)\s+(?!other\b|day\b|week\b))")

# a relative's or a pet's "'s" before a name or an article is "is": "Partner's Priya", "Dog's a kelpie called Tilly"
_KIN_IS = re.compile(r"(?i)\b(partner|wife|husband|missus|hubby|boyfriend|girlfriend|bf|gf|fiance|fiancee|son|daughter|"
                     r"mum|mom|dad|sister|brother|dog|cat|puppy|kitten|pup|horse|boss|landlord|landlady|flatmate|housemate|roommate|"
                     r"neighbour|neighbor|dentist|doctor|gp|manager|therapist|tutor)['’]s\s+"
                     r"(?=(?:a|an|some)\s|[A-Z][a-z]+\s*(?:[,.!?;(]|$|\s+(?:and|who|she|he|now|too)\b))")

# "the car's an old micra": "'s" before "a"/"an" is "is" (a possessive is followed by what is owned, never by
# "a"); only after an article or owner, as a bare "bike's a trek" already reads as the user's
_IS_A = re.compile(r"(?i)\b((?:the|my|our|his|her|their)\s+[a-z][\w-]*)['’]s\s+(?=(?:a|an)\s)")
# "budget's actually £1000 now", "rent's 850": a thing's "'s" before an amount is "is" (the parser reads an owner)
_IS_AMOUNT = re.compile(rf"{_NOT_A_PLACE}\b{_NOT_NAMES}([a-z][a-z-]{{2,}})['’]s\s+(?=(?:(?:actually|now|still|only|just|about|around)\s+)?[£$€]?\d+(?![\d,.]*(?:st|nd|rd|th)\b))")

# "car's gone": ended, said with "is" the parser reads as a possessive (not "she's gone to Spain")
_GONE = re.compile(rf"(?i)\b{_NOT_NAMES}([a-z]+)['’]s\s+gone\b(?!\s+(?:to|for|out|off|back|home|up|down|into|away|in|on|over|through|and)\b)")

# a formal request: "I should be grateful if you would always reply…" asks as "please" does
_GRATEFUL = re.compile(r"(?i)\bI(?:'d|\s+would|\s+should)\s+be\s+(?:most\s+|very\s+|so\s+|really\s+)?(?:grateful|obliged)\s+if\s+you\s+(?:would|could|can)\s+")

# emphasis in capitals ("allergic to kiwi AND avocado", "I'm NOT vegan") on a closed-class word: the parser
# reads a capitalised function word as a name. Acronyms that are also words ("IT", "US") stay as they are.
_FUNCTION = frozenset(
    "and or but not no never nor so too very really all both either neither only just even still also any none "
    "the a an of in on at to for with from by is are was were am be been do does did have has had can could will "
    "would should must may might".split()
)
_SHOUTED = re.compile(r"(?<![\w'])([A-Z]{2,})(?![\w'])")
# three or more words in capitals in a row are shouting ("WE GOT THE KEYS", "I PASSED MY TEST"): the parser
# reads each as a name, so the run is lowered ("I" stays); a lone word in capitals may be an acronym and stays
_SHOUTED_RUN = re.compile(r"(?<![\w'’])[A-Z][A-Z'’]*(?:[ ,]+[A-Z][A-Z'’]*){2,}(?![\w'’])")


def _quiet(m: re.Match[str]) -> str:
    w = m.group(1)
    if len(w) >= 4 and _dictionary_word(w):
        return w.lower()  # "i HATE coriander", "SUCH a tiny kitchen": a word said loudly, not an acronym ("NHS", "ICU")
    return w.lower() if w.lower() in _FUNCTION and w not in ("IT", "US", "AM", "IS", "AN", "DO", "ALL") else w


def _dictionary_word(word: str) -> bool:
    from kenning.lifecycle.extraction.parse import known_modifier_or_verb  # the lemmatiser's lists, loaded with the parser

    return known_modifier_or_verb(word)


# "doin", "pickin", "seein": a verb in -ing with its "g" dropped, when the dropped form is no word of its own
_DROPPED_G = re.compile(r"(?<![\w'])([a-z]{2,}in)(?:'|(?![\w']))")


def _g_back(m: re.Match[str]) -> str:
    from kenning.lifecycle.extraction.parse import known_verb, known_word

    w = m.group(1)
    stem = w[:-2]  # "doin" -> "do", "comin" -> "come", "gettin" -> "get"
    stems = {stem, f"{stem}e"} | ({stem[:-1]} if len(stem) > 2 and stem[-1] == stem[-2] else set())
    return f"{w}g" if not known_word(w) and any(known_verb(x) for x in stems) else m.group(0)




# "from now answer me in korean please.": a "please" closing a sentence is read as a noun ("korean please");
# said first, the parser reads the request it makes
_PLEASE_LAST = re.compile(r"(?i)(?P<body>(?:^|(?<=[.!?,;]\s))[^.!?,;\n]*?[a-z0-9'])[\s]+(?:please|pls|plz)(?=\s*(?:[.!?\n]|$))")


def _please_first(m: re.Match[str]) -> str:
    """A short clause of its own, not one joined on ("…, so nothing with lots of steps pls" stays)."""
    body = m.group("body")
    if not 3 <= len(body.split()) <= 10 or re.match(r"(?i)\s*(?:please|pls|plz|and|so|but|or|then|also|no|not)\b", body):
        return m.group(0)
    joined = list(_JOINER.finditer(body))
    if joined:  # "im vegetarian so no steak places please": the request is the last clause, not what it follows
        at = joined[-1].end()
        return f"{body[:at]}please {body[at:]}"
    return f"please {body[:1].lower()}{body[1:]}" if body[:2] != "I " else f"please {body}"


_JOINER = re.compile(r"(?i)(?<=\S)\s+(?:so|and|but|then)\s+(?=\S)")


# a word with a letter typed three or more times over: "hiii", "sooo", "goooood", "yesss"
# (never inside an address, a link or a handle: "www.", "aaa.bbb@…")
_STRETCHED = re.compile(r"(?<![\w.@/:])[A-Za-z]*([a-z])\1{2,}[A-Za-z]*(?![\w@/:]|\.\w)")
_RUN = re.compile(r"([a-z])\1{2,}")
_STRETCHED_GREETING = re.compile(r"(?i)(h|he)(i|y)\2{2,}")


def _unstretched(m: re.Match[str]) -> str:
    """The word a stretched word stands for, when the model's dictionary lists it with the run cut to two letters
    ("goooood" -> "good") or to one ("hiii" -> "hi", "sooo" -> "so"); the word as typed otherwise. A stretched
    greeting misleads the tagger ("hiii so dmitri and i …" was cut into two sentences)."""
    from kenning.lifecycle.extraction.parse import known_word  # the dictionary loads with the parser, only if needed

    word = m.group(0)
    greeting = _STRETCHED_GREETING.fullmatch(word)
    if greeting:
        return greeting.group(1) + greeting.group(2)  # "hiii", "heyyy": a greeting, which the tagger knows only as "hi"
    if re.fullmatch(FILLERS, word, re.IGNORECASE):
        return word  # "hmmm", "lolll", "xxx": chat's own words, read as they are
    for cut in (r"\1\1", r"\1"):
        short = _RUN.sub(cut, word)
        if len(short) > 1 and known_word(short, exact=True):  # never one letter: "zzz", "aaa" are no "z", "a"
            return short
    return word


@text_cache
def normalise(text: str) -> str:
    """``text`` with chat spellings made standard; meaning and secrets' masks untouched."""

    def word(m: re.Match[str]) -> str:
        w = m.group(1)
        if w == "U" or (w.isupper() and len(w) > 1 and w.lower() not in ("im", "ive")):
            return w  # an acronym, not chat
        return _WORDS[w.lower()]

    text = _STRETCHED.sub(_unstretched, text)
    text = _SHOUTED_RUN.sub(lambda m: re.sub(r"\bi\b", "I", m.group(0).lower()), text)
    if any(c.islower() for c in text):  # a whole message in capitals is shouting, not emphasis on a word
        text = _SHOUTED.sub(_quiet, text)
    text = _WORD.sub(word, text)
    text = _DROPPED_G.sub(_g_back, text)
    text = _ANNOTATION.sub("", text)
    text = _THANKS.sub("", text)
    text = _THANK_GOD.sub("", text)
    text = _COUPLED.sub(_named, text)
    text = _AGED.sub(_aged, text)
    text = _NAME_IS.sub(_name_is, text)
    text = _GONE.sub(r"\1 is gone", text)
    text = _GRATEFUL.sub("please ", text)
    text = _KIN_IS.sub(lambda m: f"{m.group(1)} is ", text)
    text = _IS_A.sub(r"\1 is ", text)
    text = _IS_AMOUNT.sub(r"\1 is ", text)
    text = _BEING_A.sub(lambda m: f"I'm {m.group(1)}. It is ", text)
    text = _CLEFT.sub(lambda m: f"{m.group(1)} {m.group(2) or ''}", text)
    text = _NAMING_ASIDE.sub(lambda m: f", {m.group(1)},", text)
    text = _OWN_ASIDE.sub(lambda m: f". {m.group(1)}{m.group('end').strip() or '.'}" if m.group("end") is not None else f", {m.group(1)},", text)
    text = _CLAUSE_ASIDE.sub(lambda m: f". {m.group(1)}{m.group('end').strip() or '.'}", text)
    text = _ASIDE.sub("", text)
    text = _RETRACTING.sub("forget", text)
    for pattern, said in _SMOKE_FREE:
        text = pattern.sub(said, text)
    for pattern, forms in _PHRASAL:
        text = pattern.sub(lambda m: forms[(m.group(2) or "").lower()], text)
    text = _ITS.sub(lambda m: f"{m.group('v')} {m.group(3)}t's" if m.group("v") else f"{m.group(1)}t's", text)
    text = _FROM_NOW.sub(r"\1 on", text)
    text = _PLEASE_LAST.sub(_please_first, text)
    text = _days(text)
    text = _NO_MORE.sub(lambda m: f"{m.group('lead')}I have no more {m.group('x')}", text)
    text = _AFRAID.sub("", text)
    text = _ILL.sub("I'll", text)
    text = _NOW_THAT.sub(lambda m: f"{m.group(1)}{'S' if m.group(2)[0] == 'N' else 's'}ince", text)
    text = _IT_CLEFT.sub(_uncleft, text)
    return re.sub(r"(?i)(^|[,;.!?]\s*)lets\b", lambda m: f"{m.group(1)}let's", text)


# "from now" opening a clause, as learners say "from now on": "from now answer me in korean" (not "two weeks from
# now", "from now till june")
# a contrastive cleft: "it's spurs i support, not arsenal" -> "i support spurs, not arsenal" (the value said first
# is the verb's object; read in that order the parse finds it)
_IT_CLEFT = re.compile(
    r"(?i)\bit['’]?s\s+(?P<x>(?:the\s+|my\s+|our\s+|a\s+)?[\w&'-]+(?:\s+[\w&'-]+)?)\s+(?:that\s+|who\s+)?(?P<s>i|we|i['’]?m|im|we['’]re)\s+"
    r"(?P<v>(?!(?:think|guess|reckon|mean|know|suppose|said|say|believe|feel|hope|swear|promise|bet|am|was|were|have|had|sure)\b)[a-z]+)"
    r"(?:(?P<rest>[^.!?;]*?)[\s,]+(?=not\s)|(?P<to>[^.!?;,]*?\s(?:to|with|of|for|about|from|on))(?=\s*(?:[.!?;,]|$)))")
# (or, after "I'm", with the preposition left at the end: "it's aspirin I'm allergic to" -> "I'm allergic to aspirin")


def _uncleft(m: re.Match[str]) -> str:
    if m.group("rest") is not None:
        return f"{m.group('s')} {m.group('v')}{m.group('rest')} {m.group('x')}, "
    if m.group("s").lower() in ("i", "we"):
        return m.group(0)  # "it's passion fruit I react to": a correction reads the value said after "it's"
    return f"{m.group('s')} {m.group('v')}{m.group('to')} {m.group('x')}"


# "ill" as chat spells "I'll": only where a verb follows that "ill" (sick) never takes ("ill be doing nights on my
# own", "ill have to ask"), never "ill health", "ill for a week"
_ILL = re.compile(r"(?<![\w'])ill(?=\s+(?:be|have|do|get|go|try|need|probably|just|never|definitely|see|let|call|text|send|ask|"
                  r"take|make|bring|check|look|pick|sort|book|come|keep|tell|start|stop|give|pop|ring|message)\b)")
# "now that" opening a clause says what is so, as "since" does: "now that I'm retired I finally have time …"
_NOW_THAT = re.compile(r"(?i)(^|[.!?,;]\s*|\b(?:and|so|but)\s+)(now\s+that)\b")
# "I'm afraid" said as "sadly", with nothing one is afraid of: "i've stepped back from the choir i'm afraid"
_AFRAID = re.compile(r"(?i)[\s,]*\bi['’]?m\s+afraid\b(?=\s*(?:[,.!?;]|$))")
# "wed" among days ("mon wed fri", "tues and wed nights", "on wed"): the tokenizer splits it as "we'd"
_ABBR_DAY = r"(?:mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)"
_WED = re.compile(r"(?i)\bwed\b")
_BEFORE_DAY = re.compile(rf"(?i)(?:\b{_ABBR_DAY}|\b(?:on|every|til|till|until|from|to|and)|&)[\s,/-]*$")
_AFTER_DAY = re.compile(rf"(?i)^\s*(?:[,/&-]|and\b|{_ABBR_DAY}\b|nights?\b|mornings?\b|evenings?\b|afternoons?\b|\d|[.!?]|$)")


def _days(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        if _BEFORE_DAY.search(text[max(0, m.start() - 12) : m.start()]) or _AFTER_DAY.match(text[m.end() : m.end() + 12]):
            return "weds" if m.group(0).islower() else "Weds"
        return m.group(0)

    return _WED.sub(one, text)


# "no more nights at least", "so no more nursery fees thank god": said without a verb, a thing the speaker has
# no longer: "I have no more nights", a denial (``denials``) that retires what named it ("User is on nights")
_NO_MORE = re.compile(
    r"(?i)(?P<lead>^|(?<=[.!?,;])\s*|\b(?:so|and|but|yay|finally)\s+)no\s+more\s+(?P<x>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)"
    r"(?=\s*(?:$|[.!?,;:)]|(?:at\s+least|thank\s+god|thankfully|for\s+me|for\s+us|either|ever|lol|haha|yay)\b|[^\w\s']))")
_FROM_NOW = re.compile(r"(?i)((?:^|[,;.!?]\s*)from\s+now)(?!\s+(?:on|till|until|to|through|onwards?)\b)(?=\s+[a-z])")

# "its" where no owner can stand: before a number, an article or an adverb of state ("its 07700 900872 now",
# "its actually 12", "its a white transit"), or a verb in -ing ("its raining again", "its doing my head in")
_ITS = re.compile(r"\b([Ii])ts(?=\s+(?:\d|[£$€]|(?:a|an|the|actually|now|still|just|only|not|been|gone|going|getting|really|so|too|[a-z]{2,}ing)\b))"
                  # after a verb of saying or thinking "its" opens what is said: "my mate reckons its sydney"
                  r"|\b(?P<v>reckon|reckons|reckoned|think|thinks|thought|say|says|said|guess|bet|swear|swears)\s+([Ii])ts\b")


def _name_is(m: re.Match[str]) -> str:
    if m.group(1):
        return f"{m.group(1)} is"
    from kenning.lifecycle.extraction.parse import known_word  # the model's word list; names are not in it

    return m.group(0) if known_word(m.group(2).lower()) else f"{m.group(2)} is"  # "Bike's a second hand Trek": a noun's


def trim(clause: str) -> str:
    """A clause without leading or trailing fillers ("tbh", "lol")."""
    return _EDGE.sub("", clause).strip() or clause


_ABBREVIATIONS = ("Dr", "Mr", "Mrs", "Ms", "Mx", "St", "Prof", "Sr", "Jr", "vs", "etc", "approx", "Mt", "Ave", "Rd", "No", "e.g", "i.e")
_SENTENCE_END = re.compile(
    "".join(rf"(?<!\b{re.escape(a)}\.)" for a in _ABBREVIATIONS if "." not in a)
    + r"(?<=[.!?…])[\"')\]]*\s+|\n+|(?<=[\U0001F300-\U0001FAFF])\s+(?=[A-Za-z])"
)


def sentences(text: str) -> list[str]:
    """``text`` cut after ., ! and ? (however the next word is cased), at line breaks and after emoji; a
    list's marker opening a line is dropped.

    The parser's own sentence boundaries need a capital letter after the stop, which chat rarely has.
    """
    cut = (_BULLET.sub("", s.strip()) for s in _SENTENCE_END.split(_enumerated(text)) if s)
    return [s for s in cut if any(ch.isalnum() for ch in s)]  # an emoji alone, as a list's marker, says nothing


def _enumerated(text: str) -> str:
    """``text`` with a list numbered inside a line ("1) I run a rehab 2) I'm vegan 3) I don't drive") put one
    item to a line: markers count on from 1 or a, at least two of them."""
    marks = list(_INLINE_MARK.finditer(text))
    numbers = [m.group(1).lower() for m in marks]
    firsts = [n for n in ("1", "a") if n in numbers]
    if not firsts:
        return text
    order = "123456789" if firsts[0] == "1" else "abcdefghi"
    run, want = [], 0
    for m, n in zip(marks, numbers):
        if want < len(order) and n == order[want]:
            run.append(m)
            want += 1
    if len(run) < 2:
        return text
    out, at = [], 0
    for m in run:
        out.append(text[at:m.start()].rstrip(" ,;") + "\n")
        at = m.end()
    return "".join(out) + text[at:]


_INLINE_MARK = re.compile(r"(?:(?<=\s)|(?<=^))([1-9](?=[.)])|[a-i](?=\)))[.)]\s+(?=\S)")


_BULLET = re.compile(r"^(?:[-*•·–—>]+|\d{1,2}[.)])\s+")  # a list's marker on a line: "- 38, tax manager", "2) cats"
