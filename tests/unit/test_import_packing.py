"""Import transactions keep room for the fund-summary updates: a group of registers (or a batch of
entries and registers) plus one update per summary shard it touches never passes 100 actions."""

from __future__ import annotations

from decimal import Decimal

from fundportal.domain.position_entries import CapitalCall
from fundportal.store.repositories.imports import MAX_TRANSACTION_ITEMS
from fundportal.store.repositories.summaries import summary_shard_of
from imports.writing import POSITIONS_PER_TRANSACTION, REGISTER_ITEMS, batches, summary_groups


def _by_position(positions: int, entries: int = 1, funds: int = 1) -> dict[str, list[CapitalCall]]:
    return {
        f"P{n:04d}": [
            CapitalCall(f"D{k}", f"P{n:04d}", f"FUND_{n % funds}", f"I{n}", Decimal(1), "Completed")
            for k in range(entries)
        ]
        for n in range(positions)
    }


def _shards(by_position, positions) -> set[tuple[str, int]]:
    return {summary_shard_of(by_position[p][0].fund_id, p) for p in positions}


def test_register_groups_leave_room_for_one_update_per_shard_touched():
    for funds in (1, 3):
        by_position = _by_position(500, funds=funds)
        groups = summary_groups(sorted(by_position), by_position, POSITIONS_PER_TRANSACTION, MAX_TRANSACTION_ITEMS - 1)
        assert sorted(p for g in groups for p in g) == sorted(by_position)
        for group in groups:
            assert len(group) <= POSITIONS_PER_TRANSACTION
            assert 1 + REGISTER_ITEMS * len(group) + len(_shards(by_position, group)) <= MAX_TRANSACTION_ITEMS


def test_a_group_size_below_the_limit_is_kept():
    by_position = _by_position(100)
    groups = summary_groups(sorted(by_position), by_position, 40, MAX_TRANSACTION_ITEMS - 1)
    assert [len(g) for g in groups] == [40, 40, 20]


def test_entry_batches_count_entries_registers_and_summary_updates():
    by_position = _by_position(300, entries=3, funds=2)
    small, large = batches(by_position)
    assert large == []
    for batch in small:
        positions = [p for p, _ in batch]
        entries = sum(len(chunk) for _, chunk in batch)
        assert entries + REGISTER_ITEMS * len(batch) + len(_shards(by_position, positions)) <= MAX_TRANSACTION_ITEMS
