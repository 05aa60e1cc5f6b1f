"""The workshop trade: a bicycle repair workshop's bookings, stands, spares and takings.

Cyclists bring in bikes known by a frame code ('FR-014'); a repair job is booked for a day with one of four
mechanics (known by name or a three-letter code), waits on a storage rack ('rack 7' is stored 'K-07'),
moves through its stages, has spares fitted from stock at their list price, and is paid for. A finished
bike may come back under warranty, and a cyclist may borrow a courtesy bike while theirs is in. A cyclist's
amount owing, kept by a rule, is what their finished jobs cost (quote plus parts) minus what they paid.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .base import Question, Record, Rule, Trade, Turns, date_forms, in_words, keyvalue, sql_date, sql_text

SCHEMA = """
CREATE SEQUENCE cyclist_seq START 1;
CREATE SEQUENCE job_seq START 1;
CREATE SEQUENCE settlement_seq START 1;
CREATE SEQUENCE claim_seq START 1;
CREATE SEQUENCE lend_seq START 1;

CREATE TABLE mechanics (
    mech_code VARCHAR PRIMARY KEY,
    mech_name VARCHAR NOT NULL UNIQUE,
    skill VARCHAR NOT NULL CHECK (skill IN ('wheels', 'drivetrain', 'electrics', 'brakes'))
);

CREATE TABLE racks (
    rack_code VARCHAR PRIMARY KEY,
    zone VARCHAR NOT NULL CHECK (zone IN ('wall_hooks', 'floor_stands', 'e_bike_bay'))
);

CREATE TABLE loaner_bikes (
    loaner_tag VARCHAR PRIMARY KEY,
    loaner_desc VARCHAR NOT NULL
);

CREATE TABLE spares (
    part_code VARCHAR PRIMARY KEY,
    part_name VARCHAR NOT NULL UNIQUE,
    in_stock INTEGER NOT NULL CHECK (in_stock >= 0),
    price_each DECIMAL(7, 2) NOT NULL CHECK (price_each > 0)
);

CREATE TABLE cyclists (
    cyclist_id INTEGER PRIMARY KEY DEFAULT nextval('cyclist_seq'),
    cyclist_name VARCHAR NOT NULL UNIQUE,
    mobile VARCHAR,
    email_addr VARCHAR,
    owing DECIMAL(10, 2) NOT NULL DEFAULT 0
);

CREATE TABLE bikes (
    frame_code VARCHAR PRIMARY KEY,
    cyclist_id INTEGER NOT NULL REFERENCES cyclists (cyclist_id),
    bike_type VARCHAR NOT NULL CHECK (bike_type IN ('road', 'city', 'cargo', 'kids', 'e-bike')),
    make VARCHAR NOT NULL,
    colour VARCHAR
);

CREATE TABLE repair_jobs (
    job_no INTEGER PRIMARY KEY DEFAULT nextval('job_seq'),
    frame_code VARCHAR NOT NULL REFERENCES bikes (frame_code),
    mech_code VARCHAR NOT NULL,
    rack_code VARCHAR,
    booked_for DATE NOT NULL,
    work VARCHAR NOT NULL,
    stage VARCHAR NOT NULL DEFAULT 'queued'
        CHECK (stage IN ('queued', 'on_stand', 'parts_awaited', 'ready', 'handed_over')),
    quote DECIMAL(8, 2) NOT NULL CHECK (quote >= 0)
);

CREATE TABLE fitted_parts (
    job_no INTEGER NOT NULL REFERENCES repair_jobs (job_no),
    part_code VARCHAR NOT NULL REFERENCES spares (part_code),
    qty INTEGER NOT NULL CHECK (qty > 0),
    charged_each DECIMAL(7, 2) NOT NULL,
    PRIMARY KEY (job_no, part_code)
);

CREATE TABLE settlements (
    settlement_id INTEGER PRIMARY KEY DEFAULT nextval('settlement_seq'),
    job_no INTEGER NOT NULL REFERENCES repair_jobs (job_no),
    settled_on DATE NOT NULL,
    paid DECIMAL(8, 2) NOT NULL CHECK (paid > 0),
    paid_via VARCHAR NOT NULL CHECK (paid_via IN ('tap', 'banknotes', 'wire', 'voucher'))
);

CREATE TABLE warranty_claims (
    claim_no INTEGER PRIMARY KEY DEFAULT nextval('claim_seq'),
    job_no INTEGER NOT NULL REFERENCES repair_jobs (job_no),
    lodged_on DATE NOT NULL,
    fault VARCHAR NOT NULL CHECK (fault IN ('flat_tyre', 'cable_snap', 'bearing_wear', 'motor_cutout', 'spoke_loose'))
);

CREATE TABLE courtesy_lends (
    lend_no INTEGER PRIMARY KEY DEFAULT nextval('lend_seq'),
    loaner_tag VARCHAR NOT NULL REFERENCES loaner_bikes (loaner_tag),
    job_no INTEGER NOT NULL REFERENCES repair_jobs (job_no),
    lent_on DATE NOT NULL,
    back_by DATE NOT NULL,
    CHECK (back_by > lent_on)
);
"""
# repair_jobs.mech_code and rack_code name a mechanic and a rack without REFERENCES: DuckDB (1.5) refuses an UPDATE
# of a foreign-key column of a table other tables reference, and moving a job to another mechanic or rack is one.

FINISHED = "('ready', 'handed_over')"
_OF_RIDER = "JOIN bikes b ON b.frame_code = j.frame_code WHERE b.cyclist_id = cyclists.cyclist_id"
OWING = Rule(
    name="cyclist owing",
    sentence=(
        "A cyclist's amount owing is the quotes of their bikes' finished jobs (ready or handed over) plus the parts "
        "fitted on those jobs (quantity times the price charged each), minus everything they have paid."
    ),
    sql=(
        "UPDATE cyclists SET owing = "
        f"coalesce((SELECT sum(j.quote) FROM repair_jobs j {_OF_RIDER} AND j.stage IN {FINISHED}), 0) "
        "+ coalesce((SELECT sum(f.qty * f.charged_each) FROM fitted_parts f JOIN repair_jobs j ON j.job_no = f.job_no "
        f"{_OF_RIDER} AND j.stage IN {FINISHED}), 0) "
        "- coalesce((SELECT sum(s.paid) FROM settlements s JOIN repair_jobs j ON j.job_no = s.job_no "
        f"{_OF_RIDER}), 0)"
    ),
)

_JOB = "JOIN repair_jobs j ON j.job_no = x.job_no"
SNAPSHOT = {
    "cyclists": "SELECT cyclist_name, mobile, email_addr, owing FROM cyclists",
    "bikes": "SELECT b.frame_code, r.cyclist_name, b.bike_type, b.make, b.colour FROM bikes b JOIN cyclists r USING (cyclist_id)",
    "repair_jobs": "SELECT frame_code, mech_code, rack_code, booked_for, work, stage, quote FROM repair_jobs",
    "spares": "SELECT part_code, part_name, in_stock, price_each FROM spares",
    "fitted_parts": f"SELECT j.frame_code, j.booked_for, x.part_code, x.qty, x.charged_each FROM fitted_parts x {_JOB}",
    "settlements": f"SELECT j.frame_code, j.booked_for, x.settled_on, x.paid, x.paid_via FROM settlements x {_JOB}",
    "warranty_claims": f"SELECT j.frame_code, j.booked_for, x.lodged_on, x.fault FROM warranty_claims x {_JOB}",
    "courtesy_lends": (
        f"SELECT x.loaner_tag, j.frame_code, j.booked_for, x.lent_on, x.back_by FROM courtesy_lends x {_JOB}"
    ),
}
CHECKS = {
    "owing per cyclist": "SELECT cyclist_name, owing FROM cyclists",
    "spares in stock": "SELECT part_code, in_stock FROM spares",
    "open jobs per mechanic": (
        "SELECT m.mech_name, count(j.job_no) FROM mechanics m LEFT JOIN repair_jobs j ON j.mech_code = m.mech_code "
        "AND j.stage <> 'handed_over' GROUP BY m.mech_name"
    ),
    "bikes on racks": "SELECT rack_code, frame_code FROM repair_jobs WHERE rack_code IS NOT NULL",
    "jobs per stage": "SELECT stage, count(*) FROM repair_jobs GROUP BY stage",
    "takings per way": "SELECT paid_via, count(*), sum(paid) FROM settlements GROUP BY paid_via",
}

# -- the trade's words and names -------------------------------------------------------------------

START = dt.date(2024, 4, 2)
MECHANICS = (  # code, name, skill
    ("TAV", "Tavi Lund", "wheels"),
    ("ROS", "Rosa Quint", "drivetrain"),
    ("BEN", "Bena Okoro", "electrics"),
    ("IKE", "Ike Varga", "brakes"),
)
RACKS = tuple(
    (f"K-{n:02d}", "wall_hooks" if n <= 3 else "floor_stands" if n <= 6 else "e_bike_bay") for n in range(1, 9)
)
LOANERS = (("LB-1", "grey city loaner"), ("LB-2", "small kids' loaner"), ("LB-3", "blue e-bike loaner"))
SPARES = (  # code, name, what a user calls it, price each
    ("P-101", "Inner tube 700c", "700c inner tubes", 9.5),
    ("P-104", "Inner tube 20 inch", "20 inch inner tubes", 8.0),
    ("P-115", "Brake pad pair", "pairs of brake pads", 12.0),
    ("P-122", "Gear cable", "gear cables", 6.5),
    ("P-130", "Chain 11-speed", "11-speed chains", 34.0),
    ("P-138", "Cassette 10-speed", "10-speed cassettes", 48.0),
    ("P-144", "Tyre 700x32", "700x32 tyres", 29.0),
    ("P-151", "Spoke set", "spoke sets", 15.0),
    ("P-163", "Battery charger", "battery chargers", 89.0),
    ("P-170", "Bottom bracket", "bottom brackets", 27.5),
)
RIDERS = (  # name, mobile, email
    ("Nell Harrow", "07412 318840", "nell.harrow@spokemail.org"),
    ("Ottilie Brandt", "07503 227164", "ottilie@lanebox.com"),
    ("Kwame Asante", "07988 410275", None),
    ("Ines Farrow", "07716 552093", "ines.farrow@wheelpost.net"),
    ("Dov Pearlman", "07841 906318", "dov.p@lanebox.com"),
    ("Saoirse Quill", "07355 781442", "squill@spokemail.org"),
    ("Bram Oduya", "07620 134597", None),
    ("Lotte Verhoef", "07937 665210", "lotte.verhoef@wheelpost.net"),
    ("Yusuf Demir", "07584 209936", "yusuf.demir@spokemail.org"),
    ("Pia Lindqvist", "07463 871025", "pia.l@lanebox.com"),
    ("Femi Adebayo", "07792 340618", "femi.adebayo@wheelpost.net"),
    ("Cato Reyes", "07318 594470", None),
    ("Hana Sato", "07865 023781", "hana.sato@spokemail.org"),
    ("Rufus Gale", "07549 716302", "rufus.gale@lanebox.com"),
)
REFERENCE_RIDERS = 9  # the first cyclists (of the shuffled pool) are on the books at the start; the rest walk in
TYPE_SAID = {  # what a user calls a bike of each type
    "road": ("road bike", "racer"),
    "city": ("city bike", "commuter bike"),
    "cargo": ("cargo bike", "box bike"),
    "kids": ("kids' bike", "child's bike"),
    "e-bike": ("e-bike", "electric bike"),
}
MAKES = ("Larkspur", "Vellum", "Okapi", "Brindle", "Tessel", "Quillon")
COLOURS = ("red", "teal", "black", "white", "mustard", "navy", "orange", "silver")
WORK = {  # work, quote; by bike type beside the common ones
    "": (("full service", 85), ("puncture repair", 18), ("brake adjustment", 25), ("gear tune", 30)),
    "road": (("chain replacement", 40), ("wheel truing", 35)),
    "city": (("hub overhaul", 45), ("wheel truing", 35)),
    "cargo": (("box hinge repair", 55), ("chain replacement", 40)),
    "kids": (("stabiliser fitting", 20),),
    "e-bike": (("motor diagnostic", 60), ("battery check", 45)),
}
STAGE_SAID = {  # a stage as the user says it (after "is"), each onto one CHECK entry
    "on_stand": ("up on the stand", "being worked on", "started, on the stand"),
    "parts_awaited": ("waiting for parts", "on hold until a part comes in", "stuck waiting on parts"),
    "ready": ("finished", "done and ready to collect", "all done"),
    "handed_over": ("collected", "picked up by its owner", "back with its owner"),
}
NEXT_STAGES = {
    "on_stand": ("parts_awaited", "ready", "ready"),
    "parts_awaited": ("on_stand",),
    "ready": ("handed_over",),
}
PUSH = {"queued": 1, "on_stand": 3, "parts_awaited": 3, "ready": 1}  # how likely a job of each stage moves on next
VIA_SAID = {
    "tap": ("contactless", "by tapping a phone"),
    "banknotes": ("in cash", "in notes"),
    "wire": ("by bank transfer", "by transfer to our account"),
    "voucher": ("with a gift voucher", "using a voucher"),
}
FAULT_SAID = {
    "flat_tyre": ("another flat tyre", "a puncture again"),
    "cable_snap": ("a snapped cable", "a broken gear cable"),
    "bearing_wear": ("a grinding bearing", "a worn bearing"),
    "motor_cutout": ("the motor cutting out", "the motor stopping mid-ride"),
    "spoke_loose": ("a loose spoke", "spokes working loose"),
}
MECHANICAL_FAULTS = ("flat_tyre", "cable_snap", "bearing_wear", "spoke_loose")
QUOTAS = {  # record kind -> how many the log has
    "new_cyclist": 3,
    "new_bike": 3,
    "booking": 10,
    "parts_fitted": 6,
    "settlement": 6,
    "warranty_claim": 3,
    "courtesy_lend": 3,
    "stage_change": 12,
    "mechanic_swap": 3,
    "day_moved": 3,
    "rack_assigned": 3,
    "email_dropped": 3,
    "rack_freed": 3,
    "same_rack": 3,
    "same_mobile": 3,
    "delivery": 3,
    "quote_change": 3,
    "cancellation": 3,
}
DRAWS = 200  # logs drawn at most for one seed
STEPS = (0, 0, 1, 1, 1, 2)  # days between one record and the next
OPENING = (  # the jobs on the books at the start: booked for (days from the start), stage
    (-15, "handed_over"),
    (-8, "handed_over"),
    (-5, "ready"),
    (-2, "on_stand"),
    (1, "queued"),
    (6, "queued"),
)


# -- the state the log is generated from -----------------------------------------------------------


@dataclass
class Bike:
    frame: str
    owner: str
    type: str
    make: str
    colour: str

    def facts(self) -> dict[str, object]:
        return {"cyclist": self.owner, "frame": self.frame, "type": self.type, "make": self.make, "colour": self.colour}


@dataclass
class Job:
    frame: str
    mech: str
    booked: dt.date
    work: str
    quote: float
    stage: str = "queued"
    rack: str | None = None
    since: dt.date = START  # the day it took its stage
    parts: dict[str, tuple[int, float]] = field(default_factory=dict)  # part code -> qty, charged each
    paid: list[tuple[dt.date, float, str]] = field(default_factory=list)
    lent: bool = False
    claimed: bool = False

    def key(self) -> str:
        """The job's number, found by its bike and booked day (a bike has one job a day)."""
        return (
            f"(SELECT job_no FROM repair_jobs WHERE frame_code = {sql_text(self.frame)} "
            f"AND booked_for = {sql_date(self.booked)})"
        )

    def facts(self, **more: object) -> dict[str, object]:
        """The job as a record's facts name it (its bike and booked day), and `more`."""
        return {"frame": self.frame, "booked_for": self.booked.isoformat(), **more}

    def bill(self) -> float:
        return self.quote + sum(qty * each for qty, each in self.parts.values())

    def due(self) -> float:
        return round(self.bill() - sum(paid for _, paid, _ in self.paid), 2)


@dataclass
class Made:
    """A record as a generator makes it: its facts, gold SQL, one text per wording, and what they all state."""

    facts: dict[str, object]
    gold: list[str]
    texts: dict[str, str]
    stated: list[str]


def money(value: float) -> str:
    """An amount as a user writes it: '85', '101.50'."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _null(value: str | None) -> str:
    return sql_text(value) if value is not None else "NULL"


def _cyclist_id(name: str) -> str:
    return f"(SELECT cyclist_id FROM cyclists WHERE cyclist_name = {sql_text(name)})"


class _Shop:
    """The seeded workshop: its reference rows, then its log one record at a time, then questions on it."""

    def __init__(self, rng: random.Random, forms: int) -> None:
        self.rng = rng
        self.forms = forms  # turns the date forms
        self.day = START
        pool = rng.sample(RIDERS, len(RIDERS))
        self.cyclists = {name: [mobile, email] for name, mobile, email in pool[:REFERENCE_RIDERS]}
        self.newcomers = list(pool[REFERENCE_RIDERS:])
        self.frames = [f"FR-{n:03d}" for n in rng.sample(range(10, 99), 24)]
        self.bikes: dict[str, Bike] = {}
        for owner in self.cyclists:
            for _ in range(rng.choice((1, 1, 2))):
                self._new_bike(owner)
        self.stock = {code: rng.randrange(4, 13) for code, *_ in SPARES}
        self.jobs: list[Job] = []
        self.lends: list[tuple[str, Job, dt.date, dt.date]] = []
        self._opening_jobs()
        self.reference = self._reference()
        self.records: list[Record] = []

    # -- state ----------------------------------------------------------------------------------

    def _new_bike(self, owner: str) -> Bike:
        rng = self.rng
        kind = rng.choice(list(TYPE_SAID))
        bike = Bike(self.frames.pop(), owner, kind, rng.choice(MAKES), rng.choice(COLOURS))
        self.bikes[bike.frame] = bike
        return bike

    def _job_for(self, frame: str, booked: dt.date) -> Job:
        rng = self.rng
        bike = self.bikes[frame]
        work, quote = rng.choice(WORK[""] + WORK[bike.type])
        skilled = {"e-bike": "BEN"}.get(bike.type)
        mech = skilled if skilled and rng.random() < 0.6 else rng.choice(MECHANICS)[0]
        return Job(frame, mech, booked, work, float(quote + rng.choice((0, 0, 5, 10))))

    def _opening_jobs(self) -> None:
        """Jobs on the books at the start: two handed over (one paid in part), one ready, one on the stand, two
        queued."""
        rng = self.rng
        frames = rng.sample(sorted(self.bikes), len(OPENING))
        racks = rng.sample([code for code, _ in RACKS], 2)
        for i, (frame, (days, stage)) in enumerate(zip(frames, OPENING)):
            day = START + dt.timedelta(days=days)
            job = self._job_for(frame, day)
            job.stage, job.since = stage, min(day + dt.timedelta(days=2), START)
            if i in (0, 2):
                code = rng.choice(SPARES)[0]
                job.parts[code] = (1, self._price(code))
            if i == 0:
                job.paid.append((job.since, job.quote, rng.choice(list(VIA_SAID))))
            if i == 1:
                job.paid.append((job.since, job.bill(), rng.choice(list(VIA_SAID))))
            if i in (2, 3):
                job.rack = racks[i - 2]
            self.jobs.append(job)

    def _price(self, code: str) -> float:
        return next(price for c, _, _, price in SPARES if c == code)

    def open_jobs(self, *stages: str) -> list[Job]:
        return [j for j in self.jobs if j.stage in (stages or ("queued", "on_stand", "parts_awaited", "ready"))]

    def in_shop(self) -> list[Job]:
        """Jobs whose bike is in the workshop: started, or queued for today or before."""
        return [j for j in self.open_jobs() if j.stage != "queued" or j.booked <= self.day]

    def has_open_job(self, frame: str) -> bool:
        return any(j.frame == frame for j in self.open_jobs())

    def owing(self, cyclist: str) -> float:
        jobs = [j for j in self.jobs if self.bikes[j.frame].owner == cyclist]
        billed = sum(j.bill() for j in jobs if j.stage in ("ready", "handed_over"))
        return round(billed - sum(p for j in jobs for _, p, _ in j.paid), 2)

    # -- reference rows -------------------------------------------------------------------------

    def _reference(self) -> str:
        rows = [
            "INSERT INTO mechanics (mech_code, mech_name, skill) VALUES "
            + ", ".join(f"('{c}', {sql_text(n)}, '{s}')" for c, n, s in MECHANICS)
            + ";",
            "INSERT INTO racks (rack_code, zone) VALUES " + ", ".join(f"('{c}', '{z}')" for c, z in RACKS) + ";",
            "INSERT INTO loaner_bikes (loaner_tag, loaner_desc) VALUES "
            + ", ".join(f"('{t}', {sql_text(d)})" for t, d in LOANERS)
            + ";",
            "INSERT INTO spares (part_code, part_name, in_stock, price_each) VALUES "
            + ", ".join(f"('{c}', {sql_text(n)}, {self.stock[c]}, {money(p)})" for c, n, _, p in SPARES)
            + ";",
        ]
        for name, (mobile, email) in self.cyclists.items():
            rows.append(
                "INSERT INTO cyclists (cyclist_name, mobile, email_addr) VALUES "
                f"({sql_text(name)}, {_null(mobile)}, {_null(email)});"
            )
        for b in self.bikes.values():
            rows.append(
                "INSERT INTO bikes (frame_code, cyclist_id, bike_type, make, colour) VALUES "
                f"('{b.frame}', {_cyclist_id(b.owner)}, '{b.type}', {sql_text(b.make)}, {sql_text(b.colour)});"
            )
        for j in self.jobs:
            rows.append(
                "INSERT INTO repair_jobs (frame_code, mech_code, rack_code, booked_for, work, stage, quote) VALUES "
                f"('{j.frame}', '{j.mech}', {_null(j.rack)}, {sql_date(j.booked)}, {sql_text(j.work)}, "
                f"'{j.stage}', {money(j.quote)});"
            )
            for code, (qty, each) in j.parts.items():
                rows.append(
                    "INSERT INTO fitted_parts (job_no, part_code, qty, charged_each) VALUES "
                    f"({j.key()}, '{code}', {qty}, {money(each)});"
                )
            for day, paid, via in j.paid:
                rows.append(
                    "INSERT INTO settlements (job_no, settled_on, paid, paid_via) VALUES "
                    f"({j.key()}, {sql_date(day)}, {money(paid)}, '{via}');"
                )
        return "\n".join(rows)

    # -- how the user names things --------------------------------------------------------------

    def date_said(self, day: dt.date) -> str:
        self.forms += 1
        return date_forms(day)[self.forms % 4]

    def bike_said(self, frame: str, *, by_code: bool = False) -> tuple[str, list[str]]:
        """A bike by its frame code, or as its owner's bike of its type when the owner has one such bike (not
        `by_code`: where the text names the owner already)."""
        bike = self.bikes[frame]
        alike = [b for b in self.bikes.values() if b.owner == bike.owner and b.type == bike.type]
        if by_code or len(alike) > 1 or self.rng.random() < 0.55:
            return frame, [frame]
        return f"{bike.owner}'s {self.rng.choice(TYPE_SAID[bike.type])}", [bike.owner]

    def job_said(self, job: Job, *, by_code: bool = False) -> tuple[str, list[str]]:
        """A job by its bike, and by the day it is booked for when the bike has had another job (or at times)."""
        bike, stated = self.bike_said(job.frame, by_code=by_code)
        if sum(j.frame == job.frame for j in self.jobs) > 1 or self.rng.random() < 0.3:
            day = self.date_said(job.booked)
            return f"{bike} (booked for {day})", [*stated, day]
        return bike, stated

    def rack_said(self, code: str) -> tuple[str, list[str]]:
        if self.rng.random() < 0.6:
            return f"rack {int(code[2:])}", [f"rack {int(code[2:])}"]
        return code, [code]

    def mech_said(self, code: str) -> tuple[str, list[str]]:
        name = next(n for c, n, _ in MECHANICS if c == code)
        return (name, [name]) if self.rng.random() < 0.6 else (code, [code])

    def part_said(self, code: str, *, plural: bool = False) -> tuple[str, list[str]]:
        _, name, spoken, _ = next(s for s in SPARES if s[0] == code)
        if self.rng.random() < 0.4:
            return code, [code]
        return (spoken if plural else name.lower()), []

    def count_said(self, n: int) -> tuple[str, list[str]]:
        return (in_words(n), []) if n <= 12 and self.rng.random() < 0.5 else (str(n), [str(n)])

    # -- records: new facts ---------------------------------------------------------------------

    def new_cyclist(self) -> Made | None:
        if not self.newcomers:
            return None
        name, mobile, email = self.newcomers.pop(0)
        self.cyclists[name] = [mobile, email]
        bike = self._new_bike(name)
        said = self.rng.choice(TYPE_SAID[bike.type])
        day = self.date_said(self.day)
        gold = [
            "INSERT INTO cyclists (cyclist_name, mobile, email_addr) VALUES "
            f"({sql_text(name)}, {_null(mobile)}, {_null(email)})",
            "INSERT INTO bikes (frame_code, cyclist_id, bike_type, make, colour) VALUES "
            f"('{bike.frame}', {_cyclist_id(name)}, '{bike.type}', {sql_text(bike.make)}, {sql_text(bike.colour)})",
        ]
        contact = f"{mobile}, {email}" if email else f"{mobile}, no email"
        texts = {
            "log": f"{day} | new cyclist | {name}, {contact} | {bike.frame}, {bike.colour} {bike.make} {said}",
            "chatty": (
                f"New customer on {day}: {name} (mobile {mobile}, {f'email {email}' if email else 'no email'}) "
                f"with a {bike.colour} {bike.make} {said}, frame number {bike.frame}"
            ),
            "keyvalue": keyvalue(
                "new cyclist",
                [
                    ("name", name),
                    ("mobile", mobile),
                    ("email", email or "none"),
                    ("frame", bike.frame),
                    ("bike", f"{bike.colour} {bike.make} {said}"),
                    ("date", day),
                ],
            ),
        }
        stated = [name, mobile, *([email] if email else []), bike.frame, bike.make, bike.colour, day]
        return Made(bike.facts() | {"mobile": mobile, "email": email}, gold, texts, stated)

    def new_bike(self) -> Made | None:
        owners = [name for name in self.cyclists if sum(b.owner == name for b in self.bikes.values()) == 1]
        if not owners:
            return None
        owner = self.rng.choice(sorted(owners))
        bike = self._new_bike(owner)
        said = self.rng.choice(TYPE_SAID[bike.type])
        day = self.date_said(self.day)
        gold = [
            "INSERT INTO bikes (frame_code, cyclist_id, bike_type, make, colour) VALUES "
            f"('{bike.frame}', {_cyclist_id(owner)}, '{bike.type}', {sql_text(bike.make)}, {sql_text(bike.colour)})"
        ]
        texts = {
            "log": f"{day} | new bike | {owner} | {bike.frame}, {bike.colour} {bike.make} {said}",
            "chatty": f"{owner} brought in a second bike on {day}, a {bike.colour} {bike.make} {said} ({bike.frame})",
            "keyvalue": keyvalue(
                "new bike",
                [("owner", owner), ("frame", bike.frame), ("type", said), ("make", bike.make), ("colour", bike.colour)]
                + [("date", day)],
            ),
        }
        return Made(bike.facts(), gold, texts, [owner, bike.frame, bike.make, bike.colour, day])

    def booking(self) -> Made | None:
        rng = self.rng
        frames = [f for f in sorted(self.bikes) if not self.has_open_job(f)]
        if not frames:
            return None
        frame = rng.choice(frames)
        booked = self.day + dt.timedelta(days=rng.randint(3, 12))
        if any(j.frame == frame and j.booked == booked for j in self.jobs):
            return None
        job = self._job_for(frame, booked)
        self.jobs.append(job)
        bike, stated = self.bike_said(frame)
        mech, mech_stated = self.mech_said(job.mech)
        day, when, quote = self.date_said(self.day), self.date_said(booked), money(job.quote)
        gold = [
            "INSERT INTO repair_jobs (frame_code, mech_code, booked_for, work, quote) VALUES "
            f"('{frame}', '{job.mech}', {sql_date(booked)}, {sql_text(job.work)}, {quote})"
        ]
        texts = {
            "log": f"{day} | booking | {bike} | {job.work} on {when}, {mech}, quote {quote}",
            "chatty": rng.choice(
                (
                    f"On {day} we booked {bike} in for a {job.work} on {when} with {mech}, quoted at £{quote}",
                    f"{_cap(bike)} is booked in for {when}: {job.work}, {mech} to do it, £{quote} quoted (taken {day})",
                )
            ),
            "keyvalue": keyvalue(
                "booking",
                [("bike", bike), ("work", job.work), ("booked for", when), ("mechanic", mech), ("quote", quote)]
                + [("taken on", day)],
            ),
        }
        facts = job.facts(work=job.work, mechanic=job.mech, quote=job.quote)
        return Made(facts, gold, texts, [*stated, job.work, when, *mech_stated, quote, day])

    def parts_fitted(self) -> Made | None:
        rng = self.rng
        options = [
            (j, code)
            for j in self.open_jobs("on_stand")
            for code, *_ in SPARES
            if code not in j.parts and self.stock[code] >= 1
        ]
        if not options:
            return None
        job, code = rng.choice(options)
        qty = rng.choice((1, 1, 2)) if self.stock[code] >= 2 else 1
        job.parts[code] = (qty, self._price(code))
        self.stock[code] -= qty
        bike, stated = self.job_said(job)
        part, part_stated = self.part_said(code, plural=qty > 1)
        count, count_stated = self.count_said(qty)
        mech = next(n for c, n, _ in MECHANICS if c == job.mech)
        day = self.date_said(self.day)
        gold = [
            "INSERT INTO fitted_parts (job_no, part_code, qty, charged_each) VALUES "
            f"({job.key()}, '{code}', {qty}, (SELECT price_each FROM spares WHERE part_code = '{code}'))",
            f"UPDATE spares SET in_stock = in_stock - {qty} WHERE part_code = '{code}'",
        ]
        texts = {
            "log": f"{day} | parts fitted | {bike} | {count} {part}, from stock at list price",
            "chatty": f"{mech} fitted {count} {part} from stock to {bike} on {day}, charged at list price",
            "keyvalue": keyvalue(
                "parts fitted",
                [("bike", bike), ("part", part), ("quantity", count), ("taken from", "stock"), ("date", day)],
            ),
        }
        facts = job.facts(part=code, qty=qty)
        return Made(facts, gold, texts, [*stated, *part_stated, *count_stated, day])

    def settlement(self) -> Made | None:
        rng = self.rng
        options = [j for j in self.open_jobs("ready") + self.open_jobs("handed_over") if j.due() > 0]
        if not options:
            return None
        job = rng.choice(options)
        due = job.due()
        paid = due if rng.random() < 0.5 or due < 30 else float(round(due / 20) * 10)
        via = rng.choice(list(VIA_SAID))
        job.paid.append((self.day, paid, via))
        owner = self.bikes[job.frame].owner
        bike, stated = self.job_said(job, by_code=True)
        how = rng.choice(VIA_SAID[via])
        day, amount = self.date_said(self.day), money(paid)
        gold = [
            "INSERT INTO settlements (job_no, settled_on, paid, paid_via) VALUES "
            f"({job.key()}, {sql_date(self.day)}, {amount}, '{via}')"
        ]
        texts = {
            "log": f"{day} | payment | {bike} | {owner} paid {amount} {how}",
            "chatty": f"{owner} paid £{amount} {how} on {day} for the work on {bike}",
            "keyvalue": keyvalue(
                "payment", [("cyclist", owner), ("bike", bike), ("paid", amount), ("how", how), ("date", day)]
            ),
        }
        facts = job.facts(paid=paid, via=via)
        return Made(facts, gold, texts, [owner, *stated, amount, day])

    def warranty_claim(self) -> Made | None:
        rng = self.rng
        options = [j for j in self.open_jobs("handed_over") if not j.claimed and j.since < self.day]
        if not options:
            return None
        job = rng.choice(options)
        job.claimed = True
        bike_type = self.bikes[job.frame].type
        fault = rng.choice(("flat_tyre", "motor_cutout") if bike_type == "e-bike" else MECHANICAL_FAULTS)
        said = rng.choice(FAULT_SAID[fault])
        bike, stated = self.job_said(job)
        day = self.date_said(self.day)
        gold = [
            "INSERT INTO warranty_claims (job_no, lodged_on, fault) VALUES "
            f"({job.key()}, {sql_date(self.day)}, '{fault}')"
        ]
        texts = {
            "log": f"{day} | warranty claim | {bike} | {said} after the {job.work}",
            "chatty": f"{_cap(bike)} came back under warranty on {day} with {said}, after its {job.work}",
            "keyvalue": keyvalue("warranty claim", [("bike", bike), ("job", job.work), ("fault", said), ("date", day)]),
        }
        facts = job.facts(fault=fault)
        return Made(facts, gold, texts, [*stated, job.work, day])

    def courtesy_lend(self) -> Made | None:
        rng = self.rng
        jobs = [j for j in self.in_shop() if j.stage != "ready" and not j.lent]
        free = [t for t, _ in LOANERS if all(not (tag == t and back >= self.day) for tag, _, _, back in self.lends)]
        if not jobs or not free:
            return None
        job, tag = rng.choice(jobs), rng.choice(free)
        back = self.day + dt.timedelta(days=rng.randint(2, 7))
        job.lent = True
        self.lends.append((tag, job, self.day, back))
        owner = self.bikes[job.frame].owner
        bike, stated = self.job_said(job, by_code=True)
        loaner = rng.choice((f"courtesy bike {tag[-1]}", f"loaner {tag[-1]}", tag))
        day, until = self.date_said(self.day), self.date_said(back)
        gold = [
            "INSERT INTO courtesy_lends (loaner_tag, job_no, lent_on, back_by) VALUES "
            f"('{tag}', {job.key()}, {sql_date(self.day)}, {sql_date(back)})"
        ]
        texts = {
            "log": f"{day} | courtesy bike | {bike} | {loaner} to {owner}, back by {until}",
            "chatty": f"Lent {owner} {loaner} on {day} while {bike} is with us; it's due back by {until}",
            "keyvalue": keyvalue(
                "courtesy bike",
                [("cyclist", owner), ("while in", bike), ("loaner", loaner), ("lent on", day), ("back by", until)],
            ),
        }
        facts = job.facts(loaner=tag, back_by=back.isoformat())
        return Made(facts, gold, texts, [owner, *stated, loaner, day, until])

    # -- records: changes -----------------------------------------------------------------------

    def stage_change(self) -> Made | None:
        """A job takes its next stage, said in words that map onto one CHECK entry."""
        rng = self.rng
        options = [(j, "on_stand") for j in self.open_jobs("queued") if j.booked <= self.day]
        options += [(j, rng.choice(NEXT_STAGES[j.stage])) for j in self.open_jobs("on_stand", "parts_awaited", "ready")]
        options = [(j, s) for j, s in options if j.since < self.day]
        if not options:
            return None
        job, stage = rng.choices(options, weights=[PUSH[j.stage] for j, _ in options])[0]
        resumed = job.stage == "parts_awaited"
        job.stage, job.since = stage, self.day
        said = "back on the stand, the part came in" if resumed else rng.choice(STAGE_SAID[stage])
        bike, stated = self.job_said(job)
        day = self.date_said(self.day)
        gold = [f"UPDATE repair_jobs SET stage = '{stage}' WHERE job_no = {job.key()}"]
        texts = {
            "log": f"{day} | {said} | {bike}",
            "chatty": f"As of {day}, {bike} is {said}",
            "keyvalue": keyvalue("job stage", [("bike", bike), ("stage", said), ("date", day)]),
        }
        facts = job.facts(stage=stage)
        return Made(facts, gold, texts, [*stated, day])

    def mechanic_swap(self) -> Made | None:
        rng = self.rng
        jobs = self.open_jobs("queued", "on_stand", "parts_awaited")
        if not jobs:
            return None
        job = rng.choice(jobs)
        code = rng.choice([c for c, _, _ in MECHANICS if c != job.mech])
        job.mech = code
        mech, mech_stated = self.mech_said(code)
        bike, stated = self.job_said(job)
        day = self.date_said(self.day)
        value = f"(SELECT mech_code FROM mechanics WHERE mech_name = {sql_text(mech)})" if mech != code else f"'{code}'"
        gold = [f"UPDATE repair_jobs SET mech_code = {value} WHERE job_no = {job.key()}"]
        texts = {
            "log": f"{day} | mechanic change | {bike} | now {mech}",
            "chatty": f"From {day} {mech} takes over the job on {bike}",
            "keyvalue": keyvalue("mechanic change", [("bike", bike), ("mechanic", mech), ("date", day)]),
        }
        facts = job.facts(mechanic=code)
        return Made(facts, gold, texts, [*stated, *mech_stated, day])

    def day_moved(self) -> Made | None:
        rng = self.rng
        jobs = [j for j in self.open_jobs("queued") if j.booked >= self.day]
        if not jobs:
            return None
        job = rng.choice(jobs)
        new = max(job.booked + dt.timedelta(days=rng.choice((-2, -1, 1, 2, 3, 4))), self.day + dt.timedelta(days=1))
        if any(j.frame == job.frame and j.booked == new for j in self.jobs):
            return None
        bike, stated = self.job_said(job, by_code=True)  # by the day it was booked for
        gold = [f"UPDATE repair_jobs SET booked_for = {sql_date(new)} WHERE job_no = {job.key()}"]
        job.booked = new
        owner = self.bikes[job.frame].owner
        day, when = self.date_said(self.day), self.date_said(new)
        texts = {
            "log": f"{day} | booking moved | {bike} | now {when}",
            "chatty": f"{owner} rang on {day} to move the booking for {bike} to {when}",
            "keyvalue": keyvalue("booking moved", [("bike", bike), ("new day", when), ("date", day)]),
        }
        return Made(job.facts(), gold, texts, [*stated, when, day])

    def rack_assigned(self) -> Made | None:
        rng = self.rng
        jobs = [j for j in self.in_shop() if j.rack is None]
        if not jobs:
            return None
        job = rng.choice(jobs)
        code = rng.choice([c for c, _ in RACKS])
        job.rack = code
        rack, rack_stated = self.rack_said(code)
        bike, stated = self.job_said(job)
        day = self.date_said(self.day)
        gold = [f"UPDATE repair_jobs SET rack_code = '{code}' WHERE job_no = {job.key()}"]
        texts = {
            "log": f"{day} | racked | {bike} | {rack}",
            "chatty": f"{_cap(bike)} is hanging on {rack} since {day}",
            "keyvalue": keyvalue("rack", [("bike", bike), ("rack", rack), ("date", day)]),
        }
        facts = job.facts(rack=code)
        return Made(facts, gold, texts, [*stated, *rack_stated, day])

    def email_dropped(self) -> Made | None:
        names = [name for name, (_, email) in sorted(self.cyclists.items()) if email]
        if not names:
            return None
        name = self.rng.choice(names)
        self.cyclists[name][1] = None
        day = self.date_said(self.day)
        gold = [f"UPDATE cyclists SET email_addr = NULL WHERE cyclist_name = {sql_text(name)}"]
        texts = {
            "log": f"{day} | contact | {name} | email withdrawn, delete it",
            "chatty": f"{name} asked us on {day} to stop emailing and take the address off file",
            "keyvalue": keyvalue("contact change", [("cyclist", name), ("email", "none any more"), ("date", day)]),
        }
        return Made({"cyclist": name, "email": None}, gold, texts, [name, day])

    def rack_freed(self) -> Made | None:
        rng = self.rng
        jobs = [j for j in self.jobs if j.rack and j.stage in ("ready", "handed_over", "parts_awaited")]
        if not jobs:
            return None
        job = rng.choice(jobs)
        rack, rack_stated = self.rack_said(job.rack or "")
        job.rack = None
        bike, stated = self.job_said(job)
        day = self.date_said(self.day)
        gold = [f"UPDATE repair_jobs SET rack_code = NULL WHERE job_no = {job.key()}"]
        texts = {
            "log": f"{day} | off the rack | {bike} | {rack} free again",
            "chatty": f"Took {bike} down from {rack} on {day}; it's not on any rack now",
            "keyvalue": keyvalue("rack", [("bike", bike), ("rack", f"none (off {rack})"), ("date", day)]),
        }
        facts = job.facts(rack=None)
        return Made(facts, gold, texts, [*stated, *rack_stated, day])

    def same_rack(self) -> Made | None:
        rng = self.rng
        pairs = [(a, b) for a in self.in_shop() for b in self.in_shop() if b.rack and a.rack != b.rack]
        if not pairs:
            return None
        job, other = rng.choice(pairs)
        job.rack = other.rack
        bike, stated = self.job_said(job)
        there, there_stated = self.job_said(other)
        day = self.date_said(self.day)
        gold = [
            f"UPDATE repair_jobs SET rack_code = (SELECT rack_code FROM repair_jobs WHERE job_no = {other.key()}) "
            f"WHERE job_no = {job.key()}"
        ]
        texts = {
            "log": f"{day} | racked | {bike} | same rack as {there}",
            "chatty": f"On {day} we hung {bike} on the same rack as {there}",
            "keyvalue": keyvalue("rack", [("bike", bike), ("rack", f"same as {there}"), ("date", day)]),
        }
        facts = job.facts(rack=job.rack, same_rack_as=other.frame)
        return Made(facts, gold, texts, [*stated, *there_stated, day])

    def same_mobile(self) -> Made | None:
        names = sorted(self.cyclists)
        pairs = [
            (a, b) for a in names for b in names if self.cyclists[b][0] and self.cyclists[a][0] != self.cyclists[b][0]
        ]
        if not pairs:
            return None
        name, other = self.rng.choice(pairs)
        self.cyclists[name][0] = self.cyclists[other][0]
        day = self.date_said(self.day)
        gold = [
            f"UPDATE cyclists SET mobile = (SELECT mobile FROM cyclists WHERE cyclist_name = {sql_text(other)}) "
            f"WHERE cyclist_name = {sql_text(name)}"
        ]
        texts = {
            "log": f"{day} | contact | {name} | mobile: same as {other}'s",
            "chatty": f"{name} shares a phone with {other} now, so use the same mobile number for both (told us {day})",
            "keyvalue": keyvalue("contact change", [("cyclist", name), ("mobile", f"same as {other}"), ("date", day)]),
        }
        return Made({"cyclist": name, "mobile_as": other}, gold, texts, [name, other, day])

    def delivery(self) -> Made | None:
        """Spares delivered (`in_stock + n`), or some found spoilt and written off (`in_stock - n`)."""
        rng = self.rng
        code = rng.choice(SPARES)[0]
        spoilt = self.stock[code] >= 3 and rng.random() < 0.35
        n = rng.randint(1, 2) if spoilt else rng.choice((4, 5, 6, 10, 12))
        self.stock[code] += -n if spoilt else n
        part, part_stated = self.part_said(code, plural=spoilt or n > 1)
        count, count_stated = self.count_said(n)
        day = self.date_said(self.day)
        gold = [f"UPDATE spares SET in_stock = in_stock {'-' if spoilt else '+'} {n} WHERE part_code = '{code}'"]
        if spoilt:
            them = "them" if n > 1 else "it"
            texts = {
                "log": f"{day} | stock | {part} | {count} found split, written off",
                "chatty": f"{_cap(count)} of our {part} turned out damaged on {day}, write {them} off the stock",
                "keyvalue": keyvalue("stock", [("part", part), ("written off", count), ("date", day)]),
            }
        else:
            texts = {
                "log": f"{day} | delivery | {part} | {count} more in",
                "chatty": f"The wholesaler dropped off {count} more {part} on {day}",
                "keyvalue": keyvalue("delivery", [("part", part), ("quantity", count), ("date", day)]),
            }
        facts: dict[str, object] = {"part": code, "change": -n if spoilt else n}
        return Made(facts, gold, texts, [*part_stated, *count_stated, day])

    def quote_change(self) -> Made | None:
        rng = self.rng
        jobs = self.open_jobs("queued", "on_stand", "parts_awaited")
        if not jobs:
            return None
        job = rng.choice(jobs)
        down = job.quote > 40 and rng.random() < 0.4
        n = float(rng.choice((5, 10, 15, 20, 25)))
        job.quote += -n if down else n
        bike, stated = self.job_said(job)
        day, amount = self.date_said(self.day), money(n)
        gold = [f"UPDATE repair_jobs SET quote = quote {'-' if down else '+'} {amount} WHERE job_no = {job.key()}"]
        if down:
            texts = {
                "log": f"{day} | quote | {bike} | {amount} off",
                "chatty": f"Knock £{amount} off the quote for {bike}, agreed with the owner on {day}",
                "keyvalue": keyvalue("quote change", [("bike", bike), ("reduce by", amount), ("date", day)]),
            }
        else:
            texts = {
                "log": f"{day} | quote | {bike} | up by {amount}",
                "chatty": f"The quote for {bike} goes up by £{amount}, the owner agreed on {day}",
                "keyvalue": keyvalue("quote change", [("bike", bike), ("raise by", amount), ("date", day)]),
            }
        facts = job.facts(change=-n if down else n)
        return Made(facts, gold, texts, [*stated, amount, day])

    def cancellation(self) -> Made | None:
        jobs = [j for j in self.open_jobs("queued") if j.booked >= self.day and not (j.parts or j.paid or j.lent)]
        if not jobs:
            return None
        job = self.rng.choice(jobs)
        bike, stated = self.job_said(job, by_code=True)
        self.jobs.remove(job)
        owner = self.bikes[job.frame].owner
        day = self.date_said(self.day)
        gold = [f"DELETE FROM repair_jobs WHERE job_no = {job.key()}"]
        texts = {
            "log": f"{day} | cancelled | {bike} | booking called off",
            "chatty": f"{owner} cancelled the {job.work} booking for {bike} on {day}, take it off the list",
            "keyvalue": keyvalue("cancellation", [("bike", bike), ("booking", "cancelled"), ("date", day)]),
        }
        return Made(job.facts(), gold, texts, [*stated, day])

    # -- the log --------------------------------------------------------------------------------

    def run(self) -> bool:
        """The log, each day a record of a kind drawn by what is left of its quota among those that fit the day;
        False when the kinds left stop fitting (the log is drawn again)."""
        rng = self.rng
        left = dict(QUOTAS)
        turns = Turns(rng)
        makers: dict[str, Callable[[], Made | None]] = {kind: getattr(self, kind) for kind in QUOTAS}
        idle = 0
        while any(left.values()):
            self.day += dt.timedelta(days=rng.choice(STEPS))
            kinds = sorted((k for k, n in left.items() if n), key=lambda k: -(rng.random() ** (1 / left[k])))
            made = None
            for kind in kinds:
                made = makers[kind]()
                if made is not None:
                    break
            if made is None:
                idle += 1
                if idle > 10:
                    return False
                continue
            idle = 0
            left[kind] -= 1
            wording = turns.take(kind)
            self.records.append(
                Record(
                    id=f"r{len(self.records) + 1:02d}",
                    kind=kind,
                    wording=wording,
                    text=made.texts[wording],
                    facts={"kind": kind, "date": self.day.isoformat(), **made.facts},
                    gold=tuple(made.gold),
                    stated=tuple(dict.fromkeys(made.stated)),
                )
            )
        return True

    # -- questions ------------------------------------------------------------------------------

    def ask(self) -> list[Question]:
        """Questions on the final state, their names and days drawn from what the log left."""
        rng = self.rng
        logged = [j for j in self.jobs if j.booked >= START]
        paid = [j for j in self.jobs if j.paid]
        payer = self.bikes[rng.choice(paid).frame].owner
        debtor = self.bikes[rng.choice([j for j in self.jobs if j.stage in ("ready", "handed_over")]).frame].owner
        sharer = rng.choice([str(r.facts["cyclist"]) for r in self.records if r.kind == "same_mobile"])
        racked = rng.choice([j for j in self.jobs if j.rack])
        moves = {(r.facts["frame"], r.facts["booked_for"]) for r in self.records if r.kind == "day_moved"}
        alone = [j for j in logged if sum(k.frame == j.frame and k.work == j.work for k in self.jobs) == 1]
        moved_job = rng.choice([j for j in alone if (j.frame, j.booked.isoformat()) in moves] or alone)  # named undated
        staffed = rng.choice(self.open_jobs() or logged)
        billed = rng.choice([j for j in self.jobs if j.parts])
        part = rng.choice([code for code, *_ in SPARES])
        mech_code, mech_name, _ = rng.choice(MECHANICS)
        first = rng.choice(logged).booked - dt.timedelta(days=rng.randint(1, 4))
        last = first + dt.timedelta(days=rng.randint(5, 10))
        month = rng.choice([day for j in self.jobs for day, _, _ in j.paid if day >= START]).replace(day=1)
        after = (month + dt.timedelta(days=32)).replace(day=1)
        via = rng.choice(sorted({v for j in self.jobs for _, _, v in j.paid}))
        common = rng.choice(sorted({self.bikes[j.frame].type for j in self.jobs}))

        def job_is(job: Job) -> str:
            return f"j.frame_code = '{job.frame}' AND j.booked_for = {sql_date(job.booked)}"

        def named(job: Job) -> str:
            """The job by its work and bike, and its booked day when the bike has had the same work before."""
            again = sum(j.frame == job.frame and j.work == job.work for j in self.jobs) > 1
            return f"the {job.work} on {job.frame}" + (f" booked for {date_forms(job.booked)[1]}" if again else "")

        def between(a: dt.date, b: dt.date) -> str:
            form = rng.choice((0, 1, 2))
            return f"between {date_forms(a)[form]} and {date_forms(b)[form]}"

        owners = "JOIN bikes b ON b.frame_code = j.frame_code JOIN cyclists r ON r.cyclist_id = b.cyclist_id"
        pays = f"FROM settlements s JOIN repair_jobs j ON j.job_no = s.job_no {owners}"
        rows = [
            (
                "count",
                "How many repair jobs are on the books, whatever their stage?",
                "SELECT count(*) FROM repair_jobs",
            ),
            ("count", "How many bikes do we have on record?", "SELECT count(*) FROM bikes"),
            (
                "count",
                "How many bikes are in the workshop right now, started but not yet finished?",
                "SELECT count(*) FROM repair_jobs WHERE stage IN ('on_stand', 'parts_awaited')",
            ),
            (
                "count",
                f"How many jobs has {mech_name} been given in all?",
                f"SELECT count(*) FROM repair_jobs WHERE mech_code = '{mech_code}'",
            ),
            ("count", "How many warranty claims have been lodged?", "SELECT count(*) FROM warranty_claims"),
            ("sum", "How much have we taken in payments altogether?", "SELECT sum(paid) FROM settlements"),
            (
                "sum",
                "What is the spares stock worth at list price?",
                "SELECT sum(in_stock * price_each) FROM spares",
            ),
            (
                "sum",
                f"How much has {payer} paid us in total?",
                f"SELECT sum(s.paid) {pays} WHERE r.cyclist_name = {sql_text(payer)}",
            ),
            (
                "lookup",
                f"What mobile number do we have for {sharer}?",
                f"SELECT mobile FROM cyclists WHERE cyclist_name = {sql_text(sharer)}",
            ),
            (
                "lookup",
                f"Which rack is {racked.frame} on for the job booked for {date_forms(racked.booked)[1]}?",
                f"SELECT j.rack_code FROM repair_jobs j WHERE {job_is(racked)}",
            ),
            (
                "lookup",
                f"Who is the mechanic on {named(staffed)}?",
                "SELECT m.mech_name FROM repair_jobs j JOIN mechanics m ON m.mech_code = j.mech_code "
                f"WHERE {job_is(staffed)}",
            ),
            (
                "lookup",
                f"What stage is {named(moved_job)} at, and what day is it booked for?",
                f"SELECT j.stage, j.booked_for FROM repair_jobs j WHERE {job_is(moved_job)}",
            ),
            (
                "lookup",
                f"How many of part {part} do we have in stock?",
                f"SELECT in_stock FROM spares WHERE part_code = '{part}'",
            ),
            (
                "lookup",
                "Which bikes have had a courtesy bike lent, which loaner, and when is it due back?",
                "SELECT j.frame_code, x.loaner_tag, x.back_by FROM courtesy_lends x JOIN repair_jobs j "
                "ON j.job_no = x.job_no ORDER BY x.lent_on",
            ),
            (
                "grouped",
                "How many jobs are at each stage?",
                "SELECT stage, count(*) FROM repair_jobs GROUP BY stage ORDER BY stage",
            ),
            (
                "grouped",
                "How many jobs has each mechanic got, by name?",
                "SELECT m.mech_name, count(j.job_no) FROM mechanics m LEFT JOIN repair_jobs j ON j.mech_code = m.mech_code "
                "GROUP BY m.mech_name ORDER BY m.mech_name",
            ),
            (
                "grouped",
                "How many bikes of each type do we have?",
                "SELECT bike_type, count(*) FROM bikes GROUP BY bike_type ORDER BY bike_type",
            ),
            (
                "grouped",
                "What has been taken each way of paying?",
                "SELECT paid_via, sum(paid) FROM settlements GROUP BY paid_via ORDER BY paid_via",
            ),
            (
                "grouped",
                "How many warranty claims were there for each kind of fault?",
                "SELECT fault, count(*) FROM warranty_claims GROUP BY fault ORDER BY fault",
            ),
            (
                "top",
                "Which three cyclists owe us the most, and how much?",
                "SELECT cyclist_name, owing FROM cyclists ORDER BY owing DESC, cyclist_name LIMIT 3",
            ),
            (
                "top",
                "Which spare part has been fitted most (by quantity), and how many?",
                "SELECT x.part_code, sum(x.qty) AS fitted FROM fitted_parts x GROUP BY x.part_code "
                "ORDER BY fitted DESC, x.part_code LIMIT 1",
            ),
            (
                "top",
                "Which mechanic has the highest total of quotes on their jobs?",
                "SELECT m.mech_name, sum(j.quote) AS quoted FROM repair_jobs j JOIN mechanics m "
                "ON m.mech_code = j.mech_code GROUP BY m.mech_name ORDER BY quoted DESC LIMIT 1",
            ),
            (
                "top",
                "What were the three largest payments: who paid, for which bike, how much?",
                f"SELECT r.cyclist_name, j.frame_code, s.paid {pays} ORDER BY s.paid DESC, s.settled_on LIMIT 3",
            ),
            (
                "range",
                f"How many jobs are booked for days {between(first, last)}?",
                f"SELECT count(*) FROM repair_jobs WHERE booked_for BETWEEN {sql_date(first)} AND {sql_date(last)}",
            ),
            (
                "range",
                f"How much was paid in {month.strftime('%B %Y')}?",
                f"SELECT sum(paid) FROM settlements WHERE settled_on >= {sql_date(month)} AND settled_on < {sql_date(after)}",
            ),
            (
                "derived",
                f"How much does {debtor} owe us?",
                f"SELECT owing FROM cyclists WHERE cyclist_name = {sql_text(debtor)}",
            ),
            ("derived", "How much is owed to us across all cyclists?", "SELECT sum(owing) FROM cyclists"),
            (
                "derived",
                f"What does {named(billed)} come to, quote plus parts?",
                "SELECT j.quote + coalesce((SELECT sum(f.qty * f.charged_each) FROM fitted_parts f "
                f"WHERE f.job_no = j.job_no), 0) FROM repair_jobs j WHERE {job_is(billed)}",
            ),
            (
                "none",
                "Which cyclists have no email address on file?",
                "SELECT cyclist_name FROM cyclists WHERE email_addr IS NULL ORDER BY cyclist_name",
            ),
            (
                "none",
                "Which spare parts have never been fitted to a bike?",
                "SELECT part_code FROM spares WHERE part_code NOT IN (SELECT part_code FROM fitted_parts) "
                "ORDER BY part_code",
            ),
            (
                "none",
                "Which racks have no bike on them at the moment?",
                "SELECT rack_code FROM racks WHERE rack_code NOT IN (SELECT rack_code FROM repair_jobs "
                "WHERE rack_code IS NOT NULL AND stage <> 'handed_over') ORDER BY rack_code",
            ),
            ("average", "What is the average quote on a job?", "SELECT avg(quote) FROM repair_jobs"),
            (
                "average",
                f"What is the average quote for jobs on {TYPE_SAID[common][0]}s?",
                f"SELECT avg(j.quote) FROM repair_jobs j JOIN bikes b ON b.frame_code = j.frame_code "
                f"WHERE b.bike_type = '{common}'",
            ),
            (
                "category",
                f"How much has been paid {VIA_SAID[via][0]}?",
                f"SELECT sum(paid) FROM settlements WHERE paid_via = '{via}'",
            ),
            (
                "category",
                "How many bikes have been collected by their owners?",
                "SELECT count(*) FROM repair_jobs WHERE stage = 'handed_over'",
            ),
            (
                "category",
                "How many jobs are done and waiting to be collected?",
                "SELECT count(*) FROM repair_jobs WHERE stage = 'ready'",
            ),
        ]
        return [Question(f"q{i:02d}", text, gold, family) for i, (family, text, gold) in enumerate(rows, 1)]


def build(seed: int = 0) -> Trade:
    """The workshop trade generated from `seed`: the first log drawn from `random.Random(seed)` that fills its
    quotas (a draw whose kinds left stop fitting is dropped, and the same generator draws again)."""
    rng = random.Random(seed)
    for _ in range(DRAWS):
        shop = _Shop(rng, seed)
        if shop.run():
            break
    else:
        raise RuntimeError(f"no log of seed {seed} filled its quotas in {DRAWS} draws")
    return Trade(
        name="workshop",
        description="A bicycle repair workshop: cyclists' bikes, repair jobs, mechanics, racks, spares and payments.",
        schema=SCHEMA,
        reference=shop.reference,
        rules=(OWING,),
        records=tuple(shop.records),
        questions=tuple(shop.ask()),
        snapshot=SNAPSHOT,
        checks=CHECKS,
    )
