"""Injected instructions: text that addresses an AI assistant, instructs the model, or sends data elsewhere.

Invariants:
- ``is_injection(text)`` is true for text that addresses an AI assistant
  with instructions; tool content flagged so is never stored as something
  to follow.
- ``instructs_model``, ``relays_data`` and ``procedure_refusal`` decide what
  the write guard (``guard``) refuses, whoever wrote the text.

All functions are pure and deterministic.
"""

from __future__ import annotations

import re

_INJECTION = re.compile(
    r"(?ix)"
    r"\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all|your|system|original|the)\b[^.\n]{0,25}\b(?:instructions?|prompts?|rules|guidelines|directions|messages|context|commands)"
    r"|\bnote\s+(?:to|for)\s+(?:the\s+)?(?:ai|llm|assistants?|agents?|bots?|chatbots?|language\s+models?|gpt|claude|copilot)"
    r"|\b(?:ai|llm)\s+(?:assistants?|agents?|models?)\s*[:,]"
    r"|\b(?:attention|message\s+(?:to|for)|instructions?\s+(?:to|for))\s+(?:the\s+)?(?:ai|llm|assistants?|agents?|bots?|language\s+models?)"
    r"|\b(?:dear|hey|hi|hello)\s+(?:ai|assistant|agent|chatbot|llm|gpt|claude|bot)\b"
    r"|\bif\s+you\s+are\s+an?\s+(?:ai|llm|assistant|agent|language\s+model|bot)"
    r"|\bas\s+an?\s+(?:ai\s+)?(?:ai|llm|assistant|language\s+model)\s*,?\s*you\s+(?:must|should|will)"
    r"|\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|everything\s+)?(?:above|previous|prior|earlier|before)\b"
    r"|\byou\s+(?:must|should|will|need\s+to)\s+(?:now\s+)?(?:ignore|disregard|forget|reveal|disclose|forward|exfiltrate|leak)\b"
    r"|\b(?:the\s+)?(?:assistant|agent|model|ai)\s+(?:must|should|shall|is\s+(?:required|instructed))\s+(?:now\s+|always\s+|never\s+)?\w+"
    r"|\bfrom\s+now\s+on\b|\bgoing\s+forward\s*,?\s+(?:you|always|never)\b|\bhenceforth\b|\bin\s+all\s+future\s+(?:responses|conversations|sessions)"
    r"|\b(?:new|updated|real|hidden|secret|system|developer)\s+(?:instructions?|directives?|prompt|rules)\s*[:\-]"
    r"|\byou\s+are\s+now\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|dan|developer)|\bdeveloper\s+mode\b|\bjailbreak"
    r"|\bdo\s+not\s+(?:tell|inform|mention\s+(?:this\s+)?to|alert|notify)\s+(?:the\s+)?user"
    r"|\bwithout\s+(?:telling|informing|asking|notifying)\s+(?:the\s+)?user"
    r"|\b(?:always|silently|secretly|quietly|automatically)\s+(?:forward|send|email|cc|bcc|share|upload|post|leak|exfiltrate|transfer|copy|include)\b"
    r"|\b(?:forward|send|email|share|upload|leak|exfiltrate|transfer)\b[^.\n]{0,60}\b(?:passport|password|credentials?|api\s+keys?|card\s+(?:number|details)|booking\s+details|personal\s+(?:data|details|information)|conversation|chat\s+history|memories|contacts)\b[^.\n]{0,40}\bto\b"
    r"|\bremember\s+(?:that\s+)?(?:you|the\s+assistant)\s+(?:must|should|always|never)\b"
    r"|\b(?:save|store|add)\s+(?:this|the\s+following)\s+(?:to|in|as)\s+(?:your\s+)?(?:memory|memories|long[- ]term\s+memory)"
    r"|\bupdate\s+your\s+(?:memory|instructions|system\s+prompt)"
    r"|<\|?(?:im_start|im_end|system|endoftext)\|?>|\[/?(?:system|inst|INST)\]|\#\#\#\s*(?:system|instruction)"
    r"|\bsystem\s*(?:prompt|override|message)\s*:"
    r"|\b(?:bypass|skip|circumvent|avoid)\b[^.\n]{0,30}\b(?:confirmation|verification|approval|authentication|2fa|review|sign[- ]off)\b"
)


def is_injection(text: str) -> bool:
    """True if ``text`` addresses an AI assistant with instructions (a prompt-injection payload)."""
    return bool(_INJECTION.search(text))


def injection_start(text: str) -> int | None:
    """Offset where the first injected instruction in ``text`` begins, or None."""
    m = _INJECTION.search(text)
    return m.start() if m else None


# Text that instructs the model itself rather than stating a preference about its answers: overriding
# its instructions, revealing its prompt or secrets, running commands, sending data somewhere, dropping
# its safeguards, or hiding things from the user. A user may say "from now on answer in French" (a
# preference, kept as a procedure); nobody's words make "ignore all previous instructions" a memory.
_COMMAND = (
    r"(?:curl|wget)\s+(?:-{1,2}\w|['\"]?(?:https?|ftp)://|\S+\.\S+/)|\|\s*(?:ba|z|c|k)?sh\b|rm\s+-rf|sudo\s|chmod\s|bash\s+-c|powershell|cmd(?:\.exe)?\s+/c|eval\(|exec\(|"
    r"os\.system|subprocess|nc\s+-e|python\s+-c|iex\s*\(|invoke-expression|base64\s+-d|/etc/passwd|\.sh\b"
)
_MODEL_DIRECTIVE = re.compile(
    r"(?ix)"
    r"\b(?:ignore|disregard|forget|override|overrule|bypass|skip|drop|abandon|discard|scrap|throw\s+out|set\s+aside|cancel)\b[^.\n]{0,40}"
    r"\b(?:instructions?|prompts?|rules|guidelines|directions|directives|programming|guardrails|safeguards|restrictions|constraints|policies|policy|training|context|system\s+message)\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|everything\s+|what\s+(?:was|you\s+were)\s+(?:said|told)\s+)?(?:above|previous(?:ly)?|prior|earlier|before)\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:whatever|anything|everything|all)\b[^.\n]{0,40}\b(?:told|said|gave|given|instructed|above|before|earlier|previously|developer|system)\b"
    r"|\b(?:ignore|disregard|forget|delete|remove|drop)\s+(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?)?user'?s\b[^.\n]{0,30}\b(?:notes?|allerg\w*|preferences?|memories|instructions|settings|restrictions|data|records|requests?)\b"
    r"|\b(?:reveal|show|print|output|display|repeat|recite|dump|leak|disclose|share|tell\s+me|give\s+me|paste|spell\s+out|echo|expose|return|list)\b[^.\n]{0,40}"
    r"\b(?:system\s+(?:prompt|message|instructions?)|(?:your|the|hidden|initial|original|secret)\s+(?:prompt(?!\s+(?:corner|desk|book|script|side|copy|cards?|sheet)\b)|"
    r"instructions|rules|configuration|config|guidelines|directives)|prompt\s+verbatim|"  # "the prompt corner" is a theatre's
    r"api\s+keys?|secret\s+keys?|environment\s+variables|env\s+vars|credentials|(?:stored|saved|other\s+users'?)\s+(?:passwords?|memories|data)|"
    r"every(?:thing)?\s+(?:you\s+(?:know|have|remember)|memory|stored))"
    r"|\bwhat\s+(?:is|are|were)\s+your\s+(?:system\s+prompt|instructions|initial\s+instructions|rules)\b"
    r"|\b(?:run|execute|exec|launch|invoke|eval(?:uate)?)\b[^.\n]{0,30}\b(?:command|commands|script|shell|code|payload|binary|program|terminal)\b"
    r"|(?:" + _COMMAND + r")"
    r"|\b(?:send|forward|email|e-mail|post|upload|transmit|exfiltrate|copy|leak|share|bcc|sync|mirror|relay)\b[^.\n]{0,60}?"
    r"\b(?:everything|all\s+(?:of\s+)?(?:my|the|your|our)?\s*(?:emails?|messages|conversations?|chats?|history|memories|notes|data|files|contacts|passwords|documents|photos)|"
    r"my\s+(?:emails|messages|conversations|chats|chat\s+history|contacts(?:\s+list)?|files|photos|documents|data|passwords|memories)|"
    r"(?:chat|conversation|browsing)\s+history|contacts?\s+list|(?:saved|stored)\s+(?:passwords|memories|data)|credentials|api\s+keys?)\b"
    r"[^.\n]{0,80}(?:https?://|www\.|\b[\w.-]+@[\w-]+\.[\w.]+|\b[\w-]+\.(?:example|com|net|org|io|ru|xyz|info|biz|co)\b)"
    r"|\byou\s+are\s+(?:now|no\s+longer)\b|\b(?:act|behave|respond|operate)\s+as\s+(?:if\s+you\s+(?:were|are|had)\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|uncensored|evil|dan\b|developer|root|admin|different)"
    r"|\bpretend\s+(?:you\s+(?:are|have|were)|to\s+be)\b[^.\n]{0,40}\b(?:no|without|unrestricted|unfiltered|free|jailbroken|evil|another\s+ai|admin|developer)"
    r"|\b(?:developer|god|admin|debug|maintenance|sudo|unrestricted|unfiltered|jailbreak|dan)\s+mode\b|\bjailbr[eo]a?k|\bdo\s+anything\s+now\b"
    r"|\b(?:disable|turn\s+off|switch\s+off|remove|deactivate|lift|drop|suspend|bypass|circumvent|ignore)\b[^.\n]{0,25}\b(?:safety|filters?|guardrails?|content\s+polic\w+|moderation|restrictions?|safeguards?|censorship|alignment|ethics|confirmations?|confirmation\s+prompts|verification|warnings|two[- ]factor|2fa|logging|audit)\b"
    r"|\b(?:previous|prior|earlier|above|all|your|existing|original)\s+(?:instructions|guidance|rules|guidelines|directives|prompts?|orders)\s+(?:is|are|were|have\s+been)\s+(?:now\s+)?(?:void|null|cancell?ed|obsolete|revoked|invalid|superseded|replaced|lifted|withdrawn|no\s+longer\s+(?:valid|in\s+force|apply))"
    r"|\bsupersedes?\s+(?:all|any|every|the|your)\b|\btakes?\s+(?:precedence|priority)\s+over\s+(?:all|any|your|the|previous)\b"
    r"|\b(?:memory|database|prompt)\s+dump\b|\bdump\s+(?:your|the|all|every)\b"
    # a "context dump" or "data dump" is asked for, not announced ("context dump incoming: I'm a radiographer …")
    r"|\b(?:give|send|show|print|output|reply\s+with|return|do|perform|produce|provide|paste)\b[^.\n]{0,20}\b(?:context|data)\s+dump\b"
    r"|(?:^|\n)\s*(?:override|system|admin|developer|root|sudo)\s*:"
    r"|(?:^|\n)\s*(?:ai|assistant|llm|model|bot|chatbot|agent)\s*:\s+\S"
    r"|\b(?:user|i)\s+(?:has|have|now\s+has|now\s+have)\s+(?:been\s+granted\s+)?(?:admin|root|superuser|elevated|full)\s+(?:rights|access|privileges|permissions)\b"
    r"|\byou\s+(?:now\s+)?(?:speak|talk|respond|answer|reply|act|write)\s+(?:only\s+)?as\b(?!\s+(?:my|an?\s+(?:assistant|helper)))"
    r"|\bwith\s+no\s+(?:limits|restrictions|rules|filters|guardrails|boundaries|censorship)\b"
    r"|\b(?:reveal|tell\s+me|repeat|show|print|say|disclose|output)\b[^.\n]{0,30}\bwhat\s+(?:the|your)\s+(?:developers?|system|creators?|operators?|admins?|owners?|makers?)\b[^.\n]{0,20}\b(?:told|said|wrote|instructed|gave|set)\b"
    r"|\bstop\s+(?:following|obeying|using|listening\s+to)\s+(?:your|the|all|any)\b[^.\n]{0,20}\b(?:instructions|rules|guidelines|prompts?|training|programming|developers?)\b"
    r"|\bfollow\s+(?:these|my|the\s+following|the\s+new)\s+(?:new\s+)?(?:instructions|rules|orders|directives)?\s*instead\b"
    r"|\bno\s+(?:longer\s+)?(?:bound|restricted)\s+by\b|\bwithout\s+(?:any\s+)?(?:(?:content|safety|ethical|moral)\s+)?(?:restrictions|filters|limits|rules|guardrails|safety|censorship|filtering)"
    r"|\b(?:instructions|guidance|rules|guidelines|directives|restrictions|policies|safeguards)\s+(?:no\s+longer\s+apply|(?:do|does)\s+not\s+apply\s+any\s*more)"
    r"|\b(?:developer|admin|system|emergency|maintenance|root|god)\s+override\b"
    r"|\b(?:your|the)\s+(?:hidden|secret|internal|initial|original|system|confidential)\s+(?:instructions|prompt|rules|guidelines|configuration|directives)\b"
    r"|\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|show|alert|notify|warn|let)\b[^.\n]{0,30}?\b(?:the\s+)?(?:user|owner|human|me\s+know)\b"
    r"|\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|warn)\s+me\s+(?:when|if|that|about)\b[^.\n]{0,40}\b(?:you(?:'ve|\s+have)?\s+)?(?:chang|shar|sen[dt]|forward|delet|approv|access|upload|spen[dt]|transferr?)\w*"
    r"|\bwithout\s+(?:telling|informing|asking|notifying|alerting|warning)\s+(?:the\s+)?(?:user|owner|human|anyone|me)\b"
    r"|\b(?:silently|secretly|quietly|covertly|discreetly|invisibly)\s+(?:\w+\s+){0,2}?(?:forward|send|email|cc|bcc|share|upload|post|leak|exfiltrate|transfer|copy|include|add|insert|approve|delete|run|execute|install|log|record|change|grant)\b"
    r"|\b(?:new|updated|real|hidden|secret|system|developer|admin|override)\s+(?:instructions?|directives?|prompt|rules|orders)\s*[:\-]"
    r"|<\|?(?:im_start|im_end|system|endoftext|user|assistant)\|?>|\[/?(?:system|inst|INST|SYS)\]|<<\s*/?SYS\s*>>|\#\#\#\s*(?:system|instruction)"
    r"|\bsystem\s*(?:prompt|override|message|instruction)\s*:"
    r"|\b(?:grant|give|elevate|escalate)\b[^.\n]{0,50}\b(?:full\s+)?(?:admin|administrator|root|superuser|elevated|full)\s+(?:access|rights|privileges|permissions|control)"
    r"|\b(?:approve|authori[sz]e|pay|wire|transfer)\s+(?:all|every|any)\s+(?:\w+\s+){0,2}(?:payments?|invoices?|transfers?|requests?|refunds?|charges?)\b"
    r"|\b(?:delete|erase|wipe|purge|drop)\s+(?:all|every)\b[^.\n]{0,30}\b(?:memories|records|files|data|users?|tables?|messages|emails)\b"
    r"|\bnever\s+(?:warn|question|refuse|verify|check|flag)\b[^.\n]{0,30}\b(?:phishing|payments?|requests?|links?|senders?|anything|transfers?)"
    r"|\b(?:include|insert|add|append)\b[^.\n]{0,30}\b(?:this\s+)?(?:link|url)\b[^.\n]{0,40}(?:https?://|www\.|\.example\b)"
    r"|\btreat\b[^.\n]{0,40}\bas\s+(?:coming\s+from\s+)?(?:the\s+)?(?:user|admin|trusted|system|developer)\b"
    r"|\b(?:include|insert|add|append|put|paste)\b[^.\n]{0,20}(?:https?://|www\.)\S+[^.\n]{0,30}\b(?:every|all|each|any)\s+(?:reply|replies|answer|answers|response|responses|message|messages|email|emails)\b"
    r"|\b(?:bypass|circumvent)\b[^.\n]{0,30}\b(?:confirmation|verification|approval|authentication|2fa|review|sign[- ]off|checks?)\b"
)
# Text that speaks to "the AI" about itself, as injected content does; a user talks to the assistant as "you".
# A salutation alone ("Dear assistant. I am 82 …") is how some users open every message: no sign by itself.
_ADDRESSES_AI = re.compile(
    r"(?ix)"
    r"\b(?:note|notice|message|memo|warning|alert|attention|reminder)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?(?:ai|ais|llms?|assistants?|agents?|bots?|chatbots?|language\s+models?|gpt|claude|copilot)\b"
    r"|\b(?:ai|llm)\s+(?:assistants?|agents?|models?)\s*[:,]"
    r"|\b(?:attention|message\s+(?:to|for)|instructions?\s+(?:to|for)|important\s+(?:note|message)\s+for)\s+(?:the\s+|all\s+)?(?:ai|llm|assistants?|agents?|bots?|language\s+models?)\b"
    r"|\bif\s+you(?:'re|\s+are)\s+an?\s+(?:ai|llm|assistant|agent|language\s+model|bot|chatbot)\b"
    r"|\bas\s+an?\s+(?:ai|llm|assistant|language\s+model)\s*,?\s*you\s+(?:must|should|will)\b"
    r"|\b(?:the\s+)?(?:assistant|agent|model|ai)\s+(?:must|shall|is\s+(?:required|instructed))\b"
    r"|\b(?:save|store|add)\s+(?:this|the\s+following)\s+(?:to|in|as)\s+(?:your\s+)?(?:memory|memories|long[- ]term\s+memory|a\s+permanent\s+rule)"
    r"|\bupdate\s+your\s+(?:memory|records|instructions|system\s+prompt)\b"
    r"|\b(?:henceforth|in\s+all\s+future\s+(?:conversations|responses|sessions|chats))\b[^.\n]{0,60}\b(?:tell|say|inform|add|include)\b"
)
# Sending something to an outside address ("forward receipts to accounts@grabber.example"): from a tool or an
# agent it is an injected action; a user may ask it of their own assistant ("cc my assistant dana@…"), so from
# the user only bulk copying (everything, all my emails, chat history, contacts) is refused.
_DETERMINERS = frozenset("my your his her our their the a an this that work new old personal business school".split())
_RELAY = re.compile(
    r"(?i)\b(?:send|forward|email|e-mail|post|upload|transmit|exfiltrate|copy|leak|share|bcc|cc|report|sync|mirror|relay)\b"
    r"(?!['’]s\b|\s+(?:is|was|are|were|address(?:es)?|account|inbox|id)\b|\s*[:=])"
    r"(?=[^.\n]{0,80}(?:https?://|www\.|\b[\w.-]+@[\w-]+\.[\w.]+|\b[\w-]+\.(?:example|com|net|org|io|ru|xyz|info|biz|co)\b))"
)  # a lookahead, so every verb is tried: "summarise this email, also email it to …"
# A rule about "the user" in the third person: how injected text speaks, not how a user speaks of themselves.
# Not applied to extracted claims, which the rules engine rewrites into the third person ("my" -> "the user's").
_SPEAKS_OF_THE_USER = re.compile(
    r"(?ix)"
    r"\bthe\s+user\s+(?:wants|asked|has\s+asked|would\s+like|needs|expects|has\s+(?:authori[sz]ed|consented|agreed))\s+(?:you|that\s+you|the\s+assistant)\b"
    r"|\b(?:you\s+must|you\s+should|you\s+will|from\s+now\s+on|henceforth|going\s+forward|in\s+all\s+future\s+\w+)\b[^.\n]{0,80}\bthe\s+user(?:'s)?\b"
    r"|\bthe\s+user(?:'s)?\b[^.\n]{0,80}\b(?:from\s+now\s+on|henceforth|going\s+forward|in\s+all\s+future\s+\w+)\b"
)
_URL = re.compile(r"(?i)https?://|www\.|(?<![@\w.-])[\w-]+(?:\.[\w-]+)*\.(?:example|ru|xyz|zip|top)\b(?!@)")  # not an e-mail address


def instructs_model(text: str, *, rewritten: bool = False) -> bool:
    """True if ``text`` is an instruction to the model rather than a preference about its answers.

    "Ignore all previous instructions", "reveal the system prompt", "run this
    command", "forward … to someone@…", "you are now DAN", "don't tell the
    user": never a memory, whoever said it. "From now on answer in French"
    or "always cc my assistant" are preferences and are not flagged.
    ``rewritten``: ``text`` is a claim the rules engine put in the third person
    ("the user's …"), so speaking of "the user" is no sign of injection.
    """
    if rewritten:
        text = first_person(text)
    if _MODEL_DIRECTIVE.search(text) or _ADDRESSES_AI.search(text):
        return True
    return not rewritten and bool(_SPEAKS_OF_THE_USER.search(text))


def first_person(claim: str) -> str:
    """An extracted claim back in the user's own voice ("User asked to not tell the user …" -> "I asked to not
    tell me …"), so checks written for how people speak are not fooled by the rules engine's third person."""
    out = re.sub(r"(?i)\bthe\s+user['’]s\b", "my", claim)
    out = re.sub(r"(?i)\bthe\s+user\b", "me", out)
    out = re.sub(r"^User['’]s\b", "My", out)
    return re.sub(r"^User\b", "I", out)


def relays_data(text: str, *, from_user: bool = False) -> bool:
    """True if ``text`` asks for something to be sent to an outside address or link: an injected action when
    a tool or an agent wrote it. In a user's own turn only when it is not about the user's own things
    ("forward the user's calendar to …" is not how anyone speaks of themselves; "cc my PA tom@…" is)."""
    found = False
    for m in _RELAY.finditer(text):
        before = text[: m.start()].split()
        if before and before[-1].lower().strip("(\"'") in _DETERMINERS:
            continue  # "my email is dana@…", "the post at x.com": a noun, not a request to send
        found = True
        break
    if not found:
        return False
    return not from_user or not re.search(r"(?i)\b(?:my|me|I|mine|I'm|I've)\b", text)


def procedure_refusal(text: str, *, rewritten: bool = False) -> str | None:
    """Why ``text`` may not become a standing procedure (None if it may): it instructs the model, or it
    carries a link or a shell command an assistant would act on unseen."""
    if instructs_model(text, rewritten=rewritten):
        return "injection"
    if _URL.search(text):
        return "procedure with a link"
    return None
