"""The capital account's kinds (fees, expenses, gains, carry) and the splits of calls and
distributions: each rule of `fundportal.domain.statement_kinds`, hand-computed (no DynamoDB)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from fundportal.domain import summary
from fundportal.domain.errors import InvalidEntry
from fundportal.domain.figures import sum_figures
from fundportal.domain.figures_builder import FiguresBuilder, figures_by_currency
from fundportal.domain.kinds import POSITION_KINDS, STATEMENT_KINDS, Kind
from fundportal.domain.money import money
from fundportal.domain.position_entries import (
    ENTRY_CLASSES,
    CapitalCall,
    CarriedInterest,
    Distribution,
    ManagementFee,
    NetAssetValue,
    PartnershipExpense,
    RealizedGain,
    UnrealizedGain,
)
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.reconciliation import FlagKind, computed_unfunded, nav_roll_forward, unfunded_flags
from fundportal.domain.statement_kinds import called_investment, check_entry, unsplit_distributed
from fundportal.domain.valuation import irr_as_of, value_as_of

Q3, Q4 = date(2025, 9, 30), date(2025, 12, 31)
OCT, NOV = date(2025, 10, 31), date(2025, 11, 30)
COMMON = {"document_id": "DOC001", "position_id": "POSITION_1", "fund_id": "FUND_A", "investor_id": "INVESTOR_1"}


def d(value) -> Decimal:
    return Decimal(str(value))


def usd(amount):
    return money(d(amount), "USD")


def entry(cls, amount, on=Q3, status="Completed", **fields):
    return cls(**COMMON, amount=d(amount), status=status, as_of_date=on, **fields)


def builder_of(*entries) -> FiguresBuilder:
    builder = FiguresBuilder(flows=True)
    for item in entries:
        builder.add(item)
    return builder


def valued(builder: FiguresBuilder, on: date):
    return value_as_of(builder.figures("USD"), builder.dated_flows("USD"), on, builder.dated_activity("USD"))


def test_the_new_kinds_are_position_kinds_with_their_slugs_and_entity_types():
    assert [k.slug for k in STATEMENT_KINDS] == [
        "management_fee",
        "partnership_expense",
        "realized_gain",
        "unrealized_gain",
        "carried_interest",
    ]
    assert [k.entity_type for k in STATEMENT_KINDS] == [
        "ManagementFee",
        "PartnershipExpense",
        "RealizedGain",
        "UnrealizedGain",
        "CarriedInterest",
    ]
    assert POSITION_KINDS[:4] == (Kind.CAPITAL_CALL, Kind.DISTRIBUTION, Kind.UNFUNDED_COMMITMENT, Kind.NAV)
    assert all(k.is_position_entry and ENTRY_CLASSES[k].KIND is k for k in POSITION_KINDS)
    assert Kind.from_slug("carried_interest") is Kind.CARRIED_INTEREST


def test_net_management_fee_is_gross_less_offsets_and_waivers():
    fees = [
        entry(ManagementFee, 25000, fee_line="gross"),
        entry(ManagementFee, 4000, fee_line="offset"),
        entry(ManagementFee, 1000, fee_line="waiver"),
        entry(ManagementFee, 9999, fee_line="gross", status="Cancelled"),
    ]
    [figures] = figures_by_currency(fees)
    activity = figures.activity
    assert activity is not None
    assert (activity.management_fee_gross, activity.management_fee_offset, activity.management_fee_waiver) == (
        d(25000),
        d(4000),
        d(1000),
    )
    assert activity.management_fee_net == d(20000)
    assert activity.money("management_fee_net") == usd(20000)
    assert figures.called == usd(0)  # an allocation is not paid-in


def test_paid_in_keeps_every_call_and_splits_it_into_investment_fees_and_expenses():
    calls = [
        entry(CapitalCall, 100000, management_fee=d(5000), partnership_expense=d(1000)),
        entry(CapitalCall, 50000, status="Pending"),
    ]
    [figures] = figures_by_currency(calls)
    assert figures.called == usd(150000)
    assert calls[0].investment == d(94000)
    assert called_investment(figures.called, figures.activity) == usd(144000)
    assert (figures.activity.called_fees, figures.activity.called_expenses) == (d(5000), d(1000))


def test_distribution_split_and_what_is_not_split():
    [figures] = figures_by_currency(
        [
            entry(Distribution, 60000, return_of_capital=d(40000), gain=d(15000), income=d(5000), recallable=d(10000)),
            entry(Distribution, 20000),
        ]
    )
    activity = figures.activity
    assert (activity.return_of_capital, activity.distributed_gain, activity.distributed_income) == (
        d(40000),
        d(15000),
        d(5000),
    )
    assert activity.recallable == d(10000)
    assert unsplit_distributed(figures.distributed, activity) == usd(20000)


def test_computed_unfunded_adds_back_outside_commitment_parts_and_recallable_capital():
    commitment = usd(1000000)
    entries = [
        entry(CapitalCall, 200000, management_fee=d(8000), partnership_expense=d(2000), outside_commitment=True),
        entry(CapitalCall, 100000, management_fee=d(5000)),  # inside the commitment: no add-back
        entry(Distribution, 50000, recallable=d(30000)),
    ]
    [figures] = figures_by_currency(entries)
    # 1,000,000 - 300,000 + (8,000 + 2,000) + 30,000
    assert computed_unfunded(commitment, figures) == usd(740000)


def test_calls_above_commitment_count_less_their_add_backs():
    commitment = usd(100000)
    [figures] = figures_by_currency([entry(CapitalCall, 105000, management_fee=d(5000), outside_commitment=True)])
    assert computed_unfunded(commitment, figures) == usd(0)
    assert [f.kind for f in unfunded_flags("POSITION_1", commitment, figures)] == []
    [over] = figures_by_currency([entry(CapitalCall, 106000, management_fee=d(5000), outside_commitment=True)])
    [flag] = unfunded_flags("POSITION_1", commitment, over)
    assert (flag.kind, flag.difference) == (FlagKind.ABOVE_COMMITMENT, usd(1000))


def test_nav_rolls_forward_by_flows_and_allocations_but_not_carry_paid():
    builder = builder_of(
        entry(NetAssetValue, 1000000, Q3),
        entry(CapitalCall, 100000, OCT),
        entry(Distribution, 40000, OCT),
        entry(ManagementFee, 5000, OCT, fee_line="gross"),
        entry(ManagementFee, 1000, OCT, fee_line="offset"),
        entry(PartnershipExpense, 2000, NOV),
        entry(RealizedGain, 30000, NOV),
        entry(UnrealizedGain, -10000, NOV),
        entry(CarriedInterest, 4000, NOV, carry_stage="accrued"),
        entry(CarriedInterest, 3000, NOV, carry_stage="paid"),
        entry(RealizedGain, 999, Q3),  # on the NAV's date: inside the reported NAV already
    )
    figures = valued(builder, Q4)
    # 1,000,000 + 100,000 - 40,000 - (5,000 - 1,000) - 2,000 + 30,000 - 10,000 - 4,000
    assert figures.adjusted_nav == usd(1070000)
    # As of October's end, November's allocations are not known yet and not counted.
    october = valued(builder, OCT)
    assert october.adjusted_nav == usd(1056000)
    assert october.activity.realized_gain == d(999)
    assert figures.activity.realized_gain == d(30999)


def test_irr_cash_flows_are_calls_and_distributions_only():
    with_fees = builder_of(
        entry(CapitalCall, 100000, Q3),
        entry(NetAssetValue, 100000, Q3),
        entry(ManagementFee, 2000, OCT),
        entry(RealizedGain, 5000, NOV),
    )
    plain = builder_of(entry(CapitalCall, 100000, Q3), entry(NetAssetValue, 100000, Q3))
    assert with_fees.flows("USD") == plain.flows("USD") == [(Q3, d(-100000))]
    # The allocations reach the IRR only through the terminal value: NAV 100,000 - 2,000 + 5,000.
    figures = valued(with_fees, Q4)
    assert figures.adjusted_nav == usd(103000)
    assert irr_as_of(figures, with_fees.flows("USD")) > irr_as_of(valued(plain, Q4), plain.flows("USD"))


def test_removing_an_entry_is_the_exact_inverse_of_adding_it():
    fee = entry(ManagementFee, 5000, OCT)
    split = entry(Distribution, 100, OCT, return_of_capital=d(100), recallable=d(50))
    builder = builder_of(entry(CapitalCall, 1000, Q3))
    before = builder.state()
    builder.add(fee)
    builder.add(split)
    assert builder.state() != before
    builder.remove(fee)
    builder.remove(split)
    assert builder.state() == before


def test_the_activity_survives_the_registers_stored_state():
    entries = [
        entry(ManagementFee, 5000, OCT),
        entry(CarriedInterest, -2500, NOV, carry_stage="accrued"),
        entry(CapitalCall, 100000, Q3, partnership_expense=d(300)),
    ]
    builder = builder_of(*entries)
    restored = FiguresBuilder.restore(builder.state())
    assert restored.figures("USD") == builder.figures("USD")
    assert restored.figures("USD").activity.carry_accrued == d(-2500)
    assert FiguresBuilder.restore(builder.state(), read_only=True).figures("USD") == builder.figures("USD")


def test_a_document_total_adds_activities_per_currency():
    one = figures_by_currency([entry(PartnershipExpense, 100)])
    two = figures_by_currency([entry(PartnershipExpense, 250)])
    [total] = sum_figures([one, two])
    assert total.activity.partnership_expenses == d(350)


def test_nav_roll_forward_flag_counts_the_allocations_between_two_navs():
    entries = [
        entry(NetAssetValue, 1000, Q3),
        entry(RealizedGain, 200, OCT),
        entry(ManagementFee, 50, OCT),
        entry(NetAssetValue, 1150, Q4),
    ]
    [flag] = nav_roll_forward("POSITION_1", entries)
    assert (flag.expected, flag.difference) == (usd(1150), usd(0))


def test_the_fund_summary_carries_activity_add_backs_and_the_rolled_nav():
    entries = [
        entry(CapitalCall, 100000, Q3, management_fee=d(2000), outside_commitment=True),
        entry(NetAssetValue, 100000, Q3),
        entry(UnrealizedGain, 7000, OCT),
        entry(Distribution, 10000, OCT, recallable=d(10000)),
    ]
    builder = builder_of(*entries)
    register = PositionRegister("POSITION_1", "FUND_A", "INVESTOR_1", commitment=d(500000), rollup=builder.state())
    [line] = summary.totals_as_of(summary.contribution(register), Q4)
    assert line.figures.activity.unrealized_gain == d(7000)
    assert line.unfunded_computed == usd(500000 - 100000 + 2000 + 10000)
    assert line.figures.adjusted_nav == usd(100000 + 7000 - 10000)
    [position] = register.figures(Q4)
    assert position.adjusted_nav == line.figures.adjusted_nav
    assert computed_unfunded(register.commitment_money, position) == line.unfunded_computed
    [before] = summary.totals_as_of(summary.contribution(register), Q3)
    assert before.figures.activity.unrealized_gain == d(0)


@pytest.mark.parametrize(
    ("item", "field", "problem"),
    [
        (entry(ManagementFee, -1, fee_line="gross"), "amount", InvalidEntry.NEGATIVE),
        (entry(ManagementFee, 1, fee_line="rebate"), "fee_line", InvalidEntry.UNKNOWN),
        (entry(PartnershipExpense, -5), "amount", InvalidEntry.NEGATIVE),
        (entry(CarriedInterest, -5, carry_stage="paid"), "amount", InvalidEntry.NEGATIVE),
        (entry(CarriedInterest, 5, carry_stage="owed"), "carry_stage", InvalidEntry.UNKNOWN),
        (entry(CapitalCall, 100, management_fee=d(-1)), "management_fee", InvalidEntry.NEGATIVE),
        (entry(CapitalCall, 100, management_fee=d(101)), "management_fee", InvalidEntry.ABOVE_AMOUNT),
        (
            entry(CapitalCall, 100, management_fee=d(60), partnership_expense=d(50)),
            "partnership_expense",
            InvalidEntry.ABOVE_AMOUNT,
        ),
        (entry(Distribution, 100, return_of_capital=d(60), gain=d(30)), "split", InvalidEntry.SPLIT_MISMATCH),
        (entry(Distribution, 100, income=d(-1), gain=d(101)), "income", InvalidEntry.NEGATIVE),
        (entry(Distribution, 100, recallable=d(101)), "recallable", InvalidEntry.ABOVE_AMOUNT),
        (entry(Distribution, 100, recallable=d(-1)), "recallable", InvalidEntry.NEGATIVE),
    ],
)
def test_bad_entries_are_refused_with_the_field_and_problem(item, field, problem):
    with pytest.raises(InvalidEntry) as raised:
        check_entry(item)
    assert (raised.value.field, raised.value.problem) == (field, problem)


@pytest.mark.parametrize(
    "item",
    [
        entry(RealizedGain, -100),
        entry(UnrealizedGain, -100),
        entry(CarriedInterest, -100, carry_stage="accrued"),
        entry(ManagementFee, 0, fee_line="waiver"),
        entry(CapitalCall, 100, management_fee=d(60), partnership_expense=d(40)),
        entry(Distribution, 100, return_of_capital=d(100), recallable=d(100)),
        entry(Distribution, 100, recallable=d(20)),
    ],
)
def test_good_entries_pass(item):
    check_entry(item)
