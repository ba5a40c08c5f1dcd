"""What two friends say to each other that is not a claim about the speaker: encouragement ("keep it up!"),
offers and invitations ("need a hand?", "want to see it?"), proposals ("let's make it a great one"), a
question about the other's past ("what was the best part?"), a friendly formula ("sorry to hear that"), a
resolve with nothing it is about ("I won't quit"), being sure how the other's thing goes ("I bet it was
scary"), looking forward to their news ("can't wait to hear about it"), and "I" put before a comment verb.

Each is a shape of the parse with a closed class of words; ``claims`` drops a clause that has one. A
request to an assistant ("keep answers short", "can you give me a recipe") and a plan with a day in it
("let's do mon and thu") have none of them. Two more shapes were measured and left out: a truth about
people in general with "us" in it ("music brings us together") and a likeness of something unnamed
("it's like therapy"); on LoCoMo they removed memories that covered an observation more often than not.
"""

from __future__ import annotations

from kenning.lifecycle.extraction.clauses import opener
from kenning.lifecycle.extraction.reading import Clause
from kenning.lifecycle.extraction.parse import Sentence, Token

_SINGULAR = frozenset({"i", "i'm", "im", "i've", "ive", "i'd", "id", "i'll", "me", "my", "mine", "myself"})
_PLURAL = frozenset({"we", "us", "our", "ours", "ourselves", "'s"})
# verbs of an offer or invitation with "you" left out: "need any help?", "want to come?", "care to share?"
_OFFER_VERBS = frozenset({"need", "want", "wanna", "care", "fancy"})
# what one keeps on doing when told to keep at it: "keep pushing", "keep it up", "keep up the good work"
_KEEP = "keep"
# words that open a friendly formula with its subject left out: "sorry to hear…", "congrats on…", "take care"
_FORMULAS = frozenset({"sorry", "congrats", "congratulations", "congratz", "kudos", "wish", "appreciate", "glad", "bummer"})
# effort with no object, what a resolve keeps on doing: "keep going", "keep pushing", "won't quit"
_EFFORT = frozenset({"go", "push", "grind", "fight", "strive", "try", "move", "hustle", "chase", "work"})
_GIVING_UP = frozenset({"quit", "stop", "give"})
_VAGUE_NOUNS = frozenset({"matter", "dream", "goal", "passion", "way", "thing", "hope"})
# the speaker's mind on something: "I love how you…", "I remember when you…", "I can see why you…"
_MIND_VERBS = frozenset({"love", "like", "adore", "remember", "recall", "imagine", "see", "know", "think", "admire", "hope", "bet"})
_DAY_WORDS = frozenset({"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "today", "tonight"})


def between_friends(clause: Clause, sent: Sentence) -> bool:
    """Whether the clause is one of the shapes above."""
    return (encourages(clause, sent) or offers(clause, sent) or proposes(sent) or asks_past(clause, sent)
            or formula(sent) or resolves(clause, sent) or assures(clause, sent) or awaits_news(clause, sent)
            or misagrees(clause, sent) or minds_the_other(clause, sent) or wishes(sent))


def _root(sent: Sentence) -> Token | None:
    return next((t for t in sent.tokens if t.dep == "ROOT"), None)


def _says(sent: Sentence, words: frozenset[str]) -> bool:
    return any(t.lower in words for t in sent.tokens)


def encourages(clause: Clause, sent: Sentence) -> bool:
    """An order to keep at it, with nothing of the speaker's in it: "keep it up!", "keep pushing", "keep up
    the great work". "Keep answers short" names what to keep; "keep me posted" names the speaker."""
    root = _root(sent)
    if root is None or root.lemma != _KEEP or root.tag != "VB" or clause.subject != "none" or clause.question:
        return False
    kids = sent.children(root.i)
    at_it = any(c.dep == "prt" and c.lower in ("up", "on", "going") for c in kids) or any(
        c.dep in ("xcomp", "advcl", "ccomp", "conj") and c.tag == "VBG" for c in kids)
    return at_it and not _says(sent, _SINGULAR)


def offers(clause: Clause, sent: Sentence) -> bool:
    """A question offering or inviting, "you" left out: "need any help?", "want to see it?", "care to share?".
    Asked of an assistant, a need is the user's ("need a recipe for soup"): that one has no question mark and
    no "any"."""
    first = opener(sent)
    if first is None or not clause.question or first.lemma not in _OFFER_VERBS and first.lower not in _OFFER_VERBS:
        return False
    if first.lemma == "need" and (_says(sent, frozenset({"my", "me"})) or not any(
            c.dep == "dobj" and (c.lower == "anything" or any(d.dep == "det" and d.lower in ("any", "a") for d in sent.children(c.i)))
            for c in sent.children(first.i))):
        return False  # "need help with my marketing - any advice?" is the speaker's own need
    return not _says(sent, _SINGULAR - {"me", "my"})


def proposes(sent: Sentence) -> bool:
    """ "Let's …" with no day or number in it: "let's keep making memories", "let's make it count". A plan
    ("let's do mon, wed and sat", "let's meet at 6") says when."""
    first = opener(sent)
    if first is None or first.lower not in ("let", "lets", "let's"):
        return False
    if first.lower == "let" and not any(t.lower in ("'s", "us") for t in sent.tokens[first.i + 1 : first.i + 2]):
        return False
    return not any(t.pos == "NUM" or t.lower in _DAY_WORDS or t.ent in ("DATE", "TIME") for t in sent.tokens) and not _says(sent, _SINGULAR)


def asks_past(clause: Clause, sent: Sentence) -> bool:
    """A question about something that happened, with neither speaker's "I" in it: "what was the best part?",
    "how did the show turn out?", "were there any problems?". It asks about the other's story; a question to
    an assistant asks how things are or how to do them."""
    if not clause.question or clause.request or _says(sent, _SINGULAR | _PLURAL):
        return False
    root = _root(sent)
    if root is None:
        return False
    first = opener(sent)
    if first is None or first.tag not in ("WP", "WP$", "WRB", "WDT") and first.lemma not in ("be", "do", "have"):
        return False  # "got any tips?" ("have you got", asked now), "Jo got the job??" (news said with a question mark)
    tense = [root] + [c for c in sent.children(root.i) if c.dep in ("aux", "auxpass")]
    return any(t.tag == "VBD" and t.lower not in ("could", "would", "should", "might") for t in tense)


def formula(sent: Sentence) -> bool:
    """A friendly formula with its subject left out: "sorry to hear about the car", "congrats on the new
    job!", "wish I could come", "appreciate the support", "take care". It answers the other's news."""
    first = next((t for t in sent.tokens if t.pos != "PUNCT"), None)  # "sorry" is an interjection to the parser
    if first is None or any(c.dep in ("nsubj", "nsubjpass") for c in sent.children(first.i)):
        return False
    if first.lower == "take":
        return any(c.lower == "care" and c.dep == "dobj" for c in sent.children(first.i)) and not any(c.dep == "prep" for c in sent.children(first.i))
    return first.lower in _FORMULAS


def wishes(sent: Sentence) -> bool:
    """A wish for the other's time, its subject left out (or put back as "I" when the turn was cut):
    "have a lovely evening!", "enjoy your weekend". "I had a lovely evening" is news, and "we'll have a
    nice weekend" a plan: a wish is in the present, with no auxiliary."""
    root = _root(sent)
    if root is None or root.lemma not in ("have", "enjoy") or root.tag not in ("VB", "VBP"):
        return False
    kids = sent.children(root.i)
    if any(c.dep in ("aux", "neg") or c.dep == "nsubj" and c.lower != "i" for c in kids):
        return False
    return any(c.dep == "dobj" and _wished(sent, c) for c in kids)


# a stretch of time one wishes the other well for: "have a lovely evening", "enjoy your weekend"
_WISH_TIMES = frozenset({"day", "evening", "night", "weekend", "week", "morning", "afternoon", "time", "trip", "holiday", "one", "rest"})
_WISH_WORDS = frozenset({"good", "great", "lovely", "nice", "wonderful", "fab", "fantastic", "brilliant", "amazing", "safe", "happy",
                         "relaxing", "restful", "blessed", "your"})


def _wished(sent: Sentence, obj: Token) -> bool:
    """Whether ``obj`` is a time wished well: a time word with a wish word or "your" before it ("the rest
    of your weekend" through its "of")."""
    if obj.lemma == "rest":
        obj = next((g for c in sent.children(obj.i) if c.lower == "of" for g in sent.children(c.i) if g.dep == "pobj"), obj)
    return obj.lemma in _WISH_TIMES and any(c.lower in _WISH_WORDS for c in sent.children(obj.i))


def resolves(clause: Clause, sent: Sentence) -> bool:
    """A resolve with nothing it is about: "I won't quit, no matter what", "I'll keep pushing", "not giving up!".
    What one keeps at when it is named ("keep going to the group every week") is a habit, not this."""
    if clause.subject != "user" or clause.question or clause.hedged:
        return False
    root = _root(sent)
    if root is None or any(t.pos in ("NOUN", "PROPN", "NUM") and t.lemma not in _VAGUE_NOUNS for t in sent.tokens):
        return False
    if root.lemma in _GIVING_UP and clause.negated:
        return root.lemma != "give" or any(c.dep == "prt" and c.lower == "up" for c in sent.children(root.i))
    keep = root if root.lemma == _KEEP else next((c for c in sent.children(root.i) if c.lemma == _KEEP and c.dep == "xcomp"), None)
    return keep is not None and any(
        c.dep in ("xcomp", "advcl", "conj") and c.tag == "VBG" and c.lemma in _EFFORT or c.dep == "prt" and c.lower in ("on", "up")
        for c in sent.children(keep.i))  # "I'll keep going", "I'm going to keep pushing"


def assures(clause: Clause, sent: Sentence) -> bool:
    """The speaker sure of, or betting on, how something of the other's goes: "I'm sure it'll pay off", "I bet
    it was scary". The clause inside has a pronoun for its subject, not the speaker."""
    if clause.subject != "user" or clause.question:
        return False
    root = _root(sent)
    if root is None:
        return False
    kids = sent.children(root.i)
    head = next((c for c in kids if c.dep == "acomp" and c.lower in ("sure", "certain", "positive")), None) if root.lemma == "be" else (
        root if root.lemma == "bet" else None)
    if head is None:
        return False
    inner = [c for c in sent.children(head.i) if c.dep == "ccomp"] + [c for c in kids if c.dep == "ccomp" and head is not root]
    return any(s.dep in ("nsubj", "nsubjpass", "expl") and s.pos == "PRON" and s.lower not in _SINGULAR | {"we"}
               for c in inner for s in sent.children(c.i))  # "I'm sure my mum will love it" names someone: kept


def awaits_news(clause: Clause, sent: Sentence) -> bool:
    """ "Can't wait to hear about it", "can't wait to see what you make": looking forward to the other's news.
    Seeing someone or something of the speaker's own ("can't wait to see my nan") is not this."""
    root = _root(sent)
    if clause.subject not in ("user", "none") or root is None or root.lemma != "wait" or not clause.negated:
        return False
    seen = [c for c in sent.children(root.i) if c.dep == "xcomp" and c.lemma in ("hear", "see", "find")]
    return any(not any(sent.tokens[i].lower in _SINGULAR | {"our"} or sent.tokens[i].pos in ("PROPN", "NUM") for i in sent.subtree(c.i))
               for c in seen)


def misagrees(clause: Clause, sent: Sentence) -> bool:
    """ "I" put in front of a verb that cannot follow it: "sounds like fun" read as "I sounds like fun". The
    comment had no subject of the speaker's; it is about what the other said."""
    root = _root(sent)
    subj = next((c for c in sent.children(root.i) if c.dep == "nsubj"), None) if root is not None else None
    return clause.subject == "user" and subj is not None and subj.lower == "i" and root.tag == "VBZ" and root.lemma in ("sound", "look", "seem")


def minds_the_other(clause: Clause, sent: Sentence) -> bool:
    """The speaker's mind on what the other speaker does or did: "I love how you paint", "I remember when you
    started", "I can see why you like it", "I know you've found your thing". "You" is the subject of the
    clause the verb takes; "I like the recipes you gave me" (a relative clause) is the speaker's liking, and
    "I'd rather you emailed" is a wish about being answered, not one of these verbs."""
    root = _root(sent)
    if clause.subject != "user" or clause.question or clause.request or root is None or root.lemma not in _MIND_VERBS:
        return False
    if any(c.dep == "dobj" and c.pos in ("NOUN", "PROPN") for c in sent.children(root.i)):
        return False  # "I'd like a standing desk whenever you book me a room": the speaker's liking of a thing
    inner = [c for c in sent.children(root.i) if c.dep in ("ccomp", "advcl", "xcomp")]
    return any(s.dep in ("nsubj", "nsubjpass") and s.lower in ("you", "u", "ya") for c in inner for s in sent.children(c.i))
