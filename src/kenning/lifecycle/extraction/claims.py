"""Claims: what each clause of a user turn says, as a one-claim candidate memory, or nothing.

The parse decides *whether* and *about whom* a clause is a claim; ``grade``
(the rules classifier, then the parse) decides its wording, kind and
importance. In order:

1. Chit-chat says nothing (``noise``): greetings, thanks, agreement and
   praise, a comment on something ("that sounds great"), the other speaker's
   world ("you both looked great", "your art's amazing"), bare verbs and
   fragments. A pointer ("forget what I said about…", ``pointers``) is an
   instruction for reconciliation, never stored itself.
2. A question or request to the assistant is an episode at most.
3. A hedge (might, maybe, thinking about, if…, would love to) is never a
   fact: a low-confidence episode marked ``hedge``, which reconciliation
   never lets retire anything.
4. A third party's claim is stored about them ("my sister lives in Rome" ->
   "User's sister lives in Rome"); he/she/they are read as the last person
   the turn named, and dropped when nobody was named.
5. A past event is an episode unless it states an attribute (a move, a new
   job); "used to" ends a habit.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kenning.lifecycle import extract as rules
from kenning.lifecycle import safety, secrets, slots
from kenning.lifecycle import changes as change_markers
from kenning.lifecycle.extraction import addressee, asking, corrections, ellipsis, exchange, mood, noise, people, pointers
from kenning.lifecycle.extraction import attributes, endings, hearsay, passing, reading, referents, similes, unsaid
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.grade import EPISODE_IMPORTANCE, HEDGE_CONFIDENCE, grade, hedge
from kenning.lifecycle.extraction.lexicon import first_person
from kenning.lifecycle.extraction.normalise import trim
from kenning.lifecycle.extraction.parse import Parser, Sentence, Token
from kenning.lifecycle.extraction.pieces import opener, orders, without_reasons
from kenning.lifecycle.extraction.reading import Clause, read
from kenning.lifecycle.extraction.referents import TurnState, parser_sentence
from kenning.lifecycle.extraction.turns import turn_pieces
from kenning.lifecycle.person import third_person
from kenning.types import Kind, Memory, Source


def clause_claims(parser: Parser, text: str, index: int, state: TurnState) -> tuple[list[rules.Claim], list[str]]:
    """The claims of one (masked) user turn."""
    withheld: list[str] = []
    sarcastic = bool(rules._SARCASM.search(text))
    cut = turn_pieces(parser, text)
    parser = state.parser = cut.parser
    pieces, known, addressed = cut.pieces, cut.known, cut.addressed
    state.alone = len(pieces) == 1
    todo = cut.todo
    known.update(zip(todo, parser.parse(todo)))
    parses = [known[p] for p in pieces]
    spoken = [_words(s) for s in cut.spoken]
    made: list[tuple[int, rules.Claim]] = []  # each claim with the sentence of the turn it came from
    for piece, parsed in zip(pieces, parses):
        if secrets.SECRET_MARK in piece:
            withheld.append("secret")
            piece = _before_secret(piece)  # "book the flight to Lagos on the 18th, I'll pay with my visa █": the booking stays
            if not piece or not (parsed := parser.parse([piece])[0]):
                continue
        if not parsed:
            continue
        value = corrections.standalone(piece)
        if value is not None:  # "wait no, 7pm": a correction of what an earlier turn said, decided by reconciliation
            made.append((_sentence_of(piece, spoken), _instruction(f"User corrected it to {value}", index, correct_to=value)))
            continue
        spelling = corrections.spelled(piece)
        if spelling is not None:  # "it's caitlin with a c": the name said before is respelt
            made.append((_sentence_of(piece, spoken), _instruction(f"User spells it {spelling}", index, correct_to=spelling, spelling=True)))
            continue
        sent = parsed[0]  # a clause the parser splits again: its first sentence carries the subject
        if made and (name := _NAME_IS.fullmatch(piece.strip())) and (one := _HAS_ONE.fullmatch(made[-1][1].text)):
            # "I have one cat, name is Bagsh": the name is the cat's, said as one claim
            called = f"I have {one.group(1)} {one.group(2)} called {name.group(1)[:1].upper()}{name.group(1)[1:]}"
            again = parser.parse([called])[0]
            redo = _claim(read(again[0], others=state.others), again[0], called, index, sarcastic, state) if again else []
            if redo:
                made[-1] = (made[-1][0], redo[0])
                continue
        bare = similes.without(sent, piece) if len(parsed) == 1 else piece
        if bare != piece and (again := parser.parse([bare])[0]):  # "Kenny snores like a tractor": Kenny snores
            piece, sent = bare, again[0]
        meant = ellipsis.as_meant(sent, piece)
        if meant is not None:  # said with words left out or wrapped in a question: parsed as meant
            piece = meant
            sent = parser.parse([piece])[0][0]
        elif (full := unsaid.in_full(parser, sent)) is not None:  # "work at a call centre in sunderland doing insurance claims"
            piece, sent = full
        said = referents.what_it_is(sent, piece, state)
        used = said != piece
        if used:  # "it's a white transit" after "bought a new van": said of the van
            piece, sent = said, parser.parse([said])[0][0]
        owned = people.owner_named(piece, state.others)
        if owned != piece and (again := parser.parse([owned])[0]):  # "his name is dave" after "my husband": the husband's
            piece, sent = owned, again[0]
        clause = read(sent, others=state.others)
        named = [n for n in people.named(sent) if n not in addressed]
        ended = referents.ended_it(sent, piece, state)
        if ended != piece and (again := parser.parse([ended])[0]):
            piece, sent, clause = ended, again[0], read(again[0], others=state.others)  # "swapped yoga for …": read as said
        piece = referents.resolve_it(sent, piece, state)
        if clause.question and not clause.request and not clause.hedged and reading.declarative(sent):
            clause = replace(clause, question=False, hedged=True)  # "going freelance, or maybe contracting?"
        elif state.hedged and reading.alternative(sent):
            clause = replace(clause, hedged=True)
        got = _claim(clause, sent, piece, index, sarcastic, state)
        if not got and not clause.hedged:
            got = _reason_claims(parser, sent, index, sarcastic, state)
        elif (clause.request or clause.question) and not clause.hedged:
            # "can you help me with the money I'm saving since I quit the cigarettes 7 weeks ago?": the news said
            # on the way to asking is the user's own
            got = got + _reason_claims(parser, sent, index, sarcastic, state)
        elif clause.subject == "none" and not clause.hedged:
            # "need a high protein dinner idea, …, since i went vegetarian last month": a reason that sets one of
            # the user's attributes is news of its own
            # ("ironic cos i teach year 4": a comment word with no subject says nothing; the reason is the news)
            comment = any(t.dep == "ROOT" and t.pos == "ADJ" for t in sent.tokens)
            reasons = [c for c in _reason_claims(parser, sent, index, sarcastic, state) if comment or slots.parse(c.text) is not None]
            rest = without_reasons(sent) if reasons else ""
            if rest and (again := parser.parse([rest])[0]):  # the rest without the reason, so the two stay two claims
                got = _claim(read(again[0], others=state.others), again[0], rest, index, sarcastic, state)
            got = got + reasons
        elif orders(sent) and not clause.hedged:  # "add that I'm a divemaster": the reading took the "I" for the order's
            got = got + _reason_claims(parser, sent, index, sarcastic, state)
        if not clause.hedged and (home := passing.implied(sent)) and not _sets(parser, got, home.split(" ", 3)[3]):
            # "the new place in leeds has SUCH a tiny kitchen": where the user lives now, said in passing
            got = got + _claim(read(again := parser_sentence(home, state), others=state.others), again, home, index, sarcastic, state)
        contrast = _contrasted(piece, cut.contrasts)
        if not got and (change_markers.corrects(piece) or contrast):
            # "sorry she's 8 not 7", "the dentist is the 14th not the 12th": nothing to store, a value to correct
            got = [_instruction(third_person(piece), index, pointer=True, pointer_topic="")]
        if contrast:  # reconciliation corrects a memory that holds the old value (changes.contrast_correction)
            got = [replace(c, metadata={**c.metadata, "contrast_old": contrast[0], "contrast_new": contrast[1]}) for c in got]
        if clause.hedged and made and mood.hedges_back(sent):  # "… move up to Knoxville. Might do it, might not": a maybe
            last = made[-1][0]
            made = [(n, _as_hedge(c) if n == last and c.kind is not Kind.PROCEDURE else c) for n, c in made]
        state.hedged = clause.hedged
        state.others.extend(named)
        state.genders.update(people.genders(sent))
        state.things.extend(referents.things(sent))
        state.replaced.extend(referents.replaced(sent))
        state.ended.extend(referents.ended(sent))
        state.named = referents.object_named(sent)
        state.new = referents.new_things(sent) or ([] if used else state.new)
        state.changed = [f"my {noun}"] if (noun := endings.changed_row_noun(sent)) else ([] if used else state.changed)
        at = _sentence_of(piece, spoken)
        if pointers.pointer_topic(sent) == pointers.LAST and made and not state.alone:
            # "I'll be in Denver the week of the 9th… actually scratch that, …": what the turn said just before is taken back
            back = at if any(n == at for n, _ in made) else max(n for n, _ in made)
            made = [(n, c) for n, c in made if n != back]
        made.extend((at, c) for c in got)
    return [c for _, c in made], withheld


_SEPARATOR = re.compile(r"\s*(?:[,;:]|\s[—–-])\s+")


def _before_secret(piece: str) -> str:
    """The clauses of ``piece`` before the one holding a masked secret, cut at the last separator before the mark
    ("… from heathrow, economy, ill pay with my visa █secret█" -> "… from heathrow, economy"); "" when the secret's
    clause opens the piece or too little is left to say anything."""
    head = piece[: piece.index(secrets.SECRET_MARK)]
    cuts = list(_SEPARATOR.finditer(head))
    kept = head[: cuts[-1].start()].strip() if cuts else ""
    return kept if len(kept.split()) >= 3 and secrets.SECRET_MARK not in kept else ""


def _owned_noun(subject: str) -> bool:
    """A subject that names a thing of the user's: "car", "rent for my studio", "day job"."""
    words = subject.lower().split(" ")
    if len(words) == 2 and words[0] in lx.OWN_MARKS:
        return True  # "main game is valorant": the reader took it for the user's (never "main thing"); "my" left out
    return words[0] in lx.OWN_NOUNS or (len(words) == 2 and words[1] in lx.OWN_NOUNS)


_NAME_IS = re.compile(r"(?i)(?:(?:and|but)\s+)?(?:(?:his|her|its|their)\s+)?name(?:'s|\s+is)\s+([a-z][\w'-]*)[\s.!]*")
_HAS_ONE = re.compile(r"User (?:has|has got) (a|an|one) ([a-z][\w-]*)\.")


def _as_hedge(claim: rules.Claim) -> rules.Claim:
    return replace(claim, kind=Kind.EPISODE, importance=EPISODE_IMPORTANCE, confidence=min(claim.confidence, HEDGE_CONFIDENCE),
                   metadata={**claim.metadata, "hedge": True})


_WHERE_TO = frozenset("to into through back out over away abroad home house in up down across from".split())


def _went(sent: Sentence, first: Token) -> bool:
    """A word of feeling used as a verb of going somewhere: "moved to Leeds in March", "moved house" (not
    "moved by the speech")."""
    return first.pos == "VERB" and first.lemma == "move" and any(
        c.lower in _WHERE_TO for c in sent.children(first.i) if c.dep in ("prep", "advmod", "prt", "dobj", "npadvmod"))


def _sets_users(text: str, state: TurnState) -> bool:
    """Whether a clause about someone else sets one of the user's own attributes ("they let me go")."""
    fact = attributes.read(parser_sentence(third_person(text), state))
    return fact is not None and fact.subject == "user"


def _sentence_of(piece: str, spoken: list[set[str]]) -> int:
    """The sentence of the turn (by its words) a piece was cut from: the one sharing most of its words."""
    words = _words(piece)
    return max(range(len(spoken)), key=lambda n: len(words & spoken[n]), default=0)


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _claim(clause: Clause, sent: Sentence, piece: str, index: int, sarcastic: bool, state: TurnState) -> list[rules.Claim]:
    if (denied := pointers.denied_before(sent)) is not None:  # "turns out it was never lactose": what it takes back
        return [_instruction(third_person(piece), index, pointer=True, pointer_topic=denied)]
    if pointers.pointer_topic(sent) is None and noise.is_noise(clause, sent):
        return []
    if clause.question and asking.elliptical_after(sent):
        return []  # "surgery go ok?": asking after the other speaker's news
    if exchange.between_friends(clause, sent):
        return []  # "keep it up!", "need any help?", "let's make it count", "what was the best part?"
    if hearsay.reported(clause, sent):
        return []  # "my uncle says river will win the league": someone's opinion passed on
    if pointers.reports_earlier(sent):
        return []  # "I said rory was 6 (, he's actually 7)": the user quoting themselves, no claim
    text = mood.without_condition(sent, piece)
    if clause.root == "get" and not clause.past and (had := re.match(r"(?i)^\W*(?:I\s+)?(got)\b", text)):
        text = text[: had.start(1)] + "have got" + text[had.end(1):]  # "got a little girl called poppy": chat's "I've got"
    if ellipsis.noun_read_as_verb(sent):  # "I carver in Iqaluit", "I lactose intolerant": what the speaker is, "am" left out
        text = re.sub(r"(?i)\b(I|we)\s+", lambda m: "I'm " if m.group(1).lower() == "i" else "we're ", text, count=1)
    if clause.subject == "other" and not _names_person(clause) and noise.owned_figure(sent):
        clause = replace(clause, subject="thing")  # "pb is 21:40": a lowercase word the tagger took for a name
    if clause.subject == "other" and people.bare_kin(opener(sent), sent):
        text = "My " + text[:1].lower() + text[1:]  # "missus is shaz", "hubby works nights": chat drops the "my"
    if clause.subject == "other":
        m = people.PRONOUN_SUBJECT.match(text)
        if m and m.group(1).lower() == "they" and (_sets_users(text, state) or people.done_to_user(sent)):
            # "they let me go last month", "they raised the rent to £720", "they gave me the senior title": whoever
            # "they" are, what the user has now is known
            m = None
        if placed := people.placed_me(sent):
            # "she put me on sertraline", "they took me off the amlodipine": whoever did it, where the user is now
            out: list[Memory] = []
            for text in placed:
                parsed = parser_sentence(text, state)
                out.extend(_claim(read(parsed, others=state.others), parsed, text, index, sarcastic, state) if parsed.tokens else [])
            return out
        if m and (changed := people.changed_mine(sent)) is not None:
            # "she's upped my sertraline to 100mg": whoever "she" is, the user's dose is now known
            parsed = parser_sentence(changed, state)
            return _claim(read(parsed, others=state.others), parsed, changed, index, sarcastic, state) if parsed.tokens else []
        if m:
            if not state.others or any(t.tag == "MD" for t in sent.tokens):
                return []  # "she loves it" with nobody named: not knowable; "he can control the lights": no fact
            if m.group(1).lower() == "they" and not people.plural(state.others[-1]):
                return []  # "they've put me on a housing case" after "Skye": not that person; nobody knowable
            who = people.antecedent(m.group(1), state.others, state.genders)
            if who is None:
                return []  # "she's 67" after "my dad" alone: nobody named could be "she"
            many = people.plural(who)
            text = text[: m.start(1)] + who + people.spelt_out(text[m.end(1) :], many)
        elif not first_person(text) and not _names_person(clause) and not people.died(sent) and not _sets_users(text, state):
            return []  # (but "the landlord raised the rent to £720" sets the user's rent)
    if clause.subject == "none" and not (clause.request or clause.question):
        lead = ellipsis.dropped_subject(sent)
        first = opener(sent)
        if lead and first is not None and (first.lower in lx.FEELINGS or first.lemma in lx.FEELINGS) and not _went(sent, first):
            return []  # "thankful for all the support", "relaxing": a mood, not a claim
        if lead and not noise.has_content(sent) and not any(t.dep == "xcomp" and t.pos == "VERB" for t in sent.tokens):
            return []  # "Relaxing.", "loving it": a word or two of mood, nothing to keep ("learning to drive" is something)
        if lead:
            rest = ellipsis.without_fillers(text)
            rest = rest[:1].lower() + rest[1:] if rest[:2].istitle() and not rest.split()[0].isupper() else rest
            text = f"{lead} {rest}"  # "moved through to glasgow last month": chat drops the "I"
            clause = replace(clause, subject="user", subject_text=lead)
    if clause.subject == "user" and re.match(r"(?i)the\s", text) and not first_person(text):
        text = "My " + text[4:]  # "the shellfish allergy is severe now": the user's own allergy
    elif clause.subject == "user" and not _owned_subject(sent, text) and _owned_noun(clause.subject_text) and text.lower().startswith(clause.subject_text.lower()):
        text = "My " + text  # "car is gone": chat drops the "my"
    if clause.subject == "thing" and (noise.owned_figure(sent) or noise.own_bare(sent)) and not first_person(text):
        text = "My " + re.sub(r"(?i)^(?:the|our|my)\s+", "", text)  # "total budget is £12,000" -> "My total budget …"
    pointer = pointers.pointer_topic(sent)
    if pointer == pointers.LAST and not state.alone:
        return []  # "scratch that, I'm not allergic to cats": the rest of the turn says what changes
    if pointer is not None:
        # "forget what I said about me and Dan splitting up": an instruction about memory, decided by reconciliation
        return [_instruction(third_person(text), index, pointer=True, pointer_topic=pointer)]
    short = sum(1 for t in sent.tokens if t.pos not in ("PUNCT", "DET", "ADP", "CCONJ")) <= 4
    if clause.root == "thank" or (not noise.has_verb(sent) and not (clause.question and noise.has_content(sent)) and not any(t.pos in ("PROPN", "NUM") for t in sent.tokens) and (short or not first_person(text))):
        return []  # thanks, and verbless fragments ("happy new year!!", "my dear!", "first ever half")
    if not clause.request and addressee.about_the_other(sent):
        return []  # "congrats on following your dreams", "I really appreciate your help": about the other speaker
    if clause.subject == "none" and not clause.request and not first_person(text) and noise.comment_without_subject(sent):
        return []  # "sounds great, Mel", "looks so cozy": "it" left out of a comment
    if (clause.subject == "thing" or noise.place_subject(sent)) and not first_person(text) and noise.evaluates(sent):
        return []  # "Lisbon in October is perfect", "cello at 35 is iconic": a judgement of a thing, not a claim
    if noise.fragment(sent) and not first_person(text) and not asking.pleads(sent) and not clause.question:
        return []  # "support to those who need it": a noun phrase, nothing asserted
    if noise.described(sent) and not clause.question:
        return []  # "something I can make in 20 mins": a noun phrase, what the user does with it said in passing
    if not noise.has_verb(sent) and not first_person(text) and text.rstrip().endswith("!") and not noise.first_with_name(sent):
        return []  # "HAPPY NEW YEAR!!!", "THE ROYAL ALBERT HALL?!!": an exclamation, nothing stated
    if mood.keeps_from(sent):
        return []  # "don't tell the crossfit lads": a secret between the speakers, no rule and no fact
    if clause.question and mood.asks_the_world(opener(sent)) and not first_person(text) and not any(t.lower in lx.SECOND_PERSON for t in sent.tokens):
        return []  # "what's the difference between baking soda and baking powder?": the world's, not the user's
    if clause.question and not clause.request and not first_person(text) and (asking.asks_back(sent) or asking.asks_after(sent)):
        return []  # "what concert was it?", "got any pics?": a question about the other speaker, asking for nothing
    if mood.imagined(sent) and not clause.request:
        return []  # "if I won the lottery I'd buy the farm next door": a daydream, not even a plan
    if clause.hedged and not clause.request:
        return hedge(text, clause, index) if noise.has_content(sent) else []
    if clause.subject in ("none", "thing") and not noise.has_content(sent) and not clause.request:
        return []  # "maybe later", "first ever half": a fragment with nothing to hold on to
    if clause.request and clause.subject == "none" and not clause.question and not noise.has_content(sent) and not asking.about_answers(sent):
        return []  # "yes pls, hit me", "tell me more": go on, nothing asked for by name
    if clause.request and reading.recurring(sent.tokens):
        text = rules._REQUEST_LEAD.sub("", text).rstrip("?")
        never = mood.DONT.match(text)  # "don't book anything on tuesdays": never, not "always don't"
        text = f"never {text[never.end():]}" if never else f"always {text[:1].lower()}{text[1:]}"  # "remind me every february to …"
    elif (dont := mood.DONT.match(text)) and mood.prohibits(sent) and not mood.timed(sent):
        text = f"never {text[dont.end():]}"  # "don't describe things by colour only": a rule, unless it names a time
    elif clause.request and asking.about_answers(sent) and not rules.STANDING.search(text) and not mood.ASKS.match(text):
        text = re.sub(r"(?i)^(?:please|pls|plz|kindly)\s+", "", text)
        text = f"always {text[:1].lower()}{text[1:]}"  # "keep answers short", "speak plainly": a rule for every answer
    lead = opener(sent)
    if lead is not None and lead.lower == "if" and lead.dep == "mark" and reading.rule_for_you(sent, lead.head) and text[:2].lower() == "if":
        rest = re.sub(r"(?i)^(you(?:'re|\s+are)?)\s+ever\b", r"\1", text[2:].lstrip())
        text = f"whenever {rest}"  # "if you're giving me instructions, keep it to the iphone": a rule for every time
    if clause.question and not text.rstrip().endswith("?") and mood.asks_how(sent):
        text = text.rstrip(" .!,") + "?"  # "how do I get red wine out of a carpet": asked, without its mark
    return grade(clause, sent, text, index, sarcastic, state)


def _owned_subject(sent: Sentence, text: str) -> bool:
    """Whether the thing a clause is about already has its owner: "my rent is …", "I think the budget is …" (not
    "rent for my studio is $1,150": the studio's owner says whose the rent is, and it is not said yet)."""
    subj = next((t for t in sent.tokens if t.dep in ("nsubj", "nsubjpass")), None)
    if subj is None:
        return first_person(text)
    if any(c.dep == "poss" for c in sent.children(subj.i)):
        return True
    return first_person(" ".join(t.text for t in sent.tokens[: subj.i]))  # ("rent is £850, my half": the half is no owner)


def _sets(parser: Parser, got: list, value: str) -> bool:
    """Whether a claim of ``got`` already sets some attribute to ``value`` ("User lives in Leeds"), not merely
    names it ("First week doing payroll at Harlow Freight done!!" sets nothing)."""
    return any(value.lower() in c.text.lower() and any(f.value.lower() == value.lower() for f in attributes.all_of_text(parser, c.text))
               for c in got)


def _contrasted(piece: str, contrasts: list[tuple[str, list[str]]]) -> tuple[str, list[str]] | None:
    """The contrast of the turn ("its 850 not 500") that ``piece`` holds, or None."""
    return next((c for c in contrasts if re.search(rf"(?i)\bnot\s+(?:a\s+|an\s+|the\s+)?[£$€]?{re.escape(c[0])}\b", piece)
                 or corrections.says_said(piece, c[0])), None)


def _instruction(text: str, index: int, **meta: object) -> rules.Claim:
    """A claim that is an instruction about memory (a pointer, a correction): reconciliation decides what it
    changes and never stores it."""
    body = rules._finish(text)
    return rules.Claim(body, Kind.EPISODE, Source.USER_SAID, EPISODE_IMPORTANCE, rules.USER_CONFIDENCE, safety.sensitivity_of(body),
                       None, index, {"subject": "user", **meta})


def _reason_claims(parser: Parser, sent: Sentence, index: int, sarcastic: bool, state: TurnState) -> list[rules.Claim]:
    """The claims of a first-person reason inside a clause that says nothing itself: "which is awkward
    because I'm literally a barista" -> "I'm literally a barista"."""
    out: list[rules.Claim] = []
    for t in sent.tokens:
        marks = [c for c in sent.children(t.i) if c.dep == "mark" and c.lower in lx.REASON_MARKS]
        if t.dep == "ccomp" and t.head != t.i and _asks_said(sent, sent.tokens[t.head]):
            marks = [c for c in sent.children(t.i) if c.dep == "mark" and c.lower == "that"]  # "can you add that I'm a divemaster"
        elif t.dep != "advcl":
            continue
        subj = next((c for c in sent.children(t.i) if c.dep in ("nsubj", "nsubjpass")), None)
        if not marks or subj is None or subj.lower not in ("i", "we"):
            continue
        text = trim("".join(sent.tokens[i].text + sent.tokens[i].space for i in sent.subtree(t.i) if i != marks[0].i).strip())
        parsed = parser.parse([text])[0]
        if parsed:
            out.extend(_claim(read(parsed[0], others=state.others), parsed[0], text, index, sarcastic, state))
    return out


def _asks_said(sent: Sentence, verb: Token) -> bool:
    """An order to have something said ("add that …", "mention that …"), never one to leave it out ("don't remember
    that I work at Aldi", "forget that I …": what follows is no claim to keep)."""
    return verb.tag == "VB" and verb.lemma not in lx.RETRACT_VERBS and not any(c.dep == "neg" for c in sent.children(verb.i))


def _names_person(clause: Clause) -> bool:
    """A subject with a name in it: "Jo", "the wife, Carol,", "dev" (a name typed in lowercase)."""
    words = [w for w in clause.subject_text.split() if w not in ("'s", "’s")]  # "karim 's getting married": the "is" read as owning
    return any(w[:1].isupper() and w != "I" for w in words) or (len(words) == 1 and people.lowercase_name(words[0]))


