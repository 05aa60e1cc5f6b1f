"""The stages of a request: each `stage(ctx) -> Iterator[Event]` reads what earlier stages put in the
context and adds its own part. A strategy (`controller/strategies.py`) is a tuple of them."""
