"""The cash-flow schedule an export writes: XIRR over it is the portal's IRR."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pyxirr

from fundportal.domain.cash_flows import cash_flow_schedules
from fundportal.domain.kinds import Kind
from tests.unit.test_returns import D, E

Q3, Q4 = date(2025, 9, 30), date(2025, 12, 31)
POSITION_1 = [
    E(Kind.CAPITAL_CALL, D(500000), "Pending", document_id="DOC001", as_of_date=Q3),
    E(Kind.DISTRIBUTION, D(75000), document_id="DOC001", as_of_date=Q3),
    E(Kind.NAV, D(445000), "Active", document_id="DOC001", as_of_date=Q3),
    E(Kind.CAPITAL_CALL, D(750000), document_id="DOC002", as_of_date=Q4),
    E(Kind.DISTRIBUTION, D(120000), "Pending", document_id="DOC002", as_of_date=Q4),
]


def test_the_schedule_ends_with_the_nav_rolled_forward_and_xirr_over_it_is_the_irr():
    """As of 2025-12-31: net -425,000 on 2025-09-30, -630,000 on 2025-12-31, and the adjusted
    NAV 445,000 + 750,000 - 120,000 = 1,075,000 then; IRR 20.0 % (tests/unit/test_valuation.py)."""
    (usd,) = cash_flow_schedules(POSITION_1, Q4)
    assert usd.flows == [(Q3, Decimal(-425000)), (Q4, Decimal(-630000))]
    assert (usd.on, usd.terminal_value) == (Q4, Decimal(1075000))
    dates = [day for day, _ in usd.flows] + [usd.on]
    amounts = [float(amount) for _, amount in usd.flows] + [float(usd.terminal_value)]
    assert usd.irr is not None and abs(Decimal(repr(pyxirr.xirr(dates, amounts))) - usd.irr) <= Decimal("0.00005")
    assert usd.irr.quantize(Decimal("0.001")) == Decimal("0.200")


def test_flows_due_after_the_date_are_left_out_and_without_a_nav_there_is_no_terminal_value():
    (usd,) = cash_flow_schedules([e for e in POSITION_1 if e.kind != Kind.NAV], Q3)
    assert usd.flows == [(Q3, Decimal(-425000))]
    assert usd.terminal_value is None and usd.irr is None
