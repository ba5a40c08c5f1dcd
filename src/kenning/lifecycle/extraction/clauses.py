"""Clauses: a parsed sentence cut into one-claim clauses.

Splitting is syntactic, not a list of phrases. A sentence is cut at its
separators (commas, semicolons, dashes, "and", "but", "so", "plus"); a
piece becomes a clause of its own when it is one: it has its own subject
and verb ("she loves it"), or, read with the subject it shares, its first
word is a verb ("…, work nights as a nurse" read as "I work nights as a
nurse"). Any other piece stays with the clause before it ("nuts and
shellfish", "sorry, three"), so noun lists and afterthoughts are not cut.
Each clause is then read on its own parse (``reading.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from kenning.lifecycle.extraction import corrections, mood, rows
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.complements import complement_of, first_person_be
from kenning.lifecycle.extraction.parse import Parser, Sentence, Token, known_verb
from kenning.lifecycle.extraction.pieces import first_content as _first_content
from kenning.lifecycle.extraction.pieces import bracketed, manner_adverb, opener, pieces, rejoin_subjects
from kenning.lifecycle.extraction.shared import amount_row, closed, conditional_order, depends_back, shared_modal, subject_before, subordinate, restore


def _has_subject_verb(sent: Sentence, a: int, b: int) -> bool:
    inside = bracketed(sent)  # "studying for the lsat (test is june 13)": an aside in brackets is no subject of the piece's
    for t in sent.tokens[a:b]:
        if t.i in inside:
            continue
        if t.dep == "conj" and t.head < a and sent.tokens[t.head].dep in ("nsubj", "nsubjpass") and a <= sent.tokens[t.head].head < b:
            return True  # "…, top floor tenement, | bramble is raging about the stairs": the parser joined two subjects
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


def split(parser: Parser, sent: Sentence) -> list[str]:
    """The clauses of ``sent``, as text; a clause that shares its subject gets it restored in front."""
    spans = rejoin_subjects(sent, pieces(sent))
    if len(spans) == 1 and spans[0][0] > 0 and sent.tokens[spans[0][0] - 1].text == ":":
        return [_words(sent, spans[0][0], len(sent.tokens))]  # "for the recipe thing later: | I'm allergic to sesame"
    if len(spans) <= 1:
        return [sent.text]
    kinds: list[str] = []  # "own" (subject and verb), "verb" (shares the subject), "bare" (an imperative), "be", "rest"
    copulas: dict[int, str] = {}
    listed: dict[int, str] = {}
    probe: list[int] = []
    alone: list[int] = []
    for n, (a, b) in enumerate(spans):
        first = _first_content(sent, a, b)
        if n > 0 and subordinate(sent, *spans[n - 1]) and not (_has_subject_verb(sent, a, b) and closed(sent, *spans[n - 1])):
            kinds.append("rest")  # "whenever you book a hotel for me, ask for a high floor": one rule
            continue
        if n > 0 and sent.tokens[a].lower in ("please", "pls", "plz", "kindly") and b - a >= 3:
            kinds.append("bare")  # "lactose intolerant so | pls no paneer-heavy recipes": a request of its own
            continue
        if n > 0 and (corrections.is_marker(_words(sent, a, b)) or depends_back(sent, a)):
            kinds.append("rest")
            continue
        if n > 0 and first is not None and first.dep == "conj" and sent.tokens[first.head].dep in ("relcl", "pcomp", "xcomp") and first.head < a:
            kinds.append("rest")  # "Liam who's 8 | and loves rugby", "thinking about selling the herd | and going …": it goes on
            continue
        if _has_subject_verb(sent, a, b):
            kinds.append("rest" if n > 0 and _completes(sent, a, b) else "own")
            continue
        if n > 0 and conditional_order(sent, a, b):
            kinds.append("bare")  # "…iphone 12 so | if you're giving me instructions keep it to the iphone": an order
            continue
        if n > 0 and first is not None and first.dep == "conj" and first.head < a and done_to_me(sent, first) and _third_party_did(sent, first.head):
            kinds.append("verb")  # "she took me off it | and put me on sertraline": what she did, not an order
            continue
        if n > 0 and first is not None and done_to_me(sent, first):
            kinds.append("bare")  # "i gave up fasting, | was making me cranky": said of the thing, not by the speaker
            continue
        pleads = any(t.lower in ("please", "pls", "plz") for t in sent.tokens[a:b])
        head = sent.tokens[first.head] if first is not None else None
        if head is not None and head.dep in ("acomp", "attr") and sent.tokens[head.head].lemma == "be" and first.dep == "conj":
            head = sent.tokens[head.head]  # "I am 58 years old and work since 30 years as …": joined to the "am"
        shared = (first is not None and head is not None and b - a >= 2 and first.dep == "conj" and first.head < a
                  and head.pos in ("VERB", "AUX") and (head.lemma != "be" or first_person_be(sent, head, first))
                  and not (head.tag == "VBZ" and first.tag == "VB")
                  and not pleads and first.lemma not in lx.RETRACT_VERBS and not _noun_read_as_verb(first, sent.tokens[first.i + 1 : b]))
        if shared and n > 0:
            kinds.append("verb")  # "they motivate me and give me strength": the verb shares the subject before it
            continue
        dont = first is not None and first.lemma == "do" and first.dep == "aux" and mood.forbidden(sent, sent.tokens[first.head])
        if n > 0 and first is not None and (first.tag == "VB" or (pleads and first.tag == "VBP") or dont) and first.lower not in lx.NOT_PREDICATES:
            kinds.append("bare")  # "…, schedule my workouts at 6am please": a request of its own
            continue
        if n > 0 and (row := amount_row(sent, a, b, spans[n - 1])) is not None:
            kinds.append("row")  # "rent is 1650, | car payment 380": another row of the list, its "is" left out
            listed[n] = row
            continue
        if n > 0 and _counted_kin(sent, a, b):
            kinds.append("be")  # "we live in Sheffield, …, two kids Isla (9) and Rory (6)": who the speaker has
            copulas[n] = "I have"
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
            if n > 0 and first is not None and b - a >= 2 and (first.pos == "PROPN" or first.dep in ("poss", "det") or _noun_then_verb(sent, first, b)) \
                    and not _joined_subject(sent, a, b):
                alone.append(n)  # "…, and the wife, Carol, does all the books": a clause the long parse missed
    owner = next((n for n, k in enumerate(kinds) if k == "own"), None)
    needs = next((n for n, k in enumerate(kinds) if k in ("probe", "verb")), None)
    # a subject said only after the pieces that lack one is not theirs ("seein a girl called tahlia, | she's a vet nurse")
    subject = _subject_words(sent, *spans[owner]) if owner is not None and (needs is None or owner < needs) else None
    lead_verb = _first_content(sent, *spans[0])
    dropped = lead_verb is not None and (lead_verb.tag in ("VBD", "VBN", "VBG", "MD") or (  # "Got diagnosed…": a capital read as a name
        lead_verb.tag == "NNP" and lead_verb.pos in ("VERB", "AUX"))) and lead_verb.lower not in lx.NOT_PREDICATES
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
        # each probe with the subject it would get below: that of the nearest clause of its own before it
        nearest = {n: next((_subject_words(sent, *spans[m]) for m in range(n - 1, -1, -1) if kinds[m] == "own"), None) or subject for n in probe}
        texts = [f"{restore(nearest[n], _first_content(sent, *spans[n]))} {_words(sent, *spans[n])}" for n in probe]
        for n, parsed in zip(probe, parser.parse(texts)):
            kinds[n] = "verb" if parsed and _reads_as_clause(parsed[0]) else "rest"
    out: list[list] = []  # [prefix, first token, end token]: a merged piece keeps the words between, "and" included
    last_subject = subject
    own_i = dropped and kinds[0] == "rest" and (subject or "").lower() != "i"
    if own_i:
        kinds[0] = "verb"  # "Got diagnosed with heart failure in June, | mild they reckon": the lead's own "I", not a later subject
    for n, ((a, b), kind) in enumerate(zip(spans, kinds)):
        first = _first_content(sent, a, b)
        who = "I" if n == 0 and own_i else last_subject
        lead = restore(who, first) if who else who
        if kind == "row":
            out.append([listed[n], b, b])
        elif kind == "be":
            out.append([f"{copulas[n]} ", _after_fillers(sent, a, b), b])
        elif kind == "verb" and who:
            modal = shared_modal(sent, first)  # "i might go back to college | and do hairdressing": the pair's "might"
            if (named := subject_before(sent, a, b)) is not None:
                lead = named  # "the new family across the road, the okafors, | have twin boys": the parse's own subject
            elif modal is None and _acts_on_it(sent, a, b) and who.split()[-1].lower() in lx.OWN_NOUNS:
                lead = restore("I", first)  # "car is gone, | flogged it on trade me": the thing is what was acted on
            if modal is not None:
                lead = f"{lead} {modal}"
            out.append([f"{lead} ", _after_fillers(sent, a, b), b])  # "yeah set it up…" -> "I set it up…"
        elif kind == "own" or kind == "bare" or not out:
            if kind == "own" and n + 1 < len(spans) and first is not None and first.dep == "mark" and first.lower in lx.FACT_MARKS:
                a = first.i + 1  # "since they bumped me up …": what happened, without the word tying it to what follows
            out.append(["", a, b])
            if kind == "own":
                last_subject = _subject_words(sent, a, b) or last_subject
        else:
            out[-1][2] = b
    return [f"{prefix}{_lowered(sent, a, b) if prefix else _words(sent, a, b)}" for prefix, a, b in out]


_KIN_PLURALS = frozenset({"kids", "children", "boys", "girls", "sons", "daughters", "grandkids", "grandchildren", "stepkids"})


def _counted_kin(sent: Sentence, a: int, b: int) -> bool:
    """A piece that opens with a number of children, no verb of its own: "two kids Isla (9) and Rory (6)"."""
    words = [t for t in sent.tokens[a:b] if t.pos not in ("PUNCT", "INTJ") and t.lower not in lx.CLAUSE_ADVERBS]
    return len(words) >= 2 and words[0].pos == "NUM" and words[1].lower in _KIN_PLURALS and not any(
        t.pos in ("VERB", "AUX") and not in_relative(sent.tokens, t) for t in words)


def _noun_then_verb(sent: Sentence, first: Token, b: int) -> bool:
    """A bare noun right before a finite verb: "…at king's so | sundays are my only rest day", a subject the long
    parse took for an object."""
    nxt = sent.tokens[first.i + 1] if first.i + 1 < b else None
    return first.pos == "NOUN" and nxt is not None and nxt.tag in ("VBZ", "VBP", "VBD", "MD")


def _lowered(sent: Sentence, a: int, b: int) -> str:
    """A piece's words once a subject is put before them, its first word lowered if it only opened the sentence:
    "Got diagnosed…" -> "got diagnosed…" (never a name: "Leeds")."""
    text = _words(sent, a, b)
    tok = next((t for t in sent.tokens[a:b] if t.text.strip()), None)
    if tok is None or not (tok.text.istitle() and tok.pos in ("VERB", "AUX", "ADV")) or not text.startswith(tok.text):
        return text
    return text[:1].lower() + text[1:]


def done_to_me(sent: Sentence, verb: Token) -> bool:
    """A verb done to the speaker ("was making me cranky", "drives me mad"): its subject is not the speaker."""
    if verb.dep in ("aux", "auxpass") and verb.head != verb.i:
        verb = sent.tokens[verb.head]  # "was | making me …"
    if verb.tag == "VB" and verb.i == next((t.i for t in sent.tokens if t.pos not in ("PUNCT", "INTJ") and t.lower not in lx.CLAUSE_ADVERBS), -1):
        return False  # "remind me I prefer WhatsApp": an order to the listener
    if any(c.dep in ("nsubj", "nsubjpass", "expl") for c in sent.children(verb.i)):
        return False  # "she drives me mad": its subject is said
    small = {c.i for c in sent.children(verb.i) if c.dep in ("ccomp", "xcomp")}  # "making [me cranky]"
    return any(t.lower == "me" and (t.dep in ("dobj", "dative") and t.head == verb.i or t.dep == "nsubj" and t.head in small) for t in sent.tokens)


def _third_party_did(sent: Sentence, verb: int) -> bool:
    """Whether a verb's own subject is someone other than the speaker or the listener ("she took me off it")."""
    return any(c.dep == "nsubj" and c.lower not in lx.FIRST_PERSON_STARTS and c.lower not in lx.SECOND_PERSON and c.lower not in ("it", "that", "this")
               for c in sent.children(verb))


def _after_fillers(sent: Sentence, a: int, b: int) -> int:
    """Where a piece's words start once conjunctions, punctuation and fillers are left out; adverbs that
    carry meaning stay ("and never smoked" -> "never smoked", not "smoked")."""
    i = a
    while i < b - 1 and (sent.tokens[i].pos in ("PUNCT", "CCONJ", "INTJ") or sent.tokens[i].lower in lx.FILLER_WORDS):
        i += 1
    return i


def _subject_words(sent: Sentence, a: int, b: int) -> str | None:
    inside = bracketed(sent)
    for t in sent.tokens[a:b]:
        if t.dep in ("nsubj", "nsubjpass") and a <= t.head < b and t.i not in inside:
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
    inside = bracketed(sent)  # "(test is june 13 pray for me)": an aside in brackets orders nothing
    return any(t.lower in ("me", "myself") and t.dep in ("dobj", "pobj", "dative") and not in_relative(sent.tokens, t) and t.i not in inside
               for t in sent.tokens[a:b])


def in_relative(toks: Sequence[Token], tok: Token) -> bool:
    """Whether ``tok`` is inside a clause that describes a noun ("… which keeps me sane", "the thing keeping me
    sane"): what it says is not what the main verb does."""
    seen = set()
    while tok.i not in seen:
        if tok.dep in ("relcl", "acl"):
            return True
        if tok.head == tok.i:
            return False
        seen.add(tok.i)
        tok = toks[tok.head]
    return False


def lived(toks: Sequence[Token]) -> bool:
    """A clause opening with a bare verb of what a person does with their life, which the other speaker
    cannot do for them ("drive a 2015 hilux", "support gor mahia", "ride an e-bike mostly evenings"): the "I"
    left out, not an order. Never when it is said to or for someone ("keep me posted", "teach me to knit")."""
    first = next((t for t in toks if t.lower not in lx.CLAUSE_ADVERBS and t.pos not in ("INTJ", "PUNCT")), None)
    if first is None or first.tag not in ("VB", "VBP") or first.lemma not in lx.LIFE_VERBS and not _row_verb(toks, first) and not _has_named(toks, first):
        return False
    return not any(t.lower in ("me", "myself", "us", "please", "pls", "plz") or t.lower in lx.SECOND_PERSON for t in toks)


def _has_named(toks: Sequence[Token], verb: Token) -> bool:
    """ "have a ferret called Kumara", "got two boys named Ade and Tobi": something of one's own, by its name
    (never "have a look", "have a good one")."""
    if verb.lemma not in ("have", "get"):
        return False
    objs = [t for t in toks if t.head == verb.i and t.dep == "dobj"]
    return any(t.head == o.i and t.dep == "acl" and t.lemma in ("call", "name") for o in objs for t in toks)


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


def _noun_read_as_verb(verb: Token, after: list[Token]) -> bool:
    """ "gluten was the problem": a word the tagger took for a verb, that no dictionary lists as one, before a
    finite verb of the clause's own."""
    return verb.tag in ("VB", "VBP") and verb.pos != "AUX" and not verb.lower.startswith("'") and not known_verb(verb.lower) and any(
        t.tag in ("VBD", "VBZ") for t in after)


def _reads_as_clause(s: Sentence) -> bool:
    """ "I work nights as a nurse": the word after the restored subject is the verb it governs."""
    if len(s.tokens) < 2:
        return False
    subj, verb = s.tokens[0], s.tokens[1]
    while (verb.lower in lx.CLAUSE_ADVERBS or verb.lower in lx.HEDGE_WORDS) and verb.i + 1 < len(s.tokens):  # "we maybe moving up …"
        verb = s.tokens[verb.i + 1]
    if _noun_read_as_verb(verb, s.tokens[verb.i + 1 :]):
        return False
    if subj.lower in ("i", "we") and verb.tag == "VBZ":
        return False  # "…, phones her old dad for money": a verb in -s left its subject out, and that was never "I"
    return verb.tag.startswith("VB") or verb.pos in ("VERB", "AUX") and subj.dep in ("nsubj", "nsubjpass")


# -- reading one clause ------------------------------------------------------------------
