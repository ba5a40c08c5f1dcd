"""The other speaker: names that address them ("Sounds great, Mel."), clauses about them ("congrats on
following your dreams", "I love your turtles") and messages passed on to them ("give Tom a hug from me").
None of these is a claim about the user; ``noise`` and ``claims`` ask these tests.
"""

from __future__ import annotations

import re

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.lexicon import first_person
from kenning.lifecycle.extraction.parse import Parser, Sentence, Token


def vocatives(sent: Sentence) -> set[int]:
    """Names the speaker addresses ("Wow, Caroline, that's gorgeous!", "Sounds great, Mel."): a name at
    the edge of the sentence, set off by a comma, with only greetings or thanks before it or only
    punctuation after it. A name inside the sentence ("two cats, Feijão and Pipoca") is no address."""
    toks = sent.tokens
    out: set[int] = set()
    for t in toks:
        if t.pos != "PROPN":
            continue
        start, end = t.i, t.i
        while start > 0 and toks[start - 1].pos == "PROPN":
            start -= 1
        while end + 1 < len(toks) and toks[end + 1].pos == "PROPN":
            end += 1
        before, after = toks[:start], toks[end + 1 :]
        lead = all(u.pos in ("INTJ", "PUNCT") or u.lower in lx.CLAUSE_ADVERBS or u.lemma in lx.NOISE_LEMMAS for u in before)
        tail = all(u.pos in ("PUNCT", "SYM", "X") or not any(c.isalnum() for c in u.text) for u in after)
        if t.ent not in ("PERSON", ""):
            # a name the recogniser took for a place is an address only right after a greeting ("Wow Caroline, …")
            if lead and before and any(u.pos == "INTJ" for u in before) and after and after[0].text == ",":
                out.add(t.i)
            continue
        if lead and (not after or after[0].text in (",", "!", ".", "?")) and (before or after):
            out.add(t.i)
        elif tail and before and before[-1].text == "," and not _names_owned(sent, t) and not _corrects(before):
            out.add(t.i)
    return out


def _corrects(before: list[Token]) -> bool:
    """Whether the words before a name end with a correction marker ("called Brio, no wait, Brina"): the name is
    the value put right, not the one addressed."""
    words = " ".join(u.text for u in before[-4:])
    return bool(re.search(r"(?i)\b(?:no\s*,?\s*wait|wait\s*,?\s*no|i\s+mean|i\s+meant|or\s+rather|actually\s+no|sorry)\W*$", words))


def _names_owned(sent: Sentence, name: Token) -> bool:
    """A name set beside someone of the speaker's ("…and our terrier, Pip.", "…my sister, Ana."): no address."""
    if name.dep != "appos":
        return False
    head = sent.tokens[name.head]
    return head.pos == "NOUN" and (head.lemma in lx.PERSON_NOUNS or any(
        c.dep == "poss" and c.lower in ("my", "our") for c in sent.children(head.i)))


def unaddressed(parser: Parser, parsed: list[Sentence]) -> list[Sentence]:
    """Sentences with the names they address taken out and parsed again: "Melanie, that photo's amazing!"
    parses "Melanie" as the root; "that photo's amazing!" parses as the comment it is."""
    out = []
    for s in parsed:
        names = vocatives(s)
        if not names:
            out.append(s)
            continue
        drop = set(names)
        for i in names:  # the comma that sets the name off goes with it
            for j in (i + 1, i - 1):
                if 0 <= j < len(s.tokens) and s.tokens[j].text == "," and j not in drop:
                    drop.add(j)
                    break
        text = "".join(t.text + t.space for t in s.tokens if t.i not in drop).strip()
        if any(c.isalnum() for c in text):
            out.extend(parser.parse([text])[0])
    return out


def addressed(sent: Sentence) -> list[Token]:
    """The words that name the other speaker ("you", "your", "ur"), not counting "your" on the answers they
    give ("keep your answers short" is the user's rule about what they get)."""
    return [t for t in sent.tokens if t.lower in lx.SECOND_PERSON
            and not (t.dep == "poss" and sent.tokens[t.head].lemma in lx.RESPONSE_NOUNS)]


def about_the_other(sent: Sentence) -> bool:
    """The clause is about the other speaker: "congrats on following your dreams", "your art's amazing",
    "you always make me laugh", "I really appreciate your help", "I'm here for you". Not when the other
    speaker only frames what the user says: "I need you to remember I'm diabetic", "as I told you, …"."""
    seconds = addressed(sent)
    if not seconds or _you_know(sent):
        return False
    if not first_person(sent.text):
        return True
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is not None and root.lemma in lx.WANT_VERBS:
        # "I love your turtles", "I really like your recipe": the other speaker's thing; "I'd love you to
        # remind me", "I want you to know …" only frame what the user asks
        return any(t.dep == "poss" and sent.tokens[t.head].dep == "dobj" and sent.tokens[t.head].head == root.i for t in seconds)
    if root is None or root.lemma in {"need", "let", "remember", "know"}:
        return False
    for t in seconds:
        if t.dep in ("nsubj", "nsubjpass") and t.head == root.i:
            return True  # "you always make me laugh"
        owner = sent.tokens[t.head]
        if t.dep == "poss" and owner.head == root.i and owner.dep in ("dobj", "nsubj"):
            return True  # "I appreciate your help"
        if t.dep == "pobj" and owner.head == root.i:
            return True  # "I'm here for you", "I'm so happy for you"
        if t.dep in ("dobj", "dative") and t.head == root.i and root.lemma in lx.SOCIAL_VERBS:
            return True  # "I miss you", "I owe you one"
    return False


def _you_know(sent: Sentence) -> bool:
    """The other speaker only as a frame around the claim: "you know", "I told you", "update for you: …"."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    for t in sent.tokens:
        if t.lower not in lx.SECOND_PERSON:
            continue
        head = sent.tokens[t.head]
        if head.lemma in ("know", "tell", "mention", "say") and t.dep in ("nsubj", "dobj", "dative", "pobj"):
            continue
        if t.dep == "nsubj" and first_person(sent.text) and sent.tokens[t.head].dep != "ROOT":
            continue  # "whenever you book a hotel for me, …": the assistant acting for the user
        if t.dep == "pobj" and head.pos == "ADP" and root is not None and sent.tokens[head.head].pos in ("NOUN", "PROPN") and head.head != root.i:
            continue  # "update for you: we got the keys": the preposition belongs to a heading, not the claim
        return False
    return True


def passes_on(sent: Sentence) -> bool:
    """A request about the conversation itself: a message passed on ("tell him well done from me", "give
    her a kiss from Uncle Rhys") or news asked for with nothing named ("keep me posted", "tell me everything")."""
    if any(t.lower == "from" and any(c.lower in ("me", "us") or c.pos == "PROPN" for i in sent.subtree(t.i) for c in (sent.tokens[i],)) for t in sent.tokens):
        return True
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in lx.NEWS_VERBS:
        return False
    return not any(t.pos in ("NOUN", "PROPN", "NUM") for t in sent.tokens)
