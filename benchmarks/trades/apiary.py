"""Beekeeping cooperative: members keep hives at shared bee yards, and the cooperative jars and sells the honey.

Members join on a tier (apprentice, full, senior, honorary) and keep hives, each labelled with a code like
'HV-112', at the cooperative's bee yards 'AP-1' to 'AP-9' ("site 3"). A colony is strong, weak, queenless,
swarmed or dead, and its queen has a year. Members go through hives (frames of brood, mites counted on the
board, a remark now and then) and spin honey off them (kilograms, spring or summer crop). The honey is put up
in jars of several sizes kept in stock; members order jars at the member price, an order is packed and then
collected, and members pay in cash, by cheque, card or transfer. What a member owes is kept by one rule: the
jars on their orders at the price on each line, minus what they have paid. Swarms that members catch and the
kit they borrow (extractor, smoker, ...) are logged from an empty start.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .base import Question, Record, Rule, Trade, Turns, date_forms, in_words, keyvalue, lookup, sql_date, sql_text

SCHEMA = """
CREATE SEQUENCE member_seq START 1;
CREATE SEQUENCE extraction_seq START 1;
CREATE SEQUENCE jar_order_seq START 1;
CREATE SEQUENCE remit_seq START 1;
CREATE SEQUENCE catch_seq START 1;
CREATE SEQUENCE kit_loan_seq START 1;
CREATE TABLE bee_yards (
    yard_code VARCHAR PRIMARY KEY,
    yard_name VARCHAR NOT NULL UNIQUE,
    forage VARCHAR NOT NULL CHECK (forage IN ('orchard', 'heather', 'clover', 'woodland', 'mixed')),
    hive_room INTEGER NOT NULL CHECK (hive_room > 0)
);
CREATE TABLE beekeepers (
    member_no INTEGER PRIMARY KEY DEFAULT nextval('member_seq'),
    beekeeper_name VARCHAR NOT NULL UNIQUE,
    phone VARCHAR,
    email VARCHAR,
    tier VARCHAR NOT NULL CHECK (tier IN ('apprentice', 'full', 'senior', 'honorary')),
    enrolled_on DATE NOT NULL,
    owed_to_coop DECIMAL(10, 2) NOT NULL DEFAULT 0
);
CREATE TABLE colonies (
    hive_code VARCHAR PRIMARY KEY,
    yard_code VARCHAR NOT NULL,
    member_no INTEGER NOT NULL,
    colony_state VARCHAR NOT NULL DEFAULT 'strong'
        CHECK (colony_state IN ('strong', 'weak', 'queenless', 'swarmed', 'dead')),
    queen_year INTEGER NOT NULL CHECK (queen_year BETWEEN 2015 AND 2030),
    box_style VARCHAR NOT NULL CHECK (box_style IN ('national', 'langstroth', 'top_bar', 'warre')),
    sited_on DATE NOT NULL
);
CREATE TABLE hive_checks (
    hive_code VARCHAR NOT NULL REFERENCES colonies (hive_code),
    looked_on DATE NOT NULL,
    inspector_no INTEGER NOT NULL REFERENCES beekeepers (member_no),
    brood_frames INTEGER NOT NULL CHECK (brood_frames BETWEEN 0 AND 12),
    mites_counted INTEGER NOT NULL CHECK (mites_counted >= 0),
    remarks VARCHAR,
    PRIMARY KEY (hive_code, looked_on)
);
CREATE TABLE extractions (
    extraction_id INTEGER PRIMARY KEY DEFAULT nextval('extraction_seq'),
    hive_code VARCHAR NOT NULL REFERENCES colonies (hive_code),
    spun_on DATE NOT NULL,
    net_kilos DECIMAL(6, 2) NOT NULL CHECK (net_kilos > 0),
    crop VARCHAR NOT NULL CHECK (crop IN ('spring', 'summer', 'heather'))
);
CREATE TABLE jar_stock (
    jar_code VARCHAR PRIMARY KEY,
    jar_label VARCHAR NOT NULL UNIQUE,
    fill_grams INTEGER NOT NULL,
    material VARCHAR NOT NULL CHECK (material IN ('glass', 'plastic', 'tin')),
    jars_ready INTEGER NOT NULL CHECK (jars_ready >= 0),
    member_price DECIMAL(6, 2) NOT NULL
);
CREATE TABLE jar_orders (
    order_no INTEGER PRIMARY KEY DEFAULT nextval('jar_order_seq'),
    member_no INTEGER NOT NULL REFERENCES beekeepers (member_no),
    ordered_on DATE NOT NULL,
    order_state VARCHAR NOT NULL DEFAULT 'placed' CHECK (order_state IN ('placed', 'packed', 'collected'))
);
CREATE TABLE jar_order_lines (
    order_no INTEGER NOT NULL REFERENCES jar_orders (order_no),
    jar_code VARCHAR NOT NULL REFERENCES jar_stock (jar_code),
    jars INTEGER NOT NULL CHECK (jars > 0),
    line_price DECIMAL(6, 2) NOT NULL,
    PRIMARY KEY (order_no, jar_code)
);
CREATE TABLE remittances (
    remit_no INTEGER PRIMARY KEY DEFAULT nextval('remit_seq'),
    member_no INTEGER NOT NULL REFERENCES beekeepers (member_no),
    remitted_on DATE NOT NULL,
    amount DECIMAL(8, 2) NOT NULL CHECK (amount > 0),
    pay_method VARCHAR NOT NULL CHECK (pay_method IN ('cash', 'cheque', 'card', 'transfer'))
);
CREATE TABLE swarm_catches (
    catch_no INTEGER PRIMARY KEY DEFAULT nextval('catch_seq'),
    member_no INTEGER NOT NULL REFERENCES beekeepers (member_no),
    caught_on DATE NOT NULL,
    found_at VARCHAR NOT NULL,
    swarm_kind VARCHAR NOT NULL CHECK (swarm_kind IN ('prime', 'cast', 'small')),
    est_kilos DECIMAL(4, 1)
);
CREATE TABLE kit_loans (
    loan_no INTEGER PRIMARY KEY DEFAULT nextval('kit_loan_seq'),
    kit_item VARCHAR NOT NULL
        CHECK (kit_item IN ('extractor', 'smoker', 'bee_suit', 'uncapping_tray', 'refractometer')),
    member_no INTEGER NOT NULL REFERENCES beekeepers (member_no),
    lent_day DATE NOT NULL,
    due_back DATE NOT NULL,
    came_back_on DATE,
    CHECK (due_back > lent_day)
);
"""
# colonies.yard_code and member_no name a yard and a keeper without REFERENCES: moving a hive or handing it to
# another member is an UPDATE of them, and DuckDB refuses an UPDATE of a foreign-key column of a table other
# tables reference (hive_checks and extractions reference colonies).

OWED = Rule(
    name="member owes",
    sentence=(
        "What a member owes the cooperative is the jars on all their orders times the price on each line, "
        "minus everything they have paid."
    ),
    sql=(
        "UPDATE beekeepers SET owed_to_coop = coalesce((SELECT sum(l.jars * l.line_price) FROM jar_order_lines l "
        "JOIN jar_orders o ON o.order_no = l.order_no WHERE o.member_no = beekeepers.member_no), 0) "
        "- coalesce((SELECT sum(r.amount) FROM remittances r WHERE r.member_no = beekeepers.member_no), 0)"
    ),
)

_OF_ORDER = "JOIN jar_orders o ON o.order_no = l.order_no JOIN beekeepers m ON m.member_no = o.member_no"
SNAPSHOT = {
    "beekeepers": "SELECT beekeeper_name, phone, email, tier, enrolled_on, owed_to_coop FROM beekeepers",
    "colonies": (
        "SELECT c.hive_code, c.yard_code, m.beekeeper_name, c.colony_state, c.queen_year, c.box_style, c.sited_on "
        "FROM colonies c JOIN beekeepers m ON m.member_no = c.member_no"
    ),
    "hive_checks": (
        "SELECT h.hive_code, h.looked_on, m.beekeeper_name, h.brood_frames, h.mites_counted, h.remarks "
        "FROM hive_checks h JOIN beekeepers m ON m.member_no = h.inspector_no"
    ),
    "extractions": "SELECT hive_code, spun_on, net_kilos, crop FROM extractions",
    "jar_stock": "SELECT jar_code, jar_label, material, jars_ready, member_price FROM jar_stock",
    "jar_orders": (
        "SELECT m.beekeeper_name, o.ordered_on, o.order_state FROM jar_orders o "
        "JOIN beekeepers m ON m.member_no = o.member_no"
    ),
    "jar_order_lines": (
        f"SELECT m.beekeeper_name, o.ordered_on, l.jar_code, l.jars, l.line_price FROM jar_order_lines l {_OF_ORDER}"
    ),
    "remittances": (
        "SELECT m.beekeeper_name, r.remitted_on, r.amount, r.pay_method FROM remittances r "
        "JOIN beekeepers m ON m.member_no = r.member_no"
    ),
    "swarm_catches": (
        "SELECT m.beekeeper_name, s.caught_on, s.found_at, s.swarm_kind, s.est_kilos FROM swarm_catches s "
        "JOIN beekeepers m ON m.member_no = s.member_no"
    ),
    "kit_loans": (
        "SELECT k.kit_item, m.beekeeper_name, k.lent_day, k.due_back, k.came_back_on FROM kit_loans k "
        "JOIN beekeepers m ON m.member_no = k.member_no"
    ),
}
CHECKS = {
    "what each member owes": "SELECT beekeeper_name, owed_to_coop FROM beekeepers",
    "jars ready per size": "SELECT jar_code, jars_ready FROM jar_stock",
    "hives per colony state": "SELECT colony_state, count(*) FROM colonies GROUP BY colony_state",
    "hives per yard": (
        "SELECT y.yard_code, count(c.hive_code) FROM bee_yards y LEFT JOIN colonies c ON c.yard_code = y.yard_code "
        "GROUP BY y.yard_code"
    ),
    "honey per hive": "SELECT hive_code, sum(net_kilos) FROM extractions GROUP BY hive_code",
    "orders per state": "SELECT order_state, count(*) FROM jar_orders GROUP BY order_state",
}

# -- names and words --------------------------------------------------------------------------------

START = dt.date(2024, 4, 15)
SUMMER_FROM = dt.date(2024, 6, 10)  # honey spun from this day on is the summer crop
YARDS = (  # name, forage, room for hives; the codes are drawn
    ("Ashcombe Orchard", "orchard"),
    ("Heathfield Common", "heather"),
    ("Millbrook Meadow", "clover"),
    ("Sallow Wood", "woodland"),
    ("Rectory Allotments", "mixed"),
    ("Pennard Leys", "clover"),
)
JARS = (  # code, label, grams, material, member price, what a user calls one, and more than one
    ("JR-113", "113 g glass jar", 113, "glass", 3.20, "113g jar", "113g jars"),
    ("JR-227", "227 g glass jar", 227, "glass", 4.80, "227g jar", "227g jars"),
    ("JR-340", "340 g glass jar", 340, "glass", 6.50, "340g jar", "340g jars"),
    ("JR-454", "454 g glass jar", 454, "glass", 8.20, "454g jar", "454g jars"),
    ("JR-907", "907 g glass jar", 907, "glass", 13.50, "907g jar", "907g jars"),
    ("SQ-340", "340 g squeezy bottle", 340, "plastic", 6.00, "340g squeezy bottle", "340g squeezy bottles"),
    ("TN-3000", "3 kg bulk tin", 3000, "tin", 24.00, "3 kg tin", "3 kg tins"),
)
BULK = "TN-3000"  # sold to bakers, never on a member's order: "which jar sizes have never been ordered?"
KEEPERS = (  # name, phone, email, tier: the reference members are drawn from these
    ("Agnieszka Wolny", "01632 960114", "a.wolny@combmail.net", "senior"),
    ("Tomasz Brill", "01632 960278", None, "full"),
    ("Hedda Lindgren", "01632 960335", "hedda.lindgren@hivepost.org", "senior"),
    ("Ciaran Boyle", "01632 960412", "ciaran.boyle@waxbox.com", "full"),
    ("Marisol Ortega", "01632 960597", "marisol.o@combmail.net", "apprentice"),
    ("Anselm Kruger", "01632 960643", "anselm.kruger@hivepost.org", "honorary"),
    ("Delphine Roux", "01632 960781", None, "full"),
    ("Obi Nwankwo", "01632 960826", "obi.nwankwo@waxbox.com", "full"),
    ("Greta Halvorsen", "01632 960958", "greta.h@combmail.net", "apprentice"),
    ("Ezra Pennington", "01632 960169", "ezra.pennington@hivepost.org", "senior"),
)
NEW_KEEPERS = (  # people who join during the log
    ("Farida Haddad", "01632 961203", "farida.haddad@waxbox.com", "apprentice"),
    ("Leopold Ashby", None, "leo.ashby@combmail.net", "full"),
    ("Sunniva Berg", "01632 961387", None, "apprentice"),
    ("Tamsin Trelawney", "01632 961442", "tamsin.t@hivepost.org", "full"),
    ("Iolo Pritchard", "01632 961519", "iolo.pritchard@waxbox.com", "apprentice"),
    ("Matthias Ebner", "01632 961684", None, "full"),
)
TIER_SAID = {
    "apprentice": ("apprentice", "trainee", "beginner"),
    "full": ("full", "full voting"),
    "senior": ("senior", "long-standing senior"),
    "honorary": ("honorary",),
}
STYLES = ("national", "national", "national", "langstroth", "langstroth", "top_bar", "warre")
STYLE_SAID = {
    "national": ("National", "British National"),
    "langstroth": ("Langstroth",),
    "top_bar": ("top-bar", "top bar"),
    "warre": ("Warré", "Warre"),
}
STATE_SAID = {  # a short word for a log line or a field, and what follows the hive in a sentence
    "strong": (("strong", "strong again"), ("is strong again", "has built back up into a strong colony")),
    "weak": (("weak", "weak, few bees"), ("is weak", "has gone weak, very few bees flying")),
    "queenless": (("queenless", "no queen"), ("is queenless", "has lost its queen")),
    "swarmed": (("swarmed", "swarmed out"), ("has swarmed", "swarmed, half the bees have gone")),
    "dead": (("dead", "dead out", "colony lost"), ("has died out", "is dead, the colony is lost")),
}
NEXT_STATES = {
    "strong": ("weak", "queenless", "swarmed", "swarmed"),
    "weak": ("strong", "strong", "dead", "queenless"),
    "queenless": ("weak", "dead"),
    "swarmed": ("weak", "strong", "queenless"),
}
BROOD = {"strong": (5, 10), "weak": (1, 4), "queenless": (0, 2), "swarmed": (2, 5)}
REMARKS = (
    "queen cells on two frames",
    "calm, good temper",
    "short of stores, fed syrup",
    "chalkbrood spotted",
    "eggs seen, queen laying well",
    "added a super",
    "a bit tetchy today",
    "drone brood cut out",
)
ORDER_SAID = {"packed": ("packed", "boxed up"), "collected": ("collected", "picked up")}
VIA_SAID = {
    "cash": ("in cash", "cash"),
    "cheque": ("by cheque", "with a cheque"),
    "card": ("by card", "on the card machine"),
    "transfer": ("by bank transfer", "by online transfer"),
}
SWARM_SAID = {
    "prime": ("prime swarm", "big prime swarm"),
    "cast": ("cast", "cast swarm"),
    "small": ("small swarm", "tiny swarm"),
}
SWARM_TENTHS = {"prime": (15, 31), "cast": (6, 15), "small": (3, 8)}  # tenths of a kilo of bees
PLACES = (  # where a swarm hung
    "the churchyard yew on Mill Lane",
    "a garden hedge in Lower Street",
    "the school playground fence",
    "a lamp post by the station",
    "the allotment shed at Quarry Road",
    "an apple tree behind the village hall",
    "a car wing mirror in the market car park",
)
KIT_SAID = {
    "extractor": ("extractor", "honey extractor"),
    "smoker": ("smoker", "spare smoker"),
    "bee_suit": ("bee suit", "spare bee suit"),
    "uncapping_tray": ("uncapping tray",),
    "refractometer": ("refractometer",),
}
# record kind -> how many the log has, and the class of change ("" for a new fact) whose records take the
# wordings in turn (`Turns`), so that each class comes in every wording
KINDS = {
    "member_joined": (4, ""),
    "hive_set_up": (4, ""),
    "inspection": (8, ""),
    "extraction": (6, ""),
    "jar_order": (5, ""),
    "remittance": (5, ""),
    "swarm_caught": (3, ""),
    "kit_lent": (3, ""),
    "colony_state": (5, "set"),
    "hive_moved": (2, "set"),
    "hive_handed": (2, "set"),
    "tier_changed": (1, "set"),
    "requeened": (1, "set"),
    "order_progress": (3, "set"),
    "kit_returned": (1, "set"),
    "contact_dropped": (3, "clear"),
    "remark_cleared": (2, "clear"),
    "hive_same_yard": (2, "copy"),
    "hive_same_keeper": (2, "copy"),
    "phone_shared": (1, "copy"),
    "jars_filled": (2, "add"),
    "jars_broken": (2, "add"),
    "mites_fix": (2, "add"),
    "kilos_fix": (1, "add"),
    "line_dropped": (2, "remove"),
    "loan_cancelled": (1, "remove"),
    "check_struck": (1, "remove"),
}
DRAWS = 200  # logs drawn at most for one seed
STEPS = (0, 0, 1, 1, 1, 2)  # days between one record and the next


# -- the state the log keeps ------------------------------------------------------------------------


@dataclass
class Member:
    name: str
    phone: str | None
    email: str | None
    tier: str
    enrolled: dt.date = START


@dataclass
class Colony:
    code: str
    yard: str
    keeper: str
    state: str
    queen: int
    style: str
    placed: dt.date


@dataclass
class Check:
    hive: str
    day: dt.date
    inspector: str
    brood: int
    mites: int
    remarks: str | None


@dataclass
class Spin:
    hive: str
    day: dt.date
    tenths: int  # net kilos in tenths: 124 is 12.4 kg
    crop: str


@dataclass
class Order:
    member: str
    day: dt.date
    lines: dict[str, int]  # jar code -> jars
    state: str = "placed"
    since: dt.date = START

    def key(self) -> str:
        """The order's number, found by its member and day (a member orders at most once a day)."""
        return f"(SELECT order_no FROM jar_orders WHERE member_no = {_member(self.member)} AND ordered_on = {sql_date(self.day)})"


@dataclass
class Loan:
    kit: str
    member: str
    lent: dt.date
    due: dt.date
    returned: dt.date | None = None
    cancelled: bool = False


@dataclass
class Draft:
    """One record before its wording is chosen: each wording's text states every value in `stated`."""

    facts: Mapping[str, object]
    gold: list[str]
    texts: dict[str, str]
    stated: list[str]


def money(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def kilos(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"


def _member(name: str) -> str:
    return lookup("beekeepers", "member_no", "beekeeper_name", name)


def _value(value: object) -> str:
    return "NULL" if value is None else sql_text(str(value))


def _check_where(check: Check) -> str:
    return f"hive_code = '{check.hive}' AND looked_on = {sql_date(check.day)}"


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _article(word: str) -> str:
    return "an" if word[0].lower() in "aeiou" else "a"


def _price(code: str) -> float:
    return next(price for c, _, _, _, price, _, _ in JARS if c == code)


class Coop:
    """The seeded simulation of the cooperative: reference rows, then one record at a time, then questions."""

    def __init__(self, rng: random.Random, forms: int) -> None:
        self.rng = rng
        self.day = START
        self.forms = forms
        self.records: list[Record] = []
        numbers = sorted(rng.sample(range(1, 10), len(YARDS)))
        self.yards = {
            f"AP-{n}": (name, forage, rng.choice((6, 8, 10, 12))) for n, (name, forage) in zip(numbers, YARDS)
        }
        self.stock = {code: rng.randrange(12, 41) for code, *_ in JARS}
        pool = list(KEEPERS)
        rng.shuffle(pool)
        self.members = {p[0]: Member(*p, enrolled=START - dt.timedelta(days=rng.randrange(60, 900))) for p in pool[:8]}
        newcomers = pool[8:] + list(NEW_KEEPERS)
        rng.shuffle(newcomers)
        self.newcomers = [Member(*p) for p in newcomers]
        self.no_hive = rng.choice(sorted(self.members))  # a member with no hive: "who keeps no hive?"
        keepers = [name for name in sorted(self.members) if name != self.no_hive]
        self.next_code = rng.randrange(100, 300, 10)
        self.colonies: dict[str, Colony] = {}
        for state in ("strong",) * 8 + ("weak",) * 3 + ("queenless", "swarmed", "dead"):
            code = self._code()
            placed = START - dt.timedelta(days=rng.randrange(200, 1100))
            self.colonies[code] = Colony(
                code,
                rng.choice(sorted(self.yards)),
                rng.choice(keepers),
                state,
                rng.choice((2020, 2021, 2022, 2022, 2023, 2023)),
                rng.choice(STYLES),
                placed,
            )
        alive = [c for c in self.colonies.values() if c.state != "dead"]
        self.never_checked = rng.choice(alive).code  # a hive nobody inspects: "which hives were never inspected?"
        self.checks: list[Check] = []
        for colony in rng.sample([c for c in alive if c.code != self.never_checked], 6):
            day = START - dt.timedelta(days=rng.randrange(3, 20))
            self.checks.append(self._check(colony, day, colony.keeper))
        self.spins: list[Spin] = []
        for colony in rng.sample(alive, 6):
            day = dt.date(2023, rng.choice((7, 8, 9)), rng.randrange(1, 29))
            crop = "heather" if self.yards[colony.yard][1] == "heather" or day.month == 9 else "summer"
            self.spins.append(Spin(colony.code, day, rng.randrange(60, 260), crop))
        self.orders: list[Order] = []
        self.paid: dict[str, list[tuple[dt.date, float, str]]] = {}
        buyers = rng.sample(sorted(self.members), 2)
        for buyer, days in zip(buyers, (24, 10)):
            codes = rng.sample([c for c, *_ in JARS if c != BULK], 2)
            order = Order(buyer, START - dt.timedelta(days=days), {c: rng.randint(2, 6) for c in codes}, "collected")
            self.orders.append(order)
        first = self.orders[0]
        self.paid[first.member] = [(first.day + dt.timedelta(days=3), float(round(self.bill(first) / 2)), "cash")]
        self.places = rng.sample(PLACES, len(PLACES))
        self.loans: list[Loan] = []
        self.reference = self._reference()

    def _code(self) -> str:
        self.next_code += self.rng.randint(1, 4)
        return f"HV-{self.next_code}"

    def _check(self, colony: Colony, day: dt.date, inspector: str) -> Check:
        rng = self.rng
        low, high = BROOD[colony.state]
        remarks = rng.choice(REMARKS) if rng.random() < 0.6 else None
        return Check(colony.code, day, inspector, rng.randint(low, high), rng.randrange(0, 36), remarks)

    # -- reference rows ---------------------------------------------------------------------------

    def _reference(self) -> str:
        def values(rows: list[str]) -> str:
            return ", ".join(rows) + ";"

        yards = [
            f"('{code}', {sql_text(name)}, '{forage}', {room})" for code, (name, forage, room) in self.yards.items()
        ]
        jars = [
            f"('{code}', {sql_text(label)}, {grams}, '{material}', {self.stock[code]}, {money(price)})"
            for code, label, grams, material, price, _, _ in JARS
        ]
        members = [
            f"({sql_text(p.name)}, {_value(p.phone)}, {_value(p.email)}, '{p.tier}', {sql_date(p.enrolled)})"
            for p in self.members.values()
        ]
        colonies = [
            f"('{c.code}', '{c.yard}', {_member(c.keeper)}, '{c.state}', {c.queen}, '{c.style}', {sql_date(c.placed)})"
            for c in self.colonies.values()
        ]
        checks = [
            f"('{h.hive}', {sql_date(h.day)}, {_member(h.inspector)}, {h.brood}, {h.mites}, {_value(h.remarks)})"
            for h in self.checks
        ]
        spins = [f"('{s.hive}', {sql_date(s.day)}, {kilos(s.tenths)}, '{s.crop}')" for s in self.spins]
        orders = [f"({_member(o.member)}, {sql_date(o.day)}, '{o.state}')" for o in self.orders]
        lines = [
            f"({o.key()}, '{code}', {n}, {money(_price(code))})" for o in self.orders for code, n in o.lines.items()
        ]
        paid = [
            f"({_member(name)}, {sql_date(day)}, {money(amount)}, '{via}')"
            for name, entries in self.paid.items()
            for day, amount, via in entries
        ]
        return "\n".join(
            (
                "INSERT INTO bee_yards (yard_code, yard_name, forage, hive_room) VALUES " + values(yards),
                "INSERT INTO jar_stock (jar_code, jar_label, fill_grams, material, jars_ready, member_price) VALUES "
                + values(jars),
                "INSERT INTO beekeepers (beekeeper_name, phone, email, tier, enrolled_on) VALUES " + values(members),
                "INSERT INTO colonies (hive_code, yard_code, member_no, colony_state, queen_year, box_style, sited_on) "
                "VALUES " + values(colonies),
                "INSERT INTO hive_checks (hive_code, looked_on, inspector_no, brood_frames, mites_counted, remarks) "
                "VALUES " + values(checks),
                "INSERT INTO extractions (hive_code, spun_on, net_kilos, crop) VALUES " + values(spins),
                "INSERT INTO jar_orders (member_no, ordered_on, order_state) VALUES " + values(orders),
                "INSERT INTO jar_order_lines (order_no, jar_code, jars, line_price) VALUES " + values(lines),
                "INSERT INTO remittances (member_no, remitted_on, amount, pay_method) VALUES " + values(paid),
            )
        )

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
        return (in_words(n), []) if n <= 12 and self.rng.random() < 0.4 else (str(n), [str(n)])

    def yard_said(self, code: str, *, by_name: bool = False) -> tuple[str, list[str]]:
        """A yard as a user names it: 'AP-3', 'site 3', 'site three', or (`by_name`) 'Sallow Wood'."""
        if by_name:
            name = self.yards[code][0]
            return name, [name]
        n = int(code.split("-")[1])
        return self.rng.choice([(code, [code]), (f"site {n}", [f"site {n}"]), (f"site {in_words(n)}", [])])

    def jar_said(self, code: str, n: int) -> tuple[str, list[str]]:
        _, _, _, _, _, one, more = next(j for j in JARS if j[0] == code)
        if self.rng.random() < 0.35:
            return f"{code} jars" if n != 1 else f"{code} jar", [code]
        return (one if n == 1 else more), []

    def kit_said(self, kit: str) -> str:
        return self.rng.choice(KIT_SAID[kit])

    # -- the state ----------------------------------------------------------------------------------

    def bill(self, order: Order) -> float:
        return sum(n * _price(code) for code, n in order.lines.items())

    def owes(self, name: str) -> float:
        billed = sum(self.bill(o) for o in self.orders if o.member == name)
        return round(billed - sum(amount for _, amount, _ in self.paid.get(name, [])), 2)

    def alive(self) -> list[Colony]:
        return [c for c in self.colonies.values() if c.state != "dead"]

    def keepers(self) -> list[str]:
        return [name for name in sorted(self.members) if name != self.no_hive]

    # -- new facts ----------------------------------------------------------------------------------

    def member_joined(self) -> Draft | None:
        if not self.newcomers:
            return None
        p = self.newcomers.pop(0)
        p.enrolled = self.day
        self.members[p.name] = p
        gold = [
            "INSERT INTO beekeepers (beekeeper_name, phone, email, tier, enrolled_on) VALUES "
            f"({sql_text(p.name)}, {_value(p.phone)}, {_value(p.email)}, '{p.tier}', {sql_date(self.day)})"
        ]
        tier, day = self.rng.choice(TIER_SAID[p.tier]), self.date(self.day)
        contact = (
            (f"phone {p.phone}" if p.phone else "no phone") + ", " + (f"email {p.email}" if p.email else "no email")
        )
        texts = {
            "log": f"{day} | new member | {p.name} | {tier} | {contact}",
            "chatty": f"{p.name} joined the cooperative on {day} as {_article(tier)} {tier} member; {contact}",
            "keyvalue": keyvalue(
                "new member",
                [("name", p.name), ("tier", tier), ("phone", p.phone or "none"), ("email", p.email or "none")]
                + [("joined", day)],
            ),
        }
        facts = {"member": p.name, "phone": p.phone, "email": p.email, "tier": p.tier}
        stated = [p.name, *([p.phone] if p.phone else []), *([p.email] if p.email else []), day]
        return Draft(facts, gold, texts, stated)

    def hive_set_up(self) -> Draft | None:
        rng = self.rng
        colony = Colony(
            self._code(),
            rng.choice(sorted(self.yards)),
            rng.choice(self.keepers()),
            rng.choice(("strong", "strong", "weak")),
            rng.choice((2023, 2024, 2024)),
            rng.choice(STYLES),
            self.day,
        )
        self.colonies[colony.code] = colony
        gold = [
            "INSERT INTO colonies (hive_code, yard_code, member_no, colony_state, queen_year, box_style, sited_on) "
            f"VALUES ('{colony.code}', '{colony.yard}', {_member(colony.keeper)}, '{colony.state}', {colony.queen}, "
            f"'{colony.style}', {sql_date(self.day)})"
        ]
        yard, said = self.yard_said(colony.yard, by_name=rng.random() < 0.25)
        style, state, day = rng.choice(STYLE_SAID[colony.style]), colony.state, self.date(self.day)
        texts = {
            "log": f"{day} | new hive | {colony.code} | {yard} | {colony.keeper} | {style} | {state}, {colony.queen} queen",
            "chatty": (
                f"{colony.keeper} set up a new {style} hive, {colony.code}, at {yard} on {day}: "
                f"a {state} colony with a {colony.queen} queen"
            ),
            "keyvalue": keyvalue(
                "new hive",
                [("hive", colony.code), ("site", yard), ("keeper", colony.keeper), ("type", f"{style} hive")]
                + [("colony", state), ("queen year", colony.queen), ("date", day)],
            ),
        }
        facts = {
            "hive": colony.code,
            "yard": colony.yard,
            "keeper": colony.keeper,
            "state": colony.state,
            "queen_year": colony.queen,
            "style": colony.style,
        }
        return Draft(facts, gold, texts, [colony.code, *said, colony.keeper, state, str(colony.queen), day])

    def inspection(self) -> Draft | None:
        rng = self.rng
        seen_today = {h.hive for h in self.checks if h.day == self.day}
        colonies = [c for c in self.alive() if c.code != self.never_checked and c.code not in seen_today]
        if not colonies:
            return None
        colony = rng.choice(colonies)
        inspector = colony.keeper if rng.random() < 0.65 else rng.choice(sorted(self.members))
        check = self._check(colony, self.day, inspector)
        self.checks.append(check)
        gold = [
            "INSERT INTO hive_checks (hive_code, looked_on, inspector_no, brood_frames, mites_counted, remarks) VALUES "
            f"('{check.hive}', {sql_date(self.day)}, {_member(inspector)}, {check.brood}, {check.mites}, "
            f"{_value(check.remarks)})"
        ]
        brood, brood_said = self.count(check.brood)
        mites, mites_said = self.count(check.mites)
        day = self.date(self.day)
        frames = "frame" if check.brood == 1 else "frames"
        texts = {
            "log": (
                f"{day} | inspection | {check.hive} | {inspector} | brood on {brood} {frames} | {mites} mites | "
                f"{check.remarks or 'no remarks'}"
            ),
            "chatty": (
                f"{inspector} went through {check.hive} on {day}: {brood} {frames} of brood, {mites} mites on the board"
                + (f", and noted: {check.remarks}" if check.remarks else ", nothing else to note")
            ),
            "keyvalue": keyvalue(
                "inspection",
                [("hive", check.hive), ("inspector", inspector), ("date", day), ("brood frames", brood)]
                + [("mites", mites), ("remarks", check.remarks or "none")],
            ),
        }
        facts = {
            "hive": check.hive,
            "inspector": inspector,
            "brood_frames": check.brood,
            "mites": check.mites,
            "remarks": check.remarks,
        }
        stated = [check.hive, inspector, *brood_said, *mites_said, *([check.remarks] if check.remarks else []), day]
        return Draft(facts, gold, texts, stated)

    def extraction(self) -> Draft | None:
        rng = self.rng
        spun_today = {s.hive for s in self.spins if s.day == self.day}
        colonies = [c for c in self.alive() if c.state != "queenless" and c.code not in spun_today]
        if not colonies:
            return None
        colony = rng.choice(colonies)
        spin = Spin(colony.code, self.day, rng.randrange(40, 240), "spring" if self.day < SUMMER_FROM else "summer")
        self.spins.append(spin)
        kg = kilos(spin.tenths)
        gold = [
            "INSERT INTO extractions (hive_code, spun_on, net_kilos, crop) VALUES "
            f"('{spin.hive}', {sql_date(self.day)}, {kg}, '{spin.crop}')"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | extraction | {spin.hive} | {kg} kg | {spin.crop} crop",
            "chatty": rng.choice(
                (
                    f"Spun {kg} kg of {spin.crop} honey off {spin.hive} on {day}",
                    f"{colony.keeper} took the supers off {spin.hive} on {day}: {kg} kg of {spin.crop} honey, net",
                )
            ),
            "keyvalue": keyvalue(
                "honey extracted", [("hive", spin.hive), ("kilos", kg), ("crop", spin.crop), ("date", day)]
            ),
        }
        facts = {"hive": spin.hive, "kilos": spin.tenths / 10, "crop": spin.crop}
        return Draft(facts, gold, texts, [spin.hive, kg, spin.crop, day])

    def jar_order(self) -> Draft | None:
        rng = self.rng
        names = [n for n in sorted(self.members) if not any(o.member == n and o.day == self.day for o in self.orders)]
        codes = [c for c, *_ in JARS if c != BULK and self.stock[c] >= 2]
        if not names or not codes:
            return None
        name = rng.choice(names)
        picked = rng.sample(codes, min(len(codes), rng.choice((1, 2, 2, 3))))
        order = Order(name, self.day, {c: rng.randint(2, min(12, self.stock[c])) for c in picked}, since=self.day)
        self.orders.append(order)
        for code, n in order.lines.items():
            self.stock[code] -= n
        lines = ", ".join(
            f"({order.key()}, '{code}', {n}, (SELECT member_price FROM jar_stock WHERE jar_code = '{code}'))"
            for code, n in order.lines.items()
        )
        gold = [
            f"INSERT INTO jar_orders (member_no, ordered_on) VALUES ({_member(name)}, {sql_date(self.day)})",
            f"INSERT INTO jar_order_lines (order_no, jar_code, jars, line_price) VALUES {lines}",
            *(
                f"UPDATE jar_stock SET jars_ready = jars_ready - {n} WHERE jar_code = '{code}'"
                for code, n in order.lines.items()
            ),
        ]
        said: list[tuple[str, str]] = []
        stated = [name]
        for code, n in order.lines.items():
            jar, jar_stated = self.jar_said(code, n)
            amount, n_stated = self.count(n)
            said.append((jar, amount))
            stated += [*jar_stated, *n_stated]
        day = self.date(self.day)
        listed = [
            f"{amount} x {jar}" if amount.isdigit() and jar[0].isdigit() else f"{amount} {jar}" for jar, amount in said
        ]
        spoken = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]
        texts = {
            "log": f"{day} | jar order | {name} | "
            + ", ".join(f"{jar}: {amount}" for jar, amount in said)
            + " | member price",
            "chatty": f"{name} ordered {spoken} on {day}, at the member price",
            "keyvalue": keyvalue(
                "jar order",
                [("member", name), *((jar, amount) for jar, amount in said), ("price", "member price")]
                + [("date", day)],
            ),
        }
        facts = {"member": name, "lines": [{"jar": code, "jars": n} for code, n in order.lines.items()]}
        return Draft(facts, gold, texts, [*stated, day])

    def remittance(self) -> Draft | None:
        rng = self.rng
        owing = [name for name in sorted(self.members) if self.owes(name) > 0]
        if not owing:
            return None
        name = rng.choice(owing)
        due = self.owes(name)
        amount = due if rng.random() < 0.6 or due <= 20 else float(rng.randrange(10, int(due), 5))
        via = rng.choice(sorted(VIA_SAID))
        self.paid.setdefault(name, []).append((self.day, amount, via))
        gold = [
            "INSERT INTO remittances (member_no, remitted_on, amount, pay_method) VALUES "
            f"({_member(name)}, {sql_date(self.day)}, {money(amount)}, '{via}')"
        ]
        how, day = rng.choice(VIA_SAID[via]), self.date(self.day)
        texts = {
            "log": f"{day} | payment | {name} | {money(amount)} | {how}",
            "chatty": f"{name} paid £{money(amount)} {how} on {day} towards their jar account",
            "keyvalue": keyvalue(
                "payment", [("member", name), ("amount", money(amount)), ("paid", how), ("date", day)]
            ),
        }
        facts = {"member": name, "amount": amount, "via": via}
        return Draft(facts, gold, texts, [name, money(amount), day])

    def swarm_caught(self) -> Draft | None:
        rng = self.rng
        if not self.places:
            return None
        name, place = rng.choice(sorted(self.members)), self.places.pop()
        kind = rng.choice(sorted(SWARM_SAID))
        tenths = rng.randrange(*SWARM_TENTHS[kind]) if rng.random() < 0.7 else None
        weight = kilos(tenths) if tenths is not None else None
        gold = [
            "INSERT INTO swarm_catches (member_no, caught_on, found_at, swarm_kind, est_kilos) VALUES "
            f"({_member(name)}, {sql_date(self.day)}, {sql_text(place)}, '{kind}', {weight or 'NULL'})"
        ]
        said, day = rng.choice(SWARM_SAID[kind]), self.date(self.day)
        texts = {
            "log": f"{day} | swarm caught | {name} | {place} | {said} | "
            + (f"about {weight} kg" if weight else "not weighed"),
            "chatty": f"{name} took {_article(said)} {said} from {place} on {day}, "
            + (f"roughly {weight} kg of bees" if weight else "no idea of its weight"),
            "keyvalue": keyvalue(
                "swarm caught",
                [("member", name), ("where", place), ("swarm", said), ("weight", f"{weight} kg" if weight else "none")]
                + [("date", day)],
            ),
        }
        facts = {"member": name, "found_at": place, "swarm": kind, "kilos": tenths / 10 if tenths else None}
        return Draft(facts, gold, texts, [name, place, *([weight] if weight else []), day])

    def kit_lent(self) -> Draft | None:
        rng = self.rng
        lent = self.day + dt.timedelta(days=rng.randint(2, 10))
        due = lent + dt.timedelta(days=rng.randint(3, 9))
        free = [
            k
            for k in sorted(KIT_SAID)
            if not any(x.kit == k and not x.cancelled and x.lent <= due and lent <= x.due for x in self.loans)
        ]
        if not free:
            return None
        fresh = [k for k in free if not any(x.kit == k for x in self.loans)]  # kit not lent yet, where there is some
        kit, name = rng.choice(fresh or free), rng.choice(sorted(self.members))
        self.loans.append(Loan(kit, name, lent, due))
        gold = [
            "INSERT INTO kit_loans (kit_item, member_no, lent_day, due_back) VALUES "
            f"('{kit}', {_member(name)}, {sql_date(lent)}, {sql_date(due)})"
        ]
        said, day, start, end = self.kit_said(kit), self.date(self.day), self.date(lent), self.date(due)
        texts = {
            "log": f"{day} | kit booked | {said} | {name} | {start} to {end}",
            "chatty": f"{name} is borrowing the {said} from {start}, back by {end} (booked on {day})",
            "keyvalue": keyvalue(
                "kit loan", [("item", said), ("member", name), ("from", start), ("back by", end), ("booked", day)]
            ),
        }
        facts = {"kit": kit, "member": name, "lent_day": lent.isoformat(), "due_back": due.isoformat()}
        return Draft(facts, gold, texts, [said, name, start, end, day])

    # -- changes: a value given, or found by a name -------------------------------------------------

    def colony_state(self) -> Draft | None:
        colonies = [c for c in self.alive() if c.code != self.never_checked]
        if not colonies:
            return None
        colony = self.rng.choice(colonies)
        colony.state = self.rng.choice(NEXT_STATES[colony.state])
        gold = [f"UPDATE colonies SET colony_state = '{colony.state}' WHERE hive_code = '{colony.code}'"]
        shorts, clauses = STATE_SAID[colony.state]
        short, clause, day = self.rng.choice(shorts), self.rng.choice(clauses), self.date(self.day)
        texts = {
            "log": f"{day} | {colony.code} | {short}",
            "chatty": f"{colony.keeper}'s hive {colony.code} {clause} (seen {day})",
            "keyvalue": keyvalue("colony update", [("hive", colony.code), ("state", short), ("date", day)]),
        }
        return Draft({"hive": colony.code, "state": colony.state}, gold, texts, [colony.code, day])

    def hive_moved(self) -> Draft | None:
        colonies = self.alive()
        if not colonies:
            return None
        colony = self.rng.choice(colonies)
        colony.yard = self.rng.choice([y for y in sorted(self.yards) if y != colony.yard])
        by_name = self.rng.random() < 0.5
        yard, said = self.yard_said(colony.yard, by_name=by_name)
        value = lookup("bee_yards", "yard_code", "yard_name", yard) if by_name else f"'{colony.yard}'"
        gold = [f"UPDATE colonies SET yard_code = {value} WHERE hive_code = '{colony.code}'"]
        day = self.date(self.day)
        forage = self.yards[colony.yard][1]
        texts = {
            "log": f"{day} | moved | {colony.code} | to {yard}",
            "chatty": f"Moved {colony.code} over to {yard} on {day}, for the {forage}",
            "keyvalue": keyvalue("hive moved", [("hive", colony.code), ("new site", yard), ("date", day)]),
        }
        return Draft({"hive": colony.code, "yard": colony.yard}, gold, texts, [colony.code, *said, day])

    def hive_handed(self) -> Draft | None:
        colonies = self.alive()
        if not colonies:
            return None
        colony = self.rng.choice(colonies)
        old = colony.keeper
        colony.keeper = self.rng.choice([n for n in self.keepers() if n != old])
        gold = [f"UPDATE colonies SET member_no = {_member(colony.keeper)} WHERE hive_code = '{colony.code}'"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | keeper change | {colony.code} | now {colony.keeper}",
            "chatty": f"{colony.keeper} takes over {colony.code} from {old} as of {day}",
            "keyvalue": keyvalue(
                "keeper change", [("hive", colony.code), ("new keeper", colony.keeper), ("date", day)]
            ),
        }
        return Draft({"hive": colony.code, "keeper": colony.keeper}, gold, texts, [colony.code, colony.keeper, day])

    def tier_changed(self) -> Draft | None:
        name = self.rng.choice(sorted(self.members))
        member = self.members[name]
        old = member.tier
        member.tier = self.rng.choice([tier for tier in TIER_SAID if tier != old])
        gold = [f"UPDATE beekeepers SET tier = '{member.tier}' WHERE beekeeper_name = {sql_text(name)}"]
        before, after = self.rng.choice(TIER_SAID[old]), self.rng.choice(TIER_SAID[member.tier])
        day = self.date(self.day)
        texts = {
            "log": f"{day} | tier change | {name} | {before} -> {after}",
            "chatty": f"{name} moves from {before} to {after} membership from {day}",
            "keyvalue": keyvalue(
                "tier change", [("member", name), ("old tier", before), ("new tier", after), ("from", day)]
            ),
        }
        return Draft({"member": name, "tier": member.tier}, gold, texts, [name, day])

    def requeened(self) -> Draft | None:
        colonies = [c for c in self.alive() if c.queen <= 2022 and c.state in ("strong", "weak")]
        if not colonies:
            return None
        colony = self.rng.choice(colonies)
        old, colony.queen = colony.queen, self.day.year
        gold = [f"UPDATE colonies SET queen_year = {colony.queen} WHERE hive_code = '{colony.code}'"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | requeened | {colony.code} | new queen {colony.queen}",
            "chatty": f"Replaced the old {old} queen in {colony.code} with a {colony.queen} queen on {day}",
            "keyvalue": keyvalue("requeening", [("hive", colony.code), ("queen year", colony.queen), ("date", day)]),
        }
        facts = {"hive": colony.code, "queen_year": colony.queen}
        return Draft(facts, gold, texts, [colony.code, str(colony.queen), day])

    def order_progress(self) -> Draft | None:
        orders = [o for o in self.orders if o.state != "collected" and o.since < self.day]
        if not orders:
            return None
        order = self.rng.choice(orders)
        order.state, order.since = ("packed" if order.state == "placed" else "collected"), self.day
        gold = [f"UPDATE jar_orders SET order_state = '{order.state}' WHERE order_no = {order.key()}"]
        how, when, day = self.rng.choice(ORDER_SAID[order.state]), self.date(order.day), self.date(self.day)
        texts = {
            "log": f"{day} | {order.member}'s order of {when} | {how}",
            "chatty": f"{order.member}'s jar order of {when} has been {how} ({day})",
            "keyvalue": keyvalue(
                "order update", [("member", order.member), ("order of", when), ("now", how), ("date", day)]
            ),
        }
        facts = {"member": order.member, "ordered_on": order.day.isoformat(), "state": order.state}
        return Draft(facts, gold, texts, [order.member, when, day])

    def kit_returned(self) -> Draft | None:
        loans = [x for x in self.loans if not x.cancelled and x.returned is None and x.lent < self.day]
        if not loans:
            return None
        loan = self.rng.choice(loans)
        loan.returned = self.day
        gold = [
            f"UPDATE kit_loans SET came_back_on = {sql_date(self.day)} WHERE kit_item = '{loan.kit}' "
            f"AND lent_day = {sql_date(loan.lent)}"
        ]
        said, day = self.kit_said(loan.kit), self.date(self.day)
        texts = {
            "log": f"{day} | kit back | {said} | from {loan.member}",
            "chatty": f"{loan.member} brought the {said} back on {day}",
            "keyvalue": keyvalue("kit returned", [("item", said), ("member", loan.member), ("returned", day)]),
        }
        facts = {"kit": loan.kit, "member": loan.member, "came_back_on": self.day.isoformat()}
        return Draft(facts, gold, texts, [said, loan.member, day])

    # -- changes: a value erased --------------------------------------------------------------------

    def contact_dropped(self) -> Draft | None:
        dropped = sum(r.kind == "contact_dropped" for r in self.records)
        column, what = ("phone", "phone number") if dropped == 1 else ("email", "email address")
        names = [n for n, p in sorted(self.members.items()) if getattr(p, column)]
        if not names:
            return None
        name = self.rng.choice(names)
        setattr(self.members[name], column, None)
        gold = [f"UPDATE beekeepers SET {column} = NULL WHERE beekeeper_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {name} | {what} no longer in use, remove it",
            "chatty": f"{name} asked on {day} for their {what} to be deleted from our list",
            "keyvalue": keyvalue("contact change", [("member", name), (what, "none any more"), ("date", day)]),
        }
        return Draft({"member": name, column: None}, gold, texts, [name, day])

    def remark_cleared(self) -> Draft | None:
        checks = [h for h in self.checks if h.remarks]
        if not checks:
            return None
        check = self.rng.choice(checks)
        check.remarks = None
        gold = [f"UPDATE hive_checks SET remarks = NULL WHERE {_check_where(check)}"]
        when, day = self.date(check.day), self.date(self.day)
        texts = {
            "log": f"{day} | {check.hive} inspection of {when} | remark was wrong, clear it",
            "chatty": f"The remark on the {when} inspection of {check.hive} was meant for another hive, please blank it "
            f"(noticed {day})",
            "keyvalue": keyvalue(
                "inspection fix",
                [("hive", check.hive), ("inspected", when), ("remarks", "none, delete the old note"), ("date", day)],
            ),
        }
        facts = {"hive": check.hive, "looked_on": check.day.isoformat(), "remarks": None}
        return Draft(facts, gold, texts, [check.hive, when, day])

    # -- changes: a value read from another row of the same table -----------------------------------

    def hive_same_yard(self) -> Draft | None:
        colonies = self.alive()
        pairs = [(a, b) for a in colonies for b in colonies if a.yard != b.yard]
        if not pairs:
            return None
        colony, other = self.rng.choice(pairs)
        colony.yard = other.yard
        gold = [
            f"UPDATE colonies SET yard_code = (SELECT yard_code FROM colonies WHERE hive_code = '{other.code}') "
            f"WHERE hive_code = '{colony.code}'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | moved | {colony.code} | to the site of {other.code}",
            "chatty": f"Moved {colony.code} on {day} to the same site as {other.code}, so they can be worked together",
            "keyvalue": keyvalue(
                "hive moved", [("hive", colony.code), ("new site", f"same as {other.code}"), ("date", day)]
            ),
        }
        facts = {"hive": colony.code, "same_yard_as": other.code, "yard": colony.yard}
        return Draft(facts, gold, texts, [colony.code, other.code, day])

    def hive_same_keeper(self) -> Draft | None:
        colonies = self.alive()
        pairs = [(a, b) for a in colonies for b in colonies if a.keeper != b.keeper]
        if not pairs:
            return None
        colony, other = self.rng.choice(pairs)
        colony.keeper = other.keeper
        gold = [
            f"UPDATE colonies SET member_no = (SELECT member_no FROM colonies WHERE hive_code = '{other.code}') "
            f"WHERE hive_code = '{colony.code}'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | keeper change | {colony.code} | same keeper as {other.code}",
            "chatty": f"From {day}, {colony.code} is looked after by whoever keeps {other.code}",
            "keyvalue": keyvalue(
                "keeper change", [("hive", colony.code), ("new keeper", f"the keeper of {other.code}"), ("date", day)]
            ),
        }
        facts = {"hive": colony.code, "same_keeper_as": other.code, "keeper": colony.keeper}
        return Draft(facts, gold, texts, [colony.code, other.code, day])

    def phone_shared(self) -> Draft | None:
        people = sorted(self.members.values(), key=lambda p: p.name)
        pairs = [(a, b) for a in people for b in people if b.phone and a.phone != b.phone]
        if not pairs:
            return None
        member, partner = self.rng.choice(pairs)
        member.phone = partner.phone
        gold = [
            f"UPDATE beekeepers SET phone = (SELECT phone FROM beekeepers WHERE beekeeper_name = {sql_text(partner.name)}) "
            f"WHERE beekeeper_name = {sql_text(member.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {member.name} | phone: same as {partner.name}'s",
            "chatty": f"{member.name} says to ring {partner.name}'s number from now on, they share a phone ({day})",
            "keyvalue": keyvalue(
                "contact change", [("member", member.name), ("phone", f"same as {partner.name}"), ("date", day)]
            ),
        }
        facts = {"member": member.name, "same_phone_as": partner.name, "phone": partner.phone}
        return Draft(facts, gold, texts, [member.name, partner.name, day])

    # -- changes: a number raised or lowered ----------------------------------------------------------

    def _jars_change(self, more: bool) -> Draft | None:
        rng = self.rng
        codes = [c for c, *_ in JARS if more or self.stock[c] >= 3]
        if not codes:
            return None
        code = rng.choice(codes)
        n = rng.choice((6, 12, 18, 24, 10)) if more else rng.randint(1, min(4, self.stock[code]))
        self.stock[code] += n if more else -n
        gold = [f"UPDATE jar_stock SET jars_ready = jars_ready {'+' if more else '-'} {n} WHERE jar_code = '{code}'"]
        jar, jar_stated = self.jar_said(code, n)
        amount, said = self.count(n)
        day = self.date(self.day)
        if more:
            texts = {
                "log": f"{day} | bottled | {jar} | +{amount}",
                "chatty": f"Filled {amount} more {jar} on {day}, they're on the stock shelf",
                "keyvalue": keyvalue("bottling", [("jar", jar), ("filled", amount), ("date", day)]),
            }
        else:
            them = "them" if n > 1 else "it"
            texts = {
                "log": f"{day} | breakage | {jar} | {amount} broken, off stock",
                "chatty": f"{_capital(amount)} {jar} got smashed on {day}, take {them} off the stock",
                "keyvalue": keyvalue("stock write-off", [("jar", jar), ("broken", amount), ("date", day)]),
            }
        facts = {"jar": code, "change": n if more else -n, "jars_ready": self.stock[code]}
        return Draft(facts, gold, texts, [*jar_stated, *said, day])

    def jars_filled(self) -> Draft | None:
        return self._jars_change(more=True)

    def jars_broken(self) -> Draft | None:
        return self._jars_change(more=False)

    def mites_fix(self) -> Draft | None:
        rng = self.rng
        checks = [h for h in self.checks if h.day < self.day]
        if not checks:
            return None
        check = rng.choice(checks)
        n = rng.randint(2, 8)
        high = check.mites >= n and rng.random() < 0.6
        check.mites += -n if high else n
        gold = [
            f"UPDATE hive_checks SET mites_counted = mites_counted {'-' if high else '+'} {n} WHERE {_check_where(check)}"
        ]
        amount, said = self.count(n)
        when, day = self.date(check.day), self.date(self.day)
        way = "too high" if high else "too low"
        texts = {
            "log": f"{day} | correction | {check.hive} inspection of {when} | mites {amount} {way}",
            "chatty": (
                f"The mite count at the {when} inspection of {check.hive} was {amount} {way}, "
                f"{'I counted some twice' if high else 'we missed some on the board'} (fixed {day})"
            ),
            "keyvalue": keyvalue(
                "inspection fix",
                [("hive", check.hive), ("inspected", when), ("mites", f"{amount} {way}"), ("date", day)],
            ),
        }
        facts = {"hive": check.hive, "looked_on": check.day.isoformat(), "change": -n if high else n}
        return Draft(facts, gold, texts, [check.hive, when, *said, day])

    def kilos_fix(self) -> Draft | None:
        rng = self.rng
        spins = [s for s in self.spins if s.day < self.day and s.tenths > 30]
        if not spins:
            return None
        spin = rng.choice(spins)
        step = rng.choice((5, 8, 10, 15, 20, -5, -10, -15))
        spin.tenths += step
        change = kilos(abs(step))
        gold = [
            f"UPDATE extractions SET net_kilos = net_kilos {'+' if step > 0 else '-'} {change} "
            f"WHERE hive_code = '{spin.hive}' AND spun_on = {sql_date(spin.day)}"
        ]
        when, day = self.date(spin.day), self.date(self.day)
        way = "more" if step > 0 else "less"
        texts = {
            "log": f"{day} | correction | {spin.hive} extraction of {when} | {'+' if step > 0 else '-'}{change} kg",
            "chatty": f"The honey spun off {spin.hive} on {when} weighed {change} kg {way} than we logged (reweighed {day})",
            "keyvalue": keyvalue(
                "extraction fix",
                [("hive", spin.hive), ("spun on", when), ("change", f"{change} kg {way}"), ("date", day)],
            ),
        }
        facts = {"hive": spin.hive, "spun_on": spin.day.isoformat(), "change": step / 10}
        return Draft(facts, gold, texts, [spin.hive, when, change, day])

    # -- changes: a row removed -------------------------------------------------------------------------

    def line_dropped(self) -> Draft | None:
        orders = [o for o in self.orders if o.state == "placed" and len(o.lines) >= 2]
        if not orders:
            return None
        order = self.rng.choice(orders)
        code = self.rng.choice(sorted(order.lines))
        n = order.lines.pop(code)
        self.stock[code] += n
        gold = [
            f"DELETE FROM jar_order_lines WHERE order_no = {order.key()} AND jar_code = '{code}'",
            f"UPDATE jar_stock SET jars_ready = jars_ready + {n} WHERE jar_code = '{code}'",
        ]
        jar, jar_stated = self.jar_said(code, n)
        amount, said = self.count(n)
        when, day = self.date(order.day), self.date(self.day)
        texts = {
            "log": f"{day} | order change | {order.member}'s order of {when} | drop the {jar}, {amount} back to stock",
            "chatty": (
                f"{order.member} doesn't want the {jar} on their order of {when} after all: take that line off "
                f"and put the {amount} jars back in stock ({day})"
            ),
            "keyvalue": keyvalue(
                "order change",
                [("member", order.member), ("order of", when), ("remove", jar), ("back to stock", amount)]
                + [("date", day)],
            ),
        }
        facts = {"member": order.member, "ordered_on": order.day.isoformat(), "jar": code, "jars": n}
        return Draft(facts, gold, texts, [order.member, when, *jar_stated, *said, day])

    def loan_cancelled(self) -> Draft | None:
        loans = [x for x in self.loans if not x.cancelled and x.lent > self.day]
        if not loans:
            return None
        loan = self.rng.choice(loans)
        loan.cancelled = True
        self.loans.remove(loan)
        gold = [f"DELETE FROM kit_loans WHERE kit_item = '{loan.kit}' AND lent_day = {sql_date(loan.lent)}"]
        said, start, day = self.kit_said(loan.kit), self.date(loan.lent), self.date(self.day)
        texts = {
            "log": f"{day} | kit booking cancelled | {said} | {loan.member} | was from {start}",
            "chatty": f"{loan.member} no longer needs the {said} from {start}; cancel the booking ({day})",
            "keyvalue": keyvalue(
                "kit booking cancelled", [("item", said), ("member", loan.member), ("from", start), ("date", day)]
            ),
        }
        facts = {"kit": loan.kit, "member": loan.member, "lent_day": loan.lent.isoformat()}
        return Draft(facts, gold, texts, [said, loan.member, start, day])

    def check_struck(self) -> Draft | None:
        checks = [h for h in self.checks if START <= h.day < self.day]
        if not checks:
            return None
        check = self.rng.choice(checks)
        self.checks.remove(check)
        gold = [f"DELETE FROM hive_checks WHERE {_check_where(check)}"]
        when, day = self.date(check.day), self.date(self.day)
        texts = {
            "log": f"{day} | delete | inspection of {check.hive} on {when} | entered by mistake",
            "chatty": f"The inspection of {check.hive} on {when} was logged by mistake, nobody opened that hive; "
            f"delete it ({day})",
            "keyvalue": keyvalue(
                "inspection removed",
                [("hive", check.hive), ("inspected", when), ("reason", "entered in error"), ("date", day)],
            ),
        }
        return Draft({"hive": check.hive, "looked_on": check.day.isoformat()}, gold, texts, [check.hive, when, day])

    # -- questions ----------------------------------------------------------------------------------

    def questions(self) -> list[Question]:
        rng = self.rng
        phoned = [p.name for p in self.members.values() if p.phone]
        sharer = next((str(r.facts["member"]) for r in self.records if r.kind == "phone_shared"), rng.choice(phoned))
        colony, moved = rng.choice(self.alive()), rng.choice(self.alive())
        kept, queened = rng.choice(self.alive()), rng.choice(self.alive())
        check = rng.choice([h for h in self.checks if h.day >= START])
        inspected = rng.choice([c for c in self.colonies if sum(h.hive == c for h in self.checks) >= 1])
        yard = rng.choice(sorted({self.colonies[s.hive].yard for s in self.spins}))
        yard_n = int(yard.split("-")[1])
        debtor = rng.choice(sorted({o.member for o in self.orders}))
        order = rng.choice([o for o in self.orders if o.day >= START])
        tier = rng.choice(sorted({p.tier for p in self.members.values()}))
        logged = sorted(h.day for h in self.checks if h.day >= START)
        first = rng.choice(logged[: len(logged) // 2 + 1])
        span = (first - dt.timedelta(days=rng.randint(0, 2)), first + dt.timedelta(days=rng.randint(7, 14)))
        month = rng.choice(sorted({s.day.replace(day=1) for s in self.spins if s.day >= START}))
        paid_month = rng.choice(sorted({d.replace(day=1) for e in self.paid.values() for d, _, _ in e if d >= START}))
        form = rng.choice((1, 2))

        def said(day: dt.date) -> str:
            return date_forms(day)[form]

        def after(first_of: dt.date) -> dt.date:
            return (first_of + dt.timedelta(days=32)).replace(day=1)

        keepers = "FROM colonies c JOIN beekeepers m ON m.member_no = c.member_no"
        lines = f"FROM jar_order_lines l {_OF_ORDER}"
        rows = [
            ("count", "How many colonies are strong right now?", "SELECT count(*) FROM colonies WHERE colony_state = 'strong'"),
            ("count", "How many of our hives have died out?", "SELECT count(*) FROM colonies WHERE colony_state = 'dead'"),
            ("count", f"How many times has {inspected} been inspected?",
             f"SELECT count(*) FROM hive_checks WHERE hive_code = '{inspected}'"),
            ("count", "How many members are apprentices?", "SELECT count(*) FROM beekeepers WHERE tier = 'apprentice'"),
            ("count", "How many swarms have members caught?", "SELECT count(*) FROM swarm_catches"),
            ("sum", "How many kilos of honey have we spun altogether?", "SELECT sum(net_kilos) FROM extractions"),
            ("sum", f"How much honey has come off the hives now at site {yard_n}?",
             "SELECT sum(e.net_kilos) FROM extractions e JOIN colonies c ON c.hive_code = e.hive_code "
             f"WHERE c.yard_code = '{yard}'"),
            ("sum", "How much have members paid the cooperative in all?", "SELECT sum(amount) FROM remittances"),
            ("sum", "How many filled jars, of every size, are in stock?", "SELECT sum(jars_ready) FROM jar_stock"),
            ("lookup", f"Which site is {moved.code} at?", f"SELECT yard_code FROM colonies WHERE hive_code = '{moved.code}'"),
            ("lookup", f"Who keeps {kept.code}?",
             f"SELECT m.beekeeper_name {keepers} WHERE c.hive_code = '{kept.code}'"),
            ("lookup", f"What phone number do we have for {sharer}?",
             f"SELECT phone FROM beekeepers WHERE beekeeper_name = {sql_text(sharer)}"),
            ("lookup", f"What state is the colony in {colony.code} in?",
             f"SELECT colony_state FROM colonies WHERE hive_code = '{colony.code}'"),
            ("lookup", f"What year is the queen in {queened.code} from?",
             f"SELECT queen_year FROM colonies WHERE hive_code = '{queened.code}'"),
            ("lookup", f"How many mites were counted when {check.hive} was inspected on {said(check.day)}?",
             f"SELECT mites_counted FROM hive_checks WHERE {_check_where(check)}"),
            ("grouped", "How many hives are there in each colony state?",
             "SELECT colony_state, count(*) FROM colonies GROUP BY colony_state ORDER BY colony_state"),
            ("grouped", "How many hives does each site have?",
             "SELECT yard_code, count(*) FROM colonies GROUP BY yard_code ORDER BY yard_code"),
            ("grouped", "How many kilos of honey of each crop have we spun?",
             "SELECT crop, sum(net_kilos) FROM extractions GROUP BY crop ORDER BY crop"),
            ("grouped", "How much has been paid each way (cash, cheque, card, transfer)?",
             "SELECT pay_method, sum(amount) FROM remittances GROUP BY pay_method ORDER BY pay_method"),
            ("grouped", "How many jars of each size have members ordered?",
             "SELECT jar_code, sum(jars) FROM jar_order_lines GROUP BY jar_code ORDER BY jar_code"),
            ("top", "Which hive has given the most honey, and how much?",
             "SELECT hive_code, sum(net_kilos) AS kilos FROM extractions GROUP BY hive_code "
             "ORDER BY kilos DESC, hive_code LIMIT 1"),
            ("top", "Which three members have ordered the most jars, and how many each?",
             f"SELECT m.beekeeper_name, sum(l.jars) AS ordered {lines} GROUP BY m.beekeeper_name "
             "ORDER BY ordered DESC, m.beekeeper_name LIMIT 3"),
            ("top", "Which inspection found the most mites: which hive, and on what day?",
             "SELECT hive_code, looked_on, mites_counted FROM hive_checks ORDER BY mites_counted DESC, looked_on LIMIT 1"),
            ("top", "Which member keeps the most hives?",
             f"SELECT m.beekeeper_name, count(*) AS hives {keepers} GROUP BY m.beekeeper_name "
             "ORDER BY hives DESC, m.beekeeper_name LIMIT 1"),
            ("range", f"Which hives were inspected between {said(span[0])} and {said(span[1])}?",
             f"SELECT DISTINCT hive_code FROM hive_checks WHERE looked_on BETWEEN {sql_date(span[0])} "
             f"AND {sql_date(span[1])} ORDER BY hive_code"),
            ("range", f"How much honey did we spin in {month.strftime('%B %Y')}?",
             f"SELECT sum(net_kilos) FROM extractions WHERE spun_on >= {sql_date(month)} "
             f"AND spun_on < {sql_date(after(month))}"),
            ("range", f"How much did members pay in {paid_month.strftime('%B %Y')}?",
             f"SELECT sum(amount) FROM remittances WHERE remitted_on >= {sql_date(paid_month)} "
             f"AND remitted_on < {sql_date(after(paid_month))}"),
            ("derived", f"How much does {debtor} owe the cooperative?",
             f"SELECT owed_to_coop FROM beekeepers WHERE beekeeper_name = {sql_text(debtor)}"),
            ("derived", "How much do the members owe between them?", "SELECT sum(owed_to_coop) FROM beekeepers"),
            ("derived", "Who owes the cooperative the most, and how much?",
             "SELECT beekeeper_name, owed_to_coop FROM beekeepers ORDER BY owed_to_coop DESC, beekeeper_name LIMIT 1"),
            ("derived", f"What does {order.member}'s jar order of {said(order.day)} come to?",
             f"SELECT sum(l.jars * l.line_price) {lines} WHERE m.beekeeper_name = {sql_text(order.member)} "
             f"AND o.ordered_on = {sql_date(order.day)}"),
            ("none", "Which members keep no hive at all?",
             "SELECT beekeeper_name FROM beekeepers WHERE member_no NOT IN (SELECT member_no FROM colonies) "
             "ORDER BY beekeeper_name"),
            ("none", "Which hives have never been inspected?",
             "SELECT hive_code FROM colonies WHERE hive_code NOT IN (SELECT hive_code FROM hive_checks) ORDER BY hive_code"),
            ("none", "Which members have no email address on file?",
             "SELECT beekeeper_name FROM beekeepers WHERE email IS NULL ORDER BY beekeeper_name"),
            ("none", "Which jar sizes has no member ever ordered?",
             "SELECT jar_code FROM jar_stock WHERE jar_code NOT IN (SELECT jar_code FROM jar_order_lines) ORDER BY jar_code"),
            ("average", "What is the average mite count per inspection?", "SELECT avg(mites_counted) FROM hive_checks"),
            ("average", "How many kilos does an extraction give on average?", "SELECT avg(net_kilos) FROM extractions"),
            ("category", "Which hives are queenless?",
             "SELECT hive_code FROM colonies WHERE colony_state = 'queenless' ORDER BY hive_code"),
            ("category", f"Which members are on the {TIER_SAID[tier][0]} tier?",
             f"SELECT beekeeper_name FROM beekeepers WHERE tier = '{tier}' ORDER BY beekeeper_name"),
            ("category", "Which kit is booked or lent out and not back yet, and who has it?",
             "SELECT k.kit_item, m.beekeeper_name, k.due_back FROM kit_loans k JOIN beekeepers m ON m.member_no = k.member_no "
             "WHERE k.came_back_on IS NULL ORDER BY k.lent_day"),
        ]  # fmt: skip
        return [Question(f"q{i:02d}", text, gold, family) for i, (family, text, gold) in enumerate(rows, 1)]


def build(seed: int = 0) -> Trade:
    """The beekeeping-cooperative trade generated from `seed`: the first log drawn from `random.Random(seed)` that
    places every record (a draw whose kinds left stop fitting is dropped, and the same generator draws again)."""
    rng = random.Random(seed)
    for _ in range(DRAWS):
        coop = Coop(rng, seed)
        if coop.run():
            break
    else:
        raise RuntimeError(f"no log of seed {seed} placed its records in {DRAWS} draws")
    return Trade(
        name="apiary",
        description="A beekeeping cooperative: members' hives at bee yards, inspections, honey extracted, jar stock, "
        "members' jar orders and payments, swarms caught and kit lent.",
        schema=SCHEMA,
        reference=coop.reference,
        rules=(OWED,),
        records=tuple(coop.records),
        questions=tuple(coop.questions()),
        snapshot=dict(SNAPSHOT),
        checks=dict(CHECKS),
    )
