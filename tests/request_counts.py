"""Test helpers: assert how many DynamoDB requests a block makes (like assertNumQueries)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fundportal.store.instrumentation import Collector, collect


@contextmanager
def assert_dynamodb_requests(expected: int, operations: list[str] | None = None) -> Iterator[Collector]:
    """Fail unless the block makes exactly `expected` DynamoDB calls (and, if given, these
    operations in this order)."""
    with collect() as collector:
        yield collector
    assert collector.count == expected, f"expected {expected} DynamoDB requests, got {collector.describe()}"
    if operations is not None:
        assert collector.operations == operations, collector.describe()
