"""A position line's figures as shown (funds/lines.py `line_text`): a figure equal to one already
formatted reads the same, pending parts only when something is pending, the flag when the
reported unfunded differs from the computed one."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.figures import Figures
from fundportal.domain.money import format_money, money
from funds.lines import line_text


def usd(amount: str):
    return money(Decimal(amount), "USD")


def figures(called_settled="0", called_pending="0", distributed_settled="0", distributed_pending="0", unfunded=None):
    return Figures(
        "USD",
        usd(called_settled),
        usd(called_pending),
        usd(distributed_settled),
        usd(distributed_pending),
        unfunded=None if unfunded is None else usd(unfunded),
        unfunded_as_of=None if unfunded is None else date(2024, 3, 31),
    )


def test_a_pending_part_is_shown_only_when_something_is_pending():
    shown = line_text(usd("1000"), figures(called_settled="100"), None, None, usd("900"))
    assert (shown.called, shown.called_pending, shown.distributed_pending) == ("USD 100.00", "", "")


def test_a_pending_part_that_is_all_of_the_sum_reads_as_the_sum():
    shown = line_text(usd("1000"), figures(called_pending="250.5", distributed_pending="40"), None, None, usd("749.5"))
    assert shown.called_pending == shown.called == "USD 250.50"
    assert shown.distributed_pending == shown.distributed == "USD 40.00"


def test_a_pending_part_of_a_larger_sum_is_formatted_apart():
    shown = line_text(usd("1000"), figures(called_settled="100", called_pending="0.50"), None, None, usd("899.5"))
    assert (shown.called, shown.called_pending) == ("USD 100.50", "USD 0.50")


def test_a_reported_unfunded_that_agrees_reads_as_the_computed_one_and_is_not_flagged():
    shown = line_text(usd("1000"), figures(called_settled="100", unfunded="900.00"), None, None, usd("900"))
    assert shown.unfunded == shown.unfunded_computed == "USD 900.00"
    assert shown.unfunded_flag == ""


def test_a_reported_unfunded_that_differs_is_flagged_and_shown_as_reported():
    shown = line_text(usd("1000"), figures(called_settled="100", unfunded="950"), None, None, usd("900"))
    assert (shown.unfunded, shown.unfunded_computed, shown.unfunded_flag) == ("USD 950.00", "USD 900.00", "flagged")


def test_without_a_commitment_the_reported_unfunded_is_shown_alone():
    shown = line_text(None, figures(unfunded="950"), None, None, None)
    assert (shown.unfunded, shown.unfunded_computed) == (format_money(usd("950")), "—")
