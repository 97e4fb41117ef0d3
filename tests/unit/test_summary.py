"""The fund summary rule (`fundportal.domain.summary`): a register's contribution, deltas that add
up exactly, shards that combine in any split, and totals valued as of a date that agree with the
totals summed from the registers themselves (`funds.lines.totals`)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from fundportal.domain import summary
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue, UnfundedCommitment
from fundportal.domain.position_register import PositionRegister
from funds.lines import totals

AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
Q1, Q2, Q3, Q4 = date(2025, 3, 31), date(2025, 6, 30), date(2025, 9, 30), date(2025, 12, 31)


def _entry(cls, position_id, amount, on, status="Completed", currency="USD", document_id=None):
    return cls(
        document_id or f"DOC_{on.isoformat()}",
        position_id=position_id,
        fund_id="FUND_A",
        investor_id=position_id.replace("P", "I"),
        amount=Decimal(amount),
        currency=currency,
        status=status,
        as_of_date=on,
        updated_at=AT,
    )


def _register(position_id, entries, commitment="1000000", currency="USD"):
    builder = FiguresBuilder(flows=True)
    for entry in entries:
        builder.add(entry)
    register = PositionRegister(
        position_id, "FUND_A", position_id.replace("P", "I"), currency=currency, commitment=Decimal(commitment)
    )
    return register.with_builder(builder)


def _fund():
    return [
        _register(
            "P1",
            [
                _entry(CapitalCall, "P1", "400000", Q1),
                _entry(CapitalCall, "P1", "100000", Q4, status="Pending"),
                _entry(Distribution, "P1", "50000", Q3),
                _entry(NetAssetValue, "P1", "420000", Q2),
                _entry(UnfundedCommitment, "P1", "600000", Q1),
            ],
        ),
        _register(
            "P2",
            [
                _entry(CapitalCall, "P2", "250000", Q2),
                _entry(Distribution, "P2", "20000", Q4, status="Pending"),
                _entry(NetAssetValue, "P2", "260000", Q3),
            ],
            commitment="500000",
        ),
    ]


def test_a_change_moves_the_summary_by_exactly_its_delta():
    before = _fund()[0]
    builder = before.builder()
    builder.add(_entry(CapitalCall, "P1", "75000", Q3))
    after = before.with_builder(builder)
    moved = summary.add(summary.contribution(before), summary.delta(before, after))
    assert moved == summary.contribution(after)
    assert summary.delta(after, after) == {}
    assert summary.delta(after, None) == summary.negate(summary.contribution(after))


def test_registering_and_removing_every_position_leaves_nothing():
    registers = _fund()
    deltas = [summary.delta(None, r) for r in registers] + [summary.delta(r, None) for r in registers]
    assert summary.add(*deltas) == {}


def test_shards_combine_to_the_same_summary_whatever_the_split():
    registers = [*_fund(), _register("P3", [_entry(CapitalCall, "P3", "10", Q1)])]
    whole = summary.add(*(summary.contribution(r) for r in registers))
    split = [summary.add(summary.contribution(registers[0])), summary.add(*map(summary.contribution, registers[1:]))]
    assert summary.add(*split) == whole


def test_flows_are_held_by_date_bounded_by_the_distinct_dates_not_the_positions():
    many = [
        _register(f"P{n}", [_entry(CapitalCall, f"P{n}", "100", Q1), _entry(CapitalCall, f"P{n}", "5", Q2)])
        for n in range(50)
    ]
    whole = summary.add(*(summary.contribution(r) for r in many))
    dated = {on for (_, what, on) in whole if what == summary.CALL}
    assert dated == {Q1, Q2}
    assert whole[("USD", summary.CALL, Q1)] == Decimal(5000) and whole[("USD", summary.POSITIONS, None)] == 50


def test_totals_from_the_summary_agree_with_the_totals_summed_from_the_registers():
    registers = _fund()
    whole = summary.add(*(summary.contribution(r) for r in registers))
    for on in (Q2, Q3, Q4, date(2026, 3, 31)):
        (from_summary,) = summary.totals_as_of(whole, on)
        (from_registers,) = totals(registers, on)
        assert from_summary.positions == from_registers.positions == 2
        assert from_summary.commitment == from_registers.commitment
        assert from_summary.figures.called == from_registers.figures.called, on
        assert from_summary.figures.called_pending == from_registers.figures.called_pending, on
        assert from_summary.figures.distributed == from_registers.figures.distributed, on
        assert from_summary.figures.nav == from_registers.figures.nav, on
        assert from_summary.figures.adjusted_nav == from_registers.figures.adjusted_nav, on
        assert from_summary.figures.unfunded == from_registers.figures.unfunded
        assert from_summary.percent_called == from_registers.percent_called
        assert from_summary.irr is not None or on < Q3  # P2's NAV is dated Q3: unknown before
        if from_registers.irr_percent is not None:
            assert round(from_summary.irr * 100, 1) == from_registers.irr_percent


def test_a_position_without_a_nav_at_the_date_leaves_the_pooled_irr_unknown():
    registers = _fund()
    whole = summary.add(*(summary.contribution(r) for r in registers))
    (at_q2,) = summary.totals_as_of(whole, Q2)  # P2's NAV is dated Q3
    assert at_q2.irr is None and at_q2.figures.nav.amount == Decimal(420000)


def test_amounts_awaiting_approval_are_summed_apart():
    register = _fund()[0]
    apart = FiguresBuilder(flows=True)
    apart.add(_entry(CapitalCall, "P1", "9000", Q4, document_id="DOC_DRAFT"))
    waiting = register.with_awaiting(apart, ("DOC_DRAFT",))
    (line,) = summary.totals_as_of(summary.contribution(waiting), Q4)
    assert line.awaiting_called.amount == Decimal(9000)
    assert line.figures.called.amount == Decimal(500000)  # the counted part only


def test_currencies_are_never_added_together():
    usd = _fund()[0]
    eur = _register("P9", [_entry(CapitalCall, "P9", "300", Q1, currency="EUR")], commitment="1000", currency="EUR")
    lines = summary.totals_as_of(summary.add(summary.contribution(usd), summary.contribution(eur)), Q4)
    assert [(t.currency, t.positions, t.figures.called.amount) for t in lines] == [
        ("EUR", 1, Decimal(300)),
        ("USD", 1, Decimal(500000)),
    ]
    assert lines[0].commitment.amount == Decimal(1000)
