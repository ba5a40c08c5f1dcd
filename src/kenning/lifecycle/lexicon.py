"""Small word lists the slot grammar uses to see that two different words are about the same thing.

- ``category(word)``: the preference category of a value ("tea" and "coffee" are both ``drink``),
  so a new preferred value in the same category replaces the old one.
- ``diet_excluding(food)``: the diet identity a person gives up when they stop eating ``food``
  ("fish" -> pescatarian), so "doesn't eat fish any more" retracts "is pescatarian".
- ``phone_value(text)`` / ``date_value(text)``: phone numbers recognised by shape and dates in a
  canonical form, so "07700 900123" and "+44 7700 900123" or "14th of August" and "August 14th"
  compare as values.

Pure data and pure functions; the lists are deliberately small and common-sense, not exhaustive.
"""

from __future__ import annotations

import re

from kenning.text import MONTHS

CATEGORIES: dict[str, frozenset[str]] = {
    "drink": frozenset(
        "tea coffee espresso latte cappuccino americano flat-white mocha macchiato cortado decaf chai matcha "
        "rooibos juice smoothie water sparkling-water soda cola lemonade milk hot-chocolate cocoa kombucha".split()
    ),
    "seat": frozenset("aisle window middle front back exit-row bulkhead".split()),
    "travel": frozenset(
        "train trains rail plane planes flying fly flight flights car cars driving drive bus buses coach coaches "
        "ferry ferries bike bikes cycling cycle taxi taxis uber tube metro subway tram trams walking".split()
    ),
    "contact": frozenset(
        "email e-mail emails phone phones call calls calling text texts texting sms whatsapp signal telegram slack "
        "teams messenger voicemail letter letters post".split()
    ),
    "pet": frozenset("cat cats dog dogs".split()),
    "cuisine": frozenset(
        "italian thai indian chinese japanese mexican french greek spanish korean vietnamese turkish lebanese "
        "ethiopian sushi pizza curry ramen tapas".split()
    ),
    "daytime": frozenset("morning mornings afternoon afternoons evening evenings lunchtime night nights".split()),
}
_BY_WORD = {w: cat for cat, words in CATEGORIES.items() for w in words}

# Topics for the change-marker fallback of reconciliation: two claims naming words of one topic are about
# the same thing ("takes the bus" / "cycles in now" are both commuting). A word may belong to several topics.
TOPICS: dict[str, frozenset[str]] = {
    "commute": frozenset(
        "bus buses train trains tram trams tube metro subway car drive drives driving cycle cycles cycling bike bikes "
        "e-bike scooter walk walks walking taxi coach ferry commute commutes commuting".split()
    ),
    "streaming": frozenset("netflix disney+ disney hulu prime-video hbo max apple-tv paramount+ peacock crunchyroll iplayer".split()),
    "music-service": frozenset("spotify apple-music tidal deezer youtube-music soundcloud".split()),
    "handset": frozenset("phone iphone pixel galaxy android samsung nokia oneplus motorola xiaomi huawei handset smartphone".split()),
    # providers the user is "on" or "with", one at a time: names that are also common words ("three", "sky",
    # "chase", "wise") are left out
    "bank": frozenset("barclays starling monzo hsbc natwest lloyds santander nationwide revolut halifax tsb rbs "
                      "first-direct metro-bank co-operative-bank wells-fargo citibank n26 bunq anz westpac commbank "
                      "scotiabank rbc td-bank gtbank zenith-bank access-bank kuda opay".split()),
    "mobile-network": frozenset("giffgaff vodafone o2 lebara voxi smarty lycamobile tesco-mobile sky-mobile id-mobile verizon "
                                "t-mobile at&t jio airtel telstra optus safaricom mtn glo".split()),
    "broadband": frozenset("virgin-media bt talktalk plusnet hyperoptic community-fibre zen-internet xfinity comcast spectrum "
                           "starlink".split()),
    "hot-drink": frozenset("tea coffee espresso latte cappuccino americano decaf chai matcha rooibos cocoa".split()),
    "shift-pattern": frozenset("nights night-shift night-shifts days day-shift day-shifts earlies lates early-shift early-shifts "
                               "late-shift late-shifts long-days rota roster".split()),
}


def topic_words(text: str) -> dict[str, set[str]]:
    """The words of ``text`` in each topic of ``TOPICS`` ("takes the bus or a taxi" -> {"commute": {"bus", "taxi"}})."""
    words = re.findall(r"[a-z][a-z+-]*", text.lower())
    found: dict[str, set[str]] = {}
    for i, w in enumerate(words):
        if words[i + 1 : i + 2] == ["off"]:
            continue  # "days off", "a night off": time away, not a shift or a value of anything
        for cand in (w, w.rstrip("+"), "-".join(words[i : i + 2])):
            for t, ws in TOPICS.items():
                if cand in ws:
                    found.setdefault(t, set()).add(cand.rstrip("s") if len(cand) > 3 else cand)
    return found


def topics(text: str) -> set[str]:
    """Every topic of ``TOPICS`` that some word of ``text`` belongs to ("cycles in" -> {"commute"})."""
    return set(topic_words(text))


# Words that name a kind of person by what they prefer: "a coffee person", "a tea drinker", "a dog lover".
PERSON_NOUNS = r"person|people|drinker|lover|fan|guy|girl|addict|fiend"


def category(phrase: str) -> str | None:
    """The preference category of the first word of ``phrase`` that has one ("green tea" -> drink), else None."""
    words = re.findall(r"[a-z][a-z-]*", phrase.lower())
    for i in range(len(words)):
        pair = "-".join(words[i : i + 2])
        if pair in _BY_WORD:
            return _BY_WORD[pair]
        if words[i] in _BY_WORD:
            return _BY_WORD[words[i]]
    return None


# food -> the diet identity that includes it and that someone who stops eating it no longer has
_FOOD_DIET = {
    **dict.fromkeys(
        "fish seafood salmon tuna cod haddock trout mackerel sardines anchovies prawns shrimp shellfish crab "
        "lobster mussels oysters squid sushi".split(),
        "pescatarian",
    ),
    **dict.fromkeys("meat chicken beef pork lamb bacon steak ham turkey sausage sausages mince".split(), "omnivore"),
}
FOODS = "|".join(sorted(_FOOD_DIET, key=len, reverse=True))


def diet_excluding(food: str) -> str | None:
    """The diet a person leaves when they stop eating ``food`` ("salmon" -> pescatarian), else None."""
    return _FOOD_DIET.get(food.lower().strip())


PHONE = r"(?<![\w+])(?P<v>\+?\d[\d ()-]{5,}\d)(?![\w-])"


def phone_value(raw: str) -> str | None:
    """The digits of a phone-shaped string (7 to 15 digits, a leading + kept), else None.

    A national "0" prefix and a "+44"-style country code are kept as written: the two forms of one
    number compare equal only if the user writes them the same way, which is the safe direction.
    """
    digits = re.sub(r"\D", "", raw)
    if not 7 <= len(digits) <= 15:
        return None
    return ("+" if raw.strip().startswith("+") else "") + digits


MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_MONTH = rf"(?P<m>{MONTH})"
_DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
_DATES = [
    re.compile(rf"(?i)\b{_DAY}\s+(?:of\s+)?{_MONTH}\b"),
    re.compile(rf"(?i)\b{_MONTH}\.?\s+(?:the\s+)?{_DAY}\b"),
]


def date_value(text: str) -> str | None:
    """A day and month in ``text`` as "august 14", whatever the order or suffix, else None."""
    for pat in _DATES:
        m = pat.search(text)
        if m and 1 <= int(m.group("d")) <= 31:
            month = next(name for name in MONTHS if name.startswith(m.group("m").lower()[:3]))
            return f"{month} {int(m.group('d'))}"
    return None


SPORTS = (
    r"tennis|squash|badminton|football|soccer|rugby|cricket|golf|basketball|netball|hockey|volleyball|chess|"
    r"yoga|pilates|karate|judo|boxing|climbing|bouldering|crossfit|parkrun|the\s+gym|gym"
)


def activity(word: str) -> str:
    """A verb-derived activity reduced to one form: "running", "runs", "run" -> "run"; "cycling" -> "cycl"."""
    w = word.lower().strip()
    w = re.sub(r"^the\s+", "", w)
    for suffix in ("ing", "es", "s"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]  # running -> runn -> run
    return w.rstrip("e") if len(w) > 3 else w
