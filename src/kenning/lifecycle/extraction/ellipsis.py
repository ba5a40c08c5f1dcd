"""What chat leaves out, put back before a clause is read: the subject ("moved to leeds last month" -> "I moved
…", "not doing bolt anymore" -> "I'm not doing …", "allergic to latex" -> "I'm allergic …"), the owner of a
relative ("wife's still working" -> "my wife's …"), and the statement inside a question asked only for effect
("did i tell you we're in Kelowna now?"). Sentences written as notes about the speaker are ``notes``.
"""

from __future__ import annotations

import re

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction import mood, places
from kenning.lifecycle.extraction.clauses import at_me, done_to_me, lived, manner_adverb, opener, restore
from kenning.lifecycle.extraction.reading import recurring
from kenning.lifecycle.extraction.parse import Sentence, Token, known_verb
from kenning.lifecycle.extraction.pieces import fronted_doing
from kenning.lifecycle.safety import HEALTH
from kenning.lifecycle.slots import DIETS, JOB, STATUSES
from kenning.lifecycle.lexicon import FOODS

_ENDED = re.compile(r"(?i)\bany\s?more\b|\bthese\s+days\b|\bnow\b")


def without_fillers(text: str) -> str:
    """ "yeah set it up" -> "set it up": interjections before a restored subject."""
    words = text.split()
    while words and words[0].lower().strip(",.!") in lx.CLAUSE_ADVERBS and len(words) > 1:
        words.pop(0)
    return " ".join(words)


def as_meant(sent: Sentence, piece: str) -> str | None:
    """The clause as meant, when chat left words out or wrapped it in a question, or None:
    "did i tell you we're in Kelowna now?" -> "we're in Kelowna now"; "wife's still working" -> "my wife's still
    working"; "not doing bolt anymore" -> "I'm not doing bolt anymore"."""
    inner = mood.told(sent)
    if inner:
        return inner
    mark = fronted_doing(sent)
    if mark is not None and not any(t.dep in ("nsubj", "nsubjpass") for t in sent.tokens):
        # "since leaving the band": what the user did, said on the way to what is so now -> "I left the band"
        doing = next(c for c in sent.children(mark.i) if c.dep == "pcomp")
        rest = "".join(t.text + t.space for t in sent.tokens[doing.i + 1 :]).strip()
        return f"I {past(doing)} {rest}".strip()
    the = _household(sent)
    if the is not None:  # "the daughter's getting married": the speaker's own daughter
        at = sent.offset(the.i)
        return f"{piece[:at]}my{piece[at + 3:]}" if piece[at : at + 3].lower() == "the" else None
    kin = _bare_relative(sent)
    if kin is not None:
        at = sent.offset(kin.i)
        return f"{piece[:at]}my {piece[at:]}" if piece[at : at + len(kin.text)] == kin.text else None
    if _left_state(sent) or _bare_quality(sent) or _measured_state(sent):
        return f"I'm {without_fillers(piece)}"
    food = _no_food(sent)
    if food is not None:  # "still no red meat though", "no pork for me": what the speaker does not eat
        return f"I don't eat {food}"
    condition = _bare_condition(sent)
    if condition is not None:  # "coeliac.", "asthmatic", "type 1 diabetic btw": what the speaker is, said alone
        said, rest = condition
        last = said.split()[-1].lower()
        verb = "I'm" if last in _DIET_WORDS or last in _STATUS or _is_adjective(sent, said) else "I have"
        return f"{verb} {said}{rest}"
    if _back_at(sent):  # "back to oats every morning now", "up at 4.30 every day": "I'm" left out
        return _i_am(piece)
    kind = _bare_kind(sent)
    if kind is not None:  # "not a coffee person at all", "huge fan of jazz": what sort of person, "I'm" left out
        said = any(c.dep == "det" for c in sent.children(kind.i)) or without_fillers(piece).lower().startswith("not ")
        return _i_am(piece, article=not said)
    fronted = _fronted_object(sent)
    if fronted is not None:  # "the old volvo i sold to my brother in law": what was sold, said first
        noun, verb, subj = fronted
        np_words = "".join(t.text + t.space for t in sent.tokens[min(sent.subtree(noun.i)) : subj.i]).strip()
        rest = "".join(t.text + t.space for t in sent.tokens[verb.i + 1 :]).strip()
        return f"I {verb.text} {np_words} {rest}".strip()
    trade = _trade_here(sent)
    if trade is not None:  # "dental hygienist here 🦷": who is speaking, by trade
        return f"I'm {_article(trade)} {trade}"
    if _bare_job(sent):  # "line cook at a bbq spot in midtown": a job, "I'm a" left out
        rest = without_fillers(piece)
        return f"I'm {_article(rest)} {rest}"
    if _verb_read_as_noun(sent) or _life_verb_read_as_noun(sent):  # "commute from ashford to …", "hate coriander."
        return f"I {without_fillers(piece)}"
    when = _bare_time(sent)
    if when is not None:  # "weekends play badminton": when, with the "I" left out
        at = sent.offset(when.i + 1)
        return f"{piece[:at]}I {piece[at:]}" if piece[at - len(when.text) - len(when.space) : at].strip() == when.text else None
    return None


def _article(rest: str) -> str:
    return "an" if rest[:1].lower() in "aeiou" else "a"


def _i_am(piece: str, *, article: bool = False) -> str:
    """ "I'm" (and an article when asked) put before a verbless note, its first letter lowered: "Back on nights" ->
    "I'm back on nights", "huge fan of jazz" -> "I'm a huge fan of jazz"."""
    rest = without_fillers(piece)
    rest = f"{rest[:1].lower()}{rest[1:]}"
    return f"I'm {_article(rest)} {rest}" if article else f"I'm {rest}"


def _verbless(sent: Sentence, *, modifiers: bool = False) -> bool:
    """No verb in the piece; with ``modifiers``, a participle describing a noun ("a battered old brompton") is none."""
    return not any((t.pos in ("VERB", "AUX") or t.tag.startswith("VB")) and not (modifiers and t.dep == "amod") for t in sent.tokens)


def _fronted_object(sent: Sentence) -> tuple[Token, Token, Token] | None:
    """(the noun, the verb, its subject) of a noun said first and what the speaker did with it after ("the old volvo i sold to my
    brother in law"): the parser's relative clause on the noun, "I" its subject, no object of its own, and the noun
    the subject of nothing."""
    first = opener(sent)
    if first is None:
        return None
    noun = sent.tokens[first.head] if first.dep in ("det", "poss", "amod", "compound") else first
    if noun.pos not in ("NOUN", "PROPN") or noun.dep in ("nsubj", "nsubjpass", "dobj", "pobj", "attr"):
        return None
    verb = next((c for c in sent.children(noun.i) if c.dep == "relcl" and c.lemma in lx.TAKES_A_THING), None)
    if verb is None or verb.tag != "VBD":
        return None
    kids = sent.children(verb.i)
    subj = next((c for c in kids if c.dep == "nsubj"), None)
    if subj is None or subj.lower not in ("i", "we") or any(c.dep in ("dobj", "prt") or c.tag in ("WDT", "WP") or c.lower == "that" for c in kids):
        return None
    return noun, verb, subj


def _trade_here(sent: Sentence) -> str | None:
    """The job in a verbless "<job> here" ("dental hygienist here", "farrier here 👋"), as written, or None: the
    head noun has the shape of a job (``slots.JOB``), with no article or owner (not "the nurse here")."""
    words = [t for t in sent.tokens if t.pos not in ("PUNCT", "SYM", "INTJ", "X") and t.lower not in lx.CLAUSE_ADVERBS]
    if len(words) < 2 or len(words) > 4 or words[-1].lower != "here" or not _verbless(sent):
        return None
    job = words[:-1]
    if job[-1].pos != "NOUN" or not re.fullmatch(JOB, job[-1].lower) or any(t.pos not in ("NOUN", "ADJ", "PROPN") for t in job):
        return None
    return " ".join(t.text for t in job)


def _bare_job(sent: Sentence) -> bool:
    """A note of the speaker's job with no verb and no article, and where it is: "line cook at a bbq spot in midtown"."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or not _verbless(sent) or root.pos != "NOUN" or not lx.JOB_WORD.fullmatch(root.lower):
        return False
    first = opener(sent)
    # where, said with it ("at a bbq spot"): not an echo of the other speaker's news ("Yoga teacher!!")
    return first is not None and first.pos in ("NOUN", "ADJ", "PROPN") and not any(
        c.dep in ("det", "poss") for c in sent.children(root.i)) and any(
        (c.dep == "prep" and c.lower in ("at", "in", "for", "with")) or (c.dep == "appos" and places.named_place(c))
        for c in sent.children(root.i)) and not any(t.lower in lx.SECOND_PERSON for t in sent.tokens)  # "…, albuquerque"


_WHERE_NOW = frozenset({"back", "up", "off", "out", "home", "away", "on"})


_KINDS_OF_PERSON = frozenset({"person", "fan", "lover", "type", "supporter", "fanatic", "addict", "nerd", "geek"})


def _bare_kind(sent: Sentence) -> Token | None:
    """The head of a verbless note of what sort of person the speaker is: "not a coffee person at all", "huge
    fan of jazz", "a morning person" (a modifier or "of" says which sort), or None."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or not _verbless(sent) or root.lemma not in _KINDS_OF_PERSON or any(t.lower in lx.SECOND_PERSON for t in sent.tokens):
        return None
    kids = sent.children(root.i)
    if any(c.dep == "poss" or c.lower == "what" for c in kids):
        return None  # "my kind of person", "what a lovely person"
    return root if any(c.dep in ("compound", "nmod") or (c.dep == "prep" and c.lower == "of") for c in kids) else None  # not "big fan"


def _back_at(sent: Sentence) -> bool:
    """A verbless clause opening with an adverb of where one is ("back", "up", "off", "out") and a preposition
    with its object: "back to oats every morning now", "up at 4.30 every day", "off on thursdays", "out of
    the office till monday" (what the speaker is, "I'm" left out)."""
    first = opener(sent)
    if first is None or first.lower not in _WHERE_NOW or not _verbless(sent) or first.i + 2 >= len(sent.tokens):
        return False
    if first.lower == "on":  # "already on cetirizine every day", "on nights this month": what the speaker is on
        obj = next((c for c in sent.children(first.i) if c.dep == "pobj"), None)
        return obj is not None and obj.pos in ("NOUN", "PROPN") and obj.lemma not in lx.TIME_NOUNS and obj.ent not in ("DATE", "TIME") and not any(
            c.dep in ("det", "poss") for c in sent.children(obj.i))
    prep = sent.tokens[first.i + 1]
    if prep.lower == "to" and first.lower != "back":
        return False  # "off to bed", "up to my eyes": a going, or an idiom
    return prep.pos == "ADP" and prep.head == first.i and any(c.dep == "pobj" and c.pos != "PRON" for c in sent.children(prep.i))


def _verb_read_as_noun(sent: Sentence) -> bool:
    """A verbless note opening with a word the lemmatiser knows as a verb, a preposition or an object after it
    and a repeating time ("commute from ashford to maidstone every day"): the "I" left out of a habit."""
    first = opener(sent)
    if first is None or not _verbless(sent) or first.pos != "NOUN" or first.dep != "ROOT" or not known_verb(first.lower):
        return False
    return any(t.lower in lx.HABITUAL for t in sent.tokens) and any(c.dep in ("prep", "dobj", "npadvmod") for c in sent.children(first.i))


_ANNOUNCING = frozenset({"update", "updates", "news", "stuff", "wise", "chat", "question", "thing", "things", "front"})


def _life_verb_read_as_noun(sent: Sentence) -> bool:
    """A verbless piece opening with a verb of what the speaker does or likes (``lexicon.LIFE_VERBS``) that the
    tagger read as a noun before another ("hate coriander.", "adore cats"): the "I" left out."""
    first = opener(sent)
    if first is None or not _verbless(sent, modifiers=True) or first.pos != "NOUN" or first.lower not in lx.LIFE_VERBS:
        return False
    if first.i != next((t.i for t in sent.tokens if t.pos not in ("PUNCT", "INTJ") and t.lower not in lx.CLAUSE_ADVERBS), -1):
        return False
    rest = [t for t in sent.tokens if t.i > first.i and t.pos not in ("PUNCT", "SYM")]
    if not rest or any(t.dep in ("nsubj", "nsubjpass") for t in sent.tokens):
        return False
    if len(rest) == 1 and rest[0].lower in _ANNOUNCING:
        return False  # "work update, …", "gym news": a heading for what follows
    # "commute by bike on a brompton", "work at the depot": a preposition after a verb of doing (never after one of
    # liking: "love for my kids" is no claim)
    return rest[0].pos in ("NOUN", "PROPN", "ADJ", "DET", "PRON") or rest[0].pos == "ADP" and first.lower not in lx.LIKING_VERBS


def _bare_time(sent: Sentence) -> Token | None:
    """A time of the week or day said bare, as the subject of a verb other than "be", opening the clause:
    "weekends play badminton", "mornings walk the dog" (not "weekends are busy")."""
    first = opener(sent)
    if first is None or first.dep != "nsubj" or first.tag != "NNS" or first.lemma not in lx.TIME_NOUNS or sent.children(first.i):
        return None
    return first if sent.tokens[first.head].pos == "VERB" and sent.tokens[first.head].lemma != "be" else None


_FOOD = re.compile(rf"(?i)^(?:{FOODS})$")
_CONDITION = re.compile(rf"(?i)^(?:{HEALTH}|{DIETS})$")
_STATUS = frozenset(STATUSES.split("|"))  # what a person is, to others
_DIET_WORDS = frozenset(w.lower() for w in re.findall(r"[a-z]+", DIETS) if len(w) > 3)  # the words of the diet pattern
_MAX_CONDITION = 3  # words: "type 1 diabetic", "achilles tendonitis"


def _no_food(sent: Sentence) -> str | None:
    """The food a verbless "no <food>" piece names ("still no red meat though", "no pork for me"), as written,
    or None: only foods that make a diet (``lexicon.FOODS``), and only for the speaker ("no fish for the kids"
    is the kids')."""
    if not _verbless(sent):
        return None
    no = next((t for t in sent.tokens if t.lower == "no" and t.dep == "det"), None)
    food = sent.tokens[no.head] if no is not None else None
    if food is None or not _FOOD.match(food.lower) or food.i < no.i:
        return None
    after = [t for t in sent.tokens if t.i > food.i and t.pos not in ("PUNCT", "SYM") and t.lower not in lx.CLAUSE_ADVERBS]
    if after and not (len(after) == 2 and after[0].lower == "for" and after[1].lower == "me"):
        return None
    return " ".join(t.text for t in sent.tokens[no.i + 1: food.i + 1])


def _bare_condition(sent: Sentence) -> tuple[str, str] | None:
    """A piece that is only a health condition, a diet or a status, no verb and nothing else but fillers: "coeliac.",
    "asthmatic", "type 1 diabetic" (its words, as written), or None. A lone word that names no condition
    ("fun.", "sorted") is a reaction, not a quality. With what a comma adds to it: ("strictly vegetarian", ", no
    eggs")."""
    comma = next((t.i for t in sent.tokens if t.text == ","), len(sent.tokens))
    words = [t for t in sent.tokens[:comma] if t.pos not in ("PUNCT", "INTJ", "SYM") and t.lower not in lx.CLAUSE_ADVERBS]
    degree = words[0] if words and words[0].pos == "ADV" and words[0].lower.endswith("ly") else None  # "strictly vegetarian"
    core = words[1:] if degree is not None else words
    # "strictly vegan": no verb; "divorced, two kids": a status, not what was done
    misread = core and core[-1].pos == "VERB" and (not known_verb(core[-1].lower) or core[-1].lower in _STATUS)
    if not core or len(core) > _MAX_CONDITION or any(t.pos in ("VERB", "AUX", "PRON", "DET", "ADP", "PROPN", "ADV") for t in (core[:-1] if misread else core)):
        return None
    if not _CONDITION.match(core[-1].lower) and core[-1].lower not in _STATUS:
        return None
    # what follows a comma says more of it ("strictly vegetarian, no eggs"), when it is no clause of its own
    after = sent.tokens[comma + 1 :]
    if any(t.pos in ("VERB", "AUX") for t in after) or any(t.pos == "VERB" and t.i != core[-1].i for t in sent.tokens[:comma]):
        return None
    rest = "".join(t.text + t.space for t in after).strip()
    return " ".join(t.text for t in words), f", {rest}" if rest else ""


def _is_adjective(sent: Sentence, said: str) -> bool:
    """Whether a condition's last word is one a person is ("asthmatic", "pregnant") rather than has ("asthma"):
    the tagger's adjective, or an adjective's ending the tagger missed on a lone word ("coeliac." as a noun)."""
    last = next((t for t in reversed(sent.tokens) if t.text == said.split()[-1]), None)
    return last is not None and (last.pos == "ADJ" or last.lower.endswith(("ic", "ant", "ive")))


def _bare_quality(sent: Sentence) -> bool:
    """A clause that is an adjective and what it is about, nothing before it: "allergic to latex", "scared of
    heights", "married to a kiwi" (a quality of the speaker's, the subject left out)."""
    first = opener(sent)
    state = first is not None and first.tag == "VBN" and first.lower in lx.STATE_PARTICIPLES  # "obsessed w matcha"
    if first is None or (first.pos != "ADJ" and not state) or first.dep != "ROOT" or first.lower in lx.FEELINGS:
        return False
    return first.i == next((t.i for t in sent.tokens if t.pos not in ("PUNCT", "INTJ")), -1) and any(
        c.dep == "prep" for c in sent.children(first.i))


def _measured_state(sent: Sentence) -> bool:
    """A verbless state measured in time, opening the clause: "14 months sober today", "5 months pregnant",
    "3 weeks postpartum" (the speaker's, "I'm" left out)."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    first = opener(sent)
    if root is None or first is None or root.pos != "ADJ" or not _verbless(sent) or root.lower in lx.FEELINGS:
        return False
    span = [c for c in sent.children(root.i) if c.dep == "npadvmod" and any(g.pos == "NUM" for g in sent.children(c.i))]
    return bool(span) and first.pos == "NUM" and first.head == span[0].i


def _bare_relative(sent: Sentence) -> Token | None:
    """The subject of a clause when it is a relative or someone in the user's life named by a bare noun, with
    no article or owner, opening the clause: "wife's still working", "mama is flying in from iloilo"."""
    first = opener(sent)
    if first is None or first.dep not in ("nsubj", "nsubjpass") or first.pos not in ("NOUN", "PROPN"):
        return None
    if first.lower not in lx.PERSON_NOUNS and first.lemma not in lx.PERSON_NOUNS | lx.KIN_NAMES:
        return None
    return None if any(c.dep in ("det", "poss", "compound", "amod") for c in sent.children(first.i)) else first


def _household(sent: Sentence) -> Token | None:
    """The "the" of a clause opening with a member of the speaker's household as its subject: "the wife does
    the books", "the kids love it"."""
    first = opener(sent)
    if first is None or first.lower != "the" or first.head == first.i:
        return None
    noun = sent.tokens[first.head]
    return first if noun.dep in ("nsubj", "nsubjpass") and noun.lower in lx.HOUSEHOLD else None


def _left_state(sent: Sentence) -> bool:
    """A clause opening with "not" and a verb in -ing, a place or a quality, that it says is over:
    "not doing the food bank saturdays anymore", "not on twitch any more"."""
    first = opener(sent)
    if first is None or first.lower != "not" or first.i + 1 >= len(sent.tokens):
        return False
    after = sent.tokens[first.i + 1]
    return (after.tag == "VBG" or after.pos in ("ADP", "ADJ")) and bool(_ENDED.search(sent.text))


def dropped_subject(sent: Sentence) -> str:
    """The subject chat dropped from a clause opening with a verb: "moved to…" -> "I", "heading out…" ->
    "I'm", "might quit…" -> "I"; "" when the clause does not open with a finite or progressive verb."""
    first = opener(sent)
    if first is None or first.i != next((t.i for t in sent.tokens if t.pos not in ("PUNCT", "INTJ") and t.lower not in lx.CLAUSE_ADVERBS and not manner_adverb(t)), -1):
        return ""
    if any(t.lemma in lx.WEATHER_VERBS and t.pos == "VERB" for t in sent.tokens[first.i : first.i + 3]):
        return ""  # "been raining since 6": the weather, whose subject is "it"
    if done_to_me(sent, first) and first.tag != "VB":
        return ""  # "was making me very cranky", "drives me mad": said of something, not by the speaker
    if first.tag == "VBG":
        return restore("I", first)
    habit = any(t.lower in lx.HABITUAL for t in sent.tokens) or recurring(sent.tokens)  # "do crossfit like 4 times a week"
    if first.tag in ("VB", "VBP") and habit and "please" not in {t.lower for t in sent.tokens} and not at_me(sent):
        return "I"  # "cycle to work every day now": a habit, not an order
    if lived(sent.tokens):
        return "I"  # "drive a corsa van": what the speaker does, the "I" left out
    if first.tag == "VBZ":
        return ""  # "needs decent driver support": about the thing named before, not the user
    if first.tag == "VBN" and first.lower in ("been", "done", "gone", "had", "got", "seen"):
        return restore("I", first)  # "been up since 4"
    if first.tag in ("VBD", "VBN") or (first.tag == "MD" and first.lower not in ("can", "could", "would", "will")):
        return "I"
    return ""


_AGENT = re.compile(r"(?:er|or|ist|ian|ant|ent)$")  # the endings of a noun for who someone is: "carver", "pharmacist"


def noun_read_as_verb(sent: Sentence) -> bool:
    """Whether the word after "I"/"we" is read as a present-tense verb the lexicon knows no verb of ("I carver in
    Iqaluit", "I lactose intolerant"): a noun or adjective a restored subject was put in front of."""
    toks = sent.tokens
    for t in toks[:-1]:
        if t.dep == "nsubj" and t.lower in ("i", "we"):
            nxt = toks[t.i + 1]
            after = toks[nxt.i + 1] if nxt.i + 1 < len(toks) else None
            acts = after is not None and after.pos == "ADP" and not _AGENT.search(nxt.lower)  # "I bartend at the anchor": a verb
            return nxt.tag in ("VBP", "VB") and nxt.pos == "VERB" and nxt.lower.isalpha() and not known_verb(nxt.lemma) and not known_verb(nxt.lower) \
                and not acts
    return False


def past(verb: Token) -> str:
    """The simple past of a verb given in -ing or any form: "leaving" -> "left", "switching" -> "switched",
    "stopping" -> "stopped", "moving" -> "moved", "studying" -> "studied"."""
    lemma = verb.lemma.lower()
    if lemma in lx.IRREGULAR_PAST:
        return lx.IRREGULAR_PAST[lemma]
    if verb.lower.endswith("ing") and len(verb.lower) > 5 and verb.lower[-4] == verb.lower[-5] and verb.lower[-4] not in "aeiouls":
        return verb.lower[:-3] + "ed"  # "stopping" -> "stopped": the doubled consonant is in the -ing form already
    if lemma.endswith("e"):
        return lemma + "d"
    if lemma.endswith("y") and len(lemma) > 2 and lemma[-2] not in "aeiou":
        return lemma[:-1] + "ied"
    return lemma + "ed"
