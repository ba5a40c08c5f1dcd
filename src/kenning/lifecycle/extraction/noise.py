"""What is not a claim about the user, read off the parse: chit-chat and feelings, the other speaker's
world (addressed by name, as "you", their news), comments without a subject, noun fragments and
exclamations, bare verbs ("I caved") and passed-on messages. Questions and orders are read in ``asking``,
lasting traits in ``lasting``.

Each test is a grammatical shape (a subject, an object, a mood), named for what it finds; ``claims`` decides
in which order they apply.
"""

from __future__ import annotations

from kenning.lifecycle import extract as rules
from kenning.lifecycle import changes
from kenning.lifecycle.extraction import corrections
from kenning.lifecycle.extraction import attributes, surroundings
from kenning.lifecycle.extraction import lexicon as lx
from kenning.lifecycle.extraction.clauses import opener
from kenning.lifecycle.extraction.lexicon import first_person
from kenning.lifecycle.extraction.reading import Clause
from kenning.lifecycle.extraction.parse import Sentence, Token, known_word


def is_noise(clause: Clause, sent: Sentence) -> bool:
    """Chit-chat: nothing but small-talk words, a comment on a thing, or words about the other speaker.
    A correction in so many words ("it's 3:48 not 3:42") is never chit-chat."""
    if changes.CORRECTION.search(clause.text):
        return False
    content = [
        t for t in sent.tokens
        if t.pos not in ("PUNCT", "DET", "PRON", "AUX", "CCONJ", "SCONJ", "PART", "ADP", "SPACE")
        and not (t.pos == "PROPN" and t.dep in ("npadvmod", "appos", "dep", "intj", "vocative", "nmod"))  # "…, Mel"
    ]
    if not content or all(t.lemma in lx.NOISE_LEMMAS or t.lower in lx.NOISE_LEMMAS or t.pos == "INTJ" for t in content):
        return True
    if clause.text.rstrip().endswith(":") and not clause.request:
        return True  # "couple things for my profile i guess:": what introduces the news, not the news
    if rules.is_small_talk(clause.text):
        return True
    if surroundings.weather(clause) or surroundings.stranger(sent):
        return True  # "its raining again, shocker", "the bloke in the chippy queue was singing abba": the world around
    if elliptical(sent):
        return True  # "always has been", "I do": the verb of what was said before, nothing of its own
    if presents(sent):
        return True  # "here's my week", "heres the plan for saturday": what follows is the news, not this
    if signs_off(sent):
        return True  # "i have to go, bathtime chaos", "need to dash now": leaving the chat
    if _thanks_for(sent):
        return True  # "cheers for listening to me whinge", "thanks for the tips": thanks
    if apology(sent):
        return True  # "sorry for the radio silence", "sorry I went quiet": an apology, not news
    if reaction(sent):
        return True  # "can't believe I was paying Vodafone £45", "can't remember what I was going to ask"
    if about_keeping(sent):
        return True  # "I prefer that is not saved", "I'd rather you didn't keep that": about the memory, not the user
    if clause.subject == "thing" and (owned_figure(sent) or any(f.subject == "user" for f in attributes.read_all(sent))):
        return False  # "total budget is £12,000", "the business line is now …": the user's own figure or row
    if clause.subject == "thing" and required(sent):
        return False  # "long runs have to be sundays", "it needs to be 14 inch max": what the user needs of a thing
    if clause.subject in ("thing", "you") and not clause.request and not first_person(clause.text) and _opens_with(sent, clause.subject_text or "it") \
            and not own_bare(sent):
        return True  # "that sounds amazing", "you both looked so great", "it was so powerful"
    if clause.subject == "thing" and clause.root in lx.EVALUATIVE_VERBS | {"be"} and not clause.request and _opens_with(sent, clause.subject_text or "it") and not any(
            t.lower in ("mine", "ours") for t in sent.tokens):  # (not "the terrace is officially ours": the user's own)
        adj = any(t.pos == "ADJ" and t.dep in ("acomp", "attr", "ROOT") for t in sent.tokens)
        return adj  # "it's been so good for me": a comment, not a claim
    if clause.subject == "other" and clause.root in ("sound", "look", "seem") and not clause.question and not first_person(clause.text) and any(
            t.dep in ("acomp", "oprd") for t in sent.tokens):
        return True  # "Muskoka sounds dreamy", "Jess looks so grown up": a comment on what the other speaker said
    if clause.subject == "you" and not clause.request and clause.root not in lx.CONTACT_VERBS and not rules.STANDING.search(clause.text):
        return True  # "do you ever get tired of questions?", "you're the funniest person I know": about the other speaker
    if clause.subject == "thing" and clause.subject_text.lower() in lx.THING_PRONOUNS and not owned_figure(sent) and _opens_with(sent, clause.subject_text):
        return True  # "it tastes like soap to me", "that means a lot to me": a comment on something
    if clause.question and not clause.request and not has_content(sent):
        return True  # "where do I even start", "am I right"
    if any(t.dep == "csubj" for t in sent.tokens):
        return True  # "taking time for yourself is so important": an opinion about doing something, not a claim
    if any(t.lower in ("you", "your", "yourself", "u", "ur") for t in sent.tokens) and _evaluates(sent):
        return True  # "so proud of you for taking part!", "love that for you"
    return is_feeling(sent)


def required(sent: Sentence) -> bool:
    """A thing said to need to be some way, to no one: "it has to run illustrator", "long runs have to be sundays"."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or any(t.lower in lx.SECOND_PERSON for t in sent.tokens):
        return False
    if any(c.dep == "aux" and c.lower == "must" for c in sent.children(root.i)):
        return True
    return root.lemma in ("have", "need") and any(
        c.dep == "xcomp" and any(g.dep == "aux" and g.lower == "to" for g in sent.children(c.i)) for c in sent.children(root.i))


def _evaluates(sent: Sentence) -> bool:
    """A feeling about the other speaker is the predicate ("so proud of you", "so happy for you")."""
    for t in sent.tokens:
        if t.lemma in lx.FEELINGS or t.lower in lx.FEELINGS:
            if any(sent.tokens[i].lower in ("you", "your", "yourself", "u", "ur") for i in sent.subtree(t.i)):
                return True
    return False


def _opens_with(sent: Sentence, words: str) -> bool:
    """Whether the clause opens (after fillers) with ``words``: "it's 07700 900456" after "got a new number, " does not."""
    first = opener(sent)  # names the speaker addresses were taken out before the parse (``unaddressed``)
    return first is not None and first.lower == words.split()[0].lower()


def presents(sent: Sentence) -> bool:
    """A clause that only points at what comes next: "here's my week", "here is what i eat"."""
    first = next((t for t in sent.tokens if t.pos not in ("PUNCT", "INTJ") and t.lower not in lx.CLAUSE_ADVERBS), None)
    if first is None:
        return False
    if first.lower in ("heres", "here's"):
        return True
    nxt = sent.tokens[first.i + 1] if first.i + 1 < len(sent.tokens) else None
    return first.lower == "here" and nxt is not None and nxt.lemma == "be" and nxt.dep == "ROOT"


_LEAVING = frozenset({"go", "run", "dash", "fly", "scoot", "bounce"})


def signs_off(sent: Sentence) -> bool:
    """Leaving the chat: "have to go", "gotta run", "need to dash now" with nowhere named to go to."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in ("have", "get", "need"):
        return False
    leave = next((c for c in sent.children(root.i) if c.dep == "xcomp" and c.lemma in _LEAVING), None)
    return leave is not None and all(
        c.dep in ("aux", "punct") or c.lower in ("now", "soon", "off", "out") for c in sent.children(leave.i))


def _thanks_for(sent: Sentence) -> bool:
    toks = [t for t in sent.tokens if t.pos != "PUNCT"]
    return len(toks) > 1 and toks[0].lower in lx.THANKS and toks[1].lower in ("for", "so", "again")


def is_feeling(sent: Sentence) -> bool:
    """How the speaker feels right now ("I'm knackered", "so so jealous", "legs are killing me"): the
    predicate is a feeling or passing state with nothing attached to it (no object, no "about/of" phrase)."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None:
        return False
    preds = [root] + [c for c in sent.children(root.i) if c.dep in ("acomp", "attr", "oprd", "xcomp", "conj")]
    feeling = [t for t in preds if t.lemma in lx.FEELINGS or t.lower in lx.FEELINGS]
    if not feeling:
        return False
    subj = next((t for t in sent.tokens if t.dep in ("nsubj", "nsubjpass")), None)
    if subj is not None and subj.lemma in lx.OWN_NOUNS and feeling == [t for t in feeling if t.lower == "gone"]:
        return False  # "my car is gone": a thing of the user's ended, no mood
    if subj is not None and subj.lower not in ("i", "we") and any(c.dep == "poss" for c in sent.children(subj.i)) \
            and all(t.tag in ("JJR", "RBR") for t in feeling):
        return False  # "my arthritis is worse this winter", "mam's dementia has got worse": how someone's thing has changed
    if feeling == [root] and root.lower == "gone" and any(
            c.dep in ("acomp", "attr", "oprd", "npadvmod") and c.pos != "ADJ" and c.lemma not in lx.FEELINGS for c in sent.children(root.i)):
        return False  # "I've gone fully vegan", "gone part time": what the speaker has become, not "I'm gone"
    attached = [c for t in feeling for c in sent.children(t.i) if c.dep in ("prep", "dobj", "pobj", "ccomp", "xcomp", "advcl")
                and not (c.dep == "dobj" and c.lower in ("me", "us", "user"))  # "my feet are killing me": the speaker
                and not (c.dep == "prep" and _of_pronoun(sent, c))]  # "so proud of myself", "glad about that"
    return not attached and not any(t.pos in ("NUM", "PROPN") for t in sent.tokens)


def _of_pronoun(sent: Sentence, prep: Token) -> bool:
    """A prepositional phrase that is a pronoun alone ("of myself", "about it"): it names nothing the feeling is about."""
    objs = [c for c in sent.children(prep.i) if c.dep == "pobj"]
    return len(objs) == 1 and objs[0].pos == "PRON" and len(sent.subtree(objs[0].i)) == 1


def has_verb(sent: Sentence) -> bool:
    return any(t.pos in ("VERB", "AUX") or t.tag.startswith("VB") for t in sent.tokens)


_MOVES = frozenset({"move", "change", "switch", "shift", "push", "rise", "drop", "fall", "increase", "decrease"})


def own_bare(sent: Sentence) -> bool:
    """A sentence opening with one of the user's own things, "my" left out, set equal to something: "day job is
    data analyst at an insurance firm", "home's a flat in Hove" (not "the weather is lovely")."""
    subj = next((t for t in sent.tokens if t.dep in ("nsubj", "nsubjpass")), None)
    if subj is None or subj.lemma not in lx.OWN_NOUNS or subj.tag != "NN" or min(sent.subtree(subj.i)) != 0:
        return False
    if any(c.dep in ("det", "poss") for c in sent.children(subj.i)):
        return False
    head = sent.tokens[subj.head]
    return head.lemma == "be" and any(c.dep in ("attr", "acomp") and c.pos in ("NOUN", "PROPN") for c in sent.children(head.i))


def owned_figure(sent: Sentence) -> bool:
    """A noun subject (not it/that/this) stated with a number or sum: "total budget is £12,000", or a bare one
    (no article or owner, as chat drops "my") set equal to a figure or a day: "pb is 21:40", "erg 2k pb is 6:48",
    "choir practice is thursdays now"; or a thing said to be new: "the new laptop is a ThinkPad"."""
    subj = next((t for t in sent.tokens if t.dep in ("nsubj", "nsubjpass")), None)
    if subj is None:
        return False
    from kenning.lifecycle import quantities  # reconciliation's table; imported here, since it builds on changes, which builds on extraction

    if (subj.lemma in lx.OWN_NOUNS and any(t.pos == "NUM" or t.tag == "$" for t in sent.tokens)) or quantities.owned_reading(sent, subj):
        return True  # (or "scales said 84.5 this morning", "first rent payment at $1,620 went out": the speaker's reading)
    head = sent.tokens[subj.head]
    if head.lemma == "be" and subj.pos == "NOUN" and any(c.dep == "amod" and c.lower == "new" for c in sent.children(subj.i)):
        return True  # "the new laptop is a ThinkPad": what the speaker has just replaced
    figure = next((c for c in sent.children(head.i) if c.dep in ("attr", "acomp")), None)
    dated = figure is not None and (figure.pos == "NUM" or corrections.shape(figure.text) in ("weekday", "month", "time"))
    bare = subj.text.islower() and subj.tag in ("NN", "NNS", "NNP") and not any(c.dep in ("det", "poss") for c in sent.children(subj.i))
    if bare and head.lemma in _MOVES and any(corrections.shape(t.text) for t in sent.tokens if t.i > head.i):
        return True  # "yoga moved to thursday evenings", "deposit savings are up to 14k": the speaker's own, moved
    raised = any(c.lower in ("up", "down") for c in sent.children(head.i)) and any(corrections.shape(t.text) for t in sent.tokens if t.i > head.i)
    return head.lemma == "be" and (dated or raised) and bare  # "deposit savings are up to 14k"


def has_content(sent: Sentence, besides: frozenset[str] = frozenset()) -> bool:
    """A noun, name or number beyond the hedge itself ("maybe later" and "not decided yet" have none), and beyond the
    lemmas ``besides``."""
    return any((t.pos in ("NOUN", "PROPN", "NUM") or (t.pos == "ADJ" and t.dep in ("dobj", "pobj")))  # "the italian"
               and t.lemma not in lx.NOISE_LEMMAS and t.lemma not in besides for t in sent.tokens)


POINTING = frozenset({"it", "that", "this", "them", "those", "these"})
# nouns of the light-verb idioms that name nothing: "give it a go", "keep that in mind", "thought about it a lot"
LIGHT_NOUNS = frozenset({"lot", "bit", "thing", "way", "go", "try", "shot", "look", "mind", "best", "time", "deal", "chance", "stuff"})


def only_pointing(sent: Sentence) -> bool:
    """A clause that names nothing and points back at what was said before: no noun, name or number but a
    light one, and "it"/"that"/"them" as what it is about ("so excited to check it out", "I'll keep that in
    mind", "can't wait to try them out"). Out of its turn it says nothing anyone could use."""
    return not has_content(sent, LIGHT_NOUNS) and any(t.lower in POINTING and t.pos == "PRON" and t.dep in ("dobj", "pobj", "nsubjpass", "attr", "dative") for t in sent.tokens)


def bare_event(sent: Sentence) -> bool:
    """A clause whose verb has nothing attached that says what it is about: no object, complement,
    prepositional phrase, clause, particle-free noun, name or number ("I screamed", "I caved",
    "I promise", "I can't wait"). Copulas ("I'm vegan") are never bare."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is not None and root.lemma == "be" and any(c.dep == "neg" for c in sent.children(root.i)) and not any(
            c.dep in lx.ARGUMENT_DEPS | {"prep", "acomp", "attr", "npadvmod"} for c in sent.children(root.i)) and not has_content(sent):
        return True  # "we're not any more", "I'm not": a "be" denied with nothing it is denied of
    if root is None or root.pos != "VERB" or root.lemma in ("be", "have"):
        return False
    attached = lx.ARGUMENT_DEPS | {"npadvmod", "agent", "pobj", "conj"}
    if any(c.dep == "advmod" and c.text.isalpha() and len(c.text) > 3 and not known_word(c.text) for c in sent.children(root.i)):
        return False  # "we live out near aberystwyth": a name the tagger read as an adverb
    args = [c for c in sent.children(root.i) if c.dep in attached]
    content = any(t.pos in ("NOUN", "PROPN", "NUM") and t.i != root.i for t in sent.tokens)
    if args and all(c.lower in POINTING and len(sent.subtree(c.i)) == 1 for c in args) and not content:
        return True  # "I always mix that up", "I don't eat it": what it is about was said before, not here
    if any(t.dep == "neg" or t.lower in lx.HABITUAL or t.lower in ("never", "always") for t in sent.tokens):
        return False  # "I never smoked", "I don't drink": a habit, stated
    aux = [c for c in sent.children(root.i) if c.dep in ("aux", "auxpass")]
    if root.tag == "VBN" and any(c.dep == "auxpass" and c.lemma == "be" and c.tag in ("VBP", "VBZ") for c in aux):
        return False  # "I'm widowed", "we're engaged": a state the participle names, now
    if any(c.lemma not in lx.AUXILIARIES for c in aux) or (root.tag == "VBG" and not aux):
        return False  # "he loves/AUX fishing/ROOT": a misread verb carries what it is about
    if any(c.dep in attached and not (c.pos == "PRON" and len(sent.subtree(c.i)) == 1) for c in sent.children(root.i)):
        return False  # "finally did it": a pronoun alone says nothing of what
    return not content


def comment_without_subject(sent: Sentence) -> bool:
    """A clause opening with a third-person verb and no subject: "sounds great", "looks amazing"."""
    first = opener(sent)
    return first is not None and first.tag == "VBZ"


def reaction(sent: Sentence) -> bool:
    """A mind's reaction framing a clause: "can't believe / can't remember / can't imagine" + a clause
    ("can't believe I was paying £45"). "I can't remember names" (an object, no clause) is a fact."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in lx.REACTION_VERBS:
        return False
    kids = sent.children(root.i)
    can = any(c.dep == "aux" and c.lemma in ("can", "could") for c in kids) and any(c.dep == "neg" for c in kids)
    return can and any(c.dep == "ccomp" for c in kids)


_KEEPING = frozenset({"save", "store", "record", "log", "keep", "remember", "memorise", "memorize"})


def about_keeping(sent: Sentence) -> bool:
    """A clause about what is kept of the conversation: a verb of keeping with "it"/"that"/"this" as its thing,
    said in the passive ("I don't want it saved anywhere", "I prefer that is not saved") or of the other speaker
    ("I'd rather you didn't keep that"). "I keep it in the fridge" and "it's saved me a fortune" are no such clause."""
    for tok in sent.tokens:
        if tok.lemma not in _KEEPING or tok.pos not in ("VERB", "AUX"):
            continue
        kids = sent.children(tok.i)
        thing = [c for c in kids if c.lower in POINTING and c.dep in ("nsubjpass", "nsubj", "dobj")]
        if not thing:
            continue
        if tok.tag in ("VBN", "VBD") and thing[0].dep != "dobj" and not any(c.dep in ("dobj", "dative", "xcomp", "ccomp", "acomp", "oprd") for c in kids):
            return True
        if any(c.dep == "nsubj" and c.lower in ("you", "u") for c in kids) and thing[0].dep == "dobj":
            return True
    return False


def apology(sent: Sentence) -> bool:
    """A clause opening with "sorry" that apologises for something ("sorry for the radio silence") or for
    something done ("sorry I went quiet", "sorry I've been MIA"). "sorry, I'm vegetarian" states a fact."""
    first = next((t for t in sent.tokens if t.pos != "PUNCT" and t.lower not in ("oh", "so", "and", "but", "ah", "ahh")), None)
    if first is None or first.lower not in ("sorry", "soz", "apologies"):
        return False
    after = [t for t in sent.tokens[first.i + 1 :] if t.pos not in ("PUNCT", "INTJ")]
    if after and after[0].lower in ("for", "about", "abt"):
        return True
    verbs = [t for t in after if t.pos in ("VERB", "AUX") and t.dep in ("ROOT", "ccomp", "advcl", "conj")]
    return bool(verbs) and verbs[0].tag in ("VBD", "VBN")


def place_subject(sent: Sentence) -> bool:
    """A subject the parse names as a place or a time ("Japan in April", "Lisbon in October")."""
    return any(t.dep in ("nsubj", "nsubjpass") and t.ent in lx.PLACE_ENTITIES for t in sent.tokens)


def evaluates(sent: Sentence) -> bool:
    """A "be" clause whose complement is a judgement, an adjective or an indefinite noun ("is perfect", "is
    going to be unreal", "is a badge of honour"), with no name and no number in it to state a fact."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None:
        return False
    subj = next((c for c in sent.children(root.i) if c.dep in ("nsubj", "nsubjpass")), None)
    said = set(sent.subtree(subj.i)) if subj is not None else set()
    if any(t.pos in ("PROPN", "NUM") and t.i not in said for t in sent.tokens):
        return False  # "the rent is £900 a month": a figure is a fact
    comp = next((c for c in sent.children(root.i) if c.dep in ("acomp", "attr")), None)
    if comp is None:
        xcomp = next((c for c in sent.children(root.i) if c.dep == "xcomp"), None)  # "is going to be unreal"
        inner = [c for c in sent.children(xcomp.i) if c.dep in ("xcomp", "acomp", "attr")] if xcomp is not None else []
        comp = next((c for c in inner if c.dep in ("acomp", "attr")), None) or next(
            (g for c in inner for g in sent.children(c.i) if g.dep in ("acomp", "attr")), None)
    if comp is None:
        return False
    return comp.pos == "ADJ" or (comp.pos == "NOUN" and any(c.dep == "det" and c.lower in ("a", "an") for c in sent.children(comp.i)))


def described(sent: Sentence) -> bool:
    """A thing described by what the speaker does with it, and nothing said of it: "something I can make in
    20 mins", "the one we saw on Saturday". The answer to a question, not a claim."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or any(t.pos == "PROPN" or t.dep == "appos" for t in sent.tokens):
        return False  # "the company I work for, Brightwave": a name is something said
    return root.pos in ("NOUN", "PRON") and any(
        c.dep == "relcl" and any(g.dep == "nsubj" and g.lower in ("i", "we") for g in sent.children(c.i)) for c in sent.children(root.i)
    )


_BARE = frozenset({"nsubj", "aux", "auxpass", "advmod", "neg", "punct", "intj", "discourse", "cc"})


def elliptical(sent: Sentence) -> bool:
    """A clause that is only the auxiliary of something said before: "always has been", "I do", "she
    will", a root of be/have/do or a modal with nothing beside its subject, auxiliaries and adverbs."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.lemma not in ("be", "have", "do", "will", "would", "can", "could", "should"):
        return False
    return all(t.i == root.i or (t.head == root.i and t.dep in _BARE) for t in sent.tokens)


def fragment(sent: Sentence) -> bool:
    """A clause whose root is a noun and which has no subject: "support to those who need it"."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.i == next((t.i for t in sent.tokens if t.pos not in ("PUNCT", "INTJ")), -1):
        return False  # "Book a window seat on Friday's flight": an imperative the tagger read as a noun
    if any(t.pos == "PROPN" for t in sent.tokens):
        return False  # "the band's called Parking Permit": a name is something said
    return root.pos == "NOUN" and not any(t.dep in ("nsubj", "nsubjpass") and t.head == root.i for t in sent.tokens) and not any(t.pos == "NUM" for t in sent.tokens)


def first_with_name(sent: Sentence) -> bool:
    """A verbless piece that is news of a first somewhere or with someone named: "first regatta with Molesey this
    weekend!!", "first day at Arup!!" (kept, however it is exclaimed; "HAPPY NEW YEAR!!!" is not)."""
    root = next((t for t in sent.tokens if t.dep == "ROOT"), None)
    if root is None or root.pos != "NOUN" or not any(c.dep == "amod" and c.lower == "first" for c in sent.children(root.i)):
        return False
    return any(c.dep == "prep" and any(g.dep == "pobj" and g.pos == "PROPN" for g in sent.children(c.i)) for c in sent.children(root.i))
