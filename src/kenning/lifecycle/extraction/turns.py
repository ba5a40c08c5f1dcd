"""A user turn cut into clause texts: its sentences parsed once, addressed names taken out, split at
clause boundaries, in-turn corrections applied. The clauses themselves are parsed later (``claims``), or
ahead in a batch (``extraction.prefetch``).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass

from kenning.lifecycle.extraction import addressee, corrections, notes, pointers
from kenning.lifecycle.extraction.clauses import split
from kenning.lifecycle.extraction.normalise import normalise, sentences, trim
from kenning.lifecycle.extraction.parse import InContext, Parser, Sentence


@dataclass
class Pieces:
    """A user turn cut into clause texts: the parses already known (one-clause sentences keep the turn's
    parse), the names the turn addresses, and the parser for what is cut from it."""

    pieces: list[str]
    known: dict[str, list[Sentence]]
    addressed: set[str]
    parser: Parser
    contrasts: list[tuple[str, list[str]]]  # values set against another ("its 850 not 500"): (old, new values)
    spoken: list[str]  # the turn's sentences as said, which the pieces were cut from

    @property
    def todo(self) -> list[str]:
        """The clause texts still to parse."""
        return [p for p in dict.fromkeys(self.pieces) if p not in self.known]


def _again(parser: Parser, sents: list[Sentence], said: dict[int, str]) -> list[Sentence]:
    """``sents`` with the sentence at each index of ``said`` replaced by the parse of what it says in full."""
    if not said:
        return sents
    again = dict(zip(said, parser.parse(list(said.values()))))
    return [t for n, s in enumerate(sents) for t in (again[n] if n in again else [s])]


AHEAD_SIZE = 4096  # turns cut ahead and not extracted yet, per parser
_ahead: weakref.WeakKeyDictionary[Parser, OrderedDict[str, Pieces]] = weakref.WeakKeyDictionary()
_ahead_lock = threading.Lock()


def keep(parser: Parser, text: str, cut: Pieces) -> None:
    """Keep ``cut`` (``turn_pieces(parser, text)``, made ahead in a batch) for the next ``turn_pieces`` of the
    same turn with the same parser, so a turn prefetched is not cut twice."""
    with _ahead_lock:
        kept = _ahead.setdefault(parser, OrderedDict())
        kept[text] = cut
        kept.move_to_end(text)
        while len(kept) > AHEAD_SIZE:
            kept.popitem(last=False)


def turn_pieces(parser: Parser, text: str) -> Pieces:
    """Parse one (masked) user turn and cut it into clauses; the clauses themselves are not parsed yet."""
    try:
        with _ahead_lock:
            return _ahead[parser].pop(text)  # cut ahead by ``extraction.prefetch``: handed out once
    except (KeyError, TypeError):  # not cut ahead; a parser that cannot be weakly referenced
        pass
    spoken = sentences(normalise(text))
    cut = [one for s in spoken for one in (notes.introduction(s) or [s])]
    parsed_sentences = [s for doc in parser.parse(cut) for s in doc] if cut else []
    # "chef. nights. 2 kids.", then "plumber in barnsley, drive a transit": notes about the speaker, said in full
    parsed_sentences = _again(parser, parsed_sentences, notes.terse(parsed_sentences))
    parsed_sentences = _again(parser, parsed_sentences, {n: " ".join(said) for n, s in enumerate(parsed_sentences) if (said := notes.read(s))})
    parser = InContext(parser, parsed_sentences)  # clauses and wordings cut from this turn
    pieces: list[str] = []
    known: dict[str, list[Sentence]] = {}
    addressed = {s.tokens[i].text for s in parsed_sentences for i in addressee.vocatives(s)}
    parsed_sentences = addressee.unaddressed(parser, parsed_sentences)
    for s in parsed_sentences:
        cut_up = pointers.keep_replacements([trim(c) for c in split(parser, s)])
        if cut_up == [s.text]:
            known[s.text] = [s]  # a one-clause sentence: its parse is the clause's, no second parse
        for c in cut_up:  # "chloe here": who is speaking; "I'm clementine, sommelier at …": a name, then a list of what they are
            pieces.extend(notes.named_list(c) or [notes.named_here(c) or c])
    contrasts = [c for s in parsed_sentences if (c := corrections.contrast(s)) is not None]
    said = corrections.said_otherwise(" ".join(spoken))  # "i said U15, no | no it's the U13": cut in two by the parser
    contrasts += [said] if said is not None and said not in contrasts else []
    return Pieces(corrections.apply(pieces), known, addressed, parser, contrasts, spoken)
