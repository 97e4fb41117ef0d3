"""A fund's or investor's reconciliation from its position lines: a register holding amounts in
another currency is flagged once, at its position's first line, whether or not its lines are
next to each other; lines all in their register's currency bring no currency flag."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.money import money
from fundportal.domain.reconciliation import FlagKind
from fundportal.domain.valuation import value_amounts_as_of
from funds.lines import valued_line
from funds.reconciliation import group_reconciliation

ON = date(2025, 12, 31)


def line(position_id: str, currency: str, called: str, *, register_currency: str = "USD"):
    figures = value_amounts_as_of(currency, [Decimal(called), Decimal(0), Decimal(0), Decimal(0)], {}, ON)
    commitment = money(Decimal("1000"), currency) if currency == register_currency else None
    return valued_line(position_id, "FUND_A", "INV_A", figures, commitment, None, register_currency=register_currency)


def currency_flags(lines) -> list[tuple[str, str]]:
    flags = [f.flag for f in group_reconciliation(lines).flags if f.flag.kind is FlagKind.CURRENCY_MISMATCH]
    return [(f.position_id, f.actual) for f in flags]


def test_lines_in_their_registers_currency_bring_no_currency_flag():
    assert currency_flags([line("POSITION_1", "USD", "100"), line("POSITION_2", "USD", "200")]) == []


def test_a_register_with_amounts_in_another_currency_is_flagged_once_at_its_first_line():
    lines = [
        line("POSITION_1", "USD", "100"),
        line("POSITION_2", "USD", "200"),
        line("POSITION_1", "EUR", "50"),  # not next to its position's first line
    ]
    found = group_reconciliation(lines)
    assert currency_flags(lines) == [("POSITION_1", "EUR")]
    # Nothing else to flag: every line is within its commitment and reports no unfunded.
    assert [(f.flag.kind, f.flag.position_id) for f in found.flags] == [(FlagKind.CURRENCY_MISMATCH, "POSITION_1")]
    assert [u.currency for u in found.totals] == ["EUR", "USD"]
