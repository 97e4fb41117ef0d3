"""The capital account statement's rules (`fundportal.domain.capital_account`), hand-computed on
plain entries: lines per column, beginning and ending NAV by the roll-forward rule, the flagged
difference, what counts, money per currency."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.capital_account import combine, nav_at, position_account
from fundportal.domain.commitments import CommitmentChange
from fundportal.domain.model import CapitalCall, Distribution, NetAssetValue
from fundportal.domain.periods import quarter

Q3, Q4 = date(2025, 9, 30), date(2025, 12, 31)


def entry(cls, amount, on, status="Completed", currency="USD", document_id="DOC", due=None, position="P1"):
    return cls(
        document_id=document_id,
        position_id=position,
        fund_id="F",
        investor_id="I",
        amount=Decimal(amount),
        status=status,
        currency=currency,
        as_of_date=on,
        due_date=due,
    )


def column_amounts(account, key):
    return [a.amount for a in account.line(key).amounts]


def test_beginning_and_ending_nav_roll_the_latest_nav_forward():
    entries = [
        entry(CapitalCall, 1000, Q3, document_id="A"),
        entry(NetAssetValue, 1100, Q3, document_id="A"),
        entry(CapitalCall, 500, Q4, document_id="B"),
        entry(Distribution, 200, Q4, document_id="B"),
    ]
    assert nav_at(entries, date(2025, 9, 29)) == Decimal(0)  # the NAV is dated later; its call too
    assert nav_at(entries, Q3) == Decimal(1100)  # the reported NAV on its date
    assert nav_at(entries, Q4) == Decimal(1400)  # 1,100 + 500 - 200
    assert nav_at(entries, None) == Decimal(0)


def test_each_column_reconciles_when_the_nav_is_explained_and_flags_the_rest():
    entries = [
        entry(CapitalCall, 1000, Q3, document_id="A"),
        entry(NetAssetValue, 1000, Q3, document_id="A"),
        entry(CapitalCall, 500, Q4, document_id="B"),
        entry(NetAssetValue, 1450, Q4, document_id="B"),  # 50 short of 1,000 + 500
    ]
    (account,) = position_account(entries, quarter(2025, 4))
    assert column_amounts(account, "beginning_nav") == [Decimal(1000), 0, 0]
    assert column_amounts(account, "contributions") == [Decimal(500), Decimal(1500), Decimal(1500)]
    assert column_amounts(account, "ending_nav") == [Decimal(1450)] * 3
    assert column_amounts(account, "difference") == [Decimal(-50)] * 3
    assert account.line("difference").flagged and not account.reconciles

    (q3,) = position_account(entries, quarter(2025, 3))
    assert q3.reconciles and "difference" not in [line.key for line in q3.lines]


def test_cancelled_entries_and_flows_due_after_the_end_do_not_count():
    entries = [
        entry(CapitalCall, 1000, Q4, document_id="A"),
        entry(CapitalCall, 999, Q4, status="Cancelled", document_id="B"),
        entry(Distribution, 300, Q4, document_id="C", due=date(2026, 1, 15)),
        entry(CapitalCall, 7, date(2026, 1, 5), document_id="D"),  # a document after the period
    ]
    (account,) = position_account(entries, quarter(2025, 4))
    assert column_amounts(account, "contributions") == [Decimal(1000)] * 3
    assert column_amounts(account, "distributions") == [0, 0, 0]
    assert account.contributions_to_date.amount == Decimal(1000)


def test_the_commitment_is_the_one_effective_at_the_end_and_unfunded_is_computed():
    history = (
        CommitmentChange(date(2020, 1, 1), Decimal(5000)),
        CommitmentChange(date(2026, 1, 1), Decimal(9000)),
    )
    entries = [entry(CapitalCall, 1000, Q4)]
    (account,) = position_account(entries, quarter(2025, 4), commitments=history, commitment_currency="USD")
    assert account.commitment.amount == Decimal(5000)
    assert account.unfunded.amount == Decimal(4000)


def test_two_currencies_are_two_blocks_and_a_group_never_adds_across_them():
    p1 = position_account(
        [entry(CapitalCall, 1000, Q4), entry(CapitalCall, 50000, Q4, currency="JPY", document_id="J")],
        quarter(2025, 4),
    )
    p2 = position_account([entry(CapitalCall, 200, Q4, position="P2")], quarter(2025, 4))
    assert [a.currency for a in p1] == ["JPY", "USD"]
    usd, jpy = (
        [a for a in combine([*p1, *p2]) if a.currency == "USD"],
        [a for a in combine([*p1, *p2]) if a.currency == "JPY"],
    )
    assert column_amounts(usd[0], "contributions") == [Decimal(1200)] * 3
    assert column_amounts(jpy[0], "contributions") == [Decimal(50000)] * 3
    assert usd[0].contributions_to_date.amount == Decimal(1200)
