"""Keeping the fund summaries true: each summary shard must equal the sum of the contributions of
the registers that hash to it (`fundportal.domain.summary`). `verify_positions` reports a shard
that differs; `--repair` adds the difference to it, conditioned on the shard's write count as
scanned, so a concurrent write (whose own delta is exact) always wins and a second run writes
nothing. The check runs against the registers as stored, before any register is repaired: a
repaired register then moves its shard by its own exact delta, in its own transaction."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fundportal.domain import summary as rule
from fundportal.domain.position_register import PositionRegister
from fundportal.store.errors import ConditionFailed
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import summaries


@dataclass(frozen=True)
class ShardDrift:
    fund_id: str
    shard: int
    correction: rule.Vector  # what the shard lacks (expected - stored)
    seen: int | None  # the shard's Writes as scanned (None: absent)

    @property
    def label(self) -> str:
        return f"fund {self.fund_id} summary shard {self.shard}"

    @property
    def problem(self) -> str:
        measures = ", ".join(sorted({what for _, what, _ in self.correction}))
        where = "missing" if self.seen is None else f"differs from its registers in {measures}"
        return f"summary shard {where}"


def summary_drifts(items: list[dict[str, Any]], registers: Iterable[PositionRegister]) -> list[ShardDrift]:
    """The shards (scanned in `items`) that differ from the stored `registers` summed."""
    stored = summaries.stored_shards(items)
    expected = summaries.expected_shards(registers)
    drifts = []
    for fund_id, shard in sorted(set(stored) | set(expected)):
        have, writes = stored.get((fund_id, shard), ({}, None))
        correction = rule.add(expected.get((fund_id, shard), {}), rule.negate(have))
        if correction:
            drifts.append(ShardDrift(fund_id, shard, correction, writes))
    return drifts


def repair_drifts(drifts: Iterable[ShardDrift], table: str | None = None) -> tuple[int, int]:
    """Add each correction (conditioned on the shard unchanged since the scan): (repaired, skipped)."""
    gateway = TableGateway(table)
    repaired = skipped = 0
    for drift in drifts:
        try:
            summaries.repair(gateway, drift.fund_id, drift.shard, drift.correction, drift.seen)
        except ConditionFailed:
            skipped += 1
            continue
        repaired += 1
    return repaired, skipped
