"""What a piece cut from a sentence shares with the pieces around it: the condition it opens or closes ("if I ever
ask about antibiotics remember that, | and I only drink oat milk"), the clause it depends on ("…, since I was 17"),
the subject the parse gives it ("…, the okafors, | have twin boys"), the modal of the verb it is joined to ("i
might go back to college | and do hairdressing"), and the subject to put back before it ("I'm" before "working
nights", "allergic to penicillin").
"""

from __future__ import annotations

from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.parse import Sentence, Token, known_word
from kenning.lifecycle.extraction.pieces import first_content as _first_content


def conditional_order(sent: Sentence, a: int, b: int) -> bool:
    """A piece opening with "if"/"when" whose clause hangs on an order inside the piece: "if you're giving me
    instructions keep it to the iphone"."""
    first = _first_content(sent, a, b)
    if first is None or first.dep != "mark" or first.lower not in ("if", "when", "whenever"):
        return False
    verb = sent.tokens[first.head]
    order = sent.tokens[verb.head]
    return verb.dep == "advcl" and a <= order.i < b and order.tag == "VB" and not any(
        c.dep in ("nsubj", "nsubjpass") for c in sent.children(order.i))


def depends_back(sent: Sentence, a: int) -> bool:
    """A piece that is an adverbial or relative clause of the words before it ("…, since I was 17",
    "…, which is exactly as chaotic as it sounds"): it stays with them."""
    first = _first_content(sent, a, len(sent.tokens))
    if first is None or first.lower in ("so", "and", "but"):
        return False
    joiner = next((t for t in reversed(sent.tokens[:a]) if t.pos != "PUNCT"), None)
    if joiner is not None and joiner.lower in ("so", "and", "but") and joiner.pos in ("CCONJ", "SCONJ", "ADV"):
        return False  # "…with monzo, so | if you're ever chasing invoices that's where …": a new clause, not a condition
    verb = sent.tokens[first.head]
    if first.dep == "mark" or first.tag in ("WDT", "WP", "WRB"):
        return verb.dep in ("advcl", "relcl", "ccomp") and verb.head < a
    return False


def subordinate(sent: Sentence, a: int, b: int) -> bool:
    """A piece opening with if/when/whenever/because…: it belongs to the clause after it."""
    first = _first_content(sent, a, b)
    if first is None:
        return False
    if first.dep == "prep":
        return False  # "since last June I'm in Chennai", "after work I swim": a time, not a clause of its own
    two = " ".join(t.lower for t in sent.tokens[first.i : first.i + 2])
    if first.lower in lx.FACT_MARKS and first.dep == "mark" and two not in lx.SUBORDINATORS:
        return False  # "since they bumped me up to stage manager, …": a thing that happened, a claim of its own
    return first.dep == "mark" or first.lower in lx.SUBORDINATORS or two in lx.SUBORDINATORS


def shared_modal(sent: Sentence, first: Token | None) -> str | None:
    """The modal ("might", "could", "'d") of the verb a bare verb is joined to, which goes for both."""
    if first is None or first.dep != "conj" or first.tag != "VB" or any(c.dep == "aux" for c in sent.children(first.i)):
        return None
    modal = next((c for c in sent.children(first.head) if c.dep == "aux" and c.tag == "MD"), None)
    return None if modal is None else {"'d": "would", "d": "would", "'ll": "will", "ll": "will"}.get(modal.lower, modal.lower)


def subject_before(sent: Sentence, a: int, b: int) -> str | None:
    """The words of someone other than the speakers (a name, a person, a family) whom the parse makes the subject of a
    piece's first verb, said in a piece before it: "the okafors" for "…, the okafors, | have twin boys"."""
    verb = next((t for t in sent.tokens[a:b] if t.pos in ("VERB", "AUX")), None)
    if verb is None:
        return None
    subj = next((c for c in reversed(sent.children(verb.i)) if c.dep in ("nsubj", "nsubjpass") and c.i < a), None)
    if subj is None or subj.lower in lx.FIRST_PERSON_STARTS or subj.lower in lx.SECOND_PERSON or subj.tag in ("WP", "WDT", "PRP"):
        return None
    family = subj.tag == "NNS" and not known_word(subj.lower) and any(c.lower == "the" for c in sent.children(subj.i))  # "the okafors"
    if not (subj.pos == "PROPN" or subj.ent == "PERSON" or subj.lemma in lx.PERSON_NOUNS or family):
        return None  # "farm up above llanidloes | run 400 ewes", "left deloitte, | joined a startup": a misread, not someone
    return " ".join(sent.tokens[i].text for i in sent.subtree(subj.i) if sent.tokens[i].pos != "PUNCT" and i < a)


def closed(sent: Sentence, a: int, b: int) -> bool:
    """A piece opening with "if"/"when" that holds the clause its condition hangs on: "if I ever ask about
    antibiotics remember that, | and I only drink oat milk" (a next piece with a subject of its own is news of its own;
    "…I'd quit tomorrow | and open a bakery" shares the condition)."""
    first = _first_content(sent, a, b)
    return first is not None and first.dep == "mark" and sent.tokens[first.head].dep == "advcl" and a <= sent.tokens[first.head].head < b


def restore(subject: str, first: Token | None) -> str:
    """The subject (with the auxiliary chat dropped) to put before a clause opening with ``first``:
    "I" + "working nights" -> "I'm", "I" + "been up since 4" -> "I've", "I" + "allergic to penicillin" -> "I'm",
    else the subject alone."""
    low = subject.lower()
    if first is not None and (first.tag == "VBG" or first.pos == "ADJ" and first.dep == "conj"):
        return "I'm" if low == "i" else f"{subject} are" if low in ("we", "they", "you") else f"{subject} is"
    if first is not None and first.tag == "VBN" and first.lower in ("been", "done", "gone", "had", "got", "seen"):
        return "I've" if low == "i" else f"{subject} have" if low in ("we", "they", "you") else f"{subject} has"
    return subject


def amount_row(sent: Sentence, a: int, b: int, before: tuple[int, int]) -> str | None:
    """A piece that is one more row of a list of amounts, "is" left out: "rent is 1650, | car payment 380, | student
    loans 290" -> "my car payment is 380" (only after a piece with an amount of its own)."""
    words = [t for t in sent.tokens[a:b] if t.pos not in ("PUNCT", "CCONJ") and t.lower not in ("plus", "also", "then")]
    n = next((i for i, t in enumerate(words) if t.pos == "NUM" or t.tag == "$"), None)
    if not n or n > 3 or not any(t.pos == "NUM" for t in sent.tokens[before[0] : before[1]]):
        return None
    nouns, amount = words[:n], words[n:]
    if not all(t.pos in ("NOUN", "PROPN", "ADJ") and t.text.islower() for t in nouns) or nouns[-1].pos != "NOUN":
        return None
    if len(amount) > 4 or not all(t.pos in ("NUM", "SYM", "DET", "NOUN", "ADP") or t.tag == "$" for t in amount):
        return None  # "380", "£380 a month"; never a clause that goes on
    be = "are" if nouns[-1].tag == "NNS" else "is"
    return f"my {' '.join(t.text for t in nouns)} {be} {''.join(t.text + t.space for t in amount).strip()}"
