"""Tool hire: a workshop hiring out drills, saws, ladders, generators and mixers from three depots.

Hirers (trades people and firms) take a tool, identified by a code like 'DR-07' ("the hammer drill
number 7"), for some days against a deposit; it comes back in some condition, damage is charged, and
payments are taken by card, in cash or on account. A hire's amount due is its days times the tool's
daily rate on its first day, plus the damage charged on its return, minus what was paid; a hirer's
balance is the sum of their hires' amounts due.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from .base import (
    WORDINGS,
    Question,
    Record,
    Rule,
    Trade,
    Turns,
    date_forms,
    in_words,
    keyvalue,
    lookup,
    sql_date,
    sql_text,
)

SCHEMA = """
CREATE SEQUENCE depot_seq START 1;
CREATE SEQUENCE hirer_seq START 1;
CREATE SEQUENCE hire_seq START 1;
CREATE SEQUENCE return_seq START 1;
CREATE SEQUENCE charge_seq START 1;
CREATE SEQUENCE payment_seq START 1;
CREATE TABLE depots (
    depot_no INTEGER PRIMARY KEY DEFAULT nextval('depot_seq'),
    depot_name VARCHAR NOT NULL UNIQUE,
    town VARCHAR NOT NULL
);
CREATE TABLE tools (
    tool_code VARCHAR PRIMARY KEY,
    category VARCHAR NOT NULL CHECK (category IN ('drill', 'saw', 'sander', 'ladder', 'generator', 'mixer')),
    model VARCHAR NOT NULL,
    depot_no INTEGER NOT NULL,
    status VARCHAR NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
    retired_on DATE
);
CREATE TABLE day_rates (
    tool_code VARCHAR NOT NULL REFERENCES tools (tool_code),
    applies_from DATE NOT NULL,
    rate_per_day DECIMAL(8, 2) NOT NULL CHECK (rate_per_day > 0),
    PRIMARY KEY (tool_code, applies_from)
);
CREATE TABLE hirers (
    hirer_id INTEGER PRIMARY KEY DEFAULT nextval('hirer_seq'),
    hirer_name VARCHAR NOT NULL UNIQUE,
    trade VARCHAR,
    phone VARCHAR,
    email VARCHAR,
    balance DECIMAL(10, 2) NOT NULL DEFAULT 0
);
CREATE TABLE hires (
    hire_id INTEGER PRIMARY KEY DEFAULT nextval('hire_seq'),
    hirer_id INTEGER NOT NULL REFERENCES hirers (hirer_id),
    tool_code VARCHAR NOT NULL REFERENCES tools (tool_code),
    starts_on DATE NOT NULL,
    ends_on DATE NOT NULL,
    deposit DECIMAL(8, 2) NOT NULL DEFAULT 0,
    amount_due DECIMAL(10, 2) NOT NULL DEFAULT 0,
    CHECK (ends_on > starts_on)
);
CREATE TABLE hire_returns (
    return_id INTEGER PRIMARY KEY DEFAULT nextval('return_seq'),
    hire_id INTEGER NOT NULL UNIQUE REFERENCES hires (hire_id),
    returned_at DATE NOT NULL,
    condition VARCHAR NOT NULL CHECK (condition IN ('good', 'worn', 'damaged'))
);
CREATE TABLE damage_charges (
    charge_id INTEGER PRIMARY KEY DEFAULT nextval('charge_seq'),
    return_id INTEGER NOT NULL REFERENCES hire_returns (return_id),
    charged_on DATE NOT NULL,
    description VARCHAR NOT NULL,
    amount DECIMAL(8, 2) NOT NULL CHECK (amount > 0)
);
CREATE TABLE hire_payments (
    payment_id INTEGER PRIMARY KEY DEFAULT nextval('payment_seq'),
    hire_id INTEGER NOT NULL REFERENCES hires (hire_id),
    paid_on DATE NOT NULL,
    amount DECIMAL(8, 2) NOT NULL CHECK (amount > 0),
    method VARCHAR NOT NULL CHECK (method IN ('card', 'cash', 'account'))
);
"""
# tools.depot_no names a depot without REFERENCES: DuckDB (1.5) refuses an UPDATE of a foreign-key column of a
# table that other tables reference ("key is still referenced"), and moving a tool to another depot is such an UPDATE.

AMOUNT_DUE = Rule(
    name="hire amount due",
    sentence=(
        "A hire's amount due is its number of days (end date minus start date) times the tool's daily rate on the day "
        "the hire started, plus the damage charged on its return, minus the payments made against it."
    ),
    sql=(
        "UPDATE hires SET amount_due = (hires.ends_on - hires.starts_on) * coalesce((SELECT arg_max(r.rate_per_day, "
        "r.applies_from) FROM day_rates r WHERE r.tool_code = hires.tool_code AND r.applies_from <= hires.starts_on), 0) "
        "+ coalesce((SELECT sum(c.amount) FROM damage_charges c JOIN hire_returns t ON t.return_id = c.return_id "
        "WHERE t.hire_id = hires.hire_id), 0) "
        "- coalesce((SELECT sum(p.amount) FROM hire_payments p WHERE p.hire_id = hires.hire_id), 0)"
    ),
)
BALANCE = Rule(
    name="hirer balance",
    sentence="A hirer's balance is the total amount due on all of their hires.",
    sql="UPDATE hirers SET balance = coalesce((SELECT sum(h.amount_due) FROM hires h WHERE h.hirer_id = hirers.hirer_id), 0)",
)

_WHO = "JOIN hirers h ON h.hirer_id = x.hirer_id"
_OPEN = "x.hire_id NOT IN (SELECT hire_id FROM hire_returns)"
_LATEST_RATE = (
    "(SELECT arg_max(r.rate_per_day, r.applies_from) FROM day_rates r WHERE r.tool_code = t.tool_code)"  # t: tools
)
SNAPSHOT = {
    "tools": (
        "SELECT t.tool_code, d.depot_name, t.status, t.retired_on FROM tools t LEFT JOIN depots d ON d.depot_no = t.depot_no"
    ),
    "day_rates": "SELECT tool_code, applies_from, rate_per_day FROM day_rates",
    "hirers": "SELECT hirer_name, phone, email, balance FROM hirers",
    "hires": f"SELECT h.hirer_name, x.tool_code, x.starts_on, x.ends_on, x.deposit, x.amount_due FROM hires x {_WHO}",
    "hire_returns": (
        "SELECT h.hirer_name, x.tool_code, x.starts_on, r.returned_at, r.condition "
        f"FROM hire_returns r JOIN hires x ON x.hire_id = r.hire_id {_WHO}"
    ),
    "damage_charges": (
        "SELECT h.hirer_name, x.tool_code, c.charged_on, c.amount FROM damage_charges c "
        f"JOIN hire_returns r ON r.return_id = c.return_id JOIN hires x ON x.hire_id = r.hire_id {_WHO}"
    ),
    "hire_payments": (
        "SELECT h.hirer_name, x.tool_code, p.paid_on, p.amount, p.method "
        f"FROM hire_payments p JOIN hires x ON x.hire_id = p.hire_id {_WHO}"
    ),
}
CHECKS = {
    "hirer balances": "SELECT hirer_name, balance FROM hirers",
    "amount due per hire": f"SELECT h.hirer_name, x.tool_code, x.starts_on, x.amount_due FROM hires x {_WHO}",
    "tools out on hire": f"SELECT x.tool_code, h.hirer_name, x.ends_on FROM hires x {_WHO} WHERE {_OPEN}",
    "tools per depot and status": (
        "SELECT d.depot_name, t.status, count(*) FROM tools t JOIN depots d ON d.depot_no = t.depot_no "
        "GROUP BY d.depot_name, t.status"
    ),
    "latest daily rate per tool": f"SELECT t.tool_code, {_LATEST_RATE} FROM tools t",
    "payments per method": "SELECT method, count(*), sum(amount) FROM hire_payments GROUP BY method",
}

START = dt.date(2024, 3, 1)
DEPOTS = (("Riverside", "Northam"), ("Hilltop", "Eastbury"), ("Canal Street", "Northam"))
PREFIX = {"drill": "DR", "saw": "SW", "sander": "SN", "ladder": "LD", "generator": "GN", "mixer": "MX"}
SPOKEN = {  # what a user calls a tool of each category
    "drill": ("hammer drill", "power drill", "drill"),
    "saw": ("circular saw", "power saw", "saw"),
    "sander": ("floor sander", "sanding machine", "sander"),
    "ladder": ("extension ladder", "ladder"),
    "generator": ("petrol generator", "genny", "generator"),
    "mixer": ("cement mixer", "concrete mixer", "mixer"),
}
SPOKEN_PLURAL = {
    "drill": ("drills", "power drills"),
    "saw": ("saws", "power saws"),
    "sander": ("sanders", "sanding machines"),
    "ladder": ("ladders",),
    "generator": ("generators", "gennies"),
    "mixer": ("mixers", "cement mixers"),
}
MODELS = {
    "drill": ("Voltra HD-18", "Kestrel SDS Plus", "Brennick 850W"),
    "saw": ("Voltra CS-190", "Hartley 235mm", "Kestrel Track Saw"),
    "sander": ("Brennick Floorstar", "Hartley Edger 7", "Voltra Drum 200"),
    "ladder": ("Tallman 3x10", "Climbright 4m", "Tallman Combi 12"),
    "generator": ("Pelham 3kVA", "Pelham 6kVA", "Brennick Quiet 2.2"),
    "mixer": ("Rotamix 120L", "Rotamix 160L", "Kestrel Site 140"),
}
RATES = {
    "drill": (12, 18),
    "saw": (16, 24),
    "sander": (28, 40),
    "ladder": (8, 14),
    "generator": (35, 55),
    "mixer": (22, 32),
}
DAMAGE = {
    "drill": ("snapped chuck", "cracked housing", "burnt-out motor"),
    "saw": ("bent blade guard", "cracked base plate", "snapped riving knife"),
    "sander": ("torn dust bag", "dented drum cover", "split belt guard"),
    "ladder": ("bent stile", "cracked rung", "missing rubber foot"),
    "generator": ("cracked fuel tank", "snapped pull cord", "broken fuel gauge"),
    "mixer": ("dented drum", "buckled tipping wheel", "cracked motor cover"),
}
RETIRE_REASONS = (
    "failed its safety check",
    "beyond economic repair",
    "too old to be worth fixing",
    "no spare parts any more",
)
CONDITION_SAID = {
    "good": ("fine", "in good order", "no problems", "all OK"),
    "worn": ("showing some wear", "a bit worn", "well used", "looking tired"),
    "damaged": ("broken", "damaged", "in a bad way"),
}
METHOD_SAID = {
    "card": ("by card", "on debit card", "by credit card", "contactless"),
    "cash": ("in cash", "cash", "in notes"),
    "account": ("on account", "to their account", "on their trade account"),
}
RETIRED_SAID = ("retired", "written off", "scrapped", "taken out of service")
HIRERS = (  # name, trade, phone, email: the reference hirers are drawn from these
    ("Kowalski Builders", "builder", "07700 900112", "office@kowalskibuilders.co.uk"),
    ("Grace Okafor", "electrician", "07700 900245", "grace.okafor@sparkmail.com"),
    ("Patel Plumbing", "plumber", "07700 900318", "jobs@patelplumbing.co.uk"),
    ("Liam Brennan", "carpenter", "07700 900427", None),
    ("Hughes & Daughters", "decorator", "07700 900533", "hello@hughesanddaughters.com"),
    ("O'Neill Electrical", "electrician", "07700 900641", "admin@oneillelectrical.ie"),
    ("Sofia Marchetti", "tiler", "07700 900759", "sofia.tiles@fastpost.net"),
    ("Northgate Roofing", "roofer", "07700 900864", "info@northgateroofing.co.uk"),
    ("Tomasz Nowak", "plasterer", "07700 900972", "t.nowak@fastpost.net"),
    ("Brightwell Decorators", "decorator", "07700 900186", None),
)
NEW_HIRERS = (  # people and firms that walk in during the log
    ("Ruth Adeyemi", "landscaper", "07700 900351", "ruth.adeyemi@greenmail.org"),
    ("Dobbs Joinery", "joiner", "07700 900468", "orders@dobbsjoinery.co.uk"),
    ("Keane Groundworks", "groundworker", "07700 900577", None),
    ("Imran Siddiqui", "bricklayer", "07700 900683", "imran.siddiqui@fastpost.net"),
    ("Castle Glazing", "glazier", "07700 900794", "quotes@castleglazing.co.uk"),
    ("Megan Price", "carpenter", "07700 900825", None),
    ("Ferris & Lowe", "builder", "07700 900937", "site@ferrisandlowe.com"),
    ("Aled Pritchard", "stonemason", "07700 900149", "aled@pritchardstone.co.uk"),
)
MAIL_DOMAINS = ("fastpost.net", "greenmail.org", "sparkmail.com", "postbox.co.uk")
# (kind, variant) -> the class whose records take the wordings in turn (`Turns`): each in every wording
TURNS = {
    ("contact_change", "clear"): "clear",
    ("tool_move", "copy"): "copy",
    ("deposit_change", "more"): "deposit",
    ("deposit_change", "back"): "deposit",
}


@dataclass
class Tool:
    code: str
    category: str
    model: str
    depot: str
    rates: list[tuple[dt.date, float]]
    status: str = "active"

    @property
    def number(self) -> int:
        return int(self.code.split("-")[1])


@dataclass
class Hirer:
    name: str
    trade: str
    phone: str
    email: str | None


@dataclass
class Hire:
    hirer: str
    tool: str
    start: dt.date
    end: dt.date
    deposit: float
    returned: dt.date | None = None
    condition: str | None = None
    damage: str | None = None  # a damage described on return, charged later
    charges: list[tuple[dt.date, float]] = field(default_factory=list)
    payments: list[tuple[dt.date, float, str]] = field(default_factory=list)


def money(value: float) -> str:
    """An amount as a user writes it: '120', '101.50'."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _hire_of(hirer: str, code: str) -> str:
    """The hire of `code` by `hirer` (a hirer hires a given tool at most once in the log)."""
    return (
        f"(SELECT hire_id FROM hires WHERE tool_code = {sql_text(code)} "
        f"AND hirer_id = (SELECT hirer_id FROM hirers WHERE hirer_name = {sql_text(hirer)}))"
    )


def _hirer_id(name: str) -> str:
    return lookup("hirers", "hirer_id", "hirer_name", name)


def _date(day: dt.date) -> str:
    return sql_date(day)


class _Log:
    """The seeded simulation of the workshop: reference rows, then one record at a time."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.day = START
        self.records: list[Record] = []
        self.forms = seed
        self.forced = ""  # the wording a record of a class taking its turns is written in
        rng = self.rng
        self.tools: dict[str, Tool] = {}
        for category, prefix in PREFIX.items():
            for number, model in zip(sorted(rng.sample(range(1, 16), 3)), rng.sample(MODELS[category], 3)):
                low, high = RATES[category]
                rate = rng.randrange(low * 2, high * 2 + 1) / 2
                code = f"{prefix}-{number:02d}"
                depot = rng.choice(DEPOTS)[0]
                self.tools[code] = Tool(code, category, model, depot, [(dt.date(2024, 1, 1), rate)])
        pool = list(HIRERS)
        rng.shuffle(pool)
        self.hirers = {name: Hirer(name, trade, phone, email) for name, trade, phone, email in pool[:8]}
        newcomers = pool[8:] + list(NEW_HIRERS)
        rng.shuffle(newcomers)
        self.newcomers = [Hirer(*row) for row in newcomers]
        self.never_hired = set(rng.sample(sorted(self.tools), 2))
        self.never_pays = rng.choice(sorted(self.hirers))
        self.hires: list[Hire] = []
        for offset in (20, 24, 27):
            start = dt.date(2024, 2, 1) + dt.timedelta(days=offset)
            hirer, code = self._free_pair()
            days = rng.choice((5, 7, 10))
            self.hires.append(Hire(hirer, code, start, start + dt.timedelta(days=days), rng.choice((30, 50))))
        self.reference = self._reference()

    # -- state ---------------------------------------------------------------------------------

    def rate_on(self, code: str, day: dt.date) -> float:
        return max((start, rate) for start, rate in self.tools[code].rates if start <= day)[1]

    def due(self, hire: Hire) -> float:
        days = (hire.end - hire.start).days
        charged = days * self.rate_on(hire.tool, hire.start) + sum(amount for _, amount in hire.charges)
        return round(charged - sum(amount for _, amount, _ in hire.payments), 2)

    def out(self) -> list[Hire]:
        return [hire for hire in self.hires if hire.returned is None]

    def busy(self) -> set[str]:
        return {hire.tool for hire in self.out()}

    def _hire_options(self) -> list[tuple[str, str]]:
        """Each hirer with each free tool that hirer has not hired before."""
        pairs = {(h.hirer, h.tool) for h in self.hires}
        return [
            (name, code) for name in sorted(self.hirers) for code in self._free_tools() if (name, code) not in pairs
        ]

    def _free_pair(self) -> tuple[str, str]:
        return self.rng.choice(self._hire_options())

    def _free_tools(self) -> list[str]:
        """Active tools in the yard, not kept for a repair after coming back damaged in the last five days."""
        busy = self.busy()
        repairing = {
            h.tool for h in self.hires if h.condition == "damaged" and h.returned and (self.day - h.returned).days < 5
        }
        return [
            code
            for code, tool in sorted(self.tools.items())
            if tool.status == "active" and code not in busy | repairing and code not in self.never_hired
        ]

    # -- text pieces ---------------------------------------------------------------------------

    def date_text(self, day: dt.date) -> str:
        self.forms += 1
        return date_forms(day)[self.forms % 4]

    def tool_text(self, code: str, *, article: bool = False) -> tuple[str, list[str]]:
        """The tool as the user names it: its code, or its kind and number ('the cement mixer no. 3')."""
        if self.rng.random() < 0.5:
            return code, [code]
        tool = self.tools[code]
        phrase = f"{self.rng.choice(SPOKEN[tool.category])} {self.rng.choice(('number', 'no.'))} {tool.number}"
        return (f"the {phrase}" if article else phrase), []

    def days_text(self, days: int) -> tuple[str, list[str]]:
        if days == 7:
            options = [("a week", []), ("7 days", ["7"]), ("seven days", [])]
        elif days == 14:
            options = [("two weeks", []), ("a fortnight", []), ("14 days", ["14"])]
        elif days == 1:
            options = [("a day", []), ("one day", [])]
        else:
            options = [(f"{in_words(days)} days", []), (f"{days} days", [str(days)])]
        return self.rng.choice(options)

    def wording(self) -> str:
        return self.forced or WORDINGS[(len(self.records) + self.seed) % len(WORDINGS)]

    def add(self, kind: str, facts: dict[str, object], gold: list[str], text: str, stated: list[str]) -> None:
        record_id = f"r{len(self.records) + 1:02d}"
        facts = {"kind": kind, "date": self.day.isoformat(), **facts}
        self.records.append(
            Record(record_id, kind, self.wording(), text, facts, tuple(gold), tuple(dict.fromkeys(stated)))
        )

    # -- reference rows ------------------------------------------------------------------------

    def _reference(self) -> str:
        rows = [
            "INSERT INTO depots (depot_name, town) VALUES "
            + ", ".join(f"({sql_text(n)}, {sql_text(t)})" for n, t in DEPOTS)
            + ";"
        ]
        tools = ", ".join(
            f"({sql_text(t.code)}, {sql_text(t.category)}, {sql_text(t.model)}, "
            f"(SELECT depot_no FROM depots WHERE depot_name = {sql_text(t.depot)}))"
            for t in self.tools.values()
        )
        rows.append(f"INSERT INTO tools (tool_code, category, model, depot_no) VALUES {tools};")
        rates = ", ".join(
            f"({sql_text(t.code)}, {_date(t.rates[0][0])}, {money(t.rates[0][1])})" for t in self.tools.values()
        )
        rows.append(f"INSERT INTO day_rates (tool_code, applies_from, rate_per_day) VALUES {rates};")
        for hirer in self.hirers.values():
            rows.append(
                "INSERT INTO hirers (hirer_name, trade, phone, email) VALUES "
                f"({sql_text(hirer.name)}, {sql_text(hirer.trade)}, {sql_text(hirer.phone)}, "
                f"{sql_text(hirer.email) if hirer.email else 'NULL'});"
            )
        for hire in self.hires:
            rows.append(
                "INSERT INTO hires (hirer_id, tool_code, starts_on, ends_on, deposit) VALUES "
                f"({_hirer_id(hire.hirer)}, {sql_text(hire.tool)}, {_date(hire.start)}, {_date(hire.end)}, "
                f"{money(hire.deposit)});"
            )
        return "\n".join(rows)

    # -- the log -------------------------------------------------------------------------------

    def run(self) -> None:
        rng = self.rng
        quotas = {
            "hire": rng.randint(14, 16),
            "new_hirer": 5,
            "return": rng.randint(13, 15),
            "payment": rng.randint(9, 11),
            "rate_change": 4,
            "tool_move": 5,
            "tool_retired": 2,
            "contact_change": 6,
            "hire_extension": 2,
            "damage": 3,
            "deposit_change": 3,
        }
        outcomes = ["later"] * quotas["damage"] + ["now"] * 2 + ["worn"] * 3
        outcomes += ["good"] * (quotas["return"] - len(outcomes))
        rng.shuffle(outcomes)
        early = sorted(outcomes[: quotas["return"] // 2], key=lambda o: o != "later")
        self.outcomes = early + outcomes[quotas["return"] // 2 :]
        self.variants = {
            "rate_change": rng.sample(["single", "single", "category", "copy"], 4),
            "tool_move": rng.sample(["depot", "depot", "copy", "copy", "copy"], 5),
            "contact_change": rng.sample(["phone", "email", "clear", "clear", "clear", "phone"], 6),
            "deposit_change": rng.sample(["more", "more", "back"], 3),
            "hire_extension": rng.sample(["days", "until"], 2),
            "payment": rng.sample(["card"] * 4 + ["cash"] * 4 + ["account"] * 3, quotas["payment"]),
        }
        writers = {
            "hire": self.hire,
            "new_hirer": self.new_hirer,
            "return": self.give_back,
            "payment": self.payment,
            "rate_change": self.rate_change,
            "tool_move": self.tool_move,
            "tool_retired": self.tool_retired,
            "contact_change": self.contact_change,
            "hire_extension": self.hire_extension,
            "damage": self.damage,
            "deposit_change": self.deposit_change,
        }
        turns = Turns(rng)
        for _ in range(400):
            if not any(quotas.values()):
                break
            self.day += dt.timedelta(days=rng.choice((0, 0, 1, 1, 2)))
            due = [hire for hire in self.out() if hire.end <= self.day]
            if quotas["return"] and due and rng.random() < 0.75:
                kind = "return"
            else:
                feasible = [kind for kind, left in quotas.items() if left and self.feasible(kind)]
                if not feasible:
                    continue
                kind = rng.choices(feasible, weights=[quotas[k] for k in feasible])[0]
            variant = self.variants[kind][0] if self.variants.get(kind) else ""
            turn = TURNS.get((kind, variant))
            self.forced = turns.next(turn) if turn else ""
            if writers[kind]():
                quotas[kind] -= 1
                if turn:
                    turns.take(turn)
            self.forced = ""

    def feasible(self, kind: str) -> bool:
        if kind in ("hire", "new_hirer"):
            return bool(self._hire_options()) if kind == "hire" else bool(self.newcomers) and bool(self._free_tools())
        if kind == "return":
            return any(hire.end <= self.day for hire in self.out())
        if kind == "damage":
            return any(hire.damage for hire in self.hires)
        if kind == "payment":
            return bool(self._payable())
        if kind == "hire_extension":
            return any(hire.end >= self.day for hire in self.out())
        if kind == "deposit_change":
            return bool(self._deposit_options())
        return True

    def _deposit_options(self) -> list[Hire]:
        """Hires out now whose deposit a top-up or a part refund (`variants["deposit_change"][0]`) can change."""
        back = self.variants["deposit_change"][0] == "back"
        return [h for h in self.out() if h.start < self.day and (h.deposit >= 40 if back else h.deposit < 100)]

    def _payable(self) -> list[Hire]:
        return [h for h in self.hires if h.hirer != self.never_pays and self.due(h) > 0]

    def _new_hire(self, hirer: str, code: str) -> tuple[Hire, list[str], str, str, list[str]]:
        """A hire starting today: the hire, its insert, its duration and deposit as said, and the values said."""
        rng = self.rng
        days = rng.choice((1, 2, 3, 3, 4, 5, 7, 7, 10, 14))
        hire = Hire(
            hirer, code, self.day, self.day + dt.timedelta(days=days), rng.choice((0, 20, 30, 40, 50, 50, 75, 100))
        )
        self.hires.append(hire)
        gold = [
            "INSERT INTO hires (hirer_id, tool_code, starts_on, ends_on, deposit) VALUES "
            f"({_hirer_id(hirer)}, {sql_text(code)}, {_date(hire.start)}, {_date(hire.end)}, {money(hire.deposit)})"
        ]
        if rng.random() < 0.2:
            end = self.date_text(hire.end)
            duration, stated = f"until {end}", [end]
        else:
            duration, stated = self.days_text(days)
        return hire, gold, duration, money(hire.deposit), stated

    def _hire_facts(self, hire: Hire) -> dict[str, object]:
        return {
            "hirer": hire.hirer,
            "tool": hire.tool,
            "starts_on": hire.start.isoformat(),
            "ends_on": hire.end.isoformat(),
            "days": (hire.end - hire.start).days,
            "deposit": hire.deposit,
        }

    def hire(self) -> bool:
        hirer, code = self._free_pair()
        hire, gold, duration, deposit, said = self._new_hire(hirer, code)
        span = duration if duration.startswith("until") else f"for {duration}"
        day = self.date_text(self.day)
        wording, rng = self.wording(), self.rng
        tool, stated = self.tool_text(code, article=wording == "chatty")
        stated = [hirer, *stated, day, *said] + ([deposit] if hire.deposit else [])
        if wording == "log":
            text = f"{day} hire: {hirer}, {tool}, {duration}, " + (
                f"deposit {deposit}" if hire.deposit else "no deposit"
            )
        elif wording == "chatty":
            held = f"left a £{deposit} deposit" if hire.deposit else "no deposit taken"
            text = rng.choice(
                (
                    f"{hirer} took {tool} out on {day} {span}, {held}",
                    f"{hirer} hired {tool} on {day} {span} ({held})",
                    f"On {day} {hirer} picked up {tool} {span} and {held}"
                    if hire.deposit
                    else f"On {day} {hirer} picked up {tool} {span}, no deposit",
                )
            )
        else:
            text = keyvalue(
                "hire",
                [
                    ("hirer", hirer),
                    ("tool", tool),
                    ("from", day),
                    ("for" if not duration.startswith("until") else "until", duration.removeprefix("until ")),
                    ("deposit", deposit if hire.deposit else "none"),
                ],
            )
        self.add("hire", self._hire_facts(hire), gold, text, stated)
        return True

    def new_hirer(self) -> bool:
        person = self.newcomers.pop(0)
        self.hirers[person.name] = person
        code = self.rng.choice(self._free_tools())
        hire, hire_gold, duration, deposit, said = self._new_hire(person.name, code)
        span = duration if duration.startswith("until") else f"for {duration}"
        gold = [
            "INSERT INTO hirers (hirer_name, trade, phone, email) VALUES "
            f"({sql_text(person.name)}, {sql_text(person.trade)}, {sql_text(person.phone)}, "
            f"{sql_text(person.email) if person.email else 'NULL'})",
            *hire_gold,
        ]
        day = self.date_text(self.day)
        wording = self.wording()
        tool, stated = self.tool_text(code, article=wording == "chatty")
        email = [person.email] if person.email else []
        stated = [person.name, person.trade, person.phone, *email, *stated, day, *said] + (
            [deposit] if hire.deposit else []
        )
        contact = ", ".join([person.phone, *email])
        if wording == "log":
            text = f"{day} new hirer: {person.name} ({person.trade}), tel {contact}; hire {tool}, {duration}, " + (
                f"deposit {deposit}" if hire.deposit else "no deposit"
            )
        elif wording == "chatty":
            held = f"with a £{deposit} deposit" if hire.deposit else "with no deposit"
            text = f"New customer {person.name} ({person.trade}, {contact}) hired {tool} on {day} {span} {held}"
        else:
            text = keyvalue(
                "new hirer",
                [
                    ("name", person.name),
                    ("trade", person.trade),
                    ("phone", person.phone),
                    *([("email", person.email)] if person.email else []),
                    ("tool", tool),
                    ("from", day),
                    ("for" if not duration.startswith("until") else "until", duration.removeprefix("until ")),
                    ("deposit", deposit if hire.deposit else "none"),
                ],
            )
        facts: dict[str, object] = {
            **self._hire_facts(hire),
            "trade": person.trade,
            "phone": person.phone,
            "email": person.email,
        }
        self.add("new_hirer", facts, gold, text, stated)
        return True

    def give_back(self) -> bool:
        rng = self.rng
        hire = min((h for h in self.out() if h.end <= self.day), key=lambda h: (h.end, h.tool))
        outcome = self.outcomes.pop(0)
        condition = {"later": "damaged", "now": "damaged"}.get(outcome, outcome)
        hire.returned, hire.condition = self.day, condition
        category = self.tools[hire.tool].category
        damage = rng.choice(DAMAGE[category]) if condition == "damaged" else None
        charge = float(rng.randrange(25, 155, 5)) if outcome == "now" else None
        gold = [
            "INSERT INTO hire_returns (hire_id, returned_at, condition) VALUES "
            f"({_hire_of(hire.hirer, hire.tool)}, {_date(self.day)}, '{condition}')"
        ]
        if charge:
            hire.charges.append((self.day, charge))
            gold.append(
                "INSERT INTO damage_charges (return_id, charged_on, description, amount) VALUES "
                f"((SELECT return_id FROM hire_returns WHERE hire_id = {_hire_of(hire.hirer, hire.tool)}), "
                f"{_date(self.day)}, {sql_text(damage or '')}, {money(charge)})"
            )
        elif damage:
            hire.damage = damage
        day = self.date_text(self.day)
        wording = self.wording()
        tool, stated = self.tool_text(hire.tool, article=wording == "chatty")
        said = rng.choice(CONDITION_SAID[condition])
        stated = [hire.hirer, *stated, day, *([damage] if damage else []), *([money(charge)] if charge else [])]
        if wording == "log":
            text = f"{day} return: {tool} from {hire.hirer}, {said}"
            if damage:
                text += f" ({damage}), " + (f"charge {money(charge)}" if charge else "charge to follow")
        elif wording == "chatty":
            if condition == "damaged":
                after = f"we're charging them £{money(charge)} for it" if charge else "we'll price the repair later"
                text = f"{hire.hirer} brought {tool} back on {day}, {said}: {damage}; {after}"
            else:
                text = f"{hire.hirer} brought {tool} back on {day}, {said}"
        else:
            pairs: list[tuple[str, object]] = [
                ("hirer", hire.hirer),
                ("tool", tool),
                ("returned", day),
                ("condition", said),
            ]
            if damage:
                pairs += [("damage", damage), ("charge", money(charge) if charge else "to follow")]
            text = keyvalue("return", pairs)
        facts: dict[str, object] = {
            "hirer": hire.hirer,
            "tool": hire.tool,
            "returned_at": self.day.isoformat(),
            "condition": condition,
        }
        if charge:
            facts |= {"damage": damage, "charge": charge}
        self.add("return", facts, gold, text, stated)
        return True

    def damage(self) -> bool:
        hire = self.rng.choice([h for h in self.hires if h.damage])
        description, hire.damage = hire.damage or "", None
        charge = float(self.rng.randrange(30, 205, 5))
        hire.charges.append((self.day, charge))
        gold = [
            "INSERT INTO damage_charges (return_id, charged_on, description, amount) VALUES "
            f"((SELECT return_id FROM hire_returns WHERE hire_id = {_hire_of(hire.hirer, hire.tool)}), "
            f"{_date(self.day)}, {sql_text(description)}, {money(charge)})"
        ]
        day = self.date_text(self.day)
        wording = self.wording()
        tool, stated = self.tool_text(hire.tool, article=wording == "chatty")
        stated = [hire.hirer, *stated, day, description, money(charge)]
        if wording == "log":
            text = f"{day} damage charge: {tool} from {hire.hirer}, {description}, {money(charge)}"
        elif wording == "chatty":
            text = (
                f"The repair on {tool} that {hire.hirer} brought back broken ({description}) comes to "
                f"£{money(charge)}, charged to them on {day}"
            )
        else:
            text = keyvalue(
                "damage charge",
                [
                    ("hirer", hire.hirer),
                    ("tool", tool),
                    ("damage", description),
                    ("charge", money(charge)),
                    ("date", day),
                ],
            )
        facts: dict[str, object] = {"hirer": hire.hirer, "tool": hire.tool, "damage": description, "charge": charge}
        self.add("damage", facts, gold, text, stated)
        return True

    def payment(self) -> bool:
        rng = self.rng
        hire = rng.choice(self._payable())
        due = self.due(hire)
        amount = due if hire.returned or rng.random() < 0.5 else min(due, max(10.0, round(due / 20) * 10.0))
        method = self.variants["payment"].pop(0)
        hire.payments.append((self.day, amount, method))
        gold = [
            "INSERT INTO hire_payments (hire_id, paid_on, amount, method) VALUES "
            f"({_hire_of(hire.hirer, hire.tool)}, {_date(self.day)}, {money(amount)}, '{method}')"
        ]
        day = self.date_text(self.day)
        wording = self.wording()
        tool, stated = self.tool_text(hire.tool)
        said = rng.choice(METHOD_SAID[method])
        stated = [hire.hirer, *stated, day, money(amount)]
        if wording == "log":
            text = f"{day} payment: {hire.hirer}, {money(amount)} {said}, {tool} hire"
        elif wording == "chatty":
            text = rng.choice(
                (
                    f"{hire.hirer} paid £{money(amount)} {said} on {day} towards the {tool} hire",
                    f"Got £{money(amount)} {said} from {hire.hirer} on {day} for their {tool} hire"
                    if method != "account"
                    else f"{hire.hirer} settled £{money(amount)} {said} on {day} for the {tool} hire",
                )
            )
        else:
            text = keyvalue(
                "payment",
                [("hirer", hire.hirer), ("hire", tool), ("amount", money(amount)), ("paid", said), ("date", day)],
            )
        facts: dict[str, object] = {"hirer": hire.hirer, "tool": hire.tool, "amount": amount, "method": method}
        self.add("payment", facts, gold, text, stated)
        return True

    def _rate_free(self, code: str) -> bool:
        """Whether a new rate from today touches no hire already logged and no rate of today."""
        tool = self.tools[code]
        return (
            tool.status == "active"
            and all(start != self.day for start, _ in tool.rates)
            and all(not (h.tool == code and h.start >= self.day) for h in self.hires)
        )

    def rate_change(self) -> bool:
        rng = self.rng
        variant = self.variants["rate_change"][0]
        free = [code for code in sorted(self.tools) if self._rate_free(code)]
        wording = self.wording()
        if variant == "category":
            categories = [
                c
                for c in PREFIX
                if all(t.status == "active" and self._rate_free(t.code) for t in self.tools.values() if t.category == c)
            ]
            if not categories:
                return False
            category = rng.choice(categories)
            low, high = RATES[category]
            rate = float(rng.randrange(low + 1, high))
            codes = [t.code for t in self.tools.values() if t.category == category]
            gold = [
                "INSERT INTO day_rates (tool_code, applies_from, rate_per_day) SELECT tool_code, "
                f"{_date(self.day)}, {money(rate)} FROM tools WHERE category = '{category}'"
            ]
            facts: dict[str, object] = {"category": category, "tools": codes, "rate_per_day": rate}
            plural = rng.choice(SPOKEN_PLURAL[category])
            day = self.date_text(self.day)
            stated = [day, money(rate)]
            text = {
                "log": f"{day} rate change: all {plural} now {money(rate)}/day",
                "chatty": f"From {day} all our {plural} are £{money(rate)} a day",
                "keyvalue": keyvalue(
                    "rate change", [("tools", f"all {plural}"), ("daily rate", money(rate)), ("from", day)]
                ),
            }[wording]
        elif variant == "copy":
            pairs = [
                (a, b)
                for a in free
                for b in sorted(self.tools)
                if b != a
                and self.tools[b].status == "active"
                and self.tools[b].category == self.tools[a].category
                and self.rate_on(b, self.day) != self.rate_on(a, self.day)
            ]
            if not pairs:
                return False
            code, source = rng.choice(pairs)
            rate = self.rate_on(source, self.day)
            codes = [code]
            gold = [
                "INSERT INTO day_rates (tool_code, applies_from, rate_per_day) SELECT "
                f"{sql_text(code)}, {_date(self.day)}, arg_max(rate_per_day, applies_from) FROM day_rates "
                f"WHERE tool_code = {sql_text(source)} AND applies_from <= {_date(self.day)}"
            ]
            facts = {"tool": code, "same_as": source, "rate_per_day": rate}
            day = self.date_text(self.day)
            tool, stated_a = self.tool_text(code, article=wording == "chatty")
            other, stated_b = self.tool_text(source, article=wording == "chatty")
            stated = [*stated_a, *stated_b, day]
            text = {
                "log": f"{day} rate change: {tool} now same daily rate as {other}",
                "chatty": f"From {day} charge {tool} at the same daily rate as {other}",
                "keyvalue": keyvalue(
                    "rate change", [("tool", tool), ("daily rate", f"same as {other}"), ("from", day)]
                ),
            }[wording]
        else:
            if not free:
                return False
            code = rng.choice(free)
            old = self.rate_on(code, self.day)
            rate = old + rng.choice((-2, -1, 1, 1.5, 2, 3))
            codes = [code]
            gold = [
                "INSERT INTO day_rates (tool_code, applies_from, rate_per_day) VALUES "
                f"({sql_text(code)}, {_date(self.day)}, {money(rate)})"
            ]
            facts = {"tool": code, "rate_per_day": rate}
            day = self.date_text(self.day)
            tool, stated_a = self.tool_text(code, article=wording == "chatty")
            stated = [*stated_a, day, money(rate)]
            text = {
                "log": f"{day} rate change: {tool} now {money(rate)}/day",
                "chatty": f"From {day} {tool} goes {'up' if rate > old else 'down'} to £{money(rate)} a day",
                "keyvalue": keyvalue("rate change", [("tool", tool), ("daily rate", money(rate)), ("from", day)]),
            }[wording]
        for code in codes:
            self.tools[code].rates.append((self.day, rate))
        self.variants["rate_change"].pop(0)
        self.add("rate_change", {**facts, "applies_from": self.day.isoformat()}, gold, text, stated)
        return True

    def tool_move(self) -> bool:
        rng = self.rng
        variant = self.variants["tool_move"][0]
        busy = self.busy()
        movable = [c for c, t in sorted(self.tools.items()) if t.status == "active" and c not in busy]
        wording = self.wording()
        if not movable:
            return False
        code = rng.choice(movable)
        tool = self.tools[code]
        day = self.date_text(self.day)
        said, stated = self.tool_text(code, article=wording == "chatty")
        if variant == "copy":
            others = [c for c, t in sorted(self.tools.items()) if t.status == "active" and t.depot != tool.depot]
            if not others:
                return False
            source = rng.choice(others)
            tool.depot = self.tools[source].depot
            gold = [
                f"UPDATE tools SET depot_no = (SELECT depot_no FROM tools WHERE tool_code = {sql_text(source)}) "
                f"WHERE tool_code = {sql_text(code)}"
            ]
            other, stated_b = self.tool_text(source, article=wording == "chatty")
            stated = [*stated, *stated_b, day]
            text = {
                "log": f"{day} transfer: {said} to the same depot as {other}",
                "chatty": _capital(f"{said} moved on {day} to the depot where {other} is kept"),
                "keyvalue": keyvalue("tool move", [("tool", said), ("to depot", f"same as {other}"), ("date", day)]),
            }[wording]
            facts: dict[str, object] = {"tool": code, "same_depot_as": source, "depot": tool.depot}
        else:
            tool.depot = rng.choice([name for name, _ in DEPOTS if name != tool.depot])
            gold = [
                f"UPDATE tools SET depot_no = (SELECT depot_no FROM depots WHERE depot_name = {sql_text(tool.depot)}) "
                f"WHERE tool_code = {sql_text(code)}"
            ]
            stated = [*stated, tool.depot, day]
            text = {
                "log": f"{day} transfer: {said} to {tool.depot}",
                "chatty": f"Moved {said} over to the {tool.depot} depot on {day}",
                "keyvalue": keyvalue("tool move", [("tool", said), ("to depot", tool.depot), ("date", day)]),
            }[wording]
            facts = {"tool": code, "depot": tool.depot}
        self.variants["tool_move"].pop(0)
        self.add("tool_move", facts, gold, text, stated)
        return True

    def tool_retired(self) -> bool:
        rng = self.rng
        busy = self.busy()
        candidates = [c for c, t in sorted(self.tools.items()) if t.status == "active" and c not in busy]
        if not candidates:
            return False
        code = rng.choice(candidates)
        self.tools[code].status = "retired"
        gold = [
            f"UPDATE tools SET status = 'retired', retired_on = {_date(self.day)} WHERE tool_code = {sql_text(code)}"
        ]
        day = self.date_text(self.day)
        wording = self.wording()
        tool, stated = self.tool_text(code, article=wording == "chatty")
        said, reason = rng.choice(RETIRED_SAID), rng.choice(RETIRE_REASONS)
        text = {
            "log": f"{day} {said}: {tool}, {reason}",
            "chatty": _capital(f"{tool} has been {said} as of {day}, {reason}"),
            "keyvalue": keyvalue("tool status", [("tool", tool), ("status", said), ("date", day), ("reason", reason)]),
        }[wording]
        self.add("tool_retired", {"tool": code, "retired_on": self.day.isoformat()}, gold, text, [*stated, day])
        return True

    def contact_change(self) -> bool:
        rng = self.rng
        variant = self.variants["contact_change"][0]
        names = sorted(self.hirers)
        if variant == "clear":
            names = [n for n in names if self.hirers[n].email]
        name = rng.choice(names)
        hirer = self.hirers[name]
        day = self.date_text(self.day)
        wording = self.wording()
        facts: dict[str, object]
        if variant == "phone":
            phone = f"07700 900{rng.randrange(100, 1000):03d}"
            if phone == hirer.phone:
                return False
            hirer.phone = phone
            gold = [f"UPDATE hirers SET phone = {sql_text(phone)} WHERE hirer_name = {sql_text(name)}"]
            stated, facts = [name, phone], {"hirer": name, "phone": phone}
            text = {
                "log": f"{day} contact: {name}, new phone {phone}",
                "chatty": f"{name} has a new phone number, {phone} (rang on {day})",
                "keyvalue": keyvalue("contact change", [("hirer", name), ("phone", phone), ("date", day)]),
            }[wording]
        elif variant == "email":
            words = name.lower().replace("&", "and").replace("'", "").split()
            email = f"{'.'.join(words)}@{rng.choice(MAIL_DOMAINS)}"
            if email == hirer.email:
                return False
            hirer.email = email
            gold = [f"UPDATE hirers SET email = {sql_text(email)} WHERE hirer_name = {sql_text(name)}"]
            stated, facts = [name, email], {"hirer": name, "email": email}
            text = {
                "log": f"{day} contact: {name}, email now {email}",
                "chatty": f"{name} emailed on {day}: their address is {email} from now on",
                "keyvalue": keyvalue("contact change", [("hirer", name), ("email", email), ("date", day)]),
            }[wording]
        else:
            hirer.email = None
            gold = [f"UPDATE hirers SET email = NULL WHERE hirer_name = {sql_text(name)}"]
            stated, facts = [name], {"hirer": name, "email": None}
            text = {
                "log": f"{day} contact: {name}, email no longer in use, remove it",
                "chatty": f"{name} asked on {day} for their email address to be taken off our records",
                "keyvalue": keyvalue(
                    "contact change", [("hirer", name), ("email", "none, delete the old one"), ("date", day)]
                ),
            }[wording]
        self.variants["contact_change"].pop(0)
        self.add("contact_change", facts, gold, text, [*stated, day])
        return True

    def hire_extension(self) -> bool:
        rng = self.rng
        variant = self.variants["hire_extension"].pop(0)
        hire = rng.choice([h for h in self.out() if h.end >= self.day])
        days = rng.choice((1, 2, 3, 4, 7))
        hire.end += dt.timedelta(days=days)
        day = self.date_text(self.day)
        wording = self.wording()
        tool, stated = self.tool_text(hire.tool, article=wording == "chatty")
        stated = [hire.hirer, *stated, day]
        if variant == "days":
            gold = [f"UPDATE hires SET ends_on = ends_on + {days} WHERE hire_id = {_hire_of(hire.hirer, hire.tool)}"]
            extra, said = self.days_text(days)
            stated += said
            text = {
                "log": f"{day} extension: {hire.hirer}, {tool}, extended by {extra}",
                "chatty": f"{hire.hirer} rang on {day} to keep {tool} {extra} longer",
                "keyvalue": keyvalue(
                    "hire extension", [("hirer", hire.hirer), ("tool", tool), ("extra", extra), ("date", day)]
                ),
            }[wording]
        else:
            gold = [f"UPDATE hires SET ends_on = {_date(hire.end)} WHERE hire_id = {_hire_of(hire.hirer, hire.tool)}"]
            until = self.date_text(hire.end)
            stated.append(until)
            text = {
                "log": f"{day} extension: {hire.hirer}, {tool}, now until {until}",
                "chatty": f"{hire.hirer} is keeping {tool} until {until} (asked on {day})",
                "keyvalue": keyvalue(
                    "hire extension", [("hirer", hire.hirer), ("tool", tool), ("new end date", until), ("date", day)]
                ),
            }[wording]
        facts: dict[str, object] = {
            "hirer": hire.hirer,
            "tool": hire.tool,
            "extra_days": days,
            "ends_on": hire.end.isoformat(),
        }
        self.add("hire_extension", facts, gold, text, stated)
        return True

    def deposit_change(self) -> bool:
        """A deposit topped up or partly handed back by a stated amount: `deposit = deposit + n` or `- n`."""
        rng = self.rng
        options = self._deposit_options()
        if not options:
            return False
        variant = self.variants["deposit_change"].pop(0)
        hire = rng.choice(options)
        amount = float(rng.choice((10, 20, 25)) if variant == "back" else rng.choice((10, 20, 25, 30, 50)))
        change = -amount if variant == "back" else amount
        hire.deposit += change
        sign = "-" if variant == "back" else "+"
        gold = [
            f"UPDATE hires SET deposit = deposit {sign} {money(amount)} WHERE hire_id = {_hire_of(hire.hirer, hire.tool)}"
        ]
        day = self.date_text(self.day)
        wording = self.wording()
        tool, stated = self.tool_text(hire.tool, article=wording == "chatty")
        stated = [hire.hirer, *stated, day, money(amount)]
        if variant == "back":
            text = {
                "log": f"{day} deposit: {hire.hirer}, {tool}, {money(amount)} of it handed back",
                "chatty": f"We gave {hire.hirer} £{money(amount)} of the deposit on {tool} back on {day}",
                "keyvalue": keyvalue(
                    "deposit change",
                    [("hirer", hire.hirer), ("tool", tool), ("refunded", money(amount)), ("date", day)],
                ),
            }[wording]
        else:
            text = {
                "log": f"{day} deposit: {hire.hirer}, {tool}, {money(amount)} more taken",
                "chatty": f"{hire.hirer} put another £{money(amount)} on the deposit for {tool} on {day}",
                "keyvalue": keyvalue(
                    "deposit change",
                    [("hirer", hire.hirer), ("tool", tool), ("added", money(amount)), ("date", day)],
                ),
            }[wording]
        facts: dict[str, object] = {"hirer": hire.hirer, "tool": hire.tool, "change": change, "deposit": hire.deposit}
        self.add("deposit_change", facts, gold, text, stated)
        return True

    # -- questions -----------------------------------------------------------------------------

    def ask(self) -> list[Question]:
        """Questions on the final state, their names and dates drawn from what the log did."""
        rng = self.rng
        logged = self.hires[3:]
        hired = sorted({h.hirer for h in self.hires})
        payers = sorted({h.hirer for h in self.hires if h.payments})
        returned = [h for h in self.hires if h.returned]
        facts = [r.facts for r in self.records]
        phoned = [str(f["hirer"]) for f in facts if f["kind"] == "contact_change" and f.get("phone")]
        moved = [str(f["tool"]) for f in facts if f["kind"] == "tool_move"]
        repriced = [str(f["tool"]) for f in facts if f["kind"] == "rate_change" and "tool" in f]
        whole = [c for c in PREFIX if all(t.status == "active" for t in self.tools.values() if t.category == c)]
        hired_categories = sorted({self.tools[h.tool].category for h in self.hires})

        def who(hire: Hire) -> str:
            return f"h.hirer_name = {sql_text(hire.hirer)} AND x.tool_code = {sql_text(hire.tool)}"

        def between(first: dt.date, last: dt.date) -> str:
            form = rng.choice((0, 1, 2))
            return f"between {date_forms(first)[form]} and {date_forms(last)[form]}"

        person = rng.choice(hired)
        payer = rng.choice(payers)
        phoner = rng.choice(phoned or sorted(self.hirers))
        placed = rng.choice(moved or sorted(self.tools))
        priced = rng.choice(repriced or sorted(self.tools))
        back = rng.choice(returned)
        out = rng.choice(self.out())
        owing = rng.choice([h for h in logged if self.due(h) > 0] or logged)
        debtor = rng.choice(hired)
        start = rng.choice(logged).start
        first, last = start - dt.timedelta(days=rng.randint(2, 6)), start + dt.timedelta(days=rng.randint(5, 10))
        came = rng.choice(returned).returned or START
        came_from, came_to = came - dt.timedelta(days=rng.randint(1, 3)), came + dt.timedelta(days=rng.randint(2, 5))
        paid_month = rng.choice([p[0] for h in self.hires for p in h.payments]).replace(day=1)
        hire_month = rng.choice(logged).start.replace(day=1)
        averaged = rng.choice(whole)
        spoken = rng.choice(hired_categories)

        def month(first: dt.date) -> tuple[str, str, str]:
            after = (first + dt.timedelta(days=32)).replace(day=1)
            return first.strftime("%B %Y"), _date(first), _date(after)

        paid_name, paid_from, paid_to = month(paid_month)
        hire_name, hire_from, hire_to = month(hire_month)
        pays = f"FROM hire_payments p JOIN hires x ON x.hire_id = p.hire_id {_WHO}"
        rows = [
            (
                "count",
                "How many hires have there been in total, including the ones still out?",
                "SELECT count(*) FROM hires",
            ),
            ("count", "How many tools are out on hire right now?", f"SELECT count(*) FROM hires x WHERE {_OPEN}"),
            ("count", "How many tools have been retired?", "SELECT count(*) FROM tools WHERE status = 'retired'"),
            (
                "count",
                f"How many times has {person} hired a tool from us?",
                f"SELECT count(*) FROM hires x {_WHO} WHERE h.hirer_name = {sql_text(person)}",
            ),
            ("sum", "What is the total of all payments received?", "SELECT sum(amount) FROM hire_payments"),
            (
                "sum",
                "How much are we holding in deposits for tools that haven't come back yet?",
                f"SELECT sum(x.deposit) FROM hires x WHERE {_OPEN}",
            ),
            ("sum", "What is the total of all damage charges?", "SELECT sum(amount) FROM damage_charges"),
            (
                "sum",
                f"How much has {payer} paid us altogether?",
                f"SELECT sum(p.amount) {pays} WHERE h.hirer_name = {sql_text(payer)}",
            ),
            (
                "lookup",
                f"What phone number do we have for {phoner}?",
                f"SELECT phone FROM hirers WHERE hirer_name = {sql_text(phoner)}",
            ),
            (
                "lookup",
                f"Which depot is {placed} kept at?",
                "SELECT d.depot_name FROM tools t JOIN depots d ON d.depot_no = t.depot_no "
                f"WHERE t.tool_code = {sql_text(placed)}",
            ),
            (
                "lookup",
                f"What is the latest daily rate for {priced}?",
                f"SELECT arg_max(rate_per_day, applies_from) FROM day_rates WHERE tool_code = {sql_text(priced)}",
            ),
            (
                "lookup",
                f"What condition was {back.tool} in when {back.hirer} returned it?",
                f"SELECT r.condition FROM hire_returns r JOIN hires x ON x.hire_id = r.hire_id {_WHO} WHERE {who(back)}",
            ),
            (
                "lookup",
                f"When is {out.hirer} due to bring back {out.tool}?",
                f"SELECT x.ends_on FROM hires x {_WHO} WHERE {who(out)}",
            ),
            (
                "grouped",
                "How many hires have there been for each tool category?",
                "SELECT t.category, count(*) FROM hires x JOIN tools t ON t.tool_code = x.tool_code "
                "GROUP BY t.category ORDER BY t.category",
            ),
            (
                "grouped",
                "How many active tools does each depot have?",
                "SELECT d.depot_name, count(t.tool_code) FROM depots d LEFT JOIN tools t ON t.depot_no = d.depot_no "
                "AND t.status = 'active' GROUP BY d.depot_name ORDER BY d.depot_name",
            ),
            (
                "grouped",
                "What is the total taken by each payment method?",
                "SELECT method, sum(amount) FROM hire_payments GROUP BY method ORDER BY method",
            ),
            (
                "grouped",
                "How many returns were there in each condition?",
                "SELECT condition, count(*) FROM hire_returns GROUP BY condition ORDER BY condition",
            ),
            (
                "grouped",
                "How many hires has each hirer made?",
                f"SELECT h.hirer_name, count(*) FROM hires x {_WHO} GROUP BY h.hirer_name ORDER BY h.hirer_name",
            ),
            (
                "top",
                "Which three hirers owe us the most, and how much does each owe?",
                "SELECT hirer_name, balance FROM hirers ORDER BY balance DESC, hirer_name LIMIT 3",
            ),
            (
                "top",
                "What were the three largest payments: who paid, for which tool, and how much?",
                f"SELECT h.hirer_name, x.tool_code, p.amount {pays} ORDER BY p.amount DESC, p.paid_on LIMIT 3",
            ),
            (
                "top",
                "Which three tools have earned the most in hire charges (days times the daily rate), and how much each?",
                "SELECT x.tool_code, sum((x.ends_on - x.starts_on) * (SELECT arg_max(r.rate_per_day, r.applies_from) "
                "FROM day_rates r WHERE r.tool_code = x.tool_code AND r.applies_from <= x.starts_on)) AS earned "
                "FROM hires x GROUP BY x.tool_code ORDER BY earned DESC, x.tool_code LIMIT 3",
            ),
            (
                "top",
                "Which tool category has taken the most in payments, and how much?",
                "SELECT t.category, sum(p.amount) AS paid FROM hire_payments p JOIN hires x ON x.hire_id = p.hire_id "
                "JOIN tools t ON t.tool_code = x.tool_code GROUP BY t.category ORDER BY paid DESC LIMIT 1",
            ),
            (
                "range",
                f"How many hires started {between(first, last)}?",
                f"SELECT count(*) FROM hires WHERE starts_on BETWEEN {_date(first)} AND {_date(last)}",
            ),
            (
                "range",
                f"How much was paid in {paid_name}?",
                f"SELECT sum(amount) FROM hire_payments WHERE paid_on >= {paid_from} AND paid_on < {paid_to}",
            ),
            (
                "range",
                f"Which tools came back {between(came_from, came_to)}, and from whom?",
                "SELECT x.tool_code, h.hirer_name FROM hire_returns r JOIN hires x ON x.hire_id = r.hire_id "
                f"{_WHO} WHERE r.returned_at BETWEEN {_date(came_from)} AND {_date(came_to)} ORDER BY r.returned_at",
            ),
            (
                "range",
                f"List the hires that started in {hire_name}, with hirer, tool and start date.",
                f"SELECT h.hirer_name, x.tool_code, x.starts_on FROM hires x {_WHO} "
                f"WHERE x.starts_on >= {hire_from} AND x.starts_on < {hire_to} ORDER BY x.starts_on, x.tool_code",
            ),
            (
                "derived",
                f"How much is still owed on the hire of {owing.tool} by {owing.hirer}?",
                f"SELECT x.amount_due FROM hires x {_WHO} WHERE {who(owing)}",
            ),
            (
                "derived",
                f"What balance does {debtor} have with us?",
                f"SELECT balance FROM hirers WHERE hirer_name = {sql_text(debtor)}",
            ),
            ("derived", "What is the total outstanding across all hirers?", "SELECT sum(balance) FROM hirers"),
            (
                "derived",
                "How many hires have been paid off completely, with nothing left to pay?",
                "SELECT count(*) FROM hires WHERE amount_due = 0",
            ),
            (
                "none",
                "Which tools have never been hired?",
                "SELECT tool_code FROM tools WHERE tool_code NOT IN (SELECT tool_code FROM hires) ORDER BY tool_code",
            ),
            (
                "none",
                "Which hirers have never made a payment?",
                f"SELECT hirer_name FROM hirers EXCEPT SELECT h.hirer_name {pays} ORDER BY hirer_name",
            ),
            (
                "none",
                "Which hirers have no email address on file?",
                "SELECT hirer_name FROM hirers WHERE email IS NULL ORDER BY hirer_name",
            ),
            ("average", "What is the average length of a hire in days?", "SELECT avg(ends_on - starts_on) FROM hires"),
            (
                "average",
                f"What is the average current daily rate of our {SPOKEN_PLURAL[averaged][0]}?",
                f"SELECT avg({_LATEST_RATE}) FROM tools t WHERE t.category = '{averaged}'",
            ),
            ("average", "What is the average payment amount?", "SELECT avg(amount) FROM hire_payments"),
            (
                "category",
                f"How many times have {SPOKEN_PLURAL[spoken][-1] if spoken != 'ladder' else 'extension ladders'} been hired?",
                f"SELECT count(*) FROM hires x JOIN tools t ON t.tool_code = x.tool_code WHERE t.category = '{spoken}'",
            ),
            (
                "category",
                "How many tools came back broken?",
                "SELECT count(*) FROM hire_returns WHERE condition = 'damaged'",
            ),
            (
                "category",
                "How much has been put on account so far?",
                "SELECT sum(amount) FROM hire_payments WHERE method = 'account'",
            ),
            (
                "category",
                "How many returns came back showing wear and tear?",
                "SELECT count(*) FROM hire_returns WHERE condition = 'worn'",
            ),
        ]
        return [Question(f"q{i:02d}", text, gold, family) for i, (family, text, gold) in enumerate(rows, 1)]


def build(seed: int = 0) -> Trade:
    """The tool-hire trade generated from `seed`."""
    log = _Log(seed)
    log.run()
    return Trade(
        name="toolhire",
        description="A workshop hiring out drills, saws, sanders, ladders, generators and mixers from three depots.",
        schema=SCHEMA,
        reference=log.reference,
        rules=(AMOUNT_DUE, BALANCE),
        records=tuple(log.records),
        questions=tuple(log.ask()),
        snapshot=SNAPSHOT,
        checks=CHECKS,
    )
