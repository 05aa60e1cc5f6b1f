"""The clinic trade: a small physiotherapy practice's diary, treatments and payments.

Patients book sessions with a therapist in a treatment room ('room 2' is stored 'R2'); a session is
attended, cancelled or missed; an attended one carries the treatments given, each with its fee; patients
(or their insurers) pay. A patient's outstanding balance is the fees of the treatments of their
appointments minus their payments, kept by a rule.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from .base import WORDINGS, Question, Record, Rule, Trade, Turns, date_forms, keyvalue, lookup, sql_text

SCHEMA = """
CREATE SEQUENCE patient_seq START 1;
CREATE SEQUENCE therapist_seq START 1;
CREATE SEQUENCE appointment_seq START 1;
CREATE SEQUENCE payment_seq START 1;
CREATE SEQUENCE referral_seq START 1;

CREATE TABLE therapists (
    therapist_id INTEGER PRIMARY KEY DEFAULT nextval('therapist_seq'),
    name VARCHAR NOT NULL UNIQUE,
    speciality VARCHAR NOT NULL CHECK (speciality IN ('sports', 'musculoskeletal', 'neuro', 'pelvic')),
    started_on DATE NOT NULL
);

CREATE TABLE rooms (
    room_code VARCHAR PRIMARY KEY,
    label VARCHAR NOT NULL,
    floor INTEGER NOT NULL
);

CREATE TABLE treatment_rates (
    kind VARCHAR PRIMARY KEY CHECK (kind IN ('massage', 'manual', 'exercise', 'ultrasound', 'needling')),
    list_fee DECIMAL(8, 2) NOT NULL CHECK (list_fee > 0)
);

CREATE TABLE patients (
    patient_id INTEGER PRIMARY KEY DEFAULT nextval('patient_seq'),
    name VARCHAR NOT NULL UNIQUE,
    phone VARCHAR,
    email VARCHAR,
    outstanding DECIMAL(10, 2) NOT NULL DEFAULT 0
);

CREATE TABLE appointments (
    appointment_id INTEGER PRIMARY KEY DEFAULT nextval('appointment_seq'),
    patient_id INTEGER NOT NULL REFERENCES patients (patient_id),
    therapist_id INTEGER NOT NULL REFERENCES therapists (therapist_id),
    room_code VARCHAR NOT NULL REFERENCES rooms (room_code),
    starts_at TIMESTAMP NOT NULL,
    minutes INTEGER NOT NULL CHECK (minutes > 0),
    status VARCHAR NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'attended', 'cancelled', 'no_show'))
);

CREATE TABLE treatments (
    appointment_id INTEGER NOT NULL REFERENCES appointments (appointment_id),
    kind VARCHAR NOT NULL REFERENCES treatment_rates (kind),
    fee DECIMAL(8, 2) NOT NULL CHECK (fee >= 0),
    PRIMARY KEY (appointment_id, kind)
);

CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY DEFAULT nextval('payment_seq'),
    patient_id INTEGER NOT NULL REFERENCES patients (patient_id),
    paid_on DATE NOT NULL,
    amount DECIMAL(8, 2) NOT NULL CHECK (amount > 0),
    method VARCHAR NOT NULL CHECK (method IN ('card', 'cash', 'insurance'))
);

CREATE TABLE supplies (
    item VARCHAR PRIMARY KEY,
    unit VARCHAR NOT NULL CHECK (unit IN ('roll', 'box', 'bottle', 'pack')),
    in_store INTEGER NOT NULL CHECK (in_store >= 0)
);

CREATE TABLE referrals (
    referral_id INTEGER PRIMARY KEY DEFAULT nextval('referral_seq'),
    patient_id INTEGER NOT NULL REFERENCES patients (patient_id),
    received_on DATE NOT NULL,
    referred_by VARCHAR NOT NULL CHECK (referred_by IN ('gp', 'consultant', 'insurer', 'self')),
    complaint VARCHAR NOT NULL
);
"""

OUTSTANDING = Rule(
    name="outstanding",
    sentence="A patient's outstanding balance is the fees of the treatments in their appointments minus what they have paid.",
    sql="""UPDATE patients SET outstanding =
    coalesce((SELECT sum(t.fee) FROM treatments t JOIN appointments a ON a.appointment_id = t.appointment_id
              WHERE a.patient_id = patients.patient_id), 0)
  - coalesce((SELECT sum(y.amount) FROM payments y WHERE y.patient_id = patients.patient_id), 0)""",
)

SNAPSHOT = {
    "patients": "SELECT name, phone, email, outstanding FROM patients",
    "appointments": """SELECT p.name, t.name, a.room_code, a.starts_at, a.minutes, a.status FROM appointments a
        JOIN patients p ON p.patient_id = a.patient_id JOIN therapists t ON t.therapist_id = a.therapist_id""",
    "treatments": """SELECT p.name, a.starts_at, tr.kind, tr.fee FROM treatments tr
        JOIN appointments a ON a.appointment_id = tr.appointment_id JOIN patients p ON p.patient_id = a.patient_id""",
    "payments": "SELECT p.name, y.paid_on, y.amount, y.method FROM payments y JOIN patients p ON p.patient_id = y.patient_id",
    "supplies": "SELECT item, unit, in_store FROM supplies",
    "referrals": """SELECT p.name, r.received_on, r.referred_by, r.complaint FROM referrals r
        JOIN patients p ON p.patient_id = r.patient_id""",
}

CHECKS = {
    "balances": "SELECT name, outstanding FROM patients",
    "appointments_per_status": "SELECT status, count(*) FROM appointments GROUP BY status",
    "fees_per_kind": "SELECT kind, sum(fee) FROM treatments GROUP BY kind",
    "paid_per_method": "SELECT method, sum(amount) FROM payments GROUP BY method",
    "attended_per_therapist": """SELECT t.name, count(*) FROM appointments a JOIN therapists t ON t.therapist_id = a.therapist_id
        WHERE a.status = 'attended' GROUP BY t.name""",
}

FIRST_NAMES = (
    "Ana", "Ben", "Carla", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonah", "Keira", "Luis", "Maya", "Nils",
    "Olga", "Pavel", "Rosa", "Sami", "Tessa", "Umar", "Vera", "Wes", "Yara", "Zoe", "Ivo", "Lotte", "Marek", "Nadia",
)  # fmt: skip
LAST_NAMES = (
    "Ruiz", "Okafor", "Lindqvist", "Brennan", "Mistry", "Haddad", "Kowalski", "Fischer", "Moreau", "Tanaka", "Abbott",
    "Silva", "Novak", "Reyes", "Quinn", "Duarte", "Varga", "Holm", "Castell", "Pereira", "Osei", "Whitlock",
)  # fmt: skip
THERAPIST_NAMES = (
    "Priya Nair", "Tom Hale", "Greta Lund", "Kwame Mensah", "Sofia Marin", "Declan Byrne", "Mei Chen", "Ruth Adler",
)  # fmt: skip
SPECIALITIES = ("sports", "musculoskeletal", "neuro", "pelvic")
ROOMS = (
    (1, "treatment room", 0),
    (2, "treatment room", 0),
    (3, "treatment room", 1),
    (4, "rehab gym", 1),
    (5, "hydrotherapy pool", 0),
)
BOOKABLE_ROOMS = (1, 2, 3, 4)  # the pool is closed for the period
KINDS = ("massage", "manual", "exercise", "ultrasound", "needling")
LIST_FEES = {
    "massage": (45, 48, 50),
    "manual": (50, 52, 55),
    "exercise": (35, 38, 40),
    "ultrasound": (30, 32),
    "needling": (40, 42, 45),
}
SAID_KINDS = {
    "massage": ("sports massage", "soft tissue massage", "deep tissue massage"),
    "manual": ("manual therapy", "joint mobilisation", "hands-on manual therapy"),
    "exercise": ("rehab exercises", "an exercise programme", "exercise therapy"),
    "ultrasound": ("ultrasound therapy", "therapeutic ultrasound"),
    "needling": ("dry needling", "acupuncture-style needling"),
}
SAID_METHODS = {
    "card": ("debit card", "credit card", "card (contactless)", "card"),
    "cash": ("cash", "in cash"),
    "insurance": ("insurer", "insurance claim", "health insurance"),
}
MINUTES_IN_WORDS = {30: "half an hour", 45: "forty-five minutes", 60: "an hour", 90: "an hour and a half"}
SESSION_IN_WORDS = {30: "half-hour", 45: "forty-five-minute", 60: "one-hour", 90: "ninety-minute"}
DOMAINS = ("example.com", "example.org", "example.net")
SUPPLIES = (
    ("kinesiology tape", "roll"),
    ("acupuncture needles", "box"),
    ("massage oil", "bottle"),
    ("ice packs", "box"),
    ("ultrasound gel", "bottle"),
    ("gauze swabs", "pack"),
)
UNIT_PLURAL = {"roll": "rolls", "box": "boxes", "bottle": "bottles", "pack": "packs"}
REFERRERS = {
    "gp": ("GP", "family doctor"),
    "consultant": ("hospital consultant", "orthopaedic consultant"),
    "insurer": ("insurer", "health insurer"),
    "self": ("self-referral",),
}
COMPLAINTS = (
    "left knee pain",
    "lower back pain",
    "a stiff shoulder after surgery",
    "a sprained ankle",
    "tennis elbow",
    "neck pain after a fall",
)
# record kind -> the class whose records take the wordings in turn (`Turns`): each in every wording
TURNS = {
    "email_removed": "clear",
    "same_phone": "copy",
    "same_email": "copy",
    "supplies": "supplies",
    "referral": "referral",
}
CANCEL_REASONS = (
    "is down with flu",
    "has a work trip",
    "has a family emergency",
    "can't get childcare",
    "is stuck abroad",
)


@dataclass
class _Patient:
    name: str
    phone: str | None
    email: str | None


@dataclass
class _Visit:
    """An appointment as planned; therapist and room are its final ones (after any move)."""

    patient: str
    therapist: str
    room: int
    start: dt.datetime
    minutes: int
    booked_on: dt.date | None  # None: in the diary from the start
    status: str = "booked"
    treatments: list[tuple[str, int]] = field(default_factory=list)  # (kind, fee in cents)

    @property
    def end(self) -> dt.datetime:
        return self.start + dt.timedelta(minutes=self.minutes)


@dataclass(order=True)
class _Event:
    day: dt.date
    rank: int  # within a day: bookings, moves, cancellations, visits, payments, contacts
    tie: float
    kind: str = field(compare=False)
    data: dict = field(compare=False)


@dataclass
class _Plan:
    start: dt.date
    therapists: list[tuple[str, str, dt.date]]
    fees: dict[str, int]  # kind -> list fee in cents
    patients: dict[str, _Patient]  # the reference patients
    family: tuple[str, str]
    reference_visits: list[_Visit]
    visits: list[_Visit]
    events: list[_Event]
    supplies: dict[str, int] = field(default_factory=dict)  # item -> how many in store at the start


def build(seed: int = 0) -> Trade:
    """The clinic trade generated from `seed`."""
    rng = random.Random(seed)
    while True:
        plan = _plan(rng)
        if 62 <= len(plan.events) <= 74 and _covers(plan):
            break
    records, final = _records(plan, rng)
    return Trade(
        name="clinic",
        description="A small physiotherapy clinic: patients book sessions with therapists in rooms, get treatments and pay.",
        schema=SCHEMA,
        reference=_reference(plan),
        rules=(OUTSTANDING,),
        records=tuple(records),
        questions=tuple(_questions(plan, final, rng)),
        snapshot=SNAPSHOT,
        checks=CHECKS,
    )


# -- planning what happens ------------------------------------------------------------------------


def _weekdays(first: dt.date, last: dt.date) -> list[dt.date]:
    """The working days from `first` to `last`, both included."""
    days = (first + dt.timedelta(days=n) for n in range((last - first).days + 1))
    return [day for day in days if day.weekday() < 5]


def _phone(rng: random.Random) -> str:
    """A UK mobile number as people write it: '07700 900123'."""
    return f"07{rng.randint(100, 999)} {rng.randint(100000, 999999)}"


def _email(rng: random.Random, name: str) -> str:
    """An address a patient called `name` might have."""
    first, last = name.lower().split()
    return (
        rng.choice((f"{first}.{last}", f"{first[0]}{last}", f"{first}{rng.randint(1, 99)}")) + "@" + rng.choice(DOMAINS)
    )


def _free(visits: list[_Visit], candidate: _Visit, skip: _Visit | None = None) -> bool:
    """Whether `candidate` clashes with no other live appointment of its patient (same day), therapist or room."""
    for other in visits:
        if other is skip or other is candidate or other.status == "cancelled":
            continue
        if other.patient == candidate.patient and other.start.date() == candidate.start.date():
            return False
        overlaps = other.start < candidate.end and candidate.start < other.end
        if overlaps and (other.therapist == candidate.therapist or other.room == candidate.room):
            return False
    return True


def _plan(rng: random.Random) -> _Plan:
    """Who and what the clinic has, and every event of the period, dated; contacts picked later."""
    start = dt.date(2024, 3, 4) + dt.timedelta(weeks=rng.randint(0, 4))
    last_day = start + dt.timedelta(days=55)
    names = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    rng.shuffle(names)
    names = [n for i, n in enumerate(names) if all(n.split()[0] != m.split()[0] for m in names[:i])][:20]
    surname = names[0].split()[1]
    family_name = f"{next(f for f in FIRST_NAMES if f not in {n.split()[0] for n in names})} {surname}"
    reference_names = [*names[:6], family_name]
    rng.shuffle(reference_names)
    new_names = names[6:]
    patients = {}
    for name in reference_names:
        patients[name] = _Patient(name, _phone(rng), _email(rng, name) if rng.random() < 0.8 else None)
    family = (names[0], family_name)
    for name in family:  # each has an address of their own, for one to take the other's later
        patients[name].email = patients[name].email or _email(rng, name)
    never = next(n for n in reference_names if n not in family)
    specialities = ["sports", *rng.sample(SPECIALITIES, 3)]
    rng.shuffle(specialities)
    therapists = [
        (name, speciality, dt.date(rng.randint(2012, 2022), rng.randint(1, 12), 1))
        for name, speciality in zip(rng.sample(THERAPIST_NAMES, 4), specialities)
    ]
    fees = {kind: rng.choice(options) * 100 for kind, options in LIST_FEES.items()}

    visits: list[_Visit] = []
    events: list[_Event] = []

    def place(patient: str, first: dt.date, last: dt.date, booked_on: dt.date | None) -> _Visit | None:
        for _ in range(40):
            day = rng.choice(_weekdays(first, last))
            hour, minute = rng.randint(8, 17), rng.choice((0, 0, 30, 30, 15, 45))
            visit = _Visit(
                patient=patient,
                therapist=rng.choice(therapists)[0],
                room=rng.choice(BOOKABLE_ROOMS),
                start=dt.datetime.combine(day, dt.time(hour, minute)),
                minutes=rng.choice((30, 45, 45, 60, 60, 90)),
                booked_on=booked_on,
            )
            if _free(visits, visit):
                visits.append(visit)
                return visit
        return None

    bookable = [n for n in reference_names if n != never]
    reference_visits = []
    for offset in (-10, -4):
        visit = place(rng.choice(bookable), start + dt.timedelta(days=offset), start + dt.timedelta(days=offset), None)
        if visit:
            visit.status = "attended"
            visit.treatments = _treatments(rng, fees)
            reference_visits.append(visit)
    for _ in range(3):
        visit = place(rng.choice(bookable), start, start + dt.timedelta(days=6), None)
        if visit:
            reference_visits.append(visit)

    n_new, n_book = rng.randint(5, 7), rng.randint(12, 15)
    booking_days = sorted(rng.choice(_weekdays(start, start + dt.timedelta(days=48))) for _ in range(n_new + n_book))
    new_at = set(rng.sample(range(1, n_new + n_book), n_new))
    registered: list[str] = []
    for number, day in enumerate(booking_days):
        first, last = day + dt.timedelta(days=1), day + dt.timedelta(days=12)
        if number in new_at:
            name = new_names.pop()
            patient = _Patient(name, _phone(rng), _email(rng, name) if rng.random() < 0.7 else None)
            visit = place(name, first, last, day)
            if visit is None:
                continue
            registered.append(name)
            events.append(
                _Event(day, 0, rng.random(), "new_patient", {"visit": visit, "patient": patient, **_where(visit)})
            )
        else:
            upcoming = {v.patient for v in visits if v.start.date() > day}
            pool = [n for n in bookable + registered if n not in upcoming] or bookable + registered
            visit = place(rng.choice(pool), first, last, day)
            if visit is not None:
                events.append(_Event(day, 0, rng.random(), "booking", {"visit": visit, **_where(visit)}))

    due = [v for v in visits if v.status == "booked" and v.start.date() <= last_day]
    rng.shuffle(due)
    n_cancel, n_no_show = rng.randint(3, 5), rng.randint(2, 3)
    cancelled = [v for v in due if (v.start.date() - (v.booked_on or start)).days >= 1][:n_cancel]
    for visit in cancelled:
        first = visit.booked_on or start
        day = first + dt.timedelta(days=rng.randint(0, (visit.start.date() - first).days - 1))
        visit.status = "cancelled"
        events.append(_Event(day, 2, rng.random(), "cancellation", {"visit": visit}))
    for number, visit in enumerate(v for v in due if v.status == "booked"):
        visit.status = "no_show" if number < n_no_show else "attended"
        if visit.status == "attended":
            visit.treatments = _treatments(rng, fees)
        events.append(
            _Event(visit.start.date(), 3, visit.start.hour + visit.start.minute / 60, visit.status, {"visit": visit})
        )

    movable = [v for v in visits if v.status != "cancelled" and (v.start.date() - (v.booked_on or start)).days >= 2]
    n_move = rng.randint(3, 5)
    for number, visit in enumerate(rng.sample(movable, min(n_move, len(movable)))):
        first = (visit.booked_on or start) + dt.timedelta(days=1)
        day = first + dt.timedelta(days=rng.randint(0, (visit.start.date() - first).days - 1))
        data: dict = {"visit": visit, "therapist": visit.therapist, "room": visit.room}
        if number % 2 == 0:
            data["new_room"] = next(
                (r for r in rng.sample(BOOKABLE_ROOMS, 4) if _moved_free(visits, visit, room=r)), None
            )
            if data["new_room"] is None:
                continue
            visit.room = data["new_room"]
        else:
            names_ = [t[0] for t in rng.sample(therapists, 4)]
            data["new_therapist"] = next((t for t in names_ if _moved_free(visits, visit, therapist=t)), None)
            if data["new_therapist"] is None:
                continue
            visit.therapist = data["new_therapist"]
        events.append(_Event(day, 1, rng.random(), "move", data))

    for visit in (v for v in visits if v.status == "attended"):
        if rng.random() > 0.6:
            continue
        total = sum(fee for _, fee in visit.treatments)
        method = rng.choice(("card", "card", "cash", "insurance"))
        day = visit.start.date() + dt.timedelta(
            days=rng.randint(5, 14) if method == "insurance" else rng.choice((0, 0, 0, 2))
        )
        day = max(day, start)
        amount = total if method == "insurance" or rng.random() < 0.7 else max(1000, total // 2 // 500 * 500)
        if day <= last_day:
            events.append(
                _Event(day, 4, rng.random(), "payment", {"patient": visit.patient, "amount": amount, "method": method})
            )

    n_phone = rng.randint(2, 3)
    kinds = ["phone_change"] * n_phone + ["email_removed"] * 3 + ["same_phone", "same_email"] + ["referral"] * 3
    for kind in kinds:
        events.append(_Event(rng.choice(_weekdays(start + dt.timedelta(days=3), last_day)), 5, rng.random(), kind, {}))
    supplies = {item: rng.randint(8, 30) for item, _ in SUPPLIES}
    for direction in rng.sample(["in", "in", "used"], 3):
        item = rng.choice(sorted(supplies))
        change = rng.choice((2, 3, 4, 6, 10, 12)) if direction == "in" else -rng.randint(1, 4)
        day = rng.choice(_weekdays(start, last_day))
        events.append(_Event(day, 5, rng.random(), "supplies", {"item": item, "change": change}))
    events.sort()
    return _Plan(start, therapists, fees, patients, family, reference_visits, visits, events, supplies)


def _where(visit: _Visit) -> dict:
    """The therapist and room a visit has now (before any later move)."""
    return {"therapist": visit.therapist, "room": visit.room}


def _moved_free(visits: list[_Visit], visit: _Visit, *, room: int | None = None, therapist: str | None = None) -> bool:
    """Whether `visit` could move to `room` or to `therapist` without a clash."""
    if room == visit.room or therapist == visit.therapist:
        return False
    moved = _Visit(
        visit.patient, therapist or visit.therapist, room or visit.room, visit.start, visit.minutes, visit.booked_on
    )
    return _free(visits, moved, skip=visit)


def _treatments(rng: random.Random, fees: dict[str, int]) -> list[tuple[str, int]]:
    """One to three treatments of different kinds, mostly at the list fee, sometimes 10% off."""
    kinds = rng.sample(KINDS, rng.choice((1, 1, 2, 2, 2, 3)))
    return [(kind, fees[kind] if rng.random() < 0.8 else fees[kind] * 9 // 10 // 50 * 50) for kind in kinds]


def _covers(plan: _Plan) -> bool:
    """Every record kind, payment method, treatment kind and both kinds of move happen, and some booking stays open."""
    kinds = {e.kind for e in plan.events}
    methods = {e.data["method"] for e in plan.events if e.kind == "payment"}
    given = {kind for v in plan.visits for kind, _ in v.treatments}
    moves = [e for e in plan.events if e.kind == "move"]
    return (
        {"booking", "new_patient", "cancellation", "no_show", "attended", "move", "payment"} <= kinds
        and methods == {"card", "cash", "insurance"}
        and given == set(KINDS)
        and any("new_room" in e.data for e in moves)
        and any("new_therapist" in e.data for e in moves)
        and any(v.status == "booked" for v in plan.visits)
    )


def _reference(plan: _Plan) -> str:
    """The therapists, rooms, price list, existing patients and the appointments already in the diary."""
    lines = [
        "INSERT INTO therapists (name, speciality, started_on) VALUES "
        + ", ".join(f"({sql_text(n)}, '{s}', DATE '{d.isoformat()}')" for n, s, d in plan.therapists)
        + ";",
        "INSERT INTO rooms (room_code, label, floor) VALUES "
        + ", ".join(f"('R{n}', '{label}', {fl})" for n, label, fl in ROOMS)
        + ";",
        "INSERT INTO treatment_rates (kind, list_fee) VALUES "
        + ", ".join(f"('{k}', {_sql_money(c)})" for k, c in plan.fees.items())
        + ";",
        "INSERT INTO patients (name, phone, email) VALUES "
        + ", ".join(
            f"({sql_text(p.name)}, {_sql_or_null(p.phone)}, {_sql_or_null(p.email)})" for p in plan.patients.values()
        )
        + ";",
        "INSERT INTO supplies (item, unit, in_store) VALUES "
        + ", ".join(f"({sql_text(item)}, '{unit}', {plan.supplies[item]})" for item, unit in SUPPLIES)
        + ";",
    ]
    for visit in plan.reference_visits:
        original = next((e.data for e in plan.events if e.kind == "move" and e.data["visit"] is visit), None)
        therapist, room = (original["therapist"], original["room"]) if original else (visit.therapist, visit.room)
        status = "attended" if visit.booked_on is None and visit.start.date() < plan.start else "booked"
        lines.append(
            "INSERT INTO appointments (patient_id, therapist_id, room_code, starts_at, minutes, status) VALUES "
            f"({_patient_id(visit.patient)}, {_therapist_id(therapist)}, 'R{room}', {_sql_time(visit.start)}, "
            f"{visit.minutes}, '{status}');"
        )
        if status == "attended":
            lines.append(_insert_treatments(visit) + ";")
    return "\n".join(lines)


# -- writing the records --------------------------------------------------------------------------


def _sql_money(cents: int) -> str:
    """Cents as a DECIMAL literal: 4550 -> '45.50'."""
    return f"{cents // 100}.{cents % 100:02d}"


def _money(cents: int) -> str:
    """Cents as a person writes them: '45', '45.50'."""
    return str(cents // 100) if cents % 100 == 0 else _sql_money(cents)


def _sql_or_null(value: str | None) -> str:
    """A text literal, or NULL."""
    return "NULL" if value is None else sql_text(value)


def _sql_time(moment: dt.datetime) -> str:
    """A TIMESTAMP literal."""
    return f"TIMESTAMP '{moment:%Y-%m-%d %H:%M:%S}'"


def _patient_id(name: str) -> str:
    """The subquery that finds a patient's id by name."""
    return lookup("patients", "patient_id", "name", name)


def _therapist_id(name: str) -> str:
    """The subquery that finds a therapist's id by name."""
    return lookup("therapists", "therapist_id", "name", name)


def _visit_where(visit: _Visit) -> str:
    """The condition that picks one appointment: its patient and start."""
    return f"patient_id = {_patient_id(visit.patient)} AND starts_at = {_sql_time(visit.start)}"


def _insert_treatments(visit: _Visit) -> str:
    """The INSERT of a visit's treatments, each with its fee."""
    appointment = f"(SELECT appointment_id FROM appointments WHERE {_visit_where(visit)})"
    rows = ", ".join(f"({appointment}, '{kind}', {_sql_money(fee)})" for kind, fee in visit.treatments)
    return f"INSERT INTO treatments (appointment_id, kind, fee) VALUES {rows}"


def _insert_visit(visit: _Visit, therapist: str, room: int) -> str:
    """The INSERT of a booked appointment with the therapist and room it was booked with."""
    return (
        "INSERT INTO appointments (patient_id, therapist_id, room_code, starts_at, minutes, status) VALUES "
        f"({_patient_id(visit.patient)}, {_therapist_id(therapist)}, 'R{room}', {_sql_time(visit.start)}, "
        f"{visit.minutes}, 'booked')"
    )


def _clock(moment: dt.datetime) -> str:
    """'14:30'."""
    return f"{moment:%H:%M}"


def _clock12(moment: dt.datetime) -> str:
    """'2:30pm', '9am'."""
    hour = moment.hour % 12 or 12
    suffix = "am" if moment.hour < 12 else "pm"
    return f"{hour}{suffix}" if moment.minute == 0 else f"{hour}:{moment.minute:02d}{suffix}"


def _and(items: list[str]) -> str:
    """'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class _Writer:
    """Writes one record's text in its wording, and collects the values the text states."""

    def __init__(self, rng: random.Random, wording: str, form: int) -> None:
        self.rng, self.wording, self.form = rng, wording, form
        self.stated: list[str] = []

    def state(self, *values: object) -> None:
        self.stated.extend(str(v) for v in values)

    def date(self, day: dt.date) -> str:
        text = date_forms(day)[self.form]
        self.state(text)
        return text

    def clock(self, moment: dt.datetime) -> str:
        text = _clock12(moment) if self.wording == "chatty" else _clock(moment)
        self.state(text)
        return text

    def money(self, cents: int) -> str:
        self.state(_money(cents))
        return ("£" if self.wording != "keyvalue" else "") + _money(cents)

    def minutes(self, minutes: int, adjective: bool = False) -> str:
        if self.wording == "chatty" or (self.wording == "keyvalue" and self.rng.random() < 0.4):
            return SESSION_IN_WORDS[minutes] if adjective else MINUTES_IN_WORDS[minutes]
        self.state(minutes)
        return f"{minutes}-minute" if adjective else f"{minutes} min" if self.wording == "log" else f"{minutes} minutes"

    def said(self, options: tuple[str, ...]) -> str:
        return self.rng.choice(options)


def _records(plan: _Plan, rng: random.Random) -> tuple[list[Record], dict[str, _Patient]]:
    """Each event as a record in its wording, in date order; the patients' contacts as they end."""
    patients = {name: _Patient(p.name, p.phone, p.email) for name, p in plan.patients.items()}
    records = []
    turns = Turns(rng)
    for number, event in enumerate(plan.events):
        wording = WORDINGS[number % len(WORDINGS)]
        if event.kind in TURNS:
            wording = turns.take(TURNS[event.kind])
        writer = _Writer(rng, wording, (number // len(WORDINGS)) % 4)
        write = WRITERS[event.kind]
        facts, text, gold = write(writer, event, patients, plan)
        record_kind = facts["kind"]
        facts = {"date": event.day.isoformat(), **facts}
        records.append(
            Record(f"r{number + 1:02d}", record_kind, wording, text, facts, tuple(gold), tuple(writer.stated))
        )
    return records, patients


Written = tuple[dict, str, list[str]]


def _write_booking(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """An existing patient books a session: a new appointment by therapist name and room code."""
    visit, therapist, room = event.data["visit"], event.data["therapist"], event.data["room"]
    p = visit.patient
    w.state(p, therapist)
    facts = {
        "kind": "booking",
        "patient": p,
        "therapist": therapist,
        "room": f"R{room}",
        "starts_at": visit.start.isoformat(),
        "minutes": visit.minutes,
    }
    if w.wording == "log":
        booked, day, clock = w.date(event.day), w.date(visit.start.date()), w.clock(visit.start)
        text = f"{booked} booking: {p} with {therapist}, room {room}, {day} {clock}, {w.minutes(visit.minutes)}"
    elif w.wording == "chatty":
        day, clock = w.date(visit.start.date()), w.clock(visit.start)
        length, session = w.minutes(visit.minutes), w.minutes(visit.minutes, True)
        text = w.rng.choice(
            (
                f"{p} rang and booked {length} with {therapist} on {day} at {clock}, in room {room}.",
                f"{p} is booked in with {therapist} on {day} at {clock} in room {room} for {length}.",
                f"{therapist} will see {p} for a {session} session in room {room} on {day} at {clock}.",
            )
        )
    else:
        pairs = [
            ("patient", p),
            ("therapist", therapist),
            ("room", room),
            ("date", w.date(visit.start.date())),
            ("time", w.clock(visit.start)),
        ]
        text = keyvalue("booking", [*pairs, ("length", w.minutes(visit.minutes))])
    return facts, text, [_insert_visit(visit, therapist, room)]


def _write_new_patient(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A new patient and their first booking: two tables at once."""
    visit, therapist, room, new = (
        event.data["visit"],
        event.data["therapist"],
        event.data["room"],
        event.data["patient"],
    )
    p = visit.patient
    patients[p] = _Patient(new.name, new.phone, new.email)
    w.state(p, therapist, new.phone, *([new.email] if new.email else []))
    facts = {
        "kind": "new_patient", "patient": p, "phone": new.phone, "email": new.email, "therapist": therapist,
        "room": f"R{room}", "starts_at": visit.start.isoformat(), "minutes": visit.minutes,
    }  # fmt: skip
    if w.wording == "log":
        email = f", {new.email}" if new.email else ""
        text = (
            f"{w.date(event.day)} new patient: {p}, tel {new.phone}{email}; booked with {therapist}, room {room}, "
            f"{w.date(visit.start.date())} {w.clock(visit.start)}, {w.minutes(visit.minutes)}"
        )
    elif w.wording == "chatty":
        email = f", email {new.email}" if new.email else ", no email"
        day, clock, length = w.date(visit.start.date()), w.clock(visit.start), w.minutes(visit.minutes)
        text = w.rng.choice(
            (
                f"New patient {p} (phone {new.phone}{email}) has booked {length} with {therapist} in room {room} "
                f"on {day} at {clock}.",
                f"{p} is a new patient, phone {new.phone}{email}; the first appointment is with {therapist} "
                f"on {day} at {clock} in room {room}, {length}.",
            )
        )
    else:
        pairs: list[tuple[str, object]] = [("name", p), ("phone", new.phone)]
        if new.email:
            pairs.append(("email", new.email))
        pairs += [
            ("first appointment", f"{w.date(visit.start.date())} {w.clock(visit.start)}"),
            ("therapist", therapist),
            ("room", room),
        ]
        text = keyvalue("new patient", [*pairs, ("length", w.minutes(visit.minutes))])
    gold = [
        f"INSERT INTO patients (name, phone, email) VALUES ({sql_text(p)}, {sql_text(new.phone)}, {_sql_or_null(new.email)})",
        _insert_visit(visit, therapist, room),
    ]
    return facts, text, gold


def _write_move(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A booked appointment moves to another room or another therapist."""
    visit = event.data["visit"]
    p = visit.patient
    w.state(p)
    day, clock = w.date(visit.start.date()), w.clock(visit.start)
    facts: dict = {"kind": "move", "patient": p, "starts_at": visit.start.isoformat()}
    if "new_room" in event.data:
        room = event.data["new_room"]
        facts["room"] = f"R{room}"
        gold = f"UPDATE appointments SET room_code = 'R{room}' WHERE {_visit_where(visit)}"
        if w.wording == "log":
            text = f"{w.date(event.day)} change: {p}, appt {day} {clock}, moved to room {room}"
        elif w.wording == "chatty":
            text = w.rng.choice(
                (
                    f"{p}'s appointment on {day} at {clock} has been moved to room {room}.",
                    f"We've switched {p}'s {clock} session on {day} into room {room}.",
                )
            )
        else:
            text = keyvalue(
                "appointment change", [("patient", p), ("appointment", f"{day} {clock}"), ("new room", room)]
            )
    else:
        new, old = event.data["new_therapist"], event.data["therapist"]
        w.state(new, old)
        facts["therapist"] = new
        gold = f"UPDATE appointments SET therapist_id = {_therapist_id(new)} WHERE {_visit_where(visit)}"
        if w.wording == "log":
            text = f"{w.date(event.day)} change: {p}, appt {day} {clock}, now with {new} (was {old})"
        elif w.wording == "chatty":
            text = f"{new} will see {p} on {day} at {clock} instead of {old}."
        else:
            text = keyvalue(
                "appointment change",
                [("patient", p), ("appointment", f"{day} {clock}"), ("new therapist", new), ("was", old)],
            )
    return facts, text, [gold]


def _write_cancellation(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """The patient cancels a booked appointment."""
    visit = event.data["visit"]
    p = visit.patient
    w.state(p)
    facts = {"kind": "cancellation", "patient": p, "starts_at": visit.start.isoformat(), "status": "cancelled"}
    if w.wording == "log":
        text = f"{w.date(event.day)} cancelled: {p}, appt {w.date(visit.start.date())} {w.clock(visit.start)}"
    elif w.wording == "chatty":
        day, clock = w.date(visit.start.date()), w.clock(visit.start)
        text = w.rng.choice(
            (
                f"{p} {w.rng.choice(CANCEL_REASONS)} and has called off the {clock} appointment on {day}.",
                f"{p} phoned to cancel the appointment on {day} at {clock}.",
            )
        )
    else:
        text = keyvalue(
            "cancellation", [("patient", p), ("appointment", f"{w.date(visit.start.date())} {w.clock(visit.start)}")]
        )
    return facts, text, [f"UPDATE appointments SET status = 'cancelled' WHERE {_visit_where(visit)}"]


def _write_no_show(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """The patient did not come: the appointment is marked a no-show."""
    visit = event.data["visit"]
    p, therapist = visit.patient, visit.therapist
    w.state(p, therapist)
    facts = {"kind": "no_show", "patient": p, "starts_at": visit.start.isoformat(), "status": "no_show"}
    if w.wording == "log":
        text = f"{w.date(visit.start.date())} no-show: {p}, {w.clock(visit.start)} with {therapist}"
    elif w.wording == "chatty":
        day, clock = w.date(visit.start.date()), w.clock(visit.start)
        text = w.rng.choice(
            (
                f"{p} didn't turn up for the {clock} appointment with {therapist} on {day}.",
                f"No sign of {p} for the {clock} session with {therapist} on {day}; they never came in.",
            )
        )
    else:
        pairs = [
            ("patient", p),
            ("date", w.date(visit.start.date())),
            ("time", w.clock(visit.start)),
            ("therapist", therapist),
        ]
        text = keyvalue("appointment", [*pairs, ("outcome", "did not attend")])
    return facts, text, [f"UPDATE appointments SET status = 'no_show' WHERE {_visit_where(visit)}"]


def _write_attended(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """The patient came: the appointment is attended and its treatments are charged."""
    visit = event.data["visit"]
    p = visit.patient
    w.state(p)
    facts = {
        "kind": "visit", "patient": p, "starts_at": visit.start.isoformat(), "status": "attended",
        "treatments": [{"kind": kind, "fee": fee / 100} for kind, fee in visit.treatments],
    }  # fmt: skip
    said = [(w.said(SAID_KINDS[kind]), w.money(fee)) for kind, fee in visit.treatments]
    if w.wording != "chatty":
        said = [(name.removeprefix("an "), fee) for name, fee in said]
    if w.wording == "log":
        items = ", ".join(f"{name} {fee}" for name, fee in said)
        text = f"{w.date(visit.start.date())} attended: {p} ({w.clock(visit.start)}); {items}"
    elif w.wording == "chatty":
        day, clock = w.date(visit.start.date()), w.clock(visit.start)
        items = _and([f"{name} ({fee})" for name, fee in said])
        text = w.rng.choice(
            (
                f"{p} came in for the {clock} appointment on {day} and had {items}.",
                f"Saw {p} at {clock} on {day}: {items}.",
            )
        )
    else:
        pairs = [
            ("patient", p),
            ("date", w.date(visit.start.date())),
            ("time", w.clock(visit.start)),
            ("status", w.said(("attended", "seen", "came in"))),
        ]
        text = keyvalue("visit", [*pairs, ("treatments", ", ".join(f"{name} {fee}" for name, fee in said))])
    return (
        facts,
        text,
        [f"UPDATE appointments SET status = 'attended' WHERE {_visit_where(visit)}", _insert_treatments(visit)],
    )


def _write_payment(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A payment by the patient or their insurer, which lowers the outstanding balance."""
    p, amount, method = event.data["patient"], event.data["amount"], event.data["method"]
    w.state(p)
    facts = {"kind": "payment", "patient": p, "amount": amount / 100, "method": method}
    said = w.said(SAID_METHODS[method])
    if w.wording == "log":
        text = f"{w.date(event.day)} payment: {p}, {w.money(amount)}, {said}"
    elif w.wording == "chatty":
        day, money = w.date(event.day), w.money(amount)
        if method == "insurance":
            text = w.rng.choice(
                (
                    f"{p}'s insurer paid {money} on {day}.",
                    f"An insurance payment of {money} came through for {p} on {day}.",
                )
            )
        else:
            how = {
                "debit card": "by debit card",
                "credit card": "by credit card",
                "card (contactless)": "contactless",
                "card": "by card",
                "cash": "in cash",
            }
            text = f"{p} paid {money} {how.get(said, said)} on {day}."
    else:
        text = keyvalue(
            "payment", [("patient", p), ("date", w.date(event.day)), ("amount", w.money(amount)), ("method", said)]
        )
    gold = (
        "INSERT INTO payments (patient_id, paid_on, amount, method) VALUES "
        f"({_patient_id(p)}, DATE '{event.day.isoformat()}', {_sql_money(amount)}, '{method}')"
    )
    return facts, text, [gold]


def _write_phone_change(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A patient's new phone number."""
    p = w.rng.choice(sorted(n for n in patients if n not in plan.family))
    phone = _phone(w.rng)
    patients[p].phone = phone
    w.state(p, phone)
    if w.wording == "log":
        text = f"{w.date(event.day)} contact: {p}, new phone {phone}"
    elif w.wording == "chatty":
        text = w.rng.choice((f"{p} has a new mobile number: {phone}.", f"{p} changed phone number, it's {phone} now."))
    else:
        text = keyvalue("contact change", [("patient", p), ("phone", phone)])
    facts = {"kind": "phone_change", "patient": p, "phone": phone}
    return facts, text, [f"UPDATE patients SET phone = {sql_text(phone)} WHERE name = {sql_text(p)}"]


def _write_email_removed(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A patient's email address is cleared."""
    p = w.rng.choice(sorted(n for n, patient in patients.items() if patient.email and n not in plan.family))
    old = patients[p].email
    patients[p].email = None
    w.state(p)
    if w.wording == "log":
        text = f"{w.date(event.day)} contact: {p}, email removed"
    elif w.wording == "chatty":
        w.state(old)
        text = f"{p} no longer has an email address; the old one ({old}) bounces, so take it off the file."
    else:
        text = keyvalue("contact change", [("patient", p), ("email", "none (removed)")])
    facts = {"kind": "email_removed", "patient": p, "email": None}
    return facts, text, [f"UPDATE patients SET email = NULL WHERE name = {sql_text(p)}"]


def _write_same_phone(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A patient's phone becomes the one of a family member: a value copied from another row."""
    p, q = plan.family if w.rng.random() < 0.5 else plan.family[::-1]
    patients[p].phone = patients[q].phone
    w.state(p, q)
    if w.wording == "log":
        text = f"{w.date(event.day)} contact: {p}, phone same as {q}"
    elif w.wording == "chatty":
        text = f"{p} can be reached on the same phone number as {q} now."
    else:
        text = keyvalue("contact change", [("patient", p), ("phone", f"same as {q}")])
    facts = {"kind": "same_phone", "patient": p, "phone_of": q}
    gold = f"UPDATE patients SET phone = (SELECT phone FROM patients WHERE name = {sql_text(q)}) WHERE name = {sql_text(p)}"
    return facts, text, [gold]


def _write_same_email(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A patient's email becomes a family member's (they share one inbox now): copied from another row."""
    p, q = plan.family if w.rng.random() < 0.5 else plan.family[::-1]
    patients[p].email = patients[q].email
    w.state(p, q)
    if w.wording == "log":
        text = f"{w.date(event.day)} contact: {p}, email same as {q}"
    elif w.wording == "chatty":
        text = f"{p} would like our emails sent to the same address as {q}'s from now on."
    else:
        text = keyvalue("contact change", [("patient", p), ("email", f"same as {q}")])
    facts = {"kind": "same_email", "patient": p, "email_of": q}
    gold = f"UPDATE patients SET email = (SELECT email FROM patients WHERE name = {sql_text(q)}) WHERE name = {sql_text(p)}"
    return facts, text, [gold]


def _write_supplies(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A delivery or what was used of a supply: its count in store goes up or down by a stated number."""
    item, change = event.data["item"], event.data["change"]
    units = UNIT_PLURAL[dict(SUPPLIES)[item]] if abs(change) > 1 else dict(SUPPLIES)[item]
    n = abs(change)
    w.state(item, n)
    day = w.date(event.day)
    if change > 0:
        if w.wording == "log":
            text = f"{day} supplies: {n} more {units} of {item} delivered"
        elif w.wording == "chatty":
            text = f"A delivery came on {day}: {n} more {units} of {item} for the store cupboard."
        else:
            text = keyvalue("supplies", [("item", item), ("delivered", f"{n} {units}"), ("date", day)])
    elif w.wording == "log":
        text = f"{day} supplies: {n} {units} of {item} used up"
    elif w.wording == "chatty":
        text = f"We used up {n} {units} of {item} on {day}; take {'it' if n == 1 else 'them'} off the store count."
    else:
        text = keyvalue("supplies", [("item", item), ("used", f"{n} {units}"), ("date", day)])
    sign = "+" if change > 0 else "-"
    facts = {"kind": "supplies", "item": item, "change": change}
    return facts, text, [f"UPDATE supplies SET in_store = in_store {sign} {n} WHERE item = {sql_text(item)}"]


def _write_referral(w: _Writer, event: _Event, patients: dict[str, _Patient], plan: _Plan) -> Written:
    """A referral letter for a patient: a plain fact into a table that starts empty."""
    p = w.rng.choice(sorted(patients))
    by = w.rng.choice(sorted(REFERRERS))
    complaint = w.rng.choice(COMPLAINTS)
    said = w.said(REFERRERS[by])
    w.state(p, complaint)
    day = w.date(event.day)
    if w.wording == "log":
        text = f"{day} referral: {p}, {'self-referred' if by == 'self' else 'from ' + said}, {complaint}"
    elif w.wording == "chatty":
        if by == "self":
            text = f"{p} referred themselves to us on {day} with {complaint}."
        else:
            text = f"{p}'s {said} referred them to us on {day} for {complaint}."
    else:
        text = keyvalue("referral", [("patient", p), ("received", day), ("from", said), ("complaint", complaint)])
    facts = {"kind": "referral", "patient": p, "referred_by": by, "complaint": complaint}
    gold = (
        "INSERT INTO referrals (patient_id, received_on, referred_by, complaint) VALUES "
        f"({_patient_id(p)}, DATE '{event.day.isoformat()}', '{by}', {sql_text(complaint)})"
    )
    return facts, text, [gold]


WRITERS = {
    "booking": _write_booking,
    "new_patient": _write_new_patient,
    "move": _write_move,
    "cancellation": _write_cancellation,
    "no_show": _write_no_show,
    "attended": _write_attended,
    "payment": _write_payment,
    "phone_change": _write_phone_change,
    "email_removed": _write_email_removed,
    "same_phone": _write_same_phone,
    "same_email": _write_same_email,
    "supplies": _write_supplies,
    "referral": _write_referral,
}


# -- questions on the final state -----------------------------------------------------------------


def _top(figures: dict[str, int], wanted: int) -> int:
    """How many of the top to ask for, near `wanted`, so that no tie straddles the cut (0: none fits)."""
    values = sorted(figures.values(), reverse=True)
    for n in sorted(range(1, len(values)), key=lambda n: (abs(n - wanted), n)):
        if values[n - 1] > 0 and values[n - 1] != values[n]:
            return n
    return 0


def _patient_join(alias: str) -> str:
    """The join that names the patient of the rows under `alias`."""
    return f"JOIN patients p ON p.patient_id = {alias}.patient_id"


def _long(day: dt.date) -> str:
    return date_forms(day)[1]


def _questions(plan: _Plan, patients: dict[str, _Patient], rng: random.Random) -> list[Question]:
    """Questions a data analyst would ask of the final state, each with its gold SQL."""
    visits = plan.visits
    payments = [e for e in plan.events if e.kind == "payment"]
    moves = [e for e in plan.events if e.kind == "move"]
    charged: dict[str, int] = {name: 0 for name in patients}
    paid: dict[str, int] = {name: 0 for name in patients}
    for visit in visits:
        charged[visit.patient] += sum(fee for _, fee in visit.treatments)
    for event in payments:
        paid[event.data["patient"]] += event.data["amount"]
    owed = {name: charged[name] - paid[name] for name in patients}
    attended_by = {t: sum(v.status == "attended" and v.therapist == t for v in visits) for t, _, _ in plan.therapists}
    per_kind = {kind: sum(fee for v in visits for k, fee in v.treatments if k == kind) for kind in KINDS}
    last_record = plan.events[-1].day
    future = [v for v in visits if v.status == "booked" and v.start.date() > last_record]
    therapist = rng.choice([t for t, n in attended_by.items() if n])
    debtor = rng.choice(sorted(n for n, o in owed.items() if o > 0))
    payer = rng.choice(sorted({e.data["patient"] for e in payments}))
    phone_of = rng.choice(sorted(n for n, p in patients.items() if p.phone))
    emailed = rng.choice(sorted(n for n, p in patients.items() if p.email))
    room_moved = next(e.data["visit"] for e in moves if "new_room" in e.data)
    therapist_moved = next(e.data["visit"] for e in moves if "new_therapist" in e.data)
    regular = max(sorted(patients), key=lambda n: sum(v.patient == n for v in visits))
    month = rng.choice(
        sorted({v.start.date().replace(day=1) for v in visits if v.treatments and v.start.date() >= plan.start})
    )
    week = plan.start + dt.timedelta(weeks=rng.randint(1, 5))
    paid_day = rng.choice(payments).day
    pay_from, pay_to = paid_day - dt.timedelta(days=rng.randint(0, 6)), paid_day + dt.timedelta(days=rng.randint(0, 6))
    threshold = max(1, (max(owed.values()) // 100 - 1) // 10 * 10)
    by_therapist = "JOIN therapists t ON t.therapist_id = a.therapist_id"
    visit_of = "JOIN appointments a ON a.appointment_id = tr.appointment_id"

    asked: list[tuple[str, str, str]] = [
        (
            "count",
            "How many appointments are in the diary altogether, whatever their status?",
            "SELECT count(*) FROM appointments",
        ),
        ("count", "How many patients do we have on file?", "SELECT count(*) FROM patients"),
        (
            "count",
            f"How many attended appointments has {therapist} had?",
            f"SELECT count(*) FROM appointments a {by_therapist} WHERE t.name = {sql_text(therapist)} AND a.status = 'attended'",
        ),
        ("sum", "How much money have patients and insurers paid us in total?", "SELECT sum(amount) FROM payments"),
        ("sum", "What is the total of all treatment fees charged?", "SELECT sum(fee) FROM treatments"),
        (
            "sum",
            f"How much has {payer} paid altogether?",
            f"SELECT sum(y.amount) FROM payments y {_patient_join('y')} WHERE p.name = {sql_text(payer)}",
        ),
        (
            "lookup",
            f"What is {phone_of}'s phone number?",
            f"SELECT phone FROM patients WHERE name = {sql_text(phone_of)}",
        ),
        (
            "lookup",
            f"What email address do we have for {emailed}?",
            f"SELECT email FROM patients WHERE name = {sql_text(emailed)}",
        ),
        (
            "lookup",
            f"Which room is {room_moved.patient}'s appointment on {_long(room_moved.start.date())} in?",
            f"SELECT a.room_code FROM appointments a {_patient_join('a')} WHERE p.name = {sql_text(room_moved.patient)} "
            f"AND CAST(a.starts_at AS DATE) = DATE '{room_moved.start.date().isoformat()}'",
        ),
        (
            "lookup",
            f"Who is the therapist for {therapist_moved.patient}'s appointment on {_long(therapist_moved.start.date())}?",
            f"SELECT t.name FROM appointments a {_patient_join('a')} {by_therapist} "
            f"WHERE p.name = {sql_text(therapist_moved.patient)} "
            f"AND CAST(a.starts_at AS DATE) = DATE '{therapist_moved.start.date().isoformat()}'",
        ),
        (
            "lookup",
            "What does ultrasound therapy cost on our price list?",
            "SELECT list_fee FROM treatment_rates WHERE kind = 'ultrasound'",
        ),
        (
            "lookup",
            f"When is {regular}'s latest appointment in the diary, whatever its status?",
            f"SELECT max(a.starts_at) FROM appointments a {_patient_join('a')} WHERE p.name = {sql_text(regular)}",
        ),
        (
            "grouped",
            "How many appointments does each therapist have, any status?",
            f"SELECT t.name, count(*) FROM appointments a {by_therapist} GROUP BY t.name ORDER BY t.name",
        ),
        (
            "grouped",
            "How many appointments are there in each status?",
            "SELECT status, count(*) FROM appointments GROUP BY status ORDER BY status",
        ),
        (
            "grouped",
            "What has been charged in total for each kind of treatment?",
            "SELECT kind, sum(fee) FROM treatments GROUP BY kind ORDER BY kind",
        ),
        (
            "grouped",
            "How much has come in by each payment method?",
            "SELECT method, sum(amount) FROM payments GROUP BY method ORDER BY method",
        ),
        (
            "grouped",
            "How many appointments has each room had, cancelled ones left out?",
            "SELECT room_code, count(*) FROM appointments WHERE status <> 'cancelled' GROUP BY room_code ORDER BY room_code",
        ),
        (
            "range",
            f"How many appointments, of any status, fall in the week from {_long(week)} to {_long(week + dt.timedelta(days=6))}?",
            f"SELECT count(*) FROM appointments WHERE CAST(starts_at AS DATE) BETWEEN DATE '{week.isoformat()}' "
            f"AND DATE '{(week + dt.timedelta(days=6)).isoformat()}'",
        ),
        (
            "range",
            f"Which payments came in between {_long(pay_from)} and {_long(pay_to)}? Give the patient, date and amount.",
            f"SELECT p.name, y.paid_on, y.amount FROM payments y {_patient_join('y')} "
            f"WHERE y.paid_on BETWEEN DATE '{pay_from.isoformat()}' AND DATE '{pay_to.isoformat()}' ORDER BY y.paid_on, p.name",
        ),
        (
            "range",
            f"How much did we charge for treatments given in {month:%B %Y}?",
            f"SELECT sum(tr.fee) FROM treatments tr {visit_of} WHERE a.starts_at >= TIMESTAMP '{month.isoformat()} 00:00:00' "
            f"AND a.starts_at < TIMESTAMP '{(month + dt.timedelta(days=32)).replace(day=1).isoformat()} 00:00:00'",
        ),
        (
            "derived",
            f"How much does {debtor} still owe?",
            f"SELECT outstanding FROM patients WHERE name = {sql_text(debtor)}",
        ),
        (
            "derived",
            "What is the total amount outstanding across all patients?",
            "SELECT sum(outstanding) FROM patients",
        ),
        (
            "derived",
            f"Which patients owe more than £{threshold}, and how much?",
            f"SELECT name, outstanding FROM patients WHERE outstanding > {threshold} ORDER BY outstanding DESC, name",
        ),
        (
            "none",
            "Which patients have never had an appointment?",
            "SELECT p.name FROM patients p WHERE NOT EXISTS (SELECT 1 FROM appointments a WHERE a.patient_id = p.patient_id)",
        ),
        (
            "none",
            "Which rooms have never been booked for an appointment?",
            "SELECT r.room_code FROM rooms r WHERE NOT EXISTS (SELECT 1 FROM appointments a WHERE a.room_code = r.room_code)",
        ),
        (
            "average",
            "What is the average length of an appointment in minutes?",
            "SELECT avg(minutes) FROM appointments",
        ),
        (
            "average",
            "What is the average fee charged for a sports massage?",
            "SELECT avg(fee) FROM treatments WHERE kind = 'massage'",
        ),
        (
            "average",
            "How many treatments does an attended appointment get on average?",
            "SELECT avg(n) FROM (SELECT count(*) AS n FROM treatments GROUP BY appointment_id)",
        ),
        (
            "category",
            "How many patients have had something paid through their health insurance?",
            "SELECT count(DISTINCT patient_id) FROM payments WHERE method = 'insurance'",
        ),
        (
            "category",
            "How many dry needling treatments have we done?",
            "SELECT count(*) FROM treatments WHERE kind = 'needling'",
        ),
        (
            "category",
            "How many times did a patient simply not turn up?",
            "SELECT count(*) FROM appointments WHERE status = 'no_show'",
        ),
        ("category", "How much have we taken in cash?", "SELECT sum(amount) FROM payments WHERE method = 'cash'"),
        (
            "category",
            "How many appointments were called off by the patient?",
            "SELECT count(*) FROM appointments WHERE status = 'cancelled'",
        ),
        (
            "category",
            "Which of our therapists are sports physios?",
            "SELECT name FROM therapists WHERE speciality = 'sports'",
        ),
    ]
    n = _top(owed, 3)
    if n:
        asked.append(
            (
                "top",
                f"Which {n} patients owe the most, and how much each?",
                f"SELECT name, outstanding FROM patients ORDER BY outstanding DESC LIMIT {n}",
            )
        )
    n = _top(attended_by, 1)
    if n:
        asked.append(
            (
                "top",
                "Which therapist has the most attended appointments, and how many?"
                if n == 1
                else f"Which {n} therapists have the most attended appointments, and how many each?",
                f"SELECT t.name, count(*) AS attended FROM appointments a {by_therapist} WHERE a.status = 'attended' "
                f"GROUP BY t.name ORDER BY attended DESC LIMIT {n}",
            )
        )
    n = _top(charged, 5)
    if n:
        asked.append(
            (
                "top",
                f"Which {n} patients have been charged the most for treatments, and how much?",
                f"SELECT p.name, sum(tr.fee) AS charged FROM treatments tr {visit_of} {_patient_join('a')} "
                f"GROUP BY p.name ORDER BY charged DESC LIMIT {n}",
            )
        )
    n = _top(per_kind, 1)
    if n:
        asked.append(
            (
                "top",
                "Which kind of treatment has brought in the most in fees?"
                if n == 1
                else f"Which {n} kinds of treatment have brought in the most in fees?",
                f"SELECT kind, sum(fee) AS fees FROM treatments GROUP BY kind ORDER BY fees DESC LIMIT {n}",
            )
        )
    if future:
        asked.append(
            (
                "range",
                f"Which appointments are booked after {_long(last_record)}? List patient and start time.",
                f"SELECT p.name, a.starts_at FROM appointments a {_patient_join('a')} WHERE a.status = 'booked' "
                f"AND CAST(a.starts_at AS DATE) > DATE '{last_record.isoformat()}' ORDER BY a.starts_at",
            )
        )
    unpaid = [n for n in patients if charged[n] > 0 and paid[n] == 0]
    if unpaid:
        asked.append(
            (
                "none",
                "Which patients have had treatment but never paid anything?",
                "SELECT p.name FROM patients p WHERE EXISTS (SELECT 1 FROM appointments a JOIN treatments tr "
                "ON tr.appointment_id = a.appointment_id WHERE a.patient_id = p.patient_id) "
                "AND NOT EXISTS (SELECT 1 FROM payments y WHERE y.patient_id = p.patient_id)",
            )
        )
    return [Question(f"q{number + 1:02d}", text, gold, family) for number, (family, text, gold) in enumerate(asked)]
