"""The music school: pupils learn instruments from tutors in practice rooms, sit graded exams and pay term fees.

Pupils hold enrolments (pupil, instrument, tutor, room, weekday, minutes); each lesson held is a row with its
attendance; exams are graded 1-8 with a mark out of 150 and a result; fees are billed per instrument and term
and paid by the family. Two derived columns: a pupil's fees_owed (fees billed minus payments) and an
enrolment's lessons_attended (its lessons marked present). Lessons and fees are keyed by pupil and instrument,
not by enrolment id: DuckDB refuses to update an indexed column (tutor_id, room_code) of a row another table
references, and moving a pupil to another tutor or room is a record here.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
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
CREATE SEQUENCE tutor_seq START 1;
CREATE SEQUENCE instrument_seq START 1;
CREATE SEQUENCE pupil_seq START 1;
CREATE SEQUENCE enrolment_seq START 1;
CREATE SEQUENCE exam_seq START 1;
CREATE SEQUENCE payment_seq START 1;

CREATE TABLE tutors (
    tutor_id INTEGER PRIMARY KEY DEFAULT nextval('tutor_seq'),
    name VARCHAR NOT NULL UNIQUE,
    phone VARCHAR,
    email VARCHAR
);

CREATE TABLE instruments (
    instrument_id INTEGER PRIMARY KEY DEFAULT nextval('instrument_seq'),
    name VARCHAR NOT NULL UNIQUE,
    family VARCHAR NOT NULL CHECK (family IN ('strings', 'keys', 'winds', 'percussion'))
);

CREATE TABLE rooms (
    room_code VARCHAR PRIMARY KEY,
    floor INTEGER NOT NULL,
    has_piano BOOLEAN NOT NULL,
    soundproofed BOOLEAN NOT NULL DEFAULT false
);

CREATE TABLE pupils (
    pupil_id INTEGER PRIMARY KEY DEFAULT nextval('pupil_seq'),
    name VARCHAR NOT NULL UNIQUE,
    guardian VARCHAR,
    phone VARCHAR,
    email VARCHAR,
    joined_on DATE NOT NULL,
    fees_owed DECIMAL(8, 2) NOT NULL DEFAULT 0
);

CREATE TABLE enrolments (
    enrolment_id INTEGER PRIMARY KEY DEFAULT nextval('enrolment_seq'),
    pupil_id INTEGER NOT NULL REFERENCES pupils (pupil_id),
    instrument_id INTEGER NOT NULL REFERENCES instruments (instrument_id),
    tutor_id INTEGER NOT NULL REFERENCES tutors (tutor_id),
    room_code VARCHAR REFERENCES rooms (room_code),
    weekday VARCHAR NOT NULL CHECK (weekday IN ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday')),
    minutes INTEGER NOT NULL CHECK (minutes IN (30, 45, 60)),
    started_on DATE NOT NULL,
    ended_on DATE,
    lessons_attended INTEGER NOT NULL DEFAULT 0,
    UNIQUE (pupil_id, instrument_id)
);

CREATE TABLE lessons (
    pupil_id INTEGER NOT NULL REFERENCES pupils (pupil_id),
    instrument_id INTEGER NOT NULL REFERENCES instruments (instrument_id),
    held_on DATE NOT NULL,
    attendance VARCHAR NOT NULL CHECK (attendance IN ('present', 'absent', 'excused')),
    note VARCHAR,
    PRIMARY KEY (pupil_id, instrument_id, held_on)
);

CREATE TABLE exams (
    exam_id INTEGER PRIMARY KEY DEFAULT nextval('exam_seq'),
    pupil_id INTEGER NOT NULL REFERENCES pupils (pupil_id),
    instrument_id INTEGER NOT NULL REFERENCES instruments (instrument_id),
    grade INTEGER NOT NULL CHECK (grade BETWEEN 1 AND 8),
    sat_on DATE NOT NULL,
    mark INTEGER CHECK (mark BETWEEN 0 AND 150),
    result VARCHAR NOT NULL CHECK (result IN ('pass', 'merit', 'distinction', 'fail'))
);

CREATE TABLE fees (
    pupil_id INTEGER NOT NULL REFERENCES pupils (pupil_id),
    instrument_id INTEGER NOT NULL REFERENCES instruments (instrument_id),
    term VARCHAR NOT NULL CHECK (term IN ('spring', 'summer', 'autumn')),
    amount DECIMAL(8, 2) NOT NULL CHECK (amount > 0),
    billed_on DATE NOT NULL,
    PRIMARY KEY (pupil_id, instrument_id, term)
);

CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY DEFAULT nextval('payment_seq'),
    pupil_id INTEGER NOT NULL REFERENCES pupils (pupil_id),
    paid_on DATE NOT NULL,
    amount DECIMAL(8, 2) NOT NULL CHECK (amount > 0),
    method VARCHAR NOT NULL CHECK (method IN ('card', 'cash', 'transfer', 'cheque'))
);

CREATE TABLE showcase_entries (
    pupil_id INTEGER NOT NULL REFERENCES pupils (pupil_id),
    instrument_id INTEGER NOT NULL REFERENCES instruments (instrument_id),
    showcase_on DATE NOT NULL,
    piece VARCHAR NOT NULL,
    hall VARCHAR NOT NULL CHECK (hall IN ('main hall', 'chapel', 'studio')),
    PRIMARY KEY (pupil_id, instrument_id, showcase_on)
);
"""

RULES = (
    Rule(
        "fees_owed",
        "A pupil's fees_owed is the term fees billed for their enrolments minus everything paid for them.",
        "UPDATE pupils SET fees_owed = "
        "coalesce((SELECT sum(f.amount) FROM fees f JOIN enrolments e "
        "ON e.pupil_id = f.pupil_id AND e.instrument_id = f.instrument_id WHERE e.pupil_id = pupils.pupil_id), 0) - "
        "coalesce((SELECT sum(p.amount) FROM payments p WHERE p.pupil_id = pupils.pupil_id), 0)",
    ),
    Rule(
        "lessons_attended",
        "An enrolment's lessons_attended is how many of that pupil's lessons on that instrument were marked present.",
        "UPDATE enrolments SET lessons_attended = coalesce(("
        "SELECT count(*) FROM lessons l WHERE l.pupil_id = enrolments.pupil_id "
        "AND l.instrument_id = enrolments.instrument_id AND l.attendance = 'present'), 0)",
    ),
)

SNAPSHOT = {
    "tutors": "SELECT name, phone, email FROM tutors",
    "pupils": "SELECT name, guardian, phone, email, joined_on, fees_owed FROM pupils",
    "enrolments": (
        "SELECT p.name, i.name, t.name, e.room_code, e.weekday, e.minutes, e.started_on, e.ended_on, e.lessons_attended "
        "FROM enrolments e JOIN pupils p USING (pupil_id) JOIN instruments i USING (instrument_id) "
        "JOIN tutors t USING (tutor_id)"
    ),
    "lessons": (
        "SELECT p.name, i.name, l.held_on, l.attendance "
        "FROM lessons l JOIN pupils p USING (pupil_id) JOIN instruments i USING (instrument_id)"
    ),
    "exams": (
        "SELECT p.name, i.name, x.grade, x.sat_on, x.mark, x.result "
        "FROM exams x JOIN pupils p USING (pupil_id) JOIN instruments i USING (instrument_id)"
    ),
    "fees": (
        "SELECT p.name, i.name, f.term, f.amount, f.billed_on "
        "FROM fees f JOIN pupils p USING (pupil_id) JOIN instruments i USING (instrument_id)"
    ),
    "payments": "SELECT p.name, y.paid_on, y.amount, y.method FROM payments y JOIN pupils p USING (pupil_id)",
    "showcase_entries": (
        "SELECT p.name, i.name, s.showcase_on, s.piece, s.hall "
        "FROM showcase_entries s JOIN pupils p USING (pupil_id) JOIN instruments i USING (instrument_id)"
    ),
}

CHECKS = {
    "fees owed per pupil": "SELECT name, fees_owed FROM pupils",
    "lessons attended per enrolment": (
        "SELECT p.name, i.name, e.lessons_attended FROM enrolments e "
        "JOIN pupils p USING (pupil_id) JOIN instruments i USING (instrument_id)"
    ),
    "timetable of active enrolments": (
        "SELECT p.name, i.name, t.name, e.room_code, e.weekday, e.minutes FROM enrolments e "
        "JOIN pupils p USING (pupil_id) JOIN instruments i USING (instrument_id) JOIN tutors t USING (tutor_id) "
        "WHERE e.ended_on IS NULL"
    ),
    "lessons per attendance": "SELECT attendance, count(*) FROM lessons GROUP BY attendance",
    "exam results": "SELECT result, count(*), max(grade) FROM exams GROUP BY result",
    "payments per method": "SELECT method, count(*), sum(amount) FROM payments GROUP BY method",
}

INSTRUMENTS = (
    ("piano", "keys"),
    ("violin", "strings"),
    ("viola", "strings"),
    ("cello", "strings"),
    ("guitar", "strings"),
    ("flute", "winds"),
    ("clarinet", "winds"),
    ("saxophone", "winds"),
    ("trumpet", "winds"),
    ("drums", "percussion"),
)
FAMILY = dict(INSTRUMENTS)
ROOMS = (  # code, floor, has_piano, soundproofed
    ("P1", 0, True, False),
    ("P2", 0, True, False),
    ("P3", 1, False, False),
    ("P4", 1, True, False),
    ("P5", -1, False, True),
    ("P6", 1, False, False),
)
PIANO_ROOMS = ("P1", "P2", "P4")
TUTOR_ROLES = (  # who could fill a role, and what the role teaches
    (("Helen Ashby", "Ruth Adeyemi", "Greta Lind"), ("piano",)),
    (("Marek Novotny", "Paul Whitfield", "Anton Berg"), ("piano",)),
    (("Olga Petrova", "Ines Moreau", "Yara Costa"), ("violin", "viola", "cello")),
    (("Sam Okafor", "Dan Keegan", "Luca Ferri"), ("guitar", "cello", "violin")),
    (("Claire Dubois", "Priya Nair", "Beth Morgan"), ("flute", "clarinet", "saxophone", "trumpet")),
    (("Dev Patel", "Jonah Fisher", "Kit Harper"), ("drums",)),
)
FIRST_NAMES = (
    "Mia", "Leo", "Ava", "Noah", "Isla", "Arjun", "Zara", "Finn", "Maya", "Oscar", "Lena", "Kofi",
    "Ruby", "Theo", "Amara", "Jonas", "Chloe", "Mateo", "Hana", "Ezra", "Nina", "Felix", "Elsie", "Sami",
)  # fmt: skip
SURNAMES = (
    "Novak", "Ruiz", "Carter", "Osei", "Lindqvist", "Moreno", "Kaur", "Byrne", "Tanaka", "Fraser",
    "Haddad", "Kowalski", "Mensah", "Doyle", "Varga", "Quinn", "Abbott", "Sato", "Nilsen", "Duarte",
)  # fmt: skip
MUMS = ("Jana", "Sofia", "Grace", "Aisha", "Marta", "Yuki", "Leila", "Fiona", "Rosa", "Eun")
DADS = ("Pavel", "David", "Kwame", "Luis", "Tomasz", "Ian", "Omar", "Raj", "Sean", "Bruno")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday")
FEE = {30: 150, 45: 210, 60: 270}  # a full term, before the seed's adjustment
REASONS = ("ill", "school trip", "family holiday", "dentist appointment", "exam at school")

ATTENDANCE_WORDS = {
    "present": ("present", "attended", "came", "was there"),
    "absent": ("no-show", "didn't turn up", "absent, no word", "missed it"),
    "excused": ("excused", "called in advance", "cancelled with notice"),
}
RESULT_WORDS = {
    "pass": ("pass", "passed"),
    "merit": ("merit", "passed with merit"),
    "distinction": ("distinction", "passed with distinction"),
    "fail": ("fail", "failed", "did not pass"),
}
METHOD_WORDS = {  # as a log line or a value says it, and as a sentence does
    "card": (("card", "debit card", "credit card", "contactless"), ("by card", "by debit card", "on a credit card")),
    "cash": (("cash", "cash at the desk"), ("in cash", "in cash at the desk")),
    "transfer": (("bank transfer", "BACS", "online transfer"), ("by bank transfer", "by BACS transfer")),
    "cheque": (("cheque", "by cheque"), ("by cheque", "with a cheque")),
}
PIECES = {
    "keys": ("Harbour Lights Waltz", "Little Clockwork March", "Foxglove Lullaby"),
    "strings": ("Rain on the Lake", "The Copper Kettle Reel", "Evening Bells"),
    "winds": ("Skylark Air", "Lantern Procession", "The Ferryman's Song"),
    "percussion": ("Rolling Thunder Groove", "Tin Roof Shuffle"),
}
HALL_SAID = {"main hall": ("main hall", "big hall"), "chapel": ("chapel",), "studio": ("studio", "recording studio")}
FEE_REASONS = {  # why a billed fee goes up or down by a stated amount
    "up": ("exam entry", "extra lesson", "accompanist"),
    "down": ("a lesson we cancelled", "the lesson lost to the bank holiday", "the tutor's sick day"),
}
# (kind, variant) -> the class whose records take the wordings in turn (`Turns`): each in every wording
TURNS = {
    ("room_change", "online"): "clear",
    ("contact", "clear_email"): "clear",
    ("contact", "clear_phone"): "clear",
    ("room_change", "copy"): "copy",
    ("weekday_change", "copy"): "copy",
    ("fee_change", "up"): "fee_change",
    ("fee_change", "down"): "fee_change",
    ("showcase", ""): "showcase",
}
MARK_RANGES = {"fail": (78, 99), "pass": (100, 119), "merit": (120, 129), "distinction": (130, 146)}


@dataclass
class Pupil:
    name: str
    guardian: str
    guardian_is_mum: bool
    phone: str | None
    email: str | None
    joined: dt.date

    @property
    def first(self) -> str:
        return self.name.split()[0]

    @property
    def parent(self) -> str:
        return "mum" if self.guardian_is_mum else "dad"


@dataclass
class Slot:
    """An enrolment as the generator tracks it."""

    pupil: str
    instrument: str
    tutor: str
    room: str | None
    weekday: str
    minutes: int
    started: dt.date
    ended: dt.date | None = None
    lessons: dict[dt.date, str] = field(default_factory=dict)
    fees: dict[str, float] = field(default_factory=dict)
    grade: int = 0  # the highest grade passed so far

    def active(self, day: dt.date) -> bool:
        return self.ended is None and self.started <= day


@dataclass
class Written:
    """A record's text in one wording and the values it states."""

    text: str
    stated: list[str]


Made = tuple[dict[str, object], list[str], dict[str, Written]] | None  # a record's facts, gold and texts; None: not now


def _date(day: dt.date) -> str:
    return sql_date(day)


def _pupil(name: str) -> str:
    return lookup("pupils", "pupil_id", "name", name)


def _instrument(name: str) -> str:
    return lookup("instruments", "instrument_id", "name", name)


def _tutor(name: str) -> str:
    return lookup("tutors", "tutor_id", "name", name)


def _slot_where(slot: Slot) -> str:
    return f"pupil_id = {_pupil(slot.pupil)} AND instrument_id = {_instrument(slot.instrument)}"


def _money(amount: float) -> str:
    return f"£{amount:.2f}" if amount != int(amount) else f"£{int(amount)}"


def _number(amount: float) -> str:
    return f"{amount:.2f}" if amount != int(amount) else str(int(amount))


def _day_name(weekday: str, form: int) -> str:
    """'tuesday' as 'Tuesday', 'Tuesdays' or 'Tue'."""
    title = weekday.title()
    return (title, f"{title}s", title[:3])[form % 3]


class School:
    """The seeded generator: reference rows, then records applied to a tracked state, then questions."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        rng = self.rng
        self.tutors: dict[str, tuple[str, ...]] = {}
        self.tutor_contact: dict[str, tuple[str, str]] = {}
        for names, teaches in TUTOR_ROLES:
            self.tutors[rng.choice(names)] = teaches
        self.phones = rng.sample(range(100, 1000), 60)
        for name in self.tutors:
            first = name.split()[0].lower()
            self.tutor_contact[name] = (self._phone(), f"{first}@harmony-music.example")
        self.unused_instrument = rng.choice(("viola", "trumpet"))
        self.unused_room = rng.choice(("P3", "P6"))
        self.fee_scale = rng.choice((0.96, 1.0, 1.04))
        surnames = list(SURNAMES)
        rng.shuffle(surnames)
        firsts = list(FIRST_NAMES)
        rng.shuffle(firsts)
        self.surnames, self.firsts = surnames, firsts
        self.pupils: dict[str, Pupil] = {}
        self.slots: list[Slot] = []
        self.exams: list[tuple[str, str, int, dt.date, int, str]] = []
        self.payments: list[tuple[str, dt.date, float, str]] = []
        self.families: dict[str, list[str]] = {}  # surname -> pupils, in joining order
        self.reference = self._reference()
        self.start = dt.date(2024, 4, 15) + dt.timedelta(days=rng.randint(0, 4))
        self.today = self.start
        self.records: list[Record] = []

    # -- people and reference rows ----------------------------------------------------------------

    def _phone(self) -> str:
        return f"07700 900{self.phones.pop():03d}"

    def _new_pupil(self, joined: dt.date, surname: str | None = None) -> Pupil:
        rng = self.rng
        first = self.firsts.pop()
        if surname is None:
            surname = self.surnames.pop()
            is_mum = rng.random() < 0.6
            guardian = f"{rng.choice(MUMS if is_mum else DADS)} {surname}"
            phone: str | None = self._phone()
            email: str | None = (
                f"{guardian.split()[0].lower()}.{surname.lower()}@{rng.choice(('mailbox', 'inbox', 'post'))}.example"
            )
            if rng.random() < 0.2:
                email = None
        else:
            sibling = self.pupils[self.families[surname][0]]
            guardian, is_mum, phone, email = sibling.guardian, sibling.guardian_is_mum, sibling.phone, sibling.email
        pupil = Pupil(f"{first} {surname}", guardian, is_mum, phone, email, joined)
        self.pupils[pupil.name] = pupil
        self.families.setdefault(surname, []).append(pupil.name)
        return pupil

    def _fee(self, minutes: int, fraction: float = 1.0) -> float:
        return float(round(FEE[minutes] * self.fee_scale * fraction / 5) * 5)

    def _teachers(self, instrument: str) -> list[str]:
        return [name for name, teaches in self.tutors.items() if instrument in teaches]

    def _rooms_for(self, instrument: str) -> list[str]:
        if instrument == "drums":
            return ["P5"]
        if instrument == "piano":
            return list(PIANO_ROOMS)
        return [code for code in ("P3", "P4", "P6") if code != self.unused_room]

    def _reference(self) -> str:
        rng = self.rng
        lines = [
            "INSERT INTO instruments (name, family) VALUES "
            + ", ".join(f"({sql_text(n)}, {sql_text(f)})" for n, f in INSTRUMENTS)
            + ";",
            "INSERT INTO rooms (room_code, floor, has_piano, soundproofed) VALUES "
            + ", ".join(f"('{c}', {fl}, {str(p).lower()}, {str(s).lower()})" for c, fl, p, s in ROOMS)
            + ";",
            "INSERT INTO tutors (name, phone, email) VALUES "
            + ", ".join(f"({sql_text(n)}, {sql_text(p)}, {sql_text(e)})" for n, (p, e) in self.tutor_contact.items())
            + ";",
        ]
        instruments = ["piano", "piano", "violin", "cello", "guitar", "flute", "clarinet", "saxophone", "drums"]
        instruments = [i for i in instruments if i != self.unused_instrument]
        rng.shuffle(instruments)
        plan: list[tuple[Pupil, str]] = []
        for instrument in instruments[:6]:
            joined = dt.date(2023, 9, 4) + dt.timedelta(days=rng.randint(0, 120))
            plan.append((self._new_pupil(joined), instrument))
        older = plan[0][0]
        sibling = self._new_pupil(dt.date(2024, 1, 8), older.name.split()[1])
        plan.append((sibling, rng.choice([i for i in ("flute", "violin", "guitar") if i != plan[0][1]])))
        second = plan[1][0]
        plan.append((second, rng.choice([i for i in ("guitar", "piano", "clarinet") if i != plan[1][1]])))
        plan.append((self._new_pupil(dt.date(2024, 1, 10)), rng.choice(("piano", "cello", "saxophone"))))
        used_days: set[str] = set()
        for pupil, instrument in plan:
            days = [d for d in WEEKDAYS if d not in used_days] or list(WEEKDAYS)
            weekday = rng.choice(days)
            used_days.add(weekday)
            if pupil.name == sibling.name:
                weekday = rng.choice([d for d in WEEKDAYS if d != self._slot(older.name).weekday])
            minutes = rng.choice((30, 30, 45, 60))
            started = max(pupil.joined, dt.date(2024, 1, 8)) if pupil.joined.year == 2024 else pupil.joined
            slot = Slot(
                pupil.name,
                instrument,
                rng.choice(self._teachers(instrument)),
                rng.choice(self._rooms_for(instrument)),
                weekday,
                minutes,
                started,
            )
            if started.year == 2023 and rng.random() < 0.8:
                slot.grade = rng.randint(1, 4)
            self.slots.append(slot)
        pupil_rows = ", ".join(
            f"({sql_text(p.name)}, {sql_text(p.guardian)}, {sql_text(p.phone or '')}, "
            f"{sql_text(p.email) if p.email else 'NULL'}, {_date(p.joined)})"
            for p in self.pupils.values()
        )
        lines.append(f"INSERT INTO pupils (name, guardian, phone, email, joined_on) VALUES {pupil_rows};")
        for s in self.slots:
            lines.append(
                "INSERT INTO enrolments (pupil_id, instrument_id, tutor_id, room_code, weekday, minutes, started_on) "
                f"VALUES ({_pupil(s.pupil)}, {_instrument(s.instrument)}, {_tutor(s.tutor)}, '{s.room}', "
                f"'{s.weekday}', {s.minutes}, {_date(s.started)});"
            )
        for s in self.slots:
            grades = range(max(1, s.grade - 1), s.grade + 1) if s.grade else range(0)
            window = (dt.date(2024, 3, 28) - s.started).days - 14
            offsets = sorted(rng.sample(range(window), len(grades)))
            for grade, day in zip(grades, offsets):
                result = rng.choice(("pass", "merit", "distinction"))
                mark = rng.randint(*MARK_RANGES[result])
                self.exams.append((s.pupil, s.instrument, grade, s.started + dt.timedelta(days=14 + day), mark, result))
        if self.exams:
            rows = ", ".join(
                f"({_pupil(p)}, {_instrument(i)}, {g}, {_date(d)}, {m}, '{r}')" for p, i, g, d, m, r in self.exams
            )
            lines.append(f"INSERT INTO exams (pupil_id, instrument_id, grade, sat_on, mark, result) VALUES {rows};")
        billed_summer = set(rng.sample(sorted(self.pupils), 3))
        fee_rows = []
        for s in self.slots:
            s.fees["spring"] = self._fee(s.minutes)
            fee_rows.append(
                f"({_pupil(s.pupil)}, {_instrument(s.instrument)}, 'spring', {s.fees['spring']}, DATE '2024-01-08')"
            )
            if s.pupil in billed_summer:
                s.fees["summer"] = self._fee(s.minutes)
                fee_rows.append(
                    f"({_pupil(s.pupil)}, {_instrument(s.instrument)}, 'summer', {s.fees['summer']}, DATE '2024-04-08')"
                )
        lines.append(
            f"INSERT INTO fees (pupil_id, instrument_id, term, amount, billed_on) VALUES {', '.join(fee_rows)};"
        )
        pay_rows = []
        for name in sorted(self.pupils):
            spring = sum(s.fees["spring"] for s in self.slots if s.pupil == name)
            amount = spring if rng.random() < 0.6 else spring - rng.choice((50, 75, 100))
            paid = dt.date(2024, 1, 10) + dt.timedelta(days=rng.randint(0, 40))
            method = rng.choice(("card", "transfer", "cash"))
            self.payments.append((name, paid, amount, method))
            pay_rows.append(f"({_pupil(name)}, {_date(paid)}, {amount}, '{method}')")
        lines.append(f"INSERT INTO payments (pupil_id, paid_on, amount, method) VALUES {', '.join(pay_rows)};")
        return "\n".join(lines)

    # -- state ------------------------------------------------------------------------------------

    def _slot(self, pupil: str, instrument: str | None = None) -> Slot:
        return next(s for s in self.slots if s.pupil == pupil and (instrument is None or s.instrument == instrument))

    def owed(self, pupil: str) -> float:
        fees = sum(sum(s.fees.values()) for s in self.slots if s.pupil == pupil)
        return fees - sum(a for p, _, a, _ in self.payments if p == pupil)

    def _active(self) -> list[Slot]:
        return [s for s in self.slots if s.active(self.today)]

    def _siblings(self) -> set[str]:
        return {name for names in self.families.values() if len(names) > 1 for name in names}

    def _advance(self) -> None:
        self.today += dt.timedelta(days=self.rng.choice((0, 1, 1, 1, 2)))
        if self.today.weekday() == 6:
            self.today += dt.timedelta(days=1)

    # -- records ----------------------------------------------------------------------------------

    def build_records(self) -> None:
        rng = self.rng
        counts = {
            "enrol": 7,
            "add_instrument": 2,
            "lesson": 12,
            "absence": 7,
            "exam": 6,
            "payment": 8,
            "fee": 3,
            "tutor_change": 3,
            "room_change": 5,
            "weekday_change": 3,
            "contact": 5,
            "stop": 2,
            "fee_change": 3,
            "showcase": 3,
        }
        queue = [kind for kind, n in counts.items() if kind != "stop" for _ in range(n)]
        rng.shuffle(queue)
        for _ in range(counts["stop"]):  # pupils give up in the second half of the term
            queue.insert(rng.randint(len(queue) // 2, len(queue)), "stop")
        self.methods = ["card", "cash", "transfer", "cheque", *rng.choices(("card", "transfer", "cash"), k=5)]
        rng.shuffle(self.methods)
        self.results = ["pass", "merit", "distinction", "fail", *rng.choices(("pass", "merit"), k=2)]
        rng.shuffle(self.results)
        self.absences = ["absent", "absent", "absent", "excused", "excused", "excused", "excused"]
        rng.shuffle(self.absences)
        self.contacts = ["phone", "email", "clear_email", "tutor_phone", "clear_phone"]
        rng.shuffle(self.contacts)
        self.day_changes = ["copy", "plain", "plain"]
        rng.shuffle(self.day_changes)
        self.room_changes = ["move", "move", "online", "copy", "copy"]
        rng.shuffle(self.room_changes)
        self.fee_changes = ["up", "up", "down"]
        rng.shuffle(self.fee_changes)
        self.showcase_on = dt.date(2024, 7, 13)  # the Saturday the summer term ends with
        self.enrols = ["sibling", *["new"] * 6]
        rng.shuffle(self.enrols)
        self.offset = rng.randrange(3)
        makers: dict[str, Callable[[], Made]] = {
            "enrol": self._enrol,
            "add_instrument": self._add_instrument,
            "lesson": lambda: self._lesson("present"),
            "absence": lambda: self._lesson(self.absences[-1]),
            "exam": self._exam,
            "payment": self._payment,
            "fee": self._fee_record,
            "tutor_change": self._tutor_change,
            "room_change": self._room_change,
            "weekday_change": self._weekday_change,
            "contact": self._contact,
            "stop": self._stop,
            "fee_change": self._fee_change,
            "showcase": self._showcase,
        }
        variant_of = {
            "room_change": self.room_changes,
            "contact": self.contacts,
            "weekday_change": self.day_changes,
            "fee_change": self.fee_changes,
        }
        turns = Turns(rng)
        tries = 0
        while queue:
            kind = queue.pop(0)
            self.index = len(self.records)
            before = self.today
            if kind not in ("lesson", "absence"):
                self._advance()
            variant = variant_of[kind][-1] if variant_of.get(kind) else ""
            made = makers[kind]()
            if made is None:
                self.today = before
                queue.insert(min(len(queue), 2), kind)
                tries += 1
                if tries > 200:
                    raise RuntimeError(f"school: cannot make a {kind} record")
                continue
            if kind == "absence":
                self.absences.pop()
            facts, gold, texts = made
            wording = WORDINGS[(self.index + self.offset) % len(WORDINGS)]
            turn = TURNS.get((kind, variant))
            if turn:
                wording = turns.take(turn)
            written = texts[wording]
            facts = {"kind": kind, "date": self.today.isoformat(), **facts}
            self.records.append(
                Record(f"r{self.index + 1:02d}", kind, wording, written.text, facts, tuple(gold), tuple(written.stated))
            )

    def when(self) -> str:
        """The record's date, in the form its place in the log gives it."""
        return date_forms(self.today)[(self.index * 3 + self.offset) % 4]

    def _minutes(self, minutes: int, style: str) -> tuple[str, list[str]]:
        """A lesson length as written in a log line ('30 min'), a sentence ('half-hour') or a value ('half an hour')."""
        rng = self.rng
        forms = {
            "log": {30: ("30 min", "30 mins"), 45: ("45 min", "45 mins"), 60: ("60 min", "1 hr")},
            "chatty": {
                30: ("half-hour", "30-minute"),
                45: ("45-minute", "three-quarter-hour"),
                60: ("hour-long", "one-hour"),
            },
            "keyvalue": {
                30: ("30 minutes", "half an hour"),
                45: ("45 minutes", "45 min"),
                60: ("an hour", "60 minutes"),
            },
        }[style][minutes]
        text = rng.choice(forms)
        return text, [str(minutes)] if str(minutes) in text else []

    def _room(self, code: str, style: str) -> tuple[str, list[str]]:
        """A room code as the user writes it: 'P3', 'practice room 3', 'room three'."""
        number = int(code[1:])
        forms = {
            "log": (code, code, f"room {number}"),
            "chatty": (
                f"practice room {number}",
                f"room {in_words(number)}",
                f"practice room {in_words(number)}",
                code,
            ),
            "keyvalue": (code, f"practice room {number}", str(number)),
        }[style]
        text = self.rng.choice(forms)
        return text, [code] if code in text else []

    def _enrol(self) -> Made:
        rng = self.rng
        kind = self.enrols.pop()
        if kind == "sibling":
            families = [f for f, names in self.families.items() if len(names) == 1]
            pupil = self._new_pupil(self.today, rng.choice(sorted(families)))
        else:
            pupil = self._new_pupil(self.today)
        choices = [i for i, _ in INSTRUMENTS if i != self.unused_instrument]
        instrument = rng.choice(choices)
        slot = Slot(
            pupil.name,
            instrument,
            rng.choice(self._teachers(instrument)),
            rng.choice(self._rooms_for(instrument)),
            rng.choice(WEEKDAYS),
            rng.choice((30, 30, 45, 60)),
            self.today,
        )
        term_left = max(0.4, 1 - (self.today - dt.date(2024, 4, 15)).days / 84)
        slot.fees["summer"] = self._fee(slot.minutes, term_left)
        self.slots.append(slot)
        sibling = self.families[pupil.name.split()[1]][0] if kind == "sibling" else None
        fee = slot.fees["summer"]
        facts: dict[str, object] = {
            "pupil": pupil.name,
            "guardian": pupil.guardian,
            "phone": pupil.phone,
            "email": pupil.email,
            "phone_as": sibling,
            "instrument": instrument,
            "tutor": slot.tutor,
            "room": slot.room,
            "weekday": slot.weekday,
            "minutes": slot.minutes,
            "term": "summer",
            "fee": fee,
        }
        phone_sql = (
            f"(SELECT phone FROM pupils WHERE name = {sql_text(sibling)})" if sibling else sql_text(pupil.phone or "")
        )
        email_sql = sql_text(pupil.email) if pupil.email else "NULL"
        gold = [
            "INSERT INTO pupils (name, guardian, phone, email, joined_on) VALUES "
            f"({sql_text(pupil.name)}, {sql_text(pupil.guardian)}, {phone_sql}, {email_sql}, {_date(self.today)})",
            "INSERT INTO enrolments (pupil_id, instrument_id, tutor_id, room_code, weekday, minutes, started_on) VALUES "
            f"({_pupil(pupil.name)}, {_instrument(instrument)}, {_tutor(slot.tutor)}, '{slot.room}', '{slot.weekday}', "
            f"{slot.minutes}, {_date(self.today)})",
            "INSERT INTO fees (pupil_id, instrument_id, term, amount, billed_on) VALUES "
            f"({_pupil(pupil.name)}, {_instrument(instrument)}, 'summer', {fee}, {_date(self.today)})",
        ]
        when = self.when()
        base = [pupil.name, pupil.guardian, instrument, slot.tutor, _number(fee), when]
        contact_log = f"same phone as {sibling}" if sibling else f"tel {pupil.phone}"
        email_log = f", {pupil.email}" if pupil.email else ""
        texts: dict[str, Written] = {}

        minutes, m_stated = self._minutes(slot.minutes, "log")
        room, r_stated = self._room(slot.room or "", "log")
        day = _day_name(slot.weekday, rng.choice((0, 2)))
        texts["log"] = Written(
            f"{when} new pupil: {pupil.name} (guardian {pupil.guardian}, {contact_log}{email_log}), {instrument} with "
            f"{slot.tutor}, {day} {minutes}, {room}, summer fee {_money(fee)}",
            [
                *base,
                *m_stated,
                *r_stated,
                *([sibling] if sibling else [pupil.phone or ""]),
                *([pupil.email] if pupil.email else []),
            ],
        )

        minutes, m_stated = self._minutes(slot.minutes, "chatty")
        room, r_stated = self._room(slot.room or "", "chatty")
        day = _day_name(slot.weekday, 1)
        phone_said = f"same phone number as {sibling}" if sibling else f"phone {pupil.phone}"
        contact = f"{pupil.first}'s {pupil.parent} is {pupil.guardian}, {phone_said}"
        contact_stated = [sibling or pupil.phone or ""]
        if pupil.email:
            contact += f", email {pupil.email}"
            contact_stated.append(pupil.email)
        opener = rng.choice(
            (
                f"{pupil.name} joined us on {when} for {minutes} {instrument} lessons with {slot.tutor}",
                f"New pupil {pupil.name} started on {when}: {minutes} {instrument} lessons with {slot.tutor}",
                f"{pupil.name} signed up on {when} for {minutes} {instrument} lessons with {slot.tutor}",
            )
        )
        texts["chatty"] = Written(
            f"{opener}, {day} in {room}. {contact}. The summer term fee is {_money(fee)}.",
            [*base, *m_stated, *r_stated, *contact_stated],
        )

        minutes, m_stated = self._minutes(slot.minutes, "keyvalue")
        room, r_stated = self._room(slot.room or "", "keyvalue")
        pairs: list[tuple[str, object]] = [
            ("date", when),
            ("pupil", pupil.name),
            ("guardian", pupil.guardian),
            ("phone", f"same as {sibling}" if sibling else pupil.phone),
        ]
        if pupil.email:
            pairs.append(("email", pupil.email))
        pairs += [
            ("instrument", instrument),
            ("tutor", slot.tutor),
            ("day", _day_name(slot.weekday, rng.choice((0, 1)))),
            ("length", minutes),
            ("room", room),
            ("summer fee", _money(fee)),
        ]
        texts["keyvalue"] = Written(
            keyvalue("new pupil", pairs),
            [
                *base,
                *m_stated,
                *r_stated,
                *([sibling] if sibling else [pupil.phone or ""]),
                *([pupil.email] if pupil.email else []),
            ],
        )
        return facts, gold, texts

    def _add_instrument(self) -> Made:
        rng = self.rng
        playing: dict[str, set[str]] = {}
        for s in self.slots:
            playing.setdefault(s.pupil, set()).add(s.instrument)
        candidates = [p for p, inst in playing.items() if len(inst) == 1 and self._slot(p).active(self.today)]
        if not candidates:
            return None
        pupil = self.pupils[rng.choice(sorted(candidates))]
        instrument = rng.choice(
            [i for i, _ in INSTRUMENTS if i != self.unused_instrument and i not in playing[pupil.name]]
        )
        first = self._slot(pupil.name)
        weekday = rng.choice([d for d in WEEKDAYS if d != first.weekday])
        slot = Slot(
            pupil.name,
            instrument,
            rng.choice(self._teachers(instrument)),
            rng.choice(self._rooms_for(instrument)),
            weekday,
            rng.choice((30, 30, 45)),
            self.today,
        )
        term_left = max(0.4, 1 - (self.today - dt.date(2024, 4, 15)).days / 84)
        slot.fees["summer"] = fee = self._fee(slot.minutes, term_left)
        self.slots.append(slot)
        facts: dict[str, object] = {
            "pupil": pupil.name,
            "instrument": instrument,
            "tutor": slot.tutor,
            "room": slot.room,
            "weekday": weekday,
            "minutes": slot.minutes,
            "term": "summer",
            "fee": fee,
        }
        gold = [
            "INSERT INTO enrolments (pupil_id, instrument_id, tutor_id, room_code, weekday, minutes, started_on) VALUES "
            f"({_pupil(pupil.name)}, {_instrument(instrument)}, {_tutor(slot.tutor)}, '{slot.room}', '{weekday}', "
            f"{slot.minutes}, {_date(self.today)})",
            "INSERT INTO fees (pupil_id, instrument_id, term, amount, billed_on) VALUES "
            f"({_pupil(pupil.name)}, {_instrument(instrument)}, 'summer', {fee}, {_date(self.today)})",
        ]
        when = self.when()
        base = [pupil.name, instrument, slot.tutor, _number(fee), when]
        texts: dict[str, Written] = {}
        minutes, m_stated = self._minutes(slot.minutes, "log")
        room, r_stated = self._room(slot.room or "", "log")
        texts["log"] = Written(
            f"{when} second instrument: {pupil.name} adds {instrument} with {slot.tutor}, "
            f"{_day_name(weekday, 2)} {minutes}, {room}, summer fee {_money(fee)}",
            [*base, *m_stated, *r_stated],
        )
        minutes, m_stated = self._minutes(slot.minutes, "chatty")
        room, r_stated = self._room(slot.room or "", "chatty")
        texts["chatty"] = Written(
            f"{pupil.name} is taking up {instrument} as well: {minutes} lessons with {slot.tutor} on "
            f"{_day_name(weekday, 1)} in {room}, starting {when}. That adds {_money(fee)} to the summer term fees.",
            [*base, *m_stated, *r_stated],
        )
        minutes, m_stated = self._minutes(slot.minutes, "keyvalue")
        room, r_stated = self._room(slot.room or "", "keyvalue")
        texts["keyvalue"] = Written(
            keyvalue(
                "extra instrument",
                [
                    ("date", when),
                    ("pupil", pupil.name),
                    ("instrument", instrument),
                    ("tutor", slot.tutor),
                    ("day", _day_name(weekday, 0)),
                    ("length", minutes),
                    ("room", room),
                    ("summer fee", _money(fee)),
                ],
            ),
            [*base, *m_stated, *r_stated],
        )
        return facts, gold, texts

    def _lesson(self, attendance: str) -> Made:
        rng = self.rng
        options: list[tuple[dt.date, Slot]] = []
        for s in self.slots:
            if s.ended is not None:
                continue
            day = max(self.today, s.started + dt.timedelta(days=1))
            while day.strftime("%A").lower() != s.weekday or day in s.lessons:
                day += dt.timedelta(days=1)
            options.append((day, s))
        if not options:
            return None
        soonest = min(day for day, _ in options)
        day, slot = rng.choice([(d, s) for d, s in options if d <= soonest + dt.timedelta(days=1)])
        self.today = day
        note = rng.choice(REASONS) if attendance == "excused" else None
        slot.lessons[day] = attendance
        pupil = self.pupils[slot.pupil]
        facts: dict[str, object] = {
            "pupil": slot.pupil,
            "instrument": slot.instrument,
            "attendance": attendance,
            "note": note,
        }
        gold = [
            "INSERT INTO lessons (pupil_id, instrument_id, held_on, attendance, note) VALUES "
            f"({_pupil(slot.pupil)}, {_instrument(slot.instrument)}, {_date(day)}, '{attendance}', "
            f"{sql_text(note) if note else 'NULL'})"
        ]
        when = self.when()
        word = rng.choice(ATTENDANCE_WORDS[attendance])
        base = [slot.pupil, slot.instrument, when, *([note] if note else [])]
        texts: dict[str, Written] = {}
        reason = f" ({note})" if note else ""
        label = "lesson" if attendance == "present" else "absence"
        texts["log"] = Written(f"{when} {label}: {slot.pupil}, {slot.instrument}, {word}{reason}", base)
        if attendance == "present":
            chatty = rng.choice(
                (
                    f"{slot.pupil} came to the {slot.instrument} lesson on {when}.",
                    f"Taught {slot.pupil} {slot.instrument} on {when}, good lesson.",
                    f"{slot.pupil} was at {slot.instrument} on {when} as usual.",
                    f"{slot.tutor} gave {slot.pupil} the {slot.instrument} lesson on {when}.",
                )
            )
        elif attendance == "absent":
            chatty = rng.choice(
                (
                    f"{slot.pupil} didn't turn up for {slot.instrument} on {when}, and we heard nothing from the family.",
                    f"No sign of {slot.pupil} at the {slot.instrument} lesson on {when}.",
                    f"{slot.pupil} missed {slot.instrument} on {when} without letting anyone know.",
                )
            )
        else:
            cause = {
                "ill": f"{pupil.first} is ill",
                "school trip": f"{pupil.first} is on a school trip",
                "family holiday": f"{pupil.first} is away on a family holiday",
                "dentist appointment": f"{pupil.first} has a dentist appointment",
                "exam at school": f"{pupil.first} has an exam at school",
            }[note or ""]
            chatty = rng.choice(
                (
                    f"{pupil.guardian} rang ahead: {cause}, so {slot.pupil} won't be at {slot.instrument} on {when}.",
                    f"{slot.pupil} is excused from {slot.instrument} on {when}: {cause}, {pupil.guardian} let us know.",
                )
            )
        texts["chatty"] = Written(chatty, base)
        pairs: list[tuple[str, object]] = [
            ("date", when),
            ("pupil", slot.pupil),
            ("instrument", slot.instrument),
            ("attendance", word),
        ]
        if note:
            pairs.append(("reason", note))
        texts["keyvalue"] = Written(keyvalue(label, pairs), base)
        return facts, gold, texts

    def _exam(self) -> Made:
        rng = self.rng
        examined = {pupil for pupil, _, _, sat, _, _ in self.exams if sat >= self.start}
        candidates = [s for s in self._active() if s.started < dt.date(2024, 2, 1) and s.pupil not in examined]
        if not candidates:
            return None
        slot = rng.choice(candidates)
        grade = min(8, slot.grade + 1)
        result = self.results.pop()
        mark = rng.randint(*MARK_RANGES[result])
        if result != "fail":
            slot.grade = grade
        self.exams.append((slot.pupil, slot.instrument, grade, self.today, mark, result))
        facts: dict[str, object] = {
            "pupil": slot.pupil,
            "instrument": slot.instrument,
            "grade": grade,
            "mark": mark,
            "result": result,
        }
        gold = [
            "INSERT INTO exams (pupil_id, instrument_id, grade, sat_on, mark, result) VALUES "
            f"({_pupil(slot.pupil)}, {_instrument(slot.instrument)}, {grade}, {_date(self.today)}, {mark}, '{result}')"
        ]
        when = self.when()
        word = rng.choice(RESULT_WORDS[result])
        grade_said = rng.choice((str(grade), in_words(grade)))
        base = [slot.pupil, slot.instrument, str(mark), when]
        said = [*base, *([str(grade)] if grade_said == str(grade) else [])]
        texts: dict[str, Written] = {}
        texts["log"] = Written(
            f"{when} exam: {slot.pupil}, {slot.instrument} grade {grade}, {mark}/150, {word}", [*base, str(grade)]
        )
        if result == "fail":
            chatty = (
                f"{slot.pupil} sat grade {grade_said} {slot.instrument} on {when} and didn't pass this time, "
                f"{mark} marks out of 150."
            )
        else:
            outcome = {"pass": "passed", "merit": "got a merit", "distinction": "got a distinction"}[result]
            chatty = rng.choice(
                (
                    f"Great news: {slot.pupil} {outcome} in grade {grade_said} {slot.instrument} with {mark} marks ({when}).",
                    f"{slot.pupil} took the grade {grade_said} {slot.instrument} exam on {when} and {outcome}, "
                    f"{mark} out of 150.",
                )
            )
        texts["chatty"] = Written(chatty, said)
        texts["keyvalue"] = Written(
            keyvalue(
                "exam result",
                [
                    ("date", when),
                    ("pupil", slot.pupil),
                    ("instrument", slot.instrument),
                    ("grade", grade_said),
                    ("mark", mark),
                    ("result", word),
                ],
            ),
            said,
        )
        return facts, gold, texts

    def _payment(self) -> Made:
        rng = self.rng
        owing = [p for p in sorted(self.pupils) if self.owed(p) > 0]
        if not owing:
            return None
        name = rng.choice(owing)
        pupil = self.pupils[name]
        owed = self.owed(name)
        amount = owed if rng.random() < 0.5 else float(min(owed, rng.choice((50, 60, 75, 100, 120))))
        method = self.methods.pop()
        self.payments.append((name, self.today, amount, method))
        facts: dict[str, object] = {"pupil": name, "amount": amount, "method": method, "settles": amount == owed}
        gold = [
            "INSERT INTO payments (pupil_id, paid_on, amount, method) VALUES "
            f"({_pupil(name)}, {_date(self.today)}, {amount}, '{method}')"
        ]
        when = self.when()
        word = rng.choice(METHOD_WORDS[method][0])
        how = rng.choice(METHOD_WORDS[method][1])
        base = [name, _number(amount), when]
        texts: dict[str, Written] = {}
        texts["log"] = Written(f"{when} payment: {name}, {_money(amount)}, {word}", base)
        texts["chatty"] = Written(
            rng.choice(
                (
                    f"{pupil.guardian} paid {_money(amount)} {how} on {when} towards {name}'s fees.",
                    f"On {when} we received {_money(amount)} {how} for {name}'s lessons.",
                    f"{name}'s {pupil.parent} came in on {when} and paid {_money(amount)} {how}.",
                )
            ),
            base,
        )
        texts["keyvalue"] = Written(
            keyvalue("payment", [("date", when), ("pupil", name), ("amount", _money(amount)), ("paid by", word)]), base
        )
        return facts, gold, texts

    def _fee_record(self) -> Made:
        rng = self.rng
        unbilled = sorted({s.pupil for s in self._active() if "summer" not in s.fees})
        if not unbilled:
            return None
        name = rng.choice(unbilled)
        lines = [s for s in self._active() if s.pupil == name and "summer" not in s.fees]
        for s in lines:
            s.fees["summer"] = self._fee(s.minutes)
        facts: dict[str, object] = {
            "pupil": name,
            "term": "summer",
            "fees": {s.instrument: s.fees["summer"] for s in lines},
        }
        gold = [
            "INSERT INTO fees (pupil_id, instrument_id, term, amount, billed_on) VALUES "
            + ", ".join(
                f"({_pupil(name)}, {_instrument(s.instrument)}, 'summer', {s.fees['summer']}, {_date(self.today)})"
                for s in lines
            )
        ]
        when = self.when()
        base = [name, when, *(s.instrument for s in lines), *(_number(s.fees["summer"]) for s in lines)]
        parts = [f"{s.instrument} {_money(s.fees['summer'])}" for s in lines]
        texts: dict[str, Written] = {}
        texts["log"] = Written(f"{when} summer term fees billed: {name}, {', '.join(parts)}", base)
        listed = " and ".join(f"{_money(s.fees['summer'])} for {s.instrument}" for s in lines)
        texts["chatty"] = Written(
            rng.choice(
                (
                    f"Sent {name}'s family the summer term bill on {when}: {listed}.",
                    f"{name}'s summer term fees went out on {when}, {listed}.",
                )
            ),
            base,
        )
        texts["keyvalue"] = Written(
            keyvalue(
                "term fees",
                [("date", when), ("pupil", name), ("term", "summer")]
                + [(s.instrument, _money(s.fees["summer"])) for s in lines],
            ),
            base,
        )
        return facts, gold, texts

    def _tutor_change(self) -> Made:
        rng = self.rng
        moved = {(r.facts["pupil"], r.facts["instrument"]) for r in self.records if r.kind == "tutor_change"}
        candidates = [
            s
            for s in self._active()
            if len(self._teachers(s.instrument)) > 1 and s.started < self.today and (s.pupil, s.instrument) not in moved
        ]
        if not candidates:
            return None
        slot = rng.choice(candidates)
        old = slot.tutor
        slot.tutor = new = rng.choice([t for t in self._teachers(slot.instrument) if t != old])
        facts: dict[str, object] = {"pupil": slot.pupil, "instrument": slot.instrument, "tutor": new, "was": old}
        gold = [f"UPDATE enrolments SET tutor_id = {_tutor(new)} WHERE {_slot_where(slot)}"]
        when = self.when()
        base = [slot.pupil, slot.instrument, new, when]
        texts: dict[str, Written] = {
            "log": Written(f"{when} tutor change: {slot.pupil}, {slot.instrument}, now with {new} (was {old})", base),
            "chatty": Written(
                rng.choice(
                    (
                        f"From {when} {slot.pupil} has {slot.instrument} with {new} instead of {old}.",
                        f"{slot.pupil} is moving from {old} to {new} for {slot.instrument}, as of {when}.",
                    )
                ),
                base,
            ),
            "keyvalue": Written(
                keyvalue(
                    "tutor change",
                    [("date", when), ("pupil", slot.pupil), ("instrument", slot.instrument), ("new tutor", new)],
                ),
                base,
            ),
        }
        return facts, gold, texts

    def _room_change(self) -> Made:
        rng = self.rng
        kind = self.room_changes[-1]
        candidates = [s for s in self._active() if s.room is not None and s.instrument != "drums"]
        if kind == "move":
            candidates = [s for s in candidates if len(self._rooms_for(s.instrument)) > 1]
        if kind == "copy":
            return self._room_copy(candidates)
        if not candidates:
            return None
        self.room_changes.pop()
        slot = rng.choice(candidates)
        old = slot.room
        when = self.when()
        texts: dict[str, Written] = {}
        if kind == "online":
            slot.room = None
            facts: dict[str, object] = {"pupil": slot.pupil, "instrument": slot.instrument, "room": None, "was": old}
            gold = [f"UPDATE enrolments SET room_code = NULL WHERE {_slot_where(slot)}"]
            base = [slot.pupil, slot.instrument, when]
            texts["log"] = Written(f"{when} room: {slot.pupil}, {slot.instrument} goes online, no room needed", base)
            texts["chatty"] = Written(
                f"{slot.pupil} is doing {slot.instrument} online for the rest of term from {when}, "
                "so that slot doesn't need a practice room any more.",
                base,
            )
            texts["keyvalue"] = Written(
                keyvalue(
                    "room change",
                    [("date", when), ("pupil", slot.pupil), ("instrument", slot.instrument), ("room", "none (online)")],
                ),
                base,
            )
            return facts, gold, texts
        new = rng.choice([r for r in self._rooms_for(slot.instrument) if r != old])
        slot.room = new
        facts = {"pupil": slot.pupil, "instrument": slot.instrument, "room": new, "was": old}
        gold = [f"UPDATE enrolments SET room_code = '{new}' WHERE {_slot_where(slot)}"]
        base = [slot.pupil, slot.instrument, when]
        room, stated = self._room(new, "log")
        texts["log"] = Written(f"{when} room change: {slot.pupil}, {slot.instrument} -> {room}", [*base, *stated])
        room, stated = self._room(new, "chatty")
        texts["chatty"] = Written(
            rng.choice(
                (
                    f"{slot.pupil}'s {slot.instrument} lessons move to {room} from {when}.",
                    f"From {when}, {slot.pupil} has {slot.instrument} in {room} instead.",
                )
            ),
            [*base, *stated],
        )
        room, stated = self._room(new, "keyvalue")
        texts["keyvalue"] = Written(
            keyvalue(
                "room change",
                [("date", when), ("pupil", slot.pupil), ("instrument", slot.instrument), ("new room", room)],
            ),
            [*base, *stated],
        )
        return facts, gold, texts

    def _room_copy(self, candidates: list[Slot]) -> Made:
        """A lesson moves to the room another pupil's lesson has: a value copied from another row."""
        pairs = [
            (slot, other)
            for slot in candidates
            for other in self._active()
            if other is not slot
            and other.room
            and other.room != slot.room
            and other.room in self._rooms_for(slot.instrument)
        ]
        if not pairs:
            return None
        self.room_changes.pop()
        slot, other = self.rng.choice(pairs)
        old, slot.room = slot.room, other.room
        facts: dict[str, object] = {
            "pupil": slot.pupil,
            "instrument": slot.instrument,
            "room": other.room,
            "same_as": [other.pupil, other.instrument],
            "was": old,
        }
        gold = [
            f"UPDATE enrolments SET room_code = (SELECT room_code FROM enrolments WHERE {_slot_where(other)}) "
            f"WHERE {_slot_where(slot)}"
        ]
        when = self.when()
        base = [slot.pupil, slot.instrument, other.pupil, other.instrument, when]
        texts = {
            "log": Written(
                f"{when} room change: {slot.pupil}, {slot.instrument} -> same room as {other.pupil}'s {other.instrument}",
                base,
            ),
            "chatty": Written(
                f"From {when} {slot.pupil} has {slot.instrument} in the room {other.pupil} uses for {other.instrument}.",
                base,
            ),
            "keyvalue": Written(
                keyvalue(
                    "room change",
                    [
                        ("date", when),
                        ("pupil", slot.pupil),
                        ("instrument", slot.instrument),
                        ("new room", f"same as {other.pupil} ({other.instrument})"),
                    ],
                ),
                base,
            ),
        }
        return facts, gold, texts

    def _fee_change(self) -> Made:
        """A billed term fee raised or lowered by a stated amount: `amount = amount + n` or `- n`."""
        rng = self.rng
        direction = self.fee_changes[-1]
        billed = [(s, term) for s in self.slots if s.started < self.today for term in sorted(s.fees)]
        if not billed:
            return None
        self.fee_changes.pop()
        slot, term = rng.choice(billed)
        amount = float(rng.choice((15, 20, 25, 30)) if direction == "up" else rng.choice((10, 15, 20)))
        change = amount if direction == "up" else -amount
        slot.fees[term] += change
        reason = rng.choice(FEE_REASONS[direction])
        sign = "+" if direction == "up" else "-"
        facts: dict[str, object] = {
            "pupil": slot.pupil,
            "instrument": slot.instrument,
            "term": term,
            "change": change,
            "amount": slot.fees[term],
            "reason": reason,
        }
        gold = [
            f"UPDATE fees SET amount = amount {sign} {_number(amount)} WHERE {_slot_where(slot)} AND term = '{term}'"
        ]
        when = self.when()
        base = [slot.pupil, slot.instrument, term, _number(amount), when]
        if direction == "up":
            log = f"{when} fee change: {slot.pupil}, {slot.instrument} {term} term, {_money(amount)} more ({reason})"
            chatty = (
                f"Please add {_money(amount)} to {slot.pupil}'s {term} term {slot.instrument} fee for the {reason} "
                f"({when})."
            )
            pair = ("add", _money(amount))
        else:
            log = f"{when} fee change: {slot.pupil}, {slot.instrument} {term} term, {_money(amount)} off ({reason})"
            chatty = (
                f"{slot.pupil}'s {term} term {slot.instrument} fee comes down by {_money(amount)} for {reason}, "
                f"as of {when}."
            )
            pair = ("take off", _money(amount))
        texts = {
            "log": Written(log, base),
            "chatty": Written(chatty, base),
            "keyvalue": Written(
                keyvalue(
                    "fee change",
                    [
                        ("date", when),
                        ("pupil", slot.pupil),
                        ("instrument", slot.instrument),
                        ("term", term),
                        pair,
                        ("reason", reason),
                    ],
                ),
                base,
            ),
        }
        return facts, gold, texts

    def _showcase(self) -> Made:
        """A pupil entered to play a piece at the term's showcase: a plain fact into a table that starts empty."""
        rng = self.rng
        entered = {(r.facts["pupil"], r.facts["instrument"]) for r in self.records if r.kind == "showcase"}
        candidates = [s for s in self._active() if (s.pupil, s.instrument) not in entered]
        if not candidates:
            return None
        slot = rng.choice(candidates)
        piece = rng.choice(PIECES[FAMILY[slot.instrument]])
        hall = rng.choice(sorted(HALL_SAID))
        facts: dict[str, object] = {
            "pupil": slot.pupil,
            "instrument": slot.instrument,
            "showcase_on": self.showcase_on.isoformat(),
            "piece": piece,
            "hall": hall,
        }
        gold = [
            "INSERT INTO showcase_entries (pupil_id, instrument_id, showcase_on, piece, hall) VALUES "
            f"({_pupil(slot.pupil)}, {_instrument(slot.instrument)}, {_date(self.showcase_on)}, {sql_text(piece)}, "
            f"'{hall}')"
        ]
        when = self.when()
        on = date_forms(self.showcase_on)[(self.index * 3 + self.offset) % 4]
        where = rng.choice(HALL_SAID[hall])
        base = [slot.pupil, slot.instrument, piece, on, where]
        texts = {
            "log": Written(f'{when} showcase: {slot.pupil}, {slot.instrument}, "{piece}", {on}, {where}', base),
            "chatty": Written(
                f"{slot.pupil} signed up on {when} to play {piece} on the {slot.instrument} at the showcase on {on}, "
                f"in the {where}.",
                base,
            ),
            "keyvalue": Written(
                keyvalue(
                    "showcase entry",
                    [
                        ("pupil", slot.pupil),
                        ("instrument", slot.instrument),
                        ("piece", piece),
                        ("showcase", on),
                        ("where", where),
                        ("signed up", when),
                    ],
                ),
                base,
            ),
        }
        return facts, gold, texts

    def _weekday_change(self) -> Made:
        rng = self.rng
        kind = self.day_changes[-1]
        when = self.when()
        if kind == "copy":
            pairs = []
            for names in self.families.values():
                for a in names:
                    for b in names:
                        sa, sb = self._slot(a), self._slot(b)
                        if a != b and sa.active(self.today) and sb.active(self.today) and sa.weekday != sb.weekday:
                            pairs.append((sa, sb))
            if not pairs:
                return None
            self.day_changes.pop()
            slot, other = rng.choice(pairs)
            slot.weekday = other.weekday
            facts: dict[str, object] = {
                "pupil": slot.pupil,
                "instrument": slot.instrument,
                "weekday": other.weekday,
                "same_as": [other.pupil, other.instrument],
            }
            gold = [
                f"UPDATE enrolments SET weekday = (SELECT weekday FROM enrolments WHERE {_slot_where(other)}) "
                f"WHERE {_slot_where(slot)}"
            ]
            base = [slot.pupil, slot.instrument, other.pupil, other.instrument, when]
            texts = {
                "log": Written(
                    f"{when} day change: {slot.pupil}, {slot.instrument}, moved to the same day as "
                    f"{other.pupil}'s {other.instrument}",
                    base,
                ),
                "chatty": Written(
                    f"To save the family a trip, from {when} {slot.pupil}'s {slot.instrument} lesson is on the same day "
                    f"as {other.pupil}'s {other.instrument} lesson.",
                    base,
                ),
                "keyvalue": Written(
                    keyvalue(
                        "day change",
                        [
                            ("date", when),
                            ("pupil", slot.pupil),
                            ("instrument", slot.instrument),
                            ("new day", f"same day as {other.pupil} ({other.instrument})"),
                        ],
                    ),
                    base,
                ),
            }
            return facts, gold, texts
        candidates = [s for s in self._active() if s.pupil not in self._siblings()]
        if not candidates:
            return None
        self.day_changes.pop()
        slot = rng.choice(candidates)
        old = slot.weekday
        slot.weekday = new = rng.choice([d for d in WEEKDAYS if d != old])
        facts = {"pupil": slot.pupil, "instrument": slot.instrument, "weekday": new, "was": old}
        gold = [f"UPDATE enrolments SET weekday = '{new}' WHERE {_slot_where(slot)}"]
        base = [slot.pupil, slot.instrument, when]
        texts = {
            "log": Written(
                f"{when} day change: {slot.pupil}, {slot.instrument}, {_day_name(old, 2)} -> {_day_name(new, 2)}", base
            ),
            "chatty": Written(
                rng.choice(
                    (
                        f"{slot.pupil} can't do {_day_name(old, 1)} any more, so from {when} the {slot.instrument} "
                        f"lesson is on {_day_name(new, 1)}.",
                        f"Starting {when}, {slot.pupil}'s {slot.instrument} moves from {_day_name(old, 0)} to "
                        f"{_day_name(new, 0)}.",
                    )
                ),
                base,
            ),
            "keyvalue": Written(
                keyvalue(
                    "day change",
                    [
                        ("date", when),
                        ("pupil", slot.pupil),
                        ("instrument", slot.instrument),
                        ("new day", _day_name(new, 0)),
                    ],
                ),
                base,
            ),
        }
        return facts, gold, texts

    def _contact(self) -> Made:
        rng = self.rng
        kind = self.contacts[-1]
        when = self.when()
        siblings = self._siblings()
        if kind == "tutor_phone":
            self.contacts.pop()
            tutor = rng.choice(sorted(self.tutors))
            phone = self._phone()
            self.tutor_contact[tutor] = (phone, self.tutor_contact[tutor][1])
            facts: dict[str, object] = {"tutor": tutor, "phone": phone}
            gold = [f"UPDATE tutors SET phone = {sql_text(phone)} WHERE name = {sql_text(tutor)}"]
            base = [tutor, phone]
            return (
                facts,
                gold,
                {
                    "log": Written(f"{when} contact: tutor {tutor}, new mobile {phone}", base),
                    "chatty": Written(f"{tutor} has a new mobile number as of {when}: {phone}.", base),
                    "keyvalue": Written(
                        keyvalue("contact change", [("date", when), ("tutor", tutor), ("new phone", phone)]), base
                    ),
                },
            )
        people = [p for p in sorted(self.pupils) if p not in siblings]
        if kind == "clear_email":
            people = [p for p in people if self.pupils[p].email]
        if kind == "clear_phone":
            people = [p for p in people if self.pupils[p].phone]
        if not people:
            return None
        self.contacts.pop()
        pupil = self.pupils[rng.choice(people)]
        texts: dict[str, Written]
        if kind == "phone":
            pupil.phone = phone = self._phone()
            facts = {"pupil": pupil.name, "phone": phone}
            gold = [f"UPDATE pupils SET phone = {sql_text(phone)} WHERE name = {sql_text(pupil.name)}"]
            base = [pupil.name, phone]
            texts = {
                "log": Written(f"{when} contact: {pupil.name}, new phone {phone}", base),
                "chatty": Written(
                    f"{pupil.name}'s {pupil.parent} {pupil.guardian} has changed number; from {when} it's {phone}.",
                    [*base, pupil.guardian],
                ),
                "keyvalue": Written(
                    keyvalue("contact change", [("date", when), ("pupil", pupil.name), ("phone", phone)]), base
                ),
            }
        elif kind == "clear_phone":
            pupil.phone = None
            facts = {"pupil": pupil.name, "phone": None}
            gold = [f"UPDATE pupils SET phone = NULL WHERE name = {sql_text(pupil.name)}"]
            base = [pupil.name]
            texts = {
                "log": Written(f"{when} contact: {pupil.name}, phone number no longer in use, remove it", base),
                "chatty": Written(
                    f"{pupil.name}'s family has given up their phone; from {when} we have no number for them.", base
                ),
                "keyvalue": Written(
                    keyvalue("contact change", [("date", when), ("pupil", pupil.name), ("phone", "none")]), base
                ),
            }
        elif kind == "email":
            surname = pupil.name.split()[1].lower()
            pupil.email = email = f"{pupil.guardian.split()[0].lower()}.{surname}{rng.randint(2, 99)}@newmail.example"
            facts = {"pupil": pupil.name, "email": email}
            gold = [f"UPDATE pupils SET email = {sql_text(email)} WHERE name = {sql_text(pupil.name)}"]
            base = [pupil.name, email]
            texts = {
                "log": Written(f"{when} contact: {pupil.name}, email now {email}", base),
                "chatty": Written(
                    f"Please note {pupil.name}'s family uses a new email address from {when}: {email}", base
                ),
                "keyvalue": Written(
                    keyvalue("contact change", [("date", when), ("pupil", pupil.name), ("email", email)]), base
                ),
            }
        else:
            old = pupil.email
            pupil.email = None
            facts = {"pupil": pupil.name, "email": None, "was": old}
            gold = [f"UPDATE pupils SET email = NULL WHERE name = {sql_text(pupil.name)}"]
            base = [pupil.name]
            texts = {
                "log": Written(f"{when} contact: {pupil.name}, email {old} bounces, removed", [*base, old or ""]),
                "chatty": Written(
                    f"The email address we have for {pupil.name}'s family keeps bouncing, so as of {when} we have no email "
                    "for them.",
                    base,
                ),
                "keyvalue": Written(
                    keyvalue(
                        "contact change", [("date", when), ("pupil", pupil.name), ("email", "none (old one bounces)")]
                    ),
                    base,
                ),
            }
        return facts, gold, texts

    def _stop(self) -> Made:
        rng = self.rng
        siblings = self._siblings()
        candidates = [s for s in self._active() if s.pupil not in siblings and s.started < self.start]
        if not candidates:
            return None
        slot = rng.choice(candidates)
        slot.ended = self.today
        facts: dict[str, object] = {
            "pupil": slot.pupil,
            "instrument": slot.instrument,
            "ended_on": self.today.isoformat(),
        }
        gold = [f"UPDATE enrolments SET ended_on = {_date(self.today)} WHERE {_slot_where(slot)}"]
        when = self.when()
        base = [slot.pupil, slot.instrument, when]
        texts = {
            "log": Written(f"{when} stopping: {slot.pupil} gives up {slot.instrument}", base),
            "chatty": Written(
                rng.choice(
                    (
                        f"{slot.pupil} told us on {when} that they are giving up {slot.instrument}.",
                        f"Sad news, {slot.pupil} is stopping {slot.instrument} as of {when}.",
                    )
                ),
                base,
            ),
            "keyvalue": Written(
                keyvalue("giving up", [("date", when), ("pupil", slot.pupil), ("instrument", slot.instrument)]),
                base,
            ),
        }
        return facts, gold, texts

    # -- questions --------------------------------------------------------------------------------

    def build_questions(self) -> list[Question]:
        """Questions on the final state, their names and dates taken from what the records did."""
        rng = self.rng
        facts = [r.facts for r in self.records]

        def pick(kind: str, *needs: str) -> dict[str, object]:
            return rng.choice([f for f in facts if f["kind"] == kind and all(f.get(k) for k in needs)])

        phone = pick("contact", "pupil", "phone")
        moved = pick("tutor_change")
        moved_rooms = {(f["pupil"], f["instrument"]) for f in facts if f["kind"] == "room_change"}
        roomed = [s for s in self.slots if s.room is not None]
        room_slot = rng.choice([s for s in roomed if (s.pupil, s.instrument) in moved_rooms] or roomed)
        day = pick("weekday_change")
        exam = pick("exam")
        tutor = rng.choice(sorted(self.tutors))
        owing = max(sorted(self.pupils), key=self.owed)
        busiest = max(self.slots, key=lambda s: (sum(a == "present" for a in s.lessons.values()), s.pupil))
        joined = sorted(p.joined for p in self.pupils.values() if p.joined >= self.start)
        low, high = joined[1], joined[-2]
        pays = sorted(d for _, d, _, _ in self.payments if d >= self.start)
        pay_low, pay_high = pays[2], pays[-3]
        lesson_days = sorted(d for s in self.slots for d in s.lessons)
        week = lesson_days[len(lesson_days) // 2]
        week_start = week - dt.timedelta(days=week.weekday())
        week_end = week_start + dt.timedelta(days=6)
        months = [d.replace(day=1) for d in lesson_days]
        month = max(sorted(set(months)), key=months.count)
        month_name = month.strftime("%B %Y")
        next_month = (month + dt.timedelta(days=32)).replace(day=1)
        threshold = sorted(self.owed(p) for p in self.pupils)[len(self.pupils) // 2]
        threshold = max(20, int(threshold // 10 * 10))
        if not any(self.owed(p) > threshold for p in self.pupils):
            threshold = 0
        stopped = next(f for f in facts if f["kind"] == "stop")

        def esc(value: object) -> str:
            return sql_text(str(value))

        active = "e.ended_on IS NULL"
        spec: list[tuple[str, str, str]] = [
            # count
            ("count", "How many pupils does the school have?", "SELECT count(*) FROM pupils"),
            (
                "count",
                "How many pupils are currently enrolled on at least one instrument?",
                f"SELECT count(DISTINCT e.pupil_id) FROM enrolments e WHERE {active}",
            ),
            (
                "count",
                "How many exams were sat after 1 April 2024?",
                "SELECT count(*) FROM exams WHERE sat_on >= DATE '2024-04-01'",
            ),
            # sum
            ("sum", "What is the total of all payments received?", "SELECT sum(amount) FROM payments"),
            (
                "sum",
                "How much has been billed in summer term fees altogether?",
                "SELECT sum(amount) FROM fees WHERE term = 'summer'",
            ),
            (
                "sum",
                "How many minutes of lessons a week do the active enrolments add up to?",
                f"SELECT sum(e.minutes) FROM enrolments e WHERE {active}",
            ),
            # lookup
            (
                "lookup",
                f"What is {phone['pupil']}'s phone number?",
                f"SELECT phone FROM pupils WHERE name = {esc(phone['pupil'])}",
            ),
            (
                "lookup",
                f"Who teaches {moved['pupil']} {moved['instrument']} now?",
                "SELECT t.name FROM enrolments e JOIN tutors t USING (tutor_id) "
                f"WHERE e.pupil_id = {_pupil(str(moved['pupil']))} AND e.instrument_id = {_instrument(str(moved['instrument']))}",
            ),
            (
                "lookup",
                f"Which practice room is {room_slot.pupil}'s {room_slot.instrument} lesson in?",
                f"SELECT e.room_code FROM enrolments e WHERE e.pupil_id = {_pupil(room_slot.pupil)} "
                f"AND e.instrument_id = {_instrument(room_slot.instrument)}",
            ),
            (
                "lookup",
                f"On which day of the week does {day['pupil']} have {day['instrument']}?",
                f"SELECT e.weekday FROM enrolments e WHERE e.pupil_id = {_pupil(str(day['pupil']))} "
                f"AND e.instrument_id = {_instrument(str(day['instrument']))}",
            ),
            (
                "lookup",
                f"What mark did {exam['pupil']} get in grade {exam['grade']} {exam['instrument']}?",
                f"SELECT x.mark FROM exams x WHERE x.pupil_id = {_pupil(str(exam['pupil']))} "
                f"AND x.instrument_id = {_instrument(str(exam['instrument']))} AND x.grade = {exam['grade']} "
                "ORDER BY x.sat_on DESC LIMIT 1",
            ),
            ("lookup", f"What is {tutor}'s email address?", f"SELECT email FROM tutors WHERE name = {esc(tutor)}"),
            (
                "lookup",
                f"When did {stopped['pupil']} stop {stopped['instrument']}?",
                f"SELECT e.ended_on FROM enrolments e WHERE e.pupil_id = {_pupil(str(stopped['pupil']))} "
                f"AND e.instrument_id = {_instrument(str(stopped['instrument']))}",
            ),
            # grouped
            (
                "grouped",
                "How many active pupils does each tutor have?",
                "SELECT t.name, count(DISTINCT e.pupil_id) FROM enrolments e JOIN tutors t USING (tutor_id) "
                f"WHERE {active} GROUP BY t.name ORDER BY t.name",
            ),
            (
                "grouped",
                "How many lessons were there for each attendance status?",
                "SELECT attendance, count(*) FROM lessons GROUP BY attendance ORDER BY attendance",
            ),
            (
                "grouped",
                "How many exams ended in each result?",
                "SELECT result, count(*) FROM exams GROUP BY result ORDER BY result",
            ),
            (
                "grouped",
                "How many active enrolments are there per instrument family?",
                "SELECT i.family, count(*) FROM enrolments e JOIN instruments i USING (instrument_id) "
                f"WHERE {active} GROUP BY i.family ORDER BY i.family",
            ),
            (
                "grouped",
                "How much money came in through each payment method?",
                "SELECT method, sum(amount) FROM payments GROUP BY method ORDER BY method",
            ),
            # top
            (
                "top",
                "Which three pupils owe the most in fees, and how much?",
                "SELECT name, fees_owed FROM pupils ORDER BY fees_owed DESC, name LIMIT 3",
            ),
            (
                "top",
                "Which pupil has attended the most lessons, and how many?",
                "WITH a AS (SELECT p.name, sum(e.lessons_attended) AS attended FROM enrolments e "
                "JOIN pupils p USING (pupil_id) GROUP BY p.name) "
                "SELECT name, attended FROM a WHERE attended = (SELECT max(attended) FROM a) ORDER BY name",
            ),
            (
                "top",
                "Which tutor has the most active enrolments, and how many?",
                "WITH n AS (SELECT t.name, count(*) AS slots FROM enrolments e JOIN tutors t USING (tutor_id) "
                f"WHERE {active} GROUP BY t.name) "
                "SELECT name, slots FROM n WHERE slots = (SELECT max(slots) FROM n) ORDER BY name",
            ),
            (
                "top",
                "What are the three highest exam marks, and who got them?",
                "SELECT p.name, i.name, x.grade, x.mark FROM exams x JOIN pupils p USING (pupil_id) "
                "JOIN instruments i USING (instrument_id) ORDER BY x.mark DESC, p.name LIMIT 3",
            ),
            # range
            (
                "range",
                f"Which pupils joined between {low:%-d %B} and {high:%-d %B %Y}?",
                f"SELECT name FROM pupils WHERE joined_on BETWEEN {_date(low)} AND {_date(high)} ORDER BY name",
            ),
            (
                "range",
                f"How much was paid between {pay_low:%B %-d} and {pay_high:%B %-d, %Y}?",
                f"SELECT sum(amount) FROM payments WHERE paid_on BETWEEN {_date(pay_low)} AND {_date(pay_high)}",
            ),
            (
                "range",
                f"How many lessons were on the register, attended or missed, in the week of {week_start:%-d %B %Y} "
                "(Monday to Sunday)?",
                f"SELECT count(*) FROM lessons WHERE held_on BETWEEN {_date(week_start)} AND {_date(week_end)}",
            ),
            (
                "range",
                f"List every lesson on the register in {month_name}, attended or missed, with the pupil, instrument and date.",
                "SELECT p.name, i.name, l.held_on FROM lessons l JOIN pupils p USING (pupil_id) "
                f"JOIN instruments i USING (instrument_id) WHERE l.held_on >= {_date(month)} "
                f"AND l.held_on < {_date(next_month)} ORDER BY l.held_on, p.name",
            ),
            # derived
            (
                "derived",
                f"How much does {owing} still owe in fees?",
                f"SELECT fees_owed FROM pupils WHERE name = {esc(owing)}",
            ),
            ("derived", "What is the total amount owed by all pupils?", "SELECT sum(fees_owed) FROM pupils"),
            (
                "derived",
                f"Which pupils owe more than £{threshold}?",
                f"SELECT name, fees_owed FROM pupils WHERE fees_owed > {threshold} ORDER BY fees_owed DESC",
            ),
            (
                "derived",
                f"How many {busiest.instrument} lessons has {busiest.pupil} attended?",
                f"SELECT e.lessons_attended FROM enrolments e WHERE e.pupil_id = {_pupil(busiest.pupil)} "
                f"AND e.instrument_id = {_instrument(busiest.instrument)}",
            ),
            # none
            (
                "none",
                "Which instruments does nobody learn?",
                "SELECT name FROM instruments EXCEPT SELECT i.name FROM enrolments e JOIN instruments i USING (instrument_id)",
            ),
            (
                "none",
                "Which pupils have never sat an exam?",
                "SELECT p.name FROM pupils p WHERE NOT EXISTS (SELECT 1 FROM exams x WHERE x.pupil_id = p.pupil_id) "
                "ORDER BY p.name",
            ),
            (
                "none",
                "Which practice rooms are not booked for any current lesson slot?",
                "SELECT r.room_code FROM rooms r WHERE NOT EXISTS (SELECT 1 FROM enrolments e "
                f"WHERE e.room_code = r.room_code AND {active}) ORDER BY r.room_code",
            ),
            # average
            ("average", "What is the average exam mark?", "SELECT avg(mark) FROM exams"),
            ("average", "What is the average payment?", "SELECT avg(amount) FROM payments"),
            (
                "average",
                "What is the average lesson length in minutes for each instrument currently taught?",
                "SELECT i.name, avg(e.minutes) FROM enrolments e JOIN instruments i USING (instrument_id) "
                f"WHERE {active} GROUP BY i.name ORDER BY i.name",
            ),
            # category, in the words a user says
            (
                "category",
                "How many pupils are learning a woodwind or brass instrument right now?",
                "SELECT count(DISTINCT e.pupil_id) FROM enrolments e JOIN instruments i USING (instrument_id) "
                f"WHERE i.family = 'winds' AND {active}",
            ),
            (
                "category",
                "How many lessons were no-shows?",
                "SELECT count(*) FROM lessons WHERE attendance = 'absent'",
            ),
            (
                "category",
                "Who got a distinction, in which grade and instrument?",
                "SELECT p.name, x.grade, i.name FROM exams x JOIN pupils p USING (pupil_id) "
                "JOIN instruments i USING (instrument_id) WHERE x.result = 'distinction' ORDER BY p.name",
            ),
            (
                "category",
                "How much has been paid by bank transfer?",
                "SELECT sum(amount) FROM payments WHERE method = 'transfer'",
            ),
        ]
        return [Question(f"q{i + 1:02d}", text, gold, family) for i, (family, text, gold) in enumerate(spec)]


def build(seed: int = 0) -> Trade:
    """The music school trade for `seed`."""
    school = School(seed)
    school.build_records()
    return Trade(
        name="school",
        description="A music school: pupils, tutors, instruments, practice rooms, enrolments, lessons, exams, term fees "
        "and payments.",
        schema=SCHEMA,
        reference=school.reference,
        rules=RULES,
        records=tuple(school.records),
        questions=tuple(school.build_questions()),
        snapshot=SNAPSHOT,
        checks=CHECKS,
    )
