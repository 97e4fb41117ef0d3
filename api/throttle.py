"""Calls per token in a fixed window, counted atomically in Django's database.

The counter sits on the token's own row (`ApiToken.window_start`, `window_calls`) and one
conditional UPDATE counts a call: "if the row's window is another one, start this one at 1; else
add 1 while under the limit". The database applies it to the row under its write lock, so workers
and machines calling at the same instant cannot both take the last call, and nothing is read first
(a read-then-write counter, like a get and a set in the cache, lets each of two workers see the
same count). No row is ever created: the token's row exists, and it carries its counter away when
deleted. One indexed UPDATE a call; the window's end is the `Retry-After` of a refused call.

Django's cache was not used: its default here is the database cache, whose `incr` is a get and a
set (not atomic); the row counts the same on SQLite, PostgreSQL or anything Django supports."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import Case, F, Q, Value, When

from api.models import ApiToken

PERIODS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}


@dataclass(frozen=True, slots=True)
class Rate:
    calls: int
    seconds: int


def parse_rate(text: str) -> Rate:
    """`"120/min"`, `"10/5s"`, `"1000/day"`: calls a window and the window's length (ValueError
    for anything else)."""
    count, _, period = text.strip().partition("/")
    number = period.lstrip("0123456789")
    multiple = period[: len(period) - len(number)]
    if not count.isdigit() or number not in PERIODS:
        raise ValueError(f"Invalid rate {text!r}: calls/period, e.g. 120/min")
    return Rate(int(count), (int(multiple) if multiple else 1) * PERIODS[number])


def take_call(token_id: int, rate: Rate, now: float) -> float | None:
    """Count one call of the token at `now` (epoch seconds). None if it is allowed, else the
    seconds until its window ends (when a call is allowed again)."""
    window = math.floor(now / rate.seconds) * rate.seconds
    wait = max(1.0, window + rate.seconds - now)
    if rate.calls <= 0:
        return wait
    # Every SET expression reads the row as it was (SQL), window_calls first for good measure.
    counted = (
        ApiToken.objects.filter(pk=token_id)
        .filter(~Q(window_start=window) | Q(window_calls__lt=rate.calls))
        .update(
            window_calls=Case(When(window_start=window, then=F("window_calls") + 1), default=Value(1)),
            window_start=window,
        )
    )
    return None if counted else wait
