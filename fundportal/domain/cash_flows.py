"""A position's IRR cash flows as a schedule a spreadsheet can rebuild the IRR from: each flow
date's net amount (calls negative, distributions positive, `FiguresBuilder.flows`) up to the
valuation date, then the adjusted NAV there as the terminal value. XIRR over the schedule's
dates and amounts is the IRR `fundportal.domain.valuation.irr_as_of` gives on the same entries
(the portal's IRR; it is rounded to a basis point there)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from .figures_builder import FiguresBuilder
from .position_entries import PositionEntry
from .time_travel import counts_by
from .valuation import irr_as_of, value_as_of


@dataclass(frozen=True, slots=True)
class CashFlowSchedule:
    """One currency's flows up to `on` and the terminal value there (None: no NAV, no IRR)."""

    currency: str
    flows: list[tuple[date, Decimal]]
    on: date
    terminal_value: Decimal | None
    irr: Decimal | None


def cash_flow_schedules(entries: Iterable[PositionEntry], on: date) -> list[CashFlowSchedule]:
    """The schedule per currency (by code) of a position's counted `entries`, valued as of `on`."""
    builder = FiguresBuilder(flows=True)
    currencies = set()
    for entry in entries:
        currencies.add(entry.currency)
        if counts_by(entry, on):
            builder.add(entry)
    schedules = []
    for code in sorted(currencies):
        flows = builder.flows(code)
        valued = value_as_of(builder.figures(code), builder.dated_flows(code), on, builder.dated_activity(code))
        schedules.append(
            CashFlowSchedule(
                currency=code,
                flows=[(day, amount) for day, amount in flows if day <= on],
                on=on,
                terminal_value=None if valued.adjusted_nav is None else valued.adjusted_nav.amount,
                irr=irr_as_of(valued, flows),
            )
        )
    return schedules
