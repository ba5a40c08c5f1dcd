"""People a turn names, and whom a pronoun stands for: "my friend Marek", "Jo", "our neighbours"; "he" is the
last person named whose gender does not contradict it; "they" is a plural one. A name the tagger does not know
counts when it does something ("Marek moved back"); "they" with the user as its object is nobody to resolve
("they gave me the senior title": what was done to the user, ``done_to_user``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from kenning.lifecycle import slots
from kenning.lifecycle.extraction import addressee, attributes, corrections
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token, known_word, well_known_place

PRONOUN_SUBJECT = re.compile(r"(?i)^(?:\W*)(?:(?:so|and|but|then|plus|anyway|well)\W+)?(he|she|they)\b")
POSSESSIVE_LEAD = re.compile(r"(?i)^(?:\W*)(his|her|their)\s+(?=[a-z])")  # "his name is dave", "her school's in leith"
SUBJECT_OF = {"his": "he", "her": "she", "their": "they"}


_PRONOUNS = frozenset("she her hers herself him his himself they them their theirs themselves its itself who whom whose "
                      "which what that this these those someone somebody everyone everybody anyone nobody".split())


def lowercase_name(word: str) -> bool:
    """Whether a lowercase word is a name typed without its capital ("dev", "rory", "kasia"): no word the
    model's lexicon knows, no pronoun, relative or filler. Names that are also words ("sam", "will") are missed."""
    if not (word.isalpha() and word.islower() and len(word) >= 3) or word in _PRONOUNS:
        return False
    return not known_word(word) and word not in lx.PERSON_NOUNS and word not in lx.FILLER_WORDS \
        and word not in lx.CLAUSE_ADVERBS and word not in lx.SECOND_PERSON and word not in lx.KIN_NAMES


def died(sent: Sentence) -> bool:
    """A death said of a bare word ("waffles passed away in february", "biscuit died last night"): only a being
    dies, so the word is a name typed in lowercase (a pet's, a person's), however ordinary a word it is."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or not ((root.lemma == "die" and not any(c.dep == "prt" for c in sent.children(root.i))) or (root.lemma == "pass" and any(
            c.lower in ("away", "on") for c in sent.children(root.i)))):
        return False
    subj = next((c for c in sent.children(root.i) if c.dep == "nsubj"), None)
    return subj is not None and subj.pos in ("NOUN", "PROPN") and not any(sent.children(subj.i)) and subj.lower not in lx.PERSON_NOUNS


def named(sent: Sentence) -> list[str]:
    """Third parties a clause names, in order: "my dad", "Jo", "our neighbours"."""
    out, named = [], set()
    for t in sent.tokens:
        if t.i >= 2 and sent.tokens[t.i - 1].text == "-" and not sent.tokens[t.i - 2].space:
            continue  # "co-brother", "step-dad": the word is named by its first part
        poss = [c for c in sent.children(t.i) if c.dep == "poss" and c.lower in ("my", "our")]
        parts = _hyphened(sent, t)  # "my co-brother": the owner may hang on any part
        poss = poss or [c for g in parts for c in sent.children(g.i) if c.dep == "poss" and c.lower in ("my", "our")]
        kin = t.lemma in lx.PERSON_NOUNS or t.lower in lx.PERSON_NOUNS or bool(parts and parts[-1].lower in lx.PERSON_NOUNS)
        if poss and kin and _aside(sent, t):
            continue  # "we met at my cousin's wedding": the cousin only owns the place; "she" later is not them
        if poss and kin:
            name = attributes.name_beside(sent, t)
            out.append(f"{poss[0].text} {whole_word(sent, t)}" + (f" {name.text}" if name else ""))  # "my friend Marek"
            named |= {name.i} if name else set()
        elif t.lower in _BARE_KIN and (t.pos != "PROPN" or t.text.islower()) and t.dep in ("nsubj", "nsubjpass", "dobj") and not any(c.dep in ("det", "poss") for c in sent.children(t.i)):
            out.append(f"my {t.lower}")  # "visited dad at beechwood", "mum says hi": chat's bare kin word is the speaker's
        elif t.pos == "PROPN" and t.dep == "compound" and sent.tokens[t.head].pos == "NOUN":
            continue  # "is Harbin people", "the Tesco car park": a name modifying a noun names nobody "he" can be
        elif t.dep == "attr" and t.i not in named and (t.pos == "PROPN" or lowercase_name(t.text)) and (kin := _kin_subject(sent, t)):
            # "bf is jaz", "my husband is Tunde": the one just named, by name, is who "he" is next
            out = [o for o in out if o.lower() not in (f"the {kin.lower()}", f"my {kin.lower()}")]
            out.append(f"my {kin} {t.text[:1].upper()}{t.text[1:]}")
        elif t.pos == "PROPN" and t.i not in addressee.vocatives(sent) and t.i not in named and not _a_place(sent, t) and not any(
                c.dep == "det" and c.lower in ("a", "an") for c in sent.children(t.i)) and (
                t.ent == "PERSON" or ((not t.ent or _misread_place(t)) and t.dep == "nsubj" and t.text[:1].isupper() and t.lower != "user")):
            out.append(t.text[:1].upper() + t.text[1:])  # a name the tagger knows, or an unknown one doing something ("Marek moved back")
        elif t.dep == "nsubj" and t.tag in ("NN", "NNP") and t.i not in named and (t.lemma in lx.PERSON_NOUNS or t.lower in lx.PERSON_NOUNS) \
                and all(c.dep != "poss" and (c.dep != "det" or c.lower == "the") for c in sent.children(t.i)):
            out.append(f"the {t.text}")  # "the consultant bumped me up", "gp said …": who "she" is next
        elif t.dep == "dobj" and t.lower in lx.HOUSEHOLD and sent.tokens[t.head].lemma in ("have", "get") and any(
                c.dep == "det" and c.lower == "the" for c in sent.children(t.i)):
            out.append(f"my {t.text}")  # "i have the boys, they're 9 and 12": who "they" are next
        elif t.dep == "nsubj" and t.tag in ("NN", "NNP") and t.i not in named and lowercase_name(t.text) \
                and not any(c.dep == "det" for c in sent.children(t.i)):
            out.append(t.text)  # "rory was 6", "kasia is not happy": a name typed in lowercase (never "the citalopram")
        elif t.pos == "PROPN" and t.dep in ("appos", "npadvmod") and t.i > 0 and sent.tokens[t.i - 1].text == "," and _introduced(sent):
            out.append(t.text[:1].upper() + t.text[1:])  # "seeing someone new for a couple of months, aisha"
        elif _name_given(sent, t):
            out.append(t.text[:1].upper() + t.text[1:])  # "her name is ines": the one "she" stands for from here
    return out


_BARE_KIN = lx.KIN_NAMES | {"dad", "mum", "mom", "mother", "father"}  # said bare, as a name: "dad's in hospital"


def _kin_subject(sent: Sentence, t: Token) -> str:
    """The kin word ``t`` names after "is", with no article before ``t``: "jaz" in "bf is jaz" -> "bf"; else ""."""
    if sent.tokens[t.head].lemma != "be" or any(c.dep == "det" for c in sent.children(t.i)):
        return ""
    subj = next((c for c in sent.children(t.head) if c.dep == "nsubj"), None)
    if subj is None or not (subj.lemma in lx.PERSON_NOUNS or subj.lower in lx.PERSON_NOUNS):
        return ""
    return "" if any(c.dep == "poss" and c.lower not in ("my", "our") for c in sent.children(subj.i)) else subj.text


def _hyphened(sent: Sentence, t: Token) -> list[Token]:
    """The parts of the hyphened word ``t`` starts after the first ("co-brother" -> "-", "brother")."""
    out, j = [], t.i
    while j + 1 < len(sent.tokens) and not sent.tokens[j].space and (sent.tokens[j + 1].text == "-" or sent.tokens[j].text == "-"):
        j += 1
        out.append(sent.tokens[j])
    return out


def _misread_place(t: Token) -> bool:
    """A subject the recogniser calls a place that no table of places knows ("Kenji's going for a senior role"): a
    name, as far as anyone can tell."""
    return t.ent == "GPE" and not well_known_place(t.text) and not _LAUGH.fullmatch(t.text)  # never "Hahaha wet cardboard"


_LAUGH = re.compile(r"(?i)(?:ha|he|hi|lo)+[hl]?")


def _a_place(sent: Sentence, t: Token) -> bool:
    """A name joined to a place's name or the object of a preposition of place ("between Kaunas and Rotterdam",
    "lives near Austin", "vet med at Glasgow"): a place, whatever the recogniser calls it."""
    head = sent.tokens[t.head]
    if t.dep == "conj" and head.ent in ("GPE", "LOC"):
        return True
    if t.dep != "pobj":
        return False
    if head.lower in ("in", "between", "near", "outside", "around", "via"):
        return True
    # "at Glasgow", "from Nottingham": a place the table knows; never "at Gran's", "married to Kevin"
    return head.lower in ("to", "from", "at") and well_known_place(t.text)


def owner_named(piece: str, others: list[str]) -> str:
    """A clause opening with "his"/"her"/"their" with the owner named: "his name is dave" after "my husband" ->
    "my husband's name is dave"; the clause as it is when nobody named before can be the owner."""
    whose = POSSESSIVE_LEAD.match(piece)
    who = antecedent(SUBJECT_OF[whose.group(1).lower()], others) if whose and others else None
    if who is None or not (plural(who) if whose.group(1).lower() == "their" else _gendered(who)):
        return piece  # only someone whose gender (or number) is said: "her" after "diego" may be someone new
    return f"{piece[: whose.start(1)]}{who}'s {piece[whose.end(0):]}"


def _gendered(name: str) -> bool:
    return any(w in lx.NOUN_GENDER for w in name.lower().split())


def _introduced(sent: Sentence) -> bool:
    """Whether a clause brings in someone not yet named: "seeing someone new", "met a guy at work"."""
    return any(t.lower in ("someone", "somebody") or (t.lemma in lx.PERSON_NOUNS and any(
        c.dep == "det" and c.lower in ("a", "an") for c in sent.children(t.i))) for t in sent.tokens)


def _aside(sent: Sentence, t: Token) -> bool:
    """A person named only as the owner of where or when something was: "at my cousin's wedding" (not "a present
    for my dad's 70th", whom the present is for)."""
    owned = sent.tokens[t.head]
    return t.dep == "poss" and owned.dep == "pobj" and sent.tokens[owned.head].lower not in ("for", "about")


def _name_given(sent: Sentence, t: Token) -> bool:
    """The name a clause gives someone: "her name is ines", "his name's Tom" (read as "name's" owning the name;
    never the user's own)."""
    if t.dep == "attr" and sent.tokens[t.head].lemma == "be":
        name = next((c for c in sent.children(t.head) if c.dep == "nsubj"), None)
    else:
        name = next((c for c in sent.children(t.i) if c.dep == "poss" and c.lemma == "name"), None)
    return name is not None and name.lemma == "name" and any(c.dep == "poss" and c.lower in ("her", "his", "their") for c in sent.children(name.i))


def whole_word(sent: Sentence, t: Token) -> str:
    """The word ``t`` starts, hyphens and all: "mother-in-law", not "mother"."""
    parts = _hyphened(sent, t)
    j = parts[-1].i if parts else t.i
    return "".join(sent.tokens[i].text + (sent.tokens[i].space if i < j else "") for i in range(t.i, j + 1))


_MEMORY_PERSON = re.compile(r"^User's ((?:[a-z]+-)*[a-z]+(?:-[a-z]+)*)(?: ([A-Z][\w'-]+))?\b|^(?!(?:User|The|A|An|It|This|That|There|Standing)\b)([A-Z][a-z'-]+)\b(?!')")


def from_memory(text: str) -> str | None:
    """The person a memory about someone else opens with, as a turn would name them: "User's husband Alun has
    parkinson's" -> "my husband Alun", "Kuba is doing an ironman" -> "Kuba"; None for anything else."""
    m = _MEMORY_PERSON.match(text.strip())
    if m is None:
        return None
    if m.group(3):
        return m.group(3)
    noun = m.group(1)
    if noun not in lx.PERSON_NOUNS:
        return None
    return f"my {noun}" + (f" {m.group(2)}" if m.group(2) else "")


_SOMEONE = re.compile(r"(?i)\b(?:he|she|they|him|her|hers|his|them|their|theirs)\b|\b(?:hes|shes|theyre)\b")


def mentions_someone(text: str) -> bool:
    """Whether a turn says he, she or they (or their forms): only then can people named before it matter."""
    return bool(_SOMEONE.search(text))


def antecedent(pronoun: str, others: list[str], genders: Mapping[str, str] | None = None) -> str | None:
    """The person a subject pronoun stands for: the last one named whose gender does not contradict it ("my
    mum … since my dad passed, and she's 67": the mum). Names and ungendered nouns agree with either, unless
    ``genders`` gives a name's ("her boyfriend Marco": Marco is no "she")."""
    want = lx.PRONOUN_GENDER.get(pronoun.lower())
    for name in reversed(others):
        gender = next((lx.NOUN_GENDER[w] for w in name.lower().split() if w in lx.NOUN_GENDER), None)  # "my sister Crystal"
        gender = gender or (genders or {}).get(name) or want
        if want is None or gender == want:
            return name
    return None


def genders(sent: Sentence) -> dict[str, str]:
    """The gender of each name said beside a gendered kin word of someone's ("her boyfriend Marco", "Ana's
    husband Tiago", "my nephew ollie"): what "he" or "she" can stand for later."""
    out = {}
    for t in sent.tokens:
        if t.pos != "PROPN" and not lowercase_name(t.text):
            continue
        near = [sent.tokens[t.head]] if t.head != t.i else []
        near += [c for c in sent.children(t.i) if c.dep in ("compound", "appos", "nmod")]
        gender = next((lx.NOUN_GENDER[n.lower] for n in near if n.lower in lx.NOUN_GENDER), None)
        if gender is not None:
            out[t.text[:1].upper() + t.text[1:]] = gender
    return out


def plural(name: str) -> bool:
    """ "my parents", "my kids", "Jo and Sam": people "they" can stand for."""
    words = name.split()
    if "and" in (w.lower() for w in words):
        return True
    if len(words) > 1 and (words[-1][:1].isupper() or lowercase_name(words[-1])):
        words = words[:-1]  # "my son Idris": the kin word says how many, not the name ("Idris" ends in "s")
    last = words[-1].lower() if len(words) > 1 else ""
    return last.endswith("s") and not last.endswith("ss")


_FIRST_PERSON_OBJECTS = frozenset({"me", "us"})


def done_to_user(sent: Sentence) -> bool:
    """Whether a clause says what someone did to the user, with what or where: "they gave me the senior title",
    "they moved me to the Kyklades Express", "they put me on nights". Telling, thanking or a feeling
    ("they told me about it", "they drive me mad") is no such thing."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.pos != "VERB" or root.lemma in lx.SOCIAL_VERBS | lx.NEWS_VERBS | lx.REACTION_VERBS:
        return False
    kids = sent.children(root.i)
    if not any(c.dep in ("dobj", "dative") and c.lower in _FIRST_PERSON_OBJECTS for c in kids):
        return False
    return any((c.dep in ("dobj", "oprd") and c.pos in ("NOUN", "PROPN") and c.lower not in _FIRST_PERSON_OBJECTS)
               or (c.dep == "prep" and c.lower != "for") for c in kids)


def changed_mine(sent: Sentence) -> str | None:
    """A clause in which someone (anyone: "she", "they") sets one of the user's own things to a value, said as
    what happened to the thing: "she's upped my sertraline to 100mg" -> "my sertraline got upped to 100mg",
    "they moved my appointment to friday" -> "my appointment got moved to friday"; else None."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.pos != "VERB" or root.tag not in ("VBD", "VBN") or root.lemma in lx.SOCIAL_VERBS | lx.NEWS_VERBS | lx.REACTION_VERBS:
        return None
    kids = sent.children(root.i)
    obj = next((c for c in kids if c.dep == "dobj" and c.pos == "NOUN" and any(
        p.dep == "poss" and p.lower in ("my", "our") for p in sent.children(c.i))), None)
    to = next((c for c in kids if c.dep == "prep" and c.lower == "to" and c.i > root.i), None)
    if obj is None or to is None:
        return None
    value = [sent.tokens[i] for i in sent.subtree(to.i)]
    if not any(t.pos == "NUM" or corrections.shape(t.text) for t in value):
        return None  # "she's taken my car to the garage": no value the thing now has
    thing = "".join(sent.tokens[i].text + sent.tokens[i].space for i in sent.subtree(obj.i)).strip()
    after = "".join(t.text + t.space for t in sent.tokens[to.i :]).strip()
    return f"{thing} got {root.text} {after}"


_PLACED = {"on": "on", "onto": "on", "off": "off"}
_MOVED_TO = frozenset({"switch", "swap", "change"})  # "switched me to sertraline"; "moved me to Fridays" is a shift of a day


def placed_me(sent: Sentence) -> list[str]:
    """A clause in which someone else (a doctor, "they", a boss) puts the user on or takes the user off something,
    said as where the user is now: "she put me on sertraline" -> "I'm now on sertraline", "they took me off the
    amlodipine" -> "I stopped the amlodipine", "switched me off humira onto stelara" -> both, "they switched me
    to the fraud team" -> "I'm now on the fraud team"; else []. Taking the user somewhere ("took me
    to Bath") is an outing, not a place to be."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.pos != "VERB" or root.lemma in lx.SOCIAL_VERBS | lx.NEWS_VERBS | lx.REACTION_VERBS:
        return []
    kids = sent.children(root.i)
    if not any(c.dep == "nsubj" and c.lower not in lx.FIRST_PERSON_STARTS and c.lower not in lx.SECOND_PERSON for c in kids):
        return []
    if not any(c.dep == "dobj" and c.lower in _FIRST_PERSON_OBJECTS for c in kids):
        return []
    marks = [c for c in kids if c.i > root.i and ((c.dep == "prep" and (c.lower in _PLACED or (c.lower in ("to", "into") and root.lemma in _MOVED_TO)))
                                                  or (c.dep == "prt" and c.lower in ("on", "off")))]
    marks = [c for c in marks if any(g.dep == "pobj" for g in sent.children(c.i))]
    out = []
    for n, mark in enumerate(marks):
        stop = marks[n + 1].i if n + 1 < len(marks) else len(sent.tokens)
        rest = "".join(t.text + t.space for t in sent.tokens[mark.i + 1 : stop]).strip().rstrip(".!?,;").strip()
        rest = re.sub(r"(?i)(?:\s+(?:now|too|as well|also|either))+$", "", rest)
        if not rest or rest.lower() in ("it", "them", "that", "this", "those", "these"):
            continue  # "took me off it": what "it" is, the clause does not say
        out.append(f"I stopped {rest}" if _PLACED.get(mark.lower) == "off" else f"I'm now on {rest}")
    return out


def bare_kin(first: Token | None, sent: Sentence) -> bool:
    """A clause opening (``first``: its first word past fillers) with a relation noun and no owner or article:
    "missus is shaz", "hubby works nights"."""
    return (first is not None and first.dep in ("nsubj", "nsubjpass") and re.fullmatch(slots.RELATIONS, first.lower) is not None
            and not any(c.dep in ("det", "poss") for c in sent.children(first.i)))


_CONTRACTED = re.compile(r"^(?:'(re|ve)|['’](s)(?=\s+(been|got)\b)?)\b")


def spelt_out(rest: str, many: bool) -> str:
    """What follows a pronoun put back as a name, its contraction spelt out for that name: "'re" -> " are"/" is",
    "'ve" -> " have"/" has", "'s" -> " has" before "been"/"got" (else " is"): "she's a vet" -> "Ines is a vet"."""
    m = _CONTRACTED.match(rest)
    if m is None:
        return rest
    said = {"re": "are" if many else "is", "ve": "have" if many else "has"}.get(m.group(1) or "") or ("has" if m.group(3) else "is")
    return f" {said}{rest[m.end():]}"
