"""Effective-dated commitments (fundportal.domain.commitments): which commitment is effective on
a date, an undated commitment from before dated history, and the rules of a change."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from fundportal.domain.commitments import (
    EARLIEST_EFFECTIVE,
    CommitmentChange,
    change_in_effect,
    check_change,
    commitment_as_of,
    history_of,
    with_change,
)
from fundportal.domain.errors import InvalidCommitmentChange
from fundportal.domain.money import money
from fundportal.domain.position_register import PositionRegister

AT_1 = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
AT_2 = datetime(2025, 11, 3, 14, 30, tzinfo=UTC)
TODAY = date(2025, 11, 20)

# Subscribed 2,000,000 from 2025-01-01; cut to 1,800,000 from 2025-06-30; raised to 2,500,000
# from 2025-10-15.
HISTORY = (
    CommitmentChange(date(2025, 10, 15), Decimal(2_500_000), "Side letter", AT_2, "ann"),
    CommitmentChange(date(2025, 1, 1), Decimal(2_000_000), "Subscription", AT_1, "bob"),
    CommitmentChange(date(2025, 6, 30), Decimal(1_800_000), "Transfer to INVESTOR_9", AT_1, "bob"),
)


@pytest.mark.parametrize(
    ("on", "expected"),
    [
        (date(2024, 12, 31), None),  # before the first change: no commitment yet
        (date(2025, 1, 1), Decimal(2_000_000)),  # effective on its own date
        (date(2025, 6, 29), Decimal(2_000_000)),
        (date(2025, 6, 30), Decimal(1_800_000)),
        (date(2025, 9, 30), Decimal(1_800_000)),  # the as-of date of DOC001
        (date(2025, 10, 14), Decimal(1_800_000)),
        (date(2025, 10, 15), Decimal(2_500_000)),
        (TODAY, Decimal(2_500_000)),
    ],
)
def test_commitment_as_of_is_the_latest_change_effective_on_or_before_the_date(on, expected):
    assert commitment_as_of(HISTORY, on) == expected


def test_of_two_changes_effective_the_same_day_the_one_recorded_last_counts():
    first = CommitmentChange(date(2025, 6, 30), Decimal(1_800_000), "Transfer", AT_1, "bob")
    correction = CommitmentChange(date(2025, 6, 30), Decimal(1_750_000), "Typo in the transfer", AT_2, "ann")
    assert commitment_as_of((correction, first), date(2025, 7, 1)) == Decimal(1_750_000)
    assert change_in_effect((first, correction), date(2025, 7, 1)) is correction


def test_an_undated_commitment_is_effective_from_the_earliest_date():
    (undated,) = history_of(Decimal(2_000_000), ())
    assert undated.undated and undated.effective_on == EARLIEST_EFFECTIVE
    assert commitment_as_of((undated,), date(1900, 1, 1)) == Decimal(2_000_000)
    assert history_of(None, ()) == ()


def test_the_first_dated_change_keeps_the_undated_commitment_before_it():
    change = CommitmentChange(date(2025, 10, 15), Decimal(2_500_000), "Side letter", AT_2, "ann")
    current, history = with_change(Decimal(2_000_000), (), change, TODAY)
    assert current == Decimal(2_500_000)
    assert [(c.undated, c.amount) for c in history] == [(True, Decimal(2_000_000)), (False, Decimal(2_500_000))]
    assert commitment_as_of(history, date(2025, 9, 30)) == Decimal(2_000_000)


def test_a_backdated_change_before_a_later_one_leaves_today_s_commitment():
    later = CommitmentChange(date(2025, 10, 15), Decimal(2_500_000), "Side letter", AT_1, "ann")
    earlier = CommitmentChange(date(2025, 6, 30), Decimal(1_800_000), "Transfer", AT_2, "bob")
    current, history = with_change(Decimal(2_500_000), (later,), earlier, TODAY)
    assert current == Decimal(2_500_000)
    assert [c.effective_on for c in history] == [date(2025, 6, 30), date(2025, 10, 15)]


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        (CommitmentChange(TODAY, Decimal(1), "  "), "reason", "missing"),
        (CommitmentChange(TODAY, Decimal(1), "x" * 201), "reason", "too_long"),
        (CommitmentChange(date(2025, 11, 21), Decimal(1), "Agreed for tomorrow"), "effective_on", "future"),
    ],
)
def test_a_change_needs_a_reason_and_takes_effect_no_later_than_today(change, field, problem):
    with pytest.raises(InvalidCommitmentChange) as raised:
        check_change(change, TODAY)
    assert (raised.value.field, raised.value.problem) == (field, problem)


def test_a_change_effective_today_is_accepted():
    check_change(CommitmentChange(TODAY, Decimal(1), "Subscription"), TODAY)


def test_register_gives_the_commitment_effective_on_a_date_in_its_currency():
    register = PositionRegister("P1", "F1", "I1", currency="EUR", commitment=Decimal(2_500_000), commitments=HISTORY)
    assert register.commitment_on(date(2025, 9, 30)) == money(Decimal(1_800_000), "EUR")
    assert register.commitment_on(date(2024, 1, 1)) is None
    assert register.commitment_on(None) == money(Decimal(2_500_000), "EUR")
    assert [c.effective_on for c in register.commitment_history] == [
        date(2025, 1, 1),
        date(2025, 6, 30),
        date(2025, 10, 15),
    ]


def test_register_without_history_gives_its_commitment_on_any_date():
    register = PositionRegister("P1", "F1", "I1", commitment=Decimal(2_000_000))
    assert register.commitment_on(date(2025, 9, 30)) == money(Decimal(2_000_000), "USD")


def test_a_register_changed_with_replace_reads_its_own_commitment_not_the_originals():
    register = PositionRegister("P1", "F1", "I1", commitment=Decimal(2_000_000))
    on = date(2025, 9, 30)
    assert register.commitment_on(on) == money(Decimal(2_000_000), "USD")  # remembered for `on`
    assert register.commitment_money == money(Decimal(2_000_000), "USD")
    changed = replace(register, commitment=Decimal(3_000_000))
    assert changed.commitment_on(on) == money(Decimal(3_000_000), "USD")
    assert changed.commitment_money == money(Decimal(3_000_000), "USD")
    assert register.commitment_on(on) == money(Decimal(2_000_000), "USD")
