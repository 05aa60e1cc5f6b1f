"""A neighbourhood lending library: members on membership tiers, items on coded shelves at three branches,
loans with due dates, late fines, fine payments and holds; a member's balance_due is the fines on their
loans minus their fine payments.

DuckDB rewrites an UPDATE of an indexed column as a delete and an insert, which a foreign key pointing at
the row refuses; items are pointed at by loans and holds, so `items.branch_code` (changed when an item
moves) is kept without a REFERENCES clause.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, replace
from decimal import Decimal

import duckdb

from .base import (
    WORDINGS,
    Question,
    Record,
    Rule,
    Trade,
    Turns,
    connect,
    date_forms,
    in_words,
    keyvalue,
    load,
    lookup,
    sql_text,
)

SCHEMA = """
CREATE SEQUENCE member_seq START 1;
CREATE SEQUENCE loan_seq START 1;
CREATE SEQUENCE fine_seq START 1;
CREATE SEQUENCE payment_seq START 1;
CREATE SEQUENCE branch_event_seq START 1;
CREATE SEQUENCE donation_seq START 1;

CREATE TABLE branches (
    branch_code VARCHAR PRIMARY KEY,
    branch_name VARCHAR NOT NULL UNIQUE,
    street VARCHAR NOT NULL
);

CREATE TABLE tier_terms (
    tier VARCHAR PRIMARY KEY CHECK (tier IN ('standard', 'student', 'senior')),
    loan_limit INTEGER NOT NULL,
    daily_fine DECIMAL(4, 2) NOT NULL
);

CREATE TABLE members (
    member_id INTEGER PRIMARY KEY DEFAULT nextval('member_seq'),
    member_name VARCHAR NOT NULL UNIQUE,
    tier VARCHAR NOT NULL REFERENCES tier_terms (tier) CHECK (tier IN ('standard', 'student', 'senior')),
    phone VARCHAR,
    email VARCHAR,
    home_branch VARCHAR NOT NULL REFERENCES branches (branch_code),
    joined_on DATE NOT NULL,
    balance_due DECIMAL(8, 2) NOT NULL DEFAULT 0
);

CREATE TABLE items (
    shelf_code VARCHAR PRIMARY KEY,
    title VARCHAR NOT NULL UNIQUE,
    kind VARCHAR NOT NULL CHECK (kind IN ('book', 'dvd', 'boardgame', 'magazine')),
    branch_code VARCHAR NOT NULL,
    item_status VARCHAR NOT NULL DEFAULT 'shelved' CHECK (item_status IN ('shelved', 'lost', 'repair')),
    acquired_on DATE NOT NULL
);

CREATE TABLE loans (
    loan_id INTEGER PRIMARY KEY DEFAULT nextval('loan_seq'),
    member_id INTEGER NOT NULL REFERENCES members (member_id),
    shelf_code VARCHAR NOT NULL REFERENCES items (shelf_code),
    lent_on DATE NOT NULL,
    due_on DATE NOT NULL,
    checked_in_on DATE
);

CREATE TABLE fines (
    fine_id INTEGER PRIMARY KEY DEFAULT nextval('fine_seq'),
    loan_id INTEGER NOT NULL UNIQUE REFERENCES loans (loan_id),
    days_late INTEGER NOT NULL,
    amount DECIMAL(6, 2) NOT NULL,
    charged_on DATE NOT NULL
);

CREATE TABLE fine_payments (
    payment_id INTEGER PRIMARY KEY DEFAULT nextval('payment_seq'),
    member_id INTEGER NOT NULL REFERENCES members (member_id),
    paid_on DATE NOT NULL,
    amount DECIMAL(6, 2) NOT NULL CHECK (amount > 0),
    method VARCHAR NOT NULL CHECK (method IN ('cash', 'card', 'transfer'))
);

CREATE TABLE holds (
    member_id INTEGER NOT NULL REFERENCES members (member_id),
    shelf_code VARCHAR NOT NULL REFERENCES items (shelf_code),
    placed_on DATE NOT NULL,
    pickup_branch VARCHAR NOT NULL REFERENCES branches (branch_code),
    PRIMARY KEY (member_id, shelf_code)
);

CREATE TABLE branch_events (
    branch_event_id INTEGER PRIMARY KEY DEFAULT nextval('branch_event_seq'),
    branch_code VARCHAR NOT NULL REFERENCES branches (branch_code),
    held_on DATE NOT NULL,
    activity VARCHAR NOT NULL CHECK (activity IN ('storytime', 'book club', 'craft session', 'author talk')),
    attendees INTEGER NOT NULL CHECK (attendees >= 0)
);

CREATE TABLE donations (
    donation_id INTEGER PRIMARY KEY DEFAULT nextval('donation_seq'),
    donor VARCHAR NOT NULL,
    branch_code VARCHAR NOT NULL REFERENCES branches (branch_code),
    received_on DATE NOT NULL,
    contents VARCHAR NOT NULL CHECK (contents IN ('books', 'dvds', 'games', 'magazines')),
    boxes INTEGER NOT NULL CHECK (boxes > 0)
);
"""

BALANCE_RULE = Rule(
    name="balance_due",
    sentence="A member's balance_due is the fines on their loans minus the fine payments they have made.",
    sql="""UPDATE members SET balance_due =
    coalesce((SELECT sum(f.amount) FROM fines f JOIN loans l ON l.loan_id = f.loan_id
              WHERE l.member_id = members.member_id), 0)
  - coalesce((SELECT sum(p.amount) FROM fine_payments p WHERE p.member_id = members.member_id), 0)""",
)

SNAPSHOT = {
    "members": """SELECT m.member_name, m.tier, m.phone, m.email, b.branch_name, m.joined_on, m.balance_due
FROM members m LEFT JOIN branches b ON b.branch_code = m.home_branch""",
    "items": """SELECT i.shelf_code, i.title, i.kind, b.branch_name, i.item_status, i.acquired_on
FROM items i LEFT JOIN branches b ON b.branch_code = i.branch_code""",
    "loans": """SELECT m.member_name, l.shelf_code, l.lent_on, l.due_on, l.checked_in_on
FROM loans l JOIN members m ON m.member_id = l.member_id""",
    "fines": """SELECT m.member_name, l.shelf_code, l.lent_on, f.days_late, f.amount, f.charged_on
FROM fines f JOIN loans l ON l.loan_id = f.loan_id JOIN members m ON m.member_id = l.member_id""",
    "fine_payments": """SELECT m.member_name, p.paid_on, p.amount, p.method
FROM fine_payments p JOIN members m ON m.member_id = p.member_id""",
    "holds": """SELECT m.member_name, h.shelf_code, h.placed_on, b.branch_name
FROM holds h JOIN members m ON m.member_id = h.member_id JOIN branches b ON b.branch_code = h.pickup_branch""",
    "branch_events": """SELECT b.branch_name, e.held_on, e.activity, e.attendees
FROM branch_events e JOIN branches b ON b.branch_code = e.branch_code""",
    "donations": """SELECT d.donor, b.branch_name, d.received_on, d.contents, d.boxes
FROM donations d JOIN branches b ON b.branch_code = d.branch_code""",
}

CHECKS = {
    "balances": "SELECT member_name, balance_due FROM members WHERE balance_due <> 0",
    "items_by_status": "SELECT item_status, count(*) FROM items GROUP BY item_status",
    "items_by_branch": """SELECT b.branch_name, count(*) FROM items i JOIN branches b ON b.branch_code = i.branch_code
GROUP BY b.branch_name""",
    "open_loans": """SELECT m.member_name, l.shelf_code, l.due_on FROM loans l JOIN members m ON m.member_id = l.member_id
WHERE l.checked_in_on IS NULL""",
    "holds_waiting": """SELECT m.member_name, h.shelf_code, b.branch_name FROM holds h
JOIN members m ON m.member_id = h.member_id JOIN branches b ON b.branch_code = h.pickup_branch""",
}

BRANCHES = (
    ("CEN", "Central", "12 Market Street"),
    ("RIV", "Riverside", "3 Wharf Lane"),
    ("HIL", "Hillside", "48 Crown Road"),
)
BRANCH_CODE = {name: code for code, name, _ in BRANCHES}
TIERS = {"standard": (6, Decimal("0.20")), "student": (4, Decimal("0.10")), "senior": (6, Decimal("0.15"))}

# how a user names a tier: a short form for log lines and key: value, a phrase for a sentence
TIER_SHORT = {
    "standard": ("adult", "regular adult", "standard"),
    "student": ("student", "uni student", "student rate"),
    "senior": ("pensioner", "over-65", "senior citizen"),
}
TIER_PHRASE = {
    "standard": ("on a regular adult membership", "with an ordinary adult card", "as a full-price adult member"),
    "student": ("on a student card", "as a uni student", "on the student rate"),
    "senior": ("as a pensioner", "on the over-65s membership", "as a senior citizen"),
}
METHOD_SHORT = {
    "cash": ("cash", "coins", "notes"),
    "card": ("debit card", "contactless", "credit card"),
    "transfer": ("bank transfer", "online banking", "transfer"),
}
METHOD_PHRASE = {
    "cash": ("in cash", "in notes and coins", "with cash at the desk"),
    "card": ("by debit card", "with a card", "contactless at the desk"),
    "transfer": ("by bank transfer", "through online banking", "by transfer from a bank account"),
}
KIND_SAID = {
    "F": ("novel", "paperback novel", "hardback novel"),
    "N": ("non-fiction book", "non-fiction hardback", "reference book"),
    "D": ("DVD", "film on DVD", "film"),
    "G": ("board game", "family game", "strategy game"),
    "M": ("magazine", "mag", "magazine issue"),
}
LOST_SAID = ("lost", "missing", "gone missing")
ACTIVITY_SAID = {
    "storytime": ("storytime", "story time for under-fives", "toddler storytime"),
    "book club": ("book club", "reading group", "book group"),
    "craft session": ("craft session", "kids' craft afternoon", "craft club"),
    "author talk": ("author talk", "talk by a local author", "author visit"),
}
CONTENTS_SAID = {
    "books": ("books", "paperbacks", "children's books"),
    "dvds": ("DVDs", "films on DVD"),
    "games": ("board games", "jigsaws and games"),
    "magazines": ("magazines", "back issues of magazines"),
}
DONORS = (
    "Margaret Penrose",
    "the Adebayo family",
    "Hillside Rotary Club",
    "Dunmore Primary School",
    "Jules Ferrand",
    "the Quayle sisters",
)
SECTION_KIND = {"F": "book", "N": "book", "D": "dvd", "G": "boardgame", "M": "magazine"}
# a shelf code composed from words: (in a sentence, in a log line or key: value)
COMPOSED = {
    "F": ("fiction shelf no. {n}", "fiction {n}"),
    "N": ("non-fiction shelf no. {n}", "non-fiction {n}"),
    "D": ("DVD number {n}", "DVD {n}"),
    "G": ("board game number {n}", "game {n}"),
    "M": ("magazine number {n}", "magazine {n}"),
}

TITLES = {
    "F": (
        "Dune",
        "Charlotte's Web",
        "The Night Circus",
        "Rebecca",
        "Middlemarch",
        "The Remains of the Day",
        "Station Eleven",
        "Kindred",
        "The Hobbit",
        "Persuasion",
        "Brighton Rock",
        "Cold Comfort Farm",
        "The Secret History",
        "Small Island",
        "Wolf Hall",
    ),
    "N": (
        "Sapiens",
        "Being Mortal",
        "Salt",
        "Quiet",
        "The Gene",
        "Braiding Sweetgrass",
        "The Body",
        "H Is for Hawk",
        "Longitude",
    ),
    "D": (
        "Casablanca",
        "Spirited Away",
        "Paddington",
        "The Third Man",
        "Local Hero",
        "Brief Encounter",
        "Gregory's Girl",
        "Amelie",
    ),
    "G": ("Carcassonne", "Ticket to Ride", "Catan", "Pandemic", "Azul", "Dixit", "Codenames", "Kingdomino"),
    "M": (
        "Gardeners' World Spring",
        "Wired March",
        "Which? April",
        "Country Walking Spring",
        "BBC Wildlife March",
        "Good Food Easter",
    ),
}
START_ITEMS = {"F": 8, "N": 5, "D": 5, "G": 5, "M": 4}

NAMES = (
    "Ana Ruiz",
    "Tomasz Nowak",
    "Priya Raman",
    "Owen Blake",
    "Maeve Doyle",
    "Kwame Mensah",
    "Lena Fischer",
    "Hugo Marchetti",
    "Sara Lindqvist",
    "Dev Patel",
    "Rosa Ortiz",
    "Sam Ortiz",
    "Grace O'Neill",
    "Ibrahim Haddad",
    "Yuki Tanaka",
    "Chloe Martin",
    "Felix Braun",
    "Nadia Petrova",
    "Joel Okafor",
    "Iris Vance",
    "Ben Carter",
    "Mina Park",
    "Leo Santos",
    "Ruth Abbott",
    "Pavel Horak",
    "Elena Costa",
    "Finn Gallagher",
    "Aisha Bello",
)

KIND_COUNTS = {
    "loan": 11,
    "return": 10,
    "payment": 7,
    "join": 6,
    "hold": 5,
    "move": 4,
    "contact": 7,
    "lost": 3,
    "extend": 4,
    "acquire": 3,
    "event": 3,
    "attendance": 3,
    "donation": 2,
}
# (kind, variant) -> the class whose records take the wordings in turn (`Turns`): each in every wording
TURNS = {
    ("contact", "clear"): "clear",
    ("contact", "unlist"): "clear",
    ("contact", "copy"): "copy",
    ("move", "copy"): "copy",
    ("event", ""): "event",
    ("attendance", "up"): "attendance",
    ("attendance", "down"): "attendance",
    ("donation", ""): "donation",
}
FIRST_DAY = dt.date(2024, 3, 4)
SPAN_DAYS = 56


@dataclass
class Member:
    name: str
    tier: str
    phone: str | None
    email: str | None
    branch: str
    joined: dt.date


@dataclass
class Item:
    code: str
    title: str
    branch: str
    acquired: dt.date
    status: str = "shelved"

    @property
    def section(self) -> str:
        return self.code[0]


@dataclass
class Loan:
    member: str
    code: str
    lent: dt.date
    due: dt.date
    back: dt.date | None = None
    first_due: dt.date | None = None

    def __post_init__(self) -> None:
        self.first_due = self.due


@dataclass
class Ref:
    """How a text names an item: the phrase in a sentence, in a log line, in key: value, what it states, its SQL."""

    chatty: str
    log: str
    kv: str
    stated: tuple[str, ...]
    sql: str


class Library:
    """The facts so far, kept in Python so each new record is valid on the state before it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.members: dict[str, Member] = {}
        self.items: dict[str, Item] = {}
        self.loans: list[Loan] = []
        self.fines: list[tuple[str, Decimal]] = []
        self.payments: list[tuple[str, Decimal]] = []
        self.holds: dict[tuple[str, str], tuple[dt.date, str]] = {}
        self.phones = iter(rng.sample(range(100, 999), 60))
        self.free_names: list[str] = []
        self.free_titles: dict[str, list[str]] = {}
        self.free_numbers: dict[str, list[int]] = {}
        self.events: dict[tuple[str, dt.date], list] = {}  # (branch, day) -> [activity, attendees]
        self.donors = rng.sample(DONORS, len(DONORS))

    def phone(self) -> str:
        return f"07700 900{next(self.phones)}"

    def email(self, name: str) -> str:
        first, last = name.lower().replace("'", "").split(" ", 1)
        return f"{first}.{last.replace(' ', '')}@{self.rng.choice(('example.com', 'example.org', 'example.net'))}"

    def open_loans(self) -> list[Loan]:
        return [loan for loan in self.loans if loan.back is None]

    def on_loan(self, code: str) -> bool:
        return any(loan.code == code for loan in self.open_loans())

    def loans_of(self, member: str) -> int:
        return sum(1 for loan in self.open_loans() if loan.member == member)

    def can_borrow(self, member: str, n: int = 1) -> bool:
        return self.loans_of(member) + n <= TIERS[self.members[member].tier][0]

    def lendable(self, member: str | None = None) -> list[Item]:
        """Items on the shelf that no one else holds."""
        held = {code for (who, code) in self.holds if who != member}
        return [
            i for i in self.items.values() if i.status == "shelved" and not self.on_loan(i.code) and i.code not in held
        ]

    def balance(self, member: str) -> Decimal:
        charged = sum((a for m, a in self.fines if m == member), Decimal(0))
        return charged - sum((a for m, a in self.payments if m == member), Decimal(0))


def build(seed: int = 0) -> Trade:
    """The library trade generated from `seed`."""
    rng = random.Random(seed)
    lib = Library(rng)
    reference = _reference(lib)
    records = _records(lib)
    trade = Trade(
        name="library",
        description="A neighbourhood lending library: members, coded items at three branches, loans, fines, payments, holds.",
        schema=SCHEMA,
        reference=reference,
        rules=(BALANCE_RULE,),
        records=tuple(records),
        questions=(),
        snapshot=SNAPSHOT,
        checks=CHECKS,
    )
    con = connect()
    try:
        load(con, trade)
        questions = _questions(con, rng)
    finally:
        con.close()
    return replace(trade, questions=tuple(questions))


# -- reference rows ---------------------------------------------------------------------------------


def _reference(lib: Library) -> str:
    """Branches, tier terms, the catalogue, ten members, their loans in January and February (some still
    out, some returned late with a fine), a payment and two holds."""
    rng = lib.rng
    names = rng.sample(NAMES, len(NAMES))
    lib.free_names = names[10:]
    for section, pool in TITLES.items():
        titles = rng.sample(pool, len(pool))
        numbers = sorted(rng.sample(range(1, 90), len(pool)))
        rng.shuffle(numbers)
        for title, number in zip(titles[: START_ITEMS[section]], numbers):
            code = f"{section}-{number:03d}"
            acquired = dt.date(2020, 1, 1) + dt.timedelta(days=rng.randint(0, 1400))
            lib.items[code] = Item(code, title, rng.choice(BRANCHES)[1], acquired)
        lib.free_titles[section] = titles[START_ITEMS[section] :]
        lib.free_numbers[section] = numbers[START_ITEMS[section] :]
    tiers = ["standard"] * 5 + ["student"] * 3 + ["senior"] * 2
    rng.shuffle(tiers)
    for name, tier in zip(names[:10], tiers):
        joined = dt.date(2021, 1, 1) + dt.timedelta(days=rng.randint(0, 1000))
        email = lib.email(name) if rng.random() < 0.7 else None
        lib.members[name] = Member(name, tier, lib.phone(), email, rng.choice(BRANCHES)[1], joined)

    codes = list(lib.items)
    rng.shuffle(codes)
    people = list(lib.members)
    late: list[Loan] = []
    for code in codes[:8]:
        lent = dt.date(2024, 1, 8) + dt.timedelta(days=rng.randint(0, 20))
        due = lent + dt.timedelta(days=rng.choice((14, 21)))
        back = due + dt.timedelta(days=rng.randint(-6, 6))
        loan = Loan(rng.choice(people), code, lent, due, back)
        lib.loans.append(loan)
        if back > due:
            late.append(loan)
    for code in codes[8:15]:
        lent = dt.date(2024, 2, 5) + dt.timedelta(days=rng.randint(0, 22))
        member = rng.choice([p for p in people if lib.can_borrow(p)])
        lib.loans.append(Loan(member, code, lent, lent + dt.timedelta(days=rng.choice((14, 21)))))
    if not late:
        loan = lib.loans[0]
        loan.back = loan.due + dt.timedelta(days=4)
        late.append(loan)

    fine_sql = []
    for loan in late:
        assert loan.back is not None
        days = (loan.back - loan.due).days
        amount = days * TIERS[lib.members[loan.member].tier][1]
        lib.fines.append((loan.member, amount))
        fine_sql.append(
            "INSERT INTO fines (loan_id, days_late, amount, charged_on) "
            f"SELECT loan_id, {days}, {amount:.2f}, checked_in_on FROM loans "
            f"WHERE shelf_code = {sql_text(loan.code)} AND lent_on = DATE '{loan.lent}';"
        )
    payer = late[0].member
    paid = (lib.balance(payer) / 2).quantize(Decimal("0.01"))
    payment_sql = ""
    if paid > 0:
        lib.payments.append((payer, paid))
        payment_sql = (
            "INSERT INTO fine_payments (member_id, paid_on, amount, method) VALUES "
            f"({_member_id(payer)}, DATE '2024-02-20', {paid:.2f}, 'cash');"
        )
    out = [loan for loan in lib.open_loans()]
    for loan in out[:2]:
        holder = rng.choice([p for p in people if p != loan.member])
        lib.holds[(holder, loan.code)] = (dt.date(2024, 2, 26), rng.choice(BRANCHES)[1])

    rows = [
        "INSERT INTO branches VALUES " + ", ".join(f"('{c}', '{n}', '{s}')" for c, n, s in BRANCHES) + ";",
        "INSERT INTO tier_terms VALUES "
        + ", ".join(f"('{t}', {limit}, {fine})" for t, (limit, fine) in TIERS.items())
        + ";",
        "INSERT INTO items (shelf_code, title, kind, branch_code, item_status, acquired_on) VALUES\n"
        + ",\n".join(
            f"('{i.code}', {sql_text(i.title)}, '{SECTION_KIND[i.section]}', '{BRANCH_CODE[i.branch]}', 'shelved', "
            f"DATE '{i.acquired}')"
            for i in lib.items.values()
        )
        + ";",
        "INSERT INTO members (member_name, tier, phone, email, home_branch, joined_on) VALUES\n"
        + ",\n".join(
            f"({sql_text(m.name)}, '{m.tier}', '{m.phone}', {_literal(m.email)}, '{BRANCH_CODE[m.branch]}', DATE '{m.joined}')"
            for m in lib.members.values()
        )
        + ";",
        "INSERT INTO loans (member_id, shelf_code, lent_on, due_on, checked_in_on) VALUES\n"
        + ",\n".join(
            f"({_member_id(loan.member)}, '{loan.code}', DATE '{loan.lent}', DATE '{loan.due}', {_date(loan.back)})"
            for loan in lib.loans
        )
        + ";",
        *fine_sql,
        payment_sql,
        "INSERT INTO holds (member_id, shelf_code, placed_on, pickup_branch) VALUES\n"
        + ",\n".join(
            f"({_member_id(who)}, '{code}', DATE '{placed}', '{BRANCH_CODE[branch]}')"
            for (who, code), (placed, branch) in lib.holds.items()
        )
        + ";",
    ]
    return "\n".join(row for row in rows if row)


def _member_id(name: str) -> str:
    return lookup("members", "member_id", "member_name", name)


def _branch_code(name: str) -> str:
    return lookup("branches", "branch_code", "branch_name", name)


def _literal(value: str | None) -> str:
    return "NULL" if value is None else sql_text(value)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _date(day: dt.date | None) -> str:
    return "NULL" if day is None else f"DATE '{day}'"


# -- records ----------------------------------------------------------------------------------------


def _records(lib: Library) -> list[Record]:
    rng = lib.rng
    kinds = [kind for kind, n in KIND_COUNTS.items() for _ in range(n)]
    rng.shuffle(kinds)
    days = sorted(FIRST_DAY + dt.timedelta(days=rng.randint(0, SPAN_DAYS)) for _ in kinds)
    variants = {
        "join": _shuffled(rng, ["loan", "none", "hold", "loan", "none", "hold"]),
        "contact": _shuffled(rng, ["phone", "email", "clear", "unlist", "clear", "copy", "copy"]),
        "move": _shuffled(rng, ["plain", "plain", "copy", "plain"]),
        "extend": _shuffled(rng, ["by", "until", "by", "until"]),
        "attendance": _shuffled(rng, ["up", "down", "up"]),
    }
    writers = {
        "loan": _loan,
        "return": _return,
        "payment": _payment,
        "join": _join,
        "hold": _hold,
        "move": _move,
        "contact": _contact,
        "lost": _lost,
        "extend": _extend,
        "acquire": _acquire,
        "event": _event,
        "attendance": _attendance,
        "donation": _donation,
    }
    turns = Turns(rng)
    records: list[Record] = []
    for i, day in enumerate(days):
        wording = WORDINGS[i % len(WORDINGS)]
        said = date_forms(day)[(i // len(WORDINGS)) % 4]
        for j in range(i, len(kinds)):
            kind = kinds[j]
            variant = variants[kind][0] if kind in variants and variants[kind] else ""
            turn = TURNS.get((kind, variant))
            made = writers[kind](lib, day, said, turns.next(turn) if turn else wording, variant)
            if made is not None:
                kinds[i], kinds[j] = kinds[j], kinds[i]
                if kind in variants and variants[kind]:
                    variants[kind].pop(0)
                if turn:
                    wording = turns.take(turn)
                break
        else:
            raise RuntimeError(f"no record kind fits on {day}")
        text, facts, gold, stated = made
        records.append(
            Record(
                f"r{i + 1:02d}",
                kind,
                wording,
                text,
                {"kind": kind, "date": day.isoformat(), **facts},
                tuple(gold),
                tuple(stated),
            )
        )
    return records


def _shuffled(rng: random.Random, values: list[str]) -> list[str]:
    rng.shuffle(values)
    return values


Made = tuple[str, dict[str, object], list[str], list[str]]


def _ref(lib: Library, item: Item, mode: str | None = None) -> Ref:
    """How a text names `item`: by title, by shelf code, both, or a code composed from words."""
    mode = mode or lib.rng.choices(("title", "code", "both", "composed"), (4, 2, 2, 2))[0]
    by_code = sql_text(item.code)
    if mode == "title":
        sql = f"(SELECT shelf_code FROM items WHERE title = {sql_text(item.title)})"
        return Ref(item.title, f'"{item.title}"', item.title, (item.title,), sql)
    if mode == "code":
        return Ref(item.code, item.code, item.code, (item.code,), by_code)
    if mode == "both":
        both = f"{item.title} ({item.code})"
        return Ref(both, f'"{item.title}" {item.code}', both, (item.title, item.code), by_code)
    sentence, short = COMPOSED[item.section]
    number = int(item.code[2:])
    return Ref(sentence.format(n=number), short.format(n=number), short.format(n=number), (), by_code)


def _period(rng: random.Random, days: int, extension: bool = False) -> tuple[str, list[str]]:
    """A number of days as a user says it: '14 days', 'two weeks', 'a fortnight', 'a week'."""
    weeks = days // 7
    words = ["a week" if weeks == 1 else f"{in_words(weeks)} weeks"]
    if days == 14 and not extension:
        words.append("a fortnight")
    if rng.random() < 0.35:
        return f"{days} days", [str(days)]
    return rng.choice(words), []


def _late(rng: random.Random, days: int) -> tuple[str, list[str]]:
    if days == 1:
        return "a day", []
    if days <= 12 and rng.random() < 0.5:
        return f"{in_words(days)} days", []
    return f"{days} days", [str(days)]


def _loan_sql(member: str, ref: Ref, lent: dt.date, due: dt.date) -> str:
    return (
        "INSERT INTO loans (member_id, shelf_code, lent_on, due_on) VALUES "
        f"({_member_id(member)}, {ref.sql}, DATE '{lent}', DATE '{due}')"
    )


def _loan(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    pickups = [
        (who, code)
        for (who, code), (placed, _) in lib.holds.items()
        if placed < day and lib.can_borrow(who) and code in {i.code for i in lib.lendable(who)}
    ]
    borrowers = [m for m in lib.members if lib.can_borrow(m) and lib.members[m].joined < day]
    if pickups and rng.random() < 0.5:
        member, code = rng.choice(pickups)
        chosen = [lib.items[code]]
    elif borrowers:
        member = rng.choice(borrowers)
        shelf = lib.lendable()
        n = 2 if rng.random() < 0.25 and len(shelf) >= 2 and lib.can_borrow(member, 2) else 1
        if not shelf:
            return None
        chosen = rng.sample(shelf, n)
    else:
        return None
    pickup = (member, chosen[0].code) in lib.holds
    days = rng.choice((7, 14, 14, 21, 21, 28))
    due = day + dt.timedelta(days=days)
    period, stated = _period(rng, days)
    refs = [_ref(lib, item) for item in chosen]
    for item in chosen:
        lib.loans.append(Loan(member, item.code, day, due))
    gold = [_loan_sql(member, ref, day, due) for ref in refs]
    if pickup:
        del lib.holds[(member, chosen[0].code)]
        gold.append(f"DELETE FROM holds WHERE member_id = {_member_id(member)} AND shelf_code = {refs[0].sql}")
    stated = [member, *stated, *(s for ref in refs for s in ref.stated)]
    if wording == "log":
        items = " + ".join(ref.log for ref in refs)
        text = f"{said} loan: {member}, {items}, {period}" + (" (hold collected)" if pickup else "")
    elif wording == "chatty":
        items = " and ".join(ref.chatty for ref in refs)
        if pickup:
            text = f"{member} collected {items} from the holds shelf on {said} and took it out for {period}."
        elif rng.random() < 0.5:
            text = f"{member} came in on {said} and borrowed {items} for {period}."
        else:
            text = f"{member} took out {items} on {said}, due back in {period}."
    else:
        pairs: list[tuple[str, object]] = [
            ("member", member),
            ("items" if len(refs) > 1 else "item", ", ".join(r.kv for r in refs)),
        ]
        pairs += [("date", said), ("loan period", period)]
        if pickup:
            pairs.append(("hold", "collected"))
        text = keyvalue("loan", pairs)
    facts = {
        "member": member,
        "items": [i.code for i in chosen],
        "days": days,
        "due_on": due.isoformat(),
        "hold_collected": pickup,
    }
    return text, facts, gold, [*stated, said]


def _return(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    out = [loan for loan in lib.open_loans() if loan.lent < day]
    if not out:
        return None
    overdue = [loan for loan in out if loan.due < day]
    loan = rng.choice(overdue if overdue and rng.random() < 0.65 else out)
    loan.back = day
    item = lib.items[loan.code]
    ref = _ref(lib, item)
    late_days = max(0, (day - loan.due).days)
    late = ""
    fine = late_days * TIERS[lib.members[loan.member].tier][1]
    where = f"shelf_code = {ref.sql} AND checked_in_on IS NULL"
    gold = []
    stated = [loan.member, *ref.stated, said]
    if late_days:
        lib.fines.append((loan.member, fine))
        gold.append(
            f"INSERT INTO fines (loan_id, days_late, amount, charged_on) SELECT loan_id, {late_days}, {fine:.2f}, DATE '{day}' "
            f"FROM loans WHERE {where}"
        )
        late, late_stated = _late(rng, late_days)
        stated += [*late_stated, f"{fine:.2f}"]
    gold.append(f"UPDATE loans SET checked_in_on = DATE '{day}' WHERE {where}")
    m = loan.member
    if wording == "log":
        tail = f"{late} late, fine £{fine:.2f}" if late_days else "on time"
        text = f"{said} return: {ref.log} from {m}, {tail}"
    elif wording == "chatty":
        if late_days:
            text = f"{m} brought {ref.chatty} back on {said}, {late} late, so a fine of £{fine:.2f} was charged."
        elif rng.random() < 0.5:
            text = f"{m} returned {ref.chatty} on {said}, in good time."
        else:
            text = f"{_cap(ref.chatty)} came back from {m} on {said}, before it was due."
    else:
        pairs: list[tuple[str, object]] = [("member", m), ("item", ref.kv), ("returned", said)]
        pairs += [("late by", late), ("fine", f"£{fine:.2f}")] if late_days else [("late", "no")]
        text = keyvalue("return", pairs)
    facts = {"member": m, "item": loan.code, "days_late": late_days, "fine": f"{fine:.2f}"}
    return text, facts, gold, stated


def _payment(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    owing = [m for m in lib.members if lib.balance(m) > 0]
    if not owing:
        return None
    member = rng.choice(owing)
    balance = lib.balance(member)
    amount = balance
    if balance >= 2 and rng.random() < 0.4:
        amount = Decimal(rng.randint(1, int(balance)))
    method = rng.choice(("cash", "card", "transfer"))
    lib.payments.append((member, amount))
    gold = [
        "INSERT INTO fine_payments (member_id, paid_on, amount, method) VALUES "
        f"({_member_id(member)}, DATE '{day}', {amount:.2f}, '{method}')"
    ]
    money = f"£{amount:.2f}"
    if wording == "log":
        text = f"{said} fine payment: {member}, {money}, {rng.choice(METHOD_SHORT[method])}"
    elif wording == "chatty":
        how = rng.choice(METHOD_PHRASE[method])
        if rng.random() < 0.5:
            text = f"{member} paid {money} towards fines on {said}, {how}."
        else:
            text = f"On {said} {member} settled {money} of the outstanding fines {how}."
    else:
        pairs = [("member", member), ("amount", money), ("paid by", rng.choice(METHOD_SHORT[method])), ("date", said)]
        text = keyvalue("fine payment", pairs)
    facts = {"member": member, "amount": f"{amount:.2f}", "method": method}
    return text, facts, gold, [member, f"{amount:.2f}", said]


def _join(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    if not lib.free_names:
        return None
    name = lib.free_names.pop()
    tier = rng.choice(("standard", "standard", "student", "senior"))
    phone = lib.phone()
    email = lib.email(name) if rng.random() < 0.6 else None
    branch = rng.choice(BRANCHES)[1]
    lib.members[name] = Member(name, tier, phone, email, branch, day)
    gold = [
        "INSERT INTO members (member_name, tier, phone, email, home_branch, joined_on) VALUES "
        f"({sql_text(name)}, '{tier}', '{phone}', {_literal(email)}, {_branch_code(branch)}, DATE '{day}')"
    ]
    stated = [name, phone, branch, said] + ([email] if email else [])
    facts: dict[str, object] = {"member": name, "tier": tier, "phone": phone, "email": email, "branch": branch}
    extra_log = extra_chatty = ""
    extra_kv: list[tuple[str, object]] = []
    shelf = lib.lendable(name)
    if variant == "loan" and shelf:
        item = rng.choice(shelf)
        ref = _ref(lib, item)
        days = rng.choice((14, 21))
        due = day + dt.timedelta(days=days)
        period, period_stated = _period(rng, days)
        lib.loans.append(Loan(name, item.code, day, due))
        gold.append(_loan_sql(name, ref, day, due))
        stated += [*ref.stated, *period_stated]
        facts.update(first_loan=item.code, days=days, due_on=due.isoformat())
        extra_log = f"; borrowed {ref.log} for {period}"
        extra_chatty = f" Borrowed {ref.chatty} the same day, for {period}."
        extra_kv = [("first loan", ref.kv), ("loan period", period)]
    elif variant == "hold":
        wanted = [i for i in lib.items.values() if i.status == "shelved" and lib.on_loan(i.code)]
        if wanted:
            item = rng.choice(wanted)
            ref = _ref(lib, item)
            pickup = rng.choice(BRANCHES)[1]
            lib.holds[(name, item.code)] = (day, pickup)
            gold.append(
                "INSERT INTO holds (member_id, shelf_code, placed_on, pickup_branch) VALUES "
                f"({_member_id(name)}, {ref.sql}, DATE '{day}', {_branch_code(pickup)})"
            )
            stated += [*ref.stated, pickup]
            facts.update(hold=item.code, pickup=pickup)
            extra_log = f"; hold on {ref.log}, pickup {pickup}"
            extra_chatty = f" Also put a hold on {ref.chatty}, to pick up at {pickup}."
            extra_kv = [("hold on", ref.kv), ("pickup at", pickup)]
    if wording == "log":
        contact = f"tel {phone}" + (f", {email}" if email else "")
        text = f"{said} new member: {name}, {rng.choice(TIER_SHORT[tier])}, {contact}, {branch}{extra_log}"
    elif wording == "chatty":
        contact = f"phone {phone}" + (f", email {email}" if email else ", no email")
        text = f"{name} joined at {branch} on {said} {rng.choice(TIER_PHRASE[tier])}; {contact}.{extra_chatty}"
    else:
        pairs: list[tuple[str, object]] = [
            ("name", name),
            ("membership", rng.choice(TIER_SHORT[tier])),
            ("phone", phone),
        ]
        pairs += [("email", email or "none"), ("branch", branch), ("joined", said), *extra_kv]
        text = keyvalue("new member", pairs)
    return text, facts, gold, stated


def _hold(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    pairs_free = [
        (m, i)
        for m in lib.members
        if lib.members[m].joined < day
        for i in lib.items.values()
        if i.status == "shelved"
        and (m, i.code) not in lib.holds
        and not any(loan.code == i.code and loan.member == m for loan in lib.open_loans())
    ]
    if not pairs_free:
        return None
    out = [(m, i) for m, i in pairs_free if lib.on_loan(i.code)]
    member, item = rng.choice(out if out and rng.random() < 0.7 else pairs_free)
    ref = _ref(lib, item)
    pickup = rng.choice(BRANCHES)[1]
    lib.holds[(member, item.code)] = (day, pickup)
    gold = [
        "INSERT INTO holds (member_id, shelf_code, placed_on, pickup_branch) VALUES "
        f"({_member_id(member)}, {ref.sql}, DATE '{day}', {_branch_code(pickup)})"
    ]
    if wording == "log":
        text = f"{said} hold: {member}, {ref.log}, pickup {pickup}"
    elif wording == "chatty":
        if rng.random() < 0.5:
            text = f"{member} reserved {ref.chatty} on {said} and will collect it from {pickup}."
        else:
            text = f"On {said}, {member} put a hold on {ref.chatty}, to be picked up at {pickup}."
    else:
        text = keyvalue("hold", [("member", member), ("item", ref.kv), ("placed", said), ("pickup at", pickup)])
    facts = {"member": member, "item": item.code, "pickup": pickup}
    return text, facts, gold, [member, *ref.stated, pickup, said]


def _move(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    movable = [i for i in lib.items.values() if i.status == "shelved" and not lib.on_loan(i.code)]
    if not movable:
        return None
    if variant == "copy":
        pairs = [(a, b) for a in movable for b in lib.items.values() if a.section == b.section and a.branch != b.branch]
        if pairs:
            item, other = rng.choice(pairs)
            item.branch = other.branch
            gold = [
                f"UPDATE items SET branch_code = (SELECT branch_code FROM items WHERE title = {sql_text(other.title)}) "
                f"WHERE title = {sql_text(item.title)}"
            ]
            if wording == "log":
                text = f'{said} transfer: "{item.title}" to the branch that has "{other.title}"'
            elif wording == "chatty":
                text = f"On {said} we moved {item.title} to the same branch as {other.title}, so the two sit together."
            else:
                text = keyvalue(
                    "item moved", [("item", item.title), ("to", f"same branch as {other.title}"), ("date", said)]
                )
            facts = {"item": item.code, "same_branch_as": other.code, "to": item.branch}
            return text, facts, gold, [item.title, other.title, said]
    item = rng.choice(movable)
    source = item.branch
    target = rng.choice([name for _, name, _ in BRANCHES if name != source])
    item.branch = target
    ref = _ref(lib, item)
    gold = [f"UPDATE items SET branch_code = {_branch_code(target)} WHERE shelf_code = {ref.sql}"]
    if wording == "log":
        text = f"{said} transfer: {ref.log}, {source} -> {target}"
    elif wording == "chatty":
        if rng.random() < 0.5:
            text = f"On {said} we sent {ref.chatty} from {source} over to {target}."
        else:
            text = f"{_cap(ref.chatty)} moved from the {source} branch to {target} on {said}."
    else:
        text = keyvalue("item moved", [("item", ref.kv), ("from", source), ("to", target), ("date", said)])
    facts = {"item": item.code, "from": source, "to": target}
    return text, facts, gold, [*ref.stated, source, target, said]


def _contact(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    people = [m for m in lib.members.values() if m.joined < day]
    where = "WHERE member_name = {}"
    if variant == "clear":
        with_email = [m for m in people if m.email]
        if not with_email:
            variant = "phone"
        else:
            member = rng.choice(with_email)
            member.email = None
            gold = [f"UPDATE members SET email = NULL {where.format(sql_text(member.name))}"]
            if wording == "log":
                text = f"{said} contact change: {member.name}, remove email"
            elif wording == "chatty":
                text = f"On {said} {member.name} asked us to take the email address off the record."
            else:
                text = keyvalue(
                    "contact change", [("member", member.name), ("email", "none (remove it)"), ("date", said)]
                )
            return text, {"member": member.name, "email": None}, gold, [member.name, said]
    if variant == "unlist":
        with_phone = [m for m in people if m.phone]
        if with_phone:
            member = rng.choice(with_phone)
            member.phone = None
            gold = [f"UPDATE members SET phone = NULL {where.format(sql_text(member.name))}"]
            if wording == "log":
                text = f"{said} contact change: {member.name}, no phone number any more"
            elif wording == "chatty":
                text = f"{member.name} gave up their phone; from {said} we keep no number for them."
            else:
                text = keyvalue("contact change", [("member", member.name), ("phone", "none"), ("date", said)])
            return text, {"member": member.name, "phone": None}, gold, [member.name, said]
        variant = "phone"
    if variant == "copy":
        pairs = [(a, b) for a in people for b in people if a is not b and b.phone and a.phone != b.phone]
        if not pairs:
            return None
        member, other = rng.choice(pairs)
        member.phone = other.phone
        gold = [
            f"UPDATE members SET phone = (SELECT phone FROM members {where.format(sql_text(other.name))}) "
            f"{where.format(sql_text(member.name))}"
        ]
        if wording == "log":
            text = f"{said} contact change: {member.name}, phone same as {other.name}"
        elif wording == "chatty":
            text = (
                f"{member.name} and {other.name} share a landline now; as of {said} "
                f"put {other.name}'s number on {member.name}'s record too."
            )
        else:
            text = keyvalue(
                "contact change", [("member", member.name), ("phone", f"same as {other.name}"), ("date", said)]
            )
        return text, {"member": member.name, "phone_of": other.name}, gold, [member.name, other.name, said]
    member = rng.choice(people)
    if variant == "email":
        value = lib.email(member.name).replace("@", f"{rng.randint(1, 99)}@")
        member.email = value
        column = "email"
    else:
        value = lib.phone()
        member.phone = value
        column = "phone"
    gold = [f"UPDATE members SET {column} = {sql_text(value)} {where.format(sql_text(member.name))}"]
    if wording == "log":
        text = f"{said} contact change: {member.name}, new {column} {value}"
    elif wording == "chatty":
        if column == "phone":
            text = f"{member.name} rang on {said} to give us a new phone number, {value}."
        else:
            text = f"{member.name} emailed on {said}: please use {value} from now on."
    else:
        text = keyvalue("contact change", [("member", member.name), (f"new {column}", value), ("date", said)])
    return text, {"member": member.name, column: value}, gold, [member.name, value, said]


def _lost(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    shelf = [i for i in lib.items.values() if i.status == "shelved" and not lib.on_loan(i.code)]
    if not shelf:
        return None
    item = rng.choice(shelf)
    item.status = "lost"
    ref = _ref(lib, item)
    gold = [f"UPDATE items SET item_status = 'lost' WHERE shelf_code = {ref.sql}"]
    word = rng.choice(LOST_SAID)
    if wording == "log":
        text = f"{said} {word}: {ref.log}, not found at stocktake"
    elif wording == "chatty":
        if rng.random() < 0.5:
            text = f"We couldn't find {ref.chatty} anywhere on {said}, so please mark it as {word}."
        else:
            text = f"{_cap(ref.chatty)} has gone missing: we checked the shelves on {said} and it isn't there."
    else:
        text = keyvalue("item status", [("item", ref.kv), ("status", word), ("checked", said)])
    return text, {"item": item.code, "status": "lost"}, gold, [*ref.stated, said]


def _extend(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    running = [loan for loan in lib.open_loans() if loan.lent < day <= loan.due]
    if not running:
        return None
    fresh = [loan for loan in running if loan.due == loan.first_due]
    loan = rng.choice(fresh or running)
    days = rng.choice((7, 14))
    old = loan.due
    loan.due = old + dt.timedelta(days=days)
    ref = _ref(lib, lib.items[loan.code])
    gold = [f"UPDATE loans SET due_on = DATE '{loan.due}' WHERE shelf_code = {ref.sql} AND checked_in_on IS NULL"]
    m = loan.member
    stated = [m, *ref.stated, said]
    if variant == "by":
        period, period_stated = _period(rng, days, extension=True)
        stated += period_stated
        if wording == "log":
            text = f"{said} renewal: {m}, {ref.log}, extended by {period}"
        elif wording == "chatty":
            text = f"{m} phoned on {said} and we pushed the due date of {ref.chatty} back by {period}."
        else:
            text = keyvalue("renewal", [("member", m), ("item", ref.kv), ("date", said), ("extend by", period)])
    else:
        new = date_forms(loan.due)[rng.randrange(4)]
        stated.append(new)
        if wording == "log":
            text = f"{said} renewal: {m}, {ref.log}, now due {new}"
        elif wording == "chatty":
            text = f"{m} asked on {said} to keep {ref.chatty} longer; it is now due back on {new}."
        else:
            text = keyvalue("renewal", [("member", m), ("item", ref.kv), ("date", said), ("new due date", new)])
    facts = {"member": m, "item": loan.code, "old_due": old.isoformat(), "due_on": loan.due.isoformat(), "days": days}
    return text, facts, gold, stated


def _acquire(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    rng = lib.rng
    sections = [s for s in ("F", "N", "D", "G", "M") if lib.free_titles[s]]
    if not sections:
        return None
    section = rng.choice(sections)
    title = lib.free_titles[section].pop()
    code = f"{section}-{lib.free_numbers[section].pop():03d}"
    branch = rng.choice(BRANCHES)[1]
    item = Item(code, title, branch, day)
    lib.items[code] = item
    composed = rng.random() < 0.4
    sentence, short = COMPOSED[section]
    code_chatty = sentence.format(n=int(code[2:])) if composed else code
    code_short = short.format(n=int(code[2:])) if composed else code
    kind_said = rng.choice(KIND_SAID[section])
    gold = [
        "INSERT INTO items (shelf_code, title, kind, branch_code, item_status, acquired_on) VALUES "
        f"('{code}', {sql_text(title)}, '{SECTION_KIND[section]}', {_branch_code(branch)}, 'shelved', DATE '{day}')"
    ]
    if wording == "log":
        text = f'{said} new item: "{title}", {kind_said}, {code_short}, {branch}'
    elif wording == "chatty":
        article = "an" if kind_said[0] in "aeiou" else "a"
        text = f"New at {branch} on {said}: {title}, {article} {kind_said}, shelved as {code_chatty}."
    else:
        pairs = [("title", title), ("type", kind_said), ("shelf code", code_short), ("branch", branch), ("added", said)]
        text = keyvalue("new item", pairs)
    facts = {"item": code, "title": title, "kind": SECTION_KIND[section], "branch": branch}
    stated = [title, branch, said] + ([] if composed else [code])
    return text, facts, gold, stated


def _event(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    """An event held at a branch and how many came: a plain fact into a table that starts empty."""
    rng = lib.rng
    branches = [name for _, name, _ in BRANCHES if (name, day) not in lib.events]
    if not branches:
        return None
    branch = rng.choice(branches)
    activity = rng.choice(sorted(ACTIVITY_SAID))
    attendees = rng.randint(6, 34)
    lib.events[(branch, day)] = [activity, attendees]
    gold = [
        "INSERT INTO branch_events (branch_code, held_on, activity, attendees) VALUES "
        f"({_branch_code(branch)}, DATE '{day}', {sql_text(activity)}, {attendees})"
    ]
    what = rng.choice(ACTIVITY_SAID[activity])
    if wording == "log":
        text = f"{said} event: {what} at {branch}, {attendees} came"
    elif wording == "chatty":
        article = "an" if what[0] in "aeiou" else "a"
        text = rng.choice(
            (
                f"We ran {article} {what} at {branch} on {said} and {attendees} people came along.",
                f"{_cap(article)} {what} at {branch} on {said} drew {attendees} people.",
            )
        )
    else:
        pairs = [("branch", branch), ("date", said), ("event", what), ("attendance", attendees)]
        text = keyvalue("event", pairs)
    facts = {"branch": branch, "activity": activity, "attendees": attendees}
    return text, facts, gold, [branch, said, str(attendees)]


def _attendance(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    """A head count corrected by a stated number: the attendance of an event logged before goes up or down."""
    rng = lib.rng
    held = [(branch, when) for (branch, when) in lib.events if when < day]
    if not held:
        return None
    branch, when = rng.choice(sorted(held))
    activity, attendees = lib.events[(branch, when)]
    change = rng.choice((2, 3, 4, 5, 7)) if variant == "up" or attendees < 5 else -rng.randint(1, 4)
    lib.events[(branch, when)][1] = attendees + change
    sign = "+" if change > 0 else "-"
    gold = [
        f"UPDATE branch_events SET attendees = attendees {sign} {abs(change)} "
        f"WHERE branch_code = {_branch_code(branch)} AND held_on = DATE '{when}'"
    ]
    held_said = date_forms(when)[date_forms(day).index(said)]
    what = rng.choice(ACTIVITY_SAID[activity])
    n = abs(change)
    number = in_words(n) if wording == "chatty" and rng.random() < 0.5 else str(n)
    stated = [branch, held_said] + ([str(n)] if number == str(n) else [])
    if wording == "log":
        fix = f"{number} more than logged" if change > 0 else f"{number} fewer than logged"
        text = f"{said} attendance fix: {what} at {branch} on {held_said}, {fix}"
    elif wording == "chatty":
        if change > 0:
            text = (
                f"{_cap(number)} more people came to the {what} at {branch} on {held_said} than we counted; add them."
            )
        else:
            text = (
                f"We counted {number} too many at the {what} at {branch} on {held_said}; take them off the attendance."
            )
    else:
        pairs = [("event", f"{what} at {branch}"), ("held", held_said)]
        pairs.append(("add to attendance", number) if change > 0 else ("take off attendance", number))
        text = keyvalue("attendance correction", pairs)
    facts = {"branch": branch, "held_on": when.isoformat(), "change": change, "attendees": attendees + change}
    return text, facts, gold, stated


def _donation(lib: Library, day: dt.date, said: str, wording: str, variant: str) -> Made | None:
    """Boxes of donated stock left at a branch: a plain fact into a table that starts empty."""
    rng = lib.rng
    if not lib.donors:
        return None
    donor = lib.donors.pop()
    branch = rng.choice(BRANCHES)[1]
    contents = rng.choice(sorted(CONTENTS_SAID))
    boxes = rng.randint(1, 6)
    gold = [
        "INSERT INTO donations (donor, branch_code, received_on, contents, boxes) VALUES "
        f"({sql_text(donor)}, {_branch_code(branch)}, DATE '{day}', '{contents}', {boxes})"
    ]
    what = rng.choice(CONTENTS_SAID[contents])
    count = f"{boxes} box" + ("es" if boxes > 1 else "")
    if wording == "log":
        text = f"{said} donation: {donor}, {count} of {what}, {branch}"
    elif wording == "chatty":
        text = f"{_cap(donor)} dropped off {count} of {what} at {branch} on {said}."
    else:
        pairs = [("from", donor), ("branch", branch), ("received", said), ("contents", what), ("boxes", boxes)]
        text = keyvalue("donation", pairs)
    facts = {"donor": donor, "branch": branch, "contents": contents, "boxes": boxes}
    return text, facts, gold, [donor, branch, said, str(boxes)]


# -- questions --------------------------------------------------------------------------------------


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple]:
    return con.execute(sql).fetchall()


def _top(values: list[tuple], wanted: int = 3) -> int:
    """How many leading rows (figure last, sorted descending) can be asked for without a tie at the cut."""
    for n in (wanted, wanted - 1, wanted + 1, 1, 2, 4, 5):
        if 0 < n <= len(values) and (n == len(values) or values[n - 1][-1] != values[n][-1]):
            return n
    return 1


def _questions(con: duckdb.DuckDBPyConnection, rng: random.Random) -> list[Question]:
    """Questions on the final state; those that name a member, item or threshold pick them from that state."""
    asked: list[tuple[str, str, str]] = []

    def ask(family: str, text: str, sql: str) -> None:
        rows = _rows(con, sql)
        if rows and not all(v is None for row in rows for v in row):
            asked.append((family, text, sql))

    ask("count", "How many members does the library have?", "SELECT count(*) FROM members")
    ask(
        "count",
        "How many loans are still out, not returned yet?",
        "SELECT count(*) FROM loans WHERE checked_in_on IS NULL",
    )
    ask(
        "count",
        "How many loans were made in March 2024?",
        "SELECT count(*) FROM loans WHERE lent_on >= DATE '2024-03-01' AND lent_on < DATE '2024-04-01'",
    )
    ask(
        "count",
        "How many open loans are past their due date as of 30 April 2024?",
        "SELECT count(*) FROM loans WHERE checked_in_on IS NULL AND due_on < DATE '2024-04-30'",
    )
    ask("sum", "What is the total of all fines ever charged?", "SELECT sum(amount) FROM fines")
    ask("sum", "How much has been paid towards fines altogether?", "SELECT sum(amount) FROM fine_payments")

    phones = _rows(con, "SELECT member_name FROM members WHERE phone IS NOT NULL ORDER BY member_name")
    who = rng.choice(phones)[0]
    ask("lookup", f"What is {who}'s phone number?", f"SELECT phone FROM members WHERE member_name = {sql_text(who)}")
    titles = _rows(con, "SELECT title FROM items ORDER BY shelf_code")
    title = rng.choice(titles)[0]
    ask(
        "lookup",
        f"Which branch is {title} kept at?",
        f"SELECT b.branch_name FROM items i JOIN branches b ON b.branch_code = i.branch_code WHERE i.title = {sql_text(title)}",
    )
    out = _rows(
        con,
        "SELECT i.title FROM loans l JOIN items i ON i.shelf_code = l.shelf_code WHERE l.checked_in_on IS NULL ORDER BY i.title",
    )
    if out:
        title = rng.choice(out)[0]
        ask(
            "lookup",
            f"When is {title} due back?",
            "SELECT l.due_on FROM loans l JOIN items i ON i.shelf_code = l.shelf_code "
            f"WHERE i.title = {sql_text(title)} AND l.checked_in_on IS NULL",
        )
        title = rng.choice(out)[0]
        ask(
            "lookup",
            f"Who has {title} out at the moment?",
            "SELECT m.member_name FROM loans l JOIN items i ON i.shelf_code = l.shelf_code "
            f"JOIN members m ON m.member_id = l.member_id WHERE i.title = {sql_text(title)} AND l.checked_in_on IS NULL",
        )
    newest = _rows(con, "SELECT member_name FROM members ORDER BY joined_on DESC, member_name LIMIT 1")[0][0]
    ask(
        "lookup",
        f"What membership tier is {newest} on?",
        f"SELECT tier FROM members WHERE member_name = {sql_text(newest)}",
    )
    code = rng.choice(_rows(con, "SELECT shelf_code FROM items ORDER BY shelf_code"))[0]
    ask("lookup", f"What is the title of item {code}?", f"SELECT title FROM items WHERE shelf_code = '{code}'")

    ask(
        "grouped",
        "How many items of each kind does the library have?",
        "SELECT kind, count(*) FROM items GROUP BY kind ORDER BY kind",
    )
    ask(
        "grouped",
        "How many members are there per membership tier?",
        "SELECT tier, count(*) FROM members GROUP BY tier ORDER BY tier",
    )
    ask(
        "grouped",
        "How many items does each branch hold?",
        "SELECT b.branch_name, count(i.shelf_code) FROM branches b LEFT JOIN items i ON i.branch_code = b.branch_code "
        "GROUP BY b.branch_name ORDER BY b.branch_name",
    )
    ask(
        "grouped",
        "What is the total of fine payments for each payment method?",
        "SELECT method, sum(amount) FROM fine_payments GROUP BY method ORDER BY method",
    )
    ask(
        "grouped",
        "How many loans has each kind of item had?",
        "SELECT i.kind, count(*) FROM loans l JOIN items i ON i.shelf_code = l.shelf_code GROUP BY i.kind ORDER BY i.kind",
    )

    counts = _rows(
        con,
        "SELECT m.member_name, count(*) AS n FROM loans l JOIN members m ON m.member_id = l.member_id "
        "GROUP BY m.member_name ORDER BY n DESC, m.member_name",
    )
    n = _top(counts)
    ask(
        "top",
        f"Which {n} members have borrowed the most items, and how many each?",
        "SELECT m.member_name, count(*) AS loans FROM loans l JOIN members m ON m.member_id = l.member_id "
        f"GROUP BY m.member_name ORDER BY loans DESC, m.member_name LIMIT {n}",
    )
    counts = _rows(
        con,
        "SELECT i.title, count(*) AS n FROM loans l JOIN items i ON i.shelf_code = l.shelf_code "
        "GROUP BY i.title ORDER BY n DESC, i.title",
    )
    n = _top(counts, 1)
    ask(
        "top",
        "Which item has been borrowed most often, and how many times?"
        if n == 1
        else f"What are the {n} most borrowed items, with their loan counts?",
        "SELECT i.title, count(*) AS loans FROM loans l JOIN items i ON i.shelf_code = l.shelf_code "
        f"GROUP BY i.title ORDER BY loans DESC, i.title LIMIT {n}",
    )
    fines = _rows(
        con,
        "SELECT m.member_name, sum(f.amount) AS t FROM fines f JOIN loans l ON l.loan_id = f.loan_id "
        "JOIN members m ON m.member_id = l.member_id GROUP BY m.member_name ORDER BY t DESC, m.member_name",
    )
    n = _top(fines)
    ask(
        "top",
        f"Who are the top {n} members by fines charged, with the totals?",
        "SELECT m.member_name, sum(f.amount) AS fined FROM fines f JOIN loans l ON l.loan_id = f.loan_id "
        f"JOIN members m ON m.member_id = l.member_id GROUP BY m.member_name ORDER BY fined DESC, m.member_name LIMIT {n}",
    )

    ask(
        "range",
        "Which items came back between 1 April and 15 April 2024?",
        "SELECT i.title FROM loans l JOIN items i ON i.shelf_code = l.shelf_code "
        "WHERE l.checked_in_on BETWEEN DATE '2024-04-01' AND DATE '2024-04-15' ORDER BY i.title",
    )
    ask(
        "range",
        "Who joined the library in March or April 2024?",
        "SELECT member_name FROM members WHERE joined_on BETWEEN DATE '2024-03-01' AND DATE '2024-04-30' ORDER BY member_name",
    )
    ask(
        "range",
        "How many loans were made between 11 March and 24 March 2024?",
        "SELECT count(*) FROM loans WHERE lent_on BETWEEN DATE '2024-03-11' AND DATE '2024-03-24'",
    )

    ask(
        "derived",
        "Who owes the most in fines right now, and how much?",
        "SELECT member_name, balance_due FROM members "
        "WHERE balance_due = (SELECT max(balance_due) FROM members) ORDER BY member_name",
    )
    ask(
        "derived",
        "What is the total outstanding fine balance across all members?",
        "SELECT sum(balance_due) FROM members",
    )
    owing = _rows(con, "SELECT member_name FROM members WHERE balance_due > 0 ORDER BY member_name")
    if owing:
        who = rng.choice(owing)[0]
        ask(
            "derived",
            f"How much does {who} still owe in fines?",
            f"SELECT balance_due FROM members WHERE member_name = {sql_text(who)}",
        )
        ask(
            "derived",
            "Which members still owe something, and how much?",
            "SELECT member_name, balance_due FROM members WHERE balance_due > 0 ORDER BY member_name",
        )

    ask(
        "none",
        "Which members have never borrowed anything?",
        "SELECT member_name FROM members WHERE member_id NOT IN (SELECT member_id FROM loans) ORDER BY member_name",
    )
    ask(
        "none",
        "Which items have never been lent out?",
        "SELECT title FROM items WHERE shelf_code NOT IN (SELECT shelf_code FROM loans) ORDER BY title",
    )
    ask(
        "none",
        "Which members have been fined but never paid anything?",
        "SELECT DISTINCT m.member_name FROM fines f JOIN loans l ON l.loan_id = f.loan_id "
        "JOIN members m ON m.member_id = l.member_id "
        "WHERE m.member_id NOT IN (SELECT member_id FROM fine_payments) ORDER BY m.member_name",
    )
    ask(
        "none",
        "Which members have no email address on file?",
        "SELECT member_name FROM members WHERE email IS NULL ORDER BY member_name",
    )

    ask("average", "What is the average fine amount?", "SELECT avg(amount) FROM fines")
    ask(
        "average",
        "On average, how many days were items kept, for loans that have come back?",
        "SELECT avg(checked_in_on - lent_on) FROM loans WHERE checked_in_on IS NOT NULL",
    )
    ask("average", "What is the average fine payment?", "SELECT avg(amount) FROM fine_payments")

    ask("category", "How many members are on a student card?", "SELECT count(*) FROM members WHERE tier = 'student'")
    ask("category", "How many board games do we have?", "SELECT count(*) FROM items WHERE kind = 'boardgame'")
    ask("category", "Which items are missing?", "SELECT title FROM items WHERE item_status = 'lost' ORDER BY title")
    ask(
        "category",
        "List the pensioner members.",
        "SELECT member_name FROM members WHERE tier = 'senior' ORDER BY member_name",
    )
    ask(
        "category",
        "How much has been paid in fines by debit card?",
        "SELECT coalesce(sum(amount), 0) FROM fine_payments WHERE method = 'card'",
    )
    return [Question(f"q{i + 1:02d}", text, sql, family) for i, (family, text, sql) in enumerate(asked)]
