"""The time budget of the current request for DynamoDB calls.

A page makes several calls, each with botocore's own per-attempt timeouts and retries; without
an overall budget a slow DynamoDB keeps the worker busy until gunicorn kills it (a bare 500
after 30 s). `DynamoDBMiddleware` opens a budget (`DYNAMODB_REQUEST_BUDGET` seconds, below
gunicorn's `--timeout`) for each request; `gateway.call` asks `remaining()` before each call,
refuses a call when the budget is spent (StoreUnavailable → the 503 page) and lets no call run
longer than what is left (`client_limits`). Commands and tests outside a request have no budget.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import StoreUnavailable

# The clock the budget is measured with (tests replace it to simulate a slow store).
clock = time.monotonic

_deadline: ContextVar[float | None] = ContextVar("dynamodb_request_deadline", default=None)


@contextmanager
def limit(seconds: float | None) -> Iterator[None]:
    """Calls inside the block may take `seconds` in all (None or 0: no budget)."""
    token = _deadline.set(clock() + seconds if seconds else None)
    try:
        yield
    finally:
        _deadline.reset(token)


def remaining() -> float | None:
    """Seconds left for DynamoDB in this request (None outside a budget)."""
    deadline = _deadline.get()
    return None if deadline is None else deadline - clock()


def check(operation: str) -> float | None:
    """Raise StoreUnavailable when the budget is spent; else the seconds left (or None)."""
    left = remaining()
    if left is not None and left <= 0:
        raise StoreUnavailable(f"the page took too long (DynamoDB budget spent before {operation})")
    return left


def client_limits(
    left: float | None, connect_timeout: float, read_timeout: float, max_attempts: int
) -> tuple[float, float, int]:
    """(connect timeout, read timeout, attempts) such that one call, retries and botocore's
    backoff between them included, ends within `left` seconds: fewer attempts first, then
    shorter timeouts (whole seconds, at least 1, so only a few client variants ever exist)."""
    if left is None:
        return connect_timeout, read_timeout, max_attempts
    per_attempt = connect_timeout + read_timeout
    for attempts in range(max_attempts, 0, -1):
        # botocore "standard" mode sleeps up to 1, 2, 4... s before each retry.
        if attempts * per_attempt + (2 ** (attempts - 1) - 1) <= left:
            return connect_timeout, read_timeout, attempts
    connect = min(connect_timeout, max(1, math.floor(left / 2)))
    read = max(1, min(read_timeout, math.floor(left - connect)))
    return connect, read, 1
