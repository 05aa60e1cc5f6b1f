"""Server addresses as they may be shown: never with the user name or password (a key) they may hold."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def redact(url: str | None) -> str | None:
    """`url` without its credentials, for messages, reprs and logs.

    >>> redact("http://user:sk-secret@host:8080/v1")
    'http://***@host:8080/v1'
    >>> redact("http://127.0.0.1:11434/v1"), redact(None)
    ('http://127.0.0.1:11434/v1', None)
    """
    if not url:
        return url
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return "(an address that does not parse)"
    if parts.username is None and parts.password is None:
        return url
    netloc = f"***@{host or ''}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
