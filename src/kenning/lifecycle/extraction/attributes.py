"""Attributes: what a claim sets about someone, read off the parse, by the rows of ``rows.TABLE``.

``read`` finds, in one parsed third-person
claim ("User moved to Exeter", "User's team is Spurs", "User is a Spurs
fan"), the subject, the attribute and the value. Adding an attribute is one
row there; reconciliation then treats the same subject + same single-valued
attribute + another value as an update, whatever the wording.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kenning.lifecycle.extraction import beginnings, endings
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Parser, Sentence, Token, known_verb, known_word
from kenning.lifecycle.extraction.makes import by_make, made
from kenning.lifecycle.extraction.phrases import object_lemma
from kenning.lifecycle.extraction.phrases import phrase as _phrase
from kenning.lifecycle.extraction.phrases import verb_of as _verb
from kenning.lifecycle.extraction.roles import in_class, made_role, name_beside, roles as _roles, to_role
from kenning.lifecycle.extraction.rows import ANY, ANY_VALUE, NOUNS, STOPPED, TABLE, Attribute, Fact

__all__ = ["ANY", "ANY_VALUE", "NOUNS", "STOPPED", "TABLE", "Attribute", "Fact", "all_of_text", "name_beside", "of_text", "read",
           "read_all", "readings"]

_FAN_NOUNS = frozenset({"fan", "supporter", "follower"})
_FAN_PEOPLE = frozenset({"guy", "girl", "man", "woman", "lad", "lass", "boy", "gal"})


def _subject(sent: Sentence, root: Token) -> tuple[str, Token | None]:
    subj = next((c for c in sent.children(root.i) if c.dep in ("nsubj", "nsubjpass")), None)
    if subj is None:
        return "", None
    poss = next((c for c in sent.children(subj.i) if c.dep == "poss"), None)
    if subj.lemma == "user" or subj.lower in ("user", "i", "we"):
        return "user", subj
    if subj.lower == "you" and root.lemma in ("reach", "contact", "email", "call", "text", "message"):
        return "user", subj  # "You can reach the user on …": how to reach the user
    if poss is None and subj.pos == "PROPN" and subj.ent not in ("GPE", "LOC", "FAC", "ORG"):
        return subj.lower, subj  # "Marek moved back to Gdańsk": a named person's own attribute
    if poss is None and subj.lemma in _CONTACT and any(c.lower == "the" for c in sent.children(subj.i)):
        return "user", subj  # "the number is now …", "the business line is …": the speaker's own contact
    if poss is not None and poss.lemma in ("user", "my", "their", "our"):
        if subj.lemma in lx.PERSON_NOUNS:
            return subj.lemma, subj
        if any(c.dep == "compound" and c.lemma in lx.PERSON_NOUNS for c in sent.children(subj.i)):
            return subj.lower, subj  # "User's manager keiko is moving to tokyo": the person, named in lowercase
        return "user", subj  # "User's phone number …": the user's own attribute, named by the noun
    return "", subj


_CONTACT = frozenset(n for a in TABLE if a.shape for n in a.nouns)  # nouns of a row whose value has a shape
def read(sent: Sentence) -> Fact | None:
    """The first attribute one parsed claim sets, or None."""
    found = read_all(sent)
    return found[0] if found else None


def read_all(sent: Sentence) -> list[Fact]:
    """Every attribute one parsed claim sets, in table order: "User started as an associate at Kessler"
    sets the employer and the occupation."""
    found = [f for f in _read(sent) if not f.attribute.shape or re.search(f.attribute.shape, f.value)]
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    name = _name(sent, root) if found and root is not None else ""
    return [replace(f, name=name) for f in found] if name else found


def _name(sent: Sentence, root: Token) -> str:
    """The name of a claim's third-party subject: "Marek", or "Marek" in "User's friend Marek", lowercased."""
    subj = next((c for c in sent.children(root.i) if c.dep in ("nsubj", "nsubjpass")), None)
    if subj is None or subj.lemma == "user" or subj.lower in ("user", "i", "we"):
        return ""
    if subj.pos == "PROPN":
        return subj.lower
    named = name_beside(sent, subj)
    return named.lower if named is not None and subj.lemma in lx.PERSON_NOUNS else ""


def _read(sent: Sentence) -> list[Fact]:
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None) if sent.tokens else None
    if root is None:
        return []
    subject, subj = _subject(sent, root)
    off = endings.taken_off(sent, root, subject) or endings.called_off(sent, root, subject)
    if off is not None:  # "Dr Patel took the user off the amlodipine", "User's dentist got cancelled"
        row = next((a for a in TABLE if off.lemma in a.nouns), None)
        if row is not None:
            return [Fact("user", row, ANY_VALUE, True)]  # "User's car is gone": no car holds any more
        return [Fact("user", STOPPED, _phrase(sent, off), True)]
    lost = endings.lost(sent, root, subject)
    if lost is not None:  # "got laid off", "they let me go": whatever employer it was
        return [Fact("user", lost, ANY_VALUE, True)]
    changed = endings.changed_to(sent, root, subject)
    if changed is not None:  # "the landlord raised the rent to £720": whoever did it, the user's rent is new
        return [changed]
    roles = _roles(sent)
    made = made_role(sent, root)
    if made is not None:  # "they bumped me up to company stage manager": whoever did it, the user's job is new
        return [made]
    if not subject:
        return roles
    must = next((c for c in sent.children(root.i) if c.dep == "xcomp" and c.pos == "VERB"), None) if root.lemma == "have" else None
    if must is not None and any(g.dep == "aux" and g.lower == "to" for g in sent.children(must.i)):
        root = must  # "had to rehome Rolo", "have to sell the car": the verb after "have to" is what was done
    verb = _verb(sent, root)
    ending = verb in lx.ENDING_VERBS
    negated = ending or any(t.dep == "neg" or t.lower in ("never", "longer") for t in sent.tokens)
    kids = sent.children(root.i)
    # "moved back to Gdańsk", "went home to Cork": the parser hangs the place on the adverb
    kids += [g for c in kids if c.dep == "advmod" and c.lower in ("back", "home", "over", "away", "out", "through", "up", "down", "across")
             for g in sent.children(c.i) if g.dep == "prep"]  # "moved through to glasgow", "moved down to London"
    # "moved in with my girlfriend in walthamstow", "live with my sister in Leeds": the place hangs on the person
    kids += [g for c in kids if c.dep == "prep" and c.lower == "with" for p in sent.children(c.i) if p.dep == "pobj"
             for g in sent.children(p.i) if g.dep == "prep" and g.lower == "in"]
    # "work nights at the Toyota plant", "do weekends at the garden centre": the parser makes the time the
    # object and hangs the place on it; the time says when, the place is the verb's
    timed = [c for c in kids if c.dep in ("dobj", "npadvmod") and c.lemma in lx.TIME_NOUNS]
    kids = [c for c in kids if c not in timed] + [g for c in timed for g in sent.children(c.i) if g.dep == "prep"]
    out: list[Fact] = []
    obj = next((c for c in kids if c.dep == "dobj"), None)
    if ending and obj is None:  # "resigned from GTBank", "gave up on the italian": what was left
        left = next((c for c in kids if c.dep == "prep" and c.lower in ("from", "on")), None)
        obj = next((c for c in sent.children(left.i) if c.dep == "pobj"), None) if left is not None else None
    if ending and obj is not None:
        for attr in TABLE:
            if attr.nouns and obj.lemma in attr.nouns and obj.tag in ("NNS", "NNPS"):
                return [Fact(subject, attr, ANY_VALUE, True)]  # "switched gyms": no gym holds any more
            if obj.lemma in attr.ended_by and subject == "user":
                return [Fact(subject, attr, ANY_VALUE, True)]  # "quit my job": no employer holds any more
    for attr in TABLE:
        fact = _one(sent, root, verb, kids, attr, subject, subj, negated)
        if fact is None and ending and attr.copula:
            dobj = next((c for c in kids if c.dep == "dobj"), None)  # "quit keto", "gave up being vegan"
            if dobj is not None and in_class(dobj, attr.copula):
                fact = Fact(subject, attr, _phrase(sent, dobj), True)
        if fact is not None:
            out.append(fact)
    out += [r for r in roles if all(f.attribute is not r.attribute for f in out)]
    if ending and not out and obj is not None and (obj.pos in ("PROPN", "NOUN") or (obj.pos == "ADJ" and obj.dep == "pobj")) and not obj.lower in lx.THING_PRONOUNS:
        kind = STOPPED if verb in lx.STOPPING_VERBS else ANY
        out.append(Fact(subject, kind, _phrase(sent, obj), True))  # "quit Grindhouse", "sold the Fiesta", "gave up on the italian"
    return out


def _one(sent: Sentence, root: Token, verb: str, kids: list[Token], attr: Attribute, subject: str, subj: Token | None, negated: bool) -> Fact | None:
    # a noun that names the attribute: "User's phone number is …", "User got a new mobile number: …"
    if attr.person:
        return None  # read by _role, whoever the clause's subject is
    if attr.nouns:
        named = [subj] if subj is not None else []
        named += [c for c in kids if c.dep == "dobj"]
        for n in named:
            if n.lemma in attr.nouns:
                value = _noun_value(sent, root, n)
                if value:
                    return Fact(subject, attr, value, negated)
    if attr.fan and root.lemma == "be":
        fan = next((c for c in kids if c.dep == "attr" and c.lemma in _FAN_NOUNS), None)
        mods = [c for c in sent.children(fan.i) if c.dep in ("compound", "amod", "nmod") and c.pos in ("PROPN", "NOUN", "VERB")] if fan else []
        guy = next((c for c in kids if c.dep == "attr" and c.lemma in _FAN_PEOPLE), None) if fan is None else None
        if guy is not None:  # "a packers guy now", "a Liverpool man": a team's name (a name, or a plural) before a person
            mods = [c for c in sent.children(guy.i) if c.dep in ("compound", "nmod") and (c.pos == "PROPN" or c.tag == "NNS")]
        if mods:
            return Fact(subject, attr, " ".join(m.text for m in mods), negated)
    if attr.by_make:
        return by_make(sent, root, verb, kids, attr, subject, negated)
    if attr.located and verb == "stay" and root.tag in ("VBG", "VBP", "VBZ") and any(c.dep == "prep" and c.lower == "in" for c in kids) and _settled(sent):
        verb = "live"  # "I am staying in Pune", "staying in a PG in Koramangala": how many say where they live
    if attr.makes and verb in lx.GETTING_VERBS | lx.ACQUIRING_VERBS:  # "picked up a secondhand nissan leaf": a car by its make
        bought = made(sent, next((c for c in kids if c.dep == "dobj"), None), attr)
        if bought is not None:
            return Fact(subject, attr, _phrase(sent, bought), negated)
    got = next((c for c in kids if c.dep == "dobj" and object_lemma(sent, c) in attr.objects), None) if verb in lx.GETTING_VERBS else None
    if got is not None:
        for prep in (c for k in (root, got) for c in sent.children(k.i) if c.dep == "prep" and c.lower in attr.preps | {"from"}):
            obj = next((c for c in sent.children(prep.i) if _object_of_prep(c)), None)
            if obj is not None and _a_value(sent, prep, obj):
                return Fact(subject, attr, _phrase(sent, obj), negated)
    as_role = verb in attr.role_verbs and any(c.dep == "prep" and c.lower == "as" for c in kids)
    if (attr.verbs and verb in attr.verbs) or as_role:
        if attr.shape:  # "use kwame@… from now on", "reach me on kwame@…": the address wherever it sits
            found = next((t.text for t in sent.tokens if re.search(attr.shape, t.text)), None)
            if found:
                return Fact(subject or "user", attr, found, negated)
        if "to" in attr.preps and attr.copula == "occupation" and (role := to_role(sent, kids)) is not None:
            return Fact(subject, attr, role, negated)  # "promoted to head pastry chef": "to head" read as a verb
        if attr.preps:
            deps = ("prep", "dative") if attr.named else ("prep",)  # "signed for Clapton CFC": the parser's dative "for"
            for prep in (c for c in kids if c.dep in deps and c.lower in attr.preps):
                obj = next((c for c in sent.children(prep.i) if _object_of_prep(c)), None)
                if obj is not None and attr.named and not _a_name(sent, obj):
                    continue  # "plays for fun", "signed for the parcel": no side's name
                if obj is not None and prep.lower == "as" and attr.copula:
                    if _a_role(sent, obj, attr.copula):  # "works as a nurse", "started as an associate"; not "started as dry jan"
                        return Fact(subject, attr, _phrase(sent, obj), negated)
                    continue
                if obj is not None and prep.lower == "to" and attr.copula:
                    if in_class(obj, attr.copula):  # "promoted to senior nurse" names a job; "work to 6pm" does not
                        return Fact(subject, attr, _phrase(sent, obj), negated)
                    continue
                if obj is not None and _a_value(sent, prep, obj):
                    return Fact(subject, attr, _phrase(sent, obj), negated)
            named = _to_name(sent, kids) if "to" in attr.preps and attr.located else None
            if named is not None:  # "moved through to glasgow": the name the tagger took for a verb
                return Fact(subject, attr, named.text, negated)
            for prep in (c for c in kids if c.dep == "prep" and c.lower in attr.place_preps):
                obj = next((c for c in sent.children(prep.i) if c.dep == "pobj"), None)
                if obj is not None and _determined(sent, obj):
                    return Fact(subject, attr, _phrase(sent, obj), negated)
        else:
            obj = next((c for c in kids if c.dep in ("dobj", "acomp", "oprd")), None)
            if obj is not None and (not attr.copula or in_class(obj, attr.copula)):
                return Fact(subject, attr, _phrase(sent, obj), negated)
    if attr.of_role:  # "is a mortgage adviser at Barclays", "works as a nurse at the QE": where the job is
        for role in (c for c in kids if c.dep in ("attr", "prep") and c.lower != "at"):
            job = role if role.dep == "attr" else next((c for c in sent.children(role.i) if c.dep == "pobj" and role.lower == "as"), None)
            if job is None or not (in_class(job, "occupation") or (role.dep == "prep" and verb in attr.verbs and _a_role(sent, job, "occupation"))):
                continue  # "started as an associate at Kessler": a role after a verb of the row
            for prep in (c for c in sent.children(job.i) if c.dep == "prep" and c.lower in attr.preps):
                obj = next((c for c in sent.children(prep.i) if _object_of_prep(c)), None)
                if obj is not None and _a_value(sent, prep, obj):
                    return Fact(subject, attr, _phrase(sent, obj), negated)
    if attr.located and root.lemma == "be":
        place = _located_in(sent, root, kids)
        if place is not None:
            return Fact(subject, attr, _phrase(sent, place), negated)
    if attr.copula and root.lemma == "be":
        comp = next((c for c in kids if c.dep in ("attr", "acomp") and not _set_off(sent, c)), None)
        if attr.copula == "age":
            years = _age(sent, comp) if comp is not None else ""
            return Fact(subject, attr, years, negated) if years else None
        if comp is not None and attr.copula == "occupation" and comp.dep == "acomp":
            return None  # "is lactose intolerant": an adjective's place, whatever the tagger calls the word; a job is "a" something
        if attr.copula == "occupation" and subject == "user" and subj is not None and subj.lemma not in _JOB_NOUNS and any(
                c.dep == "poss" for c in sent.children(subj.i)):
            return None  # "User's new place is miles quieter": what the user's thing is, not what the user is
        if comp is not None and (in_class(comp, attr.copula) or (attr.copula == "occupation" and _role_at(sent, comp))):
            return Fact(subject, attr, _phrase(sent, comp), negated)
    return None


_JOB_NOUNS = frozenset({"job", "role", "occupation", "profession", "title", "position", "trade", "work"})


def _to_name(sent: Sentence, kids: list[Token]) -> Token | None:
    """A lowercase place after "to" that the tagger read as a bare verb ("moved to glasgow"): a "verb" with
    "to" and nothing else, that the lemmatiser knows as no verb."""
    for c in kids:
        own = sent.children(c.i)
        if c.dep == "xcomp" and c.pos == "VERB" and c.tag == "VB" and [g.lower for g in own] == ["to"] and not known_verb(c.lower):
            return c
    return None


def _object_of_prep(tok: Token) -> bool:
    """The object of a preposition; a lowercase name the parser reads as a clause ("in surulere") counts."""
    return tok.dep == "pobj" or (tok.dep == "pcomp" and tok.pos not in ("VERB", "AUX"))


_WHEREABOUTS = frozenset({"off", "near", "by", "outside", "beside", "behind", "opposite"})


_LODGINGS = frozenset({"hotel", "airbnb", "hostel", "motel", "inn", "resort", "guesthouse", "b&b", "campsite", "cabin"})


def _settled(sent: Sentence) -> bool:
    """A stay said with nothing that bounds it in time or makes it a visit ("I am staying in Pune"), not "staying
    in a hotel in Shinjuku", "staying in Leeds tonight", "staying in Rome for 10 days"."""
    bounds = (beginnings.STAY | {"tonight", "today", "tomorrow", "weekend"}) - {"staying"}
    return not any(t.ent in ("DATE", "TIME") or t.lemma in _LODGINGS or t.lower in bounds for t in sent.tokens)


def _located_in(sent: Sentence, root: Token, kids: list[Token]) -> Token | None:
    """The named place a "be" clause puts its subject in, with nothing beside it that makes it a stay: "User
    is in Calgary", "we're in the new place in Kelowna now"; not "in Paris this week", "in London for work"."""
    # a framing phrase before the verb ("for context I'm in …") and where in the place after it ("…, just off
    # Leith Walk", "near the station") say no more than where
    preps = [c for c in kids if c.dep == "prep" and c.i > root.i]
    preps = preps[:1] + [c for c in preps[1:] if c.lower not in _WHEREABOUTS]
    lasting = any(c.dep == "aux" and c.lemma == "have" for c in kids)  # "has been in dublin 3 weeks now": still there
    if len(preps) != 1 or preps[0].lower != "in" or any(c.dep in ("attr", "acomp", "advcl") and not _set_off(sent, c) or (c.dep == "npadvmod" and not lasting) for c in kids):
        return None
    if any((t.ent in ("DATE", "TIME") and not lasting) or t.lower in ("today", "tonight", "tomorrow", "weekend", "visiting", "holiday")
           for t in sent.tokens):
        return None
    obj = next((c for c in sent.children(preps[0].i) if c.dep == "pobj"), None)
    if obj is None:
        return None
    named = [sent.tokens[i] for i in sent.subtree(obj.i) if sent.tokens[i].ent in ("GPE", "LOC") or sent.tokens[i].pos == "PROPN"]
    return obj if named and (obj.pos == "PROPN" or obj.lemma in lx.OWN_NOUNS | {"flat", "house", "place", "home"}) else None


def _set_off(sent: Sentence, comp: Token) -> bool:
    """A complement after a comma is an afterthought, not what the subject is: "at the library now, much quieter",
    "in dennistoun now, top floor tenement" (the verb had what it says before the comma)."""
    if any(c.dep == "punct" and c.i < comp.i for c in sent.children(comp.i)):
        return True
    verb = comp.head
    said = [c for c in sent.children(verb) if c.dep in ("prep", "attr", "acomp") and verb < c.i < comp.i]
    return bool(said) and any(c.text == "," and said[0].i < c.i < comp.i for c in sent.children(verb))


def _role_at(sent: Sentence, noun: Token) -> bool:
    """ "a paralegal at a mid-size firm", "a PhD candidate in soil microbiology at the University of São Paulo": a
    noun held at or for an organisation (its own, or its field's) is a role."""
    if noun.pos != "NOUN":
        return False
    preps = [c for c in sent.children(noun.i) if c.dep == "prep"]
    preps += [g for p in preps if p.lower == "in" for o in sent.children(p.i) if o.dep == "pobj" for g in sent.children(o.i) if g.dep == "prep"]
    return any(c.lower in ("at", "for") for c in preps)


def _noun_value(sent: Sentence, root: Token, noun: Token) -> str:
    nums = [t.text for t in sent.tokens if t.pos == "NUM" or "@" in t.text]
    if nums:
        return " ".join(nums)
    comp = next((c for c in sent.children(root.i) if c.dep in ("attr", "acomp") and c.i != noun.i), None)
    return _phrase(sent, comp) if comp is not None else ""


def _determined(sent: Sentence, noun: Token) -> bool:
    """A common noun with an article or an owner ("a bike shop", "GTBank's risk team"), not a place name."""
    return noun.pos == "NOUN" and noun.ent not in ("GPE", "LOC", "FAC") and noun.lemma not in lx.PLACE_NOUNS and not _is_time(noun) and any(
        c.dep in ("det", "poss") for c in sent.children(noun.i)
    )


def _a_role(sent: Sentence, obj: Token, cls: frozenset[str] | str) -> bool:
    """What "as" names is a role: a word of the row's class, or a noun said with "a"/"an" ("as an associate")."""
    return in_class(obj, cls) or (obj.pos == "NOUN" and any(c.dep == "det" and c.lower in ("a", "an") for c in sent.children(obj.i)))


_NO_PLACE = frozenset({"heart", "home", "least", "best", "worst", "first", "last", "once", "all", "times"})  # "a teacher at heart"


def _a_value(sent: Sentence, prep: Token, obj: Token) -> bool:
    """Whether the object of a row's preposition can be its value: no time ("at the moment", "start at 9"), nobody
    ("with my nephew", "with Sarah")."""
    return not _is_time(obj) and obj.pos != "NUM" and obj.lemma not in _NO_PLACE and not _is_person(sent, obj) and not (prep.lower == "with" and obj.ent == "PERSON")


def _a_name(sent: Sentence, tok: Token) -> bool:
    """Whether a noun phrase is a name: a proper noun in it, or a lowercase head no dictionary lists."""
    words = [tok] + [c for c in sent.children(tok.i) if c.dep == "compound"]
    return not any(c.dep == "det" for c in sent.children(tok.i)) and (
        any(t.pos == "PROPN" for t in words) or any(not known_word(t.lower) for t in words))


def _is_person(sent: Sentence, tok: Token) -> bool:
    """Someone, not somewhere: "work with my nephew cian" names company, not an employer."""
    heads = [tok] + [c for c in sent.children(tok.i) if c.dep in ("compound", "appos")]
    return tok.pos == "PRON" or any(
        t.lemma in lx.PERSON_NOUNS or t.lower in lx.PERSON_NOUNS or t.lower in lx.KIN_NAMES for t in heads)


def _is_time(tok: Token) -> bool:
    return tok.ent in ("DATE", "TIME") or tok.lemma in ("moment", "week", "month", "year", "weekend", "morning", "evening")


def _age(sent: Sentence, tok: Token) -> str:
    """The years a word gives as someone's age: "is 38", "turned 40", "is 9 years old"; "" when it gives none
    ("is 8 months", "is 2 weeks in" give none: the number there counts something else)."""
    if tok.lemma == "old" and tok.pos == "ADJ":
        tok = next((n for y in sent.children(tok.i) if y.lemma == "year" for n in sent.children(y.i) if n.dep == "nummod"), tok)
    return tok.text if tok.pos == "NUM" and tok.text.isdigit() and 0 < int(tok.text) <= 120 else ""


_ASIDE = re.compile(r"\s*\(([^()]+)\)")


def readings(text: str) -> list[str]:
    """The statements a claim's text makes, to read one at a time: "User works at Flutterwave (is a QA tester
    at Flutterwave)." is "User works at Flutterwave." and "User is a QA tester at Flutterwave.". The aside
    holds the user's own words (``extract.canonical``); parsed whole, the parenthesis hides both."""
    asides = [a.strip() for a in _ASIDE.findall(text) if a.strip()]
    if not asides:
        return [text]
    lead = "User " if text.startswith("User ") else ""
    return [_ASIDE.sub("", text)] + [f"{lead}{a}." for a in asides]


def all_of_text(parser: Parser, text: str) -> list[Fact]:
    """Every attribute a claim's text sets, over its statements (``readings``) in order."""
    return [f for doc in parser.parse(readings(text)) if doc for f in read_all(doc[0])]


def of_text(parser: Parser, text: str) -> Fact | None:
    """The first attribute a claim's text sets, or None."""
    found = all_of_text(parser, text)
    return found[0] if found else None


