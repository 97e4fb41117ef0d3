"""The load model: write and read units per partition key per second, from the partitions a run
touched (`fundportal.store.partition_touches`), scaled to a production throughput target.

Pure arithmetic (no DynamoDB, no Django), by AWS's published rules (Amazon DynamoDB Developer
Guide, "Read/write capacity mode", "Capacity management for transactions", "Provisioned
throughput considerations for Global Secondary Indexes", "Best practices for designing and using
partition keys effectively"):

- a write costs 1 WCU per 1 KB of the item, rounded up; inside TransactWriteItems 2 WCU per 1 KB
  (prepare + commit);
- an item written with an index's key attributes costs its index entry's size (the projected
  attributes), rounded up per 1 KB, on that index's partition, as an ordinary write;
- a read costs 1 RCU per 4 KB, rounded up, strongly consistent, half that eventually consistent;
  a Query is rounded once over the items of its page, a GetItem/BatchGetItem per item, and a read
  that finds nothing still costs the minimum;
- one partition serves at most 1,000 WCU and 3,000 RCU per second.

A scenario's measured units are scaled linearly: per operation (a notice row, a page view, an
editor's save), by the size factor (target size ÷ measured size, for work that grows with the
size), times the target operations per second (`key_rates`: the average over the run). As work
is not spread evenly over a run (an import writes its entries first, its registers after),
`busiest_second` also replays the measured run at the target pace, its timeline compressed or
stretched to the target duration, and takes each key's units in its busiest second.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

WRITE_UNIT_BYTES = 1024
READ_UNIT_BYTES = 4096
PARTITION_WCU_PER_S = 1000.0
PARTITION_RCU_PER_S = 3000.0
BASE_TABLE = "table"


class Touch(Protocol):
    """What the model reads of one recorded partition touch."""

    @property
    def index(self) -> str | None: ...
    @property
    def key(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def bytes(self) -> int: ...
    @property
    def consistent(self) -> bool: ...
    @property
    def transactional(self) -> bool: ...


def write_units(size: int, *, transactional: bool = False) -> float:
    """WCU of writing an item of `size` bytes: per 1 KB rounded up (at least 1); 2x in a transaction."""
    units = max(1, math.ceil(size / WRITE_UNIT_BYTES))
    return float(units * (2 if transactional else 1))


def read_units(size: int, *, consistent: bool = False) -> float:
    """RCU of reading `size` bytes: per 4 KB rounded up (at least 1); half if eventually consistent."""
    units = max(1, math.ceil(size / READ_UNIT_BYTES))
    return units * (1.0 if consistent else 0.5)


@dataclass(frozen=True, slots=True)
class PartitionUnits:
    """Units one partition took during a run."""

    table: str  # BASE_TABLE or the index name
    key: str
    wcu: float = 0.0
    rcu: float = 0.0


def touch_units(touch: Touch) -> tuple[float, float]:
    """(WCU, RCU) of one touch."""
    if touch.kind == "write":
        return write_units(touch.bytes, transactional=touch.transactional), 0.0
    return 0.0, read_units(touch.bytes, consistent=touch.consistent)


def partition_units(touches: Iterable[Touch]) -> list[PartitionUnits]:
    """Sum each touch's units onto its (table or index, partition key)."""
    totals: dict[tuple[str, str], tuple[float, float]] = {}
    for touch in touches:
        where = (touch.index or BASE_TABLE, touch.key)
        wcu, rcu = totals.get(where, (0.0, 0.0))
        add_wcu, add_rcu = touch_units(touch)
        totals[where] = (wcu + add_wcu, rcu + add_rcu)
    return [PartitionUnits(table, key, wcu, rcu) for (table, key), (wcu, rcu) in totals.items()]


@dataclass(frozen=True, slots=True)
class Target:
    """The production rate a scenario is judged at."""

    operations: int  # operations measured in the run (rows imported, page views, saves)
    per_second: float  # target operations per second in production
    size_factor: float = 1.0  # target size ÷ measured size, for each operation's work (a bigger fund)
    target_operations: int | None = None  # operations of the full-size run (a longer notice)

    def __post_init__(self) -> None:
        if self.operations <= 0 or self.per_second <= 0 or (self.target_operations or 1) <= 0:
            raise ValueError("a scenario needs at least one measured operation and a positive rate")

    @property
    def seconds(self) -> float:
        """How long the full-size run takes at the target rate."""
        return (self.target_operations or self.operations) / self.per_second

    @property
    def unit_factor(self) -> float:
        """Multiplier from the measured run's units to the full-size run's."""
        return self.size_factor * (self.target_operations or self.operations) / self.operations

    @property
    def scale(self) -> float:
        """Multiplier from the measured run's units to units per second at the target."""
        return self.unit_factor / self.seconds


@dataclass(frozen=True, slots=True)
class KeyRate:
    """One partition's load at the target rate, and its share of the per-partition limits."""

    table: str
    key: str
    wcu_per_s: float
    rcu_per_s: float

    @property
    def wcu_share(self) -> float:
        return self.wcu_per_s / PARTITION_WCU_PER_S

    @property
    def rcu_share(self) -> float:
        return self.rcu_per_s / PARTITION_RCU_PER_S

    @property
    def share(self) -> float:
        """The larger of the two shares: 1.0 is the partition's limit."""
        return max(self.wcu_share, self.rcu_share)

    @property
    def over_limit(self) -> bool:
        return self.wcu_per_s > PARTITION_WCU_PER_S or self.rcu_per_s > PARTITION_RCU_PER_S


def key_rates(units: Iterable[PartitionUnits], target: Target) -> list[KeyRate]:
    """Every partition's units per second at the target, hottest first."""
    scale = target.scale
    rates = [KeyRate(u.table, u.key, u.wcu * scale, u.rcu * scale) for u in units]
    return sorted(rates, key=lambda r: (-r.share, r.table, r.key))


def busiest_second(
    timed: Iterable[tuple[float, Touch]], *, started: float, measured_seconds: float, target: Target
) -> list[KeyRate]:
    """Each partition's units in its busiest second when the run is replayed at the target pace.

    `timed` holds (when, touch) with `when` on the clock `started` was read from; the run's
    timeline is rescaled from `measured_seconds` to `target.seconds` (the full-size run's) and cut
    into equal windows of one to two seconds (one window when the run is shorter than a second).
    A key's rate is its busiest window's units, scaled to the full-size run, ÷ the window's
    length; a key busy evenly over the run gets its average rate."""
    length = target.seconds
    windows = max(1, math.floor(length))
    window = length / windows
    stretch = length / measured_seconds if measured_seconds > 0 else 0.0
    by_window: dict[tuple[str, str], dict[int, tuple[float, float]]] = {}
    for when, touch in timed:
        slot = min(windows - 1, max(0, int((when - started) * stretch / window)))
        slots = by_window.setdefault((touch.index or BASE_TABLE, touch.key), {})
        wcu, rcu = slots.get(slot, (0.0, 0.0))
        add_wcu, add_rcu = touch_units(touch)
        slots[slot] = (wcu + add_wcu, rcu + add_rcu)
    per_second = target.unit_factor / window
    rates = [
        KeyRate(
            table,
            key,
            max(w for w, _ in slots.values()) * per_second,
            max(r for _, r in slots.values()) * per_second,
        )
        for (table, key), slots in by_window.items()
    ]
    return sorted(rates, key=lambda r: (-r.share, r.table, r.key))


def hottest(rates: list[KeyRate], n: int = 10) -> list[KeyRate]:
    """The `n` hottest partitions (key_rates orders them)."""
    return sorted(rates, key=lambda r: (-r.share, r.table, r.key))[:n]


@dataclass(frozen=True, slots=True)
class PacedReplay:
    """The run replayed at the target pace with every partition's writes held to the limit."""

    rates: list[KeyRate]  # each key's busiest second, paced
    seconds: float  # until the last partition has served its writes (at least the target's duration)
    target_seconds: float
    longest_wait: float  # the longest any write waited for its partition, in seconds

    @property
    def slower(self) -> float:
        """The paced run's duration ÷ the target's (1.0: pacing costs the target nothing)."""
        return self.seconds / self.target_seconds if self.target_seconds else 1.0


def paced_replay(
    requests: Iterable[tuple[float, Sequence[Touch]]],
    *,
    started: float,
    measured_seconds: float,
    target: Target,
    limit: float = PARTITION_WCU_PER_S,
) -> PacedReplay:
    """Replay the run at the target pace (as `busiest_second`) with every partition serving its
    writes at most `limit` units a second: what a partition serves at most, and what the
    import's pacer holds a throttled key to (`fundportal.store.pacing`).

    Each request is due at its measured time stretched to the target. Its write units on a
    partition queue behind that partition's earlier ones, in the order the run made them, and
    take `units ÷ limit` seconds of its time, spread over them; partitions queue independently (the
    import's threads go on writing other keys while one waits) and reads are not paced. The run
    lasts until the last partition has served its writes; each key's busiest second is taken
    over that timeline, cut into windows as in `busiest_second`."""
    length = target.seconds
    stretch = length / measured_seconds if measured_seconds > 0 else 0.0
    factor = target.unit_factor
    free: dict[tuple[str, str], float] = {}  # when each partition is done with the writes so far
    end = longest = 0.0
    placed: list[tuple[tuple[str, str], float, float, float, float]] = []  # key, start, stop, wcu, rcu
    for when, touches in sorted(requests, key=lambda r: r[0]):
        due = (when - started) * stretch
        per_key: dict[tuple[str, str], tuple[float, float]] = {}
        for touch in touches:  # a request's units on each partition, summed
            key = (touch.index or BASE_TABLE, touch.key)
            wcu, rcu = per_key.get(key, (0.0, 0.0))
            add_wcu, add_rcu = touch_units(touch)
            per_key[key] = (wcu + add_wcu, rcu + add_rcu)
        for key, (wcu, rcu) in per_key.items():
            wcu, rcu = wcu * factor, rcu * factor
            start = max(due, free.get(key, 0.0)) if wcu else due
            stop = start + wcu / limit
            if wcu:
                free[key] = stop
                longest = max(longest, start - due)
            placed.append((key, start, stop, wcu, rcu))
            end = max(end, stop)
    seconds = max(length, end)
    windows = max(1, math.floor(seconds))
    window = seconds / windows
    by_window: dict[tuple[str, str], dict[int, list[float]]] = {}
    for key, start, stop, wcu, rcu in placed:
        slots = by_window.setdefault(key, {})
        first = min(windows - 1, int(start / window))
        slots.setdefault(first, [0.0, 0.0])[1] += rcu
        for slot in range(first, min(windows - 1, int(stop / window)) + 1) if wcu else ():
            overlap = min(stop, (slot + 1) * window) - max(start, slot * window)  # spread over [start, stop)
            slots.setdefault(slot, [0.0, 0.0])[0] += wcu * max(0.0, overlap) / (stop - start)
    rates = [  # rounded: a partition held to its limit reads as the limit, not a float's hair above it
        KeyRate(
            table,
            key,
            round(max(w for w, _ in slots.values()) / window, 6),
            round(max(r for _, r in slots.values()) / window, 6),
        )
        for (table, key), slots in by_window.items()
    ]
    return PacedReplay(sorted(rates, key=lambda r: (-r.share, r.table, r.key)), seconds, length, longest)
