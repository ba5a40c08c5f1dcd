"""Two of spaCy's pipeline components made cheaper without changing what they give.

The attribute ruler, matched through a table of the words it has seen instead of its ``Matcher``. The
small English pipeline's ruler (the tag map: a fine tag's part of speech and morphology, and exceptions
such as "'m" read as the lemma "be") runs spaCy's general ``Matcher`` on every text, which tries each
of its 180 patterns at each word: about a tenth of parsing a turn. Every pattern
there is a fixed run of words, each word tested on its lowercase form, tag, dependency or whether it
is a space. So which patterns a word starts or continues depends only on those four values, and is
worked out once per distinct word reading and kept; a text then costs a lookup a word. The matches
are the ``Matcher``'s (same patterns, same spans), sorted as the ruler sorts them and set by it as before.
A ruler with a pattern outside that shape keeps its ``Matcher``.

The rule lemmatiser, with every answer kept. Its answer is a function of the word, its part of speech
and its morphology, and spaCy keeps it for a word only when it took the rules to find it: the common
case, a word already in its base form ("house", "walk", "big"), is worked out again each time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

ATTRS = ("LOWER", "TAG", "DEP", "IS_SPACE")  # what a pattern may test, in the order a word's reading lists them
TABLE_SIZE = 65536  # distinct word readings (or lemmas) kept before the table starts again

Test = Callable[[tuple[int, ...]], bool]
Anchor = tuple[int, int] | None  # an exact value a word test needs: (place in ATTRS, value)


class IndexedMatch:
    """A drop-in for ``AttributeRuler.match``: (rule id, match id, start, end) of every match, sorted."""

    def __init__(self, ruler: Any, patterns: list[tuple[int, list[tuple[Test, Anchor]]]]) -> None:
        self.patterns = patterns  # (rule, one test per word of the pattern); a rule may have several patterns
        self.keys = {rule: ruler.vocab.strings[str(rule)] for rule, _ in patterns}  # the Matcher's match ids
        self.table: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
        # a word test with an exact value to meet is only tried on words with that value
        self.by_value: list[dict[int, list[tuple[int, int, Test]]]] = [{} for _ in ATTRS]
        self.always: list[tuple[int, int, Test]] = []
        for n, (_, tests) in enumerate(patterns):
            for k, (test, anchor) in enumerate(tests):
                if anchor is None:
                    self.always.append((n, k, test))
                else:
                    self.by_value[anchor[0]].setdefault(anchor[1], []).append((n, k, test))

    def __call__(self, doc: Any) -> list[tuple[int, int, int, int]]:
        if not len(doc):
            return []
        from spacy.attrs import DEP, IS_SPACE, LOWER, TAG

        rows = [tuple(r) for r in doc.to_array([LOWER, TAG, DEP, IS_SPACE]).tolist()]
        fits = [self._fits(r) for r in rows]  # per word: the (pattern, position) pairs whose test it passes
        out = set()
        for start, here in enumerate(fits):
            for n, k in here:
                if k:
                    continue
                rule, tests = self.patterns[n]
                end = start + len(tests)
                if end <= len(rows) and all((n, j) in fits[start + j] for j in range(1, end - start)):
                    out.add((rule, self.keys[rule], start, end))
        return sorted(out)

    def _fits(self, row: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        got = self.table.get(row)
        if got is None:
            if len(self.table) >= TABLE_SIZE:
                self.table.clear()
            tried = [c for at, value in enumerate(row) for c in self.by_value[at].get(value, ())] + self.always
            got = self.table[row] = tuple(sorted((n, k) for n, k, test in tried if test(row)))
        return got


def indexed(ruler: Any) -> IndexedMatch | None:
    """``ruler.match`` as a table lookup, or None when a pattern is outside what the table can answer."""
    strings = ruler.vocab.strings
    patterns: list[tuple[int, list[tuple[Test, Anchor]]]] = []
    for rule, entry in enumerate(ruler.patterns):  # a rule's id is its place in the list (AttributeRuler.add)
        for pattern in entry["patterns"]:
            words = []
            for spec in pattern:
                test = _word_test(spec, strings)
                if test is None:
                    return None
                words.append(test)
            if not words:
                return None
            patterns.append((rule, words))
    return IndexedMatch(ruler, patterns)


def _word_test(spec: dict[str, Any], strings: Any) -> tuple[Test, Anchor] | None:
    checks: list[Test] = []
    anchor: Anchor = None
    for attr, value in spec.items():
        if attr not in ATTRS:
            return None  # "OP", "ORTH", "_": left to the Matcher
        at = ATTRS.index(attr)
        if attr == "IS_SPACE":
            if not isinstance(value, bool):
                return None
            checks.append(_equals(at, int(value)))
            anchor = anchor or (at, int(value))
        elif isinstance(value, str):
            checks.append(_equals(at, strings.add(value)))
            anchor = anchor or (at, strings.add(value))
        elif isinstance(value, dict) and len(value) == 1:
            (op, arg), = value.items()
            if op in ("IN", "NOT_IN") and isinstance(arg, list) and all(isinstance(v, str) for v in arg):
                checks.append(_among(at, {strings.add(v) for v in arg}, op == "IN"))
            elif op == "REGEX" and isinstance(arg, str):
                checks.append(_searches(at, re.compile(arg), strings))
            else:
                return None
        else:
            return None
    return (lambda row: all(check(row) for check in checks)), anchor


def _equals(at: int, value: int) -> Test:
    return lambda row: row[at] == value


def _among(at: int, values: set[int], inside: bool) -> Test:
    return lambda row: (row[at] in values) == inside


def _searches(at: int, pattern: re.Pattern[str], strings: Any) -> Test:
    return lambda row: bool(pattern.search(strings[row[at]]))


class KeptLemmas:
    """A drop-in for a rule lemmatiser's ``lemmatize``: its answers, each worked out once."""

    def __init__(self, lemmatize: Callable[[Any], list[str]]) -> None:
        self.lemmatize = lemmatize
        self.kept: dict[tuple[int, int, int], list[str]] = {}

    def __call__(self, token: Any) -> list[str]:
        key = (token.orth, token.pos, token.morph.key)  # what spaCy keys its own cache on
        got = self.kept.get(key)
        if got is None:
            if len(self.kept) >= TABLE_SIZE:
                self.kept.clear()
            got = self.kept[key] = self.lemmatize(token)
        return got


def install(nlp: Any, rulers: Sequence[str] = ("attribute_ruler",), lemmatizers: Sequence[str] = ("lemmatizer",)) -> None:
    """Give each named attribute ruler of ``nlp`` the table lookup, where its patterns allow it, and each named
    rule lemmatiser its kept answers."""
    for name in rulers:
        if name in nlp.pipe_names:
            ruler = nlp.get_pipe(name)
            match = indexed(ruler)
            if match is not None:
                ruler.match = match
    for name in lemmatizers:
        if name in nlp.pipe_names:
            lemmatizer = nlp.get_pipe(name)
            if getattr(lemmatizer, "mode", None) == "rule" and not isinstance(lemmatizer.lemmatize, KeptLemmas):
                lemmatizer.lemmatize = KeptLemmas(lemmatizer.lemmatize)
