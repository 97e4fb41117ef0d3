"""The load model's arithmetic: AWS's unit rounding, summing per partition, scaling to a target
rate and judging each key against the per-partition limits."""

from __future__ import annotations

import pytest

from bench.load_model import (
    BASE_TABLE,
    KeyRate,
    PartitionUnits,
    Target,
    busiest_second,
    hottest,
    key_rates,
    paced_replay,
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


def test_a_longer_target_run_multiplies_the_units_and_the_duration_not_the_average_rate():
    short = Target(operations=600, per_second=1000)
    full = Target(operations=600, per_second=1000, target_operations=10_000)
    assert (short.seconds, full.seconds) == (pytest.approx(0.6), 10.0)
    assert full.unit_factor == pytest.approx(10_000 / 600)
    assert full.scale == pytest.approx(short.scale)


def test_target_without_operations_is_refused():
    with pytest.raises(ValueError, match="operation"):
        Target(operations=0, per_second=1)
    with pytest.raises(ValueError, match="positive rate"):
        Target(operations=1, per_second=0)


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


def _writes(key: str, times: list[float], size: int = 1024) -> list[tuple[float, PartitionTouch]]:
    return [(at, PartitionTouch(None, key, "write", size)) for at in times]


def test_a_key_written_evenly_over_the_run_gets_its_average_rate_in_its_busiest_second():
    # 100 one-WCU writes spread over a 10 s measured run; target: 100 operations at 10 a second
    timed = _writes("EVEN", [n / 10 for n in range(100)])
    target = Target(operations=100, per_second=10)
    (rate,) = busiest_second(timed, started=0.0, measured_seconds=10.0, target=target)
    (average,) = key_rates(partition_units(t for _, t in timed), target)
    assert rate.wcu_per_s == pytest.approx(average.wcu_per_s) == pytest.approx(10.0)


def test_a_key_written_in_one_phase_gets_the_phase_rate_not_the_average():
    # the same 100 writes, all in the first tenth of the run (a register phase)
    timed = _writes("PHASE", [n / 100 for n in range(100)])
    target = Target(operations=100, per_second=10)
    (rate,) = busiest_second(timed, started=0.0, measured_seconds=10.0, target=target)
    assert rate.wcu_per_s == pytest.approx(100.0)  # 10x its 10 WCU/s average


def test_the_replay_stretches_a_short_measured_run_to_the_full_size_runs_duration():
    # measured: 600 rows in 3 s with 50 writes in its last 0.3 s; full size 10,000 rows at 1,000/s = 10 s
    timed = _writes("LATE", [2.7 + n * 0.006 for n in range(50)])
    target = Target(operations=600, per_second=1000, target_operations=10_000)
    (rate,) = busiest_second(timed, started=0.0, measured_seconds=3.0, target=target)
    # the last tenth of the replay is its last second: 50 WCU x (10,000 / 600)
    assert rate.wcu_per_s == pytest.approx(50 * 10_000 / 600)


def test_a_run_shorter_than_a_second_at_the_target_is_one_window():
    # one page view at 2 views/s: 0.5 s, its reads all count against that half second
    timed = [(0.2, PartitionTouch("GSI_Entity_Document", "FUND#F", "read", 8192))]
    target = Target(operations=1, per_second=2, size_factor=20)
    (rate,) = busiest_second(timed, started=0.0, measured_seconds=0.4, target=target)
    assert rate.rcu_per_s == pytest.approx(1.0 * 20 / 0.5)
    assert (rate.table, rate.key) == ("GSI_Entity_Document", "FUND#F")


def test_a_touch_timed_at_the_very_end_of_the_run_lands_in_the_last_window():
    timed = _writes("END", [10.0])
    (rate,) = busiest_second(timed, started=0.0, measured_seconds=10.0, target=Target(10, per_second=1))
    assert rate.wcu_per_s == pytest.approx(1.0)


# --- the paced replay: every partition's writes held to the limit --------------------------------


def _requests(key: str, times: list[float], items: int = 1, size: int = 1024) -> list[tuple[float, list]]:
    return [(at, [PartitionTouch(None, key, "write", size)] * items) for at in times]


def test_writes_under_the_limit_are_not_delayed_by_pacing():
    requests = _requests("EVEN", [n / 10 for n in range(100)])  # 10 WCU/s at the target
    target = Target(operations=100, per_second=10)
    replay = paced_replay(requests, started=0.0, measured_seconds=10.0, target=target)
    (rate,) = replay.rates
    assert replay.seconds == 10.0 and replay.slower == 1.0 and replay.longest_wait == 0.0
    assert rate.wcu_per_s == pytest.approx(10.0)


def test_a_burst_over_the_limit_queues_at_the_limit_and_lengthens_the_run():
    # 3,000 one-WCU writes in the first second of a 2 s run: the partition serves 1,000 a second
    requests = _requests("BURST", [n / 3000 for n in range(3000)])
    target = Target(operations=2000, per_second=1000)
    unpaced = busiest_second(
        [(at, t) for at, ts in requests for t in ts], started=0.0, measured_seconds=2.0, target=target
    )
    replay = paced_replay(requests, started=0.0, measured_seconds=2.0, target=target)
    assert unpaced[0].over_limit and unpaced[0].wcu_per_s == pytest.approx(3000.0)
    (rate,) = replay.rates
    assert rate.wcu_per_s == pytest.approx(1000.0) and not rate.over_limit
    assert replay.seconds == pytest.approx(3.0) and replay.slower == pytest.approx(1.5)
    assert replay.longest_wait == pytest.approx(2.0, abs=0.01)


def test_partitions_queue_independently_and_reads_are_not_paced():
    hot = _requests("HOT", [0.0] * 20, items=100)  # 2,000 WCU at once
    cool = [(0.5, [PartitionTouch(None, "COOL", "write", 1024), PartitionTouch(None, "PAGE", "read", 4096)])]
    target = Target(operations=1, per_second=1)
    replay = paced_replay([*hot, *cool], started=0.0, measured_seconds=1.0, target=target)
    rates = {r.key: r for r in replay.rates}
    assert replay.seconds == pytest.approx(2.0)
    assert rates["HOT"].wcu_per_s == pytest.approx(1000.0)
    assert rates["COOL"].wcu_per_s == pytest.approx(1.0)  # its one write, at once: not behind HOT's queue
    assert rates["PAGE"].rcu_per_s == pytest.approx(0.5) and rates["PAGE"].wcu_per_s == 0.0


def test_the_paced_replay_scales_a_short_run_to_the_full_size():
    # 60 writes measured over 1 s, a 600-row run scaled to 6,000 rows at 1,000 rows/s (6 s):
    # 600 WCU spread evenly, under the limit
    requests = _requests("SCALED", [n / 60 for n in range(60)])
    target = Target(operations=600, per_second=1000, target_operations=6000)
    replay = paced_replay(requests, started=0.0, measured_seconds=1.0, target=target)
    (rate,) = replay.rates
    assert replay.seconds == 6.0
    assert rate.wcu_per_s == pytest.approx(100.0, rel=0.2)
