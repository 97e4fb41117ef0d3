"""Request accounting: every DynamoDB call is recorded into the collector of the current
context (a page request, a command run, a test block), like Django's connection.queries."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Django's cache is imported when first used, not with this module
    from django.core.cache.backends.base import BaseCache


@dataclass(frozen=True, slots=True)
class PartitionTouch:
    """One partition a request read or wrote, and the bytes it is billed for (see
    `partition_touches`): `index` None is the base table; `key` the partition key value."""

    index: str | None
    key: str
    kind: str  # "read" | "write"
    bytes: int
    consistent: bool = False  # a strongly consistent read
    transactional: bool = False  # a write inside TransactWriteItems


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One DynamoDB API call (one page of a Query is one call)."""

    operation: str
    index: str | None
    items: int
    read_units: float
    write_units: float
    ms: float
    key_condition: str | None = None
    # The kinds of a TransactWriteItems' parts ("Put", "Delete", "ConditionCheck", "Update"):
    # IAM authorises the transaction by them (fundportal/store/roles.py).
    parts: tuple[str, ...] = ()
    touches: tuple[PartitionTouch, ...] = ()  # recorded only for a collector with keys=True
    at: float = 0.0  # time.perf_counter() when the reply arrived


@dataclass
class Collector:
    records: list[RequestRecord] = field(default_factory=list)
    keys: bool = False  # also record the partitions each request touched (the load model)

    @property
    def count(self) -> int:
        return len(self.records)

    @property
    def read_units(self) -> float:
        return sum(r.read_units for r in self.records)

    @property
    def write_units(self) -> float:
        return sum(r.write_units for r in self.records)

    @property
    def ms(self) -> float:
        return sum(r.ms for r in self.records)

    @property
    def operations(self) -> list[str]:
        return [r.operation for r in self.records]

    def describe(self) -> str:
        lines = [f"{self.count} DynamoDB requests:"]
        lines += [
            f"  {r.operation} index={r.index or '-'} items={r.items} rcu={r.read_units:g} "
            f"wcu={r.write_units:g} {r.ms:.1f} ms"
            for r in self.records
        ]
        return "\n".join(lines)


_current: ContextVar[tuple[Collector, ...]] = ContextVar("dynamodb_collectors", default=())


@contextmanager
def collect(*, keys: bool = False) -> Iterator[Collector]:
    """Record every DynamoDB call made inside the block (nested blocks all see the call);
    with `keys`, each record also carries the partitions the call touched."""
    collector = Collector(keys=keys)
    token = _current.set((*_current.get(), collector))
    try:
        yield collector
    finally:
        _current.reset(token)


@contextmanager
def detached() -> Iterator[None]:
    """Calls inside the block are nobody else's: the collectors of the enclosing blocks do not
    see them (a background job run in the process that enqueued it is not that page's cost)."""
    token = _current.set(())
    try:
        yield
    finally:
        _current.reset(token)


def wants_touches() -> bool:
    """Whether a collector of the current context records the partitions touched."""
    return any(collector.keys for collector in _current.get())


def record(entry: RequestRecord) -> None:
    for collector in _current.get():
        collector.records.append(entry)


@dataclass(frozen=True, slots=True)
class PageLog:
    """One served page and what it cost in DynamoDB, for the admin request log."""

    at: datetime
    method: str
    path: str
    status: int
    user: str
    requests: int
    read_units: float
    write_units: float
    dynamodb_ms: float
    operations: tuple[str, ...]

    @property
    def flagged(self) -> bool:
        return self.requests > 1


class PageLogBuffer:
    """The last N page requests of every worker and machine, newest first, kept in Django's
    cache framework (`CACHES`: a database cache by default, Redis or Memcached in production),
    so every gunicorn worker writes to and the admin reads one log.

    A page only appends to this process's buffer (`add`); the buffer goes to the shared cache at
    most once every `flush_seconds` (`flush_due`, run once each response has been sent: the
    `request_finished` signal, connected in `FundportalConfig.ready()`), and whenever this
    process reads the log, so no page waits for a cache round trip. Read-modify-write under a
    process lock: two workers flushing in the same instant may lose lines of a diagnostic log,
    never a page."""

    KEY = "fundportal:dynamodb:page_log"

    def __init__(self, size: int = 200, cache_alias: str = "default", flush_seconds: float = 1.0) -> None:
        self.size = size
        self.cache_alias = cache_alias
        self.flush_seconds = flush_seconds
        self._pending: list[PageLog] = []
        self._flushed_at = 0.0
        self._lock = threading.Lock()

    @property
    def _cache(self) -> BaseCache:
        from django.core.cache import caches

        return caches[self.cache_alias]

    def _read(self) -> list[PageLog]:
        entries = self._cache.get(self.KEY)
        return entries if isinstance(entries, list) else []

    def add(self, method: str, path: str, status: int, user: str, collector: Collector) -> None:
        entry = PageLog(
            at=datetime.now(UTC),
            method=method,
            path=path,
            status=status,
            user=user,
            requests=collector.count,
            read_units=collector.read_units,
            write_units=collector.write_units,
            dynamodb_ms=collector.ms,
            operations=tuple(collector.operations),
        )
        with self._lock:
            self._pending.insert(0, entry)
            del self._pending[self.size :]

    def flush_due(self, **_: Any) -> None:
        """Move the pending lines to the shared log if `flush_seconds` have passed since the last
        move (a `request_finished` receiver: it runs after the response has gone out)."""
        if not self._pending or time.monotonic() - self._flushed_at < self.flush_seconds:
            return
        with self._lock:
            self._flush()

    def _flush(self) -> None:
        """Move this process's pending lines to the shared log (caller holds the lock)."""
        self._flushed_at = time.monotonic()
        if self._pending:
            merged = sorted([*self._pending, *self._read()], key=lambda e: e.at, reverse=True)
            self._cache.set(self.KEY, merged[: self.size], timeout=None)
            self._pending = []

    def latest(self, n: int = 50) -> list[PageLog]:
        with self._lock:
            self._flush()
        return self._read()[:n]

    def clear(self) -> None:
        with self._lock:
            self._pending = []
        self._cache.delete(self.KEY)


page_log = PageLogBuffer()
