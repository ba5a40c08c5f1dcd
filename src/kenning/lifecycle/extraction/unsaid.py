"""A clause whose "I" chat left out and whose first word the tagger then read as a noun.

"work at a call centre in sunderland doing insurance claims" is read as the subject "work at a call centre …"
of the verb "claims". A clause opening with a bare verb of how someone lives ("work", "study", "teach",
``lexicon.LIFE_VERBS``) in lowercase, with no determiner or owner, straight before a preposition, and made the
subject of a later word, is the speaker's own clause with the "I" left out when, said in full ("I work at a call
centre …"), it reads as "I" doing that verb and leaves no other verb without a subject ("work in progress is
slow" does not).
"""

from __future__ import annotations

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Parser, Sentence


def in_full(parser: Parser, sent: Sentence) -> tuple[str, Sentence] | None:
    """The clause said with its left-out "I" and its parse, or None when nothing was left out in this way."""
    words = [t for t in sent.tokens if t.pos not in ("PUNCT", "INTJ")]
    if len(words) < 3:
        return None
    first, after = words[0], words[1]
    if not first.text.islower() or first.lower not in lx.LIFE_VERBS or first.dep != "nsubj" or after.pos != "ADP":
        return None  # (made the subject of a later word)
    if any(c.dep in ("det", "poss", "amod") for c in sent.children(first.i)):
        return None  # "the work at the new place": a noun
    text = "I " + "".join(t.text + t.space for t in sent.tokens[first.i :]).strip()
    doc = parser.parse([text])[0]
    if len(doc) != 1 or len(doc[0].tokens) < 2:
        return None
    i, verb = doc[0].tokens[:2]
    if i.dep != "nsubj" or i.head != 1 or verb.dep != "ROOT" or verb.pos != "VERB":
        return None
    if any(t.tag in ("VBZ", "VBD", "VBP", "MD") and not any(c.dep in ("nsubj", "nsubjpass", "expl") for c in doc[0].children(t.i)) for t in doc[0].tokens[2:]):
        return None  # "I work in progress is slow": a verb left with no subject, so the first word was one
    return text, doc[0]
