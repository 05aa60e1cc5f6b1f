"""Island ferry: a small operator running car ferries on a few crossings between island harbours.

The operator calls at five harbours, each with a three-letter code like 'KLV' (a linkspan, a slipway or a
pontoon berth, some only usable near high tide), and runs a few crossings between them, each a sea route in one
direction with a code like 'KLV-ORN'. A fare table lists the fare of each band (adult, child, car, van,
motorbike, camper van, car with trailer) on each route; some routes carry no camper vans or trailers until a
fare is added for them, both ways at once. Four vessels, each with a code like 'VS-2', a car deck and a
passenger certificate, are in service, on standby or in dry dock until a refit ends. Each sailing has a code
like 'SL-0412' ("sailing 412", or its time, its harbours and its day), a route, a vessel, a departure day and
time, a state (scheduled, sailed, cancelled, weather hold) with the reason it is held or cancelled, and the car
spaces and seats it has left. Islanders, commuters, hauliers, holiday lets and visitors hold an account: each
booking (adults, children, a vehicle or none) is charged to it, and what they owe is kept by one rule: the
fares of their bookings on sailings that are not cancelled, minus the receipts taken on their account. The
crew rostered on each sailing (master, first mate, engineer, deckhand, purser) and the receipts taken on
accounts are logged from an empty start.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .base import Question, Record, Rule, Trade, Turns, date_forms, in_words, keyvalue, lookup, sql_date, sql_text

VEHICLES = ("car", "van", "motorbike", "camper van", "car with trailer")
BANDS = ("adult", "child", *VEHICLES)
ROLES = ("master", "first_mate", "engineer", "deckhand", "purser")
REASON_CODES = ("high_winds", "heavy_swell", "fog", "engine_fault", "crew_shortage")
TAKEN_BY = ("card", "cash", "cheque", "standing order")


def _listed(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{v}'" for v in values)


SCHEMA = f"""
CREATE SEQUENCE holder_seq START 1;
CREATE SEQUENCE crossing_booking_seq START 1;
CREATE SEQUENCE receipt_seq START 1;
CREATE TABLE harbours (
    harbour_code VARCHAR PRIMARY KEY,
    harbour_name VARCHAR NOT NULL UNIQUE,
    berth_type VARCHAR NOT NULL CHECK (berth_type IN ('linkspan', 'slipway', 'pontoon')),
    tide_bound BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE vessels (
    vessel_code VARCHAR PRIMARY KEY,
    vessel_name VARCHAR NOT NULL UNIQUE,
    car_deck INTEGER NOT NULL CHECK (car_deck > 0),
    passenger_cert INTEGER NOT NULL CHECK (passenger_cert > 0),
    vessel_state VARCHAR NOT NULL DEFAULT 'in_service' CHECK (vessel_state IN ('in_service', 'standby', 'dry_dock')),
    refit_until DATE
);
CREATE TABLE sea_routes (
    route_code VARCHAR PRIMARY KEY,
    from_harbour VARCHAR NOT NULL REFERENCES harbours (harbour_code),
    to_harbour VARCHAR NOT NULL REFERENCES harbours (harbour_code),
    crossing_mins INTEGER NOT NULL CHECK (crossing_mins > 0),
    UNIQUE (from_harbour, to_harbour)
);
CREATE TABLE fare_table (
    route_code VARCHAR NOT NULL REFERENCES sea_routes (route_code),
    fare_band VARCHAR NOT NULL CHECK (fare_band IN ({_listed(BANDS)})),
    fare_amount DECIMAL(6, 2) NOT NULL CHECK (fare_amount > 0),
    PRIMARY KEY (route_code, fare_band)
);
CREATE TABLE sailings (
    sailing_code VARCHAR PRIMARY KEY,
    route_code VARCHAR NOT NULL REFERENCES sea_routes (route_code),
    vessel_code VARCHAR NOT NULL,
    depart_day DATE NOT NULL,
    depart_time VARCHAR NOT NULL,
    sailing_state VARCHAR NOT NULL DEFAULT 'scheduled'
        CHECK (sailing_state IN ('scheduled', 'sailed', 'cancelled', 'weather_hold')),
    hold_reason VARCHAR CHECK (hold_reason IN ({_listed(REASON_CODES)})),
    car_spaces_left INTEGER NOT NULL CHECK (car_spaces_left >= 0),
    seats_left INTEGER NOT NULL CHECK (seats_left >= 0)
);
CREATE TABLE account_holders (
    holder_no INTEGER PRIMARY KEY DEFAULT nextval('holder_seq'),
    holder_name VARCHAR NOT NULL UNIQUE,
    contact_phone VARCHAR,
    contact_email VARCHAR,
    home_harbour VARCHAR,
    account_kind VARCHAR NOT NULL
        CHECK (account_kind IN ('islander', 'commuter', 'haulier', 'holiday_let', 'visitor')),
    vehicle_reg VARCHAR,
    account_opened DATE NOT NULL,
    balance_outstanding DECIMAL(10, 2) NOT NULL DEFAULT 0
);
CREATE TABLE crossing_bookings (
    booking_no INTEGER PRIMARY KEY DEFAULT nextval('crossing_booking_seq'),
    holder_no INTEGER NOT NULL REFERENCES account_holders (holder_no),
    sailing_code VARCHAR NOT NULL REFERENCES sailings (sailing_code),
    made_on DATE NOT NULL,
    adults INTEGER NOT NULL CHECK (adults >= 0),
    children INTEGER NOT NULL DEFAULT 0 CHECK (children >= 0),
    vehicle_kind VARCHAR CHECK (vehicle_kind IN ({_listed(VEHICLES)})),
    fare_total DECIMAL(8, 2) NOT NULL,
    booking_state VARCHAR NOT NULL DEFAULT 'booked' CHECK (booking_state IN ('booked', 'checked_in', 'no_show')),
    UNIQUE (holder_no, sailing_code)
);
CREATE TABLE crew_duties (
    sailing_code VARCHAR NOT NULL REFERENCES sailings (sailing_code),
    crew_name VARCHAR NOT NULL,
    duty_role VARCHAR NOT NULL CHECK (duty_role IN ({_listed(ROLES)})),
    PRIMARY KEY (sailing_code, crew_name)
);
CREATE TABLE account_receipts (
    receipt_no INTEGER PRIMARY KEY DEFAULT nextval('receipt_seq'),
    holder_no INTEGER NOT NULL REFERENCES account_holders (holder_no),
    receipt_day DATE NOT NULL,
    taken_amount DECIMAL(8, 2) NOT NULL CHECK (taken_amount > 0),
    taken_by VARCHAR NOT NULL CHECK (taken_by IN ({_listed(TAKEN_BY)})),
    UNIQUE (holder_no, receipt_day)
);
"""

OUTSTANDING = Rule(
    name="account outstanding",
    sentence=(
        "What an account holder owes is the fares of their bookings on sailings that are not cancelled, minus "
        "every receipt taken on their account."
    ),
    sql=(
        "UPDATE account_holders SET balance_outstanding = "
        "coalesce((SELECT sum(b.fare_total) FROM crossing_bookings b JOIN sailings s ON s.sailing_code = "
        "b.sailing_code WHERE b.holder_no = account_holders.holder_no AND s.sailing_state <> 'cancelled'), 0) "
        "- coalesce((SELECT sum(r.taken_amount) FROM account_receipts r "
        "WHERE r.holder_no = account_holders.holder_no), 0)"
    ),
)

_NAMED = "JOIN account_holders h ON h.holder_no = {}.holder_no"
SNAPSHOT = {
    "harbours": "SELECT harbour_code, harbour_name, berth_type, tide_bound FROM harbours",
    "vessels": "SELECT vessel_code, vessel_name, car_deck, passenger_cert, vessel_state, refit_until FROM vessels",
    "sea_routes": "SELECT route_code, from_harbour, to_harbour, crossing_mins FROM sea_routes",
    "fare_table": "SELECT route_code, fare_band, fare_amount FROM fare_table",
    "sailings": (
        "SELECT sailing_code, route_code, vessel_code, depart_day, depart_time, sailing_state, hold_reason, "
        "car_spaces_left, seats_left FROM sailings"
    ),
    "account_holders": (
        "SELECT holder_name, contact_phone, contact_email, home_harbour, account_kind, vehicle_reg, account_opened, "
        "balance_outstanding FROM account_holders"
    ),
    "crossing_bookings": (
        "SELECT h.holder_name, b.sailing_code, b.made_on, b.adults, b.children, b.vehicle_kind, b.fare_total, "
        f"b.booking_state FROM crossing_bookings b {_NAMED.format('b')}"
    ),
    "crew_duties": "SELECT sailing_code, crew_name, duty_role FROM crew_duties",
    "account_receipts": (
        f"SELECT h.holder_name, r.receipt_day, r.taken_amount, r.taken_by FROM account_receipts r {_NAMED.format('r')}"
    ),
}
CHECKS = {
    "what each account holder owes": "SELECT holder_name, balance_outstanding FROM account_holders",
    "car spaces and seats left per sailing": "SELECT sailing_code, car_spaces_left, seats_left FROM sailings",
    "sailings per state": "SELECT sailing_state, count(*) FROM sailings GROUP BY sailing_state",
    "fares": "SELECT route_code, fare_band, fare_amount FROM fare_table",
    "vessel states": "SELECT vessel_name, vessel_state, refit_until FROM vessels",
    "duties per role": "SELECT duty_role, count(*) FROM crew_duties GROUP BY duty_role",
    "bookings per state": "SELECT booking_state, count(*) FROM crossing_bookings GROUP BY booking_state",
}

# -- names and words --------------------------------------------------------------------------------

START = dt.date(2025, 3, 3)
HARBOURS = (  # code, name, berth, usable only near high tide
    ("KLV", "Kilvarrow", "linkspan", False),
    ("ORN", "Ornsay Pier", "slipway", True),
    ("TRV", "Tarvaig", "linkspan", False),
    ("PEL", "Port Elspie", "pontoon", True),
    ("SGR", "Sgeir Bheag", "slipway", True),
)
LINKS = (("KLV", "ORN", 35), ("KLV", "TRV", 50), ("TRV", "PEL", 25), ("ORN", "SGR", 20))  # a, b, minutes
VESSELS = (  # code, name, car deck, passenger certificate
    ("VS-1", "Skerry Maid", 12, 150),
    ("VS-2", "Lady Grizel", 24, 250),
    ("VS-3", "Heron of Tarvaig", 8, 96),
    ("VS-4", "Morven Star", 18, 200),
)
TIMES = ("06:50", "07:40", "08:25", "09:15", "10:30", "12:05", "13:45", "15:20", "16:40", "18:10", "19:35")
REASONS = {  # reason -> (short words for a log line or a field, a clause, what ended it)
    "high_winds": (("high winds", "gale warning"), "gales are forecast", "the wind has dropped"),
    "heavy_swell": (("heavy swell", "big swell"), "the swell is too big at the berth", "the swell has eased"),
    "fog": (("fog", "thick fog"), "fog has come down over the sound", "the fog has lifted"),
    "engine_fault": (("engine fault", "engine trouble"), "the port engine is playing up", "the engine is fixed"),
    "crew_shortage": (("crew shortage", "short of crew"), "we are short of crew", "relief crew came over"),
}
WEATHER = ("high_winds", "heavy_swell", "fog")
CREW = (
    "Morag Finlayson",
    "Torquil Macrae",
    "Seonag Pettigrew",
    "Iain Drummond-Hay",
    "Kirsteen Laidlaw",
    "Alpin Cowper",
    "Rhona Beaton",
    "Gillespie Munro",
)
ROLE_SAID = {
    "master": "master",
    "first_mate": "first mate",
    "engineer": "engineer",
    "deckhand": "deckhand",
    "purser": "purser",
}
HOLDERS = (  # name, phone, email, home harbour, kind, vehicle reg: the reference holders are drawn from these
    ("Catriona Maclennan", "07391 442118", "catriona.mac@skerrymail.net", "KLV", "islander", "SK71 RVA"),
    ("Ruaridh Galbraith", "07391 442276", None, "ORN", "islander", None),
    ("Strathaird Haulage", "01879 330412", "bookings@strathaird-haulage.co.uk", "KLV", "haulier", "SV19 KHL"),
    ("Fionnuala Dacre", None, "f.dacre@harbourlight.org", "TRV", "commuter", "SF68 WEN"),
    ("Lachlan Oyelaran", "07391 442390", "lachlan.o@skerrymail.net", "PEL", "commuter", None),
    ("Marsaili Trevithick", "07391 442455", "marsaili.t@harbourlight.org", None, "visitor", "YK20 POD"),
    ("Seabreeze Cottages", "01879 330577", "stay@seabreezecottages.scot", "SGR", "holiday_let", None),
    ("Torcuil Abernethy", "07391 442531", None, "TRV", "islander", "SK66 TAB"),
    ("Ottoline Vasquez-Reid", "07391 442689", "ottoline.vr@skerrymail.net", None, "visitor", None),
    ("Donnchadh Ferrier", "07391 442742", "d.ferrier@harbourlight.org", "ORN", "commuter", "SN70 DFF"),
    ("Peigi Haldane", None, "peigi.haldane@skerrymail.net", "PEL", "islander", None),
    ("Quarrybank Builders", "01879 330698", None, "KLV", "haulier", "SV21 QBB"),
)
NEW_HOLDERS = (  # holders who open an account during the log
    ("Alasdair Penhaligon", "07391 443105", "alasdair.p@harbourlight.org", "ORN", "islander", "SK23 APN"),
    ("Brianag Sutter", None, "brianag.sutter@skerrymail.net", "SGR", "islander", None),
    ("Cormac Delahunt", "07391 443227", None, None, "visitor", "DL19 CMD"),
    ("Eilidh Moncrieff", "07391 443361", "eilidh.m@skerrymail.net", "TRV", "commuter", None),
    ("Gorsebrae Farm", "01879 331044", "gorsebrae.farm@harbourlight.org", "PEL", "haulier", "SV22 GBF"),
    ("Hamish Okafor", "07391 443480", "hamish.okafor@skerrymail.net", "KLV", "commuter", "SK72 HMO"),
)
KIND_SAID = {
    "islander": ("islander", "island resident"),
    "commuter": ("commuter", "commuter account"),
    "haulier": ("haulier", "haulage account"),
    "holiday_let": ("holiday let", "holiday-let business"),
    "visitor": ("visitor", "visitor account"),
}
VIA_SAID = {
    "card": ("by card", "on a card"),
    "cash": ("in cash", "with cash at the pier office"),
    "cheque": ("by cheque", "with a cheque"),
    "standing order": ("by standing order", "through their standing order"),
}
# record kind -> how many the log has, and the class of change ("" for a new fact) whose records take the
# wordings in turn (`Turns`), so that each class comes in every wording
KINDS = {
    "holder_opened": (4, ""),
    "booking": (9, ""),
    "sailing_added": (5, ""),
    "duty_rostered": (6, ""),
    "receipt": (6, ""),
    "fare_added": (2, ""),
    "sailing_cancelled": (2, "set"),
    "weather_hold": (1, "set"),
    "sailing_retimed": (2, "set"),
    "vessel_swapped": (1, "set"),
    "kind_changed": (1, "set"),
    "checked_in": (2, "set"),
    "vessel_refit": (1, "set"),
    "reg_given": (1, "set"),
    "duty_role_changed": (1, "set"),
    "contact_dropped": (3, "clear"),
    "reg_dropped": (2, "clear"),
    "sailing_restored": (2, "clear+set"),
    "vessel_back": (1, "clear+set"),
    "moved_away": (1, "clear+set"),
    "sailing_same_time": (2, "copy"),
    "phone_shared": (1, "copy"),
    "sailing_same_vessel": (1, "copy"),
    "harbour_shared": (1, "copy"),
    "spaces_added": (2, "add"),
    "spaces_blocked": (1, "add"),
    "fare_raised": (2, "add"),
    "seats_cut": (1, "add"),
    "duty_struck": (2, "remove"),
    "receipt_voided": (1, "remove"),
    "foot_cancelled": (2, "add+remove"),
    "car_cancelled": (2, "add+remove"),
}
DRAWS = 200  # logs drawn at most for one seed
STEPS = (0, 0, 1, 1, 1, 2)  # days between one record and the next


# -- the state the log keeps ------------------------------------------------------------------------


@dataclass
class Holder:
    name: str
    phone: str | None
    email: str | None
    harbour: str | None
    kind: str
    reg: str | None
    opened: dt.date = START


@dataclass
class Vessel:
    code: str
    name: str
    cars: int
    seats: int
    state: str = "in_service"
    until: dt.date | None = None


@dataclass
class Sailing:
    code: str
    route: str
    vessel: str
    day: dt.date
    time: str
    cars: int
    seats: int
    state: str = "scheduled"
    reason: str | None = None
    since: dt.date = START  # the day of its last change of state

    def number(self) -> int:
        return int(self.code.split("-")[1])


@dataclass
class Booking:
    holder: str
    sailing: str
    day: dt.date
    adults: int
    children: int
    vehicle: str | None
    fare: float
    state: str = "booked"

    def people(self) -> int:
        return self.adults + self.children


@dataclass
class Duty:
    sailing: str
    crew: str
    role: str


@dataclass
class Receipt:
    holder: str
    day: dt.date
    amount: float
    via: str


@dataclass
class Draft:
    """One record before its wording is chosen: each wording's text states every value in `stated`."""

    facts: Mapping[str, object]
    gold: list[str]
    texts: dict[str, str]
    stated: list[str]


def money(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def half(value: float) -> float:
    """A fare to the nearest 50p."""
    return max(0.5, round(value * 2) / 2)


def _holder(name: str) -> str:
    return lookup("account_holders", "holder_no", "holder_name", name)


def _harbour(name: str) -> str:
    return lookup("harbours", "harbour_code", "harbour_name", name)


def _value(value: object) -> str:
    return "NULL" if value is None else sql_text(str(value))


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _owner(name: str) -> str:
    """A name's possessive: "Quarrybank Builders'", "Peigi Haldane's"."""
    return name + ("'" if name.endswith("s") else "'s")


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class Ferry:
    """The seeded simulation of the ferry operator: reference rows, then one record at a time, then questions."""

    def __init__(self, rng: random.Random, forms: int) -> None:
        self.rng = rng
        self.day = START
        self.forms = forms
        self.records: list[Record] = []
        self.harbours = {code: (name, berth, tidal) for code, name, berth, tidal in HARBOURS}
        self.links = sorted(rng.sample(LINKS, 3))
        self.routes: dict[str, tuple[str, str, int]] = {}
        for a, b, mins in self.links:
            self.routes[f"{a}-{b}"] = (a, b, mins)
            self.routes[f"{b}-{a}"] = (b, a, mins)
        self.fares: dict[tuple[str, str], float] = {}
        missing = rng.sample([(link, band) for link in range(3) for band in ("camper van", "car with trailer")], 3)
        for i, (a, b, mins) in enumerate(self.links):
            adult = half(2 + mins * 0.12 + rng.choice((0, 0.5, 1)))
            car = half(adult * 3.5)
            prices = {
                "adult": adult,
                "child": half(adult / 2),
                "car": car,
                "van": half(car * 1.6),
                "motorbike": half(car * 0.5),
                "camper van": half(car * 1.8),
                "car with trailer": half(car * 2),
            }
            for band, price in prices.items():
                if (i, band) not in missing:
                    self.fares[(f"{a}-{b}", band)] = price
                    self.fares[(f"{b}-{a}", band)] = price
        self.unfared: dict[tuple[tuple[str, str, int], str], float] = {}  # (link, band) -> its fare once added
        for i, band in missing:
            a, b, _ = self.links[i]
            self.unfared[(self.links[i], band)] = half(self.fares[(f"{a}-{b}", "car")] * 1.9)
        states = ["in_service", "in_service", "standby", "dry_dock"]
        rng.shuffle(states)
        self.vessels = {code: Vessel(code, name, cars, seats) for code, name, cars, seats in VESSELS}
        for vessel, state in zip(self.vessels.values(), states):
            vessel.state = state
            if state == "dry_dock":
                vessel.until = START + dt.timedelta(days=rng.randrange(10, 30))
        self.next_sailing = rng.randrange(100, 600)
        self.sailings: dict[str, Sailing] = {}
        offsets = sorted(rng.sample(range(-8, 66), 20))
        for offset in offsets:
            self._sailing(START + dt.timedelta(days=offset))
        for s in self.sailings.values():
            if s.day < START:
                s.state, s.since = "sailed", s.day
        future = [s for s in self.sailings.values() if s.day > START + dt.timedelta(days=2)]
        for s, state in zip(rng.sample(future, 2), ("cancelled", "weather_hold")):
            s.state, s.since = state, START - dt.timedelta(days=1)
            s.reason = rng.choice(sorted(REASONS) if state == "cancelled" else WEATHER)
        pool = list(HOLDERS)
        rng.shuffle(pool)
        self.holders: dict[str, Holder] = {}
        for name, phone, email, harbour, kind, reg in pool[:8]:
            opened = START - dt.timedelta(days=rng.randrange(40, 900))
            self.holders[name] = Holder(name, phone, email, harbour, kind, reg, opened)
        newcomers = pool[8:] + list(NEW_HOLDERS)
        rng.shuffle(newcomers)
        self.newcomers = [Holder(*p) for p in newcomers]
        self.no_booking = rng.choice(self.names())  # a holder who never books
        self.bookings: list[Booking] = []
        for _ in range(12):
            name = rng.choice([n for n in self.names() if n != self.no_booking])
            options = [
                s
                for s in self.sailings.values()
                if s.day <= START + dt.timedelta(days=30)
                and not any(b.holder == name and b.sailing == s.code for b in self.bookings)
            ]
            sailing = rng.choice(options)
            made = min(sailing.day, START) - dt.timedelta(days=rng.randrange(1, 12))
            booking = self._booking(name, sailing, made)
            if sailing.state == "sailed":
                booking.state = rng.choice(("checked_in", "checked_in", "checked_in", "no_show"))
        self.duties: list[Duty] = []
        self.receipts: list[Receipt] = []
        self.reference = self._reference()

    def _sailing(self, day: dt.date, route: str | None = None) -> Sailing:
        """A new sailing on `day` (on `route`, else any) at a time its route has free that day, by a vessel not in
        dry dock."""
        rng = self.rng
        self.next_sailing += rng.randint(3, 17)
        route = route or rng.choice(sorted(self.routes))
        taken = {s.time for s in self.sailings.values() if s.route == route and s.day == day}
        time = rng.choice([t for t in TIMES if t not in taken])
        vessel = self.vessels[rng.choice(self.afloat())]
        sailing = Sailing(
            f"SL-{self.next_sailing:04d}",
            route,
            vessel.code,
            day,
            time,
            vessel.cars,
            vessel.seats,
            since=min(day, self.day),
        )
        self.sailings[sailing.code] = sailing
        return sailing

    def _party(self, name: str, sailing: Sailing) -> tuple[int, int, str | None]:
        """Who and what a holder books on a sailing: adults, children, and a vehicle or none."""
        rng = self.rng
        holder = self.holders[name]
        vehicles = [v for v in VEHICLES if (sailing.route, v) in self.fares]
        if holder.kind == "haulier":
            return 1, 0, ("van" if sailing.cars else None)
        adults = rng.choice((1, 1, 2, 2, 3, 4))
        children = rng.choice((0, 0, 0, 1, 2, 3)) if holder.kind != "commuter" else 0
        vehicle = None
        if sailing.cars and rng.random() < (0.75 if holder.reg else 0.35):
            vehicle = rng.choice([v for v in vehicles if v != "van"] or vehicles)
        return adults, children, vehicle

    def _fare(self, route: str, adults: int, children: int, vehicle: str | None) -> float:
        fare = adults * self.fares[(route, "adult")] + children * self.fares[(route, "child")]
        return round(fare + (self.fares[(route, vehicle)] if vehicle else 0), 2)

    def _booking(self, name: str, sailing: Sailing, day: dt.date) -> Booking:
        adults, children, vehicle = self._party(name, sailing)
        fare = self._fare(sailing.route, adults, children, vehicle)
        booking = Booking(name, sailing.code, day, adults, children, vehicle, fare)
        sailing.seats -= booking.people()
        sailing.cars -= 1 if vehicle else 0
        self.bookings.append(booking)
        return booking

    # -- reference rows ---------------------------------------------------------------------------

    def _reference(self) -> str:
        def values(rows: list[str]) -> str:
            return ", ".join(rows) + ";"

        harbours = [
            f"('{code}', {sql_text(name)}, '{berth}', {str(tidal).lower()})"
            for code, (name, berth, tidal) in self.harbours.items()
        ]
        vessels = [
            f"('{v.code}', {sql_text(v.name)}, {v.cars}, {v.seats}, '{v.state}', "
            f"{sql_date(v.until) if v.until else 'NULL'})"
            for v in self.vessels.values()
        ]
        routes = [f"('{code}', '{a}', '{b}', {mins})" for code, (a, b, mins) in self.routes.items()]
        fares = [f"('{route}', '{band}', {money(price)})" for (route, band), price in self.fares.items()]
        sailings = [
            f"('{s.code}', '{s.route}', '{s.vessel}', {sql_date(s.day)}, '{s.time}', '{s.state}', {_value(s.reason)}, "
            f"{s.cars}, {s.seats})"
            for s in self.sailings.values()
        ]
        holders = [
            f"({sql_text(h.name)}, {_value(h.phone)}, {_value(h.email)}, {_value(h.harbour)}, '{h.kind}', "
            f"{_value(h.reg)}, {sql_date(h.opened)})"
            for h in self.holders.values()
        ]
        bookings = [
            f"({_holder(b.holder)}, '{b.sailing}', {sql_date(b.day)}, {b.adults}, {b.children}, {_value(b.vehicle)}, "
            f"{money(b.fare)}, '{b.state}')"
            for b in self.bookings
        ]
        statements = (
            "INSERT INTO harbours (harbour_code, harbour_name, berth_type, tide_bound) VALUES " + values(harbours),
            "INSERT INTO vessels (vessel_code, vessel_name, car_deck, passenger_cert, vessel_state, refit_until) "
            "VALUES " + values(vessels),
            "INSERT INTO sea_routes (route_code, from_harbour, to_harbour, crossing_mins) VALUES " + values(routes),
            "INSERT INTO fare_table (route_code, fare_band, fare_amount) VALUES " + values(fares),
            "INSERT INTO sailings (sailing_code, route_code, vessel_code, depart_day, depart_time, sailing_state, "
            "hold_reason, car_spaces_left, seats_left) VALUES " + values(sailings),
            "INSERT INTO account_holders (holder_name, contact_phone, contact_email, home_harbour, account_kind, "
            "vehicle_reg, account_opened) VALUES " + values(holders),
            "INSERT INTO crossing_bookings (holder_no, sailing_code, made_on, adults, children, vehicle_kind, "
            "fare_total, booking_state) VALUES " + values(bookings),
        )
        return "\n".join(statements)

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

    def harbour_name(self, code: str) -> str:
        return self.harbours[code][0]

    def route_words(self, route: str) -> str:
        a, b, _ = self.routes[route]
        return f"{self.harbour_name(a)} to {self.harbour_name(b)}"

    def sailing_said(self, sailing: Sailing) -> tuple[str, str, list[str]]:
        """A sailing as a user names it ('SL-0412', 'sailing 412', or 'the 07:40 Kilvarrow to Tarvaig sailing on 3
        March 2025'), the SQL value of its code as the text names it, and what the text states."""
        code = f"'{sailing.code}'"
        when = self.date(sailing.day)
        key = (
            f"(SELECT sailing_code FROM sailings WHERE route_code = '{sailing.route}' AND depart_day = "
            f"{sql_date(sailing.day)} AND depart_time = '{sailing.time}')"
        )
        a, b, _ = self.routes[sailing.route]
        return self.rng.choice(
            [
                (sailing.code, code, [sailing.code]),
                (f"sailing {sailing.number()}", code, [f"sailing {sailing.number()}"]),
                (f"sailing {sailing.number()}", code, [f"sailing {sailing.number()}"]),
                (
                    f"the {sailing.time} {self.route_words(sailing.route)} sailing on {when}",
                    key,
                    [sailing.time, self.harbour_name(a), self.harbour_name(b), when],
                ),
            ]
        )

    def party_said(self, adults: int, children: int, vehicle: str | None) -> tuple[str, list[str]]:
        """'two adults, one child and a car', and what the text states."""
        parts, stated = [], []
        for n, one, many in ((adults, "adult", "adults"), (children, "child", "children")):
            if n:
                amount, said = self.count(n)
                parts.append(f"{amount} {one if n == 1 else many}")
                stated += said
        if vehicle:
            parts.append(f"a {vehicle}")
            stated.append(vehicle)
        return _joined(parts), stated

    # -- the state ----------------------------------------------------------------------------------

    def names(self) -> list[str]:
        return sorted(self.holders)

    def afloat(self) -> list[str]:
        return sorted(code for code, v in self.vessels.items() if v.state != "dry_dock")

    def owes(self, name: str) -> float:
        charged = sum(
            b.fare for b in self.bookings if b.holder == name and self.sailings[b.sailing].state != "cancelled"
        )
        return round(charged - sum(r.amount for r in self.receipts if r.holder == name), 2)

    def ahead(self, slack: int = 0) -> list[Sailing]:
        """Sailings still to go (scheduled, on or after today, less `slack` days)."""
        return [
            s for s in self.sailings.values() if s.state == "scheduled" and s.day >= self.day - dt.timedelta(days=slack)
        ]

    def reg(self) -> str:
        rng = self.rng
        letters = "ABCDEFGHJKLMNPRSTVWXY"
        taken = {h.reg for h in self.holders.values()} | {h.reg for h in self.newcomers}
        while True:
            reg = f"S{rng.choice('KNV')}{rng.randint(15, 24)} {''.join(rng.choice(letters) for _ in range(3))}"
            if reg not in taken:
                return reg

    # -- new facts ----------------------------------------------------------------------------------

    def holder_opened(self) -> Draft | None:
        if not self.newcomers:
            return None
        h = self.newcomers.pop(0)
        h.opened = self.day
        self.holders[h.name] = h
        harbour = self.harbour_name(h.harbour) if h.harbour else None
        gold = [
            "INSERT INTO account_holders (holder_name, contact_phone, contact_email, home_harbour, account_kind, "
            f"vehicle_reg, account_opened) VALUES ({sql_text(h.name)}, {_value(h.phone)}, {_value(h.email)}, "
            f"{_harbour(harbour) if harbour else 'NULL'}, '{h.kind}', {_value(h.reg)}, {sql_date(self.day)})"
        ]
        kind, day = self.rng.choice(KIND_SAID[h.kind]), self.date(self.day)
        home = f"lives at {harbour}" if harbour else "no home harbour"
        contact = (
            (f"phone {h.phone}" if h.phone else "no phone") + ", " + (f"email {h.email}" if h.email else "no email")
        )
        vehicle = f"vehicle reg {h.reg}" if h.reg else "no vehicle"
        texts = {
            "log": f"{day} | new account | {h.name} | {kind} | {home} | {contact} | {vehicle}",
            "chatty": f"Opened a ferry account for {h.name} on {day} ({kind}, {home}); {contact}; {vehicle}",
            "keyvalue": keyvalue(
                "new account",
                [("name", h.name), ("account", kind), ("home harbour", harbour or "none")]
                + [("phone", h.phone or "none"), ("email", h.email or "none"), ("vehicle reg", h.reg or "none")]
                + [("opened", day)],
            ),
        }
        facts = {
            "holder": h.name,
            "phone": h.phone,
            "email": h.email,
            "home_harbour": h.harbour,
            "kind": h.kind,
            "reg": h.reg,
        }
        stated = [h.name, *(v for v in (h.phone, h.email, harbour, h.reg) if v), day]
        return Draft(facts, gold, texts, stated)

    def booking(self) -> Draft | None:
        rng = self.rng
        options = [
            (s, n)
            for s in self.ahead()
            if s.day > self.day and s.seats >= 10
            for n in self.names()
            if n != self.no_booking and not any(b.holder == n and b.sailing == s.code for b in self.bookings)
        ]
        if not options:
            return None
        fresh = [(s, n) for s, n in options if not any(b.holder == n for b in self.bookings)]
        later = [(s, n) for s, n in options if s.day >= self.day + dt.timedelta(days=4)]
        sailing, name = rng.choice(
            fresh if fresh and rng.random() < 0.4 else later if later and rng.random() < 0.7 else options
        )
        phrase, key, said = self.sailing_said(sailing)
        booking = self._booking(name, sailing, self.day)
        fare = money(booking.fare)
        cars = ", car_spaces_left = car_spaces_left - 1" if booking.vehicle else ""
        gold = [
            "INSERT INTO crossing_bookings (holder_no, sailing_code, made_on, adults, children, vehicle_kind, "
            f"fare_total) VALUES ({_holder(name)}, {key}, {sql_date(self.day)}, {booking.adults}, "
            f"{booking.children}, {_value(booking.vehicle)}, {fare})",
            f"UPDATE sailings SET seats_left = seats_left - {booking.people()}{cars} WHERE sailing_code = {key}",
        ]
        party, p_said = self.party_said(booking.adults, booking.children, booking.vehicle)
        day = self.date(self.day)
        counts = [("adults", booking.adults), ("children", booking.children)]
        texts = {
            "log": f"{day} | booking | {name} | {phrase} | {party} | £{fare} on account",
            "chatty": rng.choice(
                (
                    f"{name} booked {party} on {phrase} on {day}; the £{fare} goes on their account",
                    f"Put {party} on {phrase} for {name} ({day}), £{fare} charged to their account",
                )
            ),
            "keyvalue": keyvalue(
                "booking",
                [("account", name), ("sailing", phrase), *counts, ("vehicle", booking.vehicle or "none")]
                + [("fare", fare), ("booked", day)],
            ),
        }
        stated = [name, *said, fare, day, *p_said]
        facts = {
            "holder": name,
            "sailing": sailing.code,
            "adults": booking.adults,
            "children": booking.children,
            "vehicle": booking.vehicle,
            "fare": booking.fare,
        }
        return Draft(facts, gold, texts, stated)

    def sailing_added(self) -> Draft | None:
        rng = self.rng
        if len(self.afloat()) < 1:
            return None
        sailing = self._sailing(self.day + dt.timedelta(days=rng.randint(4, 21)))
        a, b, _ = self.routes[sailing.route]
        vessel = self.vessels[sailing.vessel]
        gold = [
            "INSERT INTO sailings (sailing_code, route_code, vessel_code, depart_day, depart_time, car_spaces_left, "
            f"seats_left) VALUES ('{sailing.code}', (SELECT route_code FROM sea_routes WHERE from_harbour = "
            f"{_harbour(self.harbour_name(a))} AND to_harbour = {_harbour(self.harbour_name(b))}), "
            f"(SELECT vessel_code FROM vessels WHERE vessel_name = {sql_text(vessel.name)}), {sql_date(sailing.day)}, "
            f"'{sailing.time}', {sailing.cars}, {sailing.seats})"
        ]
        code, c_said = rng.choice(
            [(sailing.code, sailing.code), (f"number {sailing.number()}", f"number {sailing.number()}")]
        )
        when, day = self.date(sailing.day), self.date(self.day)
        route = self.route_words(sailing.route)
        texts = {
            "log": f"{day} | extra sailing | {code} | {route} | {when} {sailing.time} | {vessel.name} | "
            f"{sailing.cars} car spaces, {sailing.seats} seats",
            "chatty": f"We've put on an extra sailing, {code}: {route} on {when} at {sailing.time} on the "
            f"{vessel.name}, with {sailing.cars} car spaces and {sailing.seats} seats to sell (added {day})",
            "keyvalue": keyvalue(
                "extra sailing",
                [("sailing", code), ("from", self.harbour_name(a)), ("to", self.harbour_name(b))]
                + [("departs", f"{when} {sailing.time}"), ("vessel", vessel.name), ("car spaces", sailing.cars)]
                + [("seats", sailing.seats), ("added", day)],
            ),
        }
        facts = {
            "sailing": sailing.code,
            "route": sailing.route,
            "vessel": sailing.vessel,
            "depart_day": sailing.day.isoformat(),
            "depart_time": sailing.time,
            "car_spaces": sailing.cars,
            "seats": sailing.seats,
        }
        stated = [c_said, self.harbour_name(a), self.harbour_name(b), when, sailing.time, vessel.name]
        return Draft(facts, gold, texts, [*stated, str(sailing.cars), str(sailing.seats), day])

    def duty_rostered(self) -> Draft | None:
        rng = self.rng
        sailings = [s for s in self.ahead() if s.day >= self.day and len(self.crew_on(s.code)) < 3]
        if not sailings:
            return None
        sailing = rng.choice(sailings)
        on = self.crew_on(sailing.code)
        free = [c for c in CREW if c not in on]
        n = min(len(free), rng.choice((1, 2, 2)))
        crew = rng.sample(free, n)
        have = {d.role for d in self.duties if d.sailing == sailing.code}
        roles = [r for r in ("master", "engineer", "first_mate") if r not in have]
        duties = []
        for name in crew:
            role = roles.pop(0) if roles else rng.choice(("deckhand", "deckhand", "purser"))
            duties.append(Duty(sailing.code, name, role))
        self.duties += duties
        phrase, key, said = self.sailing_said(sailing)
        rows = ", ".join(f"({key}, {sql_text(d.crew)}, '{d.role}')" for d in duties)
        gold = [f"INSERT INTO crew_duties (sailing_code, crew_name, duty_role) VALUES {rows}"]
        listed = [f"{d.crew} ({ROLE_SAID[d.role]})" for d in duties]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | roster | {phrase} | {', '.join(listed)}",
            "chatty": f"Rostered for {phrase}: "
            + _joined([f"{d.crew} as {ROLE_SAID[d.role]}" for d in duties])
            + f" (done {day})",
            "keyvalue": keyvalue("crew roster", [("sailing", phrase), ("crew", ", ".join(listed)), ("date", day)]),
        }
        facts = {"sailing": sailing.code, "crew": [(d.crew, d.role) for d in duties]}
        stated = [*said, *(d.crew for d in duties), *(ROLE_SAID[d.role] for d in duties), day]
        return Draft(facts, gold, texts, stated)

    def crew_on(self, sailing: str) -> list[str]:
        return [d.crew for d in self.duties if d.sailing == sailing]

    def receipt(self) -> Draft | None:
        rng = self.rng
        paid_today = {r.holder for r in self.receipts if r.day == self.day}
        owing = [n for n in self.names() if self.owes(n) > 0 and n not in paid_today]
        if not owing:
            return None
        name = rng.choice(owing)
        due = self.owes(name)
        amount = due if rng.random() < 0.6 or due <= 20 else float(rng.randrange(10, int(due), 5))
        via = rng.choice(TAKEN_BY)
        self.receipts.append(Receipt(name, self.day, amount, via))
        gold = [
            "INSERT INTO account_receipts (holder_no, receipt_day, taken_amount, taken_by) VALUES "
            f"({_holder(name)}, {sql_date(self.day)}, {money(amount)}, '{via}')"
        ]
        how, day = rng.choice(VIA_SAID[via]), self.date(self.day)
        texts = {
            "log": f"{day} | receipt | {name} | £{money(amount)} | {how}",
            "chatty": f"{name} paid £{money(amount)} off their ferry account {how} on {day}",
            "keyvalue": keyvalue(
                "account receipt", [("account", name), ("amount", money(amount)), ("paid", how), ("date", day)]
            ),
        }
        facts = {"holder": name, "amount": amount, "via": via}
        return Draft(facts, gold, texts, [name, money(amount), day])

    def fare_added(self) -> Draft | None:
        if not self.unfared:
            return None
        (link, band), price = self.rng.choice(sorted(self.unfared.items()))
        del self.unfared[(link, band)]
        a, b, _ = link
        self.fares[(f"{a}-{b}", band)] = price
        self.fares[(f"{b}-{a}", band)] = price
        gold = [
            "INSERT INTO fare_table (route_code, fare_band, fare_amount) VALUES "
            f"('{a}-{b}', '{band}', {money(price)}), ('{b}-{a}', '{band}', {money(price)})"
        ]
        one, two, day = self.harbour_name(a), self.harbour_name(b), self.date(self.day)
        plural = "camper vans" if band == "camper van" else "cars with trailers"
        texts = {
            "log": f"{day} | new fare | {band} | {one} - {two}, both directions | £{money(price)}",
            "chatty": f"From {day} we'll carry {plural} between {one} and {two} too: the {band} fare is "
            f"£{money(price)} each way",
            "keyvalue": keyvalue(
                "new fare",
                [("band", band), ("between", f"{one} and {two}"), ("directions", "both"), ("fare", money(price))]
                + [("from", day)],
            ),
        }
        facts = {"routes": [f"{a}-{b}", f"{b}-{a}"], "band": band, "fare": price}
        return Draft(facts, gold, texts, [band, one, two, money(price), day])

    # -- changes: a value given, or found by a name -------------------------------------------------

    def _disrupted(self, state: str) -> Draft | None:
        sailings = [s for s in self.ahead() if s.day >= self.day and s.since < self.day]
        if not sailings:
            return None
        later = [s for s in sailings if s.day >= self.day + dt.timedelta(days=4)]
        sailing = self.rng.choice(later or sailings)
        phrase, key, said = self.sailing_said(sailing)
        sailing.state, sailing.since = state, self.day
        sailing.reason = self.rng.choice(sorted(REASONS) if state == "cancelled" else WEATHER)
        shorts, clause, _ = REASONS[sailing.reason]
        short, day = self.rng.choice(shorts), self.date(self.day)
        gold = [
            f"UPDATE sailings SET sailing_state = '{state}', hold_reason = '{sailing.reason}' WHERE sailing_code = {key}"
        ]
        if state == "cancelled":
            texts = {
                "log": f"{day} | {phrase} | cancelled, {short}",
                "chatty": f"{_capital(phrase)} is cancelled because {clause} (decided {day})",
                "keyvalue": keyvalue(
                    "sailing update", [("sailing", phrase), ("status", "cancelled"), ("reason", short), ("date", day)]
                ),
            }
        else:
            texts = {
                "log": f"{day} | {phrase} | on weather hold, {short}",
                "chatty": f"{_capital(phrase)} is on weather hold, {clause}; we'll decide on the day ({day})",
                "keyvalue": keyvalue(
                    "sailing update",
                    [("sailing", phrase), ("status", "weather hold"), ("reason", short), ("date", day)],
                ),
            }
        facts = {"sailing": sailing.code, "state": state, "reason": sailing.reason}
        return Draft(facts, gold, texts, [*said, day])

    def sailing_cancelled(self) -> Draft | None:
        return self._disrupted("cancelled")

    def weather_hold(self) -> Draft | None:
        return self._disrupted("weather_hold")

    def _free_times(self, sailing: Sailing) -> list[str]:
        taken = {s.time for s in self.sailings.values() if s.route == sailing.route and s.day == sailing.day}
        return [t for t in TIMES if t not in taken]

    def sailing_retimed(self) -> Draft | None:
        sailings = [s for s in self.ahead() if s.day > self.day]
        if not sailings:
            return None
        sailing = self.rng.choice(sailings)
        phrase, key, said = self.sailing_said(sailing)
        i = TIMES.index(sailing.time)
        near = [t for t in self._free_times(sailing) if abs(TIMES.index(t) - i) <= 2]
        if not near:
            return None
        old, sailing.time = sailing.time, self.rng.choice(near)
        gold = [f"UPDATE sailings SET depart_time = '{sailing.time}' WHERE sailing_code = {key}"]
        day = self.date(self.day)
        how = "later" if sailing.time > old else "earlier"
        texts = {
            "log": f"{day} | retime | {phrase} | now leaves {sailing.time}",
            "chatty": f"To fit the tide, {phrase} will leave {how}, at {sailing.time} (changed {day})",
            "keyvalue": keyvalue("sailing update", [("sailing", phrase), ("departs", sailing.time), ("date", day)]),
        }
        facts = {"sailing": sailing.code, "depart_time": sailing.time}
        return Draft(facts, gold, texts, [*said, sailing.time, day])

    def vessel_swapped(self) -> Draft | None:
        options = [(s, v) for s in self.ahead() if s.day > self.day for v in self.afloat() if v != s.vessel]
        if not options:
            return None
        sailing, code = self.rng.choice(options)
        phrase, key, said = self.sailing_said(sailing)
        old, sailing.vessel = self.vessels[sailing.vessel].name, code
        name = self.vessels[code].name
        gold = [
            f"UPDATE sailings SET vessel_code = (SELECT vessel_code FROM vessels WHERE vessel_name = {sql_text(name)}) "
            f"WHERE sailing_code = {key}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | vessel change | {phrase} | {name} instead of {old}",
            "chatty": f"The {name} will take {phrase} rather than the {old} (sorted {day})",
            "keyvalue": keyvalue("sailing update", [("sailing", phrase), ("vessel", name), ("date", day)]),
        }
        facts = {"sailing": sailing.code, "vessel": code}
        return Draft(facts, gold, texts, [*said, name, day])

    def kind_changed(self) -> Draft | None:
        names = [n for n in self.names() if self.holders[n].kind != "haulier"]
        if not names:
            return None
        name = self.rng.choice(names)
        holder = self.holders[name]
        old = holder.kind
        holder.kind = self.rng.choice([k for k in ("islander", "commuter", "holiday_let") if k != old])
        gold = [f"UPDATE account_holders SET account_kind = '{holder.kind}' WHERE holder_name = {sql_text(name)}"]
        before, after = KIND_SAID[old][0], self.rng.choice(KIND_SAID[holder.kind])
        day = self.date(self.day)
        texts = {
            "log": f"{day} | account change | {name} | {before} -> {after}",
            "chatty": f"{_owner(name)} account moves from {before} to {after} from {day}",
            "keyvalue": keyvalue("account change", [("account", name), ("was", before), ("now", after), ("from", day)]),
        }
        return Draft({"holder": name, "kind": holder.kind}, gold, texts, [name, after, day])

    def checked_in(self) -> Draft | None:
        bookings = [
            b
            for b in self.bookings
            if b.state == "booked"
            and b.day < self.day
            and self.sailings[b.sailing].state == "scheduled"
            and self.day - dt.timedelta(days=3) <= self.sailings[b.sailing].day <= self.day + dt.timedelta(days=1)
        ]
        if not bookings:
            return None
        booking = self.rng.choice(bookings)
        booking.state = "checked_in"
        phrase, key, said = self.sailing_said(self.sailings[booking.sailing])
        gold = [
            f"UPDATE crossing_bookings SET booking_state = 'checked_in' WHERE holder_no = {_holder(booking.holder)} "
            f"AND sailing_code = {key}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | check-in | {booking.holder} | {phrase}",
            "chatty": f"{booking.holder} checked in at the pier office for {phrase} ({day})",
            "keyvalue": keyvalue(
                "check-in", [("account", booking.holder), ("sailing", phrase), ("status", "checked in"), ("date", day)]
            ),
        }
        facts = {"holder": booking.holder, "sailing": booking.sailing, "state": "checked_in"}
        return Draft(facts, gold, texts, [booking.holder, *said, day])

    def vessel_refit(self) -> Draft | None:
        afloat = self.afloat()
        standby = [c for c in afloat if self.vessels[c].state == "standby"]
        if len(afloat) < 3 and not standby:
            return None
        vessel = self.vessels[self.rng.choice(standby or afloat)]
        vessel.state, vessel.until = "dry_dock", self.day + dt.timedelta(days=self.rng.randrange(12, 40))
        ref, r_said = self.rng.choice([(vessel.name, vessel.name), (vessel.code, vessel.code)])
        where = f"vessel_name = {sql_text(vessel.name)}" if ref == vessel.name else f"vessel_code = '{vessel.code}'"
        gold = [f"UPDATE vessels SET vessel_state = 'dry_dock', refit_until = {sql_date(vessel.until)} WHERE {where}"]
        until, day = self.date(vessel.until), self.date(self.day)
        texts = {
            "log": f"{day} | vessel | {ref} | into dry dock, refit until {until}",
            "chatty": f"{'The' if ref == vessel.name else 'Vessel'} {ref} went up the slip into dry dock on {day} for "
            f"her refit, due out {until}",
            "keyvalue": keyvalue(
                "vessel update", [("vessel", ref), ("status", "dry dock"), ("refit until", until), ("date", day)]
            ),
        }
        facts = {"vessel": vessel.code, "state": "dry_dock", "refit_until": vessel.until.isoformat()}
        return Draft(facts, gold, texts, [r_said, until, day])

    def reg_given(self) -> Draft | None:
        names = [n for n in self.names() if self.holders[n].reg is None]
        if not names:
            return None
        name = self.rng.choice(names)
        reg = self.reg()
        self.holders[name].reg = reg
        gold = [f"UPDATE account_holders SET vehicle_reg = '{reg}' WHERE holder_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | vehicle | {name} | reg {reg}",
            "chatty": f"{name} has bought a car, registration {reg}; put it on their account ({day})",
            "keyvalue": keyvalue("vehicle", [("account", name), ("reg", reg), ("date", day)]),
        }
        return Draft({"holder": name, "reg": reg}, gold, texts, [name, reg, day])

    def duty_role_changed(self) -> Draft | None:
        duties = [d for d in self.duties if self.sailings[d.sailing].day >= self.day]
        if not duties:
            return None
        duty = self.rng.choice(duties)
        have = {d.role for d in self.duties if d.sailing == duty.sailing}
        roles = [r for r in ROLES if r != duty.role and (r not in have or r in ("deckhand", "purser"))]
        if not roles:
            return None
        old, duty.role = duty.role, self.rng.choice(roles)
        phrase, key, said = self.sailing_said(self.sailings[duty.sailing])
        gold = [
            f"UPDATE crew_duties SET duty_role = '{duty.role}' WHERE sailing_code = {key} "
            f"AND crew_name = {sql_text(duty.crew)}"
        ]
        role, was, day = ROLE_SAID[duty.role], ROLE_SAID[old], self.date(self.day)
        texts = {
            "log": f"{day} | roster | {phrase} | {duty.crew} now {role}, not {was}",
            "chatty": f"On {phrase} {duty.crew} will sail as {role} instead of {was} (changed {day})",
            "keyvalue": keyvalue(
                "crew roster", [("sailing", phrase), ("crew", duty.crew), ("role", role), ("date", day)]
            ),
        }
        facts = {"sailing": duty.sailing, "crew": duty.crew, "role": duty.role}
        return Draft(facts, gold, texts, [*said, duty.crew, role, day])

    # -- changes: a value erased --------------------------------------------------------------------

    def contact_dropped(self) -> Draft | None:
        dropped = sum(r.kind == "contact_dropped" for r in self.records)
        column, attr, what = (
            ("contact_phone", "phone", "phone number") if dropped == 1 else ("contact_email", "email", "email address")
        )
        names = [n for n, h in sorted(self.holders.items()) if getattr(h, attr)]
        if not names:
            return None
        name = self.rng.choice(names)
        setattr(self.holders[name], attr, None)
        gold = [f"UPDATE account_holders SET {column} = NULL WHERE holder_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {name} | {what} no longer works, remove it",
            "chatty": f"Messages to {_owner(name)} {what} bounce ({day}); take it off their account",
            "keyvalue": keyvalue("contact change", [("account", name), (what, "none"), ("date", day)]),
        }
        return Draft({"holder": name, column: None}, gold, texts, [name, day])

    def reg_dropped(self) -> Draft | None:
        names = [n for n, h in sorted(self.holders.items()) if h.reg and h.kind != "haulier"]
        if not names:
            return None
        name = self.rng.choice(names)
        reg, self.holders[name].reg = self.holders[name].reg, None
        gold = [f"UPDATE account_holders SET vehicle_reg = NULL WHERE holder_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | vehicle | {name} | sold {reg}, no vehicle now",
            "chatty": f"{name} sold the car ({reg}) on {day} and goes on foot now; clear the reg off their account",
            "keyvalue": keyvalue("vehicle", [("account", name), ("reg", f"none (sold {reg})"), ("date", day)]),
        }
        return Draft({"holder": name, "reg": None}, gold, texts, [name, reg, day])

    # -- changes: a value erased and another given ------------------------------------------------------

    def sailing_restored(self) -> Draft | None:
        sailings = [
            s
            for s in self.sailings.values()
            if s.state in ("cancelled", "weather_hold") and s.since < self.day and s.day >= self.day
        ]
        if not sailings:
            return None
        sailing = self.rng.choice(sailings)
        phrase, key, said = self.sailing_said(sailing)
        _, _, ended = REASONS[str(sailing.reason)]
        sailing.state, sailing.reason, sailing.since = "scheduled", None, self.day
        gold = [f"UPDATE sailings SET sailing_state = 'scheduled', hold_reason = NULL WHERE sailing_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | back on, {ended}, no hold reason now",
            "chatty": f"{_capital(ended)}, so {phrase} is going ahead after all ({day}); clear the reason it was "
            "held up",
            "keyvalue": keyvalue(
                "sailing update", [("sailing", phrase), ("status", "scheduled"), ("reason", "none"), ("date", day)]
            ),
        }
        facts = {"sailing": sailing.code, "state": "scheduled", "reason": None}
        return Draft(facts, gold, texts, [*said, day])

    def vessel_back(self) -> Draft | None:
        soon = self.day + dt.timedelta(days=20)
        vessels = [v for v in self.vessels.values() if v.state == "dry_dock" and v.until and v.until < soon]
        if not vessels:
            return None
        vessel = self.rng.choice(vessels)
        vessel.state, vessel.until = "in_service", None
        gold = [
            "UPDATE vessels SET vessel_state = 'in_service', refit_until = NULL "
            f"WHERE vessel_name = {sql_text(vessel.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | vessel | {vessel.name} | refit done, back in service, no refit date now",
            "chatty": f"The {vessel.name} came out of dry dock on {day} and is back in service; clear her refit date",
            "keyvalue": keyvalue(
                "vessel update",
                [("vessel", vessel.name), ("status", "in service"), ("refit until", "none"), ("date", day)],
            ),
        }
        facts = {"vessel": vessel.code, "state": "in_service", "refit_until": None}
        return Draft(facts, gold, texts, [vessel.name, day])

    def moved_away(self) -> Draft | None:
        names = [n for n, h in sorted(self.holders.items()) if h.harbour and h.kind in ("islander", "commuter")]
        if not names:
            return None
        name = self.rng.choice(names)
        holder = self.holders[name]
        harbour = self.harbour_name(str(holder.harbour))
        holder.harbour, holder.kind = None, "visitor"
        gold = [
            "UPDATE account_holders SET home_harbour = NULL, account_kind = 'visitor' "
            f"WHERE holder_name = {sql_text(name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | account change | {name} | left {harbour} for the mainland | visitor, no home harbour",
            "chatty": f"{name} moved away from {harbour} to the mainland on {day}: make it a visitor account with no "
            "home harbour",
            "keyvalue": keyvalue(
                "account change",
                [
                    ("account", name),
                    ("home harbour", f"none (was {harbour})"),
                    ("account type", "visitor"),
                    ("from", day),
                ],
            ),
        }
        return Draft({"holder": name, "home_harbour": None, "kind": "visitor"}, gold, texts, [name, "visitor", day])

    # -- changes: a value read from another row of the same table -----------------------------------

    def sailing_same_time(self) -> Draft | None:
        pairs = [
            (a, b)
            for a in self.ahead()
            if a.day > self.day
            for b in self.sailings.values()
            if b.time != a.time
            and b.time in self._free_times(a)
            and abs(TIMES.index(a.time) - TIMES.index(b.time)) <= 3
        ]
        if not pairs:
            return None
        sailing, other = self.rng.choice(pairs)
        sailing.time = other.time
        gold = [
            f"UPDATE sailings SET depart_time = (SELECT depart_time FROM sailings WHERE sailing_code = '{other.code}') "
            f"WHERE sailing_code = '{sailing.code}'"
        ]
        one, two = self.rng.choice(
            [(sailing.code, other.code), (f"sailing {sailing.number()}", f"sailing {other.number()}")]
        )
        day = self.date(self.day)
        texts = {
            "log": f"{day} | retime | {one} | same departure time as {two}",
            "chatty": f"Move {one} so it leaves at the same time of day as {two} does ({day})",
            "keyvalue": keyvalue(
                "sailing update", [("sailing", one), ("departs", f"same time as {two}"), ("date", day)]
            ),
        }
        facts = {"sailing": sailing.code, "same_time_as": other.code, "depart_time": sailing.time}
        return Draft(facts, gold, texts, [one, two, day])

    def sailing_same_vessel(self) -> Draft | None:
        pairs = [
            (a, b)
            for a in self.ahead()
            if a.day > self.day
            for b in self.sailings.values()
            if b.vessel != a.vessel and self.vessels[b.vessel].state != "dry_dock"
        ]
        if not pairs:
            return None
        sailing, other = self.rng.choice(pairs)
        sailing.vessel = other.vessel
        gold = [
            f"UPDATE sailings SET vessel_code = (SELECT vessel_code FROM sailings WHERE sailing_code = '{other.code}') "
            f"WHERE sailing_code = '{sailing.code}'"
        ]
        one, two = self.rng.choice(
            [(sailing.code, other.code), (f"sailing {sailing.number()}", f"sailing {other.number()}")]
        )
        day = self.date(self.day)
        texts = {
            "log": f"{day} | vessel change | {one} | same boat as {two}",
            "chatty": f"Whichever boat is doing {two} should do {one} too (decided {day})",
            "keyvalue": keyvalue("sailing update", [("sailing", one), ("vessel", f"same as {two}"), ("date", day)]),
        }
        facts = {"sailing": sailing.code, "same_vessel_as": other.code, "vessel": sailing.vessel}
        return Draft(facts, gold, texts, [one, two, day])

    def phone_shared(self) -> Draft | None:
        people = sorted(self.holders.values(), key=lambda h: h.name)
        pairs = [(a, b) for a in people for b in people if b.phone and a.phone != b.phone]
        if not pairs:
            return None
        holder, other = self.rng.choice(pairs)
        holder.phone = other.phone
        gold = [
            "UPDATE account_holders SET contact_phone = (SELECT contact_phone FROM account_holders WHERE holder_name = "
            f"{sql_text(other.name)}) WHERE holder_name = {sql_text(holder.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {holder.name} | phone: same as {_owner(other.name)}",
            "chatty": f"{holder.name} says to ring {_owner(other.name)} number for them from now on ({day})",
            "keyvalue": keyvalue(
                "contact change", [("account", holder.name), ("phone", f"same as {other.name}"), ("date", day)]
            ),
        }
        facts = {"holder": holder.name, "same_phone_as": other.name, "phone": other.phone}
        return Draft(facts, gold, texts, [holder.name, other.name, day])

    def harbour_shared(self) -> Draft | None:
        people = sorted(self.holders.values(), key=lambda h: h.name)
        pairs = [(a, b) for a in people for b in people if b.harbour and a.harbour != b.harbour]
        if not pairs:
            return None
        holder, other = self.rng.choice(pairs)
        holder.harbour = other.harbour
        gold = [
            "UPDATE account_holders SET home_harbour = (SELECT home_harbour FROM account_holders WHERE holder_name = "
            f"{sql_text(other.name)}) WHERE holder_name = {sql_text(holder.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | account change | {holder.name} | home harbour same as {_owner(other.name)}",
            "chatty": f"{holder.name} has moved in with {other.name}, so give them the same home harbour ({day})",
            "keyvalue": keyvalue(
                "account change", [("account", holder.name), ("home harbour", f"same as {other.name}"), ("date", day)]
            ),
        }
        facts = {"holder": holder.name, "same_harbour_as": other.name, "home_harbour": other.harbour}
        return Draft(facts, gold, texts, [holder.name, other.name, day])

    # -- changes: a number raised or lowered ----------------------------------------------------------

    def _spaces(self, more: bool) -> Draft | None:
        rng = self.rng
        sailings = [s for s in self.ahead() if s.day >= self.day and (more or s.cars >= 4)]
        if not sailings:
            return None
        sailing = rng.choice(sailings)
        n = rng.randint(1, 3) if more else rng.randint(2, min(4, sailing.cars - 1))
        sailing.cars += n if more else -n
        phrase, key, said = self.sailing_said(sailing)
        gold = [
            f"UPDATE sailings SET car_spaces_left = car_spaces_left {'+' if more else '-'} {n} "
            f"WHERE sailing_code = {key}"
        ]
        amount, n_said = self.count(n)
        day = self.date(self.day)
        noun = "car space" if n == 1 else "car spaces"
        if more:
            texts = {
                "log": f"{day} | {phrase} | {amount} more {noun} to sell",
                "chatty": f"The deck crew re-stowed the lanes, so {phrase} has {amount} more {noun} to sell ({day})",
                "keyvalue": keyvalue(
                    "sailing update", [("sailing", phrase), ("extra car spaces", amount), ("date", day)]
                ),
            }
        else:
            texts = {
                "log": f"{day} | {phrase} | {amount} {noun} held back for the council gritters",
                "chatty": f"Take {amount} {noun} off sale on {phrase}, the council's gritters need them ({day})",
                "keyvalue": keyvalue(
                    "sailing update", [("sailing", phrase), ("car spaces held back", amount), ("date", day)]
                ),
            }
        facts = {"sailing": sailing.code, "change": n if more else -n, "car_spaces_left": sailing.cars}
        return Draft(facts, gold, texts, [*said, *n_said, day])

    def spaces_added(self) -> Draft | None:
        return self._spaces(more=True)

    def spaces_blocked(self) -> Draft | None:
        return self._spaces(more=False)

    def seats_cut(self) -> Draft | None:
        rng = self.rng
        sailings = [s for s in self.ahead() if s.day >= self.day and s.seats >= 40]
        if not sailings:
            return None
        sailing = rng.choice(sailings)
        n = rng.choice((15, 20, 24, 25, 30))
        sailing.seats -= n
        phrase, key, said = self.sailing_said(sailing)
        gold = [f"UPDATE sailings SET seats_left = seats_left - {n} WHERE sailing_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | {n} fewer seats, liferaft away for service",
            "chatty": f"One of the liferafts is away for its service, so {phrase} can sell {n} fewer seats ({day})",
            "keyvalue": keyvalue("sailing update", [("sailing", phrase), ("seats lost", n), ("date", day)]),
        }
        facts = {"sailing": sailing.code, "change": -n, "seats_left": sailing.seats}
        return Draft(facts, gold, texts, [*said, str(n), day])

    def fare_raised(self) -> Draft | None:
        rng = self.rng
        options = [
            (link, band) for link in self.links for band in BANDS if (f"{link[0]}-{link[1]}", band) in self.fares
        ]
        raised = {(r.facts["band"], r.facts["routes"][0]) for r in self.records if r.kind == "fare_raised"}  # type: ignore[index]
        options = [(lk, b) for lk, b in options if (b, f"{lk[0]}-{lk[1]}") not in raised]
        if not options:
            return None
        (a, b, _), band = rng.choice(options)
        step = rng.choice((0.5, 1.0, 1.5) if band in ("adult", "child") else (1.5, 2.0, 2.5, 3.0))
        for route in (f"{a}-{b}", f"{b}-{a}"):
            self.fares[(route, band)] = round(self.fares[(route, band)] + step, 2)
        gold = [
            f"UPDATE fare_table SET fare_amount = fare_amount + {money(step)} WHERE fare_band = '{band}' "
            f"AND route_code IN ('{a}-{b}', '{b}-{a}')"
        ]
        one, two, day = self.harbour_name(a), self.harbour_name(b), self.date(self.day)
        texts = {
            "log": f"{day} | fares | {band} | {one} - {two}, both ways | up £{money(step)}",
            "chatty": f"The {band} fare between {one} and {two} goes up by £{money(step)} each way from {day}",
            "keyvalue": keyvalue(
                "fare change",
                [("band", band), ("between", f"{one} and {two}"), ("directions", "both"), ("rise", money(step))]
                + [("from", day)],
            ),
        }
        facts = {
            "routes": [f"{a}-{b}", f"{b}-{a}"],
            "band": band,
            "change": step,
            "fare": self.fares[(f"{a}-{b}", band)],
        }
        return Draft(facts, gold, texts, [band, one, two, money(step), day])

    # -- changes: a row removed -------------------------------------------------------------------------

    def duty_struck(self) -> Draft | None:
        duties = [d for d in self.duties if self.sailings[d.sailing].day >= self.day]
        if not duties:
            return None
        duty = self.rng.choice(duties)
        self.duties.remove(duty)
        phrase, key, said = self.sailing_said(self.sailings[duty.sailing])
        gold = [f"DELETE FROM crew_duties WHERE sailing_code = {key} AND crew_name = {sql_text(duty.crew)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | roster | {phrase} | {duty.crew} off sick, take off the roster",
            "chatty": f"{duty.crew} is off sick: strike them off the roster for {phrase} ({day})",
            "keyvalue": keyvalue(
                "crew roster", [("sailing", phrase), ("crew", duty.crew), ("roster", "remove"), ("date", day)]
            ),
        }
        facts = {"sailing": duty.sailing, "crew": duty.crew}
        return Draft(facts, gold, texts, [*said, duty.crew, day])

    def receipt_voided(self) -> Draft | None:
        receipts = [r for r in self.receipts if r.day < self.day]
        if not receipts:
            return None
        receipt = self.rng.choice(receipts)
        self.receipts.remove(receipt)
        gold = [
            f"DELETE FROM account_receipts WHERE holder_no = {_holder(receipt.holder)} "
            f"AND receipt_day = {sql_date(receipt.day)}"
        ]
        when, day = self.date(receipt.day), self.date(self.day)
        why = "the cheque bounced" if receipt.via == "cheque" else "it was keyed in twice"
        texts = {
            "log": f"{day} | receipt voided | {receipt.holder} | £{money(receipt.amount)} taken {when} | {why}",
            "chatty": f"Void the £{money(receipt.amount)} we took from {receipt.holder} on {when}, {why} ({day})",
            "keyvalue": keyvalue(
                "receipt voided",
                [("account", receipt.holder), ("taken on", when), ("amount", money(receipt.amount))]
                + [("reason", why), ("date", day)],
            ),
        }
        facts = {"holder": receipt.holder, "receipt_day": receipt.day.isoformat()}
        return Draft(facts, gold, texts, [receipt.holder, when, money(receipt.amount), day])

    # -- changes: a row removed and a number given back -----------------------------------------------

    def _cancelled(self, car: bool) -> Draft | None:
        bookings = [
            b
            for b in self.bookings
            if b.state == "booked"
            and b.day < self.day
            and self.sailings[b.sailing].day > self.day
            and bool(b.vehicle) == car
        ]
        if not bookings:
            return None
        booking = self.rng.choice(bookings)
        self.bookings.remove(booking)
        sailing = self.sailings[booking.sailing]
        sailing.seats += booking.people()
        sailing.cars += 1 if car else 0
        phrase, key, said = self.sailing_said(sailing)
        cars = ", car_spaces_left = car_spaces_left + 1" if car else ""
        gold = [
            f"DELETE FROM crossing_bookings WHERE holder_no = {_holder(booking.holder)} AND sailing_code = {key}",
            f"UPDATE sailings SET seats_left = seats_left + {booking.people()}{cars} WHERE sailing_code = {key}",
        ]
        party, p_said = self.party_said(booking.adults, booking.children, booking.vehicle)
        day = self.date(self.day)
        one = "seat" if booking.people() == 1 else "seats"
        freed = f"{booking.people()} {one}" + (" and the car space" if car else "")
        texts = {
            "log": f"{day} | cancelled | {booking.holder} | {phrase} | {party} | release {freed}, no charge",
            "chatty": f"{booking.holder} cancelled their booking on {phrase} ({party}) on {day}: delete it, nothing "
            f"to pay, and put the {freed} back on sale",
            "keyvalue": keyvalue(
                "cancellation",
                [("account", booking.holder), ("sailing", phrase), ("party", party), ("back on sale", freed)]
                + [("date", day)],
            ),
        }
        facts = {"holder": booking.holder, "sailing": booking.sailing, "seats": booking.people(), "car_space": car}
        return Draft(facts, gold, texts, [booking.holder, *said, str(booking.people()), day])

    def foot_cancelled(self) -> Draft | None:
        return self._cancelled(car=False)

    def car_cancelled(self) -> Draft | None:
        return self._cancelled(car=True)

    # -- questions ----------------------------------------------------------------------------------

    def questions(self) -> list[Question]:
        rng = self.rng
        sailings = list(self.sailings.values())
        phoned = [h.name for h in self.holders.values() if h.phone]
        sharer = next((str(r.facts["holder"]) for r in self.records if r.kind == "phone_shared"), "")
        sharer = sharer if sharer in phoned else rng.choice(phoned)
        sailing = rng.choice(sailings)
        timed = rng.choice([s for s in sailings if s.state == "scheduled"])
        booked = self.sailings[rng.choice(sorted({b.sailing for b in self.bookings}))]
        crewed = rng.choice(sorted({d.sailing for d in self.duties}))
        payers = sorted({r.holder for r in self.receipts})
        payer = rng.choice(payers)
        charged = sorted({b.holder for b in self.bookings})
        debtor = rng.choice([n for n in charged if self.owes(n) > 0] or charged)
        (route, band) = rng.choice(sorted(self.fares))
        a, b, _ = self.routes[route]
        kind = rng.choice(sorted({h.kind for h in self.holders.values()}))
        days = sorted(s.day for s in sailings if s.day >= START)
        first = rng.choice(days[: len(days) // 2 + 1])
        span = (first - dt.timedelta(days=rng.randint(0, 2)), first + dt.timedelta(days=rng.randint(6, 12)))
        month = rng.choice(sorted({r.day.replace(day=1) for r in self.receipts}))
        after = (month + dt.timedelta(days=32)).replace(day=1)
        form = rng.choice((1, 2))

        def said(day: dt.date) -> str:
            return date_forms(day)[form]

        books = "FROM crossing_bookings b JOIN account_holders h ON h.holder_no = b.holder_no"
        paid = "FROM account_receipts r JOIN account_holders h ON h.holder_no = r.holder_no"
        rows = [
            ("count", "How many sailings are still scheduled?",
             "SELECT count(*) FROM sailings WHERE sailing_state = 'scheduled'"),
            ("count", "How many bookings bring a vehicle?",
             "SELECT count(*) FROM crossing_bookings WHERE vehicle_kind IS NOT NULL"),
            ("count", "How many account holders are islanders or commuters?",
             "SELECT count(*) FROM account_holders WHERE account_kind IN ('islander', 'commuter')"),
            ("count", f"How many crew are rostered on {crewed}?",
             f"SELECT count(*) FROM crew_duties WHERE sailing_code = '{crewed}'"),
            ("count", "How many bookings have checked in?",
             "SELECT count(*) FROM crossing_bookings WHERE booking_state = 'checked_in'"),
            ("sum", "How much has been taken on accounts altogether?", "SELECT sum(taken_amount) FROM account_receipts"),
            ("sum", f"How much has {payer} paid in total?",
             f"SELECT sum(r.taken_amount) {paid} WHERE h.holder_name = {sql_text(payer)}"),
            ("sum", f"How many passengers, adults and children, are booked on {booked.code}?",
             f"SELECT sum(adults + children) FROM crossing_bookings WHERE sailing_code = '{booked.code}'"),
            ("sum", "How many car spaces are left to sell across all scheduled sailings?",
             "SELECT sum(car_spaces_left) FROM sailings WHERE sailing_state = 'scheduled'"),
            ("lookup", f"What time does {timed.code} leave?",
             f"SELECT depart_time FROM sailings WHERE sailing_code = '{timed.code}'"),
            ("lookup", f"Which vessel is doing {sailing.code}?",
             "SELECT v.vessel_name FROM sailings s JOIN vessels v ON v.vessel_code = s.vessel_code "
             f"WHERE s.sailing_code = '{sailing.code}'"),
            ("lookup", f"What phone number do we have for {sharer}?",
             f"SELECT contact_phone FROM account_holders WHERE holder_name = {sql_text(sharer)}"),
            ("lookup", f"What is the {band} fare from {self.harbour_name(a)} to {self.harbour_name(b)}?",
             f"SELECT fare_amount FROM fare_table WHERE route_code = '{route}' AND fare_band = '{band}'"),
            ("lookup", f"How many seats are left on {booked.code}?",
             f"SELECT seats_left FROM sailings WHERE sailing_code = '{booked.code}'"),
            ("lookup", f"What state is {sailing.code} in?",
             f"SELECT sailing_state FROM sailings WHERE sailing_code = '{sailing.code}'"),
            ("grouped", "How many sailings are there in each state?",
             "SELECT sailing_state, count(*) FROM sailings GROUP BY sailing_state ORDER BY sailing_state"),
            ("grouped", "How many sailings is each vessel down for?",
             "SELECT v.vessel_name, count(s.sailing_code) FROM vessels v LEFT JOIN sailings s "
             "ON s.vessel_code = v.vessel_code GROUP BY v.vessel_name ORDER BY v.vessel_name"),
            ("grouped", "How much has been taken each way (card, cash, cheque, standing order)?",
             "SELECT taken_by, sum(taken_amount) FROM account_receipts GROUP BY taken_by ORDER BY taken_by"),
            ("grouped", "How many bookings are there for each kind of vehicle?",
             "SELECT vehicle_kind, count(*) FROM crossing_bookings WHERE vehicle_kind IS NOT NULL "
             "GROUP BY vehicle_kind ORDER BY vehicle_kind"),
            ("grouped", "How many sailings does each route have?",
             "SELECT route_code, count(*) FROM sailings GROUP BY route_code ORDER BY route_code"),
            ("top", "Which three account holders have made the most bookings, and how many each?",
             f"SELECT h.holder_name, count(*) AS made {books} GROUP BY h.holder_name "
             "ORDER BY made DESC, h.holder_name LIMIT 3"),
            ("top", "Which sailing has the most passengers booked, and how many?",
             "SELECT sailing_code, sum(adults + children) AS people FROM crossing_bookings GROUP BY sailing_code "
             "ORDER BY people DESC, sailing_code LIMIT 1"),
            ("top", "What were the three largest receipts, and whose were they?",
             f"SELECT h.holder_name, r.taken_amount, r.receipt_day {paid} ORDER BY r.taken_amount DESC, r.receipt_day LIMIT 3"),
            ("top", "Which crew member is rostered on the most sailings?",
             "SELECT crew_name, count(*) AS duties FROM crew_duties GROUP BY crew_name "
             "ORDER BY duties DESC, crew_name LIMIT 1"),
            ("range", f"Which sailings leave between {said(span[0])} and {said(span[1])}, and when?",
             f"SELECT sailing_code, depart_day, depart_time FROM sailings WHERE depart_day BETWEEN {sql_date(span[0])} "
             f"AND {sql_date(span[1])} ORDER BY depart_day, depart_time, sailing_code"),
            ("range", f"How much was taken on accounts in {month.strftime('%B %Y')}?",
             f"SELECT sum(taken_amount) FROM account_receipts WHERE receipt_day >= {sql_date(month)} "
             f"AND receipt_day < {sql_date(after)}"),
            ("derived", f"How much does {debtor} owe us?",
             f"SELECT balance_outstanding FROM account_holders WHERE holder_name = {sql_text(debtor)}"),
            ("derived", "How much do account holders owe between them?",
             "SELECT sum(balance_outstanding) FROM account_holders"),
            ("derived", "Who owes us the most, and how much?",
             "SELECT holder_name, balance_outstanding FROM account_holders "
             "ORDER BY balance_outstanding DESC, holder_name LIMIT 1"),
            ("derived", "How much in fares is booked on each route?",
             "SELECT s.route_code, sum(b.fare_total) FROM crossing_bookings b JOIN sailings s "
             "ON s.sailing_code = b.sailing_code GROUP BY s.route_code ORDER BY s.route_code"),
            ("none", "Which account holders have never made a booking?",
             "SELECT holder_name FROM account_holders WHERE holder_no NOT IN "
             "(SELECT holder_no FROM crossing_bookings) ORDER BY holder_name"),
            ("none", "Which scheduled sailings have no crew rostered yet?",
             "SELECT sailing_code FROM sailings WHERE sailing_state = 'scheduled' AND sailing_code NOT IN "
             "(SELECT sailing_code FROM crew_duties) ORDER BY sailing_code"),
            ("none", "Which account holders have no email address on file?",
             "SELECT holder_name FROM account_holders WHERE contact_email IS NULL ORDER BY holder_name"),
            ("average", "What is the average fare of a booking that brings a vehicle?",
             "SELECT avg(fare_total) FROM crossing_bookings WHERE vehicle_kind IS NOT NULL"),
            ("average", "What is the average receipt taken on an account?", "SELECT avg(taken_amount) FROM account_receipts"),
            ("category", "Which sailings are cancelled or on weather hold, and why?",
             "SELECT sailing_code, sailing_state, hold_reason FROM sailings "
             "WHERE sailing_state IN ('cancelled', 'weather_hold') ORDER BY sailing_code"),
            ("category", f"Which account holders have a {KIND_SAID[kind][0]} account?",
             f"SELECT holder_name FROM account_holders WHERE account_kind = '{kind}' ORDER BY holder_name"),
            ("lookup", f"Who is rostered on {crewed}, and in what role?",
             f"SELECT crew_name, duty_role FROM crew_duties WHERE sailing_code = '{crewed}' ORDER BY crew_name"),
        ]  # fmt: skip
        return [Question(f"q{i:02d}", text, gold, family) for i, (family, text, gold) in enumerate(rows, 1)]


def build(seed: int = 0) -> Trade:
    """The ferry trade generated from `seed`: the first log drawn from `random.Random(seed)` that places every record
    (a draw whose kinds left stop fitting is dropped, and the same generator draws again)."""
    rng = random.Random(seed)
    for _ in range(DRAWS):
        ferry = Ferry(rng, seed)
        if ferry.run():
            break
    else:
        raise RuntimeError(f"no log of seed {seed} placed its records in {DRAWS} draws")
    return Trade(
        name="ferry",
        description="A small island ferry operator: harbours, sea routes and their fare table, vessels, sailings and "
        "their state, account holders and their bookings of seats and car spaces, crew rosters and receipts.",
        schema=SCHEMA,
        reference=ferry.reference,
        rules=(OUTSTANDING,),
        records=tuple(ferry.records),
        questions=tuple(ferry.questions()),
        snapshot=dict(SNAPSHOT),
        checks=dict(CHECKS),
    )
