"""Dry cleaner and laundry: customers drop off clothes on numbered tickets, the shop washes, cleans and presses them.

Customers have an account tier (walk-in, loyalty card, business account) and may leave a phone number and an
email. The shop's price list holds its services, each with a code like 'SV-3', a group (wash, dry clean,
press, repair), the kind of garment it is for, a price and a turnaround in days. A customer drops items off
on a ticket with a code like 'TK-0412' (said "ticket 412" or "ticket no. 0412", or by the customer's name
and the day): one line per garment, with the service, how many and the price charged, taken from the price
list on the day. A ticket is promised for a day, goes into one of the cleaning machines 'MC-01' to 'MC-12'
("machine 4", or by its nickname), then onto the press, is hung ready on a numbered rack hook, and is
collected. Customers pay in cash, by card, contactless or with a voucher; what a customer owes is kept by one
rule: what the lines of their tickets charge plus the fees quoted for their alterations, minus what they have
paid. Hangers, covers, tags, solvent and detergent are kept in stock. Damage claims and alteration requests
are logged from an empty start.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .base import Question, Record, Rule, Trade, Turns, date_forms, in_words, keyvalue, lookup, sql_date, sql_text

GARMENTS = ("shirt", "trousers", "suit", "dress", "coat", "duvet", "curtain", "jumper")
SCHEMA = f"""
CREATE SEQUENCE client_seq START 1;
CREATE SEQUENCE payment_seq START 1;
CREATE SEQUENCE claim_seq START 1;
CREATE SEQUENCE alteration_seq START 1;
CREATE TABLE garment_clients (
    client_no INTEGER PRIMARY KEY DEFAULT nextval('client_seq'),
    client_name VARCHAR NOT NULL UNIQUE,
    phone_no VARCHAR,
    email_on_file VARCHAR,
    account_tier VARCHAR NOT NULL CHECK (account_tier IN ('walk_in', 'loyalty', 'business')),
    since_day DATE NOT NULL,
    balance_owing DECIMAL(10, 2) NOT NULL DEFAULT 0
);
CREATE TABLE service_menu (
    service_code VARCHAR PRIMARY KEY,
    service_label VARCHAR NOT NULL UNIQUE,
    service_group VARCHAR NOT NULL CHECK (service_group IN ('wash', 'dry_clean', 'press', 'repair')),
    garment_kind VARCHAR NOT NULL,
    menu_price DECIMAL(6, 2) NOT NULL CHECK (menu_price > 0),
    turnaround_days INTEGER NOT NULL CHECK (turnaround_days > 0)
);
CREATE TABLE cleaning_machines (
    machine_code VARCHAR PRIMARY KEY,
    machine_alias VARCHAR NOT NULL UNIQUE,
    machine_kind VARCHAR NOT NULL CHECK (machine_kind IN ('washer', 'tumble_dryer', 'solvent_cleaner')),
    drum_kg INTEGER NOT NULL,
    machine_status VARCHAR NOT NULL DEFAULT 'working' CHECK (machine_status IN ('working', 'out_of_order'))
);
CREATE TABLE drop_tickets (
    ticket_code VARCHAR PRIMARY KEY,
    client_no INTEGER NOT NULL,
    dropped_day DATE NOT NULL,
    promised_day DATE NOT NULL,
    ticket_stage VARCHAR NOT NULL DEFAULT 'received'
        CHECK (ticket_stage IN ('received', 'in_machine', 'pressing', 'ready', 'collected')),
    machine_code VARCHAR,
    hook_no INTEGER CHECK (hook_no BETWEEN 1 AND 150)
);
CREATE TABLE ticket_lines (
    ticket_code VARCHAR NOT NULL REFERENCES drop_tickets (ticket_code),
    garment_kind VARCHAR NOT NULL CHECK (garment_kind IN ({", ".join(f"'{g}'" for g in GARMENTS)})),
    service_code VARCHAR NOT NULL REFERENCES service_menu (service_code),
    item_qty INTEGER NOT NULL CHECK (item_qty > 0),
    charged_per_item DECIMAL(6, 2) NOT NULL,
    PRIMARY KEY (ticket_code, garment_kind, service_code)
);
CREATE TABLE till_payments (
    payment_no INTEGER PRIMARY KEY DEFAULT nextval('payment_seq'),
    client_no INTEGER NOT NULL REFERENCES garment_clients (client_no),
    paid_day DATE NOT NULL,
    paid_amount DECIMAL(8, 2) NOT NULL CHECK (paid_amount > 0),
    tender_type VARCHAR NOT NULL CHECK (tender_type IN ('cash', 'card', 'contactless', 'voucher'))
);
CREATE TABLE shop_supplies (
    supply_code VARCHAR PRIMARY KEY,
    supply_name VARCHAR NOT NULL UNIQUE,
    stock_unit VARCHAR NOT NULL CHECK (stock_unit IN ('each', 'litre', 'roll')),
    qty_on_hand INTEGER NOT NULL CHECK (qty_on_hand >= 0),
    reorder_below INTEGER NOT NULL
);
CREATE TABLE damage_claims (
    claim_ref INTEGER PRIMARY KEY DEFAULT nextval('claim_seq'),
    ticket_code VARCHAR NOT NULL REFERENCES drop_tickets (ticket_code),
    garment_kind VARCHAR NOT NULL,
    noticed_day DATE NOT NULL,
    damage_type VARCHAR NOT NULL CHECK (damage_type IN ('shrunk', 'colour_ran', 'torn', 'stain_remains', 'button_lost')),
    claim_amount DECIMAL(8, 2),
    claim_state VARCHAR NOT NULL DEFAULT 'open' CHECK (claim_state IN ('open', 'paid_out', 'rejected'))
);
CREATE TABLE alteration_requests (
    alteration_no INTEGER PRIMARY KEY DEFAULT nextval('alteration_seq'),
    client_no INTEGER NOT NULL REFERENCES garment_clients (client_no),
    asked_day DATE NOT NULL,
    garment_kind VARCHAR NOT NULL,
    alteration_kind VARCHAR NOT NULL CHECK (alteration_kind IN ('hem', 'take_in', 'let_out', 'new_zip', 'shorten_sleeves')),
    fitting_on DATE,
    fee_quoted DECIMAL(6, 2) NOT NULL CHECK (fee_quoted > 0),
    UNIQUE (client_no, asked_day)
);
"""
# drop_tickets.client_no and machine_code name a customer and a machine without REFERENCES: a ticket put under
# another customer or moved to another machine is an UPDATE of them, and DuckDB refuses an UPDATE of a
# foreign-key column of a table other tables reference (ticket_lines and damage_claims reference drop_tickets);
# for the same reason no UNIQUE (client_no, dropped_day) holds what the log keeps: one ticket a customer a day.

OWING = Rule(
    name="customer balance",
    sentence=(
        "What a customer owes is what all the lines of their tickets charge (items times the price charged for "
        "each) plus the fees quoted for their alterations, minus everything they have paid."
    ),
    sql=(
        "UPDATE garment_clients SET balance_owing = coalesce((SELECT sum(l.item_qty * l.charged_per_item) "
        "FROM ticket_lines l JOIN drop_tickets t ON t.ticket_code = l.ticket_code "
        "WHERE t.client_no = garment_clients.client_no), 0) "
        "+ coalesce((SELECT sum(a.fee_quoted) FROM alteration_requests a WHERE a.client_no = garment_clients.client_no), 0) "
        "- coalesce((SELECT sum(p.paid_amount) FROM till_payments p WHERE p.client_no = garment_clients.client_no), 0)"
    ),
)

_OF_TICKET = "JOIN drop_tickets t ON t.ticket_code = l.ticket_code JOIN garment_clients c ON c.client_no = t.client_no"
SNAPSHOT = {
    "garment_clients": (
        "SELECT client_name, phone_no, email_on_file, account_tier, since_day, balance_owing FROM garment_clients"
    ),
    "service_menu": (
        "SELECT service_code, service_label, service_group, garment_kind, menu_price, turnaround_days FROM service_menu"
    ),
    "cleaning_machines": "SELECT machine_code, machine_alias, machine_kind, drum_kg, machine_status FROM cleaning_machines",
    "drop_tickets": (
        "SELECT t.ticket_code, c.client_name, t.dropped_day, t.promised_day, t.ticket_stage, t.machine_code, t.hook_no "
        "FROM drop_tickets t JOIN garment_clients c ON c.client_no = t.client_no"
    ),
    "ticket_lines": "SELECT ticket_code, garment_kind, service_code, item_qty, charged_per_item FROM ticket_lines",
    "till_payments": (
        "SELECT c.client_name, p.paid_day, p.paid_amount, p.tender_type FROM till_payments p "
        "JOIN garment_clients c ON c.client_no = p.client_no"
    ),
    "shop_supplies": "SELECT supply_code, supply_name, stock_unit, qty_on_hand, reorder_below FROM shop_supplies",
    "damage_claims": (
        "SELECT ticket_code, garment_kind, noticed_day, damage_type, claim_amount, claim_state FROM damage_claims"
    ),
    "alteration_requests": (
        "SELECT c.client_name, a.asked_day, a.garment_kind, a.alteration_kind, a.fitting_on, a.fee_quoted "
        "FROM alteration_requests a JOIN garment_clients c ON c.client_no = a.client_no"
    ),
}
CHECKS = {
    "what each customer owes": "SELECT client_name, balance_owing FROM garment_clients",
    "supplies on hand": "SELECT supply_name, qty_on_hand FROM shop_supplies",
    "tickets per stage": "SELECT ticket_stage, count(*) FROM drop_tickets GROUP BY ticket_stage",
    "hooks in use": "SELECT hook_no, count(*) FROM drop_tickets WHERE hook_no IS NOT NULL GROUP BY hook_no",
    "items per ticket": "SELECT ticket_code, sum(item_qty) FROM ticket_lines GROUP BY ticket_code",
    "claims per state": "SELECT claim_state, count(*) FROM damage_claims GROUP BY claim_state",
}

# -- names and words --------------------------------------------------------------------------------

START = dt.date(2024, 9, 9)
SERVICES = (  # label, group, garment, price, turnaround in days, how the text says the service after the garment
    ("Laundered shirt", "wash", "shirt", 2.80, 2, "laundered"),
    ("Shirt press only", "press", "shirt", 1.90, 1, "pressed only"),
    ("Trousers dry clean", "dry_clean", "trousers", 7.50, 3, "dry cleaned"),
    ("Trousers press only", "press", "trousers", 4.00, 1, "pressed only"),
    ("Zip replacement", "repair", "trousers", 12.00, 5, "with a new zip"),
    ("Two-piece suit dry clean", "dry_clean", "suit", 15.50, 3, "dry cleaned"),
    ("Suit press only", "press", "suit", 8.00, 1, "pressed only"),
    ("Dress dry clean", "dry_clean", "dress", 11.00, 3, "dry cleaned"),
    ("Coat dry clean", "dry_clean", "coat", 16.50, 4, "dry cleaned"),
    ("Button repair", "repair", "coat", 3.50, 2, "buttons sewn back on"),
    ("Duvet wash", "wash", "duvet", 18.00, 3, "washed"),
    ("Curtain panel dry clean", "dry_clean", "curtain", 9.50, 5, "dry cleaned"),
    ("Delicate hand wash", "wash", "jumper", 6.00, 2, "hand washed"),
)
NOUNS = {  # garment -> one, more than one
    "shirt": ("shirt", "shirts"),
    "trousers": ("pair of trousers", "pairs of trousers"),
    "suit": ("suit", "suits"),
    "dress": ("dress", "dresses"),
    "coat": ("coat", "coats"),
    "duvet": ("duvet", "duvets"),
    "curtain": ("curtain panel", "curtain panels"),
    "jumper": ("jumper", "jumpers"),
}
MACHINES = (  # nickname, kind, drum size in kg
    ("Bluebell", "washer", 11),
    ("Old Growler", "washer", 16),
    ("Nimbus", "tumble_dryer", 16),
    ("Silver Drum", "solvent_cleaner", 15),
    ("Little Sister", "solvent_cleaner", 10),
    ("Whirlwind", "washer", 9),
)
MACHINE_FOR = {"wash": "washer", "dry_clean": "solvent_cleaner"}  # the machine a ticket's cleaning needs
FAULT_SAID = ("the drum bearing has gone", "it's leaking from the door seal", "the heater won't come on")
SUPPLIES = (  # name, unit, range of stock at the start, reorder below
    ("wire hangers", "each", (180, 400), 150),
    ("suit hangers", "each", (30, 90), 40),
    ("garment covers", "roll", (4, 12), 5),
    ("ticket tags", "roll", (3, 10), 4),
    ("cleaning solvent", "litre", (60, 160), 80),
    ("laundry detergent", "litre", (15, 45), 20),
)
UNIT_SAID = {"each": ("", ""), "litre": ("litre", "litres"), "roll": ("roll", "rolls")}
CLIENTS = (  # name, phone, email, tier: the reference customers are drawn from these
    ("Imogen Castellano", "07700 915204", "imogen.c@pressline.net", "loyalty"),
    ("Bartholomew Nyack", "07700 915318", None, "walk_in"),
    ("Saoirse Dunleavy", "07700 915427", "saoirse.dunleavy@linenbox.org", "loyalty"),
    ("Kwabena Asante", "07700 915539", "k.asante@tideway-mail.com", "business"),
    ("Philippa Crowe", "07700 915641", "philippa.crowe@pressline.net", "walk_in"),
    ("Teodor Vasilescu", "07700 915756", "teodor.v@linenbox.org", "loyalty"),
    ("Marguerite Lemaire", None, "m.lemaire@tideway-mail.com", "business"),
    ("Hamish Gillespie", "07700 915872", "hamish.g@pressline.net", "walk_in"),
    ("Zainab Qureshi", "07700 915983", "zainab.qureshi@linenbox.org", "loyalty"),
    ("Lorcan Fitzpatrick", "07700 915095", None, "walk_in"),
)
NEW_CLIENTS = (  # customers who first come in during the log
    ("Ingrid Sorensen", "07700 916114", "ingrid.s@pressline.net", "loyalty"),
    ("Cosmo Abernethy", "07700 916227", None, "walk_in"),
    ("Larkspur Hotel", "0161 496 0732", "linen@larkspurhotel.co.uk", "business"),
    ("Priya Raghunathan", None, "priya.r@tideway-mail.com", "loyalty"),
    ("Emeka Obiora", "07700 916339", "emeka.obiora@linenbox.org", "walk_in"),
    ("Vesna Horvat", "07700 916448", "vesna.horvat@pressline.net", "loyalty"),
)
TIER_SAID = {
    "walk_in": ("walk-in", "no-account walk-in"),
    "loyalty": ("loyalty card", "loyalty"),
    "business": ("business account", "business"),
}
STAGE_SAID = {  # a short word for a log line or a field, and what follows the ticket in a sentence
    "pressing": (("on the press", "pressing"), ("is on the press now", "has gone through to pressing")),
    "ready": (
        ("ready to pick up", "ready for collection"),
        ("is ready to pick up", "is done and ready for collection"),
    ),
    "collected": (("collected", "picked up"), ("has been collected", "was picked up by the customer")),
}
VIA_SAID = {
    "cash": ("in cash", "cash"),
    "card": ("by card", "with a card"),
    "contactless": ("contactless", "by tapping their phone"),
    "voucher": ("with a voucher", "with a gift voucher"),
}
DAMAGE_SAID = {  # a short word for a log line or a field, and what follows the garment in a sentence
    "shrunk": (("shrunk", "shrank"), ("has shrunk a size", "came back shrunk")),
    "colour_ran": (("colour ran", "dye ran"), ("has had its colour run", "came back with the dye run")),
    "torn": (("torn", "ripped"), ("has a tear in it", "came back ripped at a seam")),
    "stain_remains": (("stain still there", "stain not out"), ("still has the stain on it", "still shows the stain")),
    "button_lost": (("button missing", "lost a button"), ("has lost a button", "came back with a button missing")),
}
BUTTONED = ("shirt", "trousers", "suit", "dress", "coat")  # garments that can lose a button
CLAIM_SAID = {
    "paid_out": ("paid out", "settled, we paid it"),
    "rejected": ("rejected", "turned down"),
}
ALTERATIONS = {  # garment -> the alterations asked for on it
    "trousers": ("hem", "take_in", "let_out", "new_zip"),
    "dress": ("hem", "take_in", "let_out"),
    "suit": ("take_in", "let_out", "shorten_sleeves"),
    "coat": ("shorten_sleeves", "new_zip"),
    "shirt": ("shorten_sleeves", "take_in"),
}
ALTERATION_SAID = {
    "hem": ("taken up", "hemmed"),
    "take_in": ("taken in",),
    "let_out": ("let out",),
    "new_zip": ("given a new zip", "fitted with a new zip"),
    "shorten_sleeves": ("sleeves shortened", "with shorter sleeves"),
}
ALTERATION_FEE = {
    "hem": (12, 20),
    "take_in": (18, 30),
    "let_out": (18, 28),
    "new_zip": (14, 22),
    "shorten_sleeves": (20, 35),
}
# record kind -> how many the log has, and the class of change ("" for a new fact) whose records take the
# wordings in turn (`Turns`), so that each class comes in every wording
KINDS = {
    "client_joined": (4, ""),
    "ticket_dropped": (10, ""),
    "line_added": (2, ""),
    "payment": (7, ""),
    "damage_claim": (3, ""),
    "alteration_booked": (3, ""),
    "into_machine": (3, "set"),
    "ticket_stage": (6, "set"),
    "ticket_owner": (1, "set"),
    "machine_swapped": (2, "set"),
    "machine_down": (1, "set"),
    "tier_changed": (1, "set"),
    "promise_moved": (2, "set"),
    "claim_decided": (1, "set"),
    "contact_dropped": (3, "clear"),
    "hook_cleared": (2, "clear"),
    "same_hook": (2, "copy"),
    "same_promise": (2, "copy"),
    "phone_shared": (1, "copy"),
    "supplies_arrived": (2, "add"),
    "supplies_used": (2, "add"),
    "qty_fix": (3, "add"),
    "price_rise": (1, "add"),
    "line_dropped": (2, "remove"),
    "alteration_cancelled": (1, "remove"),
    "claim_withdrawn": (1, "remove"),
}
DRAWS = 200  # logs drawn at most for one seed
STEPS = (0, 0, 1, 1, 1, 2)  # days between one record and the next


# -- the state the log keeps ------------------------------------------------------------------------


@dataclass
class Client:
    name: str
    phone: str | None
    email: str | None
    tier: str
    since: dt.date = START


@dataclass
class Line:
    service: str  # service code
    qty: int
    price: float


@dataclass
class Ticket:
    code: str
    client: str
    dropped: dt.date  # a customer drops off at most one ticket a day: a ticket is named by its customer and day
    promised: dt.date
    lines: dict[str, Line] = field(default_factory=dict)  # garment -> its line (one line a garment)
    stage: str = "received"
    machine: str | None = None
    hook: int | None = None
    since: dt.date = START  # the day of its last change of stage

    def number(self) -> int:
        return int(self.code.split("-")[1])


@dataclass
class Claim:
    ticket: str
    garment: str
    day: dt.date
    damage: str
    amount: float | None
    state: str = "open"


@dataclass
class Alteration:
    client: str
    day: dt.date
    garment: str
    kind: str
    fitting: dt.date | None
    fee: float


@dataclass
class Draft:
    """One record before its wording is chosen: each wording's text states every value in `stated`."""

    facts: Mapping[str, object]
    gold: list[str]
    texts: dict[str, str]
    stated: list[str]


def money(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _client(name: str) -> str:
    return lookup("garment_clients", "client_no", "client_name", name)


def _value(value: object) -> str:
    return "NULL" if value is None else sql_text(str(value))


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class Shop:
    """The seeded simulation of the shop: reference rows, then one record at a time, then questions."""

    def __init__(self, rng: random.Random, forms: int) -> None:
        self.rng = rng
        self.day = START
        self.forms = forms
        self.records: list[Record] = []
        numbers = sorted(rng.sample(range(1, 21), len(SERVICES)))
        self.services = {  # code -> label, group, garment, price, turnaround, said
            f"SV-{n}": list(service) for n, service in zip(numbers, SERVICES)
        }
        self.unused = rng.choice(sorted(self.services))  # a service nobody asks for: "which is never charged?"
        numbers = sorted(rng.sample(range(1, 13), len(MACHINES)))
        self.machines = {f"MC-{n:02d}": [*machine, "working"] for n, machine in zip(numbers, MACHINES)}
        self.supplies = {f"SU-{i:02d}": rng.randrange(*s[2]) for i, s in enumerate(SUPPLIES, 1)}
        pool = list(CLIENTS)
        rng.shuffle(pool)
        self.clients = {p[0]: Client(*p, since=START - dt.timedelta(days=rng.randrange(40, 900))) for p in pool[:8]}
        newcomers = pool[8:] + list(NEW_CLIENTS)
        rng.shuffle(newcomers)
        self.newcomers = [Client(*p) for p in newcomers]
        self.no_ticket = rng.choice(sorted(self.clients))  # a customer who never brings a ticket
        self.next_ticket = rng.randrange(300, 800)
        self.tickets: dict[str, Ticket] = {}
        self.paid: dict[str, list[tuple[dt.date, float, str]]] = {}
        stages = ("collected",) * 3 + ("ready",) * 2 + ("pressing",) + ("in_machine",) * 2 + ("received",) * 2
        offsets = sorted(rng.sample(range(1, 16), len(stages)), reverse=True)
        for stage, offset in zip(stages, offsets):
            day = START - dt.timedelta(days=offset)
            name = rng.choice([n for n in self.customers() if n != self.no_ticket])
            ticket = self._ticket(name, day)
            ticket.stage, ticket.since = stage, day
            if stage == "in_machine":
                ticket.machine = self.machine_for(ticket)
                if ticket.machine is None:
                    ticket.stage = "pressing"
            if stage == "ready":
                ticket.hook = self.free_hook()
            if stage == "collected":
                self.paid.setdefault(name, []).append((day + dt.timedelta(days=3), self.charge(ticket), "card"))
        self.claims: list[Claim] = []
        self.alterations: list[Alteration] = []
        self.reference = self._reference()

    def _ticket(self, name: str, day: dt.date) -> Ticket:
        """A new ticket of `name` dropped off on `day`, with one to three lines."""
        rng = self.rng
        self.next_ticket += rng.randint(1, 3)
        garments = rng.sample(GARMENTS, rng.choice((1, 2, 2, 3)))
        lines: dict[str, Line] = {}
        for garment in garments:
            codes = [c for c, s in self.services.items() if s[2] == garment and c != self.unused]
            if not codes:
                continue
            code = rng.choice(codes)
            qty = rng.randint(1, 6) if garment in ("shirt", "curtain") else rng.randint(1, 3)
            lines[garment] = Line(code, qty, self.services[code][3])
        if not lines:
            code = next(c for c, s in self.services.items() if s[2] == "shirt" and c != self.unused)
            lines["shirt"] = Line(code, rng.randint(2, 6), self.services[code][3])
        turnaround = max(self.services[line.service][4] for line in lines.values())
        ticket = Ticket(f"TK-{self.next_ticket:04d}", name, day, day + dt.timedelta(days=turnaround), lines, since=day)
        self.tickets[ticket.code] = ticket
        return ticket

    # -- reference rows ---------------------------------------------------------------------------

    def _reference(self) -> str:
        def values(rows: list[str]) -> str:
            return ", ".join(rows) + ";"

        services = [
            f"('{code}', {sql_text(label)}, '{group}', '{garment}', {money(price)}, {days})"
            for code, (label, group, garment, price, days, _) in self.services.items()
        ]
        machines = [
            f"('{code}', {sql_text(alias)}, '{kind}', {kg}, '{status}')"
            for code, (alias, kind, kg, status) in self.machines.items()
        ]
        supplies = [
            f"('{code}', {sql_text(name)}, '{unit}', {self.supplies[code]}, {low})"
            for code, (name, unit, _, low) in zip(self.supplies, SUPPLIES)
        ]
        clients = [
            f"({sql_text(p.name)}, {_value(p.phone)}, {_value(p.email)}, '{p.tier}', {sql_date(p.since)})"
            for p in self.clients.values()
        ]
        tickets = [
            f"('{t.code}', {_client(t.client)}, {sql_date(t.dropped)}, {sql_date(t.promised)}, '{t.stage}', "
            f"{_value(t.machine)}, {t.hook or 'NULL'})"
            for t in self.tickets.values()
        ]
        lines = [
            f"('{t.code}', '{garment}', '{line.service}', {line.qty}, {money(line.price)})"
            for t in self.tickets.values()
            for garment, line in t.lines.items()
        ]
        paid = [
            f"({_client(name)}, {sql_date(day)}, {money(amount)}, '{via}')"
            for name, entries in self.paid.items()
            for day, amount, via in entries
        ]
        return "\n".join(
            (
                "INSERT INTO service_menu (service_code, service_label, service_group, garment_kind, menu_price, "
                "turnaround_days) VALUES " + values(services),
                "INSERT INTO cleaning_machines (machine_code, machine_alias, machine_kind, drum_kg, machine_status) "
                "VALUES " + values(machines),
                "INSERT INTO shop_supplies (supply_code, supply_name, stock_unit, qty_on_hand, reorder_below) VALUES "
                + values(supplies),
                "INSERT INTO garment_clients (client_name, phone_no, email_on_file, account_tier, since_day) VALUES "
                + values(clients),
                "INSERT INTO drop_tickets (ticket_code, client_no, dropped_day, promised_day, ticket_stage, "
                "machine_code, hook_no) VALUES " + values(tickets),
                "INSERT INTO ticket_lines (ticket_code, garment_kind, service_code, item_qty, charged_per_item) VALUES "
                + values(lines),
                "INSERT INTO till_payments (client_no, paid_day, paid_amount, tender_type) VALUES " + values(paid),
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

    def machine_said(self, code: str, *, by_name: bool = False) -> tuple[str, list[str]]:
        """A machine as a user names it: 'MC-04', 'machine 4', 'machine four', or (`by_name`) its nickname."""
        if by_name:
            alias = self.machines[code][0]
            return alias, [alias]
        n = int(code.split("-")[1])
        return self.rng.choice([(code, [code]), (f"machine {n}", [f"machine {n}"]), (f"machine {in_words(n)}", [])])

    def ticket_said(self, ticket: Ticket, *, by_name: bool = True) -> tuple[str, str, list[str]]:
        """A ticket as a user names it ('TK-0412', 'ticket 412', 'ticket no. 0412', or its customer and the day it
        was dropped off), the SQL value of its code as the text names it, and what the text states."""
        code = f"'{ticket.code}'"
        digits = ticket.code.split("-")[1]
        forms = [
            (ticket.code, code, [ticket.code]),
            (ticket.code, code, [ticket.code]),
            (f"ticket {ticket.number()}", code, [str(ticket.number())]),
            (f"ticket no. {digits}", code, [digits]),
        ]
        if by_name:
            day = self.date(ticket.dropped)
            key = (
                f"(SELECT ticket_code FROM drop_tickets WHERE client_no = {_client(ticket.client)} "
                f"AND dropped_day = {sql_date(ticket.dropped)})"
            )
            forms += [(f"{ticket.client}'s ticket of {day}", key, [ticket.client, day])] * 2
        return self.rng.choice(forms)

    def line_said(self, garment: str, line: Line) -> tuple[str, str, list[str]]:
        """A line as the text lists it ('4 shirts laundered', 'two suits, SV-7'), its garment and service as a
        field's name and its count as the field's value, and what the text states."""
        amount, stated = self.count(line.qty)
        noun = NOUNS[garment][line.qty != 1]
        plural = NOUNS[garment][1]
        if self.rng.random() < 0.3:
            return f"{amount} {noun} ({line.service})", f"{plural} ({line.service})", [*stated, line.service]
        said = self.services[line.service][5]
        return f"{amount} {noun} {said}", f"{plural} {said}", stated

    def supply_said(self, code: str, n: int) -> str:
        name, unit, _, _ = SUPPLIES[int(code.split("-")[1]) - 1]
        if unit == "each":
            return name
        return f"{UNIT_SAID[unit][n != 1]} of {name}"

    # -- the state ----------------------------------------------------------------------------------

    def customers(self) -> list[str]:
        return sorted(self.clients)

    def charge(self, ticket: Ticket) -> float:
        return round(sum(line.qty * line.price for line in ticket.lines.values()), 2)

    def owes(self, name: str) -> float:
        charged = sum(self.charge(t) for t in self.tickets.values() if t.client == name)
        fees = sum(a.fee for a in self.alterations if a.client == name)
        return round(charged + fees - sum(amount for _, amount, _ in self.paid.get(name, [])), 2)

    def machine_for(self, ticket: Ticket) -> str | None:
        """A working machine of the kind the ticket's cleaning needs (none when it is only pressed or mended)."""
        groups = {self.services[line.service][1] for line in ticket.lines.values()}
        kind = MACHINE_FOR["dry_clean"] if "dry_clean" in groups else MACHINE_FOR["wash"] if "wash" in groups else ""
        codes = [c for c, m in self.machines.items() if m[1] == kind and m[3] == "working"]
        return self.rng.choice(codes) if codes else None

    def free_hook(self) -> int:
        taken = {t.hook for t in self.tickets.values() if t.hook}
        return self.rng.choice([n for n in range(1, 151) if n not in taken])

    def open_tickets(self, *stages: str) -> list[Ticket]:
        return [t for t in self.tickets.values() if t.stage in stages]

    # -- new facts ----------------------------------------------------------------------------------

    def client_joined(self) -> Draft | None:
        if not self.newcomers:
            return None
        p = self.newcomers.pop(0)
        p.since = self.day
        self.clients[p.name] = p
        gold = [
            "INSERT INTO garment_clients (client_name, phone_no, email_on_file, account_tier, since_day) VALUES "
            f"({sql_text(p.name)}, {_value(p.phone)}, {_value(p.email)}, '{p.tier}', {sql_date(self.day)})"
        ]
        tier, day = self.rng.choice(TIER_SAID[p.tier]), self.date(self.day)
        contact = (
            (f"phone {p.phone}" if p.phone else "no phone") + ", " + (f"email {p.email}" if p.email else "no email")
        )
        texts = {
            "log": f"{day} | new customer | {p.name} | {tier} | {contact}",
            "chatty": f"New customer {p.name} signed up on {day} with a {tier} account; {contact}",
            "keyvalue": keyvalue(
                "new customer",
                [("name", p.name), ("account", tier), ("phone", p.phone or "none"), ("email", p.email or "none")]
                + [("since", day)],
            ),
        }
        facts = {"client": p.name, "phone": p.phone, "email": p.email, "tier": p.tier}
        stated = [p.name, *([p.phone] if p.phone else []), *([p.email] if p.email else []), day]
        return Draft(facts, gold, texts, stated)

    def ticket_dropped(self) -> Draft | None:
        rng = self.rng
        names = [
            n
            for n in self.customers()
            if n != self.no_ticket and not any(t.client == n and t.dropped == self.day for t in self.tickets.values())
        ]
        if not names:
            return None
        fresh = [n for n in names if not any(t.client == n for t in self.tickets.values())]
        name = rng.choice(fresh if fresh and rng.random() < 0.5 else names)
        ticket = self._ticket(name, self.day)
        rows = ", ".join(
            f"('{ticket.code}', '{garment}', '{line.service}', {line.qty}, "
            f"(SELECT menu_price FROM service_menu WHERE service_code = '{line.service}'))"
            for garment, line in ticket.lines.items()
        )
        gold = [
            "INSERT INTO drop_tickets (ticket_code, client_no, dropped_day, promised_day) VALUES "
            f"('{ticket.code}', {_client(name)}, {sql_date(self.day)}, {sql_date(ticket.promised)})",
            f"INSERT INTO ticket_lines (ticket_code, garment_kind, service_code, item_qty, charged_per_item) VALUES {rows}",
        ]
        listed, fields, stated = [], [], [ticket.code, name]
        for garment, line in ticket.lines.items():
            spoken, key, said = self.line_said(garment, line)
            listed.append(spoken)
            fields.append((key, spoken.split(" ")[0]))
            stated += said
        day, promised = self.date(self.day), self.date(ticket.promised)
        texts = {
            "log": f"{day} | ticket {ticket.code} | {name} | {'; '.join(listed)} | promised {promised}",
            "chatty": rng.choice(
                (
                    f"{name} dropped off {_joined(listed)} on {day}, ticket {ticket.code}, promised for {promised}",
                    f"Ticket {ticket.code}: {name} brought in {_joined(listed)} on {day}; ready by {promised}",
                )
            ),
            "keyvalue": keyvalue(
                "new ticket",
                [("ticket", ticket.code), ("customer", name), *fields, ("price", "list price")]
                + [("dropped off", day), ("promised", promised)],
            ),
        }
        facts = {
            "ticket": ticket.code,
            "client": name,
            "promised_day": ticket.promised.isoformat(),
            "lines": [{"garment": g, "service": x.service, "qty": x.qty} for g, x in ticket.lines.items()],
        }
        return Draft(facts, gold, texts, [*stated, day, promised])

    def line_added(self) -> Draft | None:
        rng = self.rng
        options = [
            (t, code)
            for t in self.open_tickets("received")
            if t.dropped < self.day
            for code, s in self.services.items()
            if s[2] not in t.lines and code != self.unused
        ]
        if not options:
            return None
        ticket, code = rng.choice(options)
        garment = self.services[code][2]
        line = Line(code, rng.randint(1, 4), self.services[code][3])
        ticket.lines[garment] = line
        phrase, key, said = self.ticket_said(ticket)
        gold = [
            "INSERT INTO ticket_lines (ticket_code, garment_kind, service_code, item_qty, charged_per_item) VALUES "
            f"({key}, '{garment}', '{code}', {line.qty}, (SELECT menu_price FROM service_menu WHERE service_code = '{code}'))"
        ]
        spoken, field_name, line_stated = self.line_said(garment, line)
        day = self.date(self.day)
        texts = {
            "log": f"{day} | add to {phrase} | {spoken}",
            "chatty": f"Add {spoken} to {phrase} at list price, brought in on {day}",
            "keyvalue": keyvalue(
                "ticket addition", [("ticket", phrase), (field_name, spoken.split(" ")[0]), ("date", day)]
            ),
        }
        facts = {"ticket": ticket.code, "garment": garment, "service": code, "qty": line.qty}
        return Draft(facts, gold, texts, [*said, *line_stated, day])

    def payment(self) -> Draft | None:
        rng = self.rng
        owing = [name for name in self.customers() if self.owes(name) > 0]
        if not owing:
            return None
        name = rng.choice(owing)
        due = self.owes(name)
        amount = due if rng.random() < 0.6 or due <= 20 else float(rng.randrange(10, int(due), 5))
        via = rng.choice(sorted(VIA_SAID))
        self.paid.setdefault(name, []).append((self.day, amount, via))
        gold = [
            "INSERT INTO till_payments (client_no, paid_day, paid_amount, tender_type) VALUES "
            f"({_client(name)}, {sql_date(self.day)}, {money(amount)}, '{via}')"
        ]
        how, day = rng.choice(VIA_SAID[via]), self.date(self.day)
        texts = {
            "log": f"{day} | payment | {name} | {money(amount)} | {how}",
            "chatty": f"{name} paid £{money(amount)} {how} at the counter on {day}",
            "keyvalue": keyvalue(
                "payment", [("customer", name), ("amount", money(amount)), ("paid", how), ("date", day)]
            ),
        }
        facts = {"client": name, "amount": amount, "via": via}
        return Draft(facts, gold, texts, [name, money(amount), day])

    def damage_claim(self) -> Draft | None:
        rng = self.rng
        claimed = {(c.ticket, c.garment) for c in self.claims}
        options = [
            (t, g)
            for t in self.open_tickets("ready", "collected")
            if t.since < self.day
            for g in t.lines
            if (t.code, g) not in claimed
        ]
        if not options:
            return None
        ticket, garment = rng.choice(options)
        damage = rng.choice([d for d in sorted(DAMAGE_SAID) if d != "button_lost" or garment in BUTTONED])
        amount = float(rng.randrange(20, 121, 5)) if rng.random() < 0.65 else None
        claim = Claim(ticket.code, garment, self.day, damage, amount)
        self.claims.append(claim)
        gold = [
            "INSERT INTO damage_claims (ticket_code, garment_kind, noticed_day, damage_type, claim_amount) VALUES "
            f"('{ticket.code}', '{garment}', {sql_date(self.day)}, '{damage}', {money(amount) if amount else 'NULL'})"
        ]
        words, clauses = DAMAGE_SAID[damage]
        word, clause, day = rng.choice(words), rng.choice(clauses), self.date(self.day)
        noun = NOUNS[garment][0]
        asks = f"claiming £{money(amount)}" if amount else "no amount agreed yet"
        texts = {
            "log": f"{day} | damage claim | {ticket.code} | {noun} | {word} | {asks}",
            "chatty": f"{ticket.client} complained on {day}: the {noun} on {ticket.code} {clause}, {asks}",
            "keyvalue": keyvalue(
                "damage claim",
                [("ticket", ticket.code), ("item", noun), ("damage", word)]
                + [("claim", f"£{money(amount)}" if amount else "none yet"), ("date", day)],
            ),
        }
        facts = {"ticket": ticket.code, "garment": garment, "damage": damage, "amount": amount}
        return Draft(facts, gold, texts, [ticket.code, noun, *([money(amount)] if amount else []), day])

    def alteration_booked(self) -> Draft | None:
        rng = self.rng
        names = [n for n in self.customers() if not any(a.client == n and a.day == self.day for a in self.alterations)]
        if not names:
            return None
        name, garment = rng.choice(names), rng.choice(sorted(ALTERATIONS))
        kind = rng.choice(ALTERATIONS[garment])
        fee = float(rng.randrange(*ALTERATION_FEE[kind]))
        fitting = self.day + dt.timedelta(days=rng.randint(3, 10)) if rng.random() < 0.6 else None
        self.alterations.append(Alteration(name, self.day, garment, kind, fitting, fee))
        gold = [
            "INSERT INTO alteration_requests (client_no, asked_day, garment_kind, alteration_kind, fitting_on, "
            f"fee_quoted) VALUES ({_client(name)}, {sql_date(self.day)}, '{garment}', '{kind}', "
            f"{sql_date(fitting) if fitting else 'NULL'}, {money(fee)})"
        ]
        noun, said, day = NOUNS[garment][0], rng.choice(ALTERATION_SAID[kind]), self.date(self.day)
        fit = self.date(fitting) if fitting else None
        texts = {
            "log": f"{day} | alteration | {name} | {noun} {said} | £{money(fee)} | "
            + (f"fitting {fit}" if fit else "no fitting needed"),
            "chatty": f"{name} wants a {noun} {said} (asked {day}); we quoted £{money(fee)}, "
            + (f"fitting booked for {fit}" if fit else "no fitting needed"),
            "keyvalue": keyvalue(
                "alteration request",
                [("customer", name), ("garment", noun), ("work", said), ("fee", money(fee))]
                + [("fitting", fit or "none"), ("date", day)],
            ),
        }
        facts = {"client": name, "garment": garment, "alteration": kind, "fee": fee}
        facts["fitting_on"] = fitting.isoformat() if fitting else None
        return Draft(facts, gold, texts, [name, noun, money(fee), *([fit] if fit else []), day])

    # -- changes: a value given, or found by a name -------------------------------------------------

    def into_machine(self) -> Draft | None:
        tickets = [t for t in self.open_tickets("received") if t.since < self.day and self.machine_for(t)]
        if not tickets:
            return None
        ticket = self.rng.choice(tickets)
        ticket.machine, ticket.stage, ticket.since = self.machine_for(ticket), "in_machine", self.day
        by_name = self.rng.random() < 0.35
        machine, m_said = self.machine_said(str(ticket.machine), by_name=by_name)
        value = (
            lookup("cleaning_machines", "machine_code", "machine_alias", machine) if by_name else f"'{ticket.machine}'"
        )
        phrase, key, said = self.ticket_said(ticket)
        gold = [
            f"UPDATE drop_tickets SET ticket_stage = 'in_machine', machine_code = {value} WHERE ticket_code = {key}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | into {machine}",
            "chatty": f"Loaded {phrase} into {machine} on {day}",
            "keyvalue": keyvalue("ticket update", [("ticket", phrase), ("now", f"in {machine}"), ("date", day)]),
        }
        facts = {"ticket": ticket.code, "stage": "in_machine", "machine": ticket.machine}
        return Draft(facts, gold, texts, [*said, *m_said, day])

    def ticket_stage(self) -> Draft | None:
        after = {"received": "pressing", "in_machine": "pressing", "pressing": "ready", "ready": "collected"}
        tickets = [
            t
            for t in self.tickets.values()
            if t.stage in after
            and t.since < self.day
            and (t.stage != "received" or self.machine_for(t) is None)
            and (t.stage != "ready" or t.promised <= self.day + dt.timedelta(days=2))
        ]
        if not tickets:
            return None
        ticket = self.rng.choice(tickets)
        ticket.stage, ticket.since = after[ticket.stage], self.day
        phrase, key, said = self.ticket_said(ticket)
        shorts, clauses = STAGE_SAID[ticket.stage]
        short, clause, day = self.rng.choice(shorts), self.rng.choice(clauses), self.date(self.day)
        sets, extra, stated = f"ticket_stage = '{ticket.stage}'", "", []
        if ticket.stage == "ready":
            ticket.hook = self.free_hook()
            sets += f", hook_no = {ticket.hook}"
            extra, stated = f", on hook {ticket.hook}", [f"hook {ticket.hook}"]
        if ticket.stage == "collected" and ticket.hook:
            extra, stated = f", hook {ticket.hook} is free again", [f"hook {ticket.hook}"]
            sets += ", hook_no = NULL"
            ticket.hook = None
        gold = [f"UPDATE drop_tickets SET {sets} WHERE ticket_code = {key}"]
        texts = {
            "log": f"{day} | {phrase} | {short}{extra}",
            "chatty": f"{_capital(phrase)} {clause}{extra} ({day})",
            "keyvalue": keyvalue("ticket update", [("ticket", phrase), ("now", f"{short}{extra}"), ("date", day)]),
        }
        facts = {"ticket": ticket.code, "stage": ticket.stage, "hook": ticket.hook}
        return Draft(facts, gold, texts, [*said, *stated, day])

    def ticket_owner(self) -> Draft | None:
        rng = self.rng
        options = [
            (t, n)
            for t in self.open_tickets("received", "in_machine", "pressing")
            for n in self.customers()
            if n not in (t.client, self.no_ticket)
            and not any(o.client == n and o.dropped == t.dropped for o in self.tickets.values())
        ]
        if not options:
            return None
        ticket, name = rng.choice(options)
        old, ticket.client = ticket.client, name
        gold = [f"UPDATE drop_tickets SET client_no = {_client(name)} WHERE ticket_code = '{ticket.code}'"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {ticket.code} | wrong customer, it's {name}'s not {old}'s",
            "chatty": f"{ticket.code} was written up under {old} by mistake; it belongs to {name} (sorted {day})",
            "keyvalue": keyvalue("ticket fix", [("ticket", ticket.code), ("customer", name), ("date", day)]),
        }
        return Draft({"ticket": ticket.code, "client": name}, gold, texts, [ticket.code, name, day])

    def machine_swapped(self) -> Draft | None:
        options = [
            (t, c)
            for t in self.open_tickets("in_machine")
            for c, m in self.machines.items()
            if c != t.machine and m[1] == self.machines[str(t.machine)][1] and m[3] == "working"
        ]
        if not options:
            return None
        ticket, code = self.rng.choice(options)
        old, ticket.machine = str(ticket.machine), code
        machine, m_said = self.machine_said(code, by_name=True)
        was, _ = self.machine_said(old)
        phrase, key, said = self.ticket_said(ticket)
        value = lookup("cleaning_machines", "machine_code", "machine_alias", machine)
        gold = [f"UPDATE drop_tickets SET machine_code = {value} WHERE ticket_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | moved from {was} to {machine}",
            "chatty": f"Had to move {phrase} out of {was} and into {machine} on {day}",
            "keyvalue": keyvalue("machine change", [("ticket", phrase), ("machine", machine), ("date", day)]),
        }
        return Draft({"ticket": ticket.code, "machine": code}, gold, texts, [*said, *m_said, day])

    def machine_down(self) -> Draft | None:
        kinds = [m[1] for m in self.machines.values() if m[3] == "working"]
        codes = [c for c, m in self.machines.items() if m[3] == "working" and kinds.count(m[1]) >= 2]
        if not codes:
            return None
        code = self.rng.choice(codes)
        self.machines[code][3] = "out_of_order"
        gold = [f"UPDATE cleaning_machines SET machine_status = 'out_of_order' WHERE machine_code = '{code}'"]
        machine, said = self.machine_said(code)
        why, day = self.rng.choice(FAULT_SAID), self.date(self.day)
        texts = {
            "log": f"{day} | {machine} | out of order, {why}",
            "chatty": f"{_capital(machine)} is out of order as of {day}: {why}",
            "keyvalue": keyvalue("machine fault", [("machine", machine), ("status", "out of order"), ("date", day)]),
        }
        return Draft({"machine": code, "status": "out_of_order"}, gold, texts, [*said, day])

    def tier_changed(self) -> Draft | None:
        name = self.rng.choice(self.customers())
        client = self.clients[name]
        old = client.tier
        client.tier = self.rng.choice([tier for tier in TIER_SAID if tier != old])
        gold = [f"UPDATE garment_clients SET account_tier = '{client.tier}' WHERE client_name = {sql_text(name)}"]
        before, after = self.rng.choice(TIER_SAID[old]), self.rng.choice(TIER_SAID[client.tier])
        day = self.date(self.day)
        texts = {
            "log": f"{day} | account change | {name} | {before} -> {after}",
            "chatty": f"{name} moves from {before} to a {after} account from {day}",
            "keyvalue": keyvalue(
                "account change", [("customer", name), ("old", before), ("new", after), ("from", day)]
            ),
        }
        return Draft({"client": name, "tier": client.tier}, gold, texts, [name, day])

    def promise_moved(self) -> Draft | None:
        tickets = [t for t in self.open_tickets("received", "in_machine", "pressing") if t.promised >= self.day]
        if not tickets:
            return None
        ticket = self.rng.choice(tickets)
        ticket.promised += dt.timedelta(days=self.rng.randint(1, 3))
        phrase, key, said = self.ticket_said(ticket)
        gold = [f"UPDATE drop_tickets SET promised_day = {sql_date(ticket.promised)} WHERE ticket_code = {key}"]
        to, day = self.date(ticket.promised), self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | now promised for {to}",
            "chatty": f"{_capital(phrase)} won't be ready in time; tell {ticket.client} it's now promised for {to} "
            f"(noted {day})",
            "keyvalue": keyvalue("ticket change", [("ticket", phrase), ("promised", to), ("date", day)]),
        }
        facts = {"ticket": ticket.code, "promised_day": ticket.promised.isoformat()}
        return Draft(facts, gold, texts, [*said, to, day])

    def claim_decided(self) -> Draft | None:
        claims = [c for c in self.claims if c.state == "open" and c.day < self.day]
        if not claims:
            return None
        claim = self.rng.choice(claims)
        claim.state = self.rng.choice(sorted(CLAIM_SAID))
        gold = [
            f"UPDATE damage_claims SET claim_state = '{claim.state}' WHERE ticket_code = '{claim.ticket}' "
            f"AND garment_kind = '{claim.garment}'"
        ]
        noun, how, day = NOUNS[claim.garment][0], self.rng.choice(CLAIM_SAID[claim.state]), self.date(self.day)
        texts = {
            "log": f"{day} | claim | {claim.ticket} {noun} | {how}",
            "chatty": f"The damage claim on the {noun} from {claim.ticket} has been {how} ({day})",
            "keyvalue": keyvalue(
                "claim update", [("ticket", claim.ticket), ("item", noun), ("claim", how)] + [("date", day)]
            ),
        }
        facts = {"ticket": claim.ticket, "garment": claim.garment, "state": claim.state}
        return Draft(facts, gold, texts, [claim.ticket, noun, day])

    # -- changes: a value erased --------------------------------------------------------------------

    def contact_dropped(self) -> Draft | None:
        dropped = sum(r.kind == "contact_dropped" for r in self.records)
        column, attr, what = (
            ("phone_no", "phone", "phone number") if dropped == 1 else ("email_on_file", "email", "email")
        )
        names = [n for n, p in sorted(self.clients.items()) if getattr(p, attr)]
        if not names:
            return None
        name = self.rng.choice(names)
        setattr(self.clients[name], attr, None)
        gold = [f"UPDATE garment_clients SET {column} = NULL WHERE client_name = {sql_text(name)}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {name} | no longer has {'an' if what == 'email' else 'a'} {what}, delete it",
            "chatty": f"{name} told us on {day} they no longer have that {what}; take it off their details",
            "keyvalue": keyvalue("contact change", [("customer", name), (what, "none any more"), ("date", day)]),
        }
        return Draft({"client": name, column: None}, gold, texts, [name, day])

    def hook_cleared(self) -> Draft | None:
        tickets = [t for t in self.open_tickets("ready") if t.hook]
        if not tickets:
            return None
        ticket = self.rng.choice(tickets)
        hook, ticket.hook = ticket.hook, None
        phrase, key, said = self.ticket_said(ticket)
        gold = [f"UPDATE drop_tickets SET hook_no = NULL WHERE ticket_code = {key}"]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | off hook {hook}, kept behind the counter, no hook",
            "chatty": f"Took {phrase} down off hook {hook} on {day}; it's behind the counter now, not on any hook",
            "keyvalue": keyvalue(
                "ticket update",
                [("ticket", phrase), ("hook", f"none, off hook {hook} and behind the counter"), ("date", day)],
            ),
        }
        return Draft({"ticket": ticket.code, "hook": None}, gold, texts, [*said, f"hook {hook}", day])

    # -- changes: a value read from another row of the same table -----------------------------------

    def same_hook(self) -> Draft | None:
        ready = self.open_tickets("ready")
        pairs = [(a, b) for a in ready for b in ready if b.hook and a.hook != b.hook]
        mates = [(a, b) for a, b in pairs if a.client == b.client]
        if not pairs:
            return None
        ticket, other = self.rng.choice(mates or pairs)
        ticket.hook = other.hook
        gold = [
            f"UPDATE drop_tickets SET hook_no = (SELECT hook_no FROM drop_tickets WHERE ticket_code = '{other.code}') "
            f"WHERE ticket_code = '{ticket.code}'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {ticket.code} | hang on the same hook as {other.code}",
            "chatty": f"Hung {ticket.code} on the same hook as {other.code} on {day}, so they go out together",
            "keyvalue": keyvalue(
                "ticket update", [("ticket", ticket.code), ("hook", f"same as {other.code}"), ("date", day)]
            ),
        }
        facts = {"ticket": ticket.code, "same_hook_as": other.code, "hook": ticket.hook}
        return Draft(facts, gold, texts, [ticket.code, other.code, day])

    def same_promise(self) -> Draft | None:
        tickets = self.open_tickets("received", "in_machine", "pressing")
        pairs = [
            (a, b)
            for a in tickets
            for b in self.tickets.values()
            if b.code != a.code and b.promised != a.promised and b.promised >= max(a.dropped, self.day)
        ]
        mates = [(a, b) for a, b in pairs if a.client == b.client]
        if not pairs:
            return None
        ticket, other = self.rng.choice(mates or pairs)
        ticket.promised = other.promised
        gold = [
            "UPDATE drop_tickets SET promised_day = (SELECT promised_day FROM drop_tickets "
            f"WHERE ticket_code = '{other.code}') WHERE ticket_code = '{ticket.code}'"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | {ticket.code} | promise for the same day as {other.code}",
            "chatty": f"{ticket.client} asked on {day} for {ticket.code} to be promised for the same day as {other.code}",
            "keyvalue": keyvalue(
                "ticket change", [("ticket", ticket.code), ("promised", f"same day as {other.code}"), ("date", day)]
            ),
        }
        facts = {"ticket": ticket.code, "same_promise_as": other.code, "promised_day": ticket.promised.isoformat()}
        return Draft(facts, gold, texts, [ticket.code, other.code, day])

    def phone_shared(self) -> Draft | None:
        people = sorted(self.clients.values(), key=lambda p: p.name)
        pairs = [(a, b) for a in people for b in people if b.phone and a.phone != b.phone]
        if not pairs:
            return None
        client, partner = self.rng.choice(pairs)
        client.phone = partner.phone
        gold = [
            "UPDATE garment_clients SET phone_no = (SELECT phone_no FROM garment_clients WHERE client_name = "
            f"{sql_text(partner.name)}) WHERE client_name = {sql_text(client.name)}"
        ]
        day = self.date(self.day)
        texts = {
            "log": f"{day} | contact | {client.name} | phone: same as {partner.name}'s",
            "chatty": f"{client.name} says to call {partner.name}'s number from now on, they share a phone ({day})",
            "keyvalue": keyvalue(
                "contact change", [("customer", client.name), ("phone", f"same as {partner.name}"), ("date", day)]
            ),
        }
        facts = {"client": client.name, "same_phone_as": partner.name, "phone": partner.phone}
        return Draft(facts, gold, texts, [client.name, partner.name, day])

    # -- changes: a number raised or lowered ----------------------------------------------------------

    def _supplies_change(self, more: bool) -> Draft | None:
        rng = self.rng
        codes = [c for c in self.supplies if more or self.supplies[c] >= 3]
        if not codes:
            return None
        code = rng.choice(codes)
        unit = SUPPLIES[int(code.split("-")[1]) - 1][1]
        top = {"each": 100, "litre": 40, "roll": 6}[unit]
        n = (rng.randrange(20, top + 1, 10) if top > 10 else rng.randint(2, top)) if more else 0
        if not more:
            n = rng.randint(1, min(top // 4 if top > 10 else 3, self.supplies[code] - 1))
        self.supplies[code] += n if more else -n
        gold = [
            f"UPDATE shop_supplies SET qty_on_hand = qty_on_hand {'+' if more else '-'} {n} WHERE supply_code = '{code}'"
        ]
        name = SUPPLIES[int(code.split("-")[1]) - 1][0]
        what = self.supply_said(code, n)
        amount, said = self.count(n)
        day = self.date(self.day)
        if more:
            texts = {
                "log": f"{day} | delivery | {name} | +{amount}",
                "chatty": f"{_capital(amount)} more {what} arrived on {day}",
                "keyvalue": keyvalue("delivery", [("supply", name), ("received", amount), ("date", day)]),
            }
        else:
            texts = {
                "log": f"{day} | used | {name} | -{amount}",
                "chatty": f"We got through {amount} {what} on {day}, take them off the stock",
                "keyvalue": keyvalue("supplies used", [("supply", name), ("used", amount), ("date", day)]),
            }
        facts = {"supply": code, "change": n if more else -n, "qty_on_hand": self.supplies[code]}
        return Draft(facts, gold, texts, [name, *said, day])

    def supplies_arrived(self) -> Draft | None:
        return self._supplies_change(more=True)

    def supplies_used(self) -> Draft | None:
        return self._supplies_change(more=False)

    def qty_fix(self) -> Draft | None:
        rng = self.rng
        options = [
            (t, g) for t in self.tickets.values() if t.dropped < self.day and t.stage != "collected" for g in t.lines
        ]
        if not options:
            return None
        ticket, garment = rng.choice(options)
        line = ticket.lines[garment]
        n = rng.randint(1, 3)
        fewer = line.qty > n and rng.random() < 0.6
        line.qty += -n if fewer else n
        phrase, key, said = self.ticket_said(ticket)
        gold = [
            f"UPDATE ticket_lines SET item_qty = item_qty {'-' if fewer else '+'} {n} "
            f"WHERE ticket_code = {key} AND garment_kind = '{garment}'"
        ]
        amount, n_said = self.count(n)
        noun, day = NOUNS[garment][n != 1], self.date(self.day)
        way = "fewer" if fewer else "more"
        texts = {
            "log": f"{day} | correction | {phrase} | {amount} {noun} {way}",
            "chatty": (
                f"Charge {amount} {noun} {way} on {phrase}, "
                + ("we counted some twice" if fewer else "some were missed at the counter")
                + f" (checked {day})"
            ),
            "keyvalue": keyvalue(
                "ticket correction", [("ticket", phrase), (NOUNS[garment][1], f"{amount} {way}"), ("date", day)]
            ),
        }
        facts = {"ticket": ticket.code, "garment": garment, "change": -n if fewer else n, "qty": line.qty}
        return Draft(facts, gold, texts, [*said, *n_said, day])

    def price_rise(self) -> Draft | None:
        rng = self.rng
        code = rng.choice([c for c in sorted(self.services) if c != self.unused])
        step = rng.choice((0.50, 1.00, 0.20, 1.50))
        service = self.services[code]
        service[3] = round(service[3] + step, 2)
        gold = [f"UPDATE service_menu SET menu_price = menu_price + {step:.2f} WHERE service_code = '{code}'"]
        label, day = service[0], self.date(self.day)
        texts = {
            "log": f"{day} | price change | {code} {label} | up {step:.2f}",
            "chatty": f"From {day} the {label} ({code}) costs £{step:.2f} more",
            "keyvalue": keyvalue(
                "price change", [("service", f"{code} {label}"), ("up by", f"{step:.2f}"), ("from", day)]
            ),
        }
        facts = {"service": code, "change": step, "price": service[3]}
        return Draft(facts, gold, texts, [code, f"{step:.2f}", day])

    # -- changes: a row removed -------------------------------------------------------------------------

    def line_dropped(self) -> Draft | None:
        tickets = [t for t in self.open_tickets("received") if len(t.lines) >= 2 and t.dropped < self.day]
        if not tickets:
            return None
        ticket = self.rng.choice(tickets)
        garment = self.rng.choice(sorted(ticket.lines))
        ticket.lines.pop(garment)
        phrase, key, said = self.ticket_said(ticket)
        gold = [f"DELETE FROM ticket_lines WHERE ticket_code = {key} AND garment_kind = '{garment}'"]
        noun, day = NOUNS[garment][1], self.date(self.day)
        texts = {
            "log": f"{day} | {phrase} | {noun} taken back by the customer, remove that line",
            "chatty": f"{ticket.client} took the {noun} back on {day} before we started; take them off {phrase}",
            "keyvalue": keyvalue("ticket change", [("ticket", phrase), ("remove", noun), ("date", day)]),
        }
        return Draft({"ticket": ticket.code, "garment": garment}, gold, texts, [*said, noun, day])

    def alteration_cancelled(self) -> Draft | None:
        alterations = [a for a in self.alterations if a.day < self.day]
        if not alterations:
            return None
        alteration = self.rng.choice(alterations)
        self.alterations.remove(alteration)
        gold = [
            f"DELETE FROM alteration_requests WHERE client_no = {_client(alteration.client)} "
            f"AND asked_day = {sql_date(alteration.day)}"
        ]
        noun, when, day = NOUNS[alteration.garment][0], self.date(alteration.day), self.date(self.day)
        texts = {
            "log": f"{day} | alteration cancelled | {alteration.client} | {noun}, asked {when}",
            "chatty": f"{alteration.client} called on {day} to cancel the alteration to their {noun} they asked for "
            f"on {when}",
            "keyvalue": keyvalue(
                "alteration cancelled", [("customer", alteration.client), ("asked on", when), ("date", day)]
            ),
        }
        facts = {"client": alteration.client, "asked_day": alteration.day.isoformat()}
        return Draft(facts, gold, texts, [alteration.client, when, day])

    def claim_withdrawn(self) -> Draft | None:
        claims = [c for c in self.claims if c.state == "open" and c.day < self.day]
        if not claims:
            return None
        claim = self.rng.choice(claims)
        self.claims.remove(claim)
        gold = [f"DELETE FROM damage_claims WHERE ticket_code = '{claim.ticket}' AND garment_kind = '{claim.garment}'"]
        noun, day = NOUNS[claim.garment][0], self.date(self.day)
        texts = {
            "log": f"{day} | claim withdrawn | {claim.ticket} {noun} | delete it",
            "chatty": f"The customer withdrew the damage claim on the {noun} from {claim.ticket} on {day}, "
            "it was fine after a second look; delete the claim",
            "keyvalue": keyvalue(
                "claim withdrawn", [("ticket", claim.ticket), ("item", noun), ("action", "delete"), ("date", day)]
            ),
        }
        return Draft({"ticket": claim.ticket, "garment": claim.garment}, gold, texts, [claim.ticket, noun, day])

    # -- questions ----------------------------------------------------------------------------------

    def questions(self) -> list[Question]:
        rng = self.rng
        tickets = list(self.tickets.values())
        phoned = [p.name for p in self.clients.values() if p.phone]
        sharer = next((str(r.facts["client"]) for r in self.records if r.kind == "phone_shared"), "")
        sharer = sharer if sharer in phoned else rng.choice(phoned)
        hooked = rng.choice([t for t in tickets if t.hook] or tickets)
        loaded = rng.choice([t for t in tickets if t.machine])
        ticket, promised, staged = rng.choice(tickets), rng.choice(tickets), rng.choice(tickets)
        payers = sorted(self.paid)
        payer, debtor = rng.choice(payers), rng.choice(sorted({t.client for t in tickets}))
        service = rng.choice([c for c in sorted(self.services) if c != self.unused])
        tier = rng.choice(sorted({p.tier for p in self.clients.values()}))
        stage = rng.choice(sorted({t.stage for t in tickets}))
        dropped = sorted(t.dropped for t in tickets if t.dropped >= START)
        first = rng.choice(dropped[: len(dropped) // 2 + 1])
        span = (first - dt.timedelta(days=rng.randint(0, 2)), first + dt.timedelta(days=rng.randint(5, 10)))
        due = rng.choice(sorted(t.promised for t in tickets if t.promised >= START))
        due_span = (due - dt.timedelta(days=rng.randint(1, 3)), due + dt.timedelta(days=rng.randint(2, 5)))
        month = rng.choice(sorted({d.replace(day=1) for e in self.paid.values() for d, _, _ in e if d >= START}))
        after = (month + dt.timedelta(days=32)).replace(day=1)
        form = rng.choice((1, 2))

        def said(day: dt.date) -> str:
            return date_forms(day)[form]

        tk = "FROM drop_tickets t JOIN garment_clients c ON c.client_no = t.client_no"
        lines = f"FROM ticket_lines l {_OF_TICKET}"
        paid = "FROM till_payments p JOIN garment_clients c ON c.client_no = p.client_no"
        rows = [
            ("count", "How many tickets are ready to pick up right now?",
             "SELECT count(*) FROM drop_tickets WHERE ticket_stage = 'ready'"),
            ("count", "How many tickets have been collected?",
             "SELECT count(*) FROM drop_tickets WHERE ticket_stage = 'collected'"),
            ("count", "How many customers have a business account?",
             "SELECT count(*) FROM garment_clients WHERE account_tier = 'business'"),
            ("count", f"How many items are on {ticket.code}?",
             f"SELECT sum(item_qty) FROM ticket_lines WHERE ticket_code = '{ticket.code}'"),
            ("count", "How many damage claims have been made?", "SELECT count(*) FROM damage_claims"),
            ("sum", "How much have customers paid us altogether?", "SELECT sum(paid_amount) FROM till_payments"),
            ("sum", "How many litres of solvent and detergent do we have between them?",
             "SELECT sum(qty_on_hand) FROM shop_supplies WHERE stock_unit = 'litre'"),
            ("sum", f"How much has {payer} paid in total?",
             f"SELECT sum(p.paid_amount) {paid} WHERE c.client_name = {sql_text(payer)}"),
            ("sum", "How many shirts have come in altogether?",
             "SELECT sum(item_qty) FROM ticket_lines WHERE garment_kind = 'shirt'"),
            ("lookup", f"Which hook is {hooked.code} on?",
             f"SELECT hook_no FROM drop_tickets WHERE ticket_code = '{hooked.code}'"),
            ("lookup", f"What phone number do we have for {sharer}?",
             f"SELECT phone_no FROM garment_clients WHERE client_name = {sql_text(sharer)}"),
            ("lookup", f"When is {promised.code} promised for?",
             f"SELECT promised_day FROM drop_tickets WHERE ticket_code = '{promised.code}'"),
            ("lookup", f"What stage is {staged.code} at?",
             f"SELECT ticket_stage FROM drop_tickets WHERE ticket_code = '{staged.code}'"),
            ("lookup", f"Which machine did {loaded.code} go into?",
             f"SELECT machine_code FROM drop_tickets WHERE ticket_code = '{loaded.code}'"),
            ("lookup", f"What does {service} cost on the price list now?",
             f"SELECT menu_price FROM service_menu WHERE service_code = '{service}'"),
            ("grouped", "How many tickets are at each stage?",
             "SELECT ticket_stage, count(*) FROM drop_tickets GROUP BY ticket_stage ORDER BY ticket_stage"),
            ("grouped", "How much has been paid each way (cash, card, contactless, voucher)?",
             "SELECT tender_type, sum(paid_amount) FROM till_payments GROUP BY tender_type ORDER BY tender_type"),
            ("grouped", "How many items of each kind of garment have come in?",
             "SELECT garment_kind, sum(item_qty) FROM ticket_lines GROUP BY garment_kind ORDER BY garment_kind"),
            ("grouped", "How much has been charged for each group of services (wash, dry clean, press, repair)?",
             "SELECT s.service_group, sum(l.item_qty * l.charged_per_item) FROM ticket_lines l "
             "JOIN service_menu s ON s.service_code = l.service_code GROUP BY s.service_group ORDER BY s.service_group"),
            ("grouped", "How many tickets has each customer brought in?",
             f"SELECT c.client_name, count(*) {tk} GROUP BY c.client_name ORDER BY c.client_name"),
            ("top", "Which three customers have brought in the most items, and how many each?",
             f"SELECT c.client_name, sum(l.item_qty) AS items {lines} GROUP BY c.client_name "
             "ORDER BY items DESC, c.client_name LIMIT 3"),
            ("top", "Which service has brought in the most money, and how much?",
             "SELECT service_code, sum(item_qty * charged_per_item) AS taken FROM ticket_lines GROUP BY service_code "
             "ORDER BY taken DESC, service_code LIMIT 1"),
            ("top", "What were the three largest payments, and who made them?",
             f"SELECT c.client_name, p.paid_amount, p.paid_day {paid} ORDER BY p.paid_amount DESC, p.paid_day LIMIT 3"),
            ("top", "Which ticket has the most items on it?",
             "SELECT ticket_code, sum(item_qty) AS items FROM ticket_lines GROUP BY ticket_code "
             "ORDER BY items DESC, ticket_code LIMIT 1"),
            ("range", f"Which tickets were dropped off between {said(span[0])} and {said(span[1])}?",
             f"SELECT ticket_code FROM drop_tickets WHERE dropped_day BETWEEN {sql_date(span[0])} "
             f"AND {sql_date(span[1])} ORDER BY ticket_code"),
            ("range", f"How much was paid in {month.strftime('%B %Y')}?",
             f"SELECT sum(paid_amount) FROM till_payments WHERE paid_day >= {sql_date(month)} "
             f"AND paid_day < {sql_date(after)}"),
            ("range", f"Which tickets are promised between {said(due_span[0])} and {said(due_span[1])}?",
             f"SELECT ticket_code, promised_day FROM drop_tickets WHERE promised_day BETWEEN {sql_date(due_span[0])} "
             f"AND {sql_date(due_span[1])} ORDER BY promised_day, ticket_code"),
            ("derived", f"How much does {debtor} owe us?",
             f"SELECT balance_owing FROM garment_clients WHERE client_name = {sql_text(debtor)}"),
            ("derived", "How much do our customers owe between them?", "SELECT sum(balance_owing) FROM garment_clients"),
            ("derived", "Who owes us the most, and how much?",
             "SELECT client_name, balance_owing FROM garment_clients ORDER BY balance_owing DESC, client_name LIMIT 1"),
            ("derived", f"What does {ticket.code} come to?",
             f"SELECT sum(item_qty * charged_per_item) FROM ticket_lines WHERE ticket_code = '{ticket.code}'"),
            ("none", "Which customers have never brought in a ticket?",
             "SELECT client_name FROM garment_clients WHERE client_no NOT IN (SELECT client_no FROM drop_tickets) "
             "ORDER BY client_name"),
            ("none", "Which machines have never had a ticket in them?",
             "SELECT machine_code FROM cleaning_machines WHERE machine_code NOT IN "
             "(SELECT machine_code FROM drop_tickets WHERE machine_code IS NOT NULL) ORDER BY machine_code"),
            ("none", "Which customers have no email address on file?",
             "SELECT client_name FROM garment_clients WHERE email_on_file IS NULL ORDER BY client_name"),
            ("none", "Which services on the price list have never been charged on a ticket?",
             "SELECT service_code FROM service_menu WHERE service_code NOT IN (SELECT service_code FROM ticket_lines) "
             "ORDER BY service_code"),
            ("average", "What is the average payment?", "SELECT avg(paid_amount) FROM till_payments"),
            ("average", "What is the average price on the list for a dry-cleaning service?",
             "SELECT avg(menu_price) FROM service_menu WHERE service_group = 'dry_clean'"),
            ("category", "Which machines are out of order?",
             "SELECT machine_code FROM cleaning_machines WHERE machine_status = 'out_of_order' ORDER BY machine_code"),
            ("category", f"Which customers have a {TIER_SAID[tier][0]} account?",
             f"SELECT client_name FROM garment_clients WHERE account_tier = '{tier}' ORDER BY client_name"),
            ("category", f"Which tickets are at the {stage.replace('_', ' ')} stage, and whose are they?",
             f"SELECT t.ticket_code, c.client_name {tk} WHERE t.ticket_stage = '{stage}' ORDER BY t.ticket_code"),
        ]  # fmt: skip
        return [Question(f"q{i:02d}", text, gold, family) for i, (family, text, gold) in enumerate(rows, 1)]


def build(seed: int = 0) -> Trade:
    """The dry-cleaner trade generated from `seed`: the first log drawn from `random.Random(seed)` that places every
    record (a draw whose kinds left stop fitting is dropped, and the same generator draws again)."""
    rng = random.Random(seed)
    for _ in range(DRAWS):
        shop = Shop(rng, seed)
        if shop.run():
            break
    else:
        raise RuntimeError(f"no log of seed {seed} placed its records in {DRAWS} draws")
    return Trade(
        name="drycleaner",
        description="A dry cleaner and laundry: customers' tickets of garments with a service each from the price "
        "list, machines, rack hooks, payments, supplies, damage claims and alterations.",
        schema=SCHEMA,
        reference=shop.reference,
        rules=(OWING,),
        records=tuple(shop.records),
        questions=tuple(shop.questions()),
        snapshot=dict(SNAPSHOT),
        checks=dict(CHECKS),
    )
