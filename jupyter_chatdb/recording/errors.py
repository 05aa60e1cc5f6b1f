"""The one error of the reading of writes."""


class NotExpressible(Exception):
    """The extracted rows cannot be written by code: plan the request instead."""
