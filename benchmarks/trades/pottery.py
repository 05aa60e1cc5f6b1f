"""Pottery studio: makers make pieces, the studio fires them in four kilns and runs clay classes.

Makers join on a plan (drop-in, regular, resident) and make pieces, each labelled with a code like 'PC-214',
that dry on numbered shelves ('S-14', "shelf 14") and go through bisque, glaze or raku firings in kilns 'KL-1'
to 'KL-4' ("kiln 2"). A firing is planned, loaded, fired and unloaded; a piece goes from greenware to bisqued,
glazed and finished, unless it breaks. Clay is kept in bags and glaze in litres. Makers book places on
classes (a class is its day and technique) and pay for them; what a maker owes is kept by one rule: the
fees of the classes they are booked on minus what they have paid.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from .base import Question, Record, Rule, Trade, Turns, date_forms, in_words, keyvalue, lookup, sql_date, sql_text

SCHEMA = """
CREATE SEQUENCE maker_seq START 1;
CREATE SEQUENCE firing_seq START 1;
CREATE SEQUENCE settlement_seq START 1;
CREATE SEQUENCE breakage_seq START 1;
CREATE SEQUENCE service_seq START 1;
CREATE TABLE kilns (
    kiln_code VARCHAR PRIMARY KEY,
    nickname VARCHAR NOT NULL UNIQUE,
    fuel VARCHAR NOT NULL CHECK (fuel IN ('electric', 'gas')),
    max_temp INTEGER NOT NULL
);
CREATE TABLE ware_shelves (
    shelf_tag VARCHAR PRIMARY KEY,
    area VARCHAR NOT NULL CHECK (area IN ('damp_cupboard', 'drying_rack', 'glaze_room'))
);
CREATE TABLE materials (
    material_code VARCHAR PRIMARY KEY,
    material_name VARCHAR NOT NULL UNIQUE,
    measure VARCHAR NOT NULL CHECK (measure IN ('bag', 'litre')),
    qty_left INTEGER NOT NULL CHECK (qty_left >= 0),
    cost_per_measure DECIMAL(8, 2) NOT NULL
);
CREATE TABLE makers (
    maker_id INTEGER PRIMARY KEY DEFAULT nextval('maker_seq'),
    maker_name VARCHAR NOT NULL UNIQUE,
    mobile VARCHAR,
    mail_address VARCHAR,
    plan VARCHAR NOT NULL CHECK (plan IN ('drop_in', 'regular', 'resident')),
    joined_day DATE NOT NULL,
    owes DECIMAL(10, 2) NOT NULL DEFAULT 0
);
CREATE TABLE firings (
    firing_id INTEGER PRIMARY KEY DEFAULT nextval('firing_seq'),
    kiln_code VARCHAR NOT NULL,
    fire_day DATE NOT NULL,
    firing_type VARCHAR NOT NULL CHECK (firing_type IN ('bisque', 'glaze', 'raku')),
    progress VARCHAR NOT NULL DEFAULT 'planned' CHECK (progress IN ('planned', 'loaded', 'fired', 'unloaded')),
    peak_temp INTEGER NOT NULL
);
CREATE TABLE pots (
    pot_code VARCHAR PRIMARY KEY,
    maker_id INTEGER NOT NULL REFERENCES makers (maker_id),
    shape VARCHAR NOT NULL CHECK (shape IN ('mug', 'bowl', 'vase', 'plate', 'jug', 'teapot')),
    shelf_tag VARCHAR REFERENCES ware_shelves (shelf_tag),
    state VARCHAR NOT NULL DEFAULT 'greenware'
        CHECK (state IN ('greenware', 'bisqued', 'glazed', 'finished', 'broken')),
    firing_id INTEGER REFERENCES firings (firing_id),
    made_day DATE NOT NULL
);
CREATE TABLE clay_classes (
    class_day DATE NOT NULL,
    technique VARCHAR NOT NULL CHECK (technique IN ('wheel', 'handbuilding', 'glazing', 'trimming')),
    led_by VARCHAR NOT NULL,
    fee_each DECIMAL(8, 2) NOT NULL,
    seats INTEGER NOT NULL CHECK (seats > 0),
    PRIMARY KEY (class_day, technique)
);
CREATE TABLE class_places (
    class_day DATE NOT NULL,
    technique VARCHAR NOT NULL,
    maker_id INTEGER NOT NULL REFERENCES makers (maker_id),
    booked_day DATE NOT NULL,
    PRIMARY KEY (class_day, technique, maker_id),
    FOREIGN KEY (class_day, technique) REFERENCES clay_classes (class_day, technique)
);
CREATE TABLE settlements (
    settlement_id INTEGER PRIMARY KEY DEFAULT nextval('settlement_seq'),
    maker_id INTEGER NOT NULL REFERENCES makers (maker_id),
    settled_day DATE NOT NULL,
    sum_paid DECIMAL(8, 2) NOT NULL CHECK (sum_paid > 0),
    paid_via VARCHAR NOT NULL CHECK (paid_via IN ('card', 'cash', 'bank_transfer'))
);
CREATE TABLE breakages (
    breakage_id INTEGER PRIMARY KEY DEFAULT nextval('breakage_seq'),
    pot_code VARCHAR NOT NULL,
    found_day DATE NOT NULL,
    cause VARCHAR NOT NULL CHECK (cause IN ('cracked', 'exploded', 'dropped', 'glaze_run'))
);
CREATE TABLE kiln_services (
    service_id INTEGER PRIMARY KEY DEFAULT nextval('service_seq'),
    kiln_code VARCHAR NOT NULL REFERENCES kilns (kiln_code),
    serviced_day DATE NOT NULL,
    job VARCHAR NOT NULL CHECK (job IN ('element_swap', 'thermocouple', 'shelf_wash', 'relay_swap')),
    cost DECIMAL(8, 2) NOT NULL
);
"""
# firings.kiln_code names a kiln without REFERENCES: a firing moved to another kiln is an UPDATE of it, and DuckDB
# refuses an UPDATE of a foreign-key column of a table other tables reference (pots reference firings).

OWES = Rule(
    name="maker owes",
    sentence="What a maker owes is the fees of all the classes they are booked on, minus everything they have paid.",
    sql=(
        "UPDATE makers SET owes = coalesce((SELECT sum(c.fee_each) FROM class_places b JOIN clay_classes c "
        "ON c.class_day = b.class_day AND c.technique = b.technique WHERE b.maker_id = makers.maker_id), 0) "
        "- coalesce((SELECT sum(s.sum_paid) FROM settlements s WHERE s.maker_id = makers.maker_id), 0)"
    ),
)

SNAPSHOT = {
    "makers": "SELECT maker_name, mobile, mail_address, plan, joined_day, owes FROM makers",
    "materials": "SELECT material_code, material_name, measure, qty_left, cost_per_measure FROM materials",
    "firings": "SELECT kiln_code, fire_day, firing_type, progress, peak_temp FROM firings",
    "pots": (
        "SELECT x.pot_code, p.maker_name, x.shape, x.shelf_tag, x.state, f.kiln_code, f.fire_day, x.made_day "
        "FROM pots x JOIN makers p ON p.maker_id = x.maker_id LEFT JOIN firings f ON f.firing_id = x.firing_id"
    ),
    "clay_classes": "SELECT class_day, technique, led_by, fee_each, seats FROM clay_classes",
    "class_places": (
        "SELECT b.class_day, b.technique, p.maker_name, b.booked_day FROM class_places b "
        "JOIN makers p ON p.maker_id = b.maker_id"
    ),
    "settlements": (
        "SELECT p.maker_name, s.settled_day, s.sum_paid, s.paid_via FROM settlements s "
        "JOIN makers p ON p.maker_id = s.maker_id"
    ),
    "breakages": "SELECT pot_code, found_day, cause FROM breakages",
    "kiln_services": "SELECT kiln_code, serviced_day, job, cost FROM kiln_services",
}
CHECKS = {
    "what each maker owes": "SELECT maker_name, owes FROM makers",
    "clay and glaze left": "SELECT material_name, qty_left FROM materials",
    "pieces per stage": "SELECT state, count(*) FROM pots GROUP BY state",
    "firings per progress": "SELECT progress, count(*) FROM firings GROUP BY progress",
    "places left per class": (
        "SELECT c.class_day, c.technique, c.seats - count(b.maker_id) FROM clay_classes c LEFT JOIN class_places b "
        "ON b.class_day = c.class_day AND b.technique = c.technique GROUP BY c.class_day, c.technique, c.seats"
    ),
}

# -- names and words --------------------------------------------------------------------------------

START = dt.date(2024, 4, 2)
KILNS = (  # code, nickname, fuel, highest temperature
    ("KL-1", "Little Electric", "electric", 1280),
    ("KL-2", "Big Electric", "electric", 1300),
    ("KL-3", "Gas Kiln", "gas", 1320),
    ("KL-4", "Raku Drum", "gas", 1050),
)
KILNS_FOR = {"bisque": ("KL-1", "KL-2", "KL-3"), "glaze": ("KL-1", "KL-2", "KL-3"), "raku": ("KL-4",)}
TEMPS = {"bisque": (950, 1000), "glaze": (1220, 1270), "raku": (900, 1000)}  # peak temperature, steps of 10
FIRING_SAID = {"bisque": ("bisque", "biscuit"), "glaze": ("glaze", "glost"), "raku": ("raku",)}
PROGRESS = ("planned", "loaded", "fired", "unloaded")
PROGRESS_WHEN = {"loaded": (-2, 0), "fired": (0, 3), "unloaded": (1, 6)}  # days from the firing's day
PROGRESS_SAID = {
    "loaded": ("loaded", "packed", "stacked and ready"),
    "fired": ("fired", "fired and cooling"),
    "unloaded": ("unloaded", "emptied", "unpacked"),
}
AREAS = ("drying_rack", "drying_rack", "drying_rack", "damp_cupboard", "glaze_room")
MATERIALS = (  # code, name, measure, cost per bag or litre
    ("CL-01", "buff stoneware", "bag", 18.50),
    ("CL-02", "white earthenware", "bag", 15.00),
    ("CL-03", "porcelain", "bag", 27.00),
    ("CL-04", "raku clay", "bag", 21.50),
    ("GZ-11", "tenmoku glaze", "litre", 9.80),
    ("GZ-12", "celadon glaze", "litre", 11.20),
    ("GZ-13", "shino glaze", "litre", 10.40),
    ("GZ-14", "clear glaze", "litre", 7.60),
)
MEASURE_SAID = {"bag": ("bag", "bags"), "litre": ("litre", "litres")}
POTTERS = (  # name, mobile, email, plan: the reference makers are drawn from these
    ("Wren Achebe", "07811 402118", "wren.achebe@kilnpost.net", "resident"),
    ("Tobiah Marsh", "07811 402274", "tobiah.m@mudmail.org", "regular"),
    ("Ottilie Fenn", "07811 402339", "ottilie.fenn@kilnpost.net", "regular"),
    ("Rowan Hale", "07811 402451", None, "drop_in"),
    ("Keiko Tanabe", "07811 402506", "keiko.tanabe@slipbox.com", "resident"),
    ("Dario Ferrante", "07811 402623", "dario@ferrante-studio.it", "regular"),
    ("Maud Pellerin", "07811 402787", "maud.pellerin@mudmail.org", "drop_in"),
    ("Oskar Brandt", "07811 402842", "oskar.brandt@slipbox.com", "regular"),
    ("Niamh Carey", "07811 402915", "niamh.carey@kilnpost.net", "resident"),
    ("Ravi Menon", "07811 402163", "ravi.menon@mudmail.org", "regular"),
)
NEW_POTTERS = (  # people who join during the log
    ("Elif Aydin", "07933 118204", "elif.aydin@slipbox.com", "regular"),
    ("Bryony Walsh", "07933 118377", None, "drop_in"),
    ("Fergus Tait", "07933 118451", "fergus.tait@kilnpost.net", "resident"),
    ("Lotte Vandamme", "07933 118529", "lotte.vd@mudmail.org", "drop_in"),
    ("Henrik Solberg", "07933 118686", "h.solberg@slipbox.com", "regular"),
    ("Yusuf Kaplan", "07933 118742", None, "regular"),
)
PLAN_SAID = {
    "drop_in": ("drop-in", "pay-as-you-go", "casual drop-in"),
    "regular": ("regular", "regular monthly"),
    "resident": ("resident", "studio resident"),
}
SHAPES = ("mug", "bowl", "vase", "plate", "jug", "teapot")
MADE_SAID = {"mug": "threw", "bowl": "threw", "vase": "threw", "plate": "made", "jug": "threw", "teapot": "made"}
STAGE_SAID = {
    "bisqued": ("out of the bisque", "bisqued", "biscuit-fired"),
    "glazed": ("glazed", "dipped in glaze", "glazed and waiting for its glaze firing"),
    "finished": ("finished", "done and ready to collect", "completed"),
}
CAUSE_SAID = {  # a short word for a log line or a field, and a clause for a sentence
    "cracked": (("cracked", "split"), ("cracked right through", "has a crack across the base")),
    "exploded": (("exploded", "blew up"), ("blew up in the kiln", "exploded during the firing")),
    "dropped": (("dropped", "knocked off the shelf"), ("got knocked off the shelf and smashed", "was dropped")),
    "glaze_run": (("glaze run", "glaze ran"), ("is ruined, the glaze ran and stuck it to the kiln shelf",)),
}
JOB_SAID = {
    "element_swap": ("new elements fitted", "elements replaced"),
    "thermocouple": ("thermocouple replaced", "new thermocouple"),
    "shelf_wash": ("kiln shelves re-washed", "fresh batt wash on the kiln shelves"),
    "relay_swap": ("relay swapped", "new relay fitted"),
}
JOB_COST = {"element_swap": (140, 220), "thermocouple": (35, 70), "shelf_wash": (15, 30), "relay_swap": (25, 60)}
TECHNIQUE_SAID = {
    "wheel": ("wheel-throwing", "wheel"),
    "handbuilding": ("hand-building", "handbuilding"),
    "glazing": ("glazing",),
    "trimming": ("trimming", "turning"),
}
LEADERS = ("Hester Greaves", "Bram Oduya", "Celeste Marchand")
VIA_SAID = {
    "card": ("by card", "on the card reader"),
    "cash": ("in cash", "cash"),
    "bank_transfer": ("by bank transfer", "by BACS"),
}
# record kind -> how many the log has, and the class of change ("" for a new fact) whose records take the
# wordings in turn (`Turns`), so that each class comes in every wording
KINDS = {
    "maker_joined": (4, ""),
    "piece_made": (8, ""),
    "firing_booked": (5, ""),
    "class_booked": (6, ""),
    "payment": (6, ""),
    "breakage": (3, ""),
    "kiln_serviced": (3, ""),
    "piece_moved": (2, "set"),
    "piece_loaded": (3, "set"),
    "firing_progress": (5, "set"),
    "firing_moved": (1, "set"),
    "piece_stage": (2, "set"),
    "plan_changed": (1, "set"),
    "contact_dropped": (3, "clear"),
    "piece_off_shelf": (2, "clear"),
    "piece_same_shelf": (2, "copy"),
    "mobile_shared": (1, "copy"),
    "firing_same_temp": (2, "copy"),
    "stock_delivered": (2, "add"),
    "stock_used": (2, "add"),
    "temp_shift": (1, "add"),
    "seats_added": (1, "add"),
    "place_cancelled": (3, "remove"),
}


# -- the state the log keeps ------------------------------------------------------------------------


@dataclass
class Maker:
    name: str
    mobile: str | None
    mail: str | None
    plan: str
    joined: dt.date


@dataclass
class Firing:
    kiln: str
    day: dt.date  # no two firings share a day: a firing is named by its day (and its type or kiln)
    kind: str
    temp: int
    progress: str = "planned"


@dataclass
class Piece:
    code: str
    maker: str
    shape: str
    shelf: str | None
    made: dt.date
    state: str = "greenware"
    firing: dt.date | None = None  # the day of the last firing it went into


@dataclass
class Session:
    day: dt.date
    technique: str
    leader: str
    fee: float
    seats: int
    booked: list[str] = field(default_factory=list)


@dataclass
class Draft:
    """One record before its wording is chosen: each wording's text states every value in `stated`."""

    facts: Mapping[str, object]
    gold: list[str]
    texts: dict[str, str]
    stated: list[str]


def money(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def number(code: str) -> int:
    return int(code.split("-")[1])


def _maker_id(name: str) -> str:
    return lookup("makers", "maker_id", "maker_name", name)


def _value(value: object) -> str:
    return "NULL" if value is None else sql_text(str(value))


def _firing_where(firing: Firing) -> str:
    return f"fire_day = {sql_date(firing.day)}"


def _session_where(session: Session, alias: str = "") -> str:
    at = f"{alias}." if alias else ""
    return f"{at}class_day = {sql_date(session.day)} AND {at}technique = '{session.technique}'"


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


class Studio:
    """The seeded simulation of the studio: reference rows, then one record at a time."""

    def __init__(self, seed: int) -> None:
        self.rng = rng = random.Random(seed)
        self.day = START
        self.forms = seed
        self.records: list[Record] = []
        self.shelves = {f"S-{n}": rng.choice(AREAS) for n in sorted(rng.sample(range(1, 31), 12))}  # tag -> area
        self.stock = {code: rng.randrange(6, 19) for code, *_ in MATERIALS}
        pool = list(POTTERS)
        rng.shuffle(pool)
        joined = [START - dt.timedelta(days=rng.randrange(30, 400)) for _ in pool[:8]]
        self.makers = {p[0]: Maker(*p, joined=day) for p, day in zip(pool[:8], joined)}
        newcomers = pool[8:] + list(NEW_POTTERS)
        rng.shuffle(newcomers)
        self.newcomers = [Maker(*p, joined=START) for p in newcomers]
        self.never_makes = rng.choice(sorted(self.makers))  # a maker with no piece: "who has never made one?"
        self.paid: dict[str, list[tuple[dt.date, float, str]]] = {}
        self.firings = [
            Firing("KL-2", START - dt.timedelta(days=11), "bisque", 990, "unloaded"),
            Firing("KL-3", START - dt.timedelta(days=6), "glaze", 1250, "unloaded"),
        ]
        offset = 0
        while offset < 95:  # the kiln calendar: planned firings every week or so, beyond the end of the log
            offset += rng.randint(4, 8)
            self.firings.append(self._new_firing(START + dt.timedelta(days=offset)))
        self.next_code = rng.randrange(100, 400, 10)
        self.pieces: dict[str, Piece] = {}
        makers = [name for name in sorted(self.makers) if name != self.never_makes]
        for state, firing in (
            *[("greenware", None)] * 4,
            *[("greenware", self.firings[0].day)] * 2,  # out of that bisque, not yet marked bisqued
            *[("bisqued", self.firings[0].day)] * 4,
            ("glazed", self.firings[0].day),
            ("glazed", self.firings[1].day),  # out of that glaze firing, not yet marked finished
            *[("finished", self.firings[1].day)] * 2,
        ):
            code = self._code()
            made = START - dt.timedelta(days=rng.randrange(12, 30))
            self.pieces[code] = Piece(
                code, rng.choice(makers), rng.choice(SHAPES), rng.choice(sorted(self.shelves)), made, state, firing
            )
        self.sessions: list[Session] = []
        for offset in sorted(rng.sample(range(5, 110), 10)):
            self.sessions.append(
                Session(
                    START + dt.timedelta(days=offset),
                    rng.choice(sorted(TECHNIQUE_SAID)),
                    rng.choice(LEADERS),
                    float(rng.choice((28, 32, 35, 40, 45))),
                    rng.choice((6, 8, 10)),
                )
            )
        for session in rng.sample(self.sessions, 5):
            session.booked += rng.sample(sorted(self.makers), rng.randint(1, 2))
        self.reference = self._reference()

    def _new_firing(self, day: dt.date) -> Firing:
        kind = self.rng.choice(("bisque", "bisque", "glaze", "glaze", "raku"))
        low, high = TEMPS[kind]
        return Firing(self.rng.choice(KILNS_FOR[kind]), day, kind, self.rng.randrange(low, high + 1, 10))

    def _code(self) -> str:
        self.next_code += 1
        return f"PC-{self.next_code}"

    # -- reference rows ---------------------------------------------------------------------------

    def _reference(self) -> str:
        def values(rows: list[str]) -> str:
            return ", ".join(rows) + ";"

        kilns = [f"('{code}', {sql_text(nick)}, '{fuel}', {top})" for code, nick, fuel, top in KILNS]
        shelves = [f"('{tag}', '{area}')" for tag, area in self.shelves.items()]
        materials = [
            f"('{code}', {sql_text(name)}, '{measure}', {self.stock[code]}, {money(cost)})"
            for code, name, measure, cost in MATERIALS
        ]
        makers = [
            f"({sql_text(p.name)}, {_value(p.mobile)}, {_value(p.mail)}, '{p.plan}', {sql_date(p.joined)})"
            for p in self.makers.values()
        ]
        firings = [f"('{f.kiln}', {sql_date(f.day)}, '{f.kind}', '{f.progress}', {f.temp})" for f in self.firings]
        pieces = [
            f"('{x.code}', {_maker_id(x.maker)}, '{x.shape}', {_value(x.shelf)}, '{x.state}', "
            + (f"(SELECT firing_id FROM firings WHERE fire_day = {sql_date(x.firing)})" if x.firing else "NULL")
            + f", {sql_date(x.made)})"
            for x in self.pieces.values()
        ]
        sessions = [
            f"({sql_date(s.day)}, '{s.technique}', {sql_text(s.leader)}, {money(s.fee)}, {s.seats})"
            for s in self.sessions
        ]
        places = [
            f"({sql_date(s.day)}, '{s.technique}', {_maker_id(name)}, {sql_date(START - dt.timedelta(days=3))})"
            for s in self.sessions
            for name in s.booked
        ]
        return "\n".join(
            (
                "INSERT INTO kilns (kiln_code, nickname, fuel, max_temp) VALUES " + values(kilns),
                "INSERT INTO ware_shelves (shelf_tag, area) VALUES " + values(shelves),
                "INSERT INTO materials (material_code, material_name, measure, qty_left, cost_per_measure) VALUES "
                + values(materials),
                "INSERT INTO makers (maker_name, mobile, mail_address, plan, joined_day) VALUES " + values(makers),
                "INSERT INTO firings (kiln_code, fire_day, firing_type, progress, peak_temp) VALUES " + values(firings),
                "INSERT INTO pots (pot_code, maker_id, shape, shelf_tag, state, firing_id, made_day) VALUES "
                + values(pieces),
                "INSERT INTO clay_classes (class_day, technique, led_by, fee_each, seats) VALUES " + values(sessions),
                "INSERT INTO class_places (class_day, technique, maker_id, booked_day) VALUES " + values(places),
            )
        )

    # -- the log ----------------------------------------------------------------------------------

    def run(self) -> None:
        rng = self.rng
        left = {kind: count for kind, (count, _) in KINDS.items()}
        turns = Turns(rng)
        misses = 0
        for _ in range(2000):
            if not any(left.values()):
                break
            kinds = [kind for kind, n in left.items() if n]
            kind = rng.choices(kinds, weights=[left[k] for k in kinds])[0]
            draft: Draft | None = getattr(self, kind)()
            if draft is None:  # nothing it could be about today: after a few misses, a day passes
                misses += 1
                if misses == 5:
                    self.day, misses = self.day + dt.timedelta(days=1), 0
                continue
            wording = turns.take(KINDS[kind][1] or kind)
            facts = {"kind": kind, "date": self.day.isoformat(), **draft.facts}
            stated = tuple(dict.fromkeys(draft.stated))
            self.records.append(
                Record(
                    f"r{len(self.records) + 1:02d}",
                    kind,
                    wording,
                    draft.texts[wording],
                    facts,
                    tuple(draft.gold),
                    stated,
                )
            )
            left[kind] -= 1
            self.day += dt.timedelta(days=rng.choice((0, 0, 1, 1, 1, 2)))
        if any(left.values()):
            raise RuntimeError(f"the log could not place {left}")

    # -- how things are said ----------------------------------------------------------------------

    def date(self, day: dt.date) -> str:
        self.forms += 1
        return date_forms(day)[self.forms % 4]

    def count(self, n: int) -> tuple[str, list[str]]:
        """A small number in words or in digits, and what to check the text states."""
        return (in_words(n), []) if n <= 12 and self.rng.random() < 0.4 else (str(n), [str(n)])

    def said(self, code: str, word: str) -> tuple[str, list[str]]:
        """A kiln or a shelf as a user names it: 'KL-2', 'kiln 2' or 'kiln two'."""
        n = number(code)
        forms = [(code, [code]), (f"{word} {n}", [f"{word} {n}"])]
        if n <= 12:
            forms.append((f"{word} {in_words(n)}", []))
        return self.rng.choice(forms)

    def firing_said(self, firing: Firing) -> tuple[str, str, list[str]]:
        """A firing as a phrase ('the glaze firing in kiln 2 on 3 May 2024') and as a short label for a log
        line or a field ('KL-2 glaze firing 2024-05-03'), and what both state."""
        word = self.rng.choice(FIRING_SAID[firing.kind])
        kiln, stated = self.said(firing.kiln, "kiln")
        day = self.date(firing.day)
        return f"the {word} firing in {kiln} on {day}", f"{kiln} {word} firing {day}", [*stated, day]

    def session_said(self, session: Session) -> tuple[str, list[str]]:
        day = self.date(session.day)
        return f"the {self.rng.choice(TECHNIQUE_SAID[session.technique])} class on {day}", [day]

    # -- the state ----------------------------------------------------------------------------------

    def owes(self, name: str) -> float:
        fees = sum(s.fee for s in self.sessions if name in s.booked)
        return fees - sum(amount for _, amount, _ in self.paid.get(name, []))

    def firing_on(self, day: dt.date | None) -> Firing | None:
        return next((f for f in self.firings if f.day == day), None)

    def free_day(self, near: dt.date) -> dt.date:
        taken = {f.day for f in self.firings}
        return next(near + dt.timedelta(days=n) for n in range(60) if near + dt.timedelta(days=n) not in taken)

    def intact(self) -> list[Piece]:
        return [x for x in self.pieces.values() if x.state != "broken"]

    def ahead(self) -> list[Firing]:
        """Firings of the next three weeks not yet fired: pieces go in, the plan can change."""
        soon = self.day + dt.timedelta(days=21)
        return [f for f in self.firings if f.progress in ("planned", "loaded") and self.day < f.day <= soon]

    def open_sessions(self) -> list[Session]:
        return [s for s in self.sessions if s.day > self.day]

    # -- new facts ----------------------------------------------------------------------------------

    def maker_joined(self) -> Draft | None:
        if not self.newcomers:
            return None
        p = self.newcomers.pop(0)
        p.joined = self.day
        self.makers[p.name] = p
        gold = [
            "INSERT INTO makers (maker_name, mobile, mail_address, plan, joined_day) VALUES "
            f"({sql_text(p.name)}, {_value(p.mobile)}, {_value(p.mail)}, '{p.plan}', {sql_date(self.day)})"
        ]
        plan, day = self.rng.choice(PLAN_SAID[p.plan]), self.date(self.day)
        contact = f"mobile {p.mobile}, " + (f"email {p.mail}" if p.mail else "no email")
        texts = {
            "log": f"{day} | joined | {p.name} | {plan} | {contact}",
            "chatty": f"{p.name} joined the studio on {day} on the {plan} plan; {contact}",
            "keyvalue": keyvalue(
                "new maker",
                [("name", p.name), ("plan", plan), ("mobile", p.mobile), ("email", p.mail or "none"), ("joined", day)],
            ),
        }
        facts = {"maker": p.name, "mobile": p.mobile, "mail": p.mail, "plan": p.plan}
        return Draft(facts, gold, texts, [p.name, str(p.mobile), *([p.mail] if p.mail else []), day])

    def piece_made(self) -> Draft | None:
        rng = self.rng
        makers = [name for name in sorted(self.makers) if name != self.never_makes]
        racks = [tag for tag, area in self.shelves.items() if area != "glaze_room"]
        piece = Piece(self._code(), rng.choice(makers), rng.choice(SHAPES), rng.choice(racks), self.day)
        self.pieces[piece.code] = piece
        gold = [
            "INSERT INTO pots (pot_code, maker_id, shape, shelf_tag, made_day) VALUES "
            f"('{piece.code}', {_maker_id(piece.maker)}, '{piece.shape}', '{piece.shelf}', {sql_date(self.day)})"
        ]
        shelf, said = self.said(str(piece.shelf), "shelf")
        day = self.date(self.day)
        verb = MADE_SAID[piece.shape]
        texts = {
            "log": f"{day} | new piece | {piece.code} | {piece.maker} | {piece.shape} | {shelf}",
            "chatty": rng.choice(
                (
                    f"{piece.maker} {verb} a {piece.shape} on {day}, labelled {piece.code}, drying on {shelf}",
                    f"New piece {piece.code}: a {piece.shape} {piece.maker} {verb} on {day}, put on {shelf} to dry",
                )
            ),
            "keyvalue": keyvalue(
                "new piece",
                [
                    ("code", piece.code),
                    ("maker", piece.maker),
                    ("shape", piece.shape),
                    ("shelf", shelf),
                    ("made", day),
                ],
            ),
        }
        facts = {"piece": piece.code, "maker": piece.maker, "shape": piece.shape, "shelf": piece.shelf}
        return Draft(facts, gold, texts, [piece.code, piece.maker, piece.shape, *said, day])

    def firing_booked(self) -> Draft | None:
        rng = self.rng
        firing = self._new_firing(self.free_day(self.day + dt.timedelta(days=rng.randint(2, 9))))
        kind = firing.kind
        self.firings.append(firing)
        gold = [
            "INSERT INTO firings (kiln_code, fire_day, firing_type, peak_temp) VALUES "
            f"('{firing.kiln}', {sql_date(firing.day)}, '{kind}', {firing.temp})"
        ]
        kiln, said = self.said(firing.kiln, "kiln")
        word, day = rng.choice(FIRING_SAID[kind]), self.date(firing.day)
        texts = {
            "log": f"{day} | {kiln} | {word} firing planned | peak {firing.temp}C",
            "chatty": f"Booked {kiln} for a {word} firing on {day}, taking it up to {firing.temp}°C",
            "keyvalue": keyvalue(
                "firing booked",
                [("kiln", kiln), ("type", word), ("day", day), ("peak temperature", f"{firing.temp} C")],
            ),
        }
        facts = {"kiln": firing.kiln, "fire_day": firing.day.isoformat(), "firing_type": kind, "temp": firing.temp}
        return Draft(facts, gold, texts, [*said, day, str(firing.temp)])

    def class_booked(self) -> Draft | None:
        rng = self.rng
        options = [
            (s, name)
            for s in self.open_sessions()
            if len(s.booked) < s.seats
            for name in sorted(self.makers)
            if name not in s.booked
        ]
        if not options:
            return None
        session, name = rng.choice(options)
        session.booked.append(name)
        gold = [
            "INSERT INTO class_places (class_day, technique, maker_id, booked_day) VALUES "
            f"({sql_date(session.day)}, '{session.technique}', {_maker_id(name)}, {sql_date(self.day)})"
        ]
        what, said = self.session_said(session)
        day = self.date(self.day)
        texts = {
            "log": f"{day} | booking | {name} | {what.removeprefix('the ')}",
            "chatty": f"On {day} {name} booked a place on {what}",
            "keyvalue": keyvalue("class booking", [("maker", name), ("class", what), ("booked on", day)]),
        }
        facts = {"maker": name, "class_day": session.day.isoformat(), "technique": session.technique}
        return Draft(facts, gold, texts, [name, *said, day])

    def payment(self) -> Draft | None:
        rng = self.rng
        owing = [name for name in sorted(self.makers) if self.owes(name) > 0]
        if not owing:
            return None
        name = rng.choice(owing)
        due = self.owes(name)
        amount = due if rng.random() < 0.6 or due <= 20 else float(rng.randrange(10, int(due), 5))
        via = rng.choice(sorted(VIA_SAID))
        self.paid.setdefault(name, []).append((self.day, amount, via))
        gold = [
            "INSERT INTO settlements (maker_id, settled_day, sum_paid, paid_via) VALUES "
            f"({_maker_id(name)}, {sql_date(self.day)}, {money(amount)}, '{via}')"
        ]
        how, day = rng.choice(VIA_SAID[via]), self.date(self.day)
        texts = {
            "log": f"{day} | payment | {name} | {money(amount)} | {how}",
            "chatty": f"{name} paid £{money(amount)} {how} on {day}",
            "keyvalue": keyvalue("payment", [("maker", name), ("amount", money(amount)), ("paid", how), ("date", day)]),
        }
        facts = {"maker": name, "amount": amount, "via": via}
        return Draft(facts, gold, texts, [name, money(amount), day])

    def breakage(self) -> Draft | None:
        rng = self.rng
        pieces = [x for x in self.intact() if x.state != "finished"]
        if not pieces:
            return None
        piece = rng.choice(pieces)
        piece.state = "broken"
        firing = self.firing_on(piece.firing)
        in_kiln = firing is not None and firing.progress in ("fired", "unloaded")  # it could blow up or run
        cause = rng.choice(("cracked", "exploded", "glaze_run") if in_kiln else ("cracked", "dropped"))
        gold = [
            f"INSERT INTO breakages (pot_code, found_day, cause) VALUES ('{piece.code}', {sql_date(self.day)}, '{cause}')",
            f"UPDATE pots SET state = 'broken' WHERE pot_code = '{piece.code}'",
        ]
        words, clauses = CAUSE_SAID[cause]
        word, clause, day = rng.choice(words), rng.choice(clauses), self.date(self.day)
        texts = {
            "log": f"{day} | breakage | {piece.code} | {word}",
            "chatty": f"Bad news on {day}: {piece.maker}'s {piece.shape} {piece.code} {clause}",
            "keyvalue": keyvalue("breakage", [("piece", piece.code), ("what happened", word), ("found", day)]),
        }
        return Draft({"piece": piece.code, "cause": cause}, gold, texts, [piece.code, day])

    def kiln_serviced(self) -> Draft | None:
        rng = self.rng
        done = {str(r.facts["kiln"]) for r in self.records if r.kind == "kiln_serviced"}
        kilns = [code for code, *_ in KILNS if code not in done]
        code, job = rng.choice(kilns), rng.choice(sorted(JOB_SAID))
        cost = float(rng.randrange(*JOB_COST[job]))
        gold = [
            "INSERT INTO kiln_services (kiln_code, serviced_day, job, cost) VALUES "
            f"('{code}', {sql_date(self.day)}, '{job}', {money(cost)})"
        ]
        kiln, said = self.said(code, "kiln")
        what, day = rng.choice(JOB_SAID[job]), self.date(self.day)
        texts = {
            "log": f"{day} | maintenance | {kiln} | {what} | {money(cost)}",
            "chatty": f"{_capital(kiln)} had its service on {day}: {what}, which cost £{money(cost)}",
            "keyvalue": keyvalue(
                "kiln maintenance", [("kiln", kiln), ("work", what), ("cost", money(cost)), ("date", day)]
            ),
        }
        return Draft({"kiln": code, "job": job, "cost": cost}, gold, texts, [*said, money(cost), day])

    # -- changes: a value given, or found by a name -------------------------------------------------

    def piece_moved(self) -> Draft | None:
        pieces = [x for x in self.intact() if x.shelf]
        if not pieces:
            return None
        piece = self.rng.choice(pieces)
        piece.shelf = self.rng.choice([tag for tag in self.shelves if tag != piece.shelf])
        gold = [f"UPDATE pots SET shelf_tag = '{piece.shelf}' WHERE pot_code = '{piece.code}'"]
        shelf, said = self.said(piece.shelf, "shelf")
        day = self.date(self.day)
        texts = {
            "log": f"{day} | moved | {piece.code} | to {shelf}",
            "chatty": f"Moved {piece.code} ({piece.maker}'s {piece.shape}) over to {shelf} on {day}",
            "keyvalue": keyvalue("piece moved", [("piece", piece.code), ("new shelf", shelf), ("date", day)]),
        }
        return Draft({"piece": piece.code, "shelf": piece.shelf}, gold, texts, [piece.code, *said, day])

    def piece_loaded(self) -> Draft | None:
        ready = {"bisque": "greenware", "glaze": "glazed", "raku": "glazed"}
        options = [
            (x, f) for f in self.ahead() for x in self.intact() if x.state == ready[f.kind] and x.firing != f.day
        ]
        if not options:
            return None
        piece, firing = self.rng.choice(options)
        piece.firing = firing.day
        gold = [
            "UPDATE pots SET firing_id = (SELECT firing_id FROM firings WHERE "
            f"{_firing_where(firing)}) WHERE pot_code = '{piece.code}'"
        ]
        phrase, label, said = self.firing_said(firing)
        day = self.date(self.day)
        texts = {
            "log": f"{day} | into kiln | {piece.code} | {label}",
            "chatty": f"{piece.code} is going into {phrase} (sorted on {day})",
            "keyvalue": keyvalue("kiln load", [("piece", piece.code), ("firing", label), ("date", day)]),
        }
        return Draft({"piece": piece.code, "fire_day": firing.day.isoformat()}, gold, texts, [piece.code, *said, day])

    def firing_progress(self) -> Draft | None:
        def due(f: Firing) -> bool:
            """Whether the firing's next step falls about today: loaded in the two days before, fired on the day
            or the next three, unloaded one to six days after."""
            if f.progress == "unloaded":
                return False
            first, last = PROGRESS_WHEN[PROGRESS[PROGRESS.index(f.progress) + 1]]
            return f.day + dt.timedelta(days=first) <= self.day <= f.day + dt.timedelta(days=last)

        firings = [f for f in self.firings if due(f)]
        filled = [f for f in firings if any(x.firing == f.day for x in self.pieces.values())]
        if not firings:
            return None
        firing = self.rng.choice(filled or firings)
        firing.progress = PROGRESS[PROGRESS.index(firing.progress) + 1]
        gold = [f"UPDATE firings SET progress = '{firing.progress}' WHERE {_firing_where(firing)}"]
        phrase, label, said = self.firing_said(firing)
        how, day = self.rng.choice(PROGRESS_SAID[firing.progress]), self.date(self.day)
        texts = {
            "log": f"{day} | {label} | {how}",
            "chatty": f"{_capital(phrase)} has been {how} (as of {day})",
            "keyvalue": keyvalue("firing update", [("firing", label), ("now", how), ("date", day)]),
        }
        facts = {"fire_day": firing.day.isoformat(), "progress": firing.progress}
        return Draft(facts, gold, texts, [*said, day])

    def firing_moved(self) -> Draft | None:
        firings = [f for f in self.ahead() if f.progress == "planned"]
        if not firings:
            return None
        firing = self.rng.choice(firings)
        phrase, label, said = self.firing_said(firing)
        others = [k for k in KILNS_FOR[firing.kind] if k != firing.kiln]
        if others and self.rng.random() < 0.5:
            firing.kiln = self.rng.choice(others)
            gold = [f"UPDATE firings SET kiln_code = '{firing.kiln}' WHERE {_firing_where(firing)}"]
            kiln, to_said = self.said(firing.kiln, "kiln")
            to, facts = f"into {kiln}", {"kiln": firing.kiln}
        else:
            old = firing.day
            firing.day = self.free_day(firing.day + dt.timedelta(days=self.rng.randint(1, 4)))
            gold = [f"UPDATE firings SET fire_day = {sql_date(firing.day)} WHERE fire_day = {sql_date(old)}"]
            to = self.date(firing.day)
            to_said, facts = [to], {"from_day": old.isoformat(), "fire_day": firing.day.isoformat()}
            to = f"to {to}"
        texts = {
            "log": f"{label} | moved {to}",
            "chatty": f"We've had to move {phrase} {to}",
            "keyvalue": keyvalue("firing change", [("firing", label), ("moved", to)]),
        }
        return Draft(facts, gold, texts, [*said, *to_said])

    def piece_stage(self) -> Draft | None:
        def next_stage(x: Piece) -> str:
            """Glazing needs no firing; the stage a firing gives comes once the firing is unloaded."""
            if x.state == "bisqued":
                return "glazed"
            fired = self.firing_on(x.firing)
            if fired is None or fired.progress != "unloaded":
                return ""
            if x.state == "greenware" and fired.kind == "bisque":
                return "bisqued"
            return "finished" if x.state == "glazed" and fired.kind != "bisque" else ""

        pieces = [x for x in self.intact() if next_stage(x)]
        if not pieces:
            return None
        piece = self.rng.choice(pieces)
        piece.state = next_stage(piece)
        gold = [f"UPDATE pots SET state = '{piece.state}' WHERE pot_code = '{piece.code}'"]
        how, day = self.rng.choice(STAGE_SAID[piece.state]), self.date(self.day)
        texts = {
            "log": f"{day} | {piece.code} | {how}",
            "chatty": f"{piece.code} ({piece.maker}'s {piece.shape}) is {how} as of {day}",
            "keyvalue": keyvalue("piece update", [("piece", piece.code), ("stage", how), ("date", day)]),
        }
        return Draft({"piece": piece.code, "state": piece.state}, gold, texts, [piece.code, day])

    def plan_changed(self) -> Draft | None:
        name = self.rng.choice(sorted(self.makers))
        maker = self.makers[name]
        old = maker.plan
        maker.plan = self.rng.choice([plan for plan in PLAN_SAID if plan != old])
        gold = [f"UPDATE makers SET plan = '{maker.plan}' WHERE maker_name = {sql_text(name)}"]
        before, after = self.rng.choice(PLAN_SAID[old]), self.rng.choice(PLAN_SAID[maker.plan])
        day = self.date(self.day)
        texts = {
            "log": f"{day} | plan change | {name} | {before} -> {after}",
            "chatty": f"{name} is switching from {before} to the {after} plan from {day}",
            "keyvalue": keyvalue(
                "plan change", [("maker", name), ("old plan", before), ("new plan", after), ("from", day)]
            ),
        }
        return Draft({"maker": name, "plan": maker.plan}, gold, texts, [name, day])

    # -- changes: a value erased --------------------------------------------------------------------

    def contact_dropped(self) -> Draft | None:
        dropped = sum(r.kind == "contact_dropped" for r in self.records)
        column, what = ("mobile", "mobile number") if dropped == 1 else ("mail_address", "email address")
        names = [n for n, p in sorted(self.makers.items()) if (p.mobile if column == "mobile" else p.mail)]
        if not names:
            return None
        name = self.rng.choice(names)
        if column == "mobile":
            self.makers[name].mobile = None
        else:
            self.makers[name].mail = None
        gold = [f"UPDATE makers SET {column} = NULL WHERE maker_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {name} | {what} no longer valid, remove it",
            "chatty": f"{name} asked on {day} for their {what} to be taken off our records",
            "keyvalue": keyvalue(
                "contact change", [("maker", name), (what, "none, delete the old one"), ("date", day)]
            ),
        }
        return Draft({"maker": name, column: None}, gold, texts, [name, day])

    def piece_off_shelf(self) -> Draft | None:
        pieces = [x for x in self.intact() if x.shelf and (x.state == "finished" or x.firing)]
        if not pieces:
            return None
        piece = self.rng.choice(pieces)
        piece.shelf = None
        gold = [f"UPDATE pots SET shelf_tag = NULL WHERE pot_code = '{piece.code}'"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | off shelf | {piece.code} | taken home by {piece.maker}",
            "chatty": f"{piece.maker} took {piece.code} home on {day}, so it's not on any shelf now",
            "keyvalue": keyvalue(
                "piece moved", [("piece", piece.code), ("shelf", f"none, {piece.maker} took it home"), ("date", day)]
            ),
        }
        return Draft({"piece": piece.code, "shelf": None}, gold, texts, [piece.code, piece.maker, day])

    # -- changes: a value read from another row of the same table -----------------------------------

    def piece_same_shelf(self) -> Draft | None:
        pieces = [x for x in self.intact() if x.shelf]
        pairs = [(a, b) for a in pieces for b in pieces if a.shelf != b.shelf]
        if not pairs:
            return None
        piece, other = self.rng.choice(pairs)
        piece.shelf = other.shelf
        gold = [
            f"UPDATE pots SET shelf_tag = (SELECT shelf_tag FROM pots WHERE pot_code = '{other.code}') "
            f"WHERE pot_code = '{piece.code}'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | moved | {piece.code} | to the same shelf as {other.code}",
            "chatty": f"Put {piece.code} on the same shelf as {other.code} on {day}, they belong together",
            "keyvalue": keyvalue(
                "piece moved", [("piece", piece.code), ("new shelf", f"same as {other.code}"), ("date", day)]
            ),
        }
        facts = {"piece": piece.code, "same_shelf_as": other.code, "shelf": piece.shelf}
        return Draft(facts, gold, texts, [piece.code, other.code, day])

    def mobile_shared(self) -> Draft | None:
        people = sorted(self.makers.values(), key=lambda p: p.name)
        pairs = [(a, b) for a in people for b in people if b.mobile and a.mobile != b.mobile]
        if not pairs:
            return None
        maker, partner = self.rng.choice(pairs)
        maker.mobile = partner.mobile
        gold = [
            f"UPDATE makers SET mobile = (SELECT mobile FROM makers WHERE maker_name = {sql_text(partner.name)}) "
            f"WHERE maker_name = {sql_text(maker.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {maker.name} | mobile: same as {partner.name}'s",
            "chatty": f"{maker.name} says to use {partner.name}'s mobile from now on, they share a phone ({day})",
            "keyvalue": keyvalue(
                "contact change", [("maker", maker.name), ("mobile", f"same as {partner.name}"), ("date", day)]
            ),
        }
        facts = {"maker": maker.name, "same_mobile_as": partner.name, "mobile": partner.mobile}
        return Draft(facts, gold, texts, [maker.name, partner.name, day])

    def firing_same_temp(self) -> Draft | None:
        pairs = [
            (a, b)
            for a in self.ahead()
            for b in self.firings
            if b.kind == a.kind and b.temp != a.temp and b.day != a.day
        ]
        if not pairs:
            return None
        firing, other = self.rng.choice(pairs)
        firing.temp = other.temp
        gold = [
            f"UPDATE firings SET peak_temp = (SELECT peak_temp FROM firings WHERE {_firing_where(other)}) "
            f"WHERE {_firing_where(firing)}"
        ]
        phrase, label, said = self.firing_said(firing)
        other_phrase, other_label, other_said = self.firing_said(other)
        texts = {
            "log": f"{label} | peak temperature same as {other_label}",
            "chatty": f"Take {phrase} to the same top temperature as {other_phrase}",
            "keyvalue": keyvalue("firing change", [("firing", label), ("peak temperature", f"same as {other_label}")]),
        }
        facts = {"fire_day": firing.day.isoformat(), "same_temp_as": other.day.isoformat(), "temp": firing.temp}
        return Draft(facts, gold, texts, [*said, *other_said])

    # -- changes: a number raised or lowered ----------------------------------------------------------

    def _stock_change(self, more: bool) -> Draft | None:
        rng = self.rng
        code, name, measure, _ = rng.choice([m for m in MATERIALS if more or self.stock[m[0]] >= 3])
        n = rng.randint(2, 10) if more else rng.randint(1, min(6, self.stock[code]))
        self.stock[code] += n if more else -n
        gold = [f"UPDATE materials SET qty_left = qty_left {'+' if more else '-'} {n} WHERE material_code = '{code}'"]
        amount, said = self.count(n)
        unit = MEASURE_SAID[measure][n != 1]
        day = self.date(self.day)
        if more:
            texts = {
                "log": f"{day} | delivery | {name} | +{amount} {unit}",
                "chatty": f"{_capital(amount)} more {unit} of {name} came in on {day}",
                "keyvalue": keyvalue("delivery", [("material", name), (unit, amount), ("date", day)]),
            }
        else:
            texts = {
                "log": f"{day} | used | {name} | {amount} {unit}",
                "chatty": f"We used up {amount} {unit} of {name} on {day}",
                "keyvalue": keyvalue("stock used", [("material", name), (unit, amount), ("date", day)]),
            }
        facts = {"material": code, "change": n if more else -n, "qty_left": self.stock[code]}
        return Draft(facts, gold, texts, [name, *said, day])

    def stock_delivered(self) -> Draft | None:
        return self._stock_change(more=True)

    def stock_used(self) -> Draft | None:
        return self._stock_change(more=False)

    def temp_shift(self) -> Draft | None:
        firings = self.ahead()
        if not firings:
            return None
        firing = self.rng.choice(firings)
        step = self.rng.choice((10, 20, 30, -10, -20))
        firing.temp += step
        gold = [
            f"UPDATE firings SET peak_temp = peak_temp {'+' if step > 0 else '-'} {abs(step)} WHERE {_firing_where(firing)}"
        ]
        phrase, label, said = self.firing_said(firing)
        way = "up" if step > 0 else "down"
        texts = {
            "log": f"{label} | peak temperature {way} {abs(step)} degrees",
            "chatty": f"Turn {phrase} {way} by {abs(step)} degrees at the top",
            "keyvalue": keyvalue(
                "firing change", [("firing", label), ("peak temperature", f"{way} {abs(step)} degrees")]
            ),
        }
        facts = {"fire_day": firing.day.isoformat(), "change": step, "temp": firing.temp}
        return Draft(facts, gold, texts, [*said, str(abs(step))])

    def seats_added(self) -> Draft | None:
        sessions = self.open_sessions()
        if not sessions:
            return None
        session = self.rng.choice(sessions)
        n = self.rng.randint(1, 3)
        session.seats += n
        gold = [f"UPDATE clay_classes SET seats = seats + {n} WHERE {_session_where(session)}"]
        what, said = self.session_said(session)
        amount, n_said = self.count(n)
        more = "place" if n == 1 else "places"
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {what.removeprefix('the ')} | {amount} more {more}",
            "chatty": f"{session.leader} can take {amount} more {more} on {what} (agreed {day})",
            "keyvalue": keyvalue("class change", [("class", what), ("extra places", amount), ("date", day)]),
        }
        facts = {"class_day": session.day.isoformat(), "technique": session.technique, "seats": session.seats}
        return Draft(facts, gold, texts, [*said, *n_said, day])

    # -- changes: a row removed -------------------------------------------------------------------------

    def place_cancelled(self) -> Draft | None:
        options = [(s, name) for s in self.open_sessions() for name in s.booked]
        unpaid = [(s, name) for s, name in options if self.owes(name) >= s.fee]  # rather than leave a credit
        if not options:
            return None
        session, name = self.rng.choice(unpaid or options)
        session.booked.remove(name)
        gold = [f"DELETE FROM class_places WHERE {_session_where(session)} AND maker_id = {_maker_id(name)}"]
        what, said = self.session_said(session)
        day = self.date(self.day)
        texts = {
            "log": f"{day} | cancelled | {name} | {what.removeprefix('the ')}",
            "chatty": f"{name} can't make {what} after all, please cancel their place (told us {day})",
            "keyvalue": keyvalue("cancellation", [("maker", name), ("class", what), ("date", day)]),
        }
        facts = {"maker": name, "class_day": session.day.isoformat(), "technique": session.technique}
        return Draft(facts, gold, texts, [name, *said, day])

    # -- questions ----------------------------------------------------------------------------------

    def questions(self) -> list[Question]:
        rng = self.rng
        shelved = [x for x in self.intact() if x.shelf]
        phoned = [p for p in self.makers.values() if p.mobile]
        fired = self.firings
        booked = [s for s in self.sessions if s.booked]
        payers = sorted(self.paid)
        made = sorted(x.made for x in self.pieces.values() if x.made >= START)
        plan = rng.choice(sorted({p.plan for p in self.makers.values()}))
        months = sorted({d.replace(day=1) for entries in self.paid.values() for d, _, _ in entries})

        piece, where = rng.choice(self.intact()), rng.choice(shelved)
        maker, debtor, payer = rng.choice(phoned), rng.choice(sorted(self.makers)), rng.choice(payers)
        firing, placed = rng.choice(fired), rng.choice(fired)
        session, roomy = rng.choice(booked), rng.choice(self.sessions)
        first = rng.choice(sorted(f.day for f in fired))
        span = (first - dt.timedelta(days=rng.randint(0, 3)), first + dt.timedelta(days=rng.randint(6, 14)))
        made_on = rng.choice(made)
        made_span = (made_on - dt.timedelta(days=rng.randint(1, 4)), made_on + dt.timedelta(days=rng.randint(3, 8)))
        month = rng.choice(months)
        after = (month + dt.timedelta(days=32)).replace(day=1)
        form = rng.choice((1, 2))

        def said(f: Firing) -> str:
            return f"the {FIRING_SAID[f.kind][0]} firing on {date_forms(f.day)[form]}"

        def cls(s: Session) -> str:
            return f"the {TECHNIQUE_SAID[s.technique][0]} class on {date_forms(s.day)[form]}"

        def between(a: dt.date, b: dt.date) -> str:
            return f"between {date_forms(a)[form]} and {date_forms(b)[form]}"

        places = "FROM class_places b JOIN makers p ON p.maker_id = b.maker_id"
        paid = "FROM settlements s JOIN makers p ON p.maker_id = s.maker_id"
        rows = [
            ("count", "How many pieces are still greenware?", "SELECT count(*) FROM pots WHERE state = 'greenware'"),
            ("count", "How many firings are still only planned?", "SELECT count(*) FROM firings WHERE progress = 'planned'"),
            ("count", "How many makers are studio residents?", "SELECT count(*) FROM makers WHERE plan = 'resident'"),
            ("count", f"How many people are booked on {cls(session)}?",
             f"SELECT count(*) FROM class_places WHERE {_session_where(session)}"),
            ("count", "How many pieces have been broken?", "SELECT count(*) FROM pots WHERE state = 'broken'"),
            ("sum", "How much have makers paid us altogether?", "SELECT sum(sum_paid) FROM settlements"),
            ("sum", "How many litres of glaze do we have left in total?",
             "SELECT sum(qty_left) FROM materials WHERE measure = 'litre'"),
            ("sum", "What is our clay and glaze stock worth at cost?",
             "SELECT sum(qty_left * cost_per_measure) FROM materials"),
            ("sum", f"How much has {payer} paid in total?",
             f"SELECT sum(s.sum_paid) {paid} WHERE p.maker_name = {sql_text(payer)}"),
            ("lookup", f"Which shelf is {where.code} on?", f"SELECT shelf_tag FROM pots WHERE pot_code = '{where.code}'"),
            ("lookup", f"What mobile number do we have for {maker.name}?",
             f"SELECT mobile FROM makers WHERE maker_name = {sql_text(maker.name)}"),
            ("lookup", f"What is the peak temperature of {said(firing)}?",
             f"SELECT peak_temp FROM firings WHERE {_firing_where(firing)}"),
            ("lookup", f"What stage is {piece.code} at?", f"SELECT state FROM pots WHERE pot_code = '{piece.code}'"),
            ("lookup", f"Which kiln is {said(placed)} in?", f"SELECT kiln_code FROM firings WHERE {_firing_where(placed)}"),
            ("grouped", "How many pieces are at each stage?",
             "SELECT state, count(*) FROM pots GROUP BY state ORDER BY state"),
            ("grouped", "How many firings of each type are there?",
             "SELECT firing_type, count(*) FROM firings GROUP BY firing_type ORDER BY firing_type"),
            ("grouped", "How much has been paid each way (card, cash, bank transfer)?",
             "SELECT paid_via, sum(sum_paid) FROM settlements GROUP BY paid_via ORDER BY paid_via"),
            ("grouped", "How many class bookings are there for each technique?",
             "SELECT technique, count(*) FROM class_places GROUP BY technique ORDER BY technique"),
            ("grouped", "How many pieces is each shelf holding?",
             "SELECT shelf_tag, count(*) FROM pots WHERE shelf_tag IS NOT NULL GROUP BY shelf_tag ORDER BY shelf_tag"),
            ("top", "Which three makers have made the most pieces, and how many each?",
             "SELECT p.maker_name, count(*) AS made FROM pots x JOIN makers p ON p.maker_id = x.maker_id "
             "GROUP BY p.maker_name ORDER BY made DESC, p.maker_name LIMIT 3"),
            ("top", "Which clay do we have the most bags of?",
             "SELECT material_name, qty_left FROM materials WHERE measure = 'bag' "
             "ORDER BY qty_left DESC, material_name LIMIT 1"),
            ("top", "Which class has the most people booked on it?",
             "SELECT class_day, technique, count(*) AS booked FROM class_places GROUP BY class_day, technique "
             "ORDER BY booked DESC, class_day LIMIT 1"),
            ("top", "What were the three largest payments, and who made them?",
             f"SELECT p.maker_name, s.sum_paid, s.settled_day {paid} ORDER BY s.sum_paid DESC, s.settled_day LIMIT 3"),
            ("range", f"Which firings are on {between(*span)}?",
             f"SELECT kiln_code, fire_day, firing_type FROM firings WHERE fire_day BETWEEN {sql_date(span[0])} "
             f"AND {sql_date(span[1])} ORDER BY fire_day"),
            ("range", f"How much was paid in {month.strftime('%B %Y')}?",
             f"SELECT sum(sum_paid) FROM settlements WHERE settled_day >= {sql_date(month)} "
             f"AND settled_day < {sql_date(after)}"),
            ("range", f"Which pieces were made {between(*made_span)}?",
             f"SELECT pot_code FROM pots WHERE made_day BETWEEN {sql_date(made_span[0])} AND {sql_date(made_span[1])} "
             "ORDER BY pot_code"),
            ("derived", f"How much does {debtor} owe the studio?",
             f"SELECT owes FROM makers WHERE maker_name = {sql_text(debtor)}"),
            ("derived", "How much do all the makers owe between them?", "SELECT sum(owes) FROM makers"),
            ("derived", "Who owes the studio the most, and how much?",
             "SELECT maker_name, owes FROM makers ORDER BY owes DESC, maker_name LIMIT 1"),
            ("derived", f"How many places are still free on {cls(roomy)}?",
             f"SELECT c.seats - (SELECT count(*) FROM class_places b WHERE b.class_day = c.class_day "
             f"AND b.technique = c.technique) FROM clay_classes c WHERE {_session_where(roomy, 'c')}"),
            ("none", "Which makers have never made a piece?",
             "SELECT maker_name FROM makers WHERE maker_id NOT IN (SELECT maker_id FROM pots) ORDER BY maker_name"),
            ("none", "Which kilns have never had any maintenance?",
             "SELECT kiln_code FROM kilns WHERE kiln_code NOT IN (SELECT kiln_code FROM kiln_services) ORDER BY kiln_code"),
            ("none", "Which makers have no email address on file?",
             "SELECT maker_name FROM makers WHERE mail_address IS NULL ORDER BY maker_name"),
            ("average", "What is the average peak temperature of the glaze firings?",
             "SELECT avg(peak_temp) FROM firings WHERE firing_type = 'glaze'"),
            ("average", "What is the average payment?", "SELECT avg(sum_paid) FROM settlements"),
            ("average", "What is the average fee for a class?", "SELECT avg(fee_each) FROM clay_classes"),
            ("category", "How many raku firings are there?", "SELECT count(*) FROM firings WHERE firing_type = 'raku'"),
            ("category", f"Which makers are on the {PLAN_SAID[plan][-1]} plan?",
             f"SELECT maker_name FROM makers WHERE plan = '{plan}' ORDER BY maker_name"),
            ("category", f"Who is booked on {cls(session)}?",
             f"SELECT p.maker_name {places} WHERE {_session_where(session, 'b')} "
             "ORDER BY p.maker_name"),
        ]  # fmt: skip
        return [Question(f"q{i:02d}", text, gold, family) for i, (family, text, gold) in enumerate(rows, 1)]


def build(seed: int = 0) -> Trade:
    """The pottery-studio trade generated from `seed`."""
    studio = Studio(seed)
    studio.run()
    return Trade(
        name="pottery",
        description="A pottery studio: makers' pieces on shelves, bisque, glaze and raku firings in four kilns, "
        "clay and glaze stock, classes and payments.",
        schema=SCHEMA,
        reference=studio.reference,
        rules=(OWES,),
        records=tuple(studio.records),
        questions=tuple(studio.questions()),
        snapshot=dict(SNAPSHOT),
        checks=dict(CHECKS),
    )
