"""The capital account statement's rules (`fundportal.domain.capital_account`), hand-computed on
plain entries: lines per column, beginning and ending NAV by the roll-forward rule, the flagged
difference, what counts, money per currency."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.capital_account import combine, nav_at, position_account
from fundportal.domain.commitments import CommitmentChange
from fundportal.domain.periods import quarter
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue

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


def test_fees_expenses_gains_and_carry_fill_their_lines_and_reconcile():
    """Q3: call 1,000 (of which fee 20, expense 5), NAV 1,000 on 2025-09-30 (reconciles: the
    allocations come in Q4). Q4: fee gross 20, offset 4, expense 5, realized 30, unrealized 100,
    carry accrued 25 and paid 10, distribution 300 split 200 capital / 60 gain / 40 income with
    100 recallable; NAV 2025-12-31 = 1,000 - 300 - (20 - 4) - 5 + 30 + 100 - 25 = 784."""
    from fundportal.domain.position_entries import (
        CarriedInterest,
        ManagementFee,
        PartnershipExpense,
        RealizedGain,
        UnrealizedGain,
    )

    call = CapitalCall(
        "A",
        "P1",
        "F",
        "I",
        Decimal(1000),
        "Completed",
        as_of_date=Q3,
        management_fee=Decimal(20),
        partnership_expense=Decimal(5),
    )
    entries = [
        call,
        entry(NetAssetValue, 1000, Q3, document_id="A"),
        Distribution(
            "B",
            "P1",
            "F",
            "I",
            Decimal(300),
            "Completed",
            as_of_date=Q4,
            return_of_capital=Decimal(200),
            gain=Decimal(60),
            income=Decimal(40),
            recallable=Decimal(100),
        ),
        ManagementFee("B", "P1", "F", "I", Decimal(20), "Completed", as_of_date=Q4, fee_line="gross"),
        ManagementFee("C", "P1", "F", "I", Decimal(4), "Completed", as_of_date=Q4, fee_line="offset"),
        entry(PartnershipExpense, 5, Q4, document_id="B"),
        entry(RealizedGain, 30, Q4, document_id="B"),
        entry(UnrealizedGain, 100, Q4, document_id="B"),
        CarriedInterest("B", "P1", "F", "I", Decimal(25), "Completed", as_of_date=Q4, carry_stage="accrued"),
        CarriedInterest("C", "P1", "F", "I", Decimal(10), "Completed", as_of_date=Q4, carry_stage="paid"),
        entry(NetAssetValue, 784, Q4, document_id="B"),
    ]
    history = (CommitmentChange(date(2020, 1, 1), Decimal(2000)),)
    (account,) = position_account(entries, quarter(2025, 4), commitments=history, commitment_currency="USD")
    qtd = {line.key: line.amounts[0].amount for line in account.lines}
    itd = {line.key: line.amounts[2].amount for line in account.lines}
    assert qtd["beginning_nav"] == Decimal(1000) and itd["beginning_nav"] == 0
    assert (itd["contributions"], itd["contributions_investment"]) == (Decimal(1000), Decimal(975))
    assert (itd["contributions_fees"], itd["contributions_expenses"]) == (Decimal(20), Decimal(5))
    assert qtd["contributions"] == 0
    assert [qtd[k] for k in ("distributions", "distributions_return_of_capital", "distributions_gain")] == [
        Decimal(-300),
        Decimal(-200),
        Decimal(-60),
    ]
    assert (qtd["distributions_income"], qtd["distributions_recallable"]) == (Decimal(-40), Decimal(-100))
    assert "distributions_unsplit" not in qtd  # every distribution is split
    assert (qtd["management_fees"], qtd["fees_gross"], qtd["fees_offset"]) == (Decimal(-16), Decimal(-20), Decimal(4))
    assert qtd["partnership_expenses"] == Decimal(-5)
    assert (qtd["realized_gain"], qtd["unrealized_gain"]) == (Decimal(30), Decimal(100))
    assert (qtd["carried_interest"], qtd["carry_paid"]) == (Decimal(-25), Decimal(-10))
    assert qtd["ending_nav"] == itd["ending_nav"] == Decimal(784)
    assert account.reconciles
    assert account.recallable.amount == Decimal(100)
    # unfunded = 2,000 - 1,000 + 100 recallable (the call's parts are inside the commitment)
    assert account.unfunded.amount == Decimal(1100)
    assert account.figures.adjusted_nav.amount == Decimal(784)  # RVPI/TVPI read the same NAV


def test_the_activity_lines_add_up_to_the_roll_forward_rule_for_every_kind():
    from fundportal.domain.capital_account import ACTIVITY_KEYS, nav_change, statement_lines
    from fundportal.domain.position_entries import CarriedInterest, ManagementFee, RealizedGain

    for item in (
        entry(CapitalCall, 70, Q4),
        entry(Distribution, 30, Q4),
        ManagementFee("B", "P1", "F", "I", Decimal(9), "Completed", as_of_date=Q4, fee_line="waiver"),
        entry(RealizedGain, -12, Q4),
        CarriedInterest("B", "P1", "F", "I", Decimal(-3), "Completed", as_of_date=Q4, carry_stage="accrued"),
    ):
        lines = statement_lines(item)
        assert sum(lines.get(k, Decimal(0)) for k in ACTIVITY_KEYS) == nav_change(item)
