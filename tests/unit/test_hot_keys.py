"""The load model's arithmetic: AWS's unit rounding, summing per partition, scaling to a target
rate and judging each key against the per-partition limits."""

from __future__ import annotations

import pytest

from bench.load_model import (
    BASE_TABLE,
    KeyRate,
    PartitionUnits,
    Target,
    hottest,
    key_rates,
    partition_units,
    read_units,
    write_units,
)
from fundportal.store.instrumentation import PartitionTouch


@pytest.mark.parametrize(
    ("size", "transactional", "units"),
    [(0, False, 1), (1, False, 1), (1024, False, 1), (1025, False, 2), (10 * 1024, False, 10), (1025, True, 4)],
)
def test_write_units_round_up_per_kilobyte_and_double_in_a_transaction(size, transactional, units):
    assert write_units(size, transactional=transactional) == units


@pytest.mark.parametrize(
    ("size", "consistent", "units"),
    [(0, False, 0.5), (4096, False, 0.5), (4097, False, 1.0), (4097, True, 2.0), (40_000, True, 10.0)],
)
def test_read_units_round_up_per_four_kilobytes_and_halve_when_eventually_consistent(size, consistent, units):
    assert read_units(size, consistent=consistent) == units


def test_partition_units_sum_each_key_per_table_and_index_separately():
    touches = [
        PartitionTouch(None, "DOC1", "write", 1500),  # 2 WCU
        PartitionTouch(None, "DOC1", "write", 100, transactional=True),  # 2 WCU
        PartitionTouch("GSI_Entity_Document", "DOC1", "write", 100),  # same value, other index: 1 WCU
        PartitionTouch(None, "DOC1", "read", 9000),  # 3 x 4 KB, eventually consistent: 1.5 RCU
        PartitionTouch(None, "DOC2", "read", 10, consistent=True),  # 1 RCU
    ]
    units = {(u.table, u.key): (u.wcu, u.rcu) for u in partition_units(touches)}
    assert units == {
        (BASE_TABLE, "DOC1"): (4.0, 1.5),
        ("GSI_Entity_Document", "DOC1"): (1.0, 0.0),
        (BASE_TABLE, "DOC2"): (0.0, 1.0),
    }


def test_target_scales_per_operation_times_size_times_rate():
    assert Target(operations=600, per_second=1000).scale == pytest.approx(1000 / 600)
    assert Target(operations=1, per_second=2, size_factor=20).scale == 40


def test_target_without_operations_is_refused():
    with pytest.raises(ValueError, match="operation"):
        _ = Target(operations=0, per_second=1).scale


def test_key_rates_scale_units_and_order_hottest_first():
    units = [
        PartitionUnits(BASE_TABLE, "COOL", wcu=60, rcu=0),
        PartitionUnits("GSI_Entity_Document", "FUND#F", wcu=3_000, rcu=0),
        PartitionUnits(BASE_TABLE, "READ", wcu=0, rcu=6_000),
    ]
    rates = key_rates(units, Target(operations=600, per_second=1000))
    assert [(r.key, r.wcu_per_s, r.rcu_per_s) for r in rates] == [
        ("FUND#F", 5_000.0, 0.0),
        ("READ", 0.0, 10_000.0),
        ("COOL", 100.0, 0.0),
    ]
    assert [r.over_limit for r in rates] == [True, True, False]
    assert rates[0].wcu_share == 5.0 and rates[1].rcu_share == pytest.approx(10_000 / 3_000)


def test_a_key_at_exactly_its_limit_is_not_over_it():
    at_limit = KeyRate(BASE_TABLE, "K", wcu_per_s=1_000.0, rcu_per_s=3_000.0)
    assert not at_limit.over_limit
    assert at_limit.share == 1.0
    assert KeyRate(BASE_TABLE, "K", wcu_per_s=0.0, rcu_per_s=3_000.1).over_limit


def test_share_is_the_larger_of_the_write_and_read_shares():
    assert KeyRate(BASE_TABLE, "K", wcu_per_s=500.0, rcu_per_s=2_700.0).share == pytest.approx(0.9)


def test_hottest_keeps_the_top_n():
    rates = [KeyRate(BASE_TABLE, f"K{n:02d}", wcu_per_s=float(n), rcu_per_s=0.0) for n in range(15)]
    top = hottest(rates, 10)
    assert [r.key for r in top] == [f"K{n:02d}" for n in range(14, 4, -1)]
