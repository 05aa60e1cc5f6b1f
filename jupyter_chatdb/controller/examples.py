"""Worked examples for the planner, chosen per request by word overlap.

All examples use one small bookshop schema (shown once in the instructions), so the model sees the
patterns it needs (find or add a person, header row RETURNING its id, lines priced from the current
price, stock kept up to date, cancellations, history as of a date) on tables that are not the user's.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass

EXAMPLE_TABLES = """\
CREATE TABLE books (book_id INTEGER PRIMARY KEY DEFAULT nextval('book_seq'), title VARCHAR UNIQUE, price DECIMAL(10,2), stock INTEGER DEFAULT 0);
CREATE TABLE clients (client_id INTEGER PRIMARY KEY DEFAULT nextval('client_seq'), name VARCHAR, email VARCHAR);
CREATE TABLE orders (order_id INTEGER PRIMARY KEY DEFAULT nextval('order_seq'), client_id INTEGER REFERENCES clients (client_id), order_date DATE, cancelled_on DATE);
CREATE TABLE order_lines (order_id INTEGER REFERENCES orders (order_id), book_id INTEGER REFERENCES books (book_id), qty INTEGER, unit_price DECIMAL(10,2));
CREATE TABLE publishers (publisher_id INTEGER PRIMARY KEY DEFAULT nextval('publisher_seq'), name VARCHAR UNIQUE, phone VARCHAR);
CREATE TABLE deliveries (delivery_id INTEGER PRIMARY KEY DEFAULT nextval('delivery_seq'), publisher_id INTEGER REFERENCES publishers (publisher_id), delivery_date DATE);
CREATE TABLE delivery_lines (delivery_id INTEGER REFERENCES deliveries (delivery_id), book_id INTEGER REFERENCES books (book_id), qty INTEGER, unit_cost DECIMAL(10,2));
CREATE TABLE price_history (change_id INTEGER PRIMARY KEY DEFAULT nextval('change_seq'), book_id INTEGER REFERENCES books (book_id), change_date DATE, new_price DECIMAL(10,2));"""


@dataclass(frozen=True)
class Example:
    request: str
    steps: tuple[tuple[str, str, tuple[str, ...]], ...]  # (goal, sql, binds)
    writes: bool

    def text(self) -> str:
        steps = [{"goal": g, "sql": s, "binds": list(b)} for g, s, b in self.steps]
        return f"Request: {self.request}\n" + json.dumps({"steps": steps})


LIBRARY: tuple[Example, ...] = (
    Example(
        "2024-03-01: client Ann Lee (ann@example.com) purchased 2 copies of Dune at the current price.",
        (
            (
                "add the client if new",
                "INSERT INTO clients (name, email) SELECT 'Ann Lee', 'ann@example.com' WHERE NOT EXISTS (SELECT 1 FROM clients WHERE name = 'Ann Lee')",
                (),
            ),
            ("find the client", "SELECT client_id FROM clients WHERE name = 'Ann Lee'", ("client_id",)),
            (
                "record the order",
                "INSERT INTO orders (client_id, order_date) VALUES (<client_id>, DATE '2024-03-01') RETURNING order_id",
                ("order_id",),
            ),
            (
                "record the line at the current price",
                "INSERT INTO order_lines (order_id, book_id, qty, unit_price) SELECT <order_id>, book_id, 2, price FROM books WHERE title = 'Dune'",
                (),
            ),
            ("take the copies out of stock", "UPDATE books SET stock = stock - 2 WHERE title = 'Dune'", ()),
        ),
        True,
    ),
    Example(
        "Delivery on 2024-03-02 from publisher Orbit (phone 5551): 10 copies of Dune at 6.50 each, to sell at 12.00; 4 copies of Emma at 3.00 each, to sell at 7.50.",
        (
            (
                "add the publisher if new",
                "INSERT INTO publishers (name, phone) VALUES ('Orbit', '5551') ON CONFLICT DO NOTHING",
                (),
            ),
            ("find the publisher", "SELECT publisher_id FROM publishers WHERE name = 'Orbit'", ("publisher_id",)),
            (
                "record the delivery",
                "INSERT INTO deliveries (publisher_id, delivery_date) VALUES (<publisher_id>, DATE '2024-03-02') RETURNING delivery_id",
                ("delivery_id",),
            ),
            (
                "add the books if new",
                "INSERT INTO books (title, price, stock) VALUES ('Dune', 12.00, 0), ('Emma', 7.50, 0) ON CONFLICT DO NOTHING",
                (),
            ),
            (
                "record the Dune line",
                "INSERT INTO delivery_lines (delivery_id, book_id, qty, unit_cost) SELECT <delivery_id>, book_id, 10, 6.50 FROM books WHERE title = 'Dune'",
                (),
            ),
            (
                "add Dune to stock at its new price",
                "UPDATE books SET stock = stock + 10, price = 12.00 WHERE title = 'Dune'",
                (),
            ),
            (
                "record the Emma line",
                "INSERT INTO delivery_lines (delivery_id, book_id, qty, unit_cost) SELECT <delivery_id>, book_id, 4, 3.00 FROM books WHERE title = 'Emma'",
                (),
            ),
            (
                "add Emma to stock at its new price",
                "UPDATE books SET stock = stock + 4, price = 7.50 WHERE title = 'Emma'",
                (),
            ),
        ),
        True,
    ),
    Example(
        "Ann Lee cancelled her order of 2024-03-01 on 2024-03-04; the books come back.",
        (
            (
                "find the order",
                "SELECT o.order_id FROM orders AS o JOIN clients AS c ON o.client_id = c.client_id WHERE c.name = 'Ann Lee' AND o.order_date = DATE '2024-03-01' AND o.cancelled_on IS NULL",
                ("order_id",),
            ),
            ("mark it cancelled", "UPDATE orders SET cancelled_on = DATE '2024-03-04' WHERE order_id = <order_id>", ()),
            (
                "put the books back in stock",
                "UPDATE books SET stock = stock + l.qty FROM order_lines AS l WHERE l.book_id = books.book_id AND l.order_id = <order_id>",
                (),
            ),
        ),
        True,
    ),
    Example(
        "From 2024-03-05 Emma sells at 8.00.",
        (
            ("set the current price", "UPDATE books SET price = 8.00 WHERE title = 'Emma'", ()),
            (
                "keep the price history",
                "INSERT INTO price_history (book_id, change_date, new_price) SELECT book_id, DATE '2024-03-05', 8.00 FROM books WHERE title = 'Emma'",
                (),
            ),
        ),
        True,
    ),
    Example(
        "Which client spent the most (cancelled orders excluded)?",
        (
            (
                "total per client, highest first",
                "SELECT c.name, sum(l.qty * l.unit_price) AS spent FROM order_lines AS l JOIN orders AS o ON l.order_id = o.order_id JOIN clients AS c ON o.client_id = c.client_id WHERE o.cancelled_on IS NULL GROUP BY c.name ORDER BY spent DESC LIMIT 1",
                (),
            ),
        ),
        False,
    ),
    Example(
        "On which day were the most copies sold, not counting cancelled orders?",
        (
            (
                "copies per day, highest first",
                "SELECT o.order_date, sum(l.qty) AS copies FROM order_lines AS l JOIN orders AS o ON l.order_id = o.order_id WHERE o.cancelled_on IS NULL GROUP BY o.order_date ORDER BY copies DESC LIMIT 1",
                (),
            ),
        ),
        False,
    ),
    Example(
        "What was the price of Dune at the end of 2024-03-03?",
        (
            (
                "the last price set on or before that day",
                "SELECT new_price FROM (SELECT ph.new_price, ph.change_date, ph.change_id FROM price_history AS ph JOIN books AS b ON ph.book_id = b.book_id WHERE b.title = 'Dune' AND ph.change_date <= DATE '2024-03-03' UNION ALL SELECT d.price, d.delivery_date, 0 FROM (SELECT dl.unit_cost AS price, dv.delivery_date FROM delivery_lines AS dl JOIN deliveries AS dv ON dl.delivery_id = dv.delivery_id JOIN books AS b ON dl.book_id = b.book_id WHERE b.title = 'Dune' AND dv.delivery_date <= DATE '2024-03-03') AS d) ORDER BY change_date DESC, change_id DESC LIMIT 1",
                (),
            ),
        ),
        False,
    ),
    Example(
        "How many different clients bought Emma, and how many copies per order on average?",
        (
            (
                "distinct buyers of Emma",
                "SELECT count(DISTINCT o.client_id) AS clients FROM orders AS o JOIN order_lines AS l ON l.order_id = o.order_id JOIN books AS b ON l.book_id = b.book_id WHERE b.title = 'Emma' AND o.cancelled_on IS NULL",
                (),
            ),
            (
                "average copies per order",
                "SELECT avg(copies) AS avg_copies FROM (SELECT o.order_id, sum(l.qty) AS copies FROM orders AS o JOIN order_lines AS l ON l.order_id = o.order_id WHERE o.cancelled_on IS NULL GROUP BY o.order_id)",
                (),
            ),
        ),
        False,
    ),
    Example(
        "How many copies of Dune are in stock?",
        (("read the stock", "SELECT stock FROM books WHERE title = 'Dune'", ()),),
        False,
    ),
)

STOP_WORDS = frozenset(
    "a an and are at by for from how in is it of on or the to was were what which who with we our".split()
)


def words(text: str) -> list[str]:
    """
    >>> words("Sold 2 copies of Dune to Ann!")
    ['sold', 'copies', 'dune', 'ann']
    """
    return [w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP_WORDS and len(w) > 2]


def choose(
    request: str, k: int, *, writes: bool | None = None, library: tuple[Example, ...] = LIBRARY
) -> list[Example]:
    """The `k` examples whose requests share the most (rare) words with `request`, in library order.

    `writes` keeps only writing (True) or only reading (False) examples. Library order keeps the
    prompt prefix the same for requests that choose the same examples, so the model's cache serves it.

    >>> [e.request[:12] for e in choose("Ann returned her order of 2024-03-01", 1)]
    ['Ann Lee canc']
    """
    pool = [e for e in library if writes is None or e.writes == writes] or list(library)
    frequency = Counter(w for e in library for w in set(words(e.request)))
    wanted = set(words(request))

    def score(example: Example) -> float:
        shared = wanted & set(words(example.request))
        return sum(1 / math.log(2 + frequency[w]) for w in shared)

    chosen = set(map(id, sorted(pool, key=score, reverse=True)[:k]))
    return [e for e in pool if id(e) in chosen]
