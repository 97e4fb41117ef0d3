"""Computed unfunded and the reconciliation flags: hand-computed cases on the seed sample and
small made-up positions (no DynamoDB, no Django)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from fundportal.domain.figures_builder import figures_by_currency
from fundportal.domain.money import money
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue, UnfundedCommitment
from fundportal.domain.reconciliation import (
    Flag,
    FlagKind,
    activity_flags,
    computed_unfunded,
    document_calls,
    entry_flags,
    flagged,
    nav_roll_forward,
    register_currency_flags,
    total_unfunded,
    unfunded_flags,
    unnamed,
)
from fundportal.messages import explain_flag

Q3, Q4 = date(2025, 9, 30), date(2025, 12, 31)


def usd(amount: int | str) -> object:
    return money(Decimal(amount), "USD")


def entry(cls, document_id, as_of, amount, status="Completed", position_id="POSITION_1", **more):
    return cls(
        document_id=document_id,
        position_id=position_id,
        fund_id=more.pop("fund_id", "FUND_A"),
        investor_id="INVESTOR_1",
        amount=Decimal(amount),
        status=status,
        as_of_date=as_of,
        **more,
    )


POSITION_1 = [  # the seed sample
    entry(CapitalCall, "DOC001", Q3, 500000, "Pending"),
    entry(Distribution, "DOC001", Q3, 75000),
    entry(UnfundedCommitment, "DOC001", Q3, 1500000, "Active"),
    entry(CapitalCall, "DOC002", Q4, 750000),
    entry(Distribution, "DOC002", Q4, 120000, "Pending"),
]


def test_computed_unfunded_is_commitment_less_called_pending_included():
    (figures,) = figures_by_currency(POSITION_1)
    # 2,000,000 - (500,000 pending + 750,000 settled) = 750,000
    assert computed_unfunded(usd(2_000_000), figures) == usd(750_000)


def test_computed_unfunded_needs_a_commitment_of_the_figures_currency():
    (figures,) = figures_by_currency(POSITION_1)
    assert computed_unfunded(None, figures) is None
    assert computed_unfunded(money(Decimal(2_000_000), "EUR"), figures) is None


def test_cancelled_calls_do_not_reduce_computed_unfunded():
    entries = [*POSITION_1, entry(CapitalCall, "DOC003", Q4, 100000, "Cancelled")]
    (figures,) = figures_by_currency(entries)
    assert computed_unfunded(usd(2_000_000), figures) == usd(750_000)


def test_seed_position_reports_unfunded_that_differs_from_the_computed_one():
    (figures,) = figures_by_currency(POSITION_1)
    (flag,) = unfunded_flags("POSITION_1", usd(2_000_000), figures)
    assert flag == Flag(
        FlagKind.UNFUNDED_DIFFERS,
        position_id="POSITION_1",
        expected=usd(750_000),
        actual=usd(1_500_000),
        difference=usd(750_000),
        on=Q3,
    )
    assert not flag.informational
    assert explain_flag(flag) == (
        "POSITION_1: reported unfunded USD 1,500,000.00 (2025-09-30) differs from computed unfunded "
        "USD 750,000.00 (commitment - called), by USD +750,000.00."
    )


def test_agreeing_unfunded_and_no_reported_unfunded_are_not_flagged():
    calls = [entry(CapitalCall, "DOC001", Q3, 500000), entry(UnfundedCommitment, "DOC001", Q3, 1500000)]
    (figures,) = figures_by_currency(calls)
    assert unfunded_flags("POSITION_1", usd(2_000_000), figures) == []
    (unreported,) = figures_by_currency(calls[:1])
    assert unfunded_flags("POSITION_1", usd(2_000_000), unreported) == []


def test_calls_above_commitment_are_flagged_with_the_excess():
    (figures,) = figures_by_currency(POSITION_1)
    flags = unfunded_flags("POSITION_1", usd(1_000_000), figures)
    assert [f.kind for f in flags] == [FlagKind.UNFUNDED_DIFFERS, FlagKind.ABOVE_COMMITMENT]
    above = flags[1]
    # called 1,250,000 against 1,000,000 committed: 250,000 above; computed unfunded -250,000
    assert (above.expected, above.actual, above.difference) == (usd(1_000_000), usd(1_250_000), usd(250_000))
    assert flags[0].expected == usd(-250_000)
    assert explain_flag(above) == (
        "POSITION_1: called USD 1,250,000.00 is above the commitment USD 1,000,000.00, by USD +250,000.00."
    )


def test_totals_add_per_currency_and_refuse_to_mix_currencies():
    assert total_unfunded([usd(750_000), None, usd(450_000)], "USD") == usd(1_200_000)
    assert total_unfunded([None], "USD") is None
    with pytest.raises(TypeError):
        total_unfunded([usd(1), money(Decimal(1), "EUR")], "USD")


def test_capital_activity_is_compared_with_the_counted_calls_of_its_currency():
    doc001 = [
        entry(CapitalCall, "DOC001", Q3, 500000, "Pending"),
        entry(CapitalCall, "DOC001", Q3, 300000, "Pending", position_id="POSITION_2"),
        entry(CapitalCall, "DOC001", Q3, 90000, "Cancelled", position_id="POSITION_3"),
        entry(CapitalCall, "DOC001", Q3, 70000, position_id="POSITION_4", currency="EUR"),
        entry(Distribution, "DOC001", Q3, 75000),
    ]
    assert document_calls(doc001, "USD") == usd(800_000)
    (flag,) = activity_flags("DOC001", usd(500_000), doc001)
    assert (flag.kind, flag.document_id, flag.expected, flag.actual, flag.difference) == (
        FlagKind.ACTIVITY_VS_CALLS,
        "DOC001",
        usd(500_000),
        usd(800_000),
        usd(300_000),
    )
    assert activity_flags("DOC001", usd(800_000), doc001) == []
    assert activity_flags("DOC001", None, doc001) == []


def test_capital_activity_is_compared_with_the_calls_the_caller_already_summed():
    doc001 = [entry(CapitalCall, "DOC001", Q3, 500000), entry(CapitalCall, "DOC001", Q3, 300000, position_id="P2")]
    calls = document_calls(doc001, "USD")
    assert activity_flags("DOC001", usd(800_000), doc001, calls=calls) == []
    (flag,) = activity_flags("DOC001", usd(500_000), doc001, calls=calls)
    assert flag == activity_flags("DOC001", usd(500_000), doc001)[0]


def test_unfunded_flags_use_the_computed_unfunded_the_caller_already_has():
    (figures,) = figures_by_currency(
        [entry(CapitalCall, "DOC001", Q3, 600000), entry(UnfundedCommitment, "DOC001", Q3, 500000)]
    )
    computed = computed_unfunded(usd(1_000_000), figures)
    given = unfunded_flags("POSITION_1", usd(1_000_000), figures, computed=computed)
    assert given == unfunded_flags("POSITION_1", usd(1_000_000), figures)
    assert [f.kind for f in given] == [FlagKind.UNFUNDED_DIFFERS]


def test_nav_roll_forward_shows_the_implied_gain_between_two_navs():
    entries = [
        entry(NetAssetValue, "DOC001", Q3, 1_000_000),
        entry(CapitalCall, "DOC001", Q3, 400_000),  # on the previous NAV's date: already in it
        entry(CapitalCall, "DOC002", Q4, 200_000),
        entry(Distribution, "DOC002", Q4, 50_000),
        entry(CapitalCall, "DOC003", date(2026, 1, 15), 999_000),  # after the new NAV
        entry(NetAssetValue, "DOC002", Q4, 1_180_000),
    ]
    (flag,) = nav_roll_forward("POSITION_1", entries)
    # 1,000,000 + 200,000 - 50,000 = 1,150,000 rolled forward; 1,180,000 reported: +30,000 gain
    assert (flag.expected, flag.actual, flag.difference) == (usd(1_150_000), usd(1_180_000), usd(30_000))
    assert (flag.since, flag.on, flag.document_id) == (Q3, Q4, "DOC002")
    assert flag.informational
    assert flagged([flag]) == []
    assert flagged([flag], informational=True) == [flag]
    assert explain_flag(flag) == (
        "DOC002 POSITION_1: NAV 2025-09-30 rolled forward by calls and distributions is USD 1,150,000.00; "
        "reported NAV 2025-12-31 is USD 1,180,000.00: implied gain/loss USD +30,000.00 (informational)."
    )


def test_nav_roll_forward_needs_two_counted_navs():
    one = [entry(NetAssetValue, "DOC001", Q3, 1_000_000), entry(NetAssetValue, "DOC002", Q4, 5, "Cancelled")]
    assert nav_roll_forward("POSITION_1", one) == []


def test_entries_disagreeing_with_their_holder_are_flagged():
    entries = [
        entry(CapitalCall, "DOC001", Q3, 1),
        entry(CapitalCall, "DOC002", Q3, 1, fund_id="FUND_B"),
        entry(Distribution, "DOC002", Q3, 1, currency="EUR"),
        entry(Distribution, "DOC003", Q3, 1, "Cancelled", currency="EUR"),  # never counts: not flagged
    ]
    fund, currency = entry_flags(entries, "FUND_A", "USD", holder="register")
    assert (fund.kind, fund.document_id, fund.expected, fund.actual) == (
        FlagKind.FUND_MISMATCH,
        "DOC002",
        "FUND_A",
        "FUND_B",
    )
    assert (currency.kind, currency.expected, currency.actual) == (FlagKind.CURRENCY_MISMATCH, "USD", "EUR")
    assert explain_flag(fund) == "DOC002 POSITION_1: entry is for fund FUND_B, but its register is in fund FUND_A."


def test_a_register_holding_another_currency_is_flagged_from_its_figures():
    figures = figures_by_currency([*POSITION_1, entry(Distribution, "DOC002", Q4, 10, currency="EUR")])
    (flag,) = register_currency_flags("POSITION_1", "USD", figures)
    assert (flag.kind, flag.expected, flag.actual) == (FlagKind.CURRENCY_MISMATCH, "USD", "EUR")
    assert flag.holder == "register"
    assert register_currency_flags("POSITION_1", "USD", figures[1:]) == []


def test_a_register_currency_flag_named_by_an_entry_is_not_repeated():
    figures = figures_by_currency([*POSITION_1, entry(Distribution, "DOC002", Q4, 10, currency="EUR")])
    register = register_currency_flags("POSITION_1", "USD", figures)
    held = entry_flags([entry(Distribution, "DOC002", Q4, 10, currency="EUR")], "FUND_A", "USD", holder="register")
    assert unnamed(register, held) == []
    assert unnamed(register, []) == register
