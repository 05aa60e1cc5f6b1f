"""Climbing gym: climbers come in to climb on a membership, a punch card or a day pass, hire gear and take courses.

The gym's walls are split into sections with a code like 'SC-4' ("section 4", or by the section's name), each
with its terrain (slab, vertical, overhang, roof) and its style of climbing (bouldering, top rope, lead). The
setters set routes on them, each tagged with a code like 'RT-318' ("route 318", or by its hold colour and its
section) with a grade and a hold colour; a route is open, closed for a while (a spinning or cracked hold, an
anchor check, a competition reset) or stripped. Climbers join on a membership (day pass, punch card, monthly,
annual, junior); a punch card has punches left, one used at each visit. Some climbers rent a locker, and a
climber's belay check (top rope, then lead) is signed off on a day. Each visit is an entry: on a membership
(free), on a punch, or a day pass at the peak or off-peak fee. Shoes by size, harnesses by size, belay devices
and chalk bags are kept for hire at a price each; courses (intro to belaying, lead skills, movement technique,
youth club) start on a day, with an instructor, a fee and places left. Day passes, gear and course fees go on a
climber's tab, settled at the desk by card, cash, bank transfer or gift card; what a climber owes is kept by one
rule: their day-pass fees plus their gear hire plus their course fees, minus what they have paid. Gear hires
and course places are logged from an empty start.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .base import Question, Record, Rule, Trade, Turns, date_forms, in_words, keyvalue, lookup, sql_date, sql_text

GRADES = ("4", "5a", "5b", "5c", "6a", "6a+", "6b", "6b+", "6c", "6c+", "7a", "7a+", "7b")
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "black", "white", "pink")
SCHEMA = f"""
CREATE SEQUENCE climber_seq START 1;
CREATE SEQUENCE gear_hire_seq START 1;
CREATE SEQUENCE desk_payment_seq START 1;
CREATE TABLE wall_sections (
    section_code VARCHAR PRIMARY KEY,
    section_alias VARCHAR NOT NULL UNIQUE,
    terrain VARCHAR NOT NULL CHECK (terrain IN ('slab', 'vertical', 'overhang', 'roof')),
    climb_style VARCHAR NOT NULL CHECK (climb_style IN ('boulder', 'top_rope', 'lead')),
    height_m DECIMAL(4, 1) NOT NULL
);
CREATE TABLE climbers (
    climber_no INTEGER PRIMARY KEY DEFAULT nextval('climber_seq'),
    climber_name VARCHAR NOT NULL UNIQUE,
    mobile_no VARCHAR,
    email_addr VARCHAR,
    membership VARCHAR NOT NULL CHECK (membership IN ('day_pass', 'punch_card', 'monthly', 'annual', 'junior')),
    punches_left INTEGER NOT NULL DEFAULT 0 CHECK (punches_left >= 0),
    locker_no INTEGER CHECK (locker_no BETWEEN 1 AND 80),
    belay_level VARCHAR NOT NULL DEFAULT 'none' CHECK (belay_level IN ('none', 'top_rope', 'lead')),
    belay_signed_off DATE,
    joined_day DATE NOT NULL,
    amount_owed DECIMAL(10, 2) NOT NULL DEFAULT 0
);
CREATE TABLE set_routes (
    route_tag VARCHAR PRIMARY KEY,
    section_code VARCHAR NOT NULL REFERENCES wall_sections (section_code),
    grade VARCHAR NOT NULL CHECK (grade IN ({", ".join(f"'{g}'" for g in GRADES)})),
    hold_colour VARCHAR NOT NULL CHECK (hold_colour IN ({", ".join(f"'{c}'" for c in COLOURS)})),
    setter_name VARCHAR NOT NULL,
    set_day DATE NOT NULL,
    route_state VARCHAR NOT NULL DEFAULT 'open' CHECK (route_state IN ('open', 'closed', 'stripped')),
    closure_reason VARCHAR CHECK (closure_reason IN ('spinning_hold', 'cracked_hold', 'anchor_check', 'comp_reset'))
);
CREATE TABLE hire_gear (
    gear_code VARCHAR PRIMARY KEY,
    gear_kind VARCHAR NOT NULL CHECK (gear_kind IN ('shoes', 'harness', 'belay_device', 'chalk_bag')),
    size_label VARCHAR NOT NULL,
    units_owned INTEGER NOT NULL CHECK (units_owned >= 0),
    hire_price DECIMAL(5, 2) NOT NULL CHECK (hire_price > 0),
    UNIQUE (gear_kind, size_label)
);
CREATE TABLE gear_hires (
    hire_no INTEGER PRIMARY KEY DEFAULT nextval('gear_hire_seq'),
    climber_no INTEGER NOT NULL REFERENCES climbers (climber_no),
    gear_code VARCHAR NOT NULL REFERENCES hire_gear (gear_code),
    hired_day DATE NOT NULL,
    hire_charge DECIMAL(5, 2) NOT NULL,
    UNIQUE (climber_no, hired_day, gear_code)
);
CREATE TABLE courses (
    course_code VARCHAR PRIMARY KEY,
    course_kind VARCHAR NOT NULL CHECK (course_kind IN ('intro_belay', 'lead_skills', 'technique', 'youth_club')),
    starts_day DATE NOT NULL,
    sessions INTEGER NOT NULL CHECK (sessions > 0),
    instructor VARCHAR NOT NULL,
    course_fee DECIMAL(6, 2) NOT NULL CHECK (course_fee > 0),
    places_left INTEGER NOT NULL CHECK (places_left >= 0),
    UNIQUE (course_kind, starts_day)
);
CREATE TABLE course_places (
    course_code VARCHAR NOT NULL REFERENCES courses (course_code),
    climber_no INTEGER NOT NULL REFERENCES climbers (climber_no),
    booked_day DATE NOT NULL,
    fee_charged DECIMAL(6, 2) NOT NULL,
    PRIMARY KEY (course_code, climber_no)
);
CREATE TABLE gym_entries (
    climber_no INTEGER NOT NULL REFERENCES climbers (climber_no),
    entry_day DATE NOT NULL,
    entry_type VARCHAR NOT NULL CHECK (entry_type IN ('day_pass', 'punch', 'membership')),
    door_charge DECIMAL(6, 2) NOT NULL DEFAULT 0,
    PRIMARY KEY (climber_no, entry_day)
);
CREATE TABLE desk_payments (
    payment_no INTEGER PRIMARY KEY DEFAULT nextval('desk_payment_seq'),
    climber_no INTEGER NOT NULL REFERENCES climbers (climber_no),
    paid_day DATE NOT NULL,
    amount_paid DECIMAL(8, 2) NOT NULL CHECK (amount_paid > 0),
    pay_method VARCHAR NOT NULL CHECK (pay_method IN ('card', 'cash', 'bank_transfer', 'gift_card'))
);
"""

OWED = Rule(
    name="climber owes",
    sentence=(
        "What a climber owes is their day-pass entry fees plus what their gear hires charge plus the fees of the "
        "course places they are booked on, minus everything they have paid at the desk."
    ),
    sql=(
        "UPDATE climbers SET amount_owed = "
        "coalesce((SELECT sum(e.door_charge) FROM gym_entries e WHERE e.climber_no = climbers.climber_no), 0) "
        "+ coalesce((SELECT sum(h.hire_charge) FROM gear_hires h WHERE h.climber_no = climbers.climber_no), 0) "
        "+ coalesce((SELECT sum(p.fee_charged) FROM course_places p WHERE p.climber_no = climbers.climber_no), 0) "
        "- coalesce((SELECT sum(d.amount_paid) FROM desk_payments d WHERE d.climber_no = climbers.climber_no), 0)"
    ),
)

_NAMED = "JOIN climbers c ON c.climber_no = {}.climber_no"
SNAPSHOT = {
    "wall_sections": "SELECT section_code, section_alias, terrain, climb_style, height_m FROM wall_sections",
    "climbers": (
        "SELECT climber_name, mobile_no, email_addr, membership, punches_left, locker_no, belay_level, "
        "belay_signed_off, joined_day, amount_owed FROM climbers"
    ),
    "set_routes": (
        "SELECT route_tag, section_code, grade, hold_colour, setter_name, set_day, route_state, closure_reason "
        "FROM set_routes"
    ),
    "hire_gear": "SELECT gear_code, gear_kind, size_label, units_owned, hire_price FROM hire_gear",
    "gear_hires": (
        f"SELECT c.climber_name, h.gear_code, h.hired_day, h.hire_charge FROM gear_hires h {_NAMED.format('h')}"
    ),
    "courses": (
        "SELECT course_code, course_kind, starts_day, sessions, instructor, course_fee, places_left FROM courses"
    ),
    "course_places": (
        f"SELECT p.course_code, c.climber_name, p.booked_day, p.fee_charged FROM course_places p {_NAMED.format('p')}"
    ),
    "gym_entries": (
        f"SELECT c.climber_name, e.entry_day, e.entry_type, e.door_charge FROM gym_entries e {_NAMED.format('e')}"
    ),
    "desk_payments": (
        f"SELECT c.climber_name, d.paid_day, d.amount_paid, d.pay_method FROM desk_payments d {_NAMED.format('d')}"
    ),
}
CHECKS = {
    "what each climber owes": "SELECT climber_name, amount_owed FROM climbers",
    "punches left": "SELECT climber_name, punches_left FROM climbers WHERE membership = 'punch_card'",
    "places left per course": "SELECT course_code, places_left FROM courses",
    "gear owned": "SELECT gear_code, units_owned FROM hire_gear",
    "routes per state": "SELECT route_state, count(*) FROM set_routes GROUP BY route_state",
    "entries per type": "SELECT entry_type, count(*) FROM gym_entries GROUP BY entry_type",
    "lockers in use": "SELECT locker_no, count(*) FROM climbers WHERE locker_no IS NOT NULL GROUP BY locker_no",
}

# -- names and words --------------------------------------------------------------------------------

START = dt.date(2024, 11, 4)
SECTIONS = (  # name, terrain, style, height in metres
    ("Gullwing Cave", "roof", "boulder", 4.5),
    ("Tilted Slab", "slab", "top_rope", 11.5),
    ("Hangman Prow", "overhang", "lead", 15.0),
    ("Chimney Face", "vertical", "top_rope", 12.0),
    ("Barrelback", "overhang", "boulder", 4.2),
    ("Long Drop Wall", "vertical", "lead", 15.5),
    ("Pebble Nook", "vertical", "boulder", 3.0),
)
STYLE_SAID = {"boulder": "boulder", "top_rope": "top-rope route", "lead": "lead route"}
SETTERS = ("Oswin Marchbank", "Tamsin Quarrell", "Benedikt Halloran", "Ysolde Penwarden")
INSTRUCTORS = ("Ruairi Castleton", "Marisol Eckhart", "Tamsin Quarrell", "Anselm Wyvern", "Odalys Brennock")
REASONS = {  # reason -> (a short word for a log line or a field, a clause after the route, what fixed it)
    "spinning_hold": (("spinning hold", "loose hold"), "has a hold spinning", "the hold is tightened"),
    "cracked_hold": (("cracked hold", "hold cracked"), "has a cracked hold", "the cracked hold is replaced"),
    "anchor_check": (("anchor check", "lower-off check"), "is shut for an anchor check", "the anchor passed its check"),
    "comp_reset": (("comp reset", "competition reset"), "is shut for the competition reset", "the comp is over"),
}
GEAR = (  # code, kind, size, range of units owned at the start, hire price
    ("SH-38", "shoes", "38", (4, 9), 4.50),
    ("SH-39", "shoes", "39", (5, 10), 4.50),
    ("SH-40", "shoes", "40", (6, 12), 4.50),
    ("SH-41", "shoes", "41", (6, 12), 4.50),
    ("SH-42", "shoes", "42", (6, 12), 4.50),
    ("SH-43", "shoes", "43", (5, 10), 4.50),
    ("SH-44", "shoes", "44", (4, 8), 4.50),
    ("SH-45", "shoes", "45", (3, 6), 4.50),
    ("HN-S", "harness", "S", (4, 8), 3.00),
    ("HN-M", "harness", "M", (6, 14), 3.00),
    ("HN-L", "harness", "L", (4, 9), 3.00),
    ("BD-1", "belay_device", "one size", (6, 12), 2.00),
    ("CB-1", "chalk_bag", "one size", (8, 20), 1.50),
)
COURSES = {  # kind -> what it is called, sessions, fee, places
    "intro_belay": ("intro to belaying course", 2, 45.0, 6),
    "lead_skills": ("lead skills course", 4, 95.0, 6),
    "technique": ("movement technique course", 3, 60.0, 8),
    "youth_club": ("youth club block", 6, 40.0, 10),
}
COURSE_PLAN = ("intro_belay", "intro_belay", "lead_skills", "technique", "youth_club", "lead_skills", "technique")
CLIMBERS = (  # name, mobile, email, membership: the reference climbers are drawn from these
    ("Aurelio Mancuso", "07823 551204", "aurelio.m@cragpost.net", "monthly"),
    ("Brigid Tremayne", "07823 551318", None, "punch_card"),
    ("Casimir Oduya", "07823 551427", "casimir.oduya@ropeline.org", "annual"),
    ("Delphine Achterberg", "07823 551539", "d.achterberg@chalkpost.co.uk", "day_pass"),
    ("Eamon Rourke-Vidal", "07823 551641", "eamon.rv@cragpost.net", "punch_card"),
    ("Fenella Drury", None, "fenella.drury@ropeline.org", "monthly"),
    ("Gideon Ashworth", "07823 551756", "gideon.a@chalkpost.co.uk", "annual"),
    ("Halvard Moen", "07823 551872", None, "day_pass"),
    ("Isolde Carrick", "07823 551983", "isolde.carrick@cragpost.net", "junior"),
    ("Jaspreet Sandhu", "07823 551095", "jaspreet.s@ropeline.org", "punch_card"),
    ("Kit Warrender", "07823 552106", "kit.warrender@chalkpost.co.uk", "junior"),
    ("Leocadia Ferro", "07823 552214", "leocadia.f@cragpost.net", "monthly"),
)
NEW_CLIMBERS = (  # climbers who first come in during the log
    ("Magnus Thorsby", "07823 553117", "magnus.t@ropeline.org", "punch_card"),
    ("Nerys Pughsley", None, "nerys.p@cragpost.net", "day_pass"),
    ("Oriel Vantongeren", "07823 553229", None, "monthly"),
    ("Pavlina Kostova", "07823 553338", "pavlina.k@chalkpost.co.uk", "annual"),
    ("Quillon Hartigan", "07823 553441", "q.hartigan@ropeline.org", "junior"),
    ("Rosalind Achebe-Moss", "07823 553552", "rosalind.am@cragpost.net", "punch_card"),
)
MEMBERSHIP_SAID = {
    "day_pass": ("pay-per-visit", "day-pass"),
    "punch_card": ("punch card", "10-visit punch card"),
    "monthly": ("monthly", "monthly membership"),
    "annual": ("annual", "yearly membership"),
    "junior": ("junior", "junior (under-16) membership"),
}
PUNCHES = 10  # a new punch card's punches
DAY_FEES = {"off-peak": 11.0, "peak": 14.5}
BELAY_SAID = {"top_rope": ("top-rope belay check", "top-rope belaying"), "lead": ("lead belay check", "lead belaying")}
VIA_SAID = {
    "card": ("by card", "on a card"),
    "cash": ("in cash", "with cash"),
    "bank_transfer": ("by bank transfer", "with a transfer"),
    "gift_card": ("with a gift card", "on a gift card"),
}
# record kind -> how many the log has, and the class of change ("" for a new fact) whose records take the
# wordings in turn (`Turns`), so that each class comes in every wording
KINDS = {
    "climber_joined": (4, ""),
    "entry": (8, ""),
    "gear_hire": (6, ""),
    "route_set": (6, ""),
    "course_booked": (5, ""),
    "payment": (6, ""),
    "route_closed": (2, "set"),
    "route_regraded": (2, "set"),
    "membership_changed": (1, "set"),
    "belay_passed": (2, "set"),
    "course_instructor": (1, "set"),
    "hire_swapped": (1, "set"),
    "locker_given": (1, "set"),
    "contact_dropped": (3, "clear"),
    "locker_returned": (2, "clear"),
    "route_reopened": (2, "clear+set"),
    "belay_lapsed": (2, "clear+set"),
    "route_same_grade": (2, "copy"),
    "mobile_shared": (1, "copy"),
    "locker_shared": (1, "copy"),
    "course_same_instructor": (1, "copy"),
    "gear_bought": (2, "add"),
    "gear_binned": (1, "add"),
    "punches_given": (2, "add"),
    "places_added": (1, "add"),
    "hire_voided": (2, "remove"),
    "entry_struck": (1, "remove"),
    "place_cancelled": (2, "add+remove"),
    "punch_struck": (2, "add+remove"),
}
DRAWS = 200  # logs drawn at most for one seed
STEPS = (0, 0, 1, 1, 1, 2)  # days between one record and the next


# -- the state the log keeps ------------------------------------------------------------------------


@dataclass
class Climber:
    name: str
    mobile: str | None
    email: str | None
    membership: str
    joined: dt.date = START
    punches: int = 0
    locker: int | None = None
    belay: str = "none"
    signed: dt.date | None = None


@dataclass
class Gear:
    kind: str
    size: str
    units: int
    price: float


@dataclass
class Route:
    tag: str
    section: str  # section code
    grade: str
    colour: str
    setter: str
    day: dt.date
    state: str = "open"
    reason: str | None = None
    since: dt.date = START  # the day of its last change of state

    def number(self) -> int:
        return int(self.tag.split("-")[1])


@dataclass
class Course:
    code: str
    kind: str
    starts: dt.date
    sessions: int
    instructor: str
    fee: float
    left: int


@dataclass
class Place:
    course: str
    climber: str
    day: dt.date
    fee: float


@dataclass
class Entry:
    climber: str
    day: dt.date
    type: str
    fee: float


@dataclass
class Hire:
    climber: str
    gear: str
    day: dt.date
    charge: float


@dataclass
class Draft:
    """One record before its wording is chosen: each wording's text states every value in `stated`."""

    facts: Mapping[str, object]
    gold: list[str]
    texts: dict[str, str]
    stated: list[str]


def money(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _climber(name: str) -> str:
    return lookup("climbers", "climber_no", "climber_name", name)


def _value(value: object) -> str:
    return "NULL" if value is None else sql_text(str(value))


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class Gym:
    """The seeded simulation of the gym: reference rows, then one record at a time, then questions."""

    def __init__(self, rng: random.Random, forms: int) -> None:
        self.rng = rng
        self.day = START
        self.forms = forms
        self.records: list[Record] = []
        numbers = sorted(rng.sample(range(1, 13), len(SECTIONS)))
        self.sections = {f"SC-{n}": section for n, section in zip(numbers, SECTIONS)}
        self.gear = {code: Gear(kind, size, rng.randint(*units), price) for code, kind, size, units, price in GEAR}
        self.unused_gear = rng.choice([c for c in self.gear if c.startswith("SH-")])  # shoes nobody hires
        pool = list(CLIMBERS)
        rng.shuffle(pool)
        walk_in = next(i for i, p in enumerate(pool) if p[3] == "day_pass")  # one pays day passes from the start
        if walk_in >= 8:
            pool[0], pool[walk_in] = pool[walk_in], pool[0]
        self.climbers: dict[str, Climber] = {}
        for name, mobile, email, membership in pool[:8]:
            climber = Climber(name, mobile, email, membership, START - dt.timedelta(days=rng.randrange(30, 700)))
            if membership == "punch_card":
                climber.punches = rng.randint(2, 8)
            if membership != "junior" and rng.random() < 0.7:
                climber.belay = rng.choice(("top_rope", "top_rope", "lead"))
                climber.signed = climber.joined + dt.timedelta(days=rng.randrange(1, 25))
            self.climbers[name] = climber
        for climber, locker in zip(rng.sample(list(self.climbers.values()), 3), rng.sample(range(1, 81), 3)):
            climber.locker = locker
        newcomers = pool[8:] + list(NEW_CLIMBERS)
        rng.shuffle(newcomers)
        self.newcomers = [Climber(*p) for p in newcomers]
        self.no_entry = rng.choice(  # a climber who never comes in during the log
            [n for n, c in sorted(self.climbers.items()) if c.membership != "day_pass"]
        )
        self.next_route = rng.randrange(200, 700)
        self.routes: dict[str, Route] = {}
        states = ("open",) * 11 + ("closed",) * 2 + ("stripped",) * 2
        for state in states:
            route = self._route(START - dt.timedelta(days=rng.randrange(3, 70)))
            route.state, route.since = state, route.day
            if state == "closed":
                route.reason = rng.choice(sorted(REASONS))
        numbers = sorted(rng.sample(range(100, 400), len(COURSE_PLAN)))
        offsets = sorted(rng.sample(range(4, 60), len(COURSE_PLAN)))
        self.courses: dict[str, Course] = {}
        for n, kind, offset in zip(numbers, COURSE_PLAN, offsets):
            _, sessions, fee, places = COURSES[kind]
            code = f"CR-{n}"
            self.courses[code] = Course(code, kind, START + dt.timedelta(days=offset), sessions, "", fee, places)
        for course in self.courses.values():
            course.instructor = rng.choice(INSTRUCTORS)
        self.quiet_course = max(self.courses.values(), key=lambda c: c.starts).code  # a course nobody books
        self.places: list[Place] = []
        self.hires: list[Hire] = []
        self.entries: list[Entry] = []
        self.paid: dict[str, list[tuple[dt.date, float, str]]] = {}
        for offset in sorted(rng.sample(range(1, 20), 10), reverse=True):
            day = START - dt.timedelta(days=offset)
            names = [n for n in self.names() if n != self.no_entry and self.climbers[n].joined < day]
            name = rng.choice(names)
            if not any(e.climber == name and e.day == day for e in self.entries):
                self.entries.append(self._entry(name, day))
        if not any(e.type == "day_pass" for e in self.entries):
            name = next(n for n in self.names() if self.climbers[n].membership == "day_pass" and n != self.no_entry)
            taken = {e.day for e in self.entries if e.climber == name}
            day = rng.choice([d for d in (START - dt.timedelta(days=n) for n in range(1, 21)) if d not in taken])
            self.entries.append(self._entry(name, day))
        for name in sorted({e.climber for e in self.entries}):
            fees = sum(e.fee for e in self.entries if e.climber == name)
            if fees:
                self.paid[name] = [(START - dt.timedelta(days=1), fees, rng.choice(("card", "cash")))]
        self.reference = self._reference()

    def _route(self, day: dt.date, section: str | None = None) -> Route:
        """A new route set on `day` (on `section`, else any), with a hold colour its section has not used."""
        rng = self.rng
        self.next_route += rng.randint(1, 4)
        section = section or rng.choice(sorted(self.sections))
        used = {r.colour for r in self.routes.values() if r.section == section}
        colour = rng.choice([c for c in COLOURS if c not in used] or list(COLOURS))
        style = self.sections[section][2]
        grades = GRADES[:10] if style == "boulder" else GRADES[2:]
        route = Route(f"RT-{self.next_route}", section, rng.choice(grades), colour, rng.choice(SETTERS), day, since=day)
        self.routes[route.tag] = route
        return route

    def _entry(self, name: str, day: dt.date) -> Entry:
        """An entry of `name` on `day` by their membership: free on a membership, a punch, or a day pass."""
        climber = self.climbers[name]
        if climber.membership in ("monthly", "annual", "junior"):
            return Entry(name, day, "membership", 0.0)
        if climber.membership == "punch_card" and climber.punches > 0:
            climber.punches -= 1
            return Entry(name, day, "punch", 0.0)
        return Entry(name, day, "day_pass", self.rng.choice(sorted(DAY_FEES.values())))

    # -- reference rows ---------------------------------------------------------------------------

    def _reference(self) -> str:
        def values(rows: list[str]) -> str:
            return ", ".join(rows) + ";"

        sections = [
            f"('{code}', {sql_text(alias)}, '{terrain}', '{style}', {height})"
            for code, (alias, terrain, style, height) in self.sections.items()
        ]
        gear = [f"('{code}', '{g.kind}', '{g.size}', {g.units}, {money(g.price)})" for code, g in self.gear.items()]
        climbers = [
            f"({sql_text(c.name)}, {_value(c.mobile)}, {_value(c.email)}, '{c.membership}', {c.punches}, "
            f"{c.locker or 'NULL'}, '{c.belay}', {sql_date(c.signed) if c.signed else 'NULL'}, {sql_date(c.joined)})"
            for c in self.climbers.values()
        ]
        routes = [
            f"('{r.tag}', '{r.section}', '{r.grade}', '{r.colour}', {sql_text(r.setter)}, {sql_date(r.day)}, "
            f"'{r.state}', {_value(r.reason)})"
            for r in self.routes.values()
        ]
        courses = [
            f"('{c.code}', '{c.kind}', {sql_date(c.starts)}, {c.sessions}, {sql_text(c.instructor)}, {money(c.fee)}, "
            f"{c.left})"
            for c in self.courses.values()
        ]
        entries = [f"({_climber(e.climber)}, {sql_date(e.day)}, '{e.type}', {money(e.fee)})" for e in self.entries]
        paid = [
            f"({_climber(name)}, {sql_date(day)}, {money(amount)}, '{via}')"
            for name, rows in self.paid.items()
            for day, amount, via in rows
        ]
        statements = (
            "INSERT INTO wall_sections (section_code, section_alias, terrain, climb_style, height_m) VALUES "
            + values(sections),
            "INSERT INTO hire_gear (gear_code, gear_kind, size_label, units_owned, hire_price) VALUES " + values(gear),
            "INSERT INTO climbers (climber_name, mobile_no, email_addr, membership, punches_left, locker_no, "
            "belay_level, belay_signed_off, joined_day) VALUES " + values(climbers),
            "INSERT INTO set_routes (route_tag, section_code, grade, hold_colour, setter_name, set_day, "
            "route_state, closure_reason) VALUES " + values(routes),
            "INSERT INTO courses (course_code, course_kind, starts_day, sessions, instructor, course_fee, "
            "places_left) VALUES " + values(courses),
            "INSERT INTO gym_entries (climber_no, entry_day, entry_type, door_charge) VALUES " + values(entries),
            "INSERT INTO desk_payments (climber_no, paid_day, amount_paid, pay_method) VALUES " + values(paid),
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
        return (in_words(n), []) if n <= 12 and self.rng.random() < 0.4 else (str(n), [str(n)])

    def section_said(self, code: str) -> tuple[str, str, list[str]]:
        """A section as a user names it ('SC-4', 'section 4', or its name), its SQL value, and what the text states."""
        alias = self.sections[code][0]
        n = code.split("-")[1]
        return self.rng.choice(
            [
                (code, f"'{code}'", [code]),
                (f"section {n}", f"'{code}'", [f"section {n}"]),
                (alias, lookup("wall_sections", "section_code", "section_alias", alias), [alias]),
                (alias, lookup("wall_sections", "section_code", "section_alias", alias), [alias]),
            ]
        )

    def route_said(self, route: Route) -> tuple[str, str, list[str]]:
        """A route as a user names it ('RT-318', 'route 318', or 'the blue 6b on Tilted Slab' when no other route of
        its section has its colour), the SQL value of its tag as the text names it, and what the text states."""
        code = f"'{route.tag}'"
        forms = [
            (route.tag, code, [route.tag]),
            (route.tag, code, [route.tag]),
            (f"route {route.number()}", code, [str(route.number())]),
        ]
        if not any(
            r.section == route.section and r.colour == route.colour and r is not route for r in self.routes.values()
        ):
            alias = self.sections[route.section][0]
            key = (
                "(SELECT route_tag FROM set_routes WHERE section_code = "
                f"{lookup('wall_sections', 'section_code', 'section_alias', alias)} AND hold_colour = '{route.colour}')"
            )
            forms += [(f"the {route.colour} {route.grade} on {alias}", key, [route.colour, route.grade, alias])] * 2
        return self.rng.choice(forms)

    def course_said(self, course: Course) -> tuple[str, str, list[str]]:
        """A course as a user names it ('CR-214', or what it is and the day it starts), its SQL value, and what the
        text states."""
        code = f"'{course.code}'"
        starts = self.date(course.starts)
        key = (
            f"(SELECT course_code FROM courses WHERE course_kind = '{course.kind}' "
            f"AND starts_day = {sql_date(course.starts)})"
        )
        return self.rng.choice(
            [
                (course.code, code, [course.code]),
                (f"course {course.code}", code, [course.code]),
                (f"the {COURSES[course.kind][0]} starting {starts}", key, [starts]),
            ]
        )

    def gear_said(self, code: str) -> tuple[str, list[str]]:
        """An item of hire gear as a user names it ('shoes size 41', 'an M harness', 'SH-41'), and what the text
        states."""
        kind, size = self.gear[code].kind, self.gear[code].size
        if kind == "shoes":
            forms = [(f"shoes size {size}", [size]), (f"size {size} shoes", [size]), (code, [code])]
        elif kind == "harness":
            forms = [(f"harness size {size}", ["harness"]), (f"{size} harness", ["harness"]), (code, [code])]
        else:
            noun = kind.replace("_", " ")
            forms = [(f"a {noun}", [noun]), (noun, [noun]), (code, [code])]
        return self.rng.choice(forms)

    # -- the state ----------------------------------------------------------------------------------

    def names(self) -> list[str]:
        return sorted(self.climbers)

    def owes(self, name: str) -> float:
        charged = sum(e.fee for e in self.entries if e.climber == name)
        charged += sum(h.charge for h in self.hires if h.climber == name)
        charged += sum(p.fee for p in self.places if p.climber == name)
        return round(charged - sum(amount for _, amount, _ in self.paid.get(name, [])), 2)

    def free_locker(self) -> int:
        taken = {c.locker for c in self.climbers.values() if c.locker}
        return self.rng.choice([n for n in range(1, 81) if n not in taken])

    def open_courses(self) -> list[Course]:
        return [c for c in self.courses.values() if c.starts > self.day and c.code != self.quiet_course]

    # -- new facts ----------------------------------------------------------------------------------

    def climber_joined(self) -> Draft | None:
        if not self.newcomers:
            return None
        c = self.newcomers.pop(0)
        c.joined = self.day
        c.punches = PUNCHES if c.membership == "punch_card" else 0
        self.climbers[c.name] = c
        gold = [
            "INSERT INTO climbers (climber_name, mobile_no, email_addr, membership, punches_left, joined_day) VALUES "
            f"({sql_text(c.name)}, {_value(c.mobile)}, {_value(c.email)}, '{c.membership}', {c.punches}, "
            f"{sql_date(self.day)})"
        ]
        plan, day = self.rng.choice(MEMBERSHIP_SAID[c.membership]), self.date(self.day)
        contact = (
            (f"mobile {c.mobile}" if c.mobile else "no mobile") + ", " + (f"email {c.email}" if c.email else "no email")
        )
        card = f" with {PUNCHES} punches on it" if c.punches else ""
        texts = {
            "log": f"{day} | new climber | {c.name} | {plan}{card} | {contact}",
            "chatty": f"{c.name} joined on {day} ({plan}{card}); {contact}",
            "keyvalue": keyvalue(
                "new climber",
                [("name", c.name), ("membership", plan)]
                + ([("punches", PUNCHES)] if c.punches else [])
                + [("mobile", c.mobile or "none"), ("email", c.email or "none"), ("joined", day)],
            ),
        }
        facts = {
            "climber": c.name,
            "mobile": c.mobile,
            "email": c.email,
            "membership": c.membership,
            "punches": c.punches,
        }
        stated = [c.name, *([c.mobile] if c.mobile else []), *([c.email] if c.email else []), day]
        return Draft(facts, gold, texts, [*stated, *([str(PUNCHES)] if c.punches else [])])

    def entry(self) -> Draft | None:
        rng = self.rng
        names = [
            n
            for n in self.names()
            if n != self.no_entry and not any(e.climber == n and e.day == self.day for e in self.entries)
        ]
        if not names:
            return None
        fresh = [n for n in names if not any(e.climber == n for e in self.entries)]
        name = rng.choice(fresh if fresh and rng.random() < 0.5 else names)
        entry = self._entry(name, self.day)
        self.entries.append(entry)
        gold = [
            "INSERT INTO gym_entries (climber_no, entry_day, entry_type, door_charge) VALUES "
            f"({_climber(name)}, {sql_date(self.day)}, '{entry.type}', {money(entry.fee)})"
        ]
        if entry.type == "punch":
            gold.append(f"UPDATE climbers SET punches_left = punches_left - 1 WHERE climber_name = {sql_text(name)}")
        day, stated = self.date(self.day), [name]
        if entry.type == "membership":
            plan = MEMBERSHIP_SAID[self.climbers[name].membership][0]
            texts = {
                "log": f"{day} | entry | {name} | on {plan} membership, no fee",
                "chatty": f"{name} came in to climb on {day}, on their {plan} membership",
                "keyvalue": keyvalue("entry", [("climber", name), ("entry", f"{plan} member"), ("date", day)]),
            }
        elif entry.type == "punch":
            texts = {
                "log": f"{day} | entry | {name} | punch card, one punch",
                "chatty": rng.choice(
                    (
                        f"{name} climbed on {day} and we punched their card",
                        f"Punched {name}'s card when they came in on {day}",
                    )
                ),
                "keyvalue": keyvalue("entry", [("climber", name), ("entry", "punch card"), ("date", day)]),
            }
        else:
            when = next(k for k, v in DAY_FEES.items() if v == entry.fee)
            fee = money(entry.fee)
            stated.append(fee)
            texts = {
                "log": f"{day} | entry | {name} | {when} day pass £{fee}, on their tab",
                "chatty": f"{name} came in for an {when} day pass on {day}, £{fee} on their tab",
                "keyvalue": keyvalue(
                    "entry", [("climber", name), ("entry", f"{when} day pass"), ("fee", fee), ("date", day)]
                ),
            }
            if when == "peak":
                texts["chatty"] = f"{name} came in for a peak-time day pass on {day}, £{fee} on their tab"
        facts = {"climber": name, "entry_type": entry.type, "fee": entry.fee}
        return Draft(facts, gold, texts, [*stated, day])

    def gear_hire(self) -> Draft | None:
        rng = self.rng
        names = [n for n in self.names() if not any(h.climber == n and h.day == self.day for h in self.hires)]
        came = [n for n in names if any(e.climber == n and e.day == self.day for e in self.entries)]
        if not names:
            return None
        name = rng.choice(came or names)
        shoes = rng.choice([c for c in self.gear if c.startswith("SH-") and c != self.unused_gear])
        others = rng.sample(["harness", "BD-1", "CB-1"], rng.choice((0, 1, 1, 2)))
        others = [rng.choice(("HN-S", "HN-M", "HN-M", "HN-L")) if c == "harness" else c for c in others]
        codes = [shoes, *others] if rng.random() < 0.8 or not others else others
        hires = [Hire(name, code, self.day, self.gear[code].price) for code in codes]
        self.hires += hires
        rows = ", ".join(
            f"({_climber(name)}, '{h.gear}', {sql_date(self.day)}, "
            f"(SELECT hire_price FROM hire_gear WHERE gear_code = '{h.gear}'))"
            for h in hires
        )
        gold = [f"INSERT INTO gear_hires (climber_no, gear_code, hired_day, hire_charge) VALUES {rows}"]
        listed, stated = [], [name]
        for code in codes:
            said, s = self.gear_said(code)
            listed.append(said)
            stated += s
        day = self.date(self.day)
        texts = {
            "log": f"{day} | gear hire | {name} | {', '.join(listed)} | usual hire prices",
            "chatty": rng.choice(
                (
                    f"{name} hired {_joined(listed)} on {day}, at the usual hire price",
                    f"Lent {name} {_joined(listed)} from the hire rack on {day}; charge the normal hire price",
                )
            ),
            "keyvalue": keyvalue(
                "gear hire",
                [("climber", name), ("gear", ", ".join(listed)), ("price", "hire price"), ("date", day)],
            ),
        }
        facts = {"climber": name, "gear": codes}
        return Draft(facts, gold, texts, [*stated, day])

    def route_set(self) -> Draft | None:
        rng = self.rng
        route = self._route(self.day)
        section, value, s_said = self.section_said(route.section)
        gold = [
            "INSERT INTO set_routes (route_tag, section_code, grade, hold_colour, setter_name, set_day) VALUES "
            f"('{route.tag}', {value}, '{route.grade}', '{route.colour}', {sql_text(route.setter)}, "
            f"{sql_date(self.day)})"
        ]
        what, day = STYLE_SAID[self.sections[route.section][2]], self.date(self.day)
        texts = {
            "log": f"{day} | new route | {route.tag} | {section} | {route.colour} {route.grade} | set by {route.setter}",
            "chatty": rng.choice(
                (
                    f"{route.setter} set a new {route.colour} {route.grade} {what} on {section} on {day}, "
                    f"tagged {route.tag}",
                    f"New {what} {route.tag} went up on {section} on {day}: {route.colour} holds, graded "
                    f"{route.grade}, set by {route.setter}",
                )
            ),
            "keyvalue": keyvalue(
                "new route",
                [("tag", route.tag), ("wall", section), ("grade", route.grade), ("holds", route.colour)]
                + [("setter", route.setter), ("set on", day)],
            ),
        }
        facts = {
            "route": route.tag,
            "section": route.section,
            "grade": route.grade,
            "colour": route.colour,
            "setter": route.setter,
        }
        return Draft(facts, gold, texts, [route.tag, *s_said, route.grade, route.colour, route.setter, day])

    def course_booked(self) -> Draft | None:
        rng = self.rng
        options = [
            (course, name)
            for course in self.open_courses()
            if course.left > 0
            for name in self.names()
            if (course.kind == "youth_club") == (self.climbers[name].membership == "junior")
            and not any(p.course == course.code and p.climber == name for p in self.places)
        ]
        if not options:
            return None
        unbooked = [(c, n) for c, n in options if not any(p.course == c.code for p in self.places)]
        course, name = rng.choice(unbooked if unbooked and rng.random() < 0.5 else options)
        course.left -= 1
        self.places.append(Place(course.code, name, self.day, course.fee))
        phrase, key, said = self.course_said(course)
        gold = [
            "INSERT INTO course_places (course_code, climber_no, booked_day, fee_charged) VALUES "
            f"({key}, {_climber(name)}, {sql_date(self.day)}, (SELECT course_fee FROM courses WHERE course_code = {key}))",
            f"UPDATE courses SET places_left = places_left - 1 WHERE course_code = {key}",
        ]
        day, fee = self.date(self.day), money(course.fee)
        texts = {
            "log": f"{day} | course booking | {name} | {phrase} | £{fee} on their tab",
            "chatty": f"{name} booked a place on {phrase} on {day}; the £{fee} fee goes on their tab",
            "keyvalue": keyvalue(
                "course booking", [("climber", name), ("course", phrase), ("fee", fee), ("booked", day)]
            ),
        }
        facts = {"climber": name, "course": course.code, "fee": course.fee}
        return Draft(facts, gold, texts, [name, *said, fee, day])

    def payment(self) -> Draft | None:
        rng = self.rng
        owing = [name for name in self.names() if self.owes(name) > 0]
        if not owing:
            return None
        name = rng.choice(owing)
        due = self.owes(name)
        amount = due if rng.random() < 0.6 or due <= 20 else float(rng.randrange(10, int(due), 5))
        via = rng.choice(sorted(VIA_SAID))
        self.paid.setdefault(name, []).append((self.day, amount, via))
        gold = [
            "INSERT INTO desk_payments (climber_no, paid_day, amount_paid, pay_method) VALUES "
            f"({_climber(name)}, {sql_date(self.day)}, {money(amount)}, '{via}')"
        ]
        how, day = rng.choice(VIA_SAID[via]), self.date(self.day)
        texts = {
            "log": f"{day} | payment | {name} | {money(amount)} | {how}",
            "chatty": f"{name} settled £{money(amount)} of their tab {how} at the desk on {day}",
            "keyvalue": keyvalue(
                "payment", [("climber", name), ("amount", money(amount)), ("paid", how), ("date", day)]
            ),
        }
        facts = {"climber": name, "amount": amount, "via": via}
        return Draft(facts, gold, texts, [name, money(amount), day])

    # -- changes: a value given, or found by a name -------------------------------------------------

    def route_closed(self) -> Draft | None:
        routes = [r for r in self.routes.values() if r.state == "open" and r.since < self.day]
        if not routes:
            return None
        route = self.rng.choice(routes)
        phrase, key, said = self.route_said(route)
        route.state, route.since = "closed", self.day
        route.reason = self.rng.choice(sorted(REASONS))
        shorts, clause, _ = REASONS[route.reason]
        short, day = self.rng.choice(shorts), self.date(self.day)
        gold = [
            f"UPDATE set_routes SET route_state = 'closed', closure_reason = '{route.reason}' WHERE route_tag = {key}"
        ]
        texts = {
            "log": f"{day} | {phrase} | closed, {short}",
            "chatty": f"{_capital(phrase)} {clause}, so it's closed from {day}",
            "keyvalue": keyvalue(
                "route update", [("route", phrase), ("status", "closed"), ("why", short), ("date", day)]
            ),
        }
        facts = {"route": route.tag, "state": "closed", "reason": route.reason}
        return Draft(facts, gold, texts, [*said, day])

    def route_regraded(self) -> Draft | None:
        routes = [r for r in self.routes.values() if r.state == "open" and r.since < self.day]
        if not routes:
            return None
        route = self.rng.choice(routes)
        phrase, key, said = self.route_said(route)
        i = GRADES.index(route.grade)
        steps = [j for j in (i - 1, i + 1) if 0 <= j < len(GRADES)]
        old, route.grade = route.grade, GRADES[self.rng.choice(steps)]
        harder = GRADES.index(route.grade) > i
        gold = [f"UPDATE set_routes SET grade = '{route.grade}' WHERE route_tag = {key}"]
        day = self.date(self.day)
        how = "harder" if harder else "softer"
        texts = {
            "log": f"{day} | regrade | {phrase} | {old} -> {route.grade}",
            "chatty": f"Everyone says {phrase} climbs {how} than {old}; regrade it to {route.grade} ({day})",
            "keyvalue": keyvalue("regrade", [("route", phrase), ("new grade", route.grade), ("date", day)]),
        }
        return Draft({"route": route.tag, "grade": route.grade}, gold, texts, [*said, route.grade, day])

    def membership_changed(self) -> Draft | None:
        names = [n for n in self.names() if self.climbers[n].membership != "junior"]
        if not names:
            return None
        name = self.rng.choice(names)
        climber = self.climbers[name]
        old = climber.membership
        climber.membership = self.rng.choice([m for m in MEMBERSHIP_SAID if m not in (old, "junior")])
        gold = [f"UPDATE climbers SET membership = '{climber.membership}' WHERE climber_name = {sql_text(name)}"]
        before, after = self.rng.choice(MEMBERSHIP_SAID[old]), self.rng.choice(MEMBERSHIP_SAID[climber.membership])
        day = self.date(self.day)
        texts = {
            "log": f"{day} | membership change | {name} | {before} -> {after}",
            "chatty": f"{name} is switching from {before} to {after} from {day}",
            "keyvalue": keyvalue(
                "membership change", [("climber", name), ("old", before), ("new", after), ("from", day)]
            ),
        }
        return Draft({"climber": name, "membership": climber.membership}, gold, texts, [name, day])

    def belay_passed(self) -> Draft | None:
        names = [
            n
            for n, c in sorted(self.climbers.items())
            if c.membership != "junior" and c.belay != "lead" and (c.signed or c.joined) < self.day
        ]
        if not names:
            return None
        name = self.rng.choice(names)
        climber = self.climbers[name]
        climber.belay = "lead" if climber.belay == "top_rope" else "top_rope"
        climber.signed = self.day
        gold = [
            f"UPDATE climbers SET belay_level = '{climber.belay}', belay_signed_off = {sql_date(self.day)} "
            f"WHERE climber_name = {sql_text(name)}"
        ]
        check, skill = BELAY_SAID[climber.belay]
        staff, day = self.rng.choice(INSTRUCTORS), self.date(self.day)
        texts = {
            "log": f"{day} | belay check | {name} | passed {check}, signed off by {staff}",
            "chatty": f"{staff} signed {name} off for {skill} on {day}, they passed the {check}",
            "keyvalue": keyvalue(
                "belay check", [("climber", name), ("passed", check), ("signed off", day), ("by", staff)]
            ),
        }
        facts = {"climber": name, "belay": climber.belay, "signed": self.day.isoformat()}
        return Draft(facts, gold, texts, [name, check, day])

    def course_instructor(self) -> Draft | None:
        courses = self.open_courses()
        if not courses:
            return None
        course = self.rng.choice(courses)
        old = course.instructor
        course.instructor = self.rng.choice([i for i in INSTRUCTORS if i != old])
        phrase, key, said = self.course_said(course)
        gold = [f"UPDATE courses SET instructor = {sql_text(course.instructor)} WHERE course_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | instructor now {course.instructor} (was {old})",
            "chatty": f"{old} can't teach {phrase} any more; {course.instructor} takes it over (sorted {day})",
            "keyvalue": keyvalue(
                "course change", [("course", phrase), ("instructor", course.instructor), ("date", day)]
            ),
        }
        facts = {"course": course.code, "instructor": course.instructor}
        return Draft(facts, gold, texts, [*said, course.instructor, day])

    def hire_swapped(self) -> Draft | None:
        options = []
        for h in self.hires:
            if not h.gear.startswith("SH-"):
                continue
            number = int(self.gear[h.gear].size)
            for other in (number - 1, number + 1):
                code = f"SH-{other}"
                if (
                    code in self.gear
                    and code != self.unused_gear
                    and not any(x.climber == h.climber and x.day == h.day and x.gear == code for x in self.hires)
                ):
                    options.append((h, code))
        if not options:
            return None
        hire, code = self.rng.choice(options)
        old, hire.gear = hire.gear, code
        size, was = self.gear[code].size, self.gear[old].size
        gold = [
            "UPDATE gear_hires SET gear_code = (SELECT gear_code FROM hire_gear WHERE gear_kind = 'shoes' AND "
            f"size_label = '{size}') WHERE climber_no = {_climber(hire.climber)} AND hired_day = {sql_date(hire.day)} "
            f"AND gear_code = '{old}'"
        ]
        when, day = self.date(hire.day), self.date(self.day)
        fit = "too tight" if int(size) > int(was) else "too big"
        texts = {
            "log": f"{day} | hire change | {hire.climber}, hired {when} | shoes were size {was}, swapped for size {size}",
            "chatty": f"The size {was} shoes {hire.climber} hired on {when} were {fit}, so we swapped them for a pair "
            f"of size {size} (fixed {day})",
            "keyvalue": keyvalue(
                "hire change",
                [("climber", hire.climber), ("hired on", when), ("shoes", f"size {size} instead of size {was}")]
                + [("date", day)],
            ),
        }
        facts = {"climber": hire.climber, "hired_day": hire.day.isoformat(), "gear": code}
        return Draft(facts, gold, texts, [hire.climber, when, f"size {size}", day])

    def locker_given(self) -> Draft | None:
        names = [n for n, c in sorted(self.climbers.items()) if c.locker is None]
        if not names:
            return None
        name = self.rng.choice(names)
        locker = self.free_locker()
        self.climbers[name].locker = locker
        gold = [f"UPDATE climbers SET locker_no = {locker} WHERE climber_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | locker | {name} | rents locker {locker}",
            "chatty": f"{name} is renting locker {locker} from {day}",
            "keyvalue": keyvalue("locker", [("climber", name), ("locker", locker), ("from", day)]),
        }
        return Draft({"climber": name, "locker": locker}, gold, texts, [name, str(locker), day])

    # -- changes: a value erased --------------------------------------------------------------------

    def contact_dropped(self) -> Draft | None:
        dropped = sum(r.kind == "contact_dropped" for r in self.records)
        column, attr, what = (
            ("mobile_no", "mobile", "mobile number") if dropped == 1 else ("email_addr", "email", "email")
        )
        names = [n for n, c in sorted(self.climbers.items()) if getattr(c, attr)]
        if not names:
            return None
        name = self.rng.choice(names)
        setattr(self.climbers[name], attr, None)
        gold = [f"UPDATE climbers SET {column} = NULL WHERE climber_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {name} | no longer has {'an' if what == 'email' else 'a'} {what}, delete it",
            "chatty": f"{name} told us on {day} that {what} is dead; take it off their details",
            "keyvalue": keyvalue("contact change", [("climber", name), (what, "none any more"), ("date", day)]),
        }
        return Draft({"climber": name, column: None}, gold, texts, [name, day])

    def locker_returned(self) -> Draft | None:
        names = [n for n, c in sorted(self.climbers.items()) if c.locker]
        if not names:
            return None
        name = self.rng.choice(names)
        locker, self.climbers[name].locker = self.climbers[name].locker, None
        gold = [f"UPDATE climbers SET locker_no = NULL WHERE climber_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | locker | {name} | gave back locker {locker}, no locker now",
            "chatty": f"{name} handed back the key to locker {locker} on {day}; they don't have a locker any more",
            "keyvalue": keyvalue(
                "locker", [("climber", name), ("locker", f"none, locker {locker} handed back"), ("date", day)]
            ),
        }
        return Draft({"climber": name, "locker": None}, gold, texts, [name, f"locker {locker}", day])

    # -- changes: a value erased and another given ------------------------------------------------------

    def route_reopened(self) -> Draft | None:
        routes = [r for r in self.routes.values() if r.state == "closed" and r.since < self.day]
        if not routes:
            return None
        route = self.rng.choice(routes)
        phrase, key, said = self.route_said(route)
        _, _, fixed = REASONS[str(route.reason)]
        route.state, route.reason, route.since = "open", None, self.day
        gold = [f"UPDATE set_routes SET route_state = 'open', closure_reason = NULL WHERE route_tag = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | open again, {fixed}, no closure reason now",
            "chatty": f"{_capital(fixed)}, so {phrase} is open again from {day}; clear the reason it was closed",
            "keyvalue": keyvalue(
                "route update", [("route", phrase), ("status", "open"), ("closure reason", "none"), ("date", day)]
            ),
        }
        return Draft({"route": route.tag, "state": "open", "reason": None}, gold, texts, [*said, day])

    def belay_lapsed(self) -> Draft | None:
        names = [n for n, c in sorted(self.climbers.items()) if c.belay != "none" and (c.signed or START) < self.day]
        if not names:
            return None
        name = self.rng.choice(names)
        climber = self.climbers[name]
        check = BELAY_SAID[climber.belay][0]
        climber.belay, climber.signed = "none", None
        gold = [
            f"UPDATE climbers SET belay_level = 'none', belay_signed_off = NULL WHERE climber_name = {sql_text(name)}"
        ]
        staff, day = self.rng.choice(INSTRUCTORS), self.date(self.day)
        texts = {
            "log": f"{day} | belay check | {name} | {check} withdrawn by {staff}, no sign-off date now",
            "chatty": f"{staff} saw {name} belaying unsafely on {day}; their {check} is withdrawn, so no belay level "
            "and no sign-off date until they retake it",
            "keyvalue": keyvalue(
                "belay check",
                [("climber", name), ("belay level", "none"), ("signed off", "none"), ("withdrawn", day)]
                + [("by", staff)],
            ),
        }
        return Draft({"climber": name, "belay": "none", "signed": None}, gold, texts, [name, day])

    # -- changes: a value read from another row of the same table -----------------------------------

    def route_same_grade(self) -> Draft | None:
        routes = [r for r in self.routes.values() if r.state == "open"]
        pairs = [
            (a, b)
            for a in routes
            for b in routes
            if a.grade != b.grade
            and abs(GRADES.index(a.grade) - GRADES.index(b.grade)) <= 2
            and self.sections[a.section][2] == self.sections[b.section][2]
        ]
        if not pairs:
            return None
        route, other = self.rng.choice(pairs)
        route.grade = other.grade
        gold = [
            f"UPDATE set_routes SET grade = (SELECT grade FROM set_routes WHERE route_tag = '{other.tag}') "
            f"WHERE route_tag = '{route.tag}'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | regrade | {route.tag} | same grade as {other.tag}",
            "chatty": f"The setters agreed on {day} that {route.tag} should carry the same grade as {other.tag}",
            "keyvalue": keyvalue("regrade", [("route", route.tag), ("grade", f"same as {other.tag}"), ("date", day)]),
        }
        facts = {"route": route.tag, "same_grade_as": other.tag, "grade": route.grade}
        return Draft(facts, gold, texts, [route.tag, other.tag, day])

    def mobile_shared(self) -> Draft | None:
        people = sorted(self.climbers.values(), key=lambda c: c.name)
        pairs = [(a, b) for a in people for b in people if b.mobile and a.mobile != b.mobile]
        if not pairs:
            return None
        climber, partner = self.rng.choice(pairs)
        climber.mobile = partner.mobile
        gold = [
            "UPDATE climbers SET mobile_no = (SELECT mobile_no FROM climbers WHERE climber_name = "
            f"{sql_text(partner.name)}) WHERE climber_name = {sql_text(climber.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {climber.name} | mobile: same as {partner.name}'s",
            "chatty": f"{climber.name} says to ring {partner.name}'s mobile from now on, they share one ({day})",
            "keyvalue": keyvalue(
                "contact change", [("climber", climber.name), ("mobile", f"same as {partner.name}"), ("date", day)]
            ),
        }
        facts = {"climber": climber.name, "same_mobile_as": partner.name, "mobile": partner.mobile}
        return Draft(facts, gold, texts, [climber.name, partner.name, day])

    def locker_shared(self) -> Draft | None:
        people = sorted(self.climbers.values(), key=lambda c: c.name)
        pairs = [(a, b) for a in people for b in people if b.locker and a.locker != b.locker]
        if not pairs:
            return None
        climber, partner = self.rng.choice(pairs)
        climber.locker = partner.locker
        gold = [
            "UPDATE climbers SET locker_no = (SELECT locker_no FROM climbers WHERE climber_name = "
            f"{sql_text(partner.name)}) WHERE climber_name = {sql_text(climber.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | locker | {climber.name} | shares {partner.name}'s locker",
            "chatty": f"From {day} {climber.name} shares a locker with {partner.name}: put them on the same locker",
            "keyvalue": keyvalue(
                "locker", [("climber", climber.name), ("locker", f"same as {partner.name}"), ("from", day)]
            ),
        }
        facts = {"climber": climber.name, "same_locker_as": partner.name, "locker": partner.locker}
        return Draft(facts, gold, texts, [climber.name, partner.name, day])

    def course_same_instructor(self) -> Draft | None:
        courses = self.open_courses()
        pairs = [(a, b) for a in courses for b in self.courses.values() if a.instructor != b.instructor]
        if not pairs:
            return None
        course, other = self.rng.choice(pairs)
        course.instructor = other.instructor
        gold = [
            f"UPDATE courses SET instructor = (SELECT instructor FROM courses WHERE course_code = '{other.code}') "
            f"WHERE course_code = '{course.code}'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {course.code} | same instructor as {other.code}",
            "chatty": f"Let's have whoever teaches {other.code} teach {course.code} as well (decided {day})",
            "keyvalue": keyvalue(
                "course change", [("course", course.code), ("instructor", f"same as {other.code}"), ("date", day)]
            ),
        }
        facts = {"course": course.code, "same_instructor_as": other.code, "instructor": course.instructor}
        return Draft(facts, gold, texts, [course.code, other.code, day])

    # -- changes: a number raised or lowered ----------------------------------------------------------

    def _gear_change(self, more: bool) -> Draft | None:
        rng = self.rng
        codes = [c for c in self.gear if more or self.gear[c].units >= 3]
        if not codes:
            return None
        code = rng.choice(codes)
        n = rng.randint(2, 6) if more else rng.randint(1, min(3, self.gear[code].units - 1))
        self.gear[code].units += n if more else -n
        gold = [f"UPDATE hire_gear SET units_owned = units_owned {'+' if more else '-'} {n} WHERE gear_code = '{code}'"]
        what, said = self.gear_said(code)
        what = what.removeprefix("a ")
        amount, n_said = self.count(n)
        day = self.date(self.day)
        things = f"{amount} {'pair' if n == 1 else 'pairs'} of {what}" if self.gear[code].kind == "shoes" else ""
        if not things:
            plural = what if n == 1 or "-" in what else what.replace("harness", "harnesses").replace("bag", "bags")
            plural = plural.replace("device", "devices")
            things = f"{amount} {plural}"
        if more:
            texts = {
                "log": f"{day} | hire stock | {what} | {amount} new",
                "chatty": f"{_capital(things)} arrived for the hire rack on {day}",
                "keyvalue": keyvalue("hire stock", [("gear", what), ("bought", amount), ("date", day)]),
            }
        else:
            texts = {
                "log": f"{day} | hire stock | {what} | {amount} binned, worn out",
                "chatty": f"Binned {things} from the hire rack on {day}, worn through",
                "keyvalue": keyvalue("hire stock", [("gear", what), ("thrown out", amount), ("date", day)]),
            }
        facts = {"gear": code, "change": n if more else -n, "units_owned": self.gear[code].units}
        return Draft(facts, gold, texts, [*said, *n_said, day])

    def gear_bought(self) -> Draft | None:
        return self._gear_change(more=True)

    def gear_binned(self) -> Draft | None:
        return self._gear_change(more=False)

    def punches_given(self) -> Draft | None:
        names = [n for n, c in sorted(self.climbers.items()) if c.membership == "punch_card"]
        if not names:
            return None
        name = self.rng.choice(names)
        n = self.rng.randint(1, 3)
        self.climbers[name].punches += n
        gold = [f"UPDATE climbers SET punches_left = punches_left + {n} WHERE climber_name = {sql_text(name)}"]
        amount, said = self.count(n)
        why = self.rng.choice(
            (
                "half the bouldering was shut for the reset",
                "the auto-belays were down on their visit",
                "a goodwill gesture",
            )
        )
        day = self.date(self.day)
        noun = "punch" if n == 1 else "punches"
        texts = {
            "log": f"{day} | punch card | {name} | +{amount} free {noun} ({why})",
            "chatty": f"Give {name} {amount} extra {noun} on their card, {why} ({day})",
            "keyvalue": keyvalue("punch card", [("climber", name), ("extra punches", amount), ("date", day)]),
        }
        facts = {"climber": name, "change": n, "punches": self.climbers[name].punches}
        return Draft(facts, gold, texts, [name, *said, day])

    def places_added(self) -> Draft | None:
        courses = self.open_courses()
        if not courses:
            return None
        course = self.rng.choice(courses)
        n = self.rng.randint(1, 3)
        course.left += n
        phrase, key, said = self.course_said(course)
        gold = [f"UPDATE courses SET places_left = places_left + {n} WHERE course_code = {key}"]
        amount, n_said = self.count(n)
        day = self.date(self.day)
        noun = "place" if n == 1 else "places"
        texts = {
            "log": f"{day} | {phrase} | {amount} more {noun} available",
            "chatty": f"We've got a second instructor, so open up {amount} more {noun} on {phrase} ({day})",
            "keyvalue": keyvalue("course change", [("course", phrase), ("extra places", amount), ("date", day)]),
        }
        facts = {"course": course.code, "change": n, "places_left": course.left}
        return Draft(facts, gold, texts, [*said, *n_said, day])

    # -- changes: a row removed -------------------------------------------------------------------------

    def hire_voided(self) -> Draft | None:
        hires = [h for h in self.hires if h.day <= self.day]
        if not hires:
            return None
        hire = self.rng.choice(hires)
        self.hires.remove(hire)
        gold = [
            f"DELETE FROM gear_hires WHERE climber_no = {_climber(hire.climber)} AND hired_day = {sql_date(hire.day)} "
            f"AND gear_code = '{hire.gear}'"
        ]
        what, said = self.gear_said(hire.gear)
        what = what.removeprefix("a ")
        when, day = self.date(hire.day), self.date(self.day)
        texts = {
            "log": f"{day} | hire voided | {hire.climber} | {what} on {when} | brought their own, delete it",
            "chatty": f"{hire.climber} never used the {what} we put down for them on {when}, they had their own; "
            f"delete that hire ({day})",
            "keyvalue": keyvalue(
                "hire voided", [("climber", hire.climber), ("gear", what), ("hired on", when), ("date", day)]
            ),
        }
        facts = {"climber": hire.climber, "gear": hire.gear, "hired_day": hire.day.isoformat()}
        return Draft(facts, gold, texts, [hire.climber, *said, when, day])

    def _entries_after_start(self, punch: bool) -> list[Entry]:
        return [e for e in self.entries if e.day >= START and e.day <= self.day and (e.type == "punch") == punch]

    def entry_struck(self) -> Draft | None:
        entries = self._entries_after_start(punch=False)
        if not entries:
            return None
        entry = self.rng.choice(entries)
        self.entries.remove(entry)
        gold = [
            f"DELETE FROM gym_entries WHERE climber_no = {_climber(entry.climber)} AND entry_day = {sql_date(entry.day)}"
        ]
        when, day = self.date(entry.day), self.date(self.day)
        texts = {
            "log": f"{day} | delete | entry of {entry.climber} on {when} | logged by mistake",
            "chatty": f"The entry for {entry.climber} on {when} was put in by mistake, they never came; "
            f"delete it ({day})",
            "keyvalue": keyvalue(
                "entry removed", [("climber", entry.climber), ("entry on", when), ("reason", "in error"), ("date", day)]
            ),
        }
        facts = {"climber": entry.climber, "entry_day": entry.day.isoformat()}
        return Draft(facts, gold, texts, [entry.climber, when, day])

    def punch_struck(self) -> Draft | None:
        entries = self._entries_after_start(punch=True)
        if not entries:
            return None
        entry = self.rng.choice(entries)
        self.entries.remove(entry)
        self.climbers[entry.climber].punches += 1
        gold = [
            f"DELETE FROM gym_entries WHERE climber_no = {_climber(entry.climber)} AND entry_day = {sql_date(entry.day)}",
            f"UPDATE climbers SET punches_left = punches_left + 1 WHERE climber_name = {sql_text(entry.climber)}",
        ]
        when, day = self.date(entry.day), self.date(self.day)
        texts = {
            "log": f"{day} | delete | {entry.climber}'s entry on {when} | card punched by mistake, give the punch back",
            "chatty": f"We punched {entry.climber}'s card on {when} but they only came to pick up a friend: take that "
            f"entry off and give them the punch back ({day})",
            "keyvalue": keyvalue(
                "entry removed",
                [("climber", entry.climber), ("entry on", when), ("punch", "give back"), ("date", day)],
            ),
        }
        facts = {"climber": entry.climber, "entry_day": entry.day.isoformat(), "punches": 1}
        return Draft(facts, gold, texts, [entry.climber, when, day])

    def place_cancelled(self) -> Draft | None:
        places = [p for p in self.places if p.day < self.day and self.courses[p.course].starts > self.day]
        if not places:
            return None
        place = self.rng.choice(places)
        self.places.remove(place)
        course = self.courses[place.course]
        course.left += 1
        phrase, key, said = self.course_said(course)
        gold = [
            f"DELETE FROM course_places WHERE course_code = {key} AND climber_no = {_climber(place.climber)}",
            f"UPDATE courses SET places_left = places_left + 1 WHERE course_code = {key}",
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | cancelled | {place.climber} off {phrase} | place back on sale, no fee",
            "chatty": f"{place.climber} pulled out of {phrase} on {day}; cancel the booking and free the place up",
            "keyvalue": keyvalue(
                "course cancellation",
                [("climber", place.climber), ("course", phrase), ("place", "back on sale"), ("date", day)],
            ),
        }
        facts = {"climber": place.climber, "course": course.code}
        return Draft(facts, gold, texts, [place.climber, *said, day])

    # -- questions ----------------------------------------------------------------------------------

    def questions(self) -> list[Question]:
        rng = self.rng
        routes = list(self.routes.values())
        mobiled = [c.name for c in self.climbers.values() if c.mobile]
        sharer = next((str(r.facts["climber"]) for r in self.records if r.kind == "mobile_shared"), "")
        sharer = sharer if sharer in mobiled else rng.choice(mobiled)
        route = rng.choice(routes)
        graded = rng.choice([r for r in routes if r.state == "open"])
        section = route.section
        alias = self.sections[section][0]
        course = self.courses[rng.choice(sorted({p.course for p in self.places}))]
        payers = sorted(n for n in self.paid if self.paid[n])
        payer = rng.choice(payers)
        charged = sorted({p.climber for p in self.places} | {h.climber for h in self.hires})
        debtor = rng.choice([n for n in charged if self.owes(n) > 0] or charged)
        lockered = rng.choice([c.name for c in self.climbers.values() if c.locker] or self.names())
        punched = rng.choice([c.name for c in self.climbers.values() if c.membership == "punch_card"])
        setter = route.setter
        membership = rng.choice(sorted({c.membership for c in self.climbers.values()}))
        days = sorted(e.day for e in self.entries if e.day >= START)
        first = rng.choice(days[: len(days) // 2 + 1])
        span = (first - dt.timedelta(days=rng.randint(0, 2)), first + dt.timedelta(days=rng.randint(5, 10)))
        set_days = sorted(r.day for r in routes if r.day >= START)
        set_span = (set_days[0] - dt.timedelta(days=rng.randint(0, 3)), set_days[len(set_days) // 2])
        month = rng.choice(sorted({d.replace(day=1) for rows in self.paid.values() for d, _, _ in rows if d >= START}))
        after = (month + dt.timedelta(days=32)).replace(day=1)
        form = rng.choice((1, 2))

        def said(day: dt.date) -> str:
            return date_forms(day)[form]

        ents = "FROM gym_entries e JOIN climbers c ON c.climber_no = e.climber_no"
        hires = "FROM gear_hires h JOIN climbers c ON c.climber_no = h.climber_no"
        paid = "FROM desk_payments d JOIN climbers c ON c.climber_no = d.climber_no"
        places = "FROM course_places p JOIN climbers c ON c.climber_no = p.climber_no"
        rows = [
            ("count", "How many routes are open right now?", "SELECT count(*) FROM set_routes WHERE route_state = 'open'"),
            ("count", "How many climbers have a monthly or annual membership?",
             "SELECT count(*) FROM climbers WHERE membership IN ('monthly', 'annual')"),
            ("count", "How many climbers are signed off to lead belay?",
             "SELECT count(*) FROM climbers WHERE belay_level = 'lead'"),
            ("count", f"How many places are booked on {course.code}?",
             f"SELECT count(*) FROM course_places WHERE course_code = '{course.code}'"),
            ("count", "How many visits were on a punch card?", "SELECT count(*) FROM gym_entries WHERE entry_type = 'punch'"),
            ("sum", "How much have climbers paid at the desk altogether?", "SELECT sum(amount_paid) FROM desk_payments"),
            ("sum", "How many pairs of hire shoes do we own across all sizes?",
             "SELECT sum(units_owned) FROM hire_gear WHERE gear_kind = 'shoes'"),
            ("sum", f"How much has {payer} paid in total?",
             f"SELECT sum(d.amount_paid) {paid} WHERE c.climber_name = {sql_text(payer)}"),
            ("sum", "How much has gear hire brought in?", "SELECT sum(hire_charge) FROM gear_hires"),
            ("lookup", f"What grade is {graded.tag}?", f"SELECT grade FROM set_routes WHERE route_tag = '{graded.tag}'"),
            ("lookup", f"What mobile number do we have for {sharer}?",
             f"SELECT mobile_no FROM climbers WHERE climber_name = {sql_text(sharer)}"),
            ("lookup", f"Which locker does {lockered} use?",
             f"SELECT locker_no FROM climbers WHERE climber_name = {sql_text(lockered)}"),
            ("lookup", f"How many punches has {punched} got left?",
             f"SELECT punches_left FROM climbers WHERE climber_name = {sql_text(punched)}"),
            ("lookup", f"Who teaches {course.code}?", f"SELECT instructor FROM courses WHERE course_code = '{course.code}'"),
            ("lookup", f"What state is {route.tag} in?",
             f"SELECT route_state FROM set_routes WHERE route_tag = '{route.tag}'"),
            ("grouped", "How many routes are there in each state?",
             "SELECT route_state, count(*) FROM set_routes GROUP BY route_state ORDER BY route_state"),
            ("grouped", "How many open routes does each section have?",
             "SELECT w.section_alias, count(r.route_tag) FROM wall_sections w LEFT JOIN set_routes r "
             "ON r.section_code = w.section_code AND r.route_state = 'open' GROUP BY w.section_alias "
             "ORDER BY w.section_alias"),
            ("grouped", "How much has been paid each way (card, cash, transfer, gift card)?",
             "SELECT pay_method, sum(amount_paid) FROM desk_payments GROUP BY pay_method ORDER BY pay_method"),
            ("grouped", "How many entries of each type have there been?",
             "SELECT entry_type, count(*) FROM gym_entries GROUP BY entry_type ORDER BY entry_type"),
            ("grouped", "How many routes has each setter set?",
             "SELECT setter_name, count(*) FROM set_routes GROUP BY setter_name ORDER BY setter_name"),
            ("top", "Which three climbers have come in most often, and how many times each?",
             f"SELECT c.climber_name, count(*) AS visits {ents} GROUP BY c.climber_name "
             "ORDER BY visits DESC, c.climber_name LIMIT 3"),
            ("top", "Which item of hire gear has been hired most, and how many times?",
             "SELECT gear_code, count(*) AS hires FROM gear_hires GROUP BY gear_code ORDER BY hires DESC, gear_code LIMIT 1"),
            ("top", "What were the three largest payments, and who made them?",
             f"SELECT c.climber_name, d.amount_paid, d.paid_day {paid} "
             "ORDER BY d.amount_paid DESC, d.paid_day LIMIT 3"),
            ("top", "Which course has the most places booked?",
             "SELECT course_code, count(*) AS booked FROM course_places GROUP BY course_code "
             "ORDER BY booked DESC, course_code LIMIT 1"),
            ("range", f"Who came in between {said(span[0])} and {said(span[1])}, and on which days?",
             f"SELECT c.climber_name, e.entry_day {ents} WHERE e.entry_day BETWEEN {sql_date(span[0])} "
             f"AND {sql_date(span[1])} ORDER BY e.entry_day, c.climber_name"),
            ("range", f"How much was paid in {month.strftime('%B %Y')}?",
             f"SELECT sum(amount_paid) FROM desk_payments WHERE paid_day >= {sql_date(month)} "
             f"AND paid_day < {sql_date(after)}"),
            ("range", f"Which routes were set between {said(set_span[0])} and {said(set_span[1])}?",
             f"SELECT route_tag FROM set_routes WHERE set_day BETWEEN {sql_date(set_span[0])} "
             f"AND {sql_date(set_span[1])} ORDER BY route_tag"),
            ("derived", f"How much does {debtor} owe us?",
             f"SELECT amount_owed FROM climbers WHERE climber_name = {sql_text(debtor)}"),
            ("derived", "How much do our climbers owe between them?", "SELECT sum(amount_owed) FROM climbers"),
            ("derived", "Who owes us the most, and how much?",
             "SELECT climber_name, amount_owed FROM climbers ORDER BY amount_owed DESC, climber_name LIMIT 1"),
            ("derived", "How much have course bookings brought in, course by course?",
             "SELECT course_code, sum(fee_charged) FROM course_places GROUP BY course_code ORDER BY course_code"),
            ("none", "Which climbers have never come in to climb?",
             "SELECT climber_name FROM climbers WHERE climber_no NOT IN (SELECT climber_no FROM gym_entries) "
             "ORDER BY climber_name"),
            ("none", "Which hire gear has never been hired?",
             "SELECT gear_code FROM hire_gear WHERE gear_code NOT IN (SELECT gear_code FROM gear_hires) ORDER BY gear_code"),
            ("none", "Which courses have nobody booked on them?",
             "SELECT course_code FROM courses WHERE course_code NOT IN (SELECT course_code FROM course_places) "
             "ORDER BY course_code"),
            ("none", "Which climbers have no email address on file?",
             "SELECT climber_name FROM climbers WHERE email_addr IS NULL ORDER BY climber_name"),
            ("average", "What is the average payment at the desk?", "SELECT avg(amount_paid) FROM desk_payments"),
            ("average", "What is the average fee of a day pass entry?",
             "SELECT avg(door_charge) FROM gym_entries WHERE entry_type = 'day_pass'"),
            ("category", "Which routes are closed, and why?",
             "SELECT route_tag, closure_reason FROM set_routes WHERE route_state = 'closed' ORDER BY route_tag"),
            ("category", f"Which climbers are on a {MEMBERSHIP_SAID[membership][0]} membership?",
             f"SELECT climber_name FROM climbers WHERE membership = '{membership}' ORDER BY climber_name"),
            ("category", f"Which routes on {alias} did {setter} set?",
             f"SELECT route_tag FROM set_routes WHERE setter_name = {sql_text(setter)} AND section_code = "
             f"'{section}' ORDER BY route_tag"),
            ("lookup", f"Who is booked on {course.code}?",
             f"SELECT c.climber_name {places} WHERE p.course_code = '{course.code}' ORDER BY c.climber_name"),
            ("sum", f"What has {debtor} been charged for gear hire?",
             f"SELECT coalesce(sum(h.hire_charge), 0) {hires} WHERE c.climber_name = {sql_text(debtor)}"),
        ]  # fmt: skip
        return [Question(f"q{i:02d}", text, gold, family) for i, (family, text, gold) in enumerate(rows, 1)]


def build(seed: int = 0) -> Trade:
    """The climbing-gym trade generated from `seed`: the first log drawn from `random.Random(seed)` that places every
    record (a draw whose kinds left stop fitting is dropped, and the same generator draws again)."""
    rng = random.Random(seed)
    for _ in range(DRAWS):
        gym = Gym(rng, seed)
        if gym.run():
            break
    else:
        raise RuntimeError(f"no log of seed {seed} placed its records in {DRAWS} draws")
    return Trade(
        name="climbing",
        description="A climbing gym: climbers on memberships, punch cards or day passes, their entries, routes set "
        "on wall sections, hire gear, courses and their places, lockers, belay checks and payments at the desk.",
        schema=SCHEMA,
        reference=gym.reference,
        rules=(OWED,),
        records=tuple(gym.records),
        questions=tuple(gym.questions()),
        snapshot=dict(SNAPSHOT),
        checks=dict(CHECKS),
    )
