"""The errors of the reading of writes."""


class NotExpressible(Exception):
    """The extracted rows cannot be written by code: plan the request instead."""


class WithoutItsRows(NotExpressible):
    """A header row (one other rows belong to) read with only the values that name it, nothing to set on a
    kept row and none of the rows that belong to it: a new record whose lines the reading left out."""

    def __init__(self, table: str) -> None:
        super().__init__(f"a {table} row without rows of its own, and not a change this can write")
        self.table = table


class Refused(NotExpressible):
    """The database refuses the statement a change was read as (a value its CHECK does not allow, a type it
    cannot hold), tried and rolled back before anything runs: the reading is not one to write."""
