"""The rows of what a claim can set about someone: one declarative table (``TABLE``) and the ``Fact`` a claim sets.

Each ``Attribute`` names the predicate lemmas that set it ("live", "move", "relocate" for a home), the
prepositions whose object is the value ("in", "to", "into"), the nouns that name it ("number", "mobile"), or
the class of word a copula takes ("is a nurse"), whether it holds one value at a time, and its kind and
importance. Adding an attribute is one row here; ``attributes`` reads the rows off a parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kenning.lifecycle import slots
from kenning.types import Kind

_DIETS = frozenset(re.sub(r"\(\?:\w+\)\?", "", w).replace("[- ]", "-") for w in re.split(r"\|", slots.DIETS) if "\\" not in w)


@dataclass(frozen=True, slots=True)
class Attribute:
    """A row of the table. ``verbs`` set it with the object of one of ``preps`` as the value (or the direct
    object when ``preps`` is empty); ``nouns`` name it ("my number is …", "a new number: …", "a Spurs fan");
    ``copula`` is the class of word that sets it after "is a"."""

    name: str
    kind: Kind
    importance: float
    single: bool = True
    verbs: frozenset[str] = frozenset()
    preps: frozenset[str] = frozenset()
    nouns: frozenset[str] = frozenset()
    copula: frozenset[str] | str = frozenset()
    fan: bool = False  # "a Spurs fan", "a Liverpool supporter": the noun's modifier is the value
    shape: str = ""  # a value must match this pattern ("@" for an e-mail address), else the row does not apply
    role_verbs: frozenset[str] = frozenset()  # verbs that set it only beside "as <role>": "started at X as an archivist"
    # preps that set it only with a determined common noun: "work in a bike shop", "in GTBank's risk team"
    # (not "work in London", "work in marketing")
    place_preps: frozenset[str] = frozenset()
    located: bool = False  # "be in" a named place sets it, when nothing says for how long: "we're in Calgary"
    # an object that makes a getting verb set it, with the row's prepositions on the verb or the object:
    # "took a job with the co-op", "got a position at Arla", "accepted an offer from Stripe"
    objects: frozenset[str] = frozenset()
    # what ends the row's value whatever it was: an ending of one of these nouns ("quit my job", "lost my job"),
    # or the user as the one these verbs act on ("got laid off", "was made redundant", "they let me go")
    ended_by: frozenset[str] = frozenset()
    lost_by: frozenset[str] = frozenset()
    of_role: bool = False  # the object of one of ``preps`` after a job sets it too: "is a nurse at the QE"
    person: bool = False  # someone in a role of the user's life, named: "my manager Sarah", "my new boss is Pedro"
    # words that make the object of a getting verb one of the row's values: "picked up a secondhand nissan leaf"
    # (a car), "bought a VW Passat"
    makes: frozenset[str] = frozenset()
    # the row is known only by its makes: a value of it names one ("a pixel 7"), whatever verb or noun it comes with
    by_make: bool = False
    named: bool = False  # the value is a name: a proper noun, or a lowercase word no dictionary lists ("for pollok")


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


TABLE: tuple[Attribute, ...] = (
    Attribute("residence", Kind.FACT, 0.7, verbs=_set("live reside base move relocate settle") | {"move in"}, preps=_set("in to into at"), located=True,
              objects=_set("flat apartment house place unit room home studio condo cottage bungalow townhouse terrace maisonette bedsit")),
    Attribute("employer", Kind.FACT, 0.6, verbs=_set("work join employ start"), preps=_set("at for with"), role_verbs=_set("begin"),
              place_preps=_set("in"), objects=_set("job position role post contract offer"), ended_by=_set("job position role post"),
              lost_by=_set("sack fire axe dismiss") | {"lay off", "let go", "make redundant"}, of_role=True),
    Attribute("occupation", Kind.FACT, 0.6, verbs=_set("work retrain train qualify requalify start begin join become promote"),
              preps=_set("as to"), copula="occupation"),
    Attribute("phone", Kind.FACT, 0.6, nouns=_set("number mobile phone cell line landline whatsapp"), shape=r"\d{3}"),
    Attribute("email", Kind.FACT, 0.6, verbs=_set("reach contact email use message"), preps=_set("on at via"), nouns=_set("email e-mail"), shape="@"),
    Attribute("team", Kind.PREFERENCE, 0.5, verbs=_set("support follow"), nouns=_set("team club"), fan=True),
    # the side the user plays or rows for, by its name: "plays centre back for Hackney Wick FC", "signed for Clapton CFC"
    Attribute("club", Kind.FACT, 0.5, verbs=_set("play sign row race"), preps=_set("for"), named=True),
    Attribute("diet", Kind.FACT, 0.7, verbs=_set("do follow try go"), copula=_DIETS),
    Attribute("gym", Kind.FACT, 0.4, verbs=_set("train lift exercise swim") | {"work out"}, preps=_set("at"), nouns=_set("gym")),
    Attribute("car", Kind.FACT, 0.5, verbs=_set("drive"), nouns=_set("car"), makes=_set(
        "ford vauxhall opel volkswagen vw toyota honda nissan mazda subaru mitsubishi suzuki hyundai kia skoda cupra renault "
        "peugeot citroen citroën dacia fiat alfa volvo bmw audi mercedes merc tesla polestar byd lexus jeep chevy chevrolet "
        "dodge gmc cadillac buick land-rover landrover range-rover porsche saab")),
    # a phone by its make, one at a time: "got a pixel 8", "I use a Pixel 7", "my phone's an iphone 12", "im on an iphone 12"
    Attribute("handset", Kind.FACT, 0.5, verbs=_set("use"), preps=_set("on"), makes=_set(
        "iphone pixel galaxy samsung nokia oneplus motorola moto xiaomi redmi huawei oppo vivo realme fairphone"), by_make=True),
    Attribute("rent", Kind.FACT, 0.5, nouns=_set("rent")),
    Attribute("pay", Kind.FACT, 0.5, nouns=_set("salary wage")),
    Attribute("age", Kind.FACT, 0.5, verbs=_set("turn"), copula="age"),
    Attribute("boss", Kind.FACT, 0.5, nouns=_set("boss manager supervisor"), person=True),
    Attribute("doctor", Kind.FACT, 0.5, nouns=_set("gp doctor"), person=True),
    Attribute("landlord", Kind.FACT, 0.5, nouns=_set("landlord landlady"), person=True),
)
NOUNS = frozenset(n for a in TABLE if not a.person for n in a.nouns)  # the nouns that name a row: "number", "team", "car"
# what an ending names when no row holds it ("quit Grindhouse", "sold the Fiesta"): reconciliation retires
# the user's fact, of whatever attribute, that holds this value; ANY_VALUE ("switched gyms") retires the
# row's current value whatever it is
ANY = Attribute("any", Kind.FACT, 0.5, single=False)
# an ending of something the user took or did ("quit the gym", "was taken off the amlodipine"): its value
# retires the user's fact naming it even when it is no name ("takes amlodipine 5mg")
STOPPED = Attribute("stopped", Kind.FACT, 0.5, single=False)
ANY_VALUE = "*"


@dataclass(frozen=True, slots=True)
class Fact:
    """What one claim sets: ``subject`` ("user", or a relation such as "sister"), the attribute, its value."""

    subject: str
    attribute: Attribute
    value: str
    negated: bool = False
    name: str = ""  # the subject's name when the claim gives one ("User's friend Marek …", "Marek …"), lowercased

    @property
    def key(self) -> tuple[str, str]:
        """Whom and what: a named person by name, so two friends' homes are two values, not one twice."""
        return self.name or self.subject, self.attribute.name

    def same_subject(self, other: Fact) -> bool:
        """Whether two facts are about the same one: the same subject, or a person named in both ("User's friend
        Marek lives in Tilburg" and "Marek moved to Gdańsk")."""
        return self.subject == other.subject if not (self.name and other.name) else self.name == other.name
