"""The range of dates the portal accepts for as-of and due dates (forms, commands, services).

A fund document dated in year 1 or 9999 is a typing error, not data: it would sort before or
after everything, land in a month shard no list ever shows, and survive every restatement.
"""

from __future__ import annotations

from datetime import date

EARLIEST = date(1900, 1, 1)
LATEST = date(2100, 12, 31)


def in_range(value: date) -> bool:
    return EARLIEST <= value <= LATEST


def range_message(what: str = "date") -> str:
    return f"The {what} must be between {EARLIEST.isoformat()} and {LATEST.isoformat()}."
