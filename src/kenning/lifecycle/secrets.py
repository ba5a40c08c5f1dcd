"""Secrets in text: credentials found, masked, or refused before anything is stored.

Invariants:
- ``find_secrets(text)`` returns the spans of every credential-shaped string
  it recognises (keyword + value, known token formats, Luhn-valid card
  numbers, mod-97-valid IBANs, SSNs, private keys, URLs with passwords,
  long high-entropy tokens). The write path never stores a clause that
  contains one unless ``Settings.allow_secrets`` is set.
- ``mask_secrets(text)`` replaces each span with ``SECRET_MARK``.

All functions are pure and deterministic.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from kenning.lifecycle.memo import list_cache

_SECRET_WORDS = (
    r"pass(?:word|wd|phrase|code)?|pwd|pin(?:\s+(?:code|number))?|passkey|"
    r"api[\s_-]?key|access[\s_-]?key(?:[\s_-]?id)?|secret[\s_-]?(?:access[\s_-]?)?key|client[\s_-]?secret|"
    r"(?:auth(?:entication|orization)?|access|refresh|bearer|session|bot|personal\s+access)[\s_-]?token|token|"
    r"private[\s_-]?key|ssh[\s_-]?key|recovery\s+(?:codes?|phrase)|seed\s+phrase|mnemonic|(?:2fa|mfa|otp|backup|verification)\s+codes?|otp|"
    r"ssn|social\s+security(?:\s+number)?|national\s+insurance(?:\s+number)?|ni\s+number|tax\s+id|"
    r"cvv2?|cvc|security\s+code|(?:code|digits|numbers?)\s+on\s+the\s+back|(?:credit|debit|bank)?\s*card\s+(?:number|no\.?)|credit\s+card|"
    r"iban|(?:bank\s+)?account\s+(?:number|no\.?)|sort\s+code|routing\s+number|swift(?:\s+code)?|"
    r"credentials?|creds|pw|login|username\s+and\s+password|connection\s+string|webhook(?:\s+url)?|"
    r"memorable\s+(?:word|phrase|answer|date|place|name)|security\s+(?:answer|question\s+answer)|secret\s+answer|"
    r"answer\s+to\s+(?:my|the)\s+security\s+question|(?:mother|mum|mom|mam|mummy|mommy)['’]?s\s+maiden\s+name|maiden\s+name|"
    r"combo|combination|passcodes?|totp(?:\s+(?:seed|secret))?|authenticator\s+(?:seed|secret|key)|setup\s+key|"
    r"(?:seed|recovery|backup|wallet|mnemonic)\s+(?:words?|phrase)|"
    r"(?:door|alarm|gate|safe|lock|locker|entry|building|garage|keypad|access|security)\s+(?:code|pin|combination)"
)
# Keywords that name a number: their value holds digits ("NI number is AB 12 34 56 C", not "… category is C").
# Words that open the gap between a secret keyword and its value ("password for the wifi is …"); any
# other first word ("PIN pad", "password manager") means the keyword only qualifies another noun.
_GAP_OPENERS = frozenset("for to on of at in with from the my our your his her their that i we".split())
_NUMBER_KEYWORD = re.compile(
    r"(?i)(?:ssn|social\s+security|national\s+insurance|ni\s+number|tax\s+id|(?:credit|debit|bank)?\s*card\s+(?:number|no)|"
    r"(?:bank\s+)?account\s+(?:number|no)|sort\s+code|routing\s+number|cvv2?|cvc)"
)
_KEYWORD = re.compile(rf"(?i)\b(?:{_SECRET_WORDS})\b")
# a token that looks like a password: letters with digits, or letters with symbols
_PASSWORDISH = re.compile(r"(?<![\w@.])(?=[^\s]*[A-Za-z])(?=[^\s]*(?:\d|[!#$%^&*~]))[^\s,;]{6,}")
# keyword, up to a few words (e.g. "for the work VPN"), a linking word, then the value
_KEYWORD_VALUE = re.compile(
    rf"(?i)\b(?:{_SECRET_WORDS})\b(?P<gap>(?:[^\S\n]+[\w'-]+){{0,6}}?)[^\S\n]*(?P<link>(?<!\w)(?:is|are|was|reads|set\s+to|is\s+now)\b|'s|’s|=|:|->)[^\S\n]*[\"'`]?(?P<value>[^\s\"'`,;]{{3,}})"
)
_SHAPES = [
    re.compile(p)
    for p in (
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b",
        r"\bgh[pousr]_[A-Za-z0-9]{30,}\b",
        r"\bgithub_pat_[A-Za-z0-9_]{22,}\b",
        r"\bglpat-[A-Za-z0-9_-]{20,}\b",
        r"\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}\b",
        r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b",
        r"\bwhsec_[A-Za-z0-9]{20,}\b",
        r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b",
        r"https://hooks\.slack\.com/services/[A-Za-z0-9/]+",
        r"https://discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]+",
        r"\bAIza[0-9A-Za-z_-]{30,}\b",
        r"\bya29\.[0-9A-Za-z_-]{20,}\b",
        r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b",
        r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}\b",
        r"\b(?:SK|AC)[0-9a-f]{32}\b",
        r"\bnpm_[A-Za-z0-9]{30,}\b",
        r"\bpypi-[A-Za-z0-9_-]{40,}\b",
        r"\bhf_[A-Za-z0-9]{30,}\b",
        r"\bdop_v1_[a-f0-9]{40,}\b",
        r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b",
        r"\bkey-[0-9a-z]{32}\b",
        r"\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,}\b",
        r"\b\d{8,10}:[A-Za-z0-9_-]{35}\b",
        r"\b(?:AccountKey|SharedAccessKey|Password|Pwd)=[^;\s]{6,}",
        r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@[^\s]+",
        r"(?i)\bauthorization:\s*(?:basic|bearer|token)\s+\S+",
        r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*",
        r"\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b",
    )
]
_CARD = re.compile(r"\b\d(?:[ -]?\d){12,18}\b")
# A card number as people type it, in groups of four, in a sentence that names a card: a secret even
# when its check digit fails (a mistyped card number is still someone's card number).
_GROUPED_CARD = re.compile(r"\d{4}(?:[ -]\d{4}){2}[ -]\d{1,7}")
_CARD_WORD = re.compile(r"(?i)\b(?:card|visa|mastercard|amex|debit|credit)\b")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b")
_TOKEN = re.compile(r"[A-Za-z0-9+/_=.-]{24,}")
# Values after a keyword that are not secrets ("my password is safe", "the pin is required").
_NOT_A_VALUE = frozenset(
    "required needed missing wrong incorrect correct expired changed reset stored saved safe secure the a an my "
    "your their our this that not on in at for to with too same different long short weak strong broken working "
    "fine blocked locked lost forgotten stuck invalid valid new old easy hard simple ok okay down gone".split()
)


# A passphrase of plain words after a secret keyword and a linking word ("my passphrase is correct
# horse battery staple", "the wifi password's blue elephant sunrise"): masked when the value opens
# with two or more plain words none of which is a function word, so "my password is correct now",
# "the secret is that I …", "my password is too long" stay. Bare "code"/"secret" count only as
# "code word", "secret code/word/phrase/answer" or a bare "secret" with the same passphrase shape;
# "dress code is smart casual" and "promo code is SAVE20" are not secrets.
_PHRASE_KEY = re.compile(
    r"(?i)\b(?:pass(?:word|phrase|code)|pin(?:\s+(?:code|number))?|code\s*word|"
    r"secret(?:\s+(?:code|word|phrase|answer))?)"
    r"(?:[^\S\n]+(?:for|to|on|of)[^\S\n]+(?:the[^\S\n]+|my[^\S\n]+|our[^\S\n]+)?[\w-]+)?"
    r"[^\S\n]*(?:'s|’s|[^\S\n]+is|[^\S\n]+was|[^\S\n]+is\s+now|:|=)[^\S\n]*[\"'`]?"
    r"(?P<words>[A-Za-z][A-Za-z'-]*(?:[^\S\n]+[A-Za-z][A-Za-z'-]*)+)"
)
_FUNCTION_WORDS = frozenset(
    "a an the my your his her their our its this that these those not no never on in at for to with too "
    "and or but so if as of by from than then now again still already yet just also very really quite "
    "is are was were be been being am do does did done have has had will would should could can may might "
    "i i'm you he she it we they me him us them what which who how when where why there here "
    "all any every each some more most less easy hard same different because since until after before "
    "like about over under into onto up down out off only ever".split()
)


def _passphrase_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for m in _PHRASE_KEY.finditer(text):
        words = m.group("words").split()
        if len(words) < 2 or any(w.lower().strip("'") in _FUNCTION_WORDS for w in words[:2]):
            continue
        spans.append((m.start(), max(m.end(), _clause_stop(text, m.start("words") + len(words[0])))))
    return spans


def _amount(text: str, start: int, end: int) -> bool:
    """The digits at ``text[start:end]`` are part of an amount (``_AMOUNT_BEFORE``/``_AMOUNT_AFTER``)."""
    return bool(_AMOUNT_BEFORE.search(text, max(0, start - 12), start) or _AMOUNT_AFTER.match(text, end))


def _luhn(digits: str) -> bool:
    total, alt = 0, False
    for ch in reversed(digits):
        d = int(ch)
        if alt:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
        alt = not alt
    return total % 10 == 0


def _iban_ok(raw: str) -> bool:
    s = raw.replace(" ", "")
    if not 15 <= len(s) <= 34:
        return False
    moved = s[4:] + s[:4]
    num = "".join(str(int(c, 36)) for c in moved)
    return int(num) % 97 == 1


def _entropy(s: str) -> float:
    counts = Counter(s)
    return -sum(n / len(s) * math.log2(n / len(s)) for n in counts.values())


def _high_entropy(tok: str) -> bool:
    tok = tok.strip(".-")
    if len(tok) < 24 or "//" in tok:
        return False
    classes = sum(bool(re.search(p, tok)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    return classes >= 3 and _entropy(tok) >= 3.8


_CLAUSE_END = re.compile(r"[;\n]|[.!?](?:\s|$)")
# Where a second, independent statement starts inside the same sentence ("…, and by the way I prefer
# Slack"): a secret's span stops there, so masking keeps the harmless rest of the sentence.
# Without a comma it takes a joining word ("… is 7391 and my partner is Kwame") or an aside marker
# ("… is Maple-Comet-551 please note I …", "… btw the lab is …") or a dash; a bare space never ends the span.
_SELF_START = r"(?=(?:I|I'm|I've|I'd|I'll|im|ive|my|we|we're|we've|our)\b)"
_ASIDE = r"(?:by\s+the\s+way|btw|also|anyway|oh|please\s+note(?:\s+that)?|note\s+that|fyi)"
_NEXT_STATEMENT = re.compile(
    r"(?i),\s*(?:and|but|so|plus|also|while|whereas)?\s*(?:" + _ASIDE + r")?[\s,]*" + _SELF_START
    + r"|[^\S\n]+(?:and|but|plus|while|whereas)[^\S\n]+(?:" + _ASIDE + r"[\s,]+)?" + _SELF_START
    + r"|,?[^\S\n]+(?:and[^\S\n]+)?(?=(?:please\s+note|note\s+that|btw|by\s+the\s+way|also|fyi)\b)"
    + r"|[^\S\n]+[—–-]+[^\S\n]*(?:" + _ASIDE + r"[\s,]+)?" + _SELF_START  # "… for me — im a tattoo artist at …"
)


def _clause_stop(text: str, start: int) -> int:
    """End of the secret's clause that begins at ``start``: a sentence end or ';', or, earlier, a new
    self-statement after a comma or a joining word ("and my …"), or an aside ("please note", "btw",
    "also"), but only when nothing secret-shaped (3+ digits, a password-like
    token) follows in the rest of the sentence: "My password, I'm embarrassed to say, is Fluffy123"
    is masked to its end, "…is Tulip!Rain42, and I prefer Slack" keeps the preference."""
    tail = _CLAUSE_END.search(text, start)
    end = tail.start() if tail else len(text)
    nxt = _NEXT_STATEMENT.search(text, start, end)
    if nxt is None:
        return end
    after = text[nxt.start() : end]
    if re.search(r"\d{3,}", after) or _PASSWORDISH.search(after):
        return end
    # a second secret keyword after the new statement ("pin is 4921 and my mum's maiden name is …") is
    # masked by its own span; the rest of the sentence ("…, I live in Hove") is not the first one's value
    return nxt.start()


# Digits of a code, possibly grouped: "4471", "1-9-7-3", "5 5 8 2", "0-42-17", "77 31 05".
_DIGITS = re.compile(r"(?<![\d.])\d(?:[ -]?\d){2,}(?![\d.])")
_GROUPED_DIGITS = re.compile(r"(?<![\d.:])\d{1,3}(?:(?:[ ]|[ ]?-[ ]?)\d{1,3}){2,}(?![\d.:])")
# Things opened with a code: a separated digit group in the same clause is their code.
_LOCKISH = re.compile(
    r"(?i)\b(?:alarm|garage|locker|padlock|bike\s+lock|keypad|key\s*safe|lockbox|lock\s*box|safe|vault|gate|door|entry|buzzer|"
    r"intercom|storage\s+unit|shed|combo|combination|disarm|unlock)\b"
)
_LOCK_CODE_WORD = re.compile(
    r"(?i)\b(?:code|pin|combo|combination|passcode|digits|number\s+to\s+(?:open|disarm|unlock))\b|\b(?:punch|key|tap|type)\s+in\b|"
    r"\bdisarm|\bunlock|\bopens?\s+(?:it\s+)?(?:with|on)\b|\btakes\b|\bset\s+(?:it\s+)?to\b"
)
# Logging in with something password-like: "sign in with dave_k and Persimmon_88", "to get into my Spotify it's kiwi.jam.2020".
_LOGIN_WITH = re.compile(r"(?i)\b(?:sign(?:ing)?|log(?:ging)?|get(?:ting)?|break(?:ing)?)\s+in(?:to)?\b|\bunlock(?:ing)?\s+(?:my|the)\b")
_NOT_A_CODE_NUMBER = re.compile(r"^(?:19|20)\d\d$")
# digits that are an amount, not a value to keep secret: after a currency sign, inside a number grouped by
# thousands ("2,100"), or before a percent ("at 24.99% apr plus $2,100 left on my car loan")
_AMOUNT_BEFORE = re.compile(r"(?:[£$€]\s?|\d,)[\d,]*$")
_AMOUNT_AFTER = re.compile(r"(?:,\d{3})|\s?(?:%|percent\b|k\b)")
# A one-time code someone sent: "the code they texted me is 482913", "verification: 77 31 05".
_SENT_CODE = re.compile(
    r"(?i)\b(?:texted|text(?:ed)?\s+me|sms(?:'d)?|sent\s+me|emailed\s+me|just\s+got|received|verification|verify|one[- ]time|"
    r"2fa|two[- ]factor|log\s*-?in\s+code|sign[- ]?in\s+code|auth(?:entication)?\s+code|security\s+code|otp|confirm\s+it's\s+me)\b"
)
# Wi-fi keys: "wifi: network Fernbank, key Pebbles!2211".
_WIFI = re.compile(r"(?i)\b(?:wi-?fi|wpa2?|hotspot|router|ssid|network)\b")
_WIFI_KEY = re.compile(r"(?i)\b(?:key|passkey|pass|pw|pwd|code)\b")
_NOT_SECRET_CODE = re.compile(r"(?i)\b(?:area|zip|post|postal|country|dialling|dialing|promo|discount|voucher|coupon|referral|"
                              r"booking|reservation|confirmation|flight|tracking|order|error|status|product|dress|tax|colour|color|"
                              r"source|morse|bar|qr)\s+code")
# National Insurance number, with or without spaces: "QQ 12 34 56 C".
_NI = re.compile(r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]\b"
                 r"|(?i:\b(?:nino|ni\s+(?:no|number)|national\s+insurance(?:\s+(?:no|number))?)\b)[^\n.]{0,20}?\b[A-Za-z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-Da-d]\b")
# A base32 TOTP/authenticator seed: "JBSWY3DPEHPK3PXP" or "JBSW Y3DP EHPK 3PXP".
_BASE32 = re.compile(r"\b(?:[A-Z2-7]{16,}|[A-Z2-7]{4}(?:[ ][A-Z2-7]{4}){3,})=*(?![A-Za-z0-9])")
# "admin / Tr0ub4dor&3", "user: bob pass: x": a login and a password-like token.
_LOGIN_PAIR = re.compile(r"(?<![\w/])[\w.@+-]{2,40}\s*/\s*(?=[^\s/]*[A-Za-z])(?=[^\s/]*[\d!#$%^&*~@])[^\s/,;]{6,}")
# "i use hunter2hunter for pretty much every site", "Kestrel#41 is my password".
_REUSED = re.compile(
    r"(?i)\b(?:use|uses|used|using|reuse|reused|reusing|recycle)\s+(?P<v>[^\s,;]{5,})\s+(?:for|on|as|across|everywhere)"
    r"(?:[^.;\n]{0,40}?\b(?:sites?|websites?|accounts?|logins?|everything|everywhere|apps?|services?|passwords?|e-?mail|gmail|"
    r"outlook|bank|banking|phone|laptop|computer|pc|mac|wifi|wi-fi|router|icloud|apple\s+id|netflix|amazon|paypal|work)\b|(?<=everywhere))"
)
_IS_MY_PASSWORD = re.compile(
    r"(?i)(?P<v>[^\s,;:\"'`]{4,})[\"'`]?\s+(?:is|was|=)\s+(?:still\s+)?(?:my|the|our|his|her|their)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:password|passcode|passphrase|pin|pw|login|code)\b"
)
_SEED_WORDS = re.compile(
    r"(?i)\b(?:seed|recovery|backup|wallet|mnemonic|secret\s+recovery)\s+(?:words?|phrase)\b[^A-Za-z\n]{0,12}(?:(?:is|are|was|were|reads?)\b)?"
    r"[\s:\"'`-]*(?P<words>(?:[a-z]+[\s,]+){3,}[a-z]+)"
)
# A security question's answer: the whole clause after "security question/answer", "memorable …", or a
# classic question ("first car", "first pet", "maiden name") said with the bank, a login or a reset.
_SECURITY_CONTEXT = re.compile(r"(?i)\b(?:security|secret|memorable|verification|recovery)\s+(?:questions?|answers?|q)\b")
_CLASSIC_QUESTION = re.compile(
    r"(?i)\b(?:first\s+(?:car|pet|school|teacher|job|boss|concert|love|street)|childhood\s+(?:best\s+friend|street|nickname|hero|pet)|"
    r"street\s+i\s+grew\s+up\s+on|town\s+(?:where\s+)?i\s+was\s+born|city\s+(?:where\s+)?my\s+parents\s+met|maiden\s+name|"
    r"favou?rite\s+(?:teacher|childhood)\b)"
)
_ACCOUNT_CONTEXT = re.compile(r"(?i)\b(?:bank|banking|account|login|log\s*in|sign\s*in|reset|password|verify|verification|security|asks?|question|answer|recovery)\b")


def _clause_span(text: str, start: int) -> tuple[int, int]:
    """The sentence around ``start``: from the previous sentence end to the next."""
    ends = [m.end() for m in _CLAUSE_END.finditer(text, 0, start)]
    begin = ends[-1] if ends else 0
    tail = _CLAUSE_END.search(text, start)
    return begin, tail.start() if tail else len(text)


_ANSWER = re.compile(r"(?i)\s*(?:is|was|=|:|'s)\s*[^,;]*?(?=\s*(?:[,;]|\s(?:and|but)\s+(?:i|my|we|our|i'm|im)\b))")


def _answer_end(text: str, after: int, end: int) -> int:
    """Where the answer to a classic question ends: at the comma or the "and I/my …" that starts the
    next clause ("maiden name is Whitaker, I live in Hove"), else at the sentence's end."""
    m = _ANSWER.match(text, after, end)
    return m.end() if m and m.end() > after else end


def _everyday_spans(text: str) -> list[tuple[int, int]]:
    """Secrets said in everyday words rather than as ``keyword: value``."""
    spans: list[tuple[int, int]] = []
    spans.extend((m.start(), m.end()) for m in _NI.finditer(text))
    for m in _BASE32.finditer(text):
        tok = m.group().replace(" ", "").rstrip("=")
        if sum(c.isdigit() for c in tok) >= 2 and len(set(tok)) >= 8 and not tok.isdigit():
            spans.append((m.start(), m.end()))
    for m in _LOGIN_PAIR.finditer(text):
        left = m.group().split("/")[0].strip()
        if not left.isdigit():
            spans.append((m.start(), m.end()))
    for m in _REUSED.finditer(text):
        if _PASSWORDISH.fullmatch(m.group("v")) or (len(m.group("v")) >= 8 and re.search(r"\d", m.group("v"))):
            spans.append((m.start("v"), m.end("v")))
    for m in _IS_MY_PASSWORD.finditer(text):
        v = m.group("v")
        if v.lower() not in _NOT_A_VALUE and v.lower() not in _FUNCTION_WORDS and not v.lower().endswith(("ing", "ed")):
            if _PASSWORDISH.fullmatch(v) or re.search(r"\d", v) or m.group().lower().split()[-1] != "code":
                spans.append((m.start("v"), m.end()))
    for m in _SEED_WORDS.finditer(text):
        words = m.group("words").replace(",", " ").split()
        if len(words) >= 4 and sum(w in _FUNCTION_WORDS for w in words) <= 1:
            spans.append((m.start(), _clause_span(text, m.start("words"))[1]))
    for m in _SECURITY_CONTEXT.finditer(text):
        begin, end = _clause_span(text, m.start())
        rest = text[m.end() : end]
        if re.search(r"(?i)\b(?:is|was|are|:|=|answer|set|put|used|gave)\b|[:=]", rest) and len(rest.split()) >= 2:
            spans.append((m.start(), end))
    for m in _CLASSIC_QUESTION.finditer(text):
        begin, end = _clause_span(text, m.start())
        sentence = text[begin:end]
        if _ACCOUNT_CONTEXT.search(sentence) or m.group().lower().startswith("maiden"):
            spans.append((m.start(), _answer_end(text, m.end(), end)))
    for m in _LOCKISH.finditer(text):
        begin, end = _clause_span(text, m.start())
        sentence = text[begin:end]
        if _NOT_SECRET_CODE.search(sentence):
            continue
        for d in _GROUPED_DIGITS.finditer(text, begin, end):
            spans.append((min(m.start(), d.start()), max(m.end(), d.end())))
        if _LOCK_CODE_WORD.search(sentence):
            for d in _DIGITS.finditer(text, begin, end):
                if len(re.sub(r"\D", "", d.group())) >= 3:
                    spans.append((min(m.start(), d.start()), max(m.end(), d.end())))
    for m in re.finditer(r"(?i)\b(?:code|pin|otp|passcode)\b", text):
        begin, end = _clause_span(text, m.start())
        sentence = text[begin:end]
        # a code word with a 4+ digit run in its clause is a code to get in somewhere, unless it is one of the
        # public kinds (area, postal, booking, error, promo, …)
        if _NOT_SECRET_CODE.search(sentence) or re.search(r"(?i)\bcode\s+(?:review|reviews|base|editor|coverage|of\s+conduct|name|lines?)\b|\blines?\s+of\s+code\b", sentence):
            continue
        for d in _DIGITS.finditer(text, begin, end):
            if 4 <= len(re.sub(r"\D", "", d.group())) <= 10:
                spans.append((min(m.start(), d.start()), max(m.end(), d.end())))
    for m in _SENT_CODE.finditer(text):  # "they texted me 77 31 05", "the bank just texted me 604 119"
        begin, end = _clause_span(text, m.start())
        for d in _DIGITS.finditer(text, m.end(), end):
            digits = re.sub(r"\D", "", d.group())
            money = re.match(r"\s*(?:%|percent|pounds|dollars|euros|am|pm|minutes|mins|hours|days|times)\b", text[d.end() : d.end() + 10])
            if 4 <= len(digits) <= 8 and not _NOT_A_CODE_NUMBER.match(digits) and not money and text[max(0, d.start() - 1)] not in "£$€":
                spans.append((m.start(), d.end()))
    for m in _WIFI.finditer(text):
        begin, end = _clause_span(text, m.start())
        if _WIFI_KEY.search(text, begin, end):
            spans.extend((p.start(), p.end()) for p in _PASSWORDISH.finditer(text, begin, end))
    for m in _LOGIN_WITH.finditer(text):
        begin, end = _clause_span(text, m.start())  # "use admin and Sup3r-Secret to log into the router": either side
        for p in _PASSWORDISH.finditer(text, begin, end):
            if not re.fullmatch(r"[\d:.,/-]+[A-Za-z]{0,2}", p.group()):  # times and dates are not passwords
                spans.append((p.start(), p.end()))
    return spans


@list_cache
def find_secrets(text: str) -> list[tuple[int, int]]:
    """Spans (start, end) of credential-like strings in ``text``, sorted, possibly overlapping."""
    spans: list[tuple[int, int]] = []
    for m in _KEYWORD_VALUE.finditer(text):
        value = m.group("value").strip(".")
        if value.lower() in _NOT_A_VALUE or not re.search(r"[\w]", value):
            continue
        if m.group("gap") and m.group("link") in ("'s", "’s"):
            continue  # "the door code at the user's office": a possessive, not "is"
        gap = m.group("gap").split()
        if gap and gap[0].lower() not in _GAP_OPENERS and re.fullmatch(r"[A-Za-z]+", value):
            continue  # "my PIN pad at work is broken": the keyword names something else; its value is a plain word
        if _NUMBER_KEYWORD.match(m.group()) and not re.search(r"\d", text[m.start("value") : _clause_stop(text, m.end())]):
            continue  # "national insurance category is letter C": an identity number without digits is not one
        # the rest of the clause goes too: "jsmith / Winter2025!" has the secret after the first token
        raw = m.group("value")
        end = m.end() - (len(raw) - len(raw.rstrip(".!?:")))
        spans.append((m.start(), max(end, _clause_stop(text, end))))
    for m in _KEYWORD.finditer(text):
        # "pin number 8832", "password is the same as my email one: Daisy#Chain-77": a keyword
        # followed, in the same clause, by a number or a password-like token
        tail = _CLAUSE_END.search(text, m.end())
        end = _clause_stop(text, m.end())
        rest = text[m.end() : end]
        if not rest.strip(" ,"):  # "My password, I'm embarrassed to say, is …": the value is further on
            end = tail.start() if tail else len(text)
            rest = text[m.end() : end]
        numbers = [d for d in _DIGITS.finditer(text, m.end(), end) if not _amount(text, d.start(), d.end())]
        if numbers or _PASSWORDISH.search(rest):
            spans.append((m.start(), end))
        elif tail is not None and text[tail.start()] in "?:" and tail.start() - m.end() < 40:
            # "The VPN password? It's Falcon-99-Zulu.": the answer follows in the next sentence
            nxt = _CLAUSE_END.search(text, tail.end())
            stop = nxt.start() if nxt else len(text)
            if _DIGITS.search(text[tail.end() : stop]) or _PASSWORDISH.search(text[tail.end() : stop]):
                spans.append((m.start(), stop))
    spans.extend(_passphrase_spans(text))
    spans.extend(_everyday_spans(text))
    for pat in _SHAPES:
        spans.extend((m.start(), m.end()) for m in pat.finditer(text))
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if not 13 <= len(digits) <= 19 or len(set(digits)) == 1:
            continue
        named = _GROUPED_CARD.fullmatch(m.group()) and _CARD_WORD.search(text, *_clause_span(text, m.start()))
        if _luhn(digits) or named:
            # the expiry and the code said after it in the same clause go with it
            spans.append((m.start(), max(m.end(), _clause_stop(text, m.end()))))
    for m in _IBAN.finditer(text):
        if _iban_ok(m.group()):
            spans.append((m.start(), m.end()))
    for m in _TOKEN.finditer(text):
        if _high_entropy(m.group()):
            spans.append((m.start(), m.end()))
    return sorted(spans)


def has_secret(text: str) -> bool:
    """True if ``text`` contains anything ``find_secrets`` recognises."""
    return bool(find_secrets(text))


SECRET_MARK = "\u2588secret\u2588"


def mask_secrets(text: str) -> str:
    """``text`` with every secret span replaced by ``SECRET_MARK`` (the write path drops clauses holding one)."""
    spans = find_secrets(text)
    if not spans:
        return text
    out, pos = [], 0
    for start, end in spans:
        if end <= pos:
            continue
        out.append(text[pos : max(pos, start)])
        out.append(SECRET_MARK)
        pos = end
    out.append(text[pos:])
    return "".join(out)
