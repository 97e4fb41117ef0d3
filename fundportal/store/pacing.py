"""Per-partition pacing of bulk writes: an adaptive token bucket per partition key.

Amazon DynamoDB serves one partition at most 1,000 write units a second; past that it throttles
the writes to that partition (a BatchWriteItem hands them back as unprocessed items) and an index
partition past it pushes back on the table's transactions. botocore's `adaptive` retry mode
(`client.paced`) paces a whole client once it is throttled; this paces each partition key on its
own, so one hot key (an imported document's partition, a fund's index key) slows only the writes
that go to it.

Adaptive, not a fixed cap: a key is written at full speed until DynamoDB throttles it. Then its
bucket starts at `DECREASE` of `ceiling` (the per-partition limit) and gains `INCREASE` of the
ceiling every second without throttling, back up to the ceiling; each further throttle cuts it
again (AIMD, as TCP and botocore's own adaptive mode do). Until a key is throttled the pacer
costs a request one attribute test (`engaged`): the units of a request are only counted once
some key is paced. A fixed cap below the limit would cost every import the same wait on a table
that could take more (DynamoDB Local has no limits; AWS splits a hot key range over partitions),
and a cap at the limit is what DynamoDB enforces anyway.

`pacing(pacer)` installs a pacer for the requests made inside the block (threads started with a
copy of the context included); `TableGateway.batch_write` and `transact` ask `current()` before
each request and report what DynamoDB throttled (a batch's unprocessed items; a transaction's
actions cancelled for throttling, which the unit of work then retries). Without a pacer (the
default) nothing changes.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .partition_touches import WRITE, touches

PARTITION_WCU_PER_S = 1000.0  # AWS's per-partition write limit
WRITE_UNIT_BYTES = 1024
DECREASE = 0.7  # a throttled key's rate is cut to this share of the rate it was written at
INCREASE = 0.05  # and gains this share of the ceiling per second without throttling
FLOOR = 0.05  # never below this share of the ceiling
# A transaction's cancellation reasons that mean a partition (or its index) was over its limit.
THROTTLING_REASONS = frozenset({"ThrottlingError", "ProvisionedThroughputExceeded"})

Partition = tuple[str | None, str]  # (index name or None for the table, partition key value)


def write_units(size: int) -> float:
    """WCU of an ordinary write of `size` bytes: per 1 KB rounded up, at least 1 (the load
    model's rule, `bench/load_model.write_units`)."""
    return float(max(1, math.ceil(size / WRITE_UNIT_BYTES)))


def batch_units(table: str, requests: list[dict[str, Any]]) -> dict[Partition, float]:
    """Write units a BatchWriteItem's `requests` put on each partition, table and indexes."""
    units: dict[Partition, float] = {}
    for touch in touches("BatchWriteItem", {"RequestItems": {table: requests}}, {}):
        if touch.kind == WRITE:
            where = (touch.index, touch.key)
            units[where] = units.get(where, 0.0) + write_units(touch.bytes)
    return units


def transaction_units(actions: list[dict[str, Any]]) -> dict[Partition, float]:
    """Write units a TransactWriteItems' `actions` put on each partition, table and indexes
    (ordinary writes: the pacer guards the partitions' limit, not the transaction's price)."""
    units: dict[Partition, float] = {}
    for touch in touches("TransactWriteItems", {"TransactItems": actions}, {}):
        if touch.kind == WRITE:
            where = (touch.index, touch.key)
            units[where] = units.get(where, 0.0) + write_units(touch.bytes)
    return units


class Bucket:
    """A token bucket: `rate` units a second, holding at most one second of them."""

    def __init__(self, rate: float, now: float) -> None:
        self.rate, self.tokens, self.at = rate, rate, now
        self.grown = now  # when the rate last grew (or was cut)

    def refill(self, now: float) -> None:
        self.tokens = min(self.rate, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def wait(self, units: float, now: float) -> float:
        """Take `units` (a debt when short: the next taker waits it off); seconds to wait first."""
        self.refill(now)
        self.tokens -= units
        return max(0.0, -self.tokens / self.rate)


class PartitionPacer:
    """Adaptive per-partition token buckets (the module's docstring). Thread-safe."""

    def __init__(
        self,
        ceiling: float = PARTITION_WCU_PER_S,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if ceiling <= 0:
            raise ValueError("a partition's write ceiling must be positive")
        self.ceiling, self.clock, self.sleep = ceiling, clock, sleep
        self.buckets: dict[Partition, Bucket] = {}
        self.lock = threading.Lock()

    @property
    def engaged(self) -> bool:
        """Some partition is paced (else `before` has nothing to do)."""
        return bool(self.buckets)

    def before(self, units: Mapping[Partition, float]) -> float:
        """Take `units` from the buckets of the throttled partitions among them, waiting as long as
        the slowest needs; returns the seconds waited (0: no key is paced)."""
        with self.lock:
            now = self.clock()
            wait = 0.0
            for partition, amount in units.items():
                bucket = self.buckets.get(partition)
                if bucket is not None:
                    self._recover(bucket, now)
                    wait = max(wait, bucket.wait(amount, now))
        if wait > 0:
            self.sleep(wait)
        return wait

    def throttled(self, partitions: Iterable[Partition]) -> None:
        """DynamoDB throttled writes to `partitions`: pace each, or cut its pace."""
        with self.lock:
            now = self.clock()
            for partition in set(partitions):
                bucket = self.buckets.get(partition)
                written = bucket.rate if bucket is not None else self.ceiling
                rate = max(self.ceiling * FLOOR, written * DECREASE)
                if bucket is None:
                    self.buckets[partition] = Bucket(rate, now)
                else:
                    bucket.refill(now)
                    bucket.rate, bucket.tokens, bucket.grown = rate, min(bucket.tokens, rate), now

    def rate(self, partition: Partition) -> float | None:
        """The pace of `partition` in units a second, or None while it is not paced."""
        with self.lock:
            bucket = self.buckets.get(partition)
            if bucket is None:
                return None
            self._recover(bucket, self.clock())
            return bucket.rate

    def _recover(self, bucket: Bucket, now: float) -> None:
        bucket.refill(now)  # the tokens up to now at the old rate, then the rate grows
        bucket.rate = min(self.ceiling, bucket.rate + self.ceiling * INCREASE * (now - bucket.grown))
        bucket.grown = now


_current: ContextVar[PartitionPacer | None] = ContextVar("partition_pacer", default=None)


@contextmanager
def pacing(pacer: PartitionPacer | None) -> Iterator[PartitionPacer | None]:
    """Pace the bulk writes made inside the block with `pacer` (None: not paced)."""
    token = _current.set(pacer)
    try:
        yield pacer
    finally:
        _current.reset(token)


def current() -> PartitionPacer | None:
    """The pacer of the requests made here now, if any."""
    return _current.get()
