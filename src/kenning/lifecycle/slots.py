"""Attribute slots: what a one-claim sentence says about its subject, so a new value can replace an old one.

``parse(text)`` reads a normalised third-person claim ("User lives in York",
"Maya is severely allergic to peanuts", "User's favourite colour is green")
and returns a ``Slot``: the attribute, its value, whether the claim
asserts or retracts it, and the value it replaced if the claim says so
("moved from Leeds to York"). Pure and deterministic.

Single-valued attributes (residence, employer, diet, spouse, contact
details, "X's Y is Z" attributes, preferences about one topic) are keyed by
the attribute alone, so any new value supersedes the old one. Multi-valued
ones (allergies, likes, relatives) are keyed by attribute and value, so a
new value is added beside the old and only a retraction of the same value
replaces it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kenning.lifecycle import lexicon
from kenning.lifecycle.memo import list_cache
from kenning.lifecycle.retrieve import STOPWORDS


@dataclass(frozen=True, slots=True)
class Slot:
    """``key`` identifies what is being said ("residence", "allergy:peanut", "pref:meeting")."""

    key: str
    value: str | None
    negated: bool = False
    old: str | None = None

    @property
    def attribute(self) -> str:
        return self.key.split(":", 1)[0]


_SUBJ = r"(?:^|(?<=[\s,;(]))"
_NEG_TAIL = re.compile(r"(?i)\b(?:any\s?more|no\s+more|any\s+longer|these\s+days)\b")
_ADV = r"(?:(?:now|currently|still|also|actually|just|recently|finally|officially|happily|proudly|mostly|strictly|fully|basically|really|alone|together|permanently|full-time|part-time)\s+)*"
_PROPER = r"(?P<v>[A-Z][\w'&.-]*(?:\s+(?:[A-Z][\w'&.-]*|(?:of|the|de|la|le|upon|on|am|del|von|van)\b(?=\s+[A-Z])))*)"
_PROPER_OLD = _PROPER.replace("?P<v>", "?P<old>")
# a workplace named by a common noun ("a bakery", "the local hospital"), not a time or a manner
# ("at the weekend", "for a living"); the value stops before a place or time phrase
_NOT_WORKPLACE = (
    r"weekends?|moment|end|same|start|beginning|time|times|while|bit|few|couple|living|change|year|years|month|months|"
    r"week|weeks|day|days|summer|winter|spring|autumn|minute|first|last|most|least|long|lot|pace|rate|distance|desk|"
    r"computer|laptop|night|nights|morning|mornings|evening|evenings|home|cause|reason|price|discount|fee|salary|wage"
)
_VALUE_STOP = r"in|at|on|near|for|with|and|but|as|from|by|since|until|now|these|mostly|part|full|every|during|downtown|nearby|so|because|which|who|where|then|again|any"
_MEMBERSHIPS = r"group|team|club|band|choir|league|class|course|society|crew|orchestra|squad|gym|circle|troupe|ensemble|collective|committee"
_COMMON = (
    r"(?P<v>(?:a|an|the)\s+(?!(?:" + _NOT_WORKPLACE + r")\b)[a-z][\w'-]*(?:\s+(?!(?:" + _VALUE_STOP + r")\b)[a-z][\w'-]*){0,2})"
)

DIETS = (
    r"vegetarian|vegan|pescatarian|pescetarian|flexitarian|carnivore|omnivore|keto(?:genic)?|paleo|"
    r"gluten[- ]free|dairy[- ]free|lactose[- ]intolerant|halal|kosher|coeliac|celiac|"
    r"plant[- ]based|raw\s+vegan|fruitarian|veggie"
)
_DIET_IDENTITY = {"vegetarian", "vegan", "pescatarian", "pescetarian", "flexitarian", "carnivore", "omnivore",
                  "keto", "ketogenic", "paleo", "plant-based", "plant based", "raw vegan", "fruitarian"}
OCCUPATIONS = (
    r"teacher|nurse|doctor|driver|engineer|developer|programmer|lawyer|solicitor|barrister|accountant|consultant|"
    r"designer|manager|student|pilot|scientist|researcher|writer|author|artist|musician|journalist|pharmacist|dentist|"
    r"surgeon|vet|veterinarian|firefighter|officer|librarian|analyst|architect|plumber|electrician|carpenter|cleaner|"
    r"waiter|waitress|barista|cashier|farmer|chef|cook|baker|butcher|mechanic|paramedic|midwife|therapist|"
    r"psychologist|professor|lecturer|tutor|translator|interpreter|photographer|editor|receptionist|secretary|"
    r"administrator|clerk|banker|trader|salesperson|salesman|saleswoman|entrepreneur|founder|freelancer|contractor|"
    r"builder|gardener|courier|postman|postwoman|carer|caregiver|social\s+worker|civil\s+servant|soldier|"
    r"police\s+officer|detective|judge|actor|actress|dancer|singer|coach|trainer|instructor|technician|"
    r"data\s+scientist|product\s+manager|software\s+engineer|web\s+developer|student\s+nurse|intern|apprentice|"
    r"retiree|pensioner|homemaker|housewife|househusband|stay-at-home\s+\w+"
)
# A job named by its shape, not a list: "a cartographer", "an oceanographer", "a sommelier", "a sous-chef".
# Words of that shape that name a habit, a diet, a liking or a life stage are not jobs.
_NOT_JOBS = (
    r"fan|lover|person|drinker|smoker|vaper|eater|user|member|owner|customer|beginner|believer|supporter|follower|"
    r"runner|jogger|swimmer|cyclist|climber|walker|hiker|reader|gamer|player|sleeper|riser|skier|surfer|golfer|knitter|"
    r"vegetarian|pescatarian|flexitarian|fruitarian|parent|patient|resident|regular|introvert|extrovert|optimist|"
    r"pessimist|perfectionist|minimalist|realist|adult|giant|immigrant|migrant|tenant|descendant|pedestrian|amateur|"
    r"newcomer|commuter|traveller|traveler|foodie|morning|night|other|number|order|answer|letter|winner|loser|partner|"
    r"mother|father|brother|sister|daughter|grandmother|grandfather|daughter-in-law|son-in-law|pensioner|retiree|"
    r"homeowner|renter|voter|donor|volunteer|christian|humanitarian|libertarian|vegan|animal|man|woman|gentleman|"
    r"human|citizen|native|local|twin|sibling|cousin|neighbour|neighbor|friend|visitor|guest|passenger|tourist|"
    r"listener|viewer|watcher|speaker|learner|worrier|dreamer|thinker|talker|planner|achiever|overthinker"
)
_JOB_SHAPE = (
    r"(?!(?:" + _NOT_JOBS + r")\b)[a-z][\w-]*?(?:er|or|ist|ian|ier|eur|ant|ent|ographer|ologist|wright|smith|"
    r"chef|nurse|medic|man|woman)"
)
# adjectives that make "a keen runner" / "a big fan" a description, not a job title
_NOT_JOB_ADJ = r"(?!(?:keen|big|huge|avid|heavy|light|good|bad|great|terrible|early|late|social|fussy|picky|slow|fast|proud|real|total|lifelong|regular|casual|occasional|fair-weather|first-time|new|old|young)\b)"
JOB = r"(?:(?:[\w]+-)?(?:" + OCCUPATIONS + r")|" + _JOB_SHAPE + r")"

# units of an employer one moves between: "a new team", "the platform team", "the finance department"
_WORK_UNIT = r"team|department|dept|division|squad|unit|desk|practice\s+area|business\s+unit|project"
# a name that says it is a company: "Acme Labs", "Initech Ltd", "DeepMind", "IBM"
_COMPANY_NAMED = (
    r"[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*\s+(?:Inc|Ltd|LLC|plc|PLC|Corp|Corporation|Co|Labs?|Group|Technologies|Tech|"
    r"Systems|Bank|Capital|Partners|Solutions|Software|Media|Studios?|Games|Analytics|Consulting|Industries|Holdings|"
    r"Insurance|Pharma|Health|Robotics|Dynamics|Ventures|Logistics|Airlines?|Motors|Energy|Foods)\b\.?"
    r"|(?!(?:UK|US|USA|UAE|NYC|LA|DC|EU|NZ)\b)[A-Z]{2,6}\b(?!\s+[A-Z])"
    r"|[A-Z][a-z]+[A-Z][\w]*\b"
)
# after "moved over to": one capitalised word that is not a place name by its shape or a well-known country
_PLACE_SHAPED = (
    r"[A-Z]\w*(?:land|ia|stan|shire|ton|ford|ham|burgh|borough|by|pool|chester|mouth|don|field|ville|ey|ay|ia|ol|mark|way|ce)"
    r"|Spain|France|Italy|Germany|Portugal|Canada|America|Japan|China|Brazil|Mexico|Peru|Chile|Israel|Iran|Iraq|Egypt|"
    r"Kenya|Nepal|Oman|Qatar|Cuba|Paris|Berlin|Madrid|Rome|Lisbon|Dublin|Leeds|York|Bath|Oslo|Tokyo|Sydney|Perth|Cork|"
    r"Bristol|Cardiff|Belfast|Glasgow|Munich|Vienna|Prague|Boston|Austin|Denver|Seattle|Chicago|Toronto|Berkeley|Delhi|Mumbai|"
    r"Lagos|Accra|Cairo|Dubai|Seoul|Hanoi|Bangkok|Manila|Lima|Quito|Bogota|Havana|Athens|Malta|Wales|Devon|Kent|Essex|Cornwall"
)
_COMPANY_LIKE = r"(?!(?:" + _PLACE_SHAPED + r")\b)[A-Z][\w&-]+(?![\w-]|\s+[A-Z]|\s+(?:in|near|to|with|for)\b)"

# what "my job is …" says that is not a job: "my job is stressful", "my job is remote"
_NOT_A_JOB_STATE = (
    r"stressful|boring|exhausting|demanding|tiring|fun|great|ok|okay|fine|hard|easy|busy|hectic|intense|rewarding|"
    r"remote|hybrid|secure|safe|done|over|gone|killing|draining|full-time|part-time|temporary|permanent|the|my|a|an|not|so|very|really|pretty|quite"
)
_MEATS = r"meat|chicken|fish|beef|pork|lamb|bacon|seafood|steak|ham|turkey|sausages?"
SINGLE_RELATIONS = {"wife", "husband", "partner", "spouse", "girlfriend", "boyfriend", "fiance", "fiancé", "fiancée",
                    "boss", "manager", "doctor", "gp", "dentist", "landlord", "assistant"}
RELATIONS = (
    r"wife|husband|missus|hubby|partner|spouse|girlfriend|boyfriend|gf|bf|fianc[eé]e?|son|daughter|child|kid|baby|brother|sister|"
    r"sibling|twin|mother|mum|mom|father|dad|parent|grandmother|grandma|grandfather|grandpa|granddaughter|grandson|"
    r"mama|mam|mammy|mummy|mommy|papa|daddy|nan|nana|nanna|gran|granny|grandad|granddad|"
    r"aunt|uncle|cousin|niece|nephew|friend|best\s+friend|colleague|boss|manager|flatmate|roommate|neighbou?r|"
    r"doctor|gp|dentist|landlord|assistant|dog|cat|puppy|kitten|pet|tortoise|turtle|rabbit|hamster|parrot|horse|fish"
)

# "plays the game / the lottery" is not an instrument
_NOT_INSTRUMENTS = (
    r"(?:offer|challenge|invitation|position|post|case|matter|issue|cause|team|band|project|company|course|"
    r"game|games|lottery|odds|field|fool|market|system|role|part|card|cards|victim|music|radio|record|video|"
    r"same|whole|other|next|first|last|best|idea|job|house|flat|car|kids|children|dog|news|rules|ball|host)\b"
)

# a named relative or pet who died: "Biscuit passed away", "User's old cat Mittens was put to sleep"
DEATH = (
    r"^(?:(?:User's|The\s+user's|Their|Our|My)\s+(?:(?:old|late|beloved|dear|lovely|little|big|pet)\s+)*(?:[\w-]+\s+)?(?:" + RELATIONS + r")\s+)?"
    r"(?P<v>[A-Z][\w-]*)\s+(?:has\s+|sadly\s+|just\s+|finally\s+|recently\s+)*(?:passed\s+away|passed\s+on|died|was\s+put\s+(?:down|to\s+sleep))\b"
)
# what a person is to others, one at a time: "is single", "got engaged"
STATUSES = "single|married|engaged|divorced|separated|widowed"
_R = [  # (pattern, builder) tried in order; the first that matches wins
    # residence
    (r"\b(?:moved|relocated|moving|relocating|emigrated)\s+(?:house\s+|back\s+|away\s+)?from\s+" + _PROPER_OLD + r"\s+to\s+" + _PROPER, "residence:change"),
    # "moved over to Globex", "moved to the platform team": a job change, not a home move
    (r"\b(?:moved|transferred|switched|has\s+moved|have\s+moved)\s+(?:over\s+|across\s+)?(?:to|into)\s+(?:a\s+|an\s+|the\s+|another\s+)?(?P<v>(?:[\w-]+\s+){0,2}?(?:" + _WORK_UNIT + r"))\b", "workteam:+"),
    (r"\b(?:moved|switched|has\s+moved|have\s+moved)\s+over\s+to\s+(?P<v>" + _COMPANY_LIKE + r")", "employer:+"),
    (r"\b(?:moved|switched|has\s+moved|have\s+moved)\s+(?:over\s+)?to\s+(?P<v>" + _COMPANY_NAMED + r")", "employer:+"),
    (r"\b(?:moved|relocated|emigrated|has\s+moved|have\s+moved)\s+(?:house\s+|back\s+|over\s+|out\s+)?(?:to|into)\s+(?!(?:" + _COMPANY_NAMED + r"))" + _PROPER, "residence:+"),
    (r"\b(?:no\s+longer|doesn't|does\s+not|don't|do\s+not)\s+lives?\s+in\s+" + _PROPER, "residence:-"),
    (r"\bmoved\s+(?:out\s+of|away\s+from)\s+" + _PROPER, "residence:-"),
    (r"\b(?:lives?|living|resides?|(?:is|are)\s+" + _ADV + r"based|has\s+lived|is\s+living|are\s+living|settled)\s+" + _ADV + r"(?:in|at)\s+(?:the\s+)?" + _PROPER, "residence:+"),
    (r"\b(?:relocated|emigrated|upped\s+sticks|packed\s+up\s+and\s+(?:moved|headed|went|left))\s+(?:[a-z]+\s+){0,2}?(?:to|into|for)\s+" + _PROPER, "residence:+"),
    (r"\b(?:is|are)\s+" + _ADV + r"based\s+out\s+of\s+" + _PROPER, "residence:+"),
    (r"\bcalls\s+" + _PROPER + r"\s+home\b", "residence:+"),
    (r"\b(?:new\s+)?(?:place|flat|house|home|apartment)\s+is\s+(?:now\s+)?in\s+" + _PROPER, "residence:+"),
    (r"\bgot\s+the\s+keys\s+(?:to|for)\s+(?:a|an|their|our)\s+(?:new\s+)?(?:house|flat|home|place|apartment)\s+in\s+" + _PROPER, "residence:+"),
    (r"\bis\s+(?:now\s+|back\s+|currently\s+)*(?:living\s+)?in\s+" + _PROPER + r"(?=\s+(?:now|these\s+days|nowadays|for\s+good|permanently)\b)", "residence:+"),
    (r"\bhome\s+(?:town\s+)?is\s+(?:now\s+)?(?:in\s+)?" + _PROPER, "residence:+"),
    (r"\b(?:works?|working)\s+" + _ADV + r"(?:remotely\s+from|from\s+home\s+in)\s+" + _PROPER, "residence:+"),
    (r"\b(?:bought|rented|renting|rents|found|got)\s+(?:a|an|their|our)\s+(?:new\s+)?(?:house|flat|home|place|apartment|condo|cottage|"
     r"(?:one|two|three|four|\d)[- ]?bed(?:room)?(?:\s+(?:house|flat|place))?)\s+in\s+(?:the\s+)?" + _PROPER, "residence:+"),
    (r"\bsigned\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(?:lease|tenancy|rental\s+agreement)\s+(?:on|for)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,5}?in\s+(?:the\s+)?" + _PROPER, "residence:+"),
    # payday: "gets paid on the 28th", "salary lands on the 28th", "payday is the 28th" are one fact keyed by the day
    (r"(?i)\b(?:gets?\s+paid|(?:is|are)\s+paid|(?:salary|wages?|pay|paycheck|paycheque|pay\s+packet)\s+(?:lands?|comes?\s+in|arrives?|goes\s+in|hits|drops|clears|is\s+paid)|"
     r"pay\s*day\s+(?:is|falls|comes))\s+(?:on\s+|every\s+|each\s+)?(?:the\s+)?(?P<v>\d{1,2}(?:st|nd|rd|th))\b", "payday:+"),
    # car
    (r"\b(?:sold|got\s+rid\s+of|traded\s+in|scrapped)\s+(?:the|their|a|an)\s+(?:old\s+)?" + _PROPER_OLD + r"\s*(?:,|and)\s*(?:then\s+)?(?:bought|got|leased)\s+(?:a|an)\s+(?:new\s+)?" + _PROPER, "car:change"),
    (r"\b(?:drives|drive|driving)\s+(?:a|an|the)\s+(?:new\s+|red\s+|blue\s+|black\s+|white\s+|grey\s+|silver\s+)?" + _PROPER, "car:+"),
    (r"\b(?:sold|got\s+rid\s+of|scrapped)\s+(?:the|their)\s+(?:old\s+)?(?:car|" + _PROPER.replace("?P<v>", "?:") + r")", "car:-"),
    # alcohol
    (r"\b(?:doesn't|does\s+not|don't|do\s+not|no\s+longer|never)\s+drinks?\b(?!\s+(?:coffee|tea|milk|water|soda|juice))|\b(?:is|has\s+been|'s|stays?)\s+"
     r"(?:(?:now|completely|totally|fully)\s+)?(?:sober|teetotal|tee-total|alcohol-free)\b|\b(?:quit|stopped|gave\s+up)\s+(?:drinking|alcohol|booze)\b", "alcohol:-"),
    (r"\b(?:drinks\s+(?:alcohol|wine|beer|spirits|whisky|gin|cocktails|socially|heavily|again)|started\s+drinking|drinking\s+(?:alcohol\s+)?again|"
     r"enjoys?\s+(?:a\s+)?(?:glass\s+of\s+)?(?:wine|beer|whisky|cocktails?))\b", "alcohol:+"),
    # sports team
    (r"\b(?:switched|changed|moved)\s+(?:their\s+)?(?:allegiance|support|loyalty)\s+(?:from\s+" + _PROPER_OLD + r"\s+)?to\s+" + _PROPER, "team:+"),
    (r"\b(?:supports|is\s+a\s+(?:lifelong\s+|big\s+)?supporter\s+of)\s+" + _PROPER, "team:+"),
    # smoking
    (r"\b(?:quit|stopped|gave\s+up|has\s+given\s+up|doesn't|does\s+not|no\s+longer|never)\s+(?:smok(?:ing|e|es)|(?:the\s+)?(?:cigarettes|cigs|fags|cigars|tobacco|vaping|vapes?))\b|\bnon-?smoker\b|\bis\s+not\s+a\s+smoker\b", "smoking:-"),
    (r"\bis\s+a\s+(?:heavy\s+|light\s+|social\s+|regular\s+)?(?:smoker|vaper)\b|\b(?:smokes|vapes)\b", "smoking:+"),

    # time off work: "is on maternity leave" until "back at work", "first week back at the office"
    (r"\b(?:is|'s|are)\s+(?:now\s+|currently\s+|still\s+)?on\s+(?:maternity|paternity|parental|sick|medical|study|compassionate|long-term\s+sick)\s+leave\b", "leave:+"),
    (r"\b(?:back\s+(?:at|to|in)\s+(?:work|the\s+office|the\s+job|the\s+ward|the\s+school)|returned\s+to\s+work|went\s+back\s+to\s+work|"
     r"first\s+(?:full\s+)?(?:day|week|shift)\s+back)\b", "leave:-"),

    # relationship endings
    (r"\b(?:splits?\s+up|broke\s+up|breaks?\s+up|separated|divorced|are\s+no\s+longer\s+together)\b", "rel:partner-"),
    (r"\b(?:splits?\s+up|broke\s+up|breaks?\s+up)\b", "relstatus:single"),
    # relationship status
    (r"\b(?:is|got|became|'s|are)\s+(?:now\s+|recently\s+|just\s+|happily\s+)?(?P<v>" + STATUSES + r")\b", "relstatus:+"),
    # employer
    (r"\b(?:left|quit|resigned\s+from|was\s+(?:fired|laid\s+off|let\s+go)\s+from|moved\s+on\s+from)\s+" + _PROPER_OLD
     + r"\s*(?:,|;|and|to\s+join|for)\s*(?:is\s+|and\s+)?(?:now|currently)?\s*(?:works?\s+|working\s+|employed\s+|joined\s+|is\s+)?(?:at|for|with|join)?\s*" + _PROPER, "employer:change"),
    (r"\b(?:switched|moved|changed\s+jobs?)\s+from\s+" + _PROPER_OLD + r"\s+to\s+" + _PROPER, "employer:change"),
    (r"\b(?:left|quit|resigned\s+from|was\s+(?:fired|laid\s+off|let\s+go)\s+from|no\s+longer\s+works?\s+(?:at|for)|doesn't\s+work\s+(?:at|for)|does\s+not\s+work\s+(?:at|for)|retired\s+from|stopped\s+working\s+(?:at|for))\s+" + _PROPER, "employer:-"),
    (r"\b(?:handed\s+in\s+(?:their|the\s+user's|a|the)\s+notice|resigned|quit\s+(?:their|the\s+user's|the)\s+job|lost\s+(?:their|the\s+user's|the)\s+job|"
     r"was\s+(?:made\s+redundant|fired|laid\s+off|let\s+go)|got\s+(?:fired|laid\s+off|sacked)|is\s+(?:now\s+)?unemployed|is\s+between\s+jobs)\b", "employer:-"),
    (r"\b(?:works?|working|is\s+employed|are\s+employed|employed)\s+" + _ADV + r"(?:at|for|by|with)\s+(?:the\s+)?" + _PROPER, "employer:+"),
    (r"\b(?:works?|working)\s+" + _ADV + r"as\s+(?:(?:a|an)\s+)?(?:[\w-]+\s+){1,3}?(?:at|for|with)\s+" + _PROPER, "employer:+"),
    (r"\b(?:joined|started\s+(?:a\s+new\s+job\s+|working\s+|work\s+)?(?:at|with|for)|got\s+a\s+(?:new\s+)?job\s+(?:at|with)|was\s+hired\s+by|now\s+at)\s+" + _PROPER, "employer:+"),
    (r"\bjob\s+is\s+(?:now\s+)?(?:at|with)\s+" + _PROPER, "employer:+"),
    (r"\b(?:taken|took|accepted|started|starts|starting|begun|began)\s+(?:a|an|the|their|the\s+user's)\s+(?:new\s+)?(?:position|role|job|post|offer|contract)\s+(?:at|with|from)\s+" + _PROPER, "employer:+"),
    (r"\bemployer\s+is\s+(?:now\s+)?" + _PROPER, "employer:+"),
    (r"^" + _PROPER + r"\s+(?:has\s+)?(?:hired|employs|took\s+on)\s+(?:the\s+user|User|them)\b", "employer:+"),
    (r"\bis\s+(?:a|an)\s+(?:[\w-]+\s+){1,3}(?:at|for)\s+" + _PROPER, "employer:+"),
    (r"\b(?:works?|working|is\s+employed|employed)\s+" + _ADV + r"(?:as\s+(?:a|an)\s+(?:[\w-]+\s+){1,3}?)?(?:at|for)\s+" + _COMMON, "employer:+"),
    (r"\b(?:no\s+longer\s+works?|doesn't\s+work|does\s+not\s+work|stopped\s+working|left|quit)\s+(?:at|for\s+)?" + _COMMON, "employer:-"),
    (r"\b(?:is|'s)\s+" + _ADV + r"(?:a|an)\s+(?:[\w-]+\s+){0,2}(?:" + OCCUPATIONS + r")\s+(?:at|for|in)\s+" + _COMMON, "employer:+"),
    (r"\b(?:is|'s)\s+" + _ADV + r"(?:a|an)\s+" + _NOT_JOB_ADJ + r"(?:[\w-]+\s+){0,2}?" + JOB + r"\s+(?:at|for)\s+(?:the\s+)?(?:" + _PROPER + r"|" + _COMMON.replace("?P<v>", "?P<c>") + r")", "employer:+"),
    (r"\b(?:started\s+(?:a\s+new\s+job\s+|working\s+|work\s+)?(?:at|with|for)|got\s+a\s+(?:new\s+)?job\s+(?:at|with|in)|was\s+hired\s+by|job\s+is\s+(?:now\s+)?(?:at|with|in))\s+" + _COMMON, "employer:+"),
    # "joined a roller derby team", "joined a ukulele group": a membership, not a job
    (r"\bjoined\s+(?!(?:a|an|the)\s+(?:[\w'-]+\s+){0,2}?(?:" + _MEMBERSHIPS + r")\b)" + _COMMON, "employer:+"),
    (r"\b(?:is\s+not|isn't|is\s+no\s+longer)\s+(?:at|with)\s+" + _PROPER + r"(?=\s+(?:any\s?more|any\s+longer|now)\b|\s*[.,;]|$)", "employer:-"),
    (r"\bis\s+(?:now\s+)?with\s+" + _PROPER + r"(?=\s+(?:now|these\s+days|nowadays)\b)", "employer:+"),
    # occupation
    (r"\b(?:quit|left|stopped|gave\s+up|no\s+longer|retired\s+from|is\s+not|isn't)\s+(?:being\s+(?:a|an)\s+|working\s+as\s+(?:a|an)\s+|works?\s+as\s+(?:a|an)\s+|(?:a|an)\s+)?(?P<v>(?:[\w-]+\s+){0,2}(?:" + OCCUPATIONS + r")|(?!(?:being|eating|drinking|smoking|vaping|taking|using)\b)\w+ing\s+(?!at\b|for\b|with\b|the\b|a\b|an\b|my\b)\w+)\b", "occupation:-"),
    # "works as a tax adviser", "working as senior tally clerk" (the article left out, as many speakers do)
    (r"\b(?:works?|working)\s+" + _ADV + r"as\s+(?:(?:a|an)\s+)?(?P<v>(?:[\w-]+\s+){0,3}?[\w-]+?)(?=\s+(?:at|for|in|with|on|from)\b|[,.;]|$)", "occupation:+"),
    (r"\b(?:is|'s|became|has\s+become|is\s+now|trained\s+as|qualified\s+as|is\s+training\s+to\s+be|got\s+a\s+job\s+as)\s+" + _ADV + r"(?:a|an)\s+(?P<v>(?:[\w-]+\s+){0,3}(?:" + OCCUPATIONS + r"))\b", "occupation:+"),
    (r"\b(?<!\ba\s)(?<!\ban\s)(?<!\bthe\s)(?<!\btheir\s)(?<!\bmy\s)(?:has\s+|have\s+|just\s+|finally\s+)*retired\b(?!\s+(?:from|as)\b)|\bon\s+(?:retirement|pension)\b", "occupation:-"),  # not "a retired greyhound"
    (r"\bis\s+now\s+(?:a|an)\s+(?P<v>[\w-]+(?:er|or|ist|ian|ant|ent))\b", "occupation:+"),
    (r"\b(?:is|'s|became|has\s+become|trained\s+as|qualified\s+as)\s+" + _ADV + r"(?:a|an)\s+" + _NOT_JOB_ADJ
     + r"(?P<v>(?:[a-z][\w-]*\s+){0,2}?" + JOB + r")(?=\s+(?:at|for|in|now|these\s+days|by\s+trade)\b|\s*[,.;!]|\s*$)", "occupation:+"),
    (r"\b(?:job|occupation|profession)\s+is\s+(?:now\s+)?(?:(?:a|an)\s+)?(?!(?:at|with|in|for|" + _NOT_A_JOB_STATE + r")\b)"
     r"(?P<v>[a-z][\w-]*(?:\s+(?!(?:at|for|in|with|now|and|but|so)\b)[a-z][\w-]*){0,2})(?=\s+(?:at|for|in|with|now)\b|\s*[,.;!]|\s*$)", "occupation:+"),
    # diet
    (r"\b(?:is\s+not|isn't|is\s+no\s+longer|are\s+not|no\s+longer|not|[Nn]o\s+more)\s+(?:(?:following|on|doing|keeping)\s+)?(?:a\s+|an\s+|the\s+)?" + _ADV + r"(?P<v>" + DIETS + r")", "diet:-"),
    (r"\b(?:stopped|quit|gave\s+up(?:\s+on)?|gives\s+up|ended|ditched|dropped|abandoned|is\s+done\s+with|is\s+off|came\s+off|went\s+off)\s+(?:being\s+|eating\s+)?(?:a\s+|an\s+|the\s+)?(?P<v>" + DIETS + r")", "diet:-"),
    (r"\b(?:doesn't|does\s+not|don't|do\s+not|no\s+longer|never|stopped|has\s+stopped|gave\s+up|[Nn]o\s+more)\s+(?:eat(?:s|ing)?\s+)?(?:any\s+)?(?:meat|animal\s+products)\b(?!\s+(?:again|now))", "diet:veg"),
    (r"\b(?P<how>doesn't|does\s+not|don't|do\s+not|no\s+longer|stopped|has\s+stopped|quit|gave\s+up|has\s+given\s+up|cut\s+out|is\s+off)\s+(?:eat(?:s|ing)?\s+)?(?:any\s+)?(?P<v>" + lexicon.FOODS + r")\b", "diet:food-"),
    (r"\bback\s+(?:to\s+)?eating\s+(?:" + _MEATS + r")", "diet:omni"),
    (r"\b(?:eats?|eating|having)\s+(?:cheese|dairy|eggs|honey|butter|yoghurt|yogurt)(?:\s+(?:and|or)\s+\w+)?\s+(?:again|now|these\s+days)", "diet:notvegan"),
    (r"\b(?:eats?|eating)\s+(?:" + _MEATS + r")(?:\s*(?:,|and|&)\s*(?:" + _MEATS + r"))*\s+(?:again|now|these\s+days)", "diet:omni"),
    (r"\b(?:started|began|is)\s+eating\s+(?:" + _MEATS + r")", "diet:omni"),
    (r"\bis\s+(?:a\s+)?meat[- ]eater\b|\beats\s+(?:everything|anything)\b|\b(?:eats|eating)\s+(?:everything|anything)\s+(?:again|now)\b", "diet:omni"),
    # the user's own "eats a LOT of meat", "eats meat every day" (not "the kids eat meat"): what going vegetarian replaces
    (r"^(?:User|The\s+user)\s+(?:also\s+|still\s+|really\s+)?eats\s+(?i:(?:a\s+lot|lots|loads|plenty|tons)\s+of\s+|so\s+much\s+)?(?i:(?:red\s+)?meat)\b", "diet:omni"),
    (r"\b(?:is|are|became|becomes|went|goes|turned|has\s+become|has\s+gone|has\s+been|have\s+been|'s|eats|eat|keeps|follows\s+a)\s+" + _ADV + r"(?:a\s+|an\s+|fully\s+|strictly\s+)?(?:(?:keen|strict|committed|lifelong|proud|full|total|complete|practising|practicing|new|recent|devoted)\s+)?(?P<v>" + DIETS + r")", "diet:+"),
    # allergies
    (r"\b(?:is\s+not|isn't|is\s+no\s+longer|not|no\s+longer)\s+" + _ADV + r"allergic\s+to\s+(?P<v>[\w-]+(?:\s+(?!after|all|since|any|now|too|either|as|and|but|so|at|any\s?more)[\w-]+)?)", "allergy:-"),
    (r"\b(?P<v>[\w-]+)\s+allergy\s+(?:is|has)\s+(?:now\s+)?(?:gone|cleared(?:\s+up)?|disappeared|resolved)\b", "allergy:-"),
    (r"\bcan\s+(?:now\s+)?(?:eat|have|drink|tolerate)\s+(?P<v>[\w-]+)\s+(?:again|now)\b", "allergy:-"),
    (r"\b(?:outgrew|grew\s+out\s+of|has\s+outgrown)\s+(?:(?:the|a|an|their)\s+)?(?P<v>[\w-]+)\s+allergy", "allergy:-"),
    (r"\b(?:doesn't|does\s+not|don't|do\s+not)\s+(?:actually\s+)?have\s+(?:a|an)\s+(?P<v>[\w-]+)\s+allergy", "allergy:-"),
    (r"\ballergic\s+to\s+(?P<v>[\w-]+(?:\s+(?!after|all|since|any|now|too|either|as|and|but|so|at|any\s?more)[\w-]+)?)", "allergy:+"),
    (r"\b(?:has|have)\s+(?:a|an)\s+(?:severe\s+|mild\s+|serious\s+)?(?P<v>[\w-]+)\s+allergy", "allergy:+"),
    # relationships
    # a death: "Biscuit passed away", "User's dog Biscuit died" keeps the record under the name, so it
    # retracts "has a dog called Biscuit" whatever relation the earlier claim named
    (DEATH, "rel:died"),
    (r"(?:User's|their|the\s+user's|[A-Z][a-z]+'s)\s+(?:[\w-]+\s+)?(?P<rel>" + RELATIONS + r")(?:'s\s+name)?\s+(?:is\s+)?(?:now\s+)?(?:called|named|is)\s+(?P<v>[A-Z][\w-]*)", "rel"),
    (r"\b(?:has|have|had|got|adopted)\s+(?:a|an)\s+(?:[\w-]+\s+){0,2}(?P<rel>" + RELATIONS + r")\s+(?:called|named)\s+(?P<v>[A-Z][\w-]*)", "rel"),
    (r"\b(?:married\s+to|married|dating|engaged\s+to)\s+(?P<v>[A-Z][\w-]*)", "rel:partner"),
    # contact details and identity
    (r"\b(?:phone|mobile|cell|telephone)(?:\s+number)?\s+is\s+(?:now\s+)?(?P<v>\+?[\d][\d ()-]{5,}\d)", "phone"),
    (lexicon.PHONE + r"(?=[^.;:]{0,30}\b(?:phone|mobile|landline|cell)\b)", "phone"),
    (r"(?i)\b(?:use|try|dial)\s+" + lexicon.PHONE, "phone"),
    (r"(?i)\b(?:reach(?:ed|able)?|call(?:ed)?|text(?:ed)?|ring|phone|mobile|cell|whatsapp|landline|contact|(?:my|their|user's|new|old|mobile|phone|contact|home|work|cell)\s+number)\b[^.;:]{0,40}?" + lexicon.PHONE, "phone"),
    (r"(?i)\b(?:e-?mail|mail|line|inbox|reach(?:ed|able)?|contact(?:ed)?|write|message|address)\b[^.;:]{0,40}?\b(?P<v>[\w.+-]+@[\w-]+\.[\w.]*\w)", "email"),
    (r"\be-?mail(?:\s+address)?\s+is\s+(?:now\s+)?(?P<v>[\w.+-]+@[\w-]+\.[\w.]+)", "email"),
    (r"\b(?:home\s+)?address\s+is\s+(?:now\s+)?(?P<v>.+)", "address"),
    (r"\bbirthday\s+(?:is|'s|falls)\s+(?:on\s+)?(?P<v>.+)", "birthday"),
    (r"\bborn\s+on\s+(?P<v>.+)", "birthday"),
    (r"\b(?:goes\s+by|prefers\s+to\s+be\s+called|wants\s+to\s+be\s+called)\s+(?P<v>[A-Z][\w-]*)", "name"),
    # instruments and hobbies: "plays the cello" <-> "doesn't play the cello any more"; "took up pottery" <-> "gave up pottery"
    (r"\b(?:(?:quit|stopped|gave\s+up|has\s+given\s+up|has\s+stopped)\s+(?:play(?:s|ing)?\s+|learn(?:s|ing)?\s+)?|"
     r"(?:no\s+longer|doesn't|does\s+not|don't|do\s+not|never)\s+(?:play(?:s|ing)?\s+|learn(?:s|ing)?\s+))the\s+(?!" + _NOT_INSTRUMENTS + r")(?P<v>[a-z][\w-]+)\b", "habit:-"),
    (r"\b(?:quit|gave\s+up|has\s+given\s+up)\s+(?!(?:on|the|a|an|my|their|his|her|it|that|this|hope|work|" + lexicon.FOODS + r"|" + _MEATS + r")\b)"
     r"(?P<v>[a-z][\w-]+)(?=\s*(?:[.,;!]|$|\s+(?:any\s?more|last|this|in|a|years?|months?|ages|recently|now|for\s+good)\b))", "habit:-"),
    (r"\b(?:plays|play|playing|took\s+up|has\s+taken\s+up|started\s+(?:playing|learning)|is\s+learning|learns)\s+the\s+(?!" + _NOT_INSTRUMENTS + r")(?P<v>[a-z][\w-]+)\b", "habit:+"),
    (r"\b(?:took\s+up|has\s+taken\s+up|taken\s+up)\s+(?!(?:on|the|a|an|my|their|his|her|it|that|this|space|residence|smoking|drinking)\b)"
     r"(?P<v>[a-z][\w-]+)(?=\s*(?:[.,;!]|$|\s+(?:last|this|in|a|again|recently|now|as)\b))", "habit:+"),
    # habits and activities: "goes running" / "plays squash" <-> "stopped running" / "quit squash"
    (r"\b(?:quit|stopped|gave\s+up|has\s+given\s+up|has\s+stopped|no\s+longer|doesn't|does\s+not)\s+(?:go\s+|goes\s+|going\s+|play\s+|plays\s+|playing\s+|do\s+|does\s+|doing\s+)?(?!(?:being|eating|drinking|working|living|using|taking|getting)\b)(?P<v>[a-z]+ing|" + lexicon.SPORTS + r")\b", "habit:-"),
    (r"\b(?:goes|go|went)\s+(?P<v>[a-z]+ing)\b(?=\s+(?:every|each|on|at|most|three|twice|once|daily|weekly|regularly))|\b(?:plays|does|took\s+up|has\s+taken\s+up|started)\s+(?P<v2>" + lexicon.SPORTS + r"|[a-z]+ing)\b", "habit:+"),
]
_COMPILED = [(re.compile(p), tag) for p, tag in _R]

_PREF_CMP = re.compile(r"(?i)\bprefers?\s+(?P<v>[\w -]+?)\s+(?:to|over|rather\s+than|instead\s+of)\s+(?P<o>[\w -]+)")
_CATEGORY_VERB = re.compile(
    r"(?i)\b(?:switched|changed|gone\s+over|went\s+over|converted)\s+(?:from\s+[\w -]+?\s+)?(?:to\s+)?(?P<v>[\w-]+(?:\s+[\w-]+)?)"
    r"|\b(?:would\s+rather|prefers?\s+to|likes?\s+to)\s+(?P<verb>[\w-]+)"
)
_PREF = re.compile(r"(?i)\b(?:prefers?|would\s+rather\s+(?:have|sit\s+in|get|take|use|drink|eat|go\s+by|travel\s+by|be\s+contacted\s+(?:by|via|on))|likes?\s+(?:to\s+have|having)|wants?\s+(?:to\s+have\s+)?(?:a|an)?)\s+(?P<v>[\w -]+)")
_LIKE = re.compile(
    r"(?:^|\b(?:User|user|they|she|he)\s+|^[A-Z][\w-]*\s+)(?:(?:\w+ly|just|really|also|still|now|no\s+longer|(?:do|does)(?:n't|\s+not)|can't|cannot)\s+)*"
    r"(?P<verb>(?:dis)?likes?|loves?|enjoys?|adores?|hates?|detests?|stand|handle|tolerate|stomach|avoids?|(?:has\s+|have\s+)?(?:gone|went|is|are|'s)\s+off(?!\s+(?:to|for|out|home|now|in|on|at|with|sick|work)\b)|(?:is|isn't|is\s+not)\s+(?:a\s+(?:big\s+|huge\s+)?)?(?:fan\s+of|into))\s+(?P<v>[\w -]+)",
)
# choosing verbs that state a standing preference ("need" only with a category other than travel:
# "needs a taxi to the airport" is a one-off)
_PREF_CHOICE = re.compile(
    r"(?i)\b(?:always\s+|usually\s+|normally\s+|generally\s+|typically\s+|mostly\s+)?"
    r"(?P<verb>goes\s+for|go\s+for|going\s+for|picks?|chooses?|opts?\s+for|needs?|would\s+rather\s+have|'d\s+rather\s+have|"
    r"always\s+(?:has|have|gets?|orders?|books?|asks\s+for))\s+(?:a\s+|an\s+|the\s+|some\s+)?(?P<v>[\w -]+)"
)
_NEG_LIKE = re.compile(r"(?i)\b(?:dislike|hate|detest|stand|avoid|not|n't|no\s+longer)|\boff\b")
_ATTR = re.compile(
    r"(?:^|(?<=\s))(?:User's|their|the\s+user's|[A-Z][a-z]+'s)\s+(?:new\s+|current\s+|updated\s+)?(?P<a>[a-z][a-z -]{1,40}?)\s+(?:is|are|was)\s+(?:now\s+|actually\s+)?(?P<v>.+)"
)
_ATTR_INVERTED = re.compile(
    r"^(?P<v>[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*)*)\s+(?:is|are)\s+(?:now\s+)?(?:User's|their|the\s+user's)\s+(?:new\s+)?"
    r"(?P<a>(?:favou?rite|go-to|preferred|usual)\s+[a-z][a-z -]{1,30}?)(?:\s+(?:now|these\s+days|nowadays))?[.!]?$"
)
_ATTR_SYNONYMS = {"number": "phone", "contact number": "phone", "mobile": "phone", "mobile number": "phone", "cell": "phone",
                  "cell number": "phone", "phone number": "phone", "telephone number": "phone", "phone": "phone",
                  "email": "email", "email addres": "email", "e-mail": "email", "e-mail addres": "email", "addres": "address",
                  "home addres": "address", "postal addres": "address"}
_PREPS = re.compile(r"(?i)\s+(?:to|over|for|on|in|at|when|during|with|from|by|because|since|if|so|but|and|,).*$")


def _stem(word: str) -> str:
    w = word.lower()
    for suffix in ("ies", "es", "s"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix) and not w.endswith("ss"):
            return w[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return w


# Where a value ends and a second clause begins: "07700 900456, the old one is disconnected".
_CLAUSE_CUT = re.compile(
    r"(?i)\s*(?:;|\s[-–—]\s|,\s+(?=(?:the|a|an|and|but|so|which|who|it|it's|they|their|i|he|she|his|her|though|although|"
    r"because|as|if|when|while|don't|do|please|just|since|until|mostly|usually|plus)\b)).*$"
)


def _clean(value: str) -> str:
    value = _CLAUSE_CUT.sub("", value)
    value = re.sub(r"(?i),?\s+(?:not|rather\s+than|instead\s+of)\s+.*$", "", value.strip(" .,;:!?'\""))
    value = re.sub(r"\s*\((?:.*)\)?\s*$", "", value)
    value = re.sub(r"(?i)\s+(?:now|again|any\s?more|no\s+more|these\s+days|last\s+\w+|this\s+\w+|since\s+.*|as\s+of\s+.*|for\s+\w+\s+years?)$", "", value)
    return value.strip(" .,;:!?'\"").lower()


_FILLER = {"really", "very", "much", "always", "usually", "now", "again", "instead", "nowadays", "anymore", "please",
           "too", "most", "best", "generally", "days", "these", "definitely"}


def _content(text: str) -> list[str]:
    return [w for w in re.findall(r"[\w-]+", text.lower()) if w not in STOPWORDS and w not in _FILLER]


def _head(phrase: str) -> tuple[str, str]:
    """(topic, value) of a preference phrase.

    "morning meetings" -> (meeting, morning); "meetings in the morning" -> (meeting, morning);
    "Zoom for calls" -> (call, zoom); "to travel by train" -> (travel, train); "tea" -> (tea, tea).
    """
    m = _PREPS.search(phrase)
    core, rest = (phrase[: m.start()], phrase[m.start() :]) if m else (phrase, "")
    words, after = _content(core), _content(rest)
    if not words:
        return "", ""
    proper = all(w[:1].isupper() for w in re.findall(r"[\w-]+", core) if w.lower() not in STOPWORDS)
    if after and re.match(r"(?i)\s*for\b", rest) and (len(words) == 1 or proper):
        return _stem(after[0]), " ".join(words)  # "Google Meet for calls": the tool is the value, calls the topic
    if len(words) >= 2:
        return _stem(words[-1]), " ".join(words[:-1])
    if after and re.match(r"(?i)\s*(?:in|at|on|during|by|with)\b", rest):
        return _stem(words[0]), " ".join(after[:2])
    return _stem(words[0]), words[0]


_REL_SUBJECT = re.compile(
    r"^(?:User's|The\s+user's|Their|[A-Z][\w-]*'s)\s+(?:[\w-]+\s+){0,2}?(?P<rel>" + RELATIONS + r")\b(?:'s(?=\s+(?!name\b)))?(?:\s+[A-Z][\w-]*)?\s+(?!is\s+(?:now\s+)?(?:called|named)|'s\s+name|called|named)",
    re.I,
)


def parse(text: str) -> Slot | None:
    """The first attribute ``text`` asserts or retracts, or None if it states no recognised attribute.

    Claims about someone else ("User's sister lives in Seville") get a key
    prefixed with the relation ("sister.residence"), so they never replace
    the user's own attributes.
    """
    found = parse_all(text)
    return found[0] if found else None


# "-ing" words after "stopped"/"goes" that are not activities a person takes up or gives up
_NOT_HABITS = {"be", "work", "liv", "eat", "drink", "smok", "us", "tak", "get", "hav", "do", "go", "feel", "someth", "noth", "anyth",
               "everyth", "th", "br", "morn", "even", "wedd", "meet", "build", "ceil", "pudd", "sett", "pay", "mak", "tell"}


def _match(t: str, m: re.Match[str], tag: str, negated_tail: bool) -> Slot | None:
    attr, _, mode = tag.partition(":")
    if attr == "rel" and mode == "partner-":
        return Slot("rel:partner", None, True)
    if tag == "rel:died":
        return Slot(f"rel:died:{m.group('v').lower()}", m.group("v").lower(), True) if m.group("v").lower() not in ("user", "i") else None
    if attr == "relstatus" and mode == "single":
        return Slot("relstatus", "single", False)
    if attr == "habit":
        what = lexicon.activity(m.group("v") or m.group("v2"))
        return Slot(f"habit:{what}", what, mode == "-") if what not in _NOT_HABITS else None
    if attr in ("smoking", "alcohol", "leave"):
        return Slot(attr, None, mode == "-")
    if attr == "rel":
        rel = mode or m.group("rel").lower().replace("  ", " ")
        rel = {"mum": "mother", "mom": "mother", "dad": "father", "fiance": "partner", "fiancé": "partner",
               "fiancée": "partner", "spouse": "partner", "girlfriend": "partner", "boyfriend": "partner", "gf": "partner", "bf": "partner",
               "wife": "partner", "husband": "partner"}.get(rel, rel)
        name = m.group("v")
        neg = bool(re.search(r"(?i)\b(?:not|no\s+longer|ex-?)\b", t[: m.start("v")]))
        if rel in SINGLE_RELATIONS or rel == "partner":
            return Slot(f"rel:{rel}", name.lower(), neg)
        return Slot(f"rel:{rel}:{name.lower()}", name.lower(), neg)
    value = _clean(m.group("v")) if "v" in m.groupdict() and m.group("v") else None
    if value is None and m.groupdict().get("c"):
        value = _clean(m.group("c"))  # a workplace named by a common noun: "a porter at the royal infirmary"
    old = _clean(m.group("old")) if "old" in m.groupdict() and m.group("old") else None
    if attr == "phone":
        number = lexicon.phone_value(m.group("v"))
        return Slot("phone", number, False) if number else None
    if attr == "birthday":
        return Slot("birthday", lexicon.date_value(value or "") or value, False)
    if attr == "employer" and value:
        value = re.sub(r"^(?:a|an|the)\s+", "", value)
        old = re.sub(r"^(?:a|an|the)\s+", "", old) if old else old
    if tag == "diet:food-":
        # "doesn't eat fish" is a change only when said as one ("any more", "stopped", "gave up");
        # a standing "I don't eat shellfish" from a pescatarian is not a retraction of the diet
        how = m.group("how").lower()
        if not negated_tail and how.startswith(("doesn't", "does", "don't", "do ")):
            return None
        diet = lexicon.diet_excluding(m.group("v"))
        return Slot("diet", diet, True) if diet else None
    if attr == "diet":
        if mode == "notvegan":
            return Slot("diet", "vegan", True)
        if mode == "omni":
            return Slot("diet", "omnivore", False)
        if mode == "veg":
            return Slot("diet", "vegan" if "animal" in m.group(0) else "vegetarian", False)
        value = (value or "").replace("pescetarian", "pescatarian").replace("ketogenic", "keto").replace("veggie", "vegetarian")
        neg = mode == "-"
        if value in _DIET_IDENTITY:
            return Slot("diet", value, neg)
        return Slot(f"diet:{value}", value, neg)
    if attr == "allergy":
        topic = _stem((value or "").split()[-1]) if value else ""
        return Slot(f"allergy:{topic}", value, mode == "-" or negated_tail)
    if mode == "change":
        return Slot(attr, value, False, old)
    if mode == "-":
        return Slot(attr, value, True)
    return Slot(attr, value, False if mode == "+" else negated_tail)


# "was never X" / "has never been X" retracts X as a state ("has never been to Paris" is a trip, left alone);
# "used to be X" with no new value is a retraction of X too
_NEVER_WAS = re.compile(
    r"(?i)\b(?:(?:has|have|had)\s+never\s+been|(?:hasn't|haven't|hadn't)\s+ever\s+been|was\s+never|were\s+never|never\s+was|"
    r"(?:wasn't|weren't)\s+ever)\b(?!\s+(?:to|in|at)\b)"
)
_USED_TO_BE = re.compile(r"(?i)\bused\s+to\s+be\b")


# a verb of intending, trying or needing right before what a pattern reads: the pattern's act is not done
_INTENDED = re.compile(r"(?i)\b(?:wants?|wanting|wanna|trying|tries|try|tried|plans?|planning|hopes?|hoping|going|gonna|"
                       r"would\s+(?:like|love)|'d\s+(?:like|love)|thinking\s+(?:of|about)|considering|might|may|could|should|needs?)\s+(?:to\s+)?$")


@list_cache
def parse_all(text: str) -> list[Slot]:
    """Every attribute ``text`` states (at most one per attribute), in pattern order."""
    t = _NEVER_WAS.sub("is not", text.strip())
    t = _USED_TO_BE.sub("is no longer", t)
    negated_tail = bool(_NEG_TAIL.search(t))
    found: dict[str, Slot] = {}
    for pat, tag in _COMPILED:
        attr = tag.partition(":")[0]
        if attr in found or (attr == "rel" and any(k.startswith("rel") for k in found)):
            continue
        m = pat.search(t)
        if m and _INTENDED.search(t[: m.start()]):
            continue  # "wants to quit the fags this year": what the user means to do, not what is so
        if m:
            slot = _match(t, m, tag, negated_tail)
            if slot is not None:
                found[attr] = slot
    if "employer" in found and found.get("residence") and found["residence"].value == found["employer"].value and found["employer"].old is None:
        del found["residence"]  # "moved over to Globex" named a company, not a town
    if found:
        return _about(text, list(found.values()))
    one = _parse_loose(t, negated_tail)
    return _about(text, [one]) if one else []


def _about(text: str, found: list[Slot]) -> list[Slot]:
    m = _REL_SUBJECT.match(text.strip())
    if not m or re.search(r"(?i)\band\s+the\s+user\b", text):
        return found
    rel = m.group("rel").lower()
    return [s if s.key.startswith("rel:") else Slot(f"{rel}.{s.key}", s.value, s.negated, s.old) for s in found]


_PERSON_PREF = re.compile(
    r"(?i)\b(?:is|'s)\s+(?:(?:now|more\s+of|really|definitely|very\s+much)\s+)*(?:a|an)\s+(?:(?:big|huge|real|total|proper|lifelong|massive)\s+)?"
    r"(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+(?:" + lexicon.PERSON_NOUNS + r")\b"
)


def _core(phrase: str) -> str:
    """The part of a preference phrase before its first preposition ("green tea if you have it" -> "green tea")."""
    m = _PREPS.search(phrase)
    return phrase[: m.start()] if m else phrase


def _category_pref(phrase: str, negated: bool) -> Slot | None:
    """A preference whose head noun has a category ("green tea" -> pref:drink), so a new value of the same
    category supersedes it; None when the head has none ("morning meetings" keeps its own topic)."""
    topic = _head(phrase)[0]
    core = _content(_core(phrase))
    if not topic or not core or _stem(core[-1]) != topic:
        return None  # the topic came from a "for …" purpose ("Zoom for calls"): keep the purpose as the key
    cat = lexicon.category(core[-1])
    if cat is None:
        return None
    return Slot(f"pref:{cat}", " ".join(core), negated)


def _parse_loose(t: str, negated_tail: bool) -> Slot | None:
    # "these days" / "any more" only negate a preference stated with a negation ("doesn't prefer X any more");
    # "prefers espresso these days" is a new value, not a retraction
    pref_negated = negated_tail and bool(re.search(r"(?i)\b(?:not|no\s+longer|never)\b|n't\b", t))
    m = _PREF_CMP.search(t)
    if m:
        a, b = _head(m.group("v"))[0], _head(m.group("o"))[0]
        ca, cb = lexicon.category(_core(m.group("v"))), lexicon.category(_core(m.group("o")))
        if a and ca and ca == cb:
            return Slot(f"pref:{ca}", " ".join(_content(_core(m.group("v")))), False)
        if a and b:
            return Slot("pref:" + "|".join(sorted({a, b})), a, False)
    for m in _CATEGORY_VERB.finditer(t):
        word = m.group("v") or m.group("verb")
        cat = lexicon.category(word)
        if cat and (m.group("verb") is None or lexicon.category(m.group("verb"))):
            core = [w for w in _content(word) if lexicon.category(w)] or [word]
            return Slot(f"pref:{cat}", " ".join(core).lower(), pref_negated)
    m = _PERSON_PREF.search(t)
    if m and lexicon.category(m.group("v")):
        return Slot(f"pref:{lexicon.category(m.group('v'))}", m.group("v").lower(), pref_negated)
    m = _LIKE.search(t)
    if m and not re.search(r"(?i)\b(?:would|'d)\s+like\b", t):
        liked = _NEG_TAIL.sub("", m.group("v")).strip()  # "spicy food any more" is about "spicy food"
        topic, _ = _head(liked)
        if topic:
            neg = bool(_NEG_LIKE.search(m.group(0)[: m.end("verb") - m.start()])) or negated_tail
            value = _head(liked)[1]
            phrase = topic if value == topic or _stem(value) == topic else f"{value} {topic}"
            return Slot(f"like:{phrase}", phrase, neg)
    m = _PREF.search(t)
    if m:
        by_category = _category_pref(m.group("v"), pref_negated)
        if by_category is not None:
            return by_category
        topic, value = _head(m.group("v"))
        if topic:
            return Slot(f"pref:{topic}", value, pref_negated)
    m = _PREF_CHOICE.search(t)
    if m and not re.search(r"(?i)\b(?:not|never|no\s+longer)\b|n't\b", t[: m.start()]):
        # "always goes for the window seat", "needs an aisle seat", "always picks Italian": a choice is a
        # preference only when its value has a category, so a later value of that category supersedes it
        by_category = _category_pref(m.group("v"), pref_negated)
        if by_category is None and lexicon.category(_core(m.group("v"))):
            topic, value = _head(m.group("v"))  # "the window seat" -> pref:seat, as "prefers a window seat" says it
            by_category = Slot(f"pref:{topic}", value, pref_negated) if topic else None
        if by_category is not None and not (m.group("verb").lower().startswith("need") and by_category.key == "pref:travel"):
            return by_category
    m = _ATTR_INVERTED.match(t)
    if m:
        return Slot("attr:" + " ".join(_stem(w) for w in m.group("a").split() if w not in STOPWORDS), _clean(m.group("v")), False)
    m = _ATTR.search(t)
    if m:
        attr = " ".join(_stem(w) for w in m.group("a").split() if w not in STOPWORDS)
        value = _clean(m.group("v"))
        if attr in _ATTR_SYNONYMS and (attr not in ("number", "contact number") or re.fullmatch(r"\+?[\d ()-]{6,}", value)):
            attr = _ATTR_SYNONYMS[attr]
            return Slot(attr, value, False)
        if re.fullmatch(RELATIONS, m.group("a")) and (re.search(r"\d", value) or len(value.split()) > 3):
            return None  # "User's mum is 67", "…was just diagnosed with diabetes": things about a person, not who they are
        if attr and value and len(attr.split()) <= 4:
            return Slot(f"attr:{attr}", value, bool(re.match(r"(?i)(?:not|no\s+longer)\b", m.group("v"))))
    return None


def distinctive(text: str) -> set[str]:
    """Tokens a faithful copy of ``text`` must keep: numbers, codes and capitalised names (not the first word)."""
    toks = re.findall(r"[\w][\w'-]*", text)
    out = {t.lower() for t in toks if re.search(r"\d", t)}
    out |= {t.lower() for i, t in enumerate(toks) if i > 0 and t[:1].isupper() and t.lower() not in {"user", "i"}}
    return out
