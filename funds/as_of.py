"""The fund and investor pages as of a date (`?as_of=`): each line valued as of D from the
position's register as the table holds it (the index copies the page's Query reads may be slim):
one BatchGetItem of the page's registers (100 a request) after the page's own Query. The
register keeps every NAV and the commitment history, so a line as of D has the NAV at or before
D rolled forward, the flows up to D and the commitment effective at D
(`fundportal.domain.valuation`, `PositionRegister.figures`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import date

from fundportal.domain.position_register import PositionRegister
from fundportal.store.repositories.register import RegisterRepository
from fundportal.web.time_travel import TimeTravel
from funds.lines import TotalLine, position_lines, totals
from funds.selectors import GroupPage


def registers_as_of(page: GroupPage, repository: RegisterRepository | None = None) -> list[PositionRegister]:
    """The registers of the page's lines, read in full, in the page's order."""
    ids = list(dict.fromkeys(line.position_id for line in page.lines))
    found = {r.position_id: r for r in (repository or RegisterRepository()).in_full(ids)}
    return [found[p] for p in ids if p in found]


def totals_as_of(registers: Iterable[PositionRegister], on: date) -> list[TotalLine]:
    """A group's totals as of `on` (the function fund-wide summaries can call with full registers)."""
    return totals(registers, on)


def group_as_of(page: GroupPage, on: date, repository: RegisterRepository | None = None) -> GroupPage:
    """`page`'s lines valued as of `on` from their full registers; its totals (already as of `on`:
    the fund's from its summary, `fund_detail(as_of=)`) and its cursors as they are."""
    registers = registers_as_of(page, repository)
    return replace(page, lines=[line for r in registers for line in position_lines(r, on)])


def as_of_page(page: GroupPage, travel: TimeTravel) -> GroupPage:
    """The page as `travel` asks: today's as read, or its lines valued as of its date. As known
    at a moment the selector already valued them (`fund_detail(known_at=)`: the registers as they
    stood then, not as they are now)."""
    return page if travel.as_of is None or travel.known_at is not None else group_as_of(page, travel.as_of)
