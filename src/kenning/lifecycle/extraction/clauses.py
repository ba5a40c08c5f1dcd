"""Clauses: a parsed sentence cut into one-claim clauses, each read for who it is about and how it is said.

Splitting is syntactic, not a list of phrases. A sentence is cut at its
separators (commas, semicolons, dashes, "and", "but", "so", "plus"); a
piece becomes a clause of its own when it is one: it has its own subject
and verb ("she loves it"), or, read with the subject it shares, its first
word is a verb ("…, work nights as a nurse" read as "I work nights as a
nurse"). Any other piece stays with the clause before it ("nuts and
shellfish", "sorry, three"), so noun lists and afterthoughts are not cut.

Each clause is then parsed on its own (with a shared subject restored) and
read for:

- ``subject``: ``user`` (I, we, my job…), ``other`` (a named person, a
  relative or a pet: "my sister", "Jo", "he" after "my dad"), ``you`` (the
  other speaker), ``thing`` (it, that, this, there), or ``none`` (an
  imperative or a fragment);
- mood: a question, a request to the assistant;
- modality: a hedge (might, may, could, would, maybe, thinking about,
  hoping to, if…), a negation;
- time: a past event, an ended habit ("used to"), a future plan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kenning.lifecycle.extraction import corrections, mood, people, rows
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.complements import complement_of, first_person_be
from kenning.lifecycle.extraction.parse import Parser, Sentence, Token
from kenning.lifecycle.extraction.pieces import pieces, rejoin_subjects

@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a turn as typed (``text``, first person kept) and what its parse says about it."""

    text: str
    subject: str  # user | other | you | thing | none
    subject_text: str = ""
    root: str = ""  # lemma of the main verb (or of the copula's complement)
    negated: bool = False
    hedged: bool = False
    question: bool = False
    request: bool = False
    past: bool = False
    ended: bool = False
    future: bool = False


def _has_subject_verb(sent: Sentence, a: int, b: int) -> bool:
    for t in sent.tokens[a:b]:
        if t.dep in ("nsubj", "nsubjpass", "expl") and a <= t.head < b and t.tag not in ("WP", "WDT"):
            head = sent.tokens[t.head]  # "…a blue heeler named Rowdy who rides in the truck": no subject of the piece's own
            if head.dep in ("advcl", "relcl", "acl") and head.head != head.i and a <= head.head < b:
                continue  # "lives in Garden Grove | since my dad passed": the subject of a clause inside the piece
            if head.pos in ("VERB", "AUX") or head.tag.startswith("VB") or any(
                c.pos == "AUX" and a <= c.i < b for c in sent.children(head.i)
            ):
                return True
    return False


def _completes(sent: Sentence, a: int, b: int) -> bool:
    """A last clause with nothing of its own but a pronoun subject and a verb ("…a charity ride in June and
    I've signed up", "…and I loved it"): it finishes the clause before, which says what it is about."""
    if b < len(sent.tokens) and any(t.pos not in ("PUNCT", "SYM", "X") for t in sent.tokens[b:]):
        return False
    if any(t.pos in ("NOUN", "PROPN", "NUM", "ADJ") for t in sent.tokens[a:b]):
        return False
    return not any(t.dep in lx.ARGUMENT_DEPS or t.dep == "advmod" for t in sent.tokens[a:b])


def _words(sent: Sentence, a: int, b: int) -> str:
    return "".join(t.text + t.space for t in sent.tokens[a:b]).strip()


def opener(sent: Sentence) -> Token | None:
    """The first word of a clause that is neither punctuation, an interjection nor a discourse adverb."""
    return _first_content(sent, 0, len(sent.tokens))


def _first_content(sent: Sentence, a: int, b: int) -> Token | None:
    for t in sent.tokens[a:b]:
        if t.lower in lx.CLAUSE_ADVERBS or t.pos in ("PUNCT", "INTJ"):
            continue
        return t
    return None


def split(parser: Parser, sent: Sentence) -> list[str]:
    """The clauses of ``sent``, as text; a clause that shares its subject gets it restored in front."""
    spans = rejoin_subjects(sent, pieces(sent))
    if len(spans) <= 1:
        return [sent.text]
    kinds: list[str] = []  # "own" (subject and verb), "verb" (shares the subject), "bare" (an imperative), "be", "rest"
    copulas: dict[int, str] = {}
    probe: list[int] = []
    alone: list[int] = []
    for n, (a, b) in enumerate(spans):
        first = _first_content(sent, a, b)
        if n > 0 and (_subordinate(sent, *spans[n - 1]) or corrections.is_marker(_words(sent, a, b)) or _depends_back(sent, a)):
            kinds.append("rest")  # "whenever you book a hotel for me, ask for a high floor": one rule
            continue
        if n > 0 and first is not None and first.dep == "conj" and sent.tokens[first.head].dep == "relcl" and first.head < a:
            kinds.append("rest")  # "Liam who's 8 | and loves rugby": the relative clause goes on
            continue
        if _has_subject_verb(sent, a, b):
            kinds.append("rest" if n > 0 and _completes(sent, a, b) else "own")
            continue
        pleads = any(t.lower in ("please", "pls", "plz") for t in sent.tokens[a:b])
        head = sent.tokens[first.head] if first is not None else None
        shared = (first is not None and head is not None and b - a >= 2 and first.dep == "conj" and first.head < a
                  and head.pos in ("VERB", "AUX") and (head.lemma != "be" or first_person_be(sent, head, first))
                  and not (head.tag == "VBZ" and first.tag == "VB")
                  and not pleads and first.lemma not in lx.RETRACT_VERBS)
        if shared and n > 0:
            kinds.append("verb")  # "they motivate me and give me strength": the verb shares the subject before it
            continue
        dont = first is not None and first.lemma == "do" and first.dep == "aux" and mood.forbidden(sent, sent.tokens[first.head])
        if n > 0 and first is not None and (first.tag == "VB" or (pleads and first.tag == "VBP") or dont) and first.lower not in lx.NOT_PREDICATES:
            kinds.append("bare")  # "…, schedule my workouts at 6am please": a request of its own
            continue
        if n > 0 and (be := complement_of(sent, a, b, spans[n - 1][0])) is not None:
            kinds.append("be")  # "I'm 41, a teacher, …": another complement of the same "I am"
            copulas[n] = be
            continue
        if first is not None and n > 0 and b - a >= 2 and first.lower not in lx.NOT_PREDICATES and not _nominal(sent, first) and not at_me(sent, a, b):
            kinds.append("probe")  # not "…, always use km with me": an order to the other speaker, no "I" left out
            probe.append(n)
        else:
            kinds.append("rest")
            if n > 0 and first is not None and b - a >= 2 and (first.pos == "PROPN" or first.dep in ("poss", "det")) and not _joined_subject(sent, a, b):
                alone.append(n)  # "…, and the wife, Carol, does all the books": a clause the long parse missed
    subject = next((_subject_words(sent, a, b) for (a, b), k in zip(spans, kinds) if k == "own"), None)
    lead_verb = _first_content(sent, *spans[0])
    dropped = lead_verb is not None and lead_verb.tag in ("VBD", "VBN", "VBG", "MD") and lead_verb.lower not in lx.NOT_PREDICATES
    if subject is None and ("probe" in kinds or ("verb" in kinds and dropped)):
        # chat drops the "I": "finally did it, moved through to glasgow last month", "handed my notice in at the
        # bank, start at the council monday" (never "book a table, send me the link": an order has no "I")
        subject = "I"
        if dropped:
            kinds[0] = "verb"
    if copulas:  # "I'm 52, divorced, work in insurance": a piece the tagger calls a noun may read as a verb
        be = [n for n in sorted(copulas) if (f := _first_content(sent, *spans[n])) is not None and f.pos == "NOUN" and f.text.islower()
              and not lx.JOB_WORD.fullmatch(f.lower)]  # "engineer at Arup" is a job, never "I engineer"
        for n, parsed in zip(be, parser.parse([f"I {_words(sent, *spans[n])}" for n in be])):
            if parsed and _reads_as_clause(parsed[0]) and parsed[0].tokens[1].pos == "VERB":
                kinds[n] = "probe"
                probe.append(n)
                del copulas[n]
    if alone:  # parsed on its own with the pieces that follow it, a piece may read as the clause it is
        ends = {n: next((m for m in range(n + 1, len(spans)) if kinds[m] != "rest"), len(spans)) for n in alone}
        runs = [_words(sent, spans[n][0], spans[ends[n] - 1][1]) for n in alone]
        taken = -1
        for n, parsed in zip(alone, parser.parse(runs)):
            if n > taken and len(parsed) == 1 and _own_clause(parsed[0]):
                kinds[n] = "own"
                taken = ends[n] - 1
    if probe and subject:
        texts = [f"{subject} {_words(sent, *spans[n])}" for n in probe]
        for n, parsed in zip(probe, parser.parse(texts)):
            kinds[n] = "verb" if parsed and _reads_as_clause(parsed[0]) else "rest"
    out: list[list] = []  # [prefix, first token, end token]: a merged piece keeps the words between, "and" included
    last_subject = subject
    for n, ((a, b), kind) in enumerate(zip(spans, kinds)):
        first = _first_content(sent, a, b)
        lead = restore(last_subject, first) if last_subject else last_subject
        if kind == "be":
            out.append([f"{copulas[n]} ", _after_fillers(sent, a, b), b])
        elif kind == "verb" and last_subject:
            if _acts_on_it(sent, a, b) and last_subject.split()[-1].lower() in lx.OWN_NOUNS:
                lead = restore("I", first)  # "car is gone, | flogged it on trade me": the thing is what was acted on
            out.append([f"{lead} ", _after_fillers(sent, a, b), b])  # "yeah set it up…" -> "I set it up…"
        elif kind == "own" or kind == "bare" or not out:
            out.append(["", a, b])
            if kind == "own":
                last_subject = _subject_words(sent, a, b) or last_subject
        else:
            out[-1][2] = b
    return [f"{prefix}{_words(sent, a, b)}" for prefix, a, b in out]


def _depends_back(sent: Sentence, a: int) -> bool:
    """A piece that is an adverbial or relative clause of the words before it ("…, since I was 17",
    "…, which is exactly as chaotic as it sounds"): it stays with them."""
    first = _first_content(sent, a, len(sent.tokens))
    if first is None or first.lower in ("so", "and", "but"):
        return False
    verb = sent.tokens[first.head]
    if first.dep == "mark" or first.tag in ("WDT", "WP", "WRB"):
        return verb.dep in ("advcl", "relcl", "ccomp") and verb.head < a
    return False


def _after_fillers(sent: Sentence, a: int, b: int) -> int:
    """Where a piece's words start once conjunctions, punctuation and fillers are left out; adverbs that
    carry meaning stay ("and never smoked" -> "never smoked", not "smoked")."""
    i = a
    while i < b - 1 and (sent.tokens[i].pos in ("PUNCT", "CCONJ", "INTJ") or sent.tokens[i].lower in lx.FILLER_WORDS):
        i += 1
    return i


def _subordinate(sent: Sentence, a: int, b: int) -> bool:
    """A piece opening with if/when/whenever/because…: it belongs to the clause after it."""
    first = _first_content(sent, a, b)
    if first is None:
        return False
    if first.dep == "prep":
        return False  # "since last June I'm in Chennai", "after work I swim": a time, not a clause of its own
    two = " ".join(t.lower for t in sent.tokens[first.i : first.i + 2])
    return first.dep == "mark" or first.lower in lx.SUBORDINATORS or two in lx.SUBORDINATORS


def restore(subject: str, first: Token | None) -> str:
    """The subject (with the auxiliary chat dropped) to put before a clause opening with ``first``:
    "I" + "working nights" -> "I'm", "I" + "been up since 4" -> "I've", else the subject alone."""
    low = subject.lower()
    if first is not None and first.tag == "VBG":
        return "I'm" if low == "i" else f"{subject} are" if low in ("we", "they", "you") else f"{subject} is"
    if first is not None and first.tag == "VBN" and first.lower in ("been", "done", "gone", "had", "got", "seen"):
        return "I've" if low == "i" else f"{subject} have" if low in ("we", "they", "you") else f"{subject} has"
    return subject


def _subject_words(sent: Sentence, a: int, b: int) -> str | None:
    for t in sent.tokens[a:b]:
        if t.dep in ("nsubj", "nsubjpass") and a <= t.head < b:
            span = [i for i in sent.subtree(t.i) if a <= i < b]
            return " ".join(sent.tokens[i].text for i in span)
    return None


def _nominal(sent: Sentence, first: Token) -> bool:
    """A piece opening with what the sentence reads as a plural noun, a name, an adjective, a number or an
    interjection ("so lines everywhere", "and prayers", "and spite"), or with a noun joined to a noun
    before it, is a list or a fragment: no subject is restored in front of it."""
    if first.tag in ("NNS", "NNP", "NNPS", "JJ", "JJR", "JJS", "UH", "CD") or first.pos in ("PROPN", "INTJ", "NUM") or first.dep == "appos":
        return True
    return first.dep == "conj" and sent.tokens[first.head].pos in ("NOUN", "PROPN", "PRON", "ADJ")


def at_me(sent: Sentence, a: int = 0, b: int | None = None) -> bool:
    """Whether tokens ``a:b`` have the speaker as an object ("always use km with me"): an order to the other
    speaker, with no "I" left out."""
    return any(t.lower in ("me", "myself") and t.dep in ("dobj", "pobj", "dative") for t in sent.tokens[a:b])


def lived(toks: Sequence[Token]) -> bool:
    """A clause opening with a bare verb of what a person does with their life, which the other speaker
    cannot do for them ("drive a 2015 hilux", "support gor mahia", "ride an e-bike mostly evenings"): the "I"
    left out, not an order. Never when it is said to or for someone ("keep me posted", "teach me to knit")."""
    first = next((t for t in toks if t.lower not in lx.CLAUSE_ADVERBS and t.pos not in ("INTJ", "PUNCT")), None)
    if first is None or first.tag not in ("VB", "VBP") or first.lemma not in lx.LIFE_VERBS and not _row_verb(toks, first):
        return False
    return not any(t.lower in ("me", "myself", "us", "please", "pls", "plz") or t.lower in lx.SECOND_PERSON for t in toks)


# the verbs of the attribute rows with the prepositions that take their value ("start at", "live in", "move to")
_ROW_VERBS = {(v, p) for a in rows.TABLE for v in a.verbs for p in a.preps}


def _row_verb(toks: Sequence[Token], verb: Token) -> bool:
    """A verb of an attribute row whose preposition takes a name: "start at the city council monday", "live in
    leeds" (not "move to the next question")."""
    for prep in (t for t in toks if t.head == verb.i and t.dep == "prep" and (verb.lemma, t.lower) in _ROW_VERBS):
        obj = next((t for t in toks if t.head == prep.i and t.dep == "pobj"), None)
        if obj is not None and (obj.pos == "PROPN" or obj.ent in ("GPE", "ORG", "LOC", "FAC")):
            return True
    return False


def _acts_on_it(sent: Sentence, a: int, b: int) -> bool:
    return any(t.dep == "dobj" and t.lower in ("it", "them") for t in sent.tokens[a:b])


def _joined_subject(sent: Sentence, a: int, b: int) -> bool:
    """A piece that is the second half of a subject ("me and | my boyfriend Marco are trying …")."""
    top = next((t for t in sent.tokens[a:b] if not a <= t.head < b), None)
    return top is not None and top.dep in ("conj", "appos") and sent.tokens[top.head].dep in ("nsubj", "nsubjpass")


def _own_clause(s: Sentence) -> bool:
    """A piece parsed alone that is a clause with its subject first: "our Ffion's at vet school in Nottingham"."""
    root = next((t for t in s.tokens if t.dep == "ROOT"), None)
    if root is None or root.pos not in ("VERB", "AUX"):
        return False
    subj = next((c for c in s.children(root.i) if c.dep in ("nsubj", "nsubjpass")), None)
    return subj is not None and min(s.subtree(subj.i)) == 0


def _reads_as_clause(s: Sentence) -> bool:
    """ "I work nights as a nurse": the word after the restored subject is the verb it governs."""
    if len(s.tokens) < 2:
        return False
    subj, verb = s.tokens[0], s.tokens[1]
    while verb.lower in lx.CLAUSE_ADVERBS and verb.i + 1 < len(s.tokens):
        verb = s.tokens[verb.i + 1]
    return verb.tag.startswith("VB") or verb.pos in ("VERB", "AUX") and subj.dep in ("nsubj", "nsubjpass")


# -- reading one clause ------------------------------------------------------------------


def read(sent: Sentence, *, others: Sequence[str] = ()) -> Clause:
    """What one parsed clause says; ``others`` are third parties named earlier (for he/she/they)."""
    toks = sent.tokens
    text = sent.text
    root = next((t for t in toks if t.dep == "ROOT"), toks[0])
    subj = _subject(sent, root)
    subject, subject_text = _who(sent, subj, others)
    aux = {c.lemma for c in toks if c.dep in ("aux", "auxpass") or (c.pos == "AUX" and c.i < root.i)}
    words = {t.lower for t in toks}
    lemmas = {t.lemma for t in toks}
    question = text.rstrip().endswith("?") or _inverted(toks) or mood.asks_how(sent)
    request = _request(toks, root, subj, question)
    negated = any(t.dep == "neg" or t.lower in lx.NEGATORS for t in toks)
    hedged = _hedged(sent, root, aux, words, lemmas) and not mood.asks_how(sent)  # "how often should I…" asks, it hedges nothing
    ended = "used" in words and any(t.lower == "used" and t.i + 1 < len(toks) and toks[t.i + 1].lower == "to" for t in toks)
    future = bool(aux & {"will", "shall"}) or (root.lemma == "go" and any(c.dep == "xcomp" for c in sent.children(root.i)) and root.tag == "VBG") or (
        _coming(sent, root) and not words & lx.HABITUAL)
    got = root.lower == "got" and ("have" in aux or _had(sent, root))  # "I've got two kids": having, not a past event
    past = not ended and not got and (root.tag == "VBD" or "did" in words or ("have" in aux and root.tag == "VBN" and root.lower != "got") or (_past_passive(toks, root) and not toks[0].lower.startswith("i")))
    if root.lemma == "be" and root.tag == "VBD":
        past = True
    return Clause(text, subject, subject_text, root.lemma, negated, hedged, question, request, past, ended, future)


def _had(sent: Sentence, root: Token) -> bool:
    """ "got a little girl called poppy", "got 3 kids": chat's "I've got", a name or a count for what is had, and
    no time said of getting it ("got a puppy last week" is an event)."""
    kids = sent.children(root.i)
    if any(c.dep in ("npadvmod", "advmod", "prep") and (c.ent in ("DATE", "TIME") or c.lower in ("yesterday", "today", "ago", "just")) for c in kids):
        return False
    obj = next((c for c in kids if c.dep == "dobj" and c.pos == "NOUN"), None)
    return obj is not None and any(
        (c.dep == "acl" and c.lemma in ("call", "name")) or c.dep == "nummod" for c in sent.children(obj.i))


def _subject(sent: Sentence, root: Token) -> Token | None:
    for c in sent.children(root.i):
        if c.dep == "expl" and c.i > root.i and root.tag == "VBN":
            continue  # "been there 10 years": a place after a participle, the "I" left out
        if c.dep in ("nsubj", "nsubjpass", "expl"):
            return c
    # a misattached subject ("he loves/AUX fishing/ROOT"): the first subject anywhere, but not a relative
    # pronoun ("sold the Fiesta to a student who seemed thrilled": "who" is no subject of "sold")
    return next((t for t in sent.tokens if t.dep in ("nsubj", "nsubjpass") and t.tag not in ("WP", "WDT")), None)


def _who(sent: Sentence, subj: Token | None, others: Sequence[str]) -> tuple[str, str]:
    if subj is None:
        first = sent.tokens[0]
        if first.lower in lx.FIRST_PERSON_STARTS:  # "im trying", "i'd love" when the tagger missed it
            return "user", first.text
        return "none", ""
    low = subj.lower
    span = " ".join(sent.tokens[i].text for i in sent.subtree(subj.i))
    me = ("i", "we", "me", "myself", "ourselves", "im", "i'm", "ive")
    if low in me or any(c.dep == "conj" and c.lower in me for c in sent.children(subj.i)):
        # "my sister and I", "Margaret and I": a shared subject with another person is still the user's claim
        return "user", span
    if low in ("you", "u", "ya", "y'all", "yall"):
        return "you", span
    if low in ("it", "that", "this", "there", "which", "what", "everything", "nothing", "something", "anything"):
        return "thing", span
    poss = [c for c in sent.children(subj.i) if c.dep == "poss"]
    if poss and poss[0].lower in ("my", "our"):
        if subj.lemma in lx.PERSON_NOUNS or subj.lower in lx.PERSON_NOUNS:
            return "other", span
        return "user", span  # "my job is …", "my flight leaves at 6": the user's own attribute
    if poss and poss[0].lower in ("your", "ur"):
        return "you", span
    if low in ("he", "she", "they", "him", "her", "them"):
        return ("other", others[-1]) if others else ("other", span)
    if subj.pos == "PROPN" or subj.ent == "PERSON" or subj.lemma in lx.PERSON_NOUNS or _named_by_age(sent, subj) or people.died(sent):
        return "other", span
    bare = subj.tag == "NN" and subj.i == 0 and not any(c.dep in ("det", "poss") for c in sent.children(subj.i))  # "car is gone"
    if (bare or any(c.dep == "det" and c.lower == "the" for c in sent.children(subj.i))) and subj.lemma in lx.OWN_NOUNS:
        return "user", span  # "the shellfish allergy is severe now": a known attribute of the user's
    verb = sent.tokens[subj.head]
    if subj.dep == "nsubjpass" and subj.pos == "NOUN" and verb.lemma in lx.SCHEDULE_VERBS and any(
            c.dep == "det" and c.lower == "the" for c in sent.children(subj.i)):
        return "user", span  # "the scope got pushed back to the 19th": something on the user's calendar moved
    return "thing", span


def _named_by_age(sent: Sentence, subj: Token) -> bool:
    """ "Aoife is 9": a capitalised bare noun the tagger did not know, whose age is given, is someone's name
    (a thing's figure has its article or owner: "the rent is 900", "my car is 12")."""
    verb = sent.tokens[subj.head]
    return subj.text[:1].isupper() and subj.tag == "NN" and not sent.children(subj.i) and verb.lemma == "be" and any(
        c.dep == "attr" and c.pos == "NUM" and re.fullmatch(r"\d{1,2}", c.text) for c in sent.children(verb.i))


def _inverted(toks: Sequence[Token]) -> bool:
    """ "can you…", "do you…", "is it…", "what time…": a question without its question mark."""
    first = next((t for t in toks if t.lower not in lx.CLAUSE_ADVERBS and t.pos != "INTJ"), None)
    if first is None:
        return False
    if first.tag in ("WDT", "WP", "WP$", "WRB") and first.i + 1 < len(toks) and toks[first.i + 1].pos in ("AUX", "VERB", "NOUN", "ADJ", "ADV"):
        return True
    if first.pos == "AUX" and first.tag not in ("VBN", "VBG") and first.i + 1 < len(toks) and toks[first.i + 1].dep in ("nsubj", "expl"):
        return True
    return False


def _request(toks: Sequence[Token], root: Token, subj: Token | None, question: bool) -> bool:
    words = [t.lower for t in toks]
    if "please" in words or "pls" in words or "plz" in words:
        return True
    if subj is not None and subj.lower in ("you", "u") and any(t.lemma in ("can", "could", "would", "will") for t in toks[: subj.i]):
        return True
    if subj is None and root.tag == "VB" and root.i == next((t.i for t in toks if t.lower not in lx.CLAUSE_ADVERBS and t.pos != "INTJ"), 0):
        return not lived(toks)  # an imperative: "book me a table", "remind me on Friday"; not "drive a corsa"
    if root.lemma in ("need", "want") and any(t.lower in ("you", "u") for t in toks[root.i + 1 : root.i + 3]):
        return True  # "I need you to …"
    return False  # "do you ever get tired of questions?" asks about the assistant; it requests nothing


def _hedged(sent: Sentence, root: Token, aux: set[str], words: set[str], lemmas: set[str]) -> bool:
    if aux & lx.HEDGE_MODALS:
        return True
    if "rather" in words or "prefer" in lemmas:
        return False  # "I'd rather have meetings after lunch": a preference, not a maybe
    if aux & {"would"} and not (root.lemma in lx.WANT_VERBS and not any(c.dep == "xcomp" for c in sent.children(root.i))):
        return True  # "I'd buy a boat", "I would love to see Japan"; but "I'd like a window seat" is a preference
    if words & lx.HEDGE_WORDS or any(p in sent.text.lower() for p in lx.HEDGE_PHRASES):
        return True
    if root.lemma in lx.HEDGE_VERBS or _inflected(root.lower) & lx.HEDGE_VERBS:
        return True  # "thinking about getting a dog", "hoping to move", "considering a masters"
    if "either" in words and "or" in words and root.tag not in ("VBP", "VBZ", "VBD"):
        return True  # "looking at either the YHA or an airbnb": not chosen yet ("I either walk or cycle" is a habit)
    if root.lemma == "decide" and any(t.dep == "neg" for t in sent.children(root.i)):
        return True  # "still haven't decided about clydesdale"
    if any(t.dep == "mark" and t.lower in ("if", "unless") and not _yours(sent, t.head) and not mood.for_others(sent, t.head) for t in sent.tokens):
        return True
    return False


def _yours(sent: Sentence, verb: int) -> bool:
    """A condition on the other speaker needing what was just said ("my number is … if you need it", "if u want
    it"): it hedges nothing the speaker says of themselves ("if you need help I'm in" is an offer)."""
    kids = sent.children(verb)
    return sent.tokens[verb].lemma in lx.WANT_VERBS | {"need"} and any(c.dep == "nsubj" and c.lower in lx.SECOND_PERSON for c in kids) and any(
        c.dep == "dobj" and c.lower in ("it", "them", "that", "this") for c in kids)


def _inflected(word: str) -> set[str]:
    """The base forms ``word`` may inflect, whatever the lemmatiser said ("hoping" is lemmatised "hop")."""
    out = {word}
    for end, back in (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", "")):
        if word.endswith(end) and len(word) > len(end) + 2:
            out.add(word[: -len(end)] + back)
    return out


def first_person(text: str) -> bool:
    return bool(re.search(r"(?i)\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|our|ours|ourselves|us)\b", text))


def _past_passive(toks: tuple[Token, ...] | list[Token], root: Token) -> bool:
    """A participle after a past "be" ("the car was stolen"): an event; after a present one ("Andrei and I are
    finished", "the windows are cleaned weekly") a state or a habit."""
    if root.tag != "VBN":
        return False
    be = [t for t in toks if t.dep in ("aux", "auxpass") and t.lemma == "be"]
    return bool(be) and not all(t.tag in ("VBP", "VBZ") for t in be)


_ONE_DAY = frozenset("monday tuesday wednesday thursday friday saturday sunday tomorrow tonight".split())


def _coming(sent: Sentence, root: Token) -> bool:
    """Something under way for one coming day: "going Newcastle for coal on friday", "have a group from Hamburg
    arriving friday" (a progressive with a single day, not "fridays" or "every friday")."""
    progressive = root.tag == "VBG" or any(t.tag == "VBG" and t.dep in ("acl", "xcomp", "ccomp") for t in sent.tokens)
    return progressive and any(t.lower in _ONE_DAY or (t.lower == "next" and t.dep == "amod") for t in sent.tokens)

