"""The warehouse trade: a maker of garden goods moving its own stock between five sites.

Sites are keyed by a code users compose from words ('the north site' -> 'NTH'), products by SKU, bins by
site and bin code ('aisle B, bay 2' at the north site -> ('NTH', 'B2')). Stock per site and product is kept
by one rule: production receipts plus transfers received minus transfers shipped plus count adjustments.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from .base import WORDINGS, Question, Record, Rule, Trade, Turns, date_forms, in_words, keyvalue, sql_date, sql_text

SCHEMA = """
CREATE SEQUENCE transfer_seq START 1;
CREATE SEQUENCE adjustment_seq START 1;
CREATE SEQUENCE production_seq START 1;
CREATE SEQUENCE incident_seq START 1;

CREATE TABLE sites (
    site_code VARCHAR PRIMARY KEY,
    site_name VARCHAR NOT NULL UNIQUE,
    town VARCHAR NOT NULL,
    manager_name VARCHAR NOT NULL,
    manager_phone VARCHAR,
    manager_email VARCHAR
);

CREATE TABLE products (
    sku VARCHAR PRIMARY KEY,
    product_name VARCHAR NOT NULL,
    unit_of_measure VARCHAR NOT NULL CHECK (unit_of_measure IN ('each', 'box', 'roll', 'bag'))
);

CREATE TABLE bins (
    site_code VARCHAR NOT NULL REFERENCES sites (site_code),
    bin_code VARCHAR NOT NULL,
    sku VARCHAR REFERENCES products (sku),
    PRIMARY KEY (site_code, bin_code)
);

CREATE TABLE stock_levels (
    site_code VARCHAR NOT NULL REFERENCES sites (site_code),
    sku VARCHAR NOT NULL REFERENCES products (sku),
    on_hand INTEGER NOT NULL DEFAULT 0,
    reorder_level INTEGER CHECK (reorder_level >= 0),
    PRIMARY KEY (site_code, sku)
);

CREATE TABLE transfers (
    transfer_id INTEGER PRIMARY KEY DEFAULT nextval('transfer_seq'),
    from_site VARCHAR NOT NULL REFERENCES sites (site_code),
    to_site VARCHAR NOT NULL REFERENCES sites (site_code),
    shipped_on DATE NOT NULL,
    received_on DATE,
    carrier VARCHAR NOT NULL CHECK (carrier IN ('own_van', 'courier', 'pallet_freight'))
);

CREATE TABLE transfer_lines (
    transfer_id INTEGER NOT NULL REFERENCES transfers (transfer_id),
    sku VARCHAR NOT NULL REFERENCES products (sku),
    units INTEGER NOT NULL CHECK (units > 0),
    PRIMARY KEY (transfer_id, sku)
);

CREATE TABLE adjustments (
    adjustment_id INTEGER PRIMARY KEY DEFAULT nextval('adjustment_seq'),
    site_code VARCHAR NOT NULL REFERENCES sites (site_code),
    sku VARCHAR NOT NULL REFERENCES products (sku),
    counted_on DATE NOT NULL,
    units_change INTEGER NOT NULL CHECK (units_change <> 0),
    reason VARCHAR NOT NULL CHECK (reason IN ('damaged', 'miscounted', 'expired', 'found'))
);

CREATE TABLE production_receipts (
    receipt_id INTEGER PRIMARY KEY DEFAULT nextval('production_seq'),
    site_code VARCHAR NOT NULL REFERENCES sites (site_code),
    sku VARCHAR NOT NULL REFERENCES products (sku),
    received_on DATE NOT NULL,
    units INTEGER NOT NULL CHECK (units > 0)
);

CREATE TABLE incidents (
    incident_id INTEGER PRIMARY KEY DEFAULT nextval('incident_seq'),
    site_code VARCHAR NOT NULL REFERENCES sites (site_code),
    happened_on DATE NOT NULL,
    category VARCHAR NOT NULL CHECK (category IN ('spill', 'forklift', 'injury', 'break_in')),
    note VARCHAR NOT NULL
);
"""

STOCK_RULE = Rule(
    name="stock on hand",
    sentence=(
        "A site's stock of a product is what production delivered there, plus transfers received there, "
        "minus transfers shipped from there, plus the stock-count adjustments."
    ),
    sql="""UPDATE stock_levels AS s SET on_hand =
    coalesce((SELECT sum(r.units) FROM production_receipts r WHERE r.site_code = s.site_code AND r.sku = s.sku), 0)
    + coalesce((SELECT sum(l.units) FROM transfer_lines l JOIN transfers t ON t.transfer_id = l.transfer_id
                WHERE t.to_site = s.site_code AND l.sku = s.sku AND t.received_on IS NOT NULL), 0)
    - coalesce((SELECT sum(l.units) FROM transfer_lines l JOIN transfers t ON t.transfer_id = l.transfer_id
                WHERE t.from_site = s.site_code AND l.sku = s.sku), 0)
    + coalesce((SELECT sum(a.units_change) FROM adjustments a WHERE a.site_code = s.site_code AND a.sku = s.sku), 0)""",
)

SNAPSHOT = {
    "sites": "SELECT site_code, site_name, town, manager_name, manager_phone, manager_email FROM sites",
    "products": "SELECT sku, product_name, unit_of_measure FROM products",
    "bins": "SELECT site_code, bin_code, sku FROM bins",
    "stock_levels": "SELECT site_code, sku, on_hand, reorder_level FROM stock_levels",
    "transfers": "SELECT from_site, to_site, shipped_on, received_on, carrier FROM transfers",
    "transfer_lines": (
        "SELECT t.from_site, t.to_site, t.shipped_on, l.sku, l.units "
        "FROM transfer_lines l JOIN transfers t ON t.transfer_id = l.transfer_id"
    ),
    "adjustments": "SELECT site_code, sku, counted_on, units_change, reason FROM adjustments",
    "production_receipts": "SELECT site_code, sku, received_on, units FROM production_receipts",
    "incidents": "SELECT site_code, happened_on, category, note FROM incidents",
}

CHECKS = {
    "stock_on_hand": "SELECT site_code, sku, on_hand FROM stock_levels",
    "in_transit": (
        "SELECT t.from_site, t.to_site, t.shipped_on, sum(l.units) FROM transfers t "
        "JOIN transfer_lines l ON l.transfer_id = t.transfer_id WHERE t.received_on IS NULL "
        "GROUP BY t.from_site, t.to_site, t.shipped_on"
    ),
    "adjustments_by_reason": "SELECT reason, count(*), sum(units_change) FROM adjustments GROUP BY reason",
    "transfers_by_carrier": "SELECT carrier, count(*) FROM transfers GROUP BY carrier",
    "bin_assignments": "SELECT site_code, bin_code, sku FROM bins",
}

# code, name, how users say it, town, manager, phone, email
SITES = (
    ("NTH", "North site", "the north site", "Leeds", "Priya Shah", "0113 496 0231", "priya.shah@greenfold.example"),
    (
        "STH",
        "South site",
        "the south site",
        "Southampton",
        "Tom Becker",
        "023 8049 6610",
        "tom.becker@greenfold.example",
    ),
    ("EST", "East site", "the east site", "Norwich", "Grace Okafor", "01603 496 118", "grace.okafor@greenfold.example"),
    ("WST", "West site", "the west site", "Bristol", "Luis Moreno", "0117 496 0772", "luis.moreno@greenfold.example"),
    ("CTR", "Central site", "the central site", "Birmingham", "Hannah Novak", "0121 496 0345", None),
)
FACTORIES = ("NTH", "EST")  # the sites production delivers into
STORES = ("STH", "WST", "CTR")
BINS = ("A1", "A2", "B1", "B2")

PRODUCTS = (
    ("SKU-1042", "Garden hose 15 m", "roll"),
    ("SKU-1057", "Hose connector", "each"),
    ("SKU-1120", "Plant pot 30 cm", "each"),
    ("SKU-1185", "Potting compost 40 L", "bag"),
    ("SKU-1203", "Cable ties 200 mm", "box"),
    ("SKU-1261", "Weed membrane 10 m", "roll"),
    ("SKU-1318", "Watering can 10 L", "each"),
    ("SKU-1374", "Slug pellets 1 kg", "box"),
    ("SKU-1409", "Bird feeder", "each"),
    ("SKU-1466", "Bark mulch 70 L", "bag"),
)
REF_SKUS = tuple(sku for sku, _, _ in PRODUCTS)
NEW_PRODUCTS = (
    ("SKU-2010", "Rain barrel 200 L", "each"),
    ("SKU-2024", "Garden twine 250 m", "roll"),
    ("SKU-2031", "Trellis panel 1.8 m", "each"),
    ("SKU-2047", "Plant labels", "box"),
    ("SKU-2058", "Horticultural grit 20 kg", "bag"),
)
# sku, field, as first entered, right
FIXES = (
    ("SKU-1374", "name", "Slug pelets 1 kg", "Slug pellets 1 kg"),
    ("SKU-1409", "name", "Bird feedr", "Bird feeder"),
    ("SKU-1057", "name", "Hose conector", "Hose connector"),
    ("SKU-1203", "unit", "each", "box"),
    ("SKU-1261", "unit", "each", "roll"),
)

UNIT_WORDS = {
    "each": ("single pieces", "pieces", "singles"),
    "box": ("boxes",),
    "roll": ("rolls",),
    "bag": ("bags", "sacks"),
}
CARRIER_LOG = {
    "own_van": ("own van", "our van"),
    "courier": ("courier",),
    "pallet_freight": ("pallet freight", "pallet haulier"),
}
CARRIER_KV = {
    "own_van": ("company van", "our van"),
    "courier": ("courier", "parcel courier"),
    "pallet_freight": ("pallet freight",),
}
CARRIER_CLAUSE = {
    "own_van": ("it went in our own van", "the company van took it", "we used our own van"),
    "courier": ("a courier picked it up", "it went by courier", "we sent it with a courier"),
    "pallet_freight": ("it went by pallet freight", "it went on the pallet network", "a pallet haulier collected it"),
}
CARRIER_BY = {
    "own_van": ("in our own van", "in the company van"),
    "courier": ("by courier", "with a courier"),
    "pallet_freight": ("by pallet freight", "on the pallet network"),
}
REASON_LOG = {
    "damaged": ("damaged", "broken"),
    "expired": ("out of date", "expired"),
    "found": ("found", "turned up"),
    "miscounted": ("miscount", "counting error"),
}
REASON_KV = {
    "damaged": ("damaged in handling", "broken"),
    "expired": ("past use-by date", "out of date"),
    "found": ("turned up in count", "found behind racking"),
    "miscounted": ("earlier miscount", "counting error"),
}
REASON_CLAUSE = {
    "damaged": ("were damaged in handling", "got crushed by a forklift", "were broken and can't go out"),
    "expired": ("were past their use-by date", "had gone out of date", "had expired"),
}

INCIDENT_SAID = {
    "spill": ("spill", "spillage"),
    "forklift": ("forklift bump", "forklift knock"),
    "injury": ("injury", "minor injury"),
    "break_in": ("break-in", "attempted break-in"),
}
INCIDENT_NOTES = {
    "spill": ("a pallet of compost split in aisle A", "slug pellets spilt by the loading bay"),
    "forklift": ("racking upright dented in aisle B", "the dock door clipped while reversing"),
    "injury": ("a picker cut a hand on strapping", "a driver twisted an ankle on the dock ramp"),
    "break_in": ("the side gate lock was forced overnight", "the yard fence was cut overnight"),
}
# (kind, variant) -> the class whose records take the wordings in turn (`Turns`): each in every wording
TURNS = {
    ("bin_cleared", ""): "clear",
    ("reorder_level", "clear"): "clear",
    ("bin_copied", ""): "copy",
    ("reorder_level", "copy"): "copy",
    ("reorder_shift", "up"): "add",
    ("reorder_shift", "down"): "add",
    ("line_corrected", "add"): "add",
    ("incident", ""): "incident",
}
KIND_COUNTS = {
    "transfer": 13,
    "transfer_received": 12,
    "adjustment": 7,
    "production_receipt": 6,
    "new_product": 3,
    "bin_assigned": 4,
    "bin_cleared": 2,
    "carrier_changed": 3,
    "line_corrected": 3,
    "product_fixed": 3,
    "reorder_level": 3,
    "contact_changed": 2,
    "reorder_shift": 2,
    "bin_copied": 2,
    "incident": 3,
}
FIRST_DAY = dt.date(2024, 3, 1)
LAST_DAY = dt.date(2024, 5, 15)


def _d(day: dt.date) -> str:
    return sql_date(day)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@dataclass
class _Transfer:
    source: str
    target: str
    shipped: dt.date
    carrier: str
    lines: dict[str, int]
    received: dt.date | None = None

    def where(self) -> str:
        return f"from_site = '{self.source}' AND to_site = '{self.target}' AND shipped_on = {_d(self.shipped)}"

    def id_sql(self) -> str:
        return f"(SELECT transfer_id FROM transfers WHERE {self.where()})"


@dataclass
class _Written:
    text: str
    stated: list[str] = field(default_factory=list)


@dataclass
class _State:
    """What the generator knows of the exact state, to pick records that make sense and questions that answer."""

    sites: dict[str, dict[str, str | None]]
    products: dict[str, list[str]]
    stock: dict[tuple[str, str], int]
    reorder: dict[tuple[str, str], int | None]
    bins: dict[tuple[str, str], str | None]
    transfers: list[_Transfer]
    production: list[tuple[str, str, dt.date, int]] = field(default_factory=list)
    adjustments: list[tuple[str, str, dt.date, int, str]] = field(default_factory=list)
    protected: set[tuple[str, str]] = field(default_factory=set)  # kept below their reorder level


class _Generator:
    """Writes the reference rows, the records and the questions of one seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.forms = 0
        self.site_words = False
        self.fixes = self._pick_fixes()
        self.new_products = list(self.rng.sample(NEW_PRODUCTS, 3))
        self.state = self._opening_state()
        self.reference = self._reference_sql()

    # -- reference -------------------------------------------------------------------------------

    def _pick_fixes(self) -> list[tuple[str, str, str, str]]:
        names = [f for f in FIXES if f[1] == "name"]
        units = [f for f in FIXES if f[1] == "unit"]
        chosen = [*self.rng.sample(names, 2), self.rng.choice(units)]
        self.rng.shuffle(chosen)
        return chosen

    def _opening_state(self) -> _State:
        rng = self.rng
        products = {sku: [name, unit] for sku, name, unit in PRODUCTS}
        for sku, fix_field, wrong, _ in self.fixes:
            products[sku][0 if fix_field == "name" else 1] = wrong
        sites = {
            code: {"manager": manager, "phone": phone, "email": email} for code, _, _, _, manager, phone, email in SITES
        }
        skus = [p[0] for p in PRODUCTS]
        stock = {(site, sku): 0 for site, *_ in SITES for sku in skus}
        state = _State(sites, products, stock, {}, {}, [])
        for site in FACTORIES:
            for sku in skus:
                for day in (dt.date(2024, 1, 15), dt.date(2024, 2, 5)):
                    units = rng.randrange(150, 401, 10)
                    state.production.append((site, sku, day, units))
                    stock[(site, sku)] += units
        state.protected = {(rng.choice(STORES), rng.choice(skus))}
        days = sorted(rng.sample(range(6, 30), 8))
        for i, target in enumerate([*STORES, *rng.sample(STORES, 3), rng.choice(STORES), rng.choice(STORES)]):
            source = FACTORIES[i % 2] if i < 6 else rng.choice(FACTORIES)
            chosen = rng.sample(skus, 5)
            lines = {}
            for sku in chosen:
                units = rng.randrange(4, 10) if (target, sku) in state.protected else rng.randrange(20, 81, 5)
                lines[sku] = units
                stock[(source, sku)] -= units
            shipped = dt.date(2024, 2, days[i])
            transfer = _Transfer(source, target, shipped, rng.choice(list(CARRIER_LOG)), lines)
            if i < 6:
                transfer.received = shipped + dt.timedelta(days=rng.randint(1, 3))
                for sku, units in lines.items():
                    stock[(target, sku)] += units
            state.transfers.append(transfer)
        incoming = {key: 0 for key in stock}
        for transfer in state.transfers:
            for sku, units in transfer.lines.items():
                incoming[(transfer.target, sku)] += units
        for key in stock:
            if key in state.protected:
                state.reorder[key] = incoming[key] + 15
            elif rng.random() < 0.3:
                state.reorder[key] = None
            else:
                state.reorder[key] = rng.randrange(10, 61, 5)
        for site, *_ in SITES:
            empty = rng.choice(BINS)
            for code, sku in zip(BINS, rng.sample(skus, len(BINS))):
                state.bins[(site, code)] = None if code == empty else sku
        return state

    def _reference_sql(self) -> str:
        s = self.state
        out = []
        for code, name, _, town, manager, phone, email in SITES:
            values = ", ".join(
                sql_text(v) if v is not None else "NULL" for v in (code, name, town, manager, phone, email)
            )
            out.append(
                f"INSERT INTO sites (site_code, site_name, town, manager_name, manager_phone, manager_email) VALUES ({values});"
            )
        for sku, (name, unit) in s.products.items():
            out.append(
                f"INSERT INTO products (sku, product_name, unit_of_measure) VALUES ('{sku}', {sql_text(name)}, '{unit}');"
            )
        for (site, code), sku in s.bins.items():
            out.append(f"INSERT INTO bins (site_code, bin_code, sku) VALUES ('{site}', '{code}', {_lit(sku)});")
        for (site, sku), level in s.reorder.items():
            out.append(
                f"INSERT INTO stock_levels (site_code, sku, reorder_level) VALUES ('{site}', '{sku}', {_lit(level)});"
            )
        for site, sku, day, units in s.production:
            out.append(_receipt_sql(site, sku, day, units) + ";")
        for t in s.transfers:
            received = _d(t.received) if t.received else "NULL"
            out.append(
                "INSERT INTO transfers (from_site, to_site, shipped_on, received_on, carrier) "
                f"VALUES ('{t.source}', '{t.target}', {_d(t.shipped)}, {received}, '{t.carrier}');"
            )
            for sku, units in t.lines.items():
                out.append(
                    f"INSERT INTO transfer_lines (transfer_id, sku, units) VALUES ({t.id_sql()}, '{sku}', {units});"
                )
        return "\n".join(out)

    # -- writing helpers -------------------------------------------------------------------------

    def day(self, day: dt.date) -> str:
        self.forms += 1
        return date_forms(day)[self.forms % 4]

    def num(self, n: int, w: _Written | None = None, *, words: float = 0.5) -> str:
        """`n` as digits (stated) or, when small, sometimes in words."""
        if n <= 12 and self.rng.random() < words:
            return in_words(n)
        if w is not None:
            w.stated.append(str(n))
        return str(n)

    def site(self, code: str, w: _Written, wording: str) -> str:
        """A site as the code (stated) or as the words a user composes it from, the same way throughout a record."""
        if self.site_words:
            _, name, said, *_ = next(s for s in SITES if s[0] == code)
            return {"log": name.split()[0], "keyvalue": name, "chatty": said}[wording]
        w.stated.append(code)
        return code

    def bin(self, code: str, w: _Written, wording: str) -> str:
        words = {"log": 0.2, "keyvalue": 0.3, "chatty": 0.8}[wording]
        if self.rng.random() < words:
            return f"aisle {code[0]}, bay {code[1:]}"
        w.stated.append(code)
        return code

    def sku(self, sku: str, w: _Written) -> str:
        w.stated.append(sku)
        return sku

    def manager(self, code: str) -> str:
        return str(self.state.sites[code]["manager"])

    @staticmethod
    def cap(text: str) -> str:
        return text[0].upper() + text[1:]

    # -- records ---------------------------------------------------------------------------------

    def records(self) -> list[Record]:
        rng = self.rng
        days = sorted(
            rng.sample(
                [FIRST_DAY + dt.timedelta(days=i) for i in range((LAST_DAY - FIRST_DAY).days + 1)],
                sum(KIND_COUNTS.values()),
            )
        )
        queue = [kind for kind, n in KIND_COUNTS.items() for _ in range(n)]
        rng.shuffle(queue)
        self.carriers = self._spread(list(CARRIER_LOG), KIND_COUNTS["transfer"])
        self.reasons = self._spread(["damaged", "expired", "found", "miscounted"], KIND_COUNTS["adjustment"])
        self.reorders = self._spread(["set", "copy", "clear"], KIND_COUNTS["reorder_level"])
        self.contacts = self._spread(["phone", "email"], KIND_COUNTS["contact_changed"])
        self.line_fixes = rng.sample(["set", "set", "add"], KIND_COUNTS["line_corrected"])
        self.shifts = rng.sample(["up", "down"], KIND_COUNTS["reorder_shift"])
        variant_of = {"reorder_level": self.reorders, "line_corrected": self.line_fixes, "reorder_shift": self.shifts}
        turns = Turns(rng)
        out = []
        for i, day in enumerate(days):
            wording = WORDINGS[i % len(WORDINGS)]
            self.site_words = rng.random() < {"log": 0.3, "keyvalue": 0.35, "chatty": 0.85}[wording]
            overdue = any(t.received is None and (day - t.shipped).days >= 2 for t in self.state.transfers)
            if overdue and "transfer_received" in queue and rng.random() < 0.6:
                queue.remove("transfer_received")
                queue.insert(0, "transfer_received")
            for at, kind in enumerate(queue):
                variant = variant_of[kind][-1] if variant_of.get(kind) else ""
                turn = TURNS.get((kind, variant))
                made = getattr(self, f"_{kind}")(day, turns.next(turn) if turn else wording)
                if made is not None:
                    del queue[at]
                    if turn:
                        wording = turns.take(turn)
                    break
            else:
                raise RuntimeError(f"no record fits {day}")
            facts, gold, written = made
            out.append(
                Record(
                    id=f"r{i + 1:02d}",
                    kind=kind,
                    wording=wording,
                    text=written.text,
                    facts={"kind": kind, "date": day.isoformat(), **facts},
                    gold=tuple(gold),
                    stated=tuple(dict.fromkeys(written.stated)),
                )
            )
        return out

    def _spread(self, values: list[str], n: int) -> list[str]:
        """`n` values, each of `values` at least once, in a random order."""
        out = [*values, *(self.rng.choice(values) for _ in range(n - len(values)))]
        self.rng.shuffle(out)
        return out

    def _transfer(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        source = rng.choice(FACTORIES) if rng.random() < 0.7 else rng.choice(STORES)
        target = rng.choice([c for c, *_ in SITES if c != source and (c in STORES or source in STORES)])
        ref_skus = [p[0] for p in PRODUCTS]
        movable = [k for k in ref_skus if s.stock[(source, k)] >= 16 and (target, k) not in s.protected]
        if len(movable) < 2 or any(t.shipped == day for t in s.transfers):
            return None
        lines: dict[str, int] = {}
        for sku in rng.sample(movable, rng.choice((2, 2, 3))):
            have = s.stock[(source, sku)]
            units = rng.randint(3, 12) if rng.random() < 0.3 else rng.randrange(10, max(10, min(60, have // 2)) + 1, 5)
            lines[sku] = min(units, have)
        carrier = self.carriers.pop()
        transfer = _Transfer(source, target, day, carrier, lines)
        for sku, units in lines.items():
            s.stock[(source, sku)] -= units
        s.transfers.append(transfer)
        gold = [
            "INSERT INTO transfers (from_site, to_site, shipped_on, carrier) "
            f"VALUES ('{source}', '{target}', {_d(day)}, '{carrier}')",
            *(
                f"INSERT INTO transfer_lines (transfer_id, sku, units) VALUES ({transfer.id_sql()}, '{sku}', {units})"
                for sku, units in lines.items()
            ),
        ]
        facts = {
            "from_site": source,
            "to_site": target,
            "shipped_on": day.isoformat(),
            "carrier": carrier,
            "lines": dict(lines),
        }
        w = _Written("")
        when = self.day(day)
        w.stated.append(when)
        src, dst = self.site(source, w, wording), self.site(target, w, wording)
        if wording == "log":
            items = ", ".join(f"{self.sku(k, w)} x{self.num(u, w, words=0)}" for k, u in lines.items())
            w.text = f"{when} transfer {src} > {dst}, {rng.choice(CARRIER_LOG[carrier])}: {items}"
        elif wording == "keyvalue":
            pairs: list[tuple[str, object]] = [("from", src), ("to", dst), ("shipped", when)]
            pairs.append(("carrier", rng.choice(CARRIER_KV[carrier])))
            pairs += [(self.sku(k, w), self.num(u, w, words=0)) for k, u in lines.items()]
            w.text = keyvalue("transfer", pairs)
        else:
            items = _and([f"{self.num(u, w)} of {self.sku(k, w)}" for k, u in lines.items()])
            clause = rng.choice(CARRIER_CLAUSE[carrier])
            w.text = rng.choice(
                (
                    f"We shipped {items} from {src} to {dst} on {when}; {clause}.",
                    f"On {when} {src} sent {items} over to {dst}, and {clause}.",
                    f"{self.manager(source)} sent {items} from {src} to {dst} on {when}; {clause}.",
                )
            )
        return facts, gold, w

    def _transfer_received(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        pending = sorted((t for t in s.transfers if t.received is None and t.shipped < day), key=lambda t: t.shipped)
        if not pending:
            return None
        transfer = pending[0] if rng.random() < 0.7 or len(pending) == 1 else rng.choice(pending[1:])
        transfer.received = day
        for sku, units in transfer.lines.items():
            s.stock[(transfer.target, sku)] += units
        gold = [f"UPDATE transfers SET received_on = {_d(day)} WHERE {transfer.where()}"]
        facts = {
            "from_site": transfer.source,
            "to_site": transfer.target,
            "shipped_on": transfer.shipped.isoformat(),
            "received_on": day.isoformat(),
        }
        w = _Written("")
        when, sent = self.day(day), self.day(transfer.shipped)
        w.stated += [when, sent]
        src, dst = self.site(transfer.source, w, wording), self.site(transfer.target, w, wording)
        if wording == "log":
            w.text = f"{when} in at {dst}: transfer from {src} shipped {sent}"
        elif wording == "keyvalue":
            w.text = keyvalue("transfer received", [("from", src), ("to", dst), ("shipped", sent), ("received", when)])
        else:
            w.text = rng.choice(
                (
                    f"The goods {src} shipped to {dst} on {sent} arrived on {when}.",
                    f"{self.manager(transfer.target)} confirmed the delivery from {src} sent on {sent} got to {dst} on {when}.",
                    f"The transfer from {src} to {dst} that left on {sent} was unloaded on {when}.",
                )
            )
        return facts, gold, w

    def _adjustment(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        reason = self.reasons[-1]
        up = reason == "found" or (reason == "miscounted" and rng.random() < 0.5)
        pairs = [k for k, v in s.stock.items() if k[1] in REF_SKUS and v >= 15 and k not in s.protected]
        site, sku = rng.choice(sorted(pairs))
        n = rng.randint(1, 12) if reason != "expired" else rng.randint(2, 14)
        change = n if up else -n
        self.reasons.pop()
        s.stock[(site, sku)] += change
        s.adjustments.append((site, sku, day, change, reason))
        gold = [
            "INSERT INTO adjustments (site_code, sku, counted_on, units_change, reason) "
            f"VALUES ('{site}', '{sku}', {_d(day)}, {change}, '{reason}')"
        ]
        facts = {"site_code": site, "sku": sku, "counted_on": day.isoformat(), "units_change": change, "reason": reason}
        w = _Written("")
        when = self.day(day)
        w.stated.append(when)
        where = self.site(site, w, wording)
        code = self.sku(sku, w)
        if wording == "log":
            w.text = f"{when} count {where} {code} {'+' if up else '-'}{self.num(n, w, words=0)} {rng.choice(REASON_LOG[reason])}"
        elif wording == "keyvalue":
            w.text = keyvalue(
                "stock adjustment",
                [
                    ("site", where),
                    ("product", code),
                    ("date", when),
                    ("change", f"{'+' if up else '-'}{self.num(n, w, words=0)}"),
                    ("reason", rng.choice(REASON_KV[reason])),
                ],
            )
        else:
            count = self.num(n, w)
            if reason in REASON_CLAUSE:
                w.text = f"During the stock count at {where} on {when}, {count} of {code} {rng.choice(REASON_CLAUSE[reason])}."
            elif reason == "found":
                w.text = rng.choice(
                    (
                        f"During the stock count at {where} on {when}, {count} extra {code} turned up that weren't on the books.",
                        f"We found {count} more {code} behind the racking at {where} when we counted on {when}.",
                    )
                )
            elif up:
                w.text = f"The count at {where} on {when} showed {count} more {code} than the books; someone miscounted earlier."
            else:
                w.text = f"The count at {where} on {when} came up {count} short on {code}; an earlier miscount, nothing was lost."
        return facts, gold, w

    def _production_receipt(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        site = rng.choice(FACTORIES)
        skus = [k for k in s.products if (site, k) in s.stock]
        sku = rng.choice(skus)
        units = rng.randrange(40, 301, 10)
        s.stock[(site, sku)] += units
        s.production.append((site, sku, day, units))
        gold = [_receipt_sql(site, sku, day, units)]
        facts = {"site_code": site, "sku": sku, "received_on": day.isoformat(), "units": units}
        w = _Written("")
        when = self.day(day)
        w.stated += [when, str(units)]
        where, code = self.site(site, w, wording), self.sku(sku, w)
        if wording == "log":
            w.text = f"{when} from production into {where}: {code} x{units}"
        elif wording == "keyvalue":
            w.text = keyvalue("from production", [("site", where), ("product", code), ("units", units), ("date", when)])
        else:
            w.text = rng.choice(
                (
                    f"Production delivered {units} of {code} into {where} on {when}.",
                    f"On {when} the line finished {units} of {code} and they went into stock at {where}.",
                    f"{self.manager(site)} booked in {units} of {code} from production at {where} on {when}.",
                )
            )
        return facts, gold, w

    def _new_product(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        sku, name, unit = self.new_products.pop()
        site = rng.choice(FACTORIES)
        units = rng.randrange(50, 201, 10)
        s.products[sku] = [name, unit]
        s.stock[(site, sku)] = units
        s.reorder[(site, sku)] = None
        s.production.append((site, sku, day, units))
        gold = [
            f"INSERT INTO products (sku, product_name, unit_of_measure) VALUES ('{sku}', {sql_text(name)}, '{unit}')",
            f"INSERT INTO stock_levels (site_code, sku) VALUES ('{site}', '{sku}')",
            _receipt_sql(site, sku, day, units),
        ]
        facts = {"sku": sku, "product_name": name, "unit_of_measure": unit, "site_code": site, "units": units}
        w = _Written("")
        when = self.day(day)
        w.stated += [when, sku, name, str(units)]
        where = self.site(site, w, wording)
        unit_word = rng.choice(UNIT_WORDS[unit])
        if wording == "log":
            w.text = (
                f"{when} new product {sku} {name}, counted in {unit_word}; first {units} from production into {where}"
            )
        elif wording == "keyvalue":
            w.text = keyvalue(
                "new product",
                [
                    ("code", sku),
                    ("name", name),
                    ("counted in", unit_word),
                    ("first batch", units),
                    ("into", where),
                    ("date", when),
                ],
            )
        else:
            w.text = rng.choice(
                (
                    f"We've started making {name} under the new code {sku}, counted in {unit_word}; "
                    f"the first {units} came off the line into {where} on {when}.",
                    f"New line from the factory: {name} ({sku}), kept in {unit_word}. "
                    f"The first batch of {units} went into {where} on {when}.",
                )
            )
        return facts, gold, w

    def _bin_assigned(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        empty = [k for k, v in s.bins.items() if v is None]
        choices = [k for k in s.bins if not (len(empty) <= 1 and k in empty)]
        site, code = rng.choice(sorted(choices))
        before = s.bins[(site, code)]
        sku = rng.choice(sorted(k for k in s.products if k != before))
        s.bins[(site, code)] = sku
        gold = [f"UPDATE bins SET sku = '{sku}' WHERE site_code = '{site}' AND bin_code = '{code}'"]
        facts = {"site_code": site, "bin_code": code, "sku": sku, "previous_sku": before}
        w = _Written("")
        when = self.day(day)
        where, place, product = self.site(site, w, wording), self.bin(code, w, wording), self.sku(sku, w)
        if wording == "log":
            w.stated.append(when)
            w.text = f"{when} {_bin_label(place, code)} at {where} now holds {product}"
        elif wording == "keyvalue":
            w.text = keyvalue("bin change", [("site", where), ("bin", place), ("product", product)])
        else:
            w.stated.append(when)
            was = f"instead of {before}" if before else "instead of standing empty"
            w.text = rng.choice(
                (
                    f"From {when}, {place} at {where} holds {product} {was}.",
                    f"{self.manager(site)} has given {place} at {where} over to {product} as of {when}.",
                )
            )
        return facts, gold, w

    def _bin_cleared(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        site, code = rng.choice(sorted(k for k, v in s.bins.items() if v is not None))
        before = s.bins[(site, code)]
        s.bins[(site, code)] = None
        gold = [f"UPDATE bins SET sku = NULL WHERE site_code = '{site}' AND bin_code = '{code}'"]
        facts = {"site_code": site, "bin_code": code, "sku": None, "previous_sku": before}
        w = _Written("")
        when = self.day(day)
        where, place = self.site(site, w, wording), self.bin(code, w, wording)
        if wording == "log":
            w.stated.append(when)
            w.text = f"{when} {_bin_label(place, code)} at {where} emptied, nothing assigned to it now"
        elif wording == "keyvalue":
            w.text = keyvalue("bin change", [("site", where), ("bin", place), ("product", "none")])
        else:
            w.stated.append(when)
            w.text = f"We cleared {before} out of {place} at {where} on {when}; that bin is free for now."
        return facts, gold, w

    def _carrier_changed(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        transfer = rng.choice([t for t in s.transfers if t.shipped < day])
        before = transfer.carrier
        carrier = rng.choice([c for c in CARRIER_LOG if c != before])
        transfer.carrier = carrier
        gold = [f"UPDATE transfers SET carrier = '{carrier}' WHERE {transfer.where()}"]
        facts = {
            "from_site": transfer.source,
            "to_site": transfer.target,
            "shipped_on": transfer.shipped.isoformat(),
            "carrier": carrier,
            "previous_carrier": before,
        }
        w = _Written("")
        sent = self.day(transfer.shipped)
        w.stated.append(sent)
        src, dst = self.site(transfer.source, w, wording), self.site(transfer.target, w, wording)
        if wording == "log":
            when = self.day(day)
            w.stated.append(when)
            w.text = (
                f"{when} correction: transfer {src} > {dst} of {sent} went {rng.choice(CARRIER_LOG[carrier])}, "
                f"not {rng.choice(CARRIER_LOG[before])}"
            )
        elif wording == "keyvalue":
            w.text = keyvalue(
                "transfer correction",
                [("from", src), ("to", dst), ("shipped", sent), ("carrier", rng.choice(CARRIER_KV[carrier]))],
            )
        else:
            w.text = (
                f"I had the carrier wrong on the transfer from {src} to {dst} shipped {sent}: "
                f"it went {rng.choice(CARRIER_BY[carrier])}, not {rng.choice(CARRIER_BY[before])}."
            )
        return facts, gold, w

    def _line_corrected(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        options = []
        for t in s.transfers:
            if t.shipped >= day:
                continue
            for sku, units in t.lines.items():
                for delta in (-5, -3, -2, 2, 3, 5):
                    new = units + delta
                    fits_out = delta <= s.stock[(t.source, sku)]
                    fits_in = t.received is None or -delta <= s.stock[(t.target, sku)]
                    if new > 0 and fits_out and fits_in and (t.target, sku) not in s.protected:
                        options.append((t, sku, new))
        if not options:
            return None
        transfer, sku, units = rng.choice(options)
        before = transfer.lines[sku]
        transfer.lines[sku] = units
        s.stock[(transfer.source, sku)] -= units - before
        if transfer.received is not None:
            s.stock[(transfer.target, sku)] += units - before
        if self.line_fixes.pop() == "add":
            return self._line_added(day, wording, transfer, sku, units - before)
        gold = [f"UPDATE transfer_lines SET units = {units} WHERE transfer_id = {transfer.id_sql()} AND sku = '{sku}'"]
        facts = {
            "from_site": transfer.source,
            "to_site": transfer.target,
            "shipped_on": transfer.shipped.isoformat(),
            "sku": sku,
            "units": units,
            "previous_units": before,
        }
        w = _Written("")
        sent = self.day(transfer.shipped)
        w.stated += [sent, sku, str(units)]
        src, dst = self.site(transfer.source, w, wording), self.site(transfer.target, w, wording)
        if wording == "log":
            when = self.day(day)
            w.stated.append(when)
            w.text = f"{when} correction: transfer {src} > {dst} of {sent}: {sku} was {units}, not {before}"
        elif wording == "keyvalue":
            w.text = keyvalue(
                "transfer correction",
                [("from", src), ("to", dst), ("shipped", sent), ("product", sku), ("units", units)],
            )
        else:
            w.text = f"The transfer from {src} to {dst} on {sent} actually had {units} of {sku} on it, not {before}."
        return facts, gold, w

    def _line_added(
        self, day: dt.date, wording: str, transfer: _Transfer, sku: str, delta: int
    ) -> tuple[dict, list[str], _Written]:
        """A transfer line corrected by a stated number of units: `units = units + n` or `- n`."""
        rng = self.rng
        sign = "+" if delta > 0 else "-"
        n = abs(delta)
        gold = [
            f"UPDATE transfer_lines SET units = units {sign} {n} WHERE transfer_id = {transfer.id_sql()} AND sku = '{sku}'"
        ]
        facts = {
            "from_site": transfer.source,
            "to_site": transfer.target,
            "shipped_on": transfer.shipped.isoformat(),
            "sku": sku,
            "units_change": delta,
            "units": transfer.lines[sku],
        }
        w = _Written("")
        sent = self.day(transfer.shipped)
        w.stated += [sent, sku]
        src, dst = self.site(transfer.source, w, wording), self.site(transfer.target, w, wording)
        count = self.num(n, w)
        more = "more" if delta > 0 else "fewer"
        if wording == "log":
            when = self.day(day)
            w.stated.append(when)
            w.text = f"{when} correction: transfer {src} > {dst} of {sent}: {sku} had {count} {more} than logged"
        elif wording == "keyvalue":
            w.text = keyvalue(
                "transfer correction",
                [("from", src), ("to", dst), ("shipped", sent), ("product", sku), (f"units {more}", count)],
            )
        else:
            w.text = rng.choice(
                (
                    f"The transfer from {src} to {dst} on {sent} had {count} {more} of {sku} on it than we logged.",
                    f"Correct the {sku} line on the {sent} transfer from {src} to {dst}: {count} {more} units went.",
                )
            )
        return facts, gold, w

    def _reorder_shift(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        """A reorder level raised or lowered by a stated number: `reorder_level = reorder_level + n` or `- n`."""
        rng, s = self.rng, self.state
        up = self.shifts[-1] == "up"
        n = rng.choice((5, 10, 15, 20))
        options = sorted(
            k
            for k, level in s.reorder.items()
            if level is not None and k not in s.protected and k[1] in REF_SKUS and (up or level > n)
        )
        if not options:
            return None
        self.shifts.pop()
        site, sku = rng.choice(options)
        before = s.reorder[(site, sku)] or 0
        s.reorder[(site, sku)] = before + (n if up else -n)
        gold = [
            f"UPDATE stock_levels SET reorder_level = reorder_level {'+' if up else '-'} {n} "
            f"WHERE site_code = '{site}' AND sku = '{sku}'"
        ]
        facts = {"site_code": site, "sku": sku, "change": n if up else -n, "reorder_level": s.reorder[(site, sku)]}
        w = _Written("")
        where, code = self.site(site, w, wording), self.sku(sku, w)
        count = self.num(n, w, words=0)
        if wording == "log":
            when = self.day(day)
            w.stated.append(when)
            w.text = f"{when} reorder level {where} {code}: {'up' if up else 'down'} by {count}"
        elif wording == "keyvalue":
            w.text = keyvalue(
                "reorder level", [("site", where), ("product", code), ("raise by" if up else "lower by", count)]
            )
        else:
            w.text = (
                f"{self.manager(site)} wants the reorder level for {code} at {where} "
                f"{'raised' if up else 'lowered'} by {count}."
            )
        return facts, gold, w

    def _bin_copied(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        """A bin given the product another bin holds: a value copied from another row."""
        rng, s = self.rng, self.state
        pairs = [
            (target, source)
            for target in sorted(s.bins)
            for source in sorted(s.bins)
            if source != target and s.bins[source] is not None and s.bins[source] != s.bins[target]
        ]
        if not pairs:
            return None
        (site, code), (other_site, other_code) = rng.choice(pairs)
        before = s.bins[(site, code)]
        sku = s.bins[(other_site, other_code)]
        s.bins[(site, code)] = sku
        gold = [
            f"UPDATE bins SET sku = (SELECT sku FROM bins WHERE site_code = '{other_site}' AND bin_code = '{other_code}') "
            f"WHERE site_code = '{site}' AND bin_code = '{code}'"
        ]
        facts = {"site_code": site, "bin_code": code, "same_as": [other_site, other_code], "sku": sku}
        w = _Written("")
        when = self.day(day)
        where, place = self.site(site, w, wording), self.bin(code, w, wording)
        there, other = self.site(other_site, w, wording), self.bin(other_code, w, wording)
        if wording == "log":
            w.stated.append(when)
            w.text = f"{when} {_bin_label(place, code)} at {where} now holds the same as {other} at {there}"
        elif wording == "keyvalue":
            w.text = keyvalue(
                "bin change", [("site", where), ("bin", place), ("product", f"same as {other} at {there}")]
            )
        else:
            w.stated.append(when)
            was = "instead of standing empty" if before is None else f"instead of {before}"
            w.text = f"From {when}, {place} at {where} holds whatever {other} at {there} holds, {was}."
        return facts, gold, w

    def _incident(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        """Something that happened at a site: a plain fact into a table that starts empty."""
        rng = self.rng
        site = rng.choice([c for c, *_ in SITES])
        category = rng.choice(sorted(INCIDENT_SAID))
        note = rng.choice(INCIDENT_NOTES[category])
        said = rng.choice(INCIDENT_SAID[category])
        gold = [
            "INSERT INTO incidents (site_code, happened_on, category, note) "
            f"VALUES ('{site}', {_d(day)}, '{category}', {sql_text(note)})"
        ]
        facts = {"site_code": site, "happened_on": day.isoformat(), "category": category, "note": note}
        w = _Written("")
        when = self.day(day)
        w.stated += [when, note]
        where = self.site(site, w, wording)
        if wording == "log":
            w.text = f"{when} incident at {where}: {said}, {note}"
        elif wording == "keyvalue":
            w.text = keyvalue("incident", [("site", where), ("date", when), ("type", said), ("what happened", note)])
        else:
            article = "an" if said[0] in "aeiou" else "a"
            w.text = f"We had {article} {said} at {where} on {when}: {note}."
        return facts, gold, w

    def _product_fixed(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        sku, fix_field, wrong, right = self.fixes.pop()
        w = _Written("")
        w.stated.append(sku)
        if fix_field == "name":
            s.products[sku][0] = right
            gold = [f"UPDATE products SET product_name = {sql_text(right)} WHERE sku = '{sku}'"]
            facts = {"sku": sku, "product_name": right, "previous_name": wrong}
            w.stated.append(right)
            if wording == "log":
                when = self.day(day)
                w.stated.append(when)
                w.text = f"{when} fix product {sku}: name should be {right}"
            elif wording == "keyvalue":
                w.text = keyvalue("product fix", [("product", sku), ("name", right)])
            else:
                w.text = f"{sku} has a typo in its name: it should read '{right}', not '{wrong}'."
        else:
            s.products[sku][1] = right
            gold = [f"UPDATE products SET unit_of_measure = '{right}' WHERE sku = '{sku}'"]
            facts = {"sku": sku, "unit_of_measure": right, "previous_unit": wrong}
            unit_word = rng.choice(UNIT_WORDS[right])
            if wording == "log":
                when = self.day(day)
                w.stated.append(when)
                w.text = f"{when} fix product {sku}: counted in {unit_word}, not single pieces"
            elif wording == "keyvalue":
                w.text = keyvalue("product fix", [("product", sku), ("counted in", unit_word)])
            else:
                name = s.products[sku][0]
                w.stated.append(name)
                w.text = (
                    f"{name} ({sku}) is counted in {unit_word}, not as single pieces; the product list has it wrong."
                )
        return facts, gold, w

    def _reorder_level(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        how = self.reorders.pop()
        free = sorted(k for k in s.reorder if k not in s.protected and k[1] in REF_SKUS)
        w = _Written("")
        if how == "copy":
            options = [
                (site, sku, other)
                for site, sku in free
                for other in (c for c, *_ in SITES)
                if other != site
                and s.reorder.get((other, sku)) is not None
                and s.reorder[(other, sku)] != s.reorder[(site, sku)]
            ]
            site, sku, other = rng.choice(options)
            s.reorder[(site, sku)] = s.reorder[(other, sku)]
            gold = [
                f"UPDATE stock_levels SET reorder_level = (SELECT reorder_level FROM stock_levels WHERE site_code = '{other}' "
                f"AND sku = '{sku}') WHERE site_code = '{site}' AND sku = '{sku}'"
            ]
            facts = {"site_code": site, "sku": sku, "same_as_site": other}
            where, code, there = self.site(site, w, wording), self.sku(sku, w), self.site(other, w, wording)
            if wording == "log":
                w.text = f"{self.day(day)} reorder level {where} {code}: same as {there}"
            elif wording == "keyvalue":
                w.text = keyvalue("reorder level", [("site", where), ("product", code), ("level", f"same as {there}")])
            else:
                w.text = f"{self.manager(site)} wants {where} to use the same reorder level for {code} as {there} has."
        elif how == "clear":
            site, sku = rng.choice([k for k in free if s.reorder[k] is not None])
            s.reorder[(site, sku)] = None
            gold = [f"UPDATE stock_levels SET reorder_level = NULL WHERE site_code = '{site}' AND sku = '{sku}'"]
            facts = {"site_code": site, "sku": sku, "reorder_level": None}
            where, code = self.site(site, w, wording), self.sku(sku, w)
            if wording == "log":
                w.text = f"{self.day(day)} reorder level {where} {code}: none"
            elif wording == "keyvalue":
                w.text = keyvalue("reorder level", [("site", where), ("product", code), ("level", "none")])
            else:
                w.text = self.cap(f"{where} no longer wants a reorder level on {code}; they'll top it up by hand.")
        else:
            site, sku = rng.choice(free)
            level = rng.choice([n for n in range(15, 81, 5) if n != s.reorder[(site, sku)]])
            s.reorder[(site, sku)] = level
            gold = [f"UPDATE stock_levels SET reorder_level = {level} WHERE site_code = '{site}' AND sku = '{sku}'"]
            facts = {"site_code": site, "sku": sku, "reorder_level": level}
            where, code = self.site(site, w, wording), self.sku(sku, w)
            w.stated.append(str(level))
            if wording == "log":
                w.text = f"{self.day(day)} reorder level {where} {code}: {level}"
            elif wording == "keyvalue":
                w.text = keyvalue("reorder level", [("site", where), ("product", code), ("level", level)])
            else:
                w.text = f"{self.manager(site)} asked for {code} at {where} to be flagged for reorder once it falls to {level}."
        return facts, gold, w

    def _contact_changed(self, day: dt.date, wording: str) -> tuple[dict, list[str], _Written] | None:
        rng, s = self.rng, self.state
        how = self.contacts.pop()
        site = rng.choice(sorted(s.sites))
        info = s.sites[site]
        manager = str(info["manager"])
        w = _Written("")
        w.stated.append(manager)
        if how == "phone":
            area = str(info["phone"]).split()[0]
            value = (
                f"{area} 496 {rng.randint(1000, 9999)}"
                if area.startswith("01")
                else f"07700 900{rng.randint(100, 999)}"
            )
            column, said = "manager_phone", rng.choice(("phone", "mobile"))
        else:
            first, last = manager.lower().split()
            value = f"{first[0]}.{last}@greenfold.example" if info["email"] else f"{first}.{last}@greenfold.example"
            column, said = "manager_email", "email"
        info["phone" if how == "phone" else "email"] = value
        w.stated.append(value)
        gold = [f"UPDATE sites SET {column} = {sql_text(value)} WHERE manager_name = {sql_text(manager)}"]
        facts = {"manager_name": manager, "site_code": site, column: value}
        if wording == "log":
            when = self.day(day)
            w.text = f"{when} {manager} ({self.site(site, w, wording)} manager): new {said} {value}"
        elif wording == "keyvalue":
            w.text = keyvalue("contact change", [("manager", manager), (said, value)])
        else:
            where = self.site(site, w, wording)
            w.text = rng.choice(
                (
                    f"{manager}, who runs {where}, has a new {said}: {value}.",
                    f"{manager} from {where} called: the new {said} number is {value}."
                    if how == "phone"
                    else f"{manager} from {where} has moved to a new email address, {value}.",
                )
            )
        return facts, gold, w

    # -- questions -------------------------------------------------------------------------------

    def questions(self) -> list[Question]:
        rng, s = self.rng, self.state
        site_words = {code: words for code, _, words, *_ in SITES}
        shipped = {}
        for t in s.transfers:
            for sku, units in t.lines.items():
                shipped[sku] = shipped.get(sku, 0) + units
        moved_sku = rng.choice(sorted(shipped))
        unit_sku = rng.choice([f[0] for f in FIXES if f[1] == "unit" and s.products[f[0]][1] != "each"] or ["SKU-1042"])
        full_bins = sorted(k for k, v in s.bins.items() if v is not None)
        bin_site, bin_code = rng.choice(full_bins)
        received = [t for t in s.transfers if t.received is not None and t.shipped >= FIRST_DAY]
        arrived = rng.choice(received)
        emailed = rng.choice(sorted(c for c, info in s.sites.items() if info["email"]))
        record_transfers = sorted(t.shipped for t in s.transfers if t.shipped >= FIRST_DAY)
        start = rng.choice(record_transfers[: len(record_transfers) // 2])
        end = start + dt.timedelta(days=rng.choice((9, 12, 14)))
        adjusted = sorted(a[2] for a in s.adjustments)
        a_start = rng.choice(adjusted)
        a_end = a_start + dt.timedelta(days=rng.choice((7, 10, 14)))
        produced = sorted({a[2].month for a in s.production if a[2] >= FIRST_DAY})
        month = rng.choice(produced)
        month_name = dt.date(2024, month, 1).strftime("%B")
        month_end = (dt.date(2024, month + 1, 1) - dt.timedelta(days=1)).isoformat()
        busy = [k for k, v in s.stock.items() if v > 0 and k[1] in REF_SKUS]
        stock_site, stock_sku = rng.choice(sorted(busy))
        total_site = rng.choice([c for c, *_ in SITES])
        most_sku = rng.choice(
            [k for k in REF_SKUS if _leader({c: s.stock[(c, k)] for c, *_ in SITES})] or list(REF_SKUS)
        )
        stock_by_sku: dict[str, int] = {}
        for (_, sku), units in s.stock.items():
            stock_by_sku[sku] = stock_by_sku.get(sku, 0) + units
        top_stock = _untied(stock_by_sku, (3, 2, 4))
        top_shipped = _untied(shipped, (2, 3, 4))
        since = next(
            (
                day
                for day in (FIRST_DAY, dt.date(2024, 4, 1), dt.date(2024, 2, 1))
                if _leader({str(t.shipped): sum(t.lines.values()) for t in s.transfers if t.shipped >= day})
            ),
            FIRST_DAY,
        )
        since_words = f"since {date_forms(since)[1]}"
        manager_site = rng.choice([c for c, *_ in SITES])
        factory = rng.choice(FACTORIES)
        pallet_site = rng.choice(sorted({t.target for t in s.transfers if t.carrier == "pallet_freight"}))

        def sum_lines(where: str) -> str:
            return f"SELECT sum(l.units) FROM transfer_lines l JOIN transfers t ON t.transfer_id = l.transfer_id WHERE {where}"

        items: list[tuple[str, str, str]] = [
            ("count", "How many transfers were shipped in March 2024?",
             "SELECT count(*) FROM transfers WHERE shipped_on BETWEEN DATE '2024-03-01' AND DATE '2024-03-31'"),
            ("count", "How many transfers are still in transit, shipped but not yet received?",
             "SELECT count(*) FROM transfers WHERE received_on IS NULL"),
            ("count", f"How many of the bins at {site_words[bin_site]} have a product assigned?",
             f"SELECT count(*) FROM bins WHERE site_code = '{bin_site}' AND sku IS NOT NULL"),
            ("count", "How many different products do we have on the product list?", "SELECT count(*) FROM products"),
            ("sum", f"How many units of {moved_sku} have been shipped between sites in total?",
             sum_lines(f"l.sku = '{moved_sku}'")),
            ("sum", f"How many units has production delivered into {site_words[factory]} altogether?",
             f"SELECT sum(units) FROM production_receipts WHERE site_code = '{factory}'"),
            ("sum", "How many units have been written off as damaged?",
             "SELECT -sum(units_change) FROM adjustments WHERE reason = 'damaged'"),
            ("lookup", f"Who manages {site_words[manager_site]}, and what is their phone number?",
             f"SELECT manager_name, manager_phone FROM sites WHERE site_code = '{manager_site}'"),
            ("lookup", f"What unit of measure is {unit_sku} counted in?",
             f"SELECT unit_of_measure FROM products WHERE sku = '{unit_sku}'"),
            ("lookup", f"Which product is in bin {bin_code} at {site_words[bin_site]}?",
             "SELECT b.sku, p.product_name FROM bins b JOIN products p ON p.sku = b.sku "
             f"WHERE b.site_code = '{bin_site}' AND b.bin_code = '{bin_code}'"),
            ("lookup",
             f"When did the transfer from {site_words[arrived.source]} to {site_words[arrived.target]} "
             f"shipped on {date_forms(arrived.shipped)[1]} arrive?",
             f"SELECT received_on FROM transfers WHERE {arrived.where()}"),
            ("lookup", f"What is {s.sites[emailed]['manager']}'s email address?",
             f"SELECT manager_email FROM sites WHERE manager_name = {sql_text(str(s.sites[emailed]['manager']))}"),
            ("grouped", "How many transfers went with each carrier?",
             "SELECT carrier, count(*) AS transfers FROM transfers GROUP BY carrier ORDER BY carrier"),
            ("grouped", "How many stock adjustments were made for each reason?",
             "SELECT reason, count(*) AS adjustments FROM adjustments GROUP BY reason ORDER BY reason"),
            ("grouped", "How many transfers has each site sent out?",
             "SELECT from_site, count(*) AS transfers FROM transfers GROUP BY from_site ORDER BY from_site"),
            ("grouped", "How many units in total is each site holding right now?",
             "SELECT site_code, sum(on_hand) AS units FROM stock_levels GROUP BY site_code ORDER BY site_code"),
            ("grouped", "How many products are counted in each unit of measure?",
             "SELECT unit_of_measure, count(*) AS products FROM products GROUP BY unit_of_measure ORDER BY unit_of_measure"),
            ("top", f"Which {in_words(top_stock)} products have the most stock across all sites, and how much of each?",
             f"SELECT sku, sum(on_hand) AS units FROM stock_levels GROUP BY sku ORDER BY units DESC, sku LIMIT {top_stock}"),
            ("top", f"Which {in_words(top_shipped)} products have been moved between sites in the largest quantities?",
             "SELECT l.sku, sum(l.units) AS units FROM transfer_lines l GROUP BY l.sku "
             f"ORDER BY units DESC, l.sku LIMIT {top_shipped}"),
            ("top", f"Which transfer shipped {since_words} carried the most units, and how many?",
             "SELECT t.from_site, t.to_site, t.shipped_on, sum(l.units) AS units FROM transfers t "
             f"JOIN transfer_lines l ON l.transfer_id = t.transfer_id WHERE t.shipped_on >= {_d(since)} "
             "GROUP BY t.from_site, t.to_site, t.shipped_on ORDER BY units DESC, t.shipped_on LIMIT 1"),
            ("top", "Which site has taken in the most units from transfers it has received?",
             "SELECT t.to_site, sum(l.units) AS units FROM transfers t JOIN transfer_lines l ON l.transfer_id = t.transfer_id "
             "WHERE t.received_on IS NOT NULL GROUP BY t.to_site ORDER BY units DESC, t.to_site LIMIT 1"),
            ("range",
             f"Which transfers were shipped between {date_forms(start)[1]} and {date_forms(end)[1]}? Give the route and date.",
             f"SELECT from_site, to_site, shipped_on FROM transfers WHERE shipped_on BETWEEN {_d(start)} AND {_d(end)} "
             "ORDER BY shipped_on"),
            ("range", f"List the stock adjustments made from {date_forms(a_start)[2]} to {date_forms(a_end)[2]}.",
             "SELECT site_code, sku, counted_on, units_change, reason FROM adjustments "
             f"WHERE counted_on BETWEEN {_d(a_start)} AND {_d(a_end)} ORDER BY counted_on"),
            ("range", f"Which production receipts were booked in during {month_name} 2024?",
             "SELECT site_code, sku, received_on, units FROM production_receipts "
             f"WHERE received_on BETWEEN DATE '2024-{month:02d}-01' AND DATE '{month_end}' ORDER BY received_on"),
            ("derived", f"How many units of {stock_sku} are on hand at {site_words[stock_site]} right now?",
             f"SELECT on_hand FROM stock_levels WHERE site_code = '{stock_site}' AND sku = '{stock_sku}'"),
            ("derived", f"What is the total stock on hand at {site_words[total_site]}?",
             f"SELECT sum(on_hand) FROM stock_levels WHERE site_code = '{total_site}'"),
            ("derived", "Which stock levels are below their reorder level?",
             "SELECT site_code, sku, on_hand, reorder_level FROM stock_levels WHERE on_hand < reorder_level "
             "ORDER BY site_code, sku"),
            ("derived", f"Which site holds the most {most_sku}?",
             f"SELECT site_code, on_hand FROM stock_levels WHERE sku = '{most_sku}' ORDER BY on_hand DESC, site_code LIMIT 1"),
            ("none", "Which products have never been transferred between sites?",
             "SELECT sku FROM products EXCEPT SELECT sku FROM transfer_lines ORDER BY sku"),
            ("none", "Which bins have no product assigned?",
             "SELECT site_code, bin_code FROM bins WHERE sku IS NULL ORDER BY site_code, bin_code"),
            ("none", "Which sites have never received goods from production?",
             "SELECT site_code FROM sites WHERE site_code NOT IN (SELECT site_code FROM production_receipts) ORDER BY site_code"),
            ("none", "Which products have never had a stock adjustment anywhere?",
             "SELECT p.sku FROM products p WHERE NOT EXISTS (SELECT 1 FROM adjustments a WHERE a.sku = p.sku) ORDER BY p.sku"),
            ("average", "What is the average number of units on a transfer line?",
             "SELECT avg(units) FROM transfer_lines"),
            ("average", "On average, how many days does a transfer take from shipping to arriving?",
             "SELECT avg(date_diff('day', shipped_on, received_on)) FROM transfers WHERE received_on IS NOT NULL"),
            ("average", f"What is the average size of a production receipt at {site_words[factory]}?",
             f"SELECT avg(units) FROM production_receipts WHERE site_code = '{factory}'"),
            ("category", "How many transfers went in our own vans?",
             "SELECT count(*) FROM transfers WHERE carrier = 'own_van'"),
            ("category", "How many units have been thrown away for being past their use-by date?",
             "SELECT -sum(units_change) FROM adjustments WHERE reason = 'expired'"),
            ("category", "Which products turned up unexpectedly in stock counts, and where, and how many?",
             "SELECT site_code, sku, units_change FROM adjustments WHERE reason = 'found' ORDER BY site_code, sku"),
            ("category", "Which products are kept in sacks?",
             "SELECT sku, product_name FROM products WHERE unit_of_measure = 'bag' ORDER BY sku"),
            ("category", f"Which transfers into {site_words[pallet_site]} went on the pallet network, and when?",
             "SELECT from_site, shipped_on FROM transfers WHERE carrier = 'pallet_freight' "
             f"AND to_site = '{pallet_site}' ORDER BY shipped_on"),
        ]  # fmt: skip
        return [
            Question(id=f"q{i + 1:02d}", text=text, gold=gold, family=family)
            for i, (family, text, gold) in enumerate(items)
        ]


def _untied(totals: dict[str, int], sizes: tuple[int, ...]) -> int:
    """The first top-N size whose N-th and next figures differ, so the question has one answer."""
    values = sorted(totals.values(), reverse=True)
    return next((n for n in sizes if n < len(values) and values[n - 1] > values[n]), sizes[0])


def _leader(totals: dict[str, int]) -> bool:
    """Whether the largest figure is held by one key alone."""
    values = sorted(totals.values())
    return values[-1] > values[-2]


def _bin_label(place: str, code: str) -> str:
    return f"bin {place}" if place == code else place


def _receipt_sql(site: str, sku: str, day: dt.date, units: int) -> str:
    return (
        "INSERT INTO production_receipts (site_code, sku, received_on, units) "
        f"VALUES ('{site}', '{sku}', {_d(day)}, {units})"
    )


def _lit(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return sql_text(value)
    return str(value)


def build(seed: int = 0) -> Trade:
    """The warehouse trade generated from `seed`."""
    generator = _Generator(seed)
    records = generator.records()
    questions = generator.questions()
    return Trade(
        name="warehouse",
        description="A maker of garden goods moving its own stock between five sites: transfers, production receipts, counts.",
        schema=SCHEMA,
        reference=generator.reference,
        rules=(STOCK_RULE,),
        records=tuple(records),
        questions=tuple(questions),
        snapshot=dict(SNAPSHOT),
        checks=dict(CHECKS),
    )
