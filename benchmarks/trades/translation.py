"""Translation agency: client companies send in documents to be translated, the agency hands them to freelance linguists.

The agency keeps a rate card: what a client pays per word by the subject field of the text (general, legal,
medical, technical, marketing) and the turnaround asked for (standard, express, overnight), one row for each
pair of the two. Its freelance linguists each have a native language, a vetting level (junior, senior, sworn),
the per-word rate the agency pays them, how many words a week they can take, a leave date when they are away,
and the language pairs they translate ("German into English", or "DE>EN"). Client accounts are companies (law
firms, pharma, manufacturers, publishers, public bodies, online retailers) with a contact person and email. A
job has a code like 'JB-0412' ("job 412", or by its client and language pair), a source and a target language,
a subject field, a turnaround, a word count, a deadline, an optional purchase-order number, and a fee quoted at
the card rate for its words; it is quoted, in translation, in review, delivered, on hold (for a reason) or
cancelled. Each job is assigned to one translator (at their own rate) and one reviewer (at a rate agreed per
word). Clients pay by bank transfer, card, cheque or PayPal; what a client owes is kept by one rule: the fees of
their delivered jobs minus what they have paid. Client glossaries (a source term and its approved translation)
and the assignments are logged from an empty start.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .base import Question, Record, Rule, Trade, Turns, date_forms, in_words, keyvalue, lookup, sql_date, sql_text

LANGS = (
    "english",
    "german",
    "french",
    "spanish",
    "italian",
    "dutch",
    "polish",
    "japanese",
    "brazilian_portuguese",
    "simplified_chinese",
)
_LANG_LIST = ", ".join(f"'{lang}'" for lang in LANGS)
SCHEMA = f"""
CREATE SEQUENCE linguist_seq START 1;
CREATE SEQUENCE account_seq START 1;
CREATE SEQUENCE receipt_seq START 1;
CREATE SEQUENCE term_seq START 1;
CREATE TABLE rate_card (
    subject_field VARCHAR NOT NULL CHECK (subject_field IN ('general', 'legal', 'medical', 'technical', 'marketing')),
    urgency VARCHAR NOT NULL CHECK (urgency IN ('standard', 'express', 'overnight')),
    client_rate DECIMAL(4, 2) NOT NULL CHECK (client_rate > 0),
    PRIMARY KEY (subject_field, urgency)
);
CREATE TABLE linguists (
    linguist_no INTEGER PRIMARY KEY DEFAULT nextval('linguist_seq'),
    linguist_name VARCHAR NOT NULL UNIQUE,
    email_addr VARCHAR,
    phone_no VARCHAR,
    native_lang VARCHAR NOT NULL CHECK (native_lang IN ({_LANG_LIST})),
    vetting_level VARCHAR NOT NULL CHECK (vetting_level IN ('junior', 'senior', 'sworn')),
    word_rate DECIMAL(4, 2) NOT NULL CHECK (word_rate > 0),
    weekly_words INTEGER NOT NULL CHECK (weekly_words >= 0),
    on_leave_until DATE,
    joined_on DATE NOT NULL
);
CREATE TABLE linguist_pairs (
    linguist_no INTEGER NOT NULL REFERENCES linguists (linguist_no),
    source_lang VARCHAR NOT NULL CHECK (source_lang IN ({_LANG_LIST})),
    target_lang VARCHAR NOT NULL CHECK (target_lang IN ({_LANG_LIST})),
    PRIMARY KEY (linguist_no, source_lang, target_lang)
);
CREATE TABLE client_accounts (
    account_no INTEGER PRIMARY KEY DEFAULT nextval('account_seq'),
    company_name VARCHAR NOT NULL UNIQUE,
    contact_person VARCHAR NOT NULL,
    contact_email VARCHAR,
    sector VARCHAR NOT NULL CHECK (
        sector IN ('law_firm', 'pharma', 'manufacturing', 'publisher', 'public_sector', 'online_retail')
    ),
    account_opened DATE NOT NULL,
    balance_due DECIMAL(10, 2) NOT NULL DEFAULT 0
);
CREATE TABLE jobs (
    job_code VARCHAR PRIMARY KEY,
    account_no INTEGER NOT NULL REFERENCES client_accounts (account_no),
    source_lang VARCHAR NOT NULL CHECK (source_lang IN ({_LANG_LIST})),
    target_lang VARCHAR NOT NULL CHECK (target_lang IN ({_LANG_LIST})),
    subject_field VARCHAR NOT NULL,
    urgency VARCHAR NOT NULL,
    word_count INTEGER NOT NULL CHECK (word_count > 0),
    job_fee DECIMAL(9, 2) NOT NULL,
    received_on DATE NOT NULL,
    deadline DATE NOT NULL,
    job_state VARCHAR NOT NULL DEFAULT 'quoted' CHECK (
        job_state IN ('quoted', 'in_translation', 'in_review', 'delivered', 'on_hold', 'cancelled')
    ),
    hold_reason VARCHAR CHECK (
        hold_reason IN ('awaiting_source_files', 'client_query', 'glossary_sign_off', 'budget_approval')
    ),
    delivered_on DATE,
    po_number VARCHAR,
    FOREIGN KEY (subject_field, urgency) REFERENCES rate_card (subject_field, urgency)
);
CREATE TABLE assignments (
    job_code VARCHAR NOT NULL REFERENCES jobs (job_code),
    task_role VARCHAR NOT NULL CHECK (task_role IN ('translation', 'review', 'post_editing')),
    linguist_no INTEGER NOT NULL REFERENCES linguists (linguist_no),
    assigned_on DATE NOT NULL,
    agreed_rate DECIMAL(4, 2) NOT NULL CHECK (agreed_rate > 0),
    PRIMARY KEY (job_code, task_role)
);
CREATE TABLE glossary_terms (
    term_no INTEGER PRIMARY KEY DEFAULT nextval('term_seq'),
    account_no INTEGER NOT NULL REFERENCES client_accounts (account_no),
    source_lang VARCHAR NOT NULL CHECK (source_lang IN ({_LANG_LIST})),
    target_lang VARCHAR NOT NULL CHECK (target_lang IN ({_LANG_LIST})),
    source_term VARCHAR NOT NULL,
    target_term VARCHAR NOT NULL,
    term_status VARCHAR NOT NULL DEFAULT 'proposed' CHECK (term_status IN ('proposed', 'client_approved', 'deprecated')),
    added_on DATE NOT NULL,
    UNIQUE (account_no, source_lang, target_lang, source_term)
);
CREATE TABLE client_receipts (
    receipt_no INTEGER PRIMARY KEY DEFAULT nextval('receipt_seq'),
    account_no INTEGER NOT NULL REFERENCES client_accounts (account_no),
    received_on DATE NOT NULL,
    amount DECIMAL(9, 2) NOT NULL CHECK (amount > 0),
    pay_channel VARCHAR NOT NULL CHECK (pay_channel IN ('bank_transfer', 'card', 'cheque', 'paypal'))
);
"""

DUE = Rule(
    name="client balance",
    sentence=(
        "What a client owes is the fees of their jobs that have been delivered, minus everything they have paid us."
    ),
    sql=(
        "UPDATE client_accounts SET balance_due = "
        "coalesce((SELECT sum(j.job_fee) FROM jobs j WHERE j.account_no = client_accounts.account_no "
        "AND j.job_state = 'delivered'), 0) "
        "- coalesce((SELECT sum(r.amount) FROM client_receipts r WHERE r.account_no = client_accounts.account_no), 0)"
    ),
)

SNAPSHOT = {
    "rate_card": "SELECT subject_field, urgency, client_rate FROM rate_card",
    "linguists": (
        "SELECT linguist_name, email_addr, phone_no, native_lang, vetting_level, word_rate, weekly_words, "
        "on_leave_until, joined_on FROM linguists"
    ),
    "linguist_pairs": (
        "SELECT l.linguist_name, p.source_lang, p.target_lang FROM linguist_pairs p "
        "JOIN linguists l ON l.linguist_no = p.linguist_no"
    ),
    "client_accounts": (
        "SELECT company_name, contact_person, contact_email, sector, account_opened, balance_due FROM client_accounts"
    ),
    "jobs": (
        "SELECT j.job_code, a.company_name, j.source_lang, j.target_lang, j.subject_field, j.urgency, j.word_count, "
        "j.job_fee, j.received_on, j.deadline, j.job_state, j.hold_reason, j.delivered_on, j.po_number FROM jobs j "
        "JOIN client_accounts a ON a.account_no = j.account_no"
    ),
    "assignments": (
        "SELECT s.job_code, s.task_role, l.linguist_name, s.assigned_on, s.agreed_rate FROM assignments s "
        "JOIN linguists l ON l.linguist_no = s.linguist_no"
    ),
    "glossary_terms": (
        "SELECT a.company_name, g.source_lang, g.target_lang, g.source_term, g.target_term, g.term_status, "
        "g.added_on FROM glossary_terms g JOIN client_accounts a ON a.account_no = g.account_no"
    ),
    "client_receipts": (
        "SELECT a.company_name, r.received_on, r.amount, r.pay_channel FROM client_receipts r "
        "JOIN client_accounts a ON a.account_no = r.account_no"
    ),
}
CHECKS = {
    "what each client owes": "SELECT company_name, balance_due FROM client_accounts",
    "jobs per state": "SELECT job_state, count(*) FROM jobs GROUP BY job_state",
    "words and fee per job": "SELECT job_code, word_count, job_fee FROM jobs",
    "the rate card": "SELECT subject_field, urgency, client_rate FROM rate_card",
    "linguists per pair": "SELECT source_lang, target_lang, count(*) FROM linguist_pairs GROUP BY ALL",
    "assignments per linguist": (
        "SELECT l.linguist_name, count(s.job_code) FROM linguists l LEFT JOIN assignments s "
        "ON s.linguist_no = l.linguist_no GROUP BY l.linguist_name"
    ),
    "glossary terms per status": "SELECT term_status, count(*) FROM glossary_terms GROUP BY term_status",
}

# -- names and words --------------------------------------------------------------------------------

START = dt.date(2025, 2, 3)
FIELDS = ("general", "legal", "medical", "technical", "marketing")
URGENCIES = ("standard", "express", "overnight")
BASE_RATE = {"general": 9, "legal": 13, "medical": 14, "technical": 11, "marketing": 10}  # cents a word
URGENCY_EXTRA = {"standard": 0, "express": 3, "overnight": 6}
TURNAROUND = {"standard": (8, 20), "express": (3, 6), "overnight": (1, 2)}  # days from receipt to deadline
URGENCY_SAID = {
    "standard": ("standard turnaround", "standard"),
    "express": ("express turnaround", "express"),
    "overnight": ("overnight turnaround", "overnight rush"),
}
LANG_SAID = {
    "english": ("English", "EN"),
    "german": ("German", "DE"),
    "french": ("French", "FR"),
    "spanish": ("Spanish", "ES"),
    "italian": ("Italian", "IT"),
    "dutch": ("Dutch", "NL"),
    "polish": ("Polish", "PL"),
    "japanese": ("Japanese", "JA"),
    "brazilian_portuguese": ("Brazilian Portuguese", "PT-BR"),
    "simplified_chinese": ("Simplified Chinese", "ZH-CN"),
}
PAIRS = (  # the language pairs the agency takes jobs in
    ("german", "english"),
    ("english", "german"),
    ("french", "english"),
    ("english", "french"),
    ("english", "spanish"),
    ("english", "japanese"),
    ("english", "brazilian_portuguese"),
    ("italian", "english"),
    ("english", "simplified_chinese"),
    ("dutch", "english"),
    ("english", "polish"),
)
LINGUISTS = (  # name, email, phone, native language, vetting, rate (cents a word), weekly words, pairs
    ("Henrike Vossberg", "h.vossberg@wortwerk.de", "+49 151 2238 4410", "german", "sworn", 10, 12000,
     (("english", "german"), ("german", "english"))),
    ("Aurelien Castagne", "a.castagne@plume-libre.fr", "+33 6 41 27 88 09", "french", "senior", 8, 10000,
     (("english", "french"), ("french", "english"))),
    ("Marguerite Olowe", "m.olowe@inkbridge.co.uk", "+44 7700 914 226", "english", "senior", 8, 14000,
     (("german", "english"), ("french", "english"), ("italian", "english"))),
    ("Tobias Grunewald", None, "+49 160 5521 0937", "german", "junior", 6, 9000,
     (("english", "german"), ("dutch", "english"))),
    ("Ines Valderrama", "ines.valderrama@letrasur.es", "+34 612 448 391", "spanish", "senior", 8, 11000,
     (("english", "spanish"),)),
    ("Rocio Almendral", "rocio.a@letrasur.es", None, "spanish", "junior", 6, 8000,
     (("english", "spanish"), ("english", "brazilian_portuguese"))),
    ("Kaori Shimazaki", "kaori.s@hanamichi-trans.jp", "+81 90 3381 2047", "japanese", "sworn", 9, 7000,
     (("english", "japanese"),)),
    ("Haruto Ebisawa", "h.ebisawa@hanamichi-trans.jp", "+81 80 6624 1190", "japanese", "senior", 8, 9000,
     (("english", "japanese"),)),
    ("Thiago Barcellos", "thiago.b@ponteverbal.com.br", "+55 11 98823 4471", "brazilian_portuguese", "senior",
     7, 12000, (("english", "brazilian_portuguese"), ("english", "spanish"))),
    ("Niamh Calloway", "niamh@callowaywords.ie", "+353 87 412 9960", "english", "sworn", 9, 10000,
     (("italian", "english"), ("french", "english"), ("dutch", "english"))),
    ("Wenbo Tiang", "wenbo.tiang@silkpage.cn", "+86 138 1027 5563", "simplified_chinese", "senior", 8, 8000,
     (("english", "simplified_chinese"),)),
    ("Meilin Okafor", "meilin.okafor@silkpage.cn", None, "simplified_chinese", "junior", 6, 9000,
     (("english", "simplified_chinese"),)),
    ("Bartosz Wierzbicki", "b.wierzbicki@slowoplus.pl", "+48 501 337 824", "polish", "senior", 7, 11000,
     (("english", "polish"),)),
    ("Zofia Kaczmarczyk", None, "+48 698 215 430", "polish", "junior", 6, 7000, (("english", "polish"),)),
)  # fmt: skip
NEW_LINGUISTS = (  # linguists who join during the log
    ("Ottilie Brandauer", "ottilie.b@wortwerk.de", "+49 172 9043 1186", "german", "junior", 6, 8000,
     (("english", "german"),)),
    ("Lorenzo Pagliarini", "l.pagliarini@parolachiara.it", "+39 347 552 0918", "italian", "senior", 8, 10000,
     (("english", "french"), ("italian", "english"))),
    ("Sanne Hoekstra", None, "+31 6 2840 7715", "dutch", "sworn", 9, 9000, (("dutch", "english"),)),
)  # fmt: skip
CLIENTS = (  # company, contact person, contact email, sector
    ("Harrowgate & Pike LLP", "Philippa Stanbury", "p.stanbury@harrowgatepike.law", "law_firm"),
    ("Velamed Therapeutics", "Anouk Reijnders", "a.reijnders@velamed.eu", "pharma"),
    ("Brightwater Pumps", "Jurgen Aldermann", "procurement@brightwaterpumps.com", "manufacturing"),
    ("Quillfeather Press", "Rosamund Achterley", "rights@quillfeather.co.uk", "publisher"),
    ("Westerholt District Council", "Dirk Bonnema", None, "public_sector"),
    ("Lumenbay Outfitters", "Caspian Reyes", "caspian@lumenbay.shop", "online_retail"),
    ("Orrinvale Biologics", "Saoirse Delahunt", "s.delahunt@orrinvale.bio", "pharma"),
    ("Tessaline Robotics", "Emeric Voskuijlen", "docs@tessaline-robotics.com", "manufacturing"),
    ("Castlemere Legal", "Ambrose Trevithick", "a.trevithick@castlemerelegal.com", "law_firm"),
    ("Kestrel Lane Cosmetics", "Marisela Ohanian", None, "online_retail"),
)
SECTOR_FIELDS = {  # the subject fields of a sector's texts, the first the most usual
    "law_firm": ("legal", "legal", "general"),
    "pharma": ("medical", "medical", "legal"),
    "manufacturing": ("technical", "technical", "marketing"),
    "publisher": ("general", "marketing"),
    "public_sector": ("general", "legal"),
    "online_retail": ("marketing", "marketing", "general"),
}
SECTOR_SAID = {
    "law_firm": "law firm",
    "pharma": "pharmaceutical company",
    "manufacturing": "manufacturer",
    "publisher": "publisher",
    "public_sector": "public-sector body",
    "online_retail": "online retailer",
}
VETTING_SAID = {"junior": "junior", "senior": "senior", "sworn": "sworn (certified)"}
STATE_SAID = {"quoted": "quoted, not started yet", "in_translation": "in translation", "in_review": "in review"}
HOLD_SAID = {  # reason -> ways to say it
    "awaiting_source_files": ("waiting on the source files", "source files missing"),
    "client_query": ("waiting for the client to answer a query", "open query with the client"),
    "glossary_sign_off": ("waiting for the client to sign off the glossary", "glossary sign-off pending"),
    "budget_approval": ("the client's budget is not approved yet", "budget approval pending"),
}
VIA_SAID = {
    "bank_transfer": ("by bank transfer", "by transfer"),
    "card": ("by card", "on a card"),
    "cheque": ("by cheque", "with a cheque"),
    "paypal": ("via PayPal", "through PayPal"),
}
TERMS = {  # pair -> (source term, target term) that go into client glossaries
    ("english", "german"): (
        ("purchase order", "Bestellung"),
        ("notice period", "Kündigungsfrist"),
        ("safety valve", "Sicherheitsventil"),
        ("shipping address", "Lieferadresse"),
    ),
    ("german", "english"): (
        ("Gewährleistung", "statutory warranty"),
        ("Beipackzettel", "package leaflet"),
        ("Drehmoment", "torque"),
        ("Vorstand", "management board"),
    ),
    ("english", "french"): (
        ("adverse event", "événement indésirable"),
        ("limited liability", "responsabilité limitée"),
        ("gearbox", "boîte de vitesses"),
    ),
    ("french", "english"): (
        ("mise en demeure", "formal notice"),
        ("cahier des charges", "specifications"),
        ("notice d'utilisation", "instructions for use"),
    ),
    ("english", "spanish"): (
        ("free shipping", "envío gratuito"),
        ("dosage", "posología"),
        ("bylaws", "estatutos"),
        ("wishlist", "lista de deseos"),
    ),
    ("english", "brazilian_portuguese"): (
        ("shopping cart", "carrinho de compras"),
        ("side effect", "efeito colateral"),
        ("power of attorney", "procuração"),
    ),
}
TERM_SAID = {"proposed": "proposed", "client_approved": "approved by the client"}
# record kind -> how many the log has, and the class of change ("" for a new fact) whose records take the
# wordings in turn (`Turns`), so that each class comes in every wording
KINDS = {
    "client_signed": (3, ""),
    "job_received": (9, ""),
    "translator_assigned": (6, ""),
    "reviewer_assigned": (4, ""),
    "payment": (5, ""),
    "term_added": (5, ""),
    "linguist_joined": (2, ""),
    "pair_added": (2, ""),
    "job_delivered": (4, "set"),
    "deadline_moved": (2, "set"),
    "job_held": (2, "set"),
    "job_cancelled": (1, "set"),
    "rate_raised": (1, "set"),
    "reviewer_swapped": (1, "set"),
    "term_approved": (1, "set"),
    "vetting_raised": (1, "set"),
    "leave_booked": (1, "set"),
    "po_withdrawn": (2, "clear"),
    "contact_dropped": (2, "clear"),
    "leave_cut": (1, "clear"),
    "job_released": (2, "clear+set"),
    "job_reopened": (2, "clear+set"),
    "deadline_same": (2, "copy"),
    "email_shared": (1, "copy"),
    "rate_matched": (1, "copy"),
    "words_added": (2, "add"),
    "words_cut": (1, "add"),
    "card_raised": (1, "add"),
    "capacity_changed": (1, "add"),
    "term_deleted": (1, "remove"),
    "pair_dropped": (1, "remove"),
    "payment_voided": (1, "remove"),
    "jobs_merged": (2, "add+remove"),
}
DRAWS = 200  # logs drawn at most for one seed
STEPS = (0, 1, 1, 1, 2, 3)  # days between one record and the next
OPEN = ("quoted", "in_translation", "in_review", "on_hold")


# -- the state the log keeps ------------------------------------------------------------------------


@dataclass
class Linguist:
    name: str
    email: str | None
    phone: str | None
    native: str
    vetting: str
    rate: int  # cents a word
    weekly: int
    pairs: list[tuple[str, str]]
    joined: dt.date = START
    leave: dt.date | None = None


@dataclass
class Client:
    name: str
    contact: str
    email: str | None
    sector: str
    opened: dt.date = START


@dataclass
class Job:
    code: str
    client: str
    source: str
    target: str
    field: str
    urgency: str
    words: int
    fee: int  # cents
    received: dt.date
    deadline: dt.date
    state: str = "quoted"
    reason: str | None = None
    delivered: dt.date | None = None
    po: str | None = None
    before_hold: str = "quoted"
    since: dt.date = START  # the day of its last change of state

    def number(self) -> int:
        return int(self.code.split("-")[1])


@dataclass
class Assignment:
    job: str
    role: str
    linguist: str
    day: dt.date
    rate: int


@dataclass
class Term:
    client: str
    source: str
    target: str
    term: str
    translation: str
    status: str
    day: dt.date


@dataclass
class Receipt:
    client: str
    day: dt.date
    cents: int
    via: str


@dataclass
class Draft:
    """One record before its wording is chosen: each wording's text states every value in `stated`."""

    facts: Mapping[str, object]
    gold: list[str]
    texts: dict[str, str]
    stated: list[str] = field(default_factory=list)


def euros(cents: int) -> str:
    """An amount of cents as the records write it: '329', '329.50'."""
    return str(cents // 100) if cents % 100 == 0 else f"{cents // 100}.{cents % 100:02d}"


def rate(cents: int) -> str:
    """A per-word rate in cents as written: '0.09'."""
    return f"{cents // 100}.{cents % 100:02d}"


def big_in_words(n: int) -> str:
    """A word count (a multiple of 50 under 10,000) in words: 'two thousand four hundred and fifty'."""
    thousands, rest = divmod(n, 1000)
    hundreds, tail = divmod(rest, 100)
    parts = [f"{in_words(thousands)} thousand"] if thousands else []
    if hundreds:
        parts.append(f"{in_words(hundreds)} hundred")
    said = " ".join(parts)
    if tail:
        said = f"{said} and fifty" if said else "fifty"
    return said


def _linguist(name: str) -> str:
    return lookup("linguists", "linguist_no", "linguist_name", name)


def _client(name: str) -> str:
    return lookup("client_accounts", "account_no", "company_name", name)


def _value(value: object) -> str:
    return "NULL" if value is None else sql_text(str(value))


def _card(field_: str, urgency: str) -> str:
    return f"(SELECT client_rate FROM rate_card WHERE subject_field = '{field_}' AND urgency = '{urgency}')"


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


class Agency:
    """The seeded simulation of the agency: reference rows, then one record at a time, then questions."""

    def __init__(self, rng: random.Random, forms: int) -> None:
        self.rng = rng
        self.day = START
        self.forms = forms
        self.records: list[Record] = []
        self.card = {(f, u): BASE_RATE[f] + URGENCY_EXTRA[u] + rng.choice((0, 0, 1)) for f in FIELDS for u in URGENCIES}
        self.linguists: dict[str, Linguist] = {}
        for name, email, phone, native, vetting, cents, weekly, pairs in LINGUISTS:
            linguist = Linguist(name, email, phone, native, vetting, cents + rng.choice((-1, 0, 0, 1)), weekly, [])
            linguist.pairs = list(pairs)
            linguist.joined = START - dt.timedelta(days=rng.randrange(60, 900))
            self.linguists[name] = linguist
        for linguist in rng.sample(sorted(self.linguists.values(), key=lambda x: x.name), 2):
            linguist.leave = START + dt.timedelta(days=rng.randrange(4, 25))
        pool = list(CLIENTS)
        rng.shuffle(pool)
        self.clients: dict[str, Client] = {}
        for name, contact, email, sector in pool[:7]:
            self.clients[name] = Client(name, contact, email, sector, START - dt.timedelta(days=rng.randrange(40, 600)))
        self.newcomers = [Client(*c) for c in pool[7:]]
        joiners = list(NEW_LINGUISTS)
        rng.shuffle(joiners)
        self.new_linguists = [
            Linguist(name, email, phone, native, vetting, cents, weekly, list(pairs))
            for name, email, phone, native, vetting, cents, weekly, pairs in joiners
        ]
        self.quiet_client = rng.choice(sorted(self.clients))  # a client who sends nothing during the log
        self.next_job = rng.randrange(300, 800)
        self.jobs: dict[str, Job] = {}
        self.assignments: list[Assignment] = []
        self.terms: list[Term] = []
        self.receipts: list[Receipt] = []
        self.dropped: set[tuple[str, tuple[str, str]]] = set()  # pairs a linguist gave up
        busy = [n for n in sorted(self.clients) if n != self.quiet_client]
        for state in ("delivered",) * 5 + ("quoted",) * 2 + ("on_hold",):
            received = START - dt.timedelta(days=rng.randrange(25, 60) if state == "delivered" else rng.randrange(1, 6))
            job = self._job(rng.choice(busy), received)
            job.state, job.since = state, received
            if state == "delivered":
                job.delivered = min(job.deadline, START - dt.timedelta(days=rng.randrange(1, 10)))
                job.since = job.delivered
            if state == "on_hold":
                job.reason = rng.choice(sorted(HOLD_SAID))
        twin = next(j for j in self.jobs.values() if j.state == "quoted")  # a job its client later merges another into
        copy = self._job(twin.client, twin.received + dt.timedelta(days=rng.choice((0, 1))), like=twin)
        copy.since = copy.received
        self.quiet_job = next(j.code for j in self.jobs.values() if j.state == "delivered")  # never reopened
        for name in sorted({j.client for j in self.jobs.values() if j.state == "delivered"}):
            owed, draw = self.owes(name), rng.random()
            cents = owed if draw < 0.3 else (owed // 2) // 1000 * 1000 if draw < 0.7 else 0
            if cents > 0:
                day = START - dt.timedelta(days=rng.randrange(1, 10))
                self.receipts.append(Receipt(name, day, cents, rng.choice(("bank_transfer", "cheque"))))
        self.reference = self._reference()

    def _job(self, client: str, received: dt.date, like: Job | None = None) -> Job:
        """A new job of `client` received on `received` (in the pair, field and turnaround of `like`, else drawn)."""
        rng = self.rng
        self.next_job += rng.randint(1, 6)
        if like:
            source, target, field_, urgency = like.source, like.target, like.field, like.urgency
        else:
            source, target = rng.choice(self.covered_pairs())
            field_ = rng.choice(SECTOR_FIELDS[self.clients[client].sector])
            urgency = rng.choice(("standard", "standard", "standard", "express", "overnight"))
        low, high = TURNAROUND[urgency]
        words = rng.randrange(4, 60) * 50 if urgency == "standard" else rng.randrange(4, 25) * 50
        fee = words * self.card[(field_, urgency)]
        deadline = received + dt.timedelta(days=rng.randint(low, high))
        po = f"PO-{rng.randrange(10000, 99999)}" if rng.random() < 0.5 else None
        job = Job(
            f"JB-{self.next_job:04d}", client, source, target, field_, urgency, words, fee, received, deadline, po=po
        )
        job.since = received
        self.jobs[job.code] = job
        return job

    # -- reference rows ---------------------------------------------------------------------------

    def _reference(self) -> str:
        def values(rows: list[str]) -> str:
            return ", ".join(rows) + ";"

        card = [f"('{f}', '{u}', {rate(m)})" for (f, u), m in self.card.items()]
        linguists = [
            f"({sql_text(x.name)}, {_value(x.email)}, {_value(x.phone)}, '{x.native}', '{x.vetting}', {rate(x.rate)}, "
            f"{x.weekly}, {sql_date(x.leave) if x.leave else 'NULL'}, {sql_date(x.joined)})"
            for x in self.linguists.values()
        ]
        pairs = [f"({_linguist(x.name)}, '{s}', '{t}')" for x in self.linguists.values() for s, t in sorted(x.pairs)]
        clients = [
            f"({sql_text(c.name)}, {sql_text(c.contact)}, {_value(c.email)}, '{c.sector}', {sql_date(c.opened)})"
            for c in self.clients.values()
        ]
        jobs = [
            f"('{j.code}', {_client(j.client)}, '{j.source}', '{j.target}', '{j.field}', '{j.urgency}', {j.words}, "
            f"{euros(j.fee)}, {sql_date(j.received)}, {sql_date(j.deadline)}, '{j.state}', {_value(j.reason)}, "
            f"{sql_date(j.delivered) if j.delivered else 'NULL'}, {_value(j.po)})"
            for j in self.jobs.values()
        ]
        receipts = [f"({_client(r.client)}, {sql_date(r.day)}, {euros(r.cents)}, '{r.via}')" for r in self.receipts]
        statements = (
            "INSERT INTO rate_card (subject_field, urgency, client_rate) VALUES " + values(card),
            "INSERT INTO linguists (linguist_name, email_addr, phone_no, native_lang, vetting_level, word_rate, "
            "weekly_words, on_leave_until, joined_on) VALUES " + values(linguists),
            "INSERT INTO linguist_pairs (linguist_no, source_lang, target_lang) VALUES " + values(pairs),
            "INSERT INTO client_accounts (company_name, contact_person, contact_email, sector, account_opened) VALUES "
            + values(clients),
            "INSERT INTO jobs (job_code, account_no, source_lang, target_lang, subject_field, urgency, word_count, "
            "job_fee, received_on, deadline, job_state, hold_reason, delivered_on, po_number) VALUES " + values(jobs),
            "INSERT INTO client_receipts (account_no, received_on, amount, pay_channel) VALUES " + values(receipts),
        )
        return "\n".join(s for s in statements if not s.endswith("VALUES ;"))

    # -- the log ----------------------------------------------------------------------------------

    def run(self) -> bool:
        """The log, each day a record of a kind drawn by what is left of its count among those that fit the day;
        False when the kinds left stop fitting (the log is drawn again)."""
        rng = self.rng
        left = {kind: count for kind, (count, _) in KINDS.items()}
        turns = Turns(rng)
        makers: dict[str, Callable[[], Draft | None]] = {kind: getattr(self, kind) for kind in KINDS}
        idle = 0
        while any(left.values()):
            self.day += dt.timedelta(days=rng.choice(STEPS))
            kinds = sorted((k for k, n in left.items() if n), key=lambda k: -(rng.random() ** (1 / left[k])))
            draft = None
            for kind in kinds:
                draft = makers[kind]()
                if draft is not None:
                    break
            if draft is None:
                idle += 1
                if idle > 10:
                    return False
                continue
            idle = 0
            left[kind] -= 1
            wording = turns.take(KINDS[kind][1] or kind)
            self.records.append(
                Record(
                    f"r{len(self.records) + 1:02d}",
                    kind,
                    wording,
                    draft.texts[wording],
                    {"kind": kind, "date": self.day.isoformat(), **draft.facts},
                    tuple(draft.gold),
                    tuple(dict.fromkeys(draft.stated)),
                )
            )
        return True

    # -- how things are said ----------------------------------------------------------------------

    def date(self, day: dt.date) -> str:
        self.forms += 1
        return date_forms(day)[self.forms % 4]

    def count(self, n: int) -> tuple[str, list[str]]:
        """A small number in words or in digits, and what to check the text states."""
        return (in_words(n), []) if n <= 12 and self.rng.random() < 0.5 else (str(n), [str(n)])

    def words(self, n: int) -> tuple[str, list[str]]:
        """A word count as written ('2350', '2,350' or in words), and what to check the text states."""
        said = self.rng.choice((str(n), f"{n:,}", f"{n:,}", big_in_words(n)))
        return said, [said]

    def pair_said(self, source: str, target: str) -> tuple[str, list[str]]:
        """A language pair as written ('German into English', 'DE>EN'), and what to check the text states."""
        (s_name, s_code), (t_name, t_code) = LANG_SAID[source], LANG_SAID[target]
        return self.rng.choice(
            [
                (f"{s_name} into {t_name}", [s_name, t_name]),
                (f"{s_name} to {t_name}", [s_name, t_name]),
                (f"{s_code}>{t_code}", [f"{s_code}>{t_code}"]),
            ]
        )

    def job_said(self, job: Job) -> tuple[str, str, list[str]]:
        """A job as a user names it ('JB-0412', 'job 412', or its client's job in its pair when the client has no
        other job in that pair), the SQL value of its code as the text names it, and what the text states."""
        code = f"'{job.code}'"
        forms = [
            (job.code, code, [job.code]),
            (job.code, code, [job.code]),
            (f"job {job.number()}", code, [f"job {job.number()}"]),
        ]
        if not any(
            j.client == job.client and (j.source, j.target) == (job.source, job.target) and j is not job
            for j in self.jobs.values()
        ):
            s_name, t_name = LANG_SAID[job.source][0], LANG_SAID[job.target][0]
            key = (
                f"(SELECT job_code FROM jobs WHERE account_no = {_client(job.client)} AND source_lang = '{job.source}' "
                f"AND target_lang = '{job.target}')"
            )
            forms += [(f"the {s_name}-{t_name} job for {job.client}", key, [s_name, t_name, job.client])] * 2
        return self.rng.choice(forms)

    # -- the state ----------------------------------------------------------------------------------

    def covered_pairs(self) -> list[tuple[str, str]]:
        """The pairs at least two linguists translate (a translator and a reviewer)."""
        return [p for p in PAIRS if sum(p in x.pairs for x in self.linguists.values()) >= 2]

    def free(self, linguist: Linguist) -> bool:
        return linguist.leave is None or linguist.leave < self.day

    def owes(self, name: str) -> int:
        billed = sum(j.fee for j in self.jobs.values() if j.client == name and j.state == "delivered")
        return billed - sum(r.cents for r in self.receipts if r.client == name)

    def assigned(self, job: str, role: str) -> Assignment | None:
        return next((a for a in self.assignments if a.job == job and a.role == role), None)

    def open_jobs(self) -> list[Job]:
        return [j for j in self.jobs.values() if j.state in OPEN and j.since < self.day]

    # -- new facts ----------------------------------------------------------------------------------

    def client_signed(self) -> Draft | None:
        if not self.newcomers:
            return None
        c = self.newcomers.pop(0)
        c.opened = self.day
        self.clients[c.name] = c
        gold = [
            "INSERT INTO client_accounts (company_name, contact_person, contact_email, sector, account_opened) VALUES "
            f"({sql_text(c.name)}, {sql_text(c.contact)}, {_value(c.email)}, '{c.sector}', {sql_date(self.day)})"
        ]
        what, day = SECTOR_SAID[c.sector], self.date(self.day)
        email, article = c.email or "none", "an" if what[0] in "aeiou" else "a"
        texts = {
            "log": f"{day} | new client | {c.name} | {what} | contact {c.contact}, email {email}",
            "chatty": f"We opened an account for {c.name}, {article} {what}, on {day}; our contact there is {c.contact}"
            + (f" ({c.email})" if c.email else ", no email address yet"),
            "keyvalue": keyvalue(
                "new client",
                [("company", c.name), ("sector", what), ("contact", c.contact), ("email", email), ("opened", day)],
            ),
        }
        facts = {"client": c.name, "contact": c.contact, "email": c.email, "sector": c.sector}
        return Draft(facts, gold, texts, [c.name, c.contact, *([c.email] if c.email else []), day])

    def job_received(self) -> Draft | None:
        rng = self.rng
        names = [n for n in sorted(self.clients) if n != self.quiet_client and self.clients[n].opened <= self.day]
        quoted = [j for j in self.jobs.values() if j.state == "quoted" and j.client in names]
        if quoted and rng.random() < 0.25:
            like = rng.choice(quoted)
            job = self._job(like.client, self.day, like=like)
        else:
            fresh = [n for n in names if not any(j.client == n for j in self.jobs.values())]
            job = self._job(rng.choice(fresh if fresh and rng.random() < 0.6 else names), self.day)
        gold = [
            "INSERT INTO jobs (job_code, account_no, source_lang, target_lang, subject_field, urgency, word_count, "
            f"job_fee, received_on, deadline, po_number) VALUES ('{job.code}', {_client(job.client)}, "
            f"'{job.source}', '{job.target}', '{job.field}', '{job.urgency}', {job.words}, "
            f"{job.words} * {_card(job.field, job.urgency)}, {sql_date(self.day)}, {sql_date(job.deadline)}, "
            f"{_value(job.po)})"
        ]
        pair, p_said = self.pair_said(job.source, job.target)
        words, w_said = self.words(job.words)
        turnaround = rng.choice(URGENCY_SAID[job.urgency])
        day, due = self.date(self.day), self.date(job.deadline)
        po = f"PO {job.po}" if job.po else "no PO"
        texts = {
            "log": f"{day} | new job {job.code} | {job.client} | {pair} | {job.field} | {turnaround} | {words} words "
            f"| due {due} | {po} | card rate",
            "chatty": rng.choice(
                (
                    f"{job.client} sent in {job.code} on {day}: {words} words of {job.field} text, {pair}, "
                    f"{turnaround}, due {due}, {po}. Quote it at the card rate.",
                    f"New job {job.code} from {job.client} came in {day} — {pair}, {words} words, {job.field}, "
                    f"{turnaround}; deadline {due}; {po}; fee at the rate card",
                )
            ),
            "keyvalue": keyvalue(
                "new job",
                [("job", job.code), ("client", job.client), ("languages", pair), ("subject", job.field)]
                + [("turnaround", turnaround), ("words", words), ("deadline", due), ("PO", job.po or "none")]
                + [("fee", "card rate"), ("received", day)],
            ),
        }
        facts = {
            "job": job.code,
            "client": job.client,
            "source": job.source,
            "target": job.target,
            "field": job.field,
            "urgency": job.urgency,
            "words": job.words,
            "deadline": job.deadline.isoformat(),
            "po": job.po,
            "fee": job.fee / 100,
        }
        stated = [job.code, job.client, *p_said, job.field, *w_said, due, day, *([job.po] if job.po else [])]
        return Draft(facts, gold, texts, stated)

    def translator_assigned(self) -> Draft | None:
        rng = self.rng
        options = [
            (j, x)
            for j in self.jobs.values()
            if j.state == "quoted" and j.since < self.day and not self.assigned(j.code, "translation")
            for x in self.linguists.values()
            if (j.source, j.target) in x.pairs and self.free(x) and x.joined < self.day
        ]
        if not options:
            return None
        job, linguist = rng.choice(options)
        phrase, key, said = self.job_said(job)
        self.assignments.append(Assignment(job.code, "translation", linguist.name, self.day, linguist.rate))
        job.state, job.since = "in_translation", self.day
        gold = [
            "INSERT INTO assignments (job_code, task_role, linguist_no, assigned_on, agreed_rate) VALUES "
            f"({key}, 'translation', {_linguist(linguist.name)}, {sql_date(self.day)}, "
            f"(SELECT word_rate FROM linguists WHERE linguist_name = {sql_text(linguist.name)}))",
            f"UPDATE jobs SET job_state = 'in_translation' WHERE job_code = {key}",
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | assign | {phrase} | translator {linguist.name} at own rate | now in translation",
            "chatty": rng.choice(
                (
                    f"{linguist.name} took {phrase} on {day} at their usual per-word rate, so it's in translation now",
                    f"Gave {phrase} to {linguist.name} to translate ({day}), paying their normal word rate; "
                    "translation has started",
                )
            ),
            "keyvalue": keyvalue(
                "assignment",
                [("job", phrase), ("role", "translator"), ("linguist", linguist.name), ("rate", "their usual rate")]
                + [("job status", "in translation"), ("date", day)],
            ),
        }
        facts = {"job": job.code, "role": "translation", "linguist": linguist.name, "rate": linguist.rate / 100}
        return Draft(facts, gold, texts, [*said, linguist.name, day])

    def reviewer_assigned(self) -> Draft | None:
        rng = self.rng
        options = []
        for job in self.jobs.values():
            first = self.assigned(job.code, "translation")
            if job.state != "in_translation" or not first or first.day >= self.day:
                continue
            if self.assigned(job.code, "review"):
                continue
            options += [
                (job, x)
                for x in self.linguists.values()
                if (job.source, job.target) in x.pairs
                and x.name != first.linguist
                and self.free(x)
                and x.joined < self.day
            ]
        if not options:
            return None
        job, linguist = rng.choice(options)
        cents = rng.choice((2, 3, 3, 4))
        phrase, key, said = self.job_said(job)
        self.assignments.append(Assignment(job.code, "review", linguist.name, self.day, cents))
        job.state, job.since = "in_review", self.day
        gold = [
            "INSERT INTO assignments (job_code, task_role, linguist_no, assigned_on, agreed_rate) VALUES "
            f"({key}, 'review', {_linguist(linguist.name)}, {sql_date(self.day)}, {rate(cents)})",
            f"UPDATE jobs SET job_state = 'in_review' WHERE job_code = {key}",
        ]
        day, per = self.date(self.day), rate(cents)
        texts = {
            "log": f"{day} | assign | {phrase} | reviewer {linguist.name} at €{per}/word | translation done, in review",
            "chatty": f"The translation of {phrase} is done; {linguist.name} is reviewing it from {day} for €{per} a "
            "word",
            "keyvalue": keyvalue(
                "assignment",
                [("job", phrase), ("role", "reviewer"), ("linguist", linguist.name), ("rate", f"{per} per word")]
                + [("job status", "in review"), ("date", day)],
            ),
        }
        facts = {"job": job.code, "role": "review", "linguist": linguist.name, "rate": cents / 100}
        return Draft(facts, gold, texts, [*said, linguist.name, per, day])

    def payment(self) -> Draft | None:
        rng = self.rng
        owing = [n for n in sorted(self.clients) if self.owes(n) > 0]
        if not owing:
            return None
        name = rng.choice(owing)
        if any(r.client == name and r.day == self.day for r in self.receipts):
            return None
        due = self.owes(name)
        cents = due if rng.random() < 0.4 or due <= 3000 else rng.randrange(1000, due, 1000)
        via = rng.choice(sorted(VIA_SAID))
        self.receipts.append(Receipt(name, self.day, cents, via))
        gold = [
            "INSERT INTO client_receipts (account_no, received_on, amount, pay_channel) VALUES "
            f"({_client(name)}, {sql_date(self.day)}, {euros(cents)}, '{via}')"
        ]
        how, day, amount = rng.choice(VIA_SAID[via]), self.date(self.day), euros(cents)
        texts = {
            "log": f"{day} | payment in | {name} | €{amount} | {how}",
            "chatty": f"{name} paid us €{amount} {how} on {day}",
            "keyvalue": keyvalue(
                "payment received", [("client", name), ("amount", amount), ("paid", how), ("date", day)]
            ),
        }
        facts = {"client": name, "amount": cents / 100, "via": via}
        return Draft(facts, gold, texts, [name, amount, day])

    def term_added(self) -> Draft | None:
        rng = self.rng
        options = []
        for name in sorted(self.clients):
            if self.clients[name].opened >= self.day:
                continue
            pairs = {(j.source, j.target) for j in self.jobs.values() if j.client == name}
            used = {t.term for t in self.terms if t.client == name}
            for pair, terms in TERMS.items():
                weight = 3 if pair in pairs else 1
                options += [(name, pair, term) for term in terms if term[0] not in used] * weight
        if not options:
            return None
        name, (source, target), (term, translation) = rng.choice(options)
        status = "client_approved" if rng.random() < 0.3 else "proposed"
        self.terms.append(Term(name, source, target, term, translation, status, self.day))
        gold = [
            "INSERT INTO glossary_terms (account_no, source_lang, target_lang, source_term, target_term, "
            f"term_status, added_on) VALUES ({_client(name)}, '{source}', '{target}', {sql_text(term)}, "
            f"{sql_text(translation)}, '{status}', {sql_date(self.day)})"
        ]
        pair, p_said = self.pair_said(source, target)
        day, how = self.date(self.day), TERM_SAID[status]
        texts = {
            "log": f'{day} | glossary | {name} | {pair} | "{term}" = "{translation}" | {how}',
            "chatty": f'For {name}\'s glossary ({pair}): "{term}" is to be translated as "{translation}" — '
            f"{how}, added {day}",
            "keyvalue": keyvalue(
                "glossary term",
                [("client", name), ("languages", pair), ("term", term), ("translation", translation)]
                + [("status", how), ("added", day)],
            ),
        }
        facts = {"client": name, "source": source, "target": target, "term": term, "translation": translation}
        return Draft({**facts, "status": status}, gold, texts, [name, *p_said, term, translation, day])

    def linguist_joined(self) -> Draft | None:
        if not self.new_linguists:
            return None
        x = self.new_linguists.pop(0)
        x.joined = self.day
        self.linguists[x.name] = x
        pairs = sorted(x.pairs)
        gold = [
            "INSERT INTO linguists (linguist_name, email_addr, phone_no, native_lang, vetting_level, word_rate, "
            f"weekly_words, joined_on) VALUES ({sql_text(x.name)}, {_value(x.email)}, {_value(x.phone)}, "
            f"'{x.native}', '{x.vetting}', {rate(x.rate)}, {x.weekly}, {sql_date(self.day)})",
            "INSERT INTO linguist_pairs (linguist_no, source_lang, target_lang) VALUES "
            + ", ".join(f"({_linguist(x.name)}, '{s}', '{t}')" for s, t in pairs),
        ]
        listed, stated = [], []
        for s, t in pairs:
            said, p_said = self.pair_said(s, t)
            listed.append(said)
            stated += p_said
        weekly, w_said = self.words(x.weekly)
        native, vetting = LANG_SAID[x.native][0], VETTING_SAID[x.vetting]
        day, per = self.date(self.day), rate(x.rate)
        contact = (
            (f"email {x.email}" if x.email else "no email") + ", " + (f"phone {x.phone}" if x.phone else "no phone")
        )
        texts = {
            "log": f"{day} | new linguist | {x.name} | native {native} | {vetting} | {'; '.join(listed)} | "
            f"€{per}/word | {weekly} words a week | {contact}",
            "chatty": f"{x.name} joined our freelancers on {day}: a {vetting} translator, native {native}, working "
            f"{' and '.join(listed)} at €{per} a word, up to {weekly} words a week; {contact}",
            "keyvalue": keyvalue(
                "new linguist",
                [("name", x.name), ("native language", native), ("vetting", vetting), ("pairs", ", ".join(listed))]
                + [("rate", per), ("weekly words", weekly), ("email", x.email or "none"), ("phone", x.phone or "none")]
                + [("joined", day)],
            ),
        }
        facts = {"linguist": x.name, "native": x.native, "vetting": x.vetting, "rate": x.rate / 100, "pairs": pairs}
        stated = [x.name, native, per, *w_said, *stated, *([x.email] if x.email else []), day]
        return Draft(facts, gold, texts, stated)

    def pair_added(self) -> Draft | None:
        options = [
            (x, p)
            for x in self.linguists.values()
            if x.joined < self.day
            for p in PAIRS
            if p not in x.pairs and x.native in p and x.native != "english" and (x.name, p) not in self.dropped
        ]
        if not options:
            return None
        linguist, (source, target) = self.rng.choice(options)
        linguist.pairs.append((source, target))
        gold = [
            "INSERT INTO linguist_pairs (linguist_no, source_lang, target_lang) VALUES "
            f"({_linguist(linguist.name)}, '{source}', '{target}')"
        ]
        pair, p_said = self.pair_said(source, target)
        day = self.date(self.day)
        texts = {
            "log": f"{day} | language pair | {linguist.name} | adds {pair}",
            "chatty": f"{linguist.name} can take {pair} work as well from {day}",
            "keyvalue": keyvalue("language pair", [("linguist", linguist.name), ("new pair", pair), ("from", day)]),
        }
        facts = {"linguist": linguist.name, "source": source, "target": target}
        return Draft(facts, gold, texts, [linguist.name, *p_said, day])

    # -- changes: a value given, or found by a name -------------------------------------------------

    def job_delivered(self) -> Draft | None:
        jobs = [
            j
            for j in self.jobs.values()
            if j.state == "in_review"
            and j.since < self.day
            and (r := self.assigned(j.code, "review"))
            and r.day < self.day
        ]
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        phrase, key, said = self.job_said(job)
        job.state, job.delivered, job.since = "delivered", self.day, self.day
        gold = [f"UPDATE jobs SET job_state = 'delivered', delivered_on = {sql_date(self.day)} WHERE job_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | delivered | {phrase} | sent to {job.client}, bill it",
            "chatty": f"Review's finished and {phrase} went out to {job.client} on {day}, so it's delivered",
            "keyvalue": keyvalue("job update", [("job", phrase), ("status", "delivered"), ("delivered on", day)]),
        }
        facts = {"job": job.code, "state": "delivered", "delivered_on": self.day.isoformat()}
        return Draft(facts, gold, texts, [*said, day])

    def deadline_moved(self) -> Draft | None:
        jobs = [j for j in self.open_jobs() if j.deadline >= self.day]
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        n = self.rng.randint(2, 7)
        phrase, key, said = self.job_said(job)
        old, job.deadline = job.deadline, job.deadline + dt.timedelta(days=n)
        gold = [f"UPDATE jobs SET deadline = {sql_date(job.deadline)} WHERE job_code = {key}"]
        amount, _ = self.count(n)
        day, was, due = self.date(self.day), self.date(old), self.date(job.deadline)
        texts = {
            "log": f"{day} | deadline | {phrase} | {was} -> {due}",
            "chatty": f"{job.client} gave us {amount} more days on {phrase}: it's now due {due} instead of {was} "
            f"(agreed {day})",
            "keyvalue": keyvalue("job update", [("job", phrase), ("new deadline", due), ("date", day)]),
        }
        return Draft({"job": job.code, "deadline": job.deadline.isoformat()}, gold, texts, [*said, due, day])

    def job_held(self) -> Draft | None:
        jobs = [j for j in self.open_jobs() if j.state in ("quoted", "in_translation")]
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        phrase, key, said = self.job_said(job)
        job.before_hold, job.state, job.since = job.state, "on_hold", self.day
        job.reason = self.rng.choice(sorted(HOLD_SAID))
        why, day = self.rng.choice(HOLD_SAID[job.reason]), self.date(self.day)
        gold = [f"UPDATE jobs SET job_state = 'on_hold', hold_reason = '{job.reason}' WHERE job_code = {key}"]
        texts = {
            "log": f"{day} | on hold | {phrase} | {why}",
            "chatty": f"Put {phrase} on hold from {day}, {why}",
            "keyvalue": keyvalue(
                "job update", [("job", phrase), ("status", "on hold"), ("reason", why), ("date", day)]
            ),
        }
        facts = {"job": job.code, "state": "on_hold", "reason": job.reason}
        return Draft(facts, gold, texts, [*said, day])

    def job_cancelled(self) -> Draft | None:
        jobs = [j for j in self.open_jobs() if j.state == "quoted"]
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        phrase, key, said = self.job_said(job)
        job.state, job.since = "cancelled", self.day
        gold = [f"UPDATE jobs SET job_state = 'cancelled' WHERE job_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | cancelled | {phrase} | client withdrew it before we started",
            "chatty": f"{job.client} called off {phrase} on {day}; nobody had started it, mark it cancelled",
            "keyvalue": keyvalue("job update", [("job", phrase), ("status", "cancelled"), ("date", day)]),
        }
        return Draft({"job": job.code, "state": "cancelled"}, gold, texts, [*said, day])

    def rate_raised(self) -> Draft | None:
        linguists = [x for x in self.linguists.values() if x.joined < self.day]
        if not linguists:
            return None
        linguist = self.rng.choice(linguists)
        old, linguist.rate = linguist.rate, linguist.rate + self.rng.choice((1, 1, 2))
        gold = [
            f"UPDATE linguists SET word_rate = {rate(linguist.rate)} WHERE linguist_name = {sql_text(linguist.name)}"
        ]
        day, per, was = self.date(self.day), rate(linguist.rate), rate(old)
        texts = {
            "log": f"{day} | linguist rate | {linguist.name} | €{was} -> €{per} per word",
            "chatty": f"{linguist.name} put their rate up to €{per} a word from {day}",
            "keyvalue": keyvalue("linguist rate", [("linguist", linguist.name), ("new rate", per), ("from", day)]),
        }
        return Draft({"linguist": linguist.name, "rate": linguist.rate / 100}, gold, texts, [linguist.name, per, day])

    def reviewer_swapped(self) -> Draft | None:
        options = []
        for job in self.jobs.values():
            review, first = self.assigned(job.code, "review"), self.assigned(job.code, "translation")
            if job.state != "in_review" or not review or review.day >= self.day:
                continue
            options += [
                (job, review, x)
                for x in self.linguists.values()
                if (job.source, job.target) in x.pairs
                and x.name not in (review.linguist, first.linguist if first else "")
                and self.free(x)
                and x.joined < self.day
            ]
        if not options:
            return None
        job, review, linguist = self.rng.choice(options)
        phrase, key, said = self.job_said(job)
        old, review.linguist = review.linguist, linguist.name
        gold = [
            f"UPDATE assignments SET linguist_no = {_linguist(linguist.name)} WHERE job_code = {key} "
            "AND task_role = 'review'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | reassign | {phrase} | review now {linguist.name} (was {old}), same rate",
            "chatty": f"{old} can't finish reviewing {phrase}; {linguist.name} takes the review over at the same rate "
            f"({day})",
            "keyvalue": keyvalue(
                "assignment change",
                [("job", phrase), ("reviewer", linguist.name), ("rate", "unchanged"), ("date", day)],
            ),
        }
        facts = {"job": job.code, "role": "review", "linguist": linguist.name}
        return Draft(facts, gold, texts, [*said, linguist.name, day])

    def term_approved(self) -> Draft | None:
        terms = [t for t in self.terms if t.status == "proposed" and t.day < self.day]
        if not terms:
            return None
        term = self.rng.choice(terms)
        term.status = "client_approved"
        gold = [
            f"UPDATE glossary_terms SET term_status = 'client_approved' WHERE account_no = {_client(term.client)} "
            f"AND source_term = {sql_text(term.term)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f'{day} | glossary | {term.client} | "{term.term}" approved by the client',
            "chatty": f'{term.client} signed off "{term.translation}" for "{term.term}" in their glossary on {day}',
            "keyvalue": keyvalue(
                "glossary term",
                [("client", term.client), ("term", term.term), ("status", "client approved")] + [("date", day)],
            ),
        }
        facts = {"client": term.client, "term": term.term, "status": "client_approved"}
        return Draft(facts, gold, texts, [term.client, term.term, day])

    def vetting_raised(self) -> Draft | None:
        linguists = [x for x in self.linguists.values() if x.vetting != "sworn" and x.joined < self.day]
        if not linguists:
            return None
        linguist = self.rng.choice(linguists)
        linguist.vetting = "senior" if linguist.vetting == "junior" else "sworn"
        gold = [
            f"UPDATE linguists SET vetting_level = '{linguist.vetting}' WHERE linguist_name = {sql_text(linguist.name)}"
        ]
        day = self.date(self.day)
        how = "passed our senior vetting" if linguist.vetting == "senior" else "was sworn in as a certified translator"
        texts = {
            "log": f"{day} | vetting | {linguist.name} | now {linguist.vetting}",
            "chatty": f"{linguist.name} {how} on {day}; mark them {linguist.vetting}",
            "keyvalue": keyvalue("vetting", [("linguist", linguist.name), ("level", linguist.vetting), ("from", day)]),
        }
        return Draft({"linguist": linguist.name, "vetting": linguist.vetting}, gold, texts, [linguist.name, day])

    def leave_booked(self) -> Draft | None:
        linguists = [x for x in self.linguists.values() if self.free(x) and x.joined < self.day]
        if not linguists:
            return None
        linguist = self.rng.choice(linguists)
        linguist.leave = self.day + dt.timedelta(days=self.rng.randint(7, 20))
        gold = [
            f"UPDATE linguists SET on_leave_until = {sql_date(linguist.leave)} WHERE linguist_name = "
            f"{sql_text(linguist.name)}"
        ]
        day, until = self.date(self.day), self.date(linguist.leave)
        texts = {
            "log": f"{day} | leave | {linguist.name} | away until {until}",
            "chatty": f"{linguist.name} told us on {day} they're away until {until}; don't give them work before then",
            "keyvalue": keyvalue("leave", [("linguist", linguist.name), ("on leave until", until), ("told", day)]),
        }
        facts = {"linguist": linguist.name, "leave_until": linguist.leave.isoformat()}
        return Draft(facts, gold, texts, [linguist.name, until, day])

    # -- changes: a value erased --------------------------------------------------------------------

    def po_withdrawn(self) -> Draft | None:
        jobs = [j for j in self.jobs.values() if j.po and j.state != "cancelled" and j.since < self.day]
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        phrase, key, said = self.job_said(job)
        po, job.po = job.po, None
        gold = [f"UPDATE jobs SET po_number = NULL WHERE job_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | PO {po} withdrawn by {job.client}, no PO on it now",
            "chatty": f"{job.client} withdrew purchase order {po} on {day}; {phrase} has no PO number any more",
            "keyvalue": keyvalue("job update", [("job", phrase), ("PO", f"none ({po} withdrawn)"), ("date", day)]),
        }
        return Draft({"job": job.code, "po": None}, gold, texts, [*said, str(po), day])

    def contact_dropped(self) -> Draft | None:
        day = self.date(self.day)
        if sum(r.kind == "contact_dropped" for r in self.records) == 0:
            names = [n for n, c in sorted(self.clients.items()) if c.email and c.opened < self.day]
            if not names:
                return None
            name = self.rng.choice(names)
            email, self.clients[name].email = self.clients[name].email, None
            gold = [f"UPDATE client_accounts SET contact_email = NULL WHERE company_name = {sql_text(name)}"]
            texts = {
                "log": f"{day} | client contact | {name} | {email} bounces, delete the email",
                "chatty": f"Mail to {email} at {name} bounces since {day}; take the contact email off their account",
                "keyvalue": keyvalue(
                    "client contact", [("client", name), ("email", f"none ({email} bounces)"), ("date", day)]
                ),
            }
            return Draft({"client": name, "email": None}, gold, texts, [name, str(email), day])
        names = [n for n, x in sorted(self.linguists.items()) if x.phone and x.joined < self.day]
        if not names:
            return None
        name = self.rng.choice(names)
        self.linguists[name].phone = None
        gold = [f"UPDATE linguists SET phone_no = NULL WHERE linguist_name = {sql_text(name)}"]
        texts = {
            "log": f"{day} | linguist contact | {name} | phone number gone, email only",
            "chatty": f"{name} gave up their phone line on {day}, so delete their phone number; email only now",
            "keyvalue": keyvalue("linguist contact", [("linguist", name), ("phone", "none"), ("date", day)]),
        }
        return Draft({"linguist": name, "phone": None}, gold, texts, [name, day])

    def leave_cut(self) -> Draft | None:
        linguists = [x for x in self.linguists.values() if x.leave and x.leave > self.day]
        if not linguists:
            return None
        linguist = self.rng.choice(linguists)
        until, linguist.leave = linguist.leave, None
        gold = [f"UPDATE linguists SET on_leave_until = NULL WHERE linguist_name = {sql_text(linguist.name)}"]
        day, was = self.date(self.day), self.date(until)
        texts = {
            "log": f"{day} | leave | {linguist.name} | back early, not away until {was} after all",
            "chatty": f"{linguist.name} is back already ({day}) instead of {was}; clear their leave date",
            "keyvalue": keyvalue(
                "leave", [("linguist", linguist.name), ("on leave until", "none, back"), ("date", day)]
            ),
        }
        return Draft({"linguist": linguist.name, "leave_until": None}, gold, texts, [linguist.name, day])

    # -- changes: a value erased and another given ------------------------------------------------------

    def job_released(self) -> Draft | None:
        jobs = [j for j in self.jobs.values() if j.state == "on_hold" and j.since < self.day]
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        phrase, key, said = self.job_said(job)
        why = HOLD_SAID[str(job.reason)][1]
        job.state, job.reason, job.since = job.before_hold, None, self.day
        gold = [f"UPDATE jobs SET job_state = '{job.state}', hold_reason = NULL WHERE job_code = {key}"]
        day, back = self.date(self.day), STATE_SAID[job.state]
        texts = {
            "log": f"{day} | {phrase} | off hold ({why} sorted), back to {back}, no hold reason",
            "chatty": f"The hold on {phrase} is lifted as of {day}: it goes back to {back}, and clear the hold reason",
            "keyvalue": keyvalue(
                "job update", [("job", phrase), ("status", back), ("hold reason", "none"), ("date", day)]
            ),
        }
        return Draft({"job": job.code, "state": job.state, "reason": None}, gold, texts, [*said, back, day])

    def job_reopened(self) -> Draft | None:
        jobs = [
            j for j in self.jobs.values() if j.state == "delivered" and j.since < self.day and j.code != self.quiet_job
        ]
        if not jobs:
            return None
        jobs = [j for j in jobs if self.owes(j.client) >= j.fee]  # a sent-back job the client has not paid for
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        phrase, key, said = self.job_said(job)
        when = self.date(job.delivered) if job.delivered else ""
        job.state, job.delivered, job.since = "in_review", None, self.day
        gold = [f"UPDATE jobs SET job_state = 'in_review', delivered_on = NULL WHERE job_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | sent back by {job.client}, not delivered after all, no delivery date, back in review",
            "chatty": f"{job.client} rejected what we delivered on {when} for {phrase}; as of {day} it's back in review "
            "and no longer counts as delivered (no delivery date)",
            "keyvalue": keyvalue(
                "job update",
                [("job", phrase), ("status", "in review"), ("delivered on", "none, sent back"), ("date", day)],
            ),
        }
        return Draft({"job": job.code, "state": "in_review", "delivered_on": None}, gold, texts, [*said, day])

    # -- changes: a value read from another row of the same table -----------------------------------

    def deadline_same(self) -> Draft | None:
        jobs = [j for j in self.open_jobs() if j.deadline >= self.day]
        pairs = [
            (a, b)
            for a in jobs
            for b in self.jobs.values()
            if b.deadline != a.deadline and b.deadline >= self.day and b.state in OPEN and b.client == a.client
        ]
        pairs = pairs or [(a, b) for a in jobs for b in jobs if b.deadline != a.deadline]
        if not pairs:
            return None
        job, other = self.rng.choice(pairs)
        job.deadline = other.deadline
        gold = [
            f"UPDATE jobs SET deadline = (SELECT deadline FROM jobs WHERE job_code = '{other.code}') "
            f"WHERE job_code = '{job.code}'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | deadline | {job.code} | due the same day as {other.code}",
            "chatty": f"{job.client} wants {job.code} delivered together with {other.code}, so give it the same "
            f"deadline ({day})",
            "keyvalue": keyvalue(
                "job update", [("job", job.code), ("deadline", f"same as {other.code}"), ("date", day)]
            ),
        }
        facts = {"job": job.code, "same_deadline_as": other.code, "deadline": job.deadline.isoformat()}
        return Draft(facts, gold, texts, [job.code, other.code, day])

    def email_shared(self) -> Draft | None:
        people = sorted(self.clients.values(), key=lambda c: c.name)
        pairs = [(a, b) for a in people for b in people if b.email and a.email != b.email and a.opened < self.day]
        if not pairs:
            return None
        client, other = self.rng.choice(pairs)
        client.email = other.email
        gold = [
            "UPDATE client_accounts SET contact_email = (SELECT contact_email FROM client_accounts WHERE "
            f"company_name = {sql_text(other.name)}) WHERE company_name = {sql_text(client.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | client contact | {client.name} | email: same as {other.name}'s",
            "chatty": f"{client.name} now orders through the same procurement desk as {other.name}: use "
            f"{other.name}'s contact email for them too ({day})",
            "keyvalue": keyvalue(
                "client contact", [("client", client.name), ("email", f"same as {other.name}"), ("date", day)]
            ),
        }
        facts = {"client": client.name, "same_email_as": other.name, "email": other.email}
        return Draft(facts, gold, texts, [client.name, other.name, day])

    def rate_matched(self) -> Draft | None:
        people = sorted((x for x in self.linguists.values() if x.joined < self.day), key=lambda x: x.name)
        pairs = [(a, b) for a in people for b in people if a.rate != b.rate and a.vetting == b.vetting]
        if not pairs:
            return None
        linguist, other = self.rng.choice(pairs)
        linguist.rate = other.rate
        gold = [
            "UPDATE linguists SET word_rate = (SELECT word_rate FROM linguists WHERE linguist_name = "
            f"{sql_text(other.name)}) WHERE linguist_name = {sql_text(linguist.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | linguist rate | {linguist.name} | same rate as {other.name}",
            "chatty": f"We agreed on {day} to pay {linguist.name} what we pay {other.name} per word",
            "keyvalue": keyvalue(
                "linguist rate", [("linguist", linguist.name), ("rate", f"same as {other.name}"), ("from", day)]
            ),
        }
        facts = {"linguist": linguist.name, "same_rate_as": other.name, "rate": other.rate / 100}
        return Draft(facts, gold, texts, [linguist.name, other.name, day])

    # -- changes: a number raised or lowered ----------------------------------------------------------

    def _words_change(self, more: bool) -> Draft | None:
        jobs = [j for j in self.open_jobs() if more or j.words >= 600]
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        n = self.rng.randrange(2, 16) * 50 if more else self.rng.randrange(2, min(10, job.words // 100)) * 50
        card = self.card[(job.field, job.urgency)]
        phrase, key, said = self.job_said(job)
        sign = "+" if more else "-"
        job.words += n if more else -n
        job.fee += n * card * (1 if more else -1)
        gold = [
            f"UPDATE jobs SET word_count = word_count {sign} {n}, job_fee = job_fee {sign} {n} * "
            f"{_card(job.field, job.urgency)} WHERE job_code = {key}"
        ]
        amount, n_said = self.words(n)
        day = self.date(self.day)
        if more:
            texts = {
                "log": f"{day} | {phrase} | {amount} more words (extra annex), fee up at card rate",
                "chatty": f"{job.client} added an annex to {phrase} on {day}: {amount} more words, charged at the "
                "card rate",
                "keyvalue": keyvalue(
                    "job update", [("job", phrase), ("extra words", amount), ("fee", "card rate"), ("date", day)]
                ),
            }
        else:
            texts = {
                "log": f"{day} | {phrase} | {amount} words fewer (appendix dropped), fee down at card rate",
                "chatty": f"{job.client} took the appendix out of {phrase} on {day}, {amount} words fewer; take "
                "them off the fee at the card rate",
                "keyvalue": keyvalue(
                    "job update", [("job", phrase), ("words removed", amount), ("fee", "card rate"), ("date", day)]
                ),
            }
        facts = {"job": job.code, "change": n if more else -n, "words": job.words, "fee": job.fee / 100}
        return Draft(facts, gold, texts, [*said, *n_said, day])

    def words_added(self) -> Draft | None:
        return self._words_change(more=True)

    def words_cut(self) -> Draft | None:
        return self._words_change(more=False)

    def card_raised(self) -> Draft | None:
        field_, urgency = self.rng.choice(sorted(self.card))
        n = self.rng.choice((1, 1, 2))
        self.card[(field_, urgency)] += n
        gold = [
            f"UPDATE rate_card SET client_rate = client_rate + {rate(n)} WHERE subject_field = '{field_}' "
            f"AND urgency = '{urgency}'"
        ]
        turnaround = self.rng.choice(URGENCY_SAID[urgency])
        day, up = self.date(self.day), rate(n)
        texts = {
            "log": f"{day} | rate card | {field_}, {turnaround} | +€{up} per word",
            "chatty": f"From {day} we charge €{up} a word more for {field_} work at {turnaround}",
            "keyvalue": keyvalue(
                "rate card",
                [("subject", field_), ("turnaround", turnaround), ("increase", f"{up} per word")] + [("from", day)],
            ),
        }
        facts = {"field": field_, "urgency": urgency, "change": n / 100, "rate": self.card[(field_, urgency)] / 100}
        return Draft(facts, gold, texts, [field_, turnaround, up, day])

    def capacity_changed(self) -> Draft | None:
        linguists = [x for x in self.linguists.values() if x.joined < self.day]
        if not linguists:
            return None
        linguist = self.rng.choice(linguists)
        more = self.rng.random() < 0.6
        n = self.rng.randrange(2, 7) * 500
        linguist.weekly += n if more else -n
        gold = [
            f"UPDATE linguists SET weekly_words = weekly_words {'+' if more else '-'} {n} "
            f"WHERE linguist_name = {sql_text(linguist.name)}"
        ]
        amount, said = self.words(n)
        day = self.date(self.day)
        how = "more" if more else "fewer"
        texts = {
            "log": f"{day} | capacity | {linguist.name} | {amount} {how} words a week",
            "chatty": f"{linguist.name} can handle {amount} {how} words a week from {day}",
            "keyvalue": keyvalue(
                "capacity", [("linguist", linguist.name), (f"{how} words a week", amount), ("from", day)]
            ),
        }
        facts = {"linguist": linguist.name, "change": n if more else -n, "weekly_words": linguist.weekly}
        return Draft(facts, gold, texts, [linguist.name, *said, day])

    # -- changes: a row removed -------------------------------------------------------------------------

    def term_deleted(self) -> Draft | None:
        terms = [t for t in self.terms if t.status == "proposed" and t.day < self.day]
        if not terms:
            return None
        term = self.rng.choice(terms)
        self.terms.remove(term)
        gold = [
            f"DELETE FROM glossary_terms WHERE account_no = {_client(term.client)} AND source_term = {sql_text(term.term)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f'{day} | glossary | {term.client} | "{term.term}" rejected by the client, delete it',
            "chatty": f'{term.client} doesn\'t want "{term.term}" in their glossary at all; delete that entry ({day})',
            "keyvalue": keyvalue(
                "glossary term", [("client", term.client), ("term", term.term), ("action", "delete"), ("date", day)]
            ),
        }
        return Draft({"client": term.client, "term": term.term}, gold, texts, [term.client, term.term, day])

    def pair_dropped(self) -> Draft | None:
        options = [
            (x, p)
            for x in self.linguists.values()
            for p in x.pairs
            if len(x.pairs) > 1 and sum(p in y.pairs for y in self.linguists.values()) >= 3
        ]
        if not options:
            return None
        linguist, (source, target) = self.rng.choice(options)
        linguist.pairs.remove((source, target))
        self.dropped.add((linguist.name, (source, target)))
        gold = [
            f"DELETE FROM linguist_pairs WHERE linguist_no = {_linguist(linguist.name)} AND source_lang = '{source}' "
            f"AND target_lang = '{target}'"
        ]
        pair, p_said = self.pair_said(source, target)
        day = self.date(self.day)
        texts = {
            "log": f"{day} | language pair | {linguist.name} | drops {pair}",
            "chatty": f"{linguist.name} doesn't want {pair} work any more (told us {day}); take that pair off them",
            "keyvalue": keyvalue("language pair", [("linguist", linguist.name), ("pair removed", pair), ("date", day)]),
        }
        facts = {"linguist": linguist.name, "source": source, "target": target}
        return Draft(facts, gold, texts, [linguist.name, *p_said, day])

    def payment_voided(self) -> Draft | None:
        receipts = [r for r in self.receipts if START <= r.day < self.day]
        if not receipts:
            return None
        receipt = self.rng.choice(receipts)
        self.receipts.remove(receipt)
        gold = [
            f"DELETE FROM client_receipts WHERE account_no = {_client(receipt.client)} AND received_on = "
            f"{sql_date(receipt.day)} AND amount = {euros(receipt.cents)}"
        ]
        when, day, amount = self.date(receipt.day), self.date(self.day), euros(receipt.cents)
        why = "the cheque bounced" if receipt.via == "cheque" else "the payment was reversed"
        texts = {
            "log": f"{day} | payment void | {receipt.client} | €{amount} of {when} | {why}, delete it",
            "chatty": f"The €{amount} {receipt.client} paid on {when} never arrived — {why}; delete that payment ({day})",
            "keyvalue": keyvalue(
                "payment void",
                [("client", receipt.client), ("amount", amount), ("paid on", when), ("reason", why), ("date", day)],
            ),
        }
        facts = {"client": receipt.client, "received_on": receipt.day.isoformat(), "amount": receipt.cents / 100}
        return Draft(facts, gold, texts, [receipt.client, amount, when, day])

    # -- changes: a number raised and a row removed --------------------------------------------------------

    def jobs_merged(self) -> Draft | None:
        quoted = [
            j
            for j in self.jobs.values()
            if j.state == "quoted" and j.since < self.day and not any(a.job == j.code for a in self.assignments)
        ]
        pairs = [
            (a, b)
            for a in quoted
            for b in quoted
            if a.code < b.code
            and (a.client, a.source, a.target, a.field, a.urgency) == (b.client, b.source, b.target, b.field, b.urgency)
        ]
        if not pairs:
            return None
        job, other = self.rng.choice(pairs)
        del self.jobs[other.code]
        job.words += other.words
        job.fee += other.fee
        gold = [
            f"UPDATE jobs SET word_count = word_count + {other.words}, job_fee = job_fee + {euros(other.fee)} "
            f"WHERE job_code = '{job.code}'",
            f"DELETE FROM jobs WHERE job_code = '{other.code}'",
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | merge | {other.code} into {job.code} | one job now: add its words and fee to "
            f"{job.code}, delete {other.code}",
            "chatty": f"{job.client} wants {other.code} and {job.code} handled as one job: fold {other.code}'s words "
            f"and fee into {job.code} and delete {other.code} ({day})",
            "keyvalue": keyvalue(
                "jobs merged",
                [("keep", job.code), ("merge in and delete", other.code), ("words and fee", "added together")]
                + [("date", day)],
            ),
        }
        facts = {"job": job.code, "merged": other.code, "words": job.words, "fee": job.fee / 100}
        return Draft(facts, gold, texts, [job.code, other.code, day])

    # -- questions ----------------------------------------------------------------------------------

    def questions(self) -> list[Question]:
        rng = self.rng
        jobs = list(self.jobs.values())
        job = rng.choice(jobs)
        translated = rng.choice([a for a in self.assignments if a.role == "translation"])
        reviewed = rng.choice([a for a in self.assignments if a.role == "review"])
        linguist = rng.choice(sorted(self.linguists))
        pair = rng.choice(self.covered_pairs())
        p_name = f"{LANG_SAID[pair[0]][0]} into {LANG_SAID[pair[1]][0]}"
        glossed = rng.choice(sorted({t.client for t in self.terms}))
        sender = rng.choice(sorted({j.client for j in jobs}))
        payers = sorted({r.client for r in self.receipts})
        payer = rng.choice(payers)
        billed = sorted({j.client for j in jobs if j.state == "delivered"})
        debtor = rng.choice([n for n in billed if self.owes(n) > 0] or billed)
        emailed = rng.choice([c.name for c in self.clients.values() if c.email])
        field_, urgency = rng.choice(sorted(self.card))
        turnaround = URGENCY_SAID[urgency][0]
        target = rng.choice(sorted({j.target for j in jobs}))
        deadlines = sorted(j.deadline for j in jobs if j.received >= START)
        first = rng.choice(deadlines[: len(deadlines) // 2 + 1])
        span = (first - dt.timedelta(days=rng.randint(0, 2)), first + dt.timedelta(days=rng.randint(5, 10)))
        received = sorted(j.received for j in jobs if j.received >= START)
        in_span = (received[0] - dt.timedelta(days=rng.randint(0, 3)), received[len(received) // 2])
        month = rng.choice(sorted({r.day.replace(day=1) for r in self.receipts if r.day >= START}))
        after = (month + dt.timedelta(days=32)).replace(day=1)
        form = rng.choice((1, 2))

        def said(day: dt.date) -> str:
            return date_forms(day)[form]

        named = "FROM jobs j JOIN client_accounts a ON a.account_no = j.account_no"
        work = "FROM assignments s JOIN linguists l ON l.linguist_no = s.linguist_no"
        paid = "FROM client_receipts r JOIN client_accounts a ON a.account_no = r.account_no"
        rows = [
            ("count", "How many jobs are being translated or reviewed right now?",
             "SELECT count(*) FROM jobs WHERE job_state IN ('in_translation', 'in_review')"),
            ("count", "How many jobs have we delivered?", "SELECT count(*) FROM jobs WHERE job_state = 'delivered'"),
            ("count", f"How many of our linguists translate {p_name}?",
             f"SELECT count(*) FROM linguist_pairs WHERE source_lang = '{pair[0]}' AND target_lang = '{pair[1]}'"),
            ("count", f"How many terms are in {glossed}'s glossary?",
             f"SELECT count(*) FROM glossary_terms g JOIN client_accounts a ON a.account_no = g.account_no "
             f"WHERE a.company_name = {sql_text(glossed)}"),
            ("count", f"How many jobs has {sender} sent us?",
             f"SELECT count(*) {named} WHERE a.company_name = {sql_text(sender)}"),
            ("sum", f"How many words have we had from {sender}, leaving out cancelled jobs?",
             f"SELECT sum(j.word_count) {named} WHERE a.company_name = {sql_text(sender)} "
             "AND j.job_state <> 'cancelled'"),
            ("sum", "How much have clients paid us altogether?", "SELECT sum(amount) FROM client_receipts"),
            ("sum", f"How much has {payer} paid us in total?",
             f"SELECT sum(r.amount) {paid} WHERE a.company_name = {sql_text(payer)}"),
            ("sum", "How many words are in jobs that are still open (quoted, in translation, in review or on hold)?",
             "SELECT sum(word_count) FROM jobs WHERE job_state IN ('quoted', 'in_translation', 'in_review', 'on_hold')"),
            ("lookup", f"When is {job.code} due?", f"SELECT deadline FROM jobs WHERE job_code = '{job.code}'"),
            ("lookup", f"Who translated {translated.job}?",
             f"SELECT l.linguist_name {work} WHERE s.job_code = '{translated.job}' AND s.task_role = 'translation'"),
            ("lookup", f"Who is the reviewer on {reviewed.job}, and at what rate?",
             f"SELECT l.linguist_name, s.agreed_rate {work} WHERE s.job_code = '{reviewed.job}' "
             "AND s.task_role = 'review'"),
            ("lookup", f"What per-word rate do we pay {linguist}?",
             f"SELECT word_rate FROM linguists WHERE linguist_name = {sql_text(linguist)}"),
            ("lookup", f"What state is {job.code} in?", f"SELECT job_state FROM jobs WHERE job_code = '{job.code}'"),
            ("lookup", f"What does the rate card charge per word for {field_} work at {turnaround}?",
             f"SELECT client_rate FROM rate_card WHERE subject_field = '{field_}' AND urgency = '{urgency}'"),
            ("lookup", f"What is the contact email for {emailed}?",
             f"SELECT contact_email FROM client_accounts WHERE company_name = {sql_text(emailed)}"),
            ("grouped", "How many jobs are there in each state?",
             "SELECT job_state, count(*) FROM jobs GROUP BY job_state ORDER BY job_state"),
            ("grouped", "How many words have we taken on per target language, cancelled jobs aside?",
             "SELECT target_lang, sum(word_count) FROM jobs WHERE job_state <> 'cancelled' GROUP BY target_lang "
             "ORDER BY target_lang"),
            ("grouped", "How much has come in by each way of paying?",
             "SELECT pay_channel, sum(amount) FROM client_receipts GROUP BY pay_channel ORDER BY pay_channel"),
            ("grouped", "How many jobs has each linguist translated?",
             f"SELECT l.linguist_name, count(*) {work} WHERE s.task_role = 'translation' GROUP BY l.linguist_name "
             "ORDER BY l.linguist_name"),
            ("grouped", "How many glossary terms are there of each status?",
             "SELECT term_status, count(*) FROM glossary_terms GROUP BY term_status ORDER BY term_status"),
            ("top", "Which client has sent us the most words, and how many?",
             f"SELECT a.company_name, sum(j.word_count) AS words {named} GROUP BY a.company_name "
             "ORDER BY words DESC, a.company_name LIMIT 1"),
            ("top", "Which three jobs have the biggest fees?",
             "SELECT job_code, job_fee FROM jobs ORDER BY job_fee DESC, job_code LIMIT 3"),
            ("top", "Which linguist has the most assignments, translating and reviewing together?",
             f"SELECT l.linguist_name, count(*) AS n {work} GROUP BY l.linguist_name ORDER BY n DESC, "
             "l.linguist_name LIMIT 1"),
            ("top", "What was the largest payment we received, and from whom?",
             f"SELECT a.company_name, r.amount, r.received_on {paid} ORDER BY r.amount DESC, r.received_on LIMIT 1"),
            ("range", f"Which jobs are due between {said(span[0])} and {said(span[1])}?",
             f"SELECT job_code, deadline FROM jobs WHERE deadline BETWEEN {sql_date(span[0])} AND {sql_date(span[1])} "
             "ORDER BY deadline, job_code"),
            ("range", f"How much did clients pay in {month.strftime('%B %Y')}?",
             f"SELECT sum(amount) FROM client_receipts WHERE received_on >= {sql_date(month)} "
             f"AND received_on < {sql_date(after)}"),
            ("range", f"Which jobs came in between {said(in_span[0])} and {said(in_span[1])}?",
             f"SELECT job_code FROM jobs WHERE received_on BETWEEN {sql_date(in_span[0])} AND {sql_date(in_span[1])} "
             "ORDER BY job_code"),
            ("derived", f"How much does {debtor} owe us?",
             f"SELECT balance_due FROM client_accounts WHERE company_name = {sql_text(debtor)}"),
            ("derived", "How much do our clients owe us between them?", "SELECT sum(balance_due) FROM client_accounts"),
            ("derived", "Which client owes us the most, and how much?",
             "SELECT company_name, balance_due FROM client_accounts ORDER BY balance_due DESC, company_name LIMIT 1"),
            ("derived", "For each job with a translator, what is its fee minus what the translator is paid for it?",
             "SELECT j.job_code, j.job_fee - j.word_count * s.agreed_rate FROM jobs j JOIN assignments s "
             "ON s.job_code = j.job_code AND s.task_role = 'translation' ORDER BY j.job_code"),
            ("none", "Which linguists have never been given a job to translate or review?",
             "SELECT linguist_name FROM linguists WHERE linguist_no NOT IN (SELECT linguist_no FROM assignments) "
             "ORDER BY linguist_name"),
            ("none", "Which clients have no glossary terms?",
             "SELECT company_name FROM client_accounts WHERE account_no NOT IN (SELECT account_no FROM glossary_terms) "
             "ORDER BY company_name"),
            ("none", "Which jobs have no purchase-order number?",
             "SELECT job_code FROM jobs WHERE po_number IS NULL ORDER BY job_code"),
            ("average", "What is the average word count of a job?", "SELECT avg(word_count) FROM jobs"),
            ("average", "What do we pay reviewers per word on average?",
             "SELECT avg(agreed_rate) FROM assignments WHERE task_role = 'review'"),
            ("category", "Which of our linguists are sworn translators?",
             "SELECT linguist_name FROM linguists WHERE vetting_level = 'sworn' ORDER BY linguist_name"),
            ("category", f"Which jobs go into {LANG_SAID[target][0]}, and what state is each in?",
             f"SELECT job_code, job_state FROM jobs WHERE target_lang = '{target}' ORDER BY job_code"),
            ("category", "Which jobs are legal or medical texts?",
             "SELECT job_code FROM jobs WHERE subject_field IN ('legal', 'medical') ORDER BY job_code"),
        ]  # fmt: skip
        return [Question(f"q{i:02d}", text, gold, family) for i, (family, text, gold) in enumerate(rows, 1)]


def build(seed: int = 0) -> Trade:
    """The translation-agency trade generated from `seed`: the first log drawn from `random.Random(seed)` that places
    every record (a draw whose kinds left stop fitting is dropped, and the same generator draws again)."""
    rng = random.Random(seed)
    for _ in range(DRAWS):
        agency = Agency(rng, seed)
        if agency.run():
            break
    else:
        raise RuntimeError(f"no log of seed {seed} placed its records in {DRAWS} draws")
    return Trade(
        name="translation",
        description="A translation agency: a rate card by subject and turnaround, freelance linguists and their "
        "language pairs, client accounts, jobs with word counts and deadlines, translator and reviewer assignments, "
        "client glossaries and payments received.",
        schema=SCHEMA,
        reference=agency.reference,
        rules=(DUE,),
        records=tuple(agency.records),
        questions=tuple(agency.questions()),
        snapshot=dict(SNAPSHOT),
        checks=dict(CHECKS),
    )
