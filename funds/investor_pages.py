"""The investor page 100 positions at a time (Next/Previous, signed cursors).

An investor holds few positions (a large administrator: 20,000 investors, 100,000 positions, 5
on average), so the page reads every register of the investor, as it always did (one Query of
the investor index; a 1 MB Query page holds at least 100 registers of the largest size), and
its totals come from all of them, never from the page shown. The bound this relies on is
`MAX_INVESTOR_POSITIONS`: up to it the page costs at most 10 Query pages; an investor past it
needs an investor summary (maintained like the fund summaries) instead of this read. Rows are in
natural order of (fund, position) (POSITION_2 before POSITION_10), or sorted by a figure column
(`?sort=irr`, `?sort=-irr`: `funds.line_sorting`) across every position, not the page's: the
registers are all in memory. Only the page's 100 positions get their IRRs, unless the sort is by IRR.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import validate_id
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.records import InvestorRecord
from fundportal.domain.register_versions import changed_after, registers_known_at
from fundportal.domain.time_travel import valuation_date
from fundportal.store.repositories.register import RegisterRepository
from fundportal.web.paging import PAGE_ROWS, Pager, place_of, slice_page
from funds.line_sorting import LineSort, natural_line_key, sort_groups
from funds.lines import PositionLine, position_lines, totals
from funds.reconciliation import GroupReconciliation, group_reconciliation
from funds.selectors import GroupPage

MAX_INVESTOR_POSITIONS = 1_000


@dataclass(frozen=True, slots=True)
class InvestorView:
    page: GroupPage  # this page's lines, the totals of every position
    pager: Pager
    positions: int  # every position of the investor within the scope
    registers: list[PositionRegister]  # every one of them (the export writes them all)
    on: date  # the date every figure is valued as of (`?as_of=`, default today)

    @property
    def reconciliation(self) -> GroupReconciliation:
        """Computed vs reported unfunded over every position, not the page's (no request)."""
        return group_reconciliation([line for r in self.registers for line in position_lines(r, self.on)])


def investor_registers(
    *,
    investor_id: str,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
    known_at: datetime | None = None,
) -> list[PositionRegister]:
    """Every register of the investor within `scope`, in position order (fund, position): one
    Query of the investor index. NotFound if none (an LP user: their own investors only).
    `known_at`: as they stood then (one Query more, `investor_registers_and_record`)."""
    return investor_registers_and_record(
        investor_id=investor_id, scope=scope, repository=repository, known_at=known_at
    )[0]


def investor_registers_and_record(
    *,
    investor_id: str,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
    known_at: datetime | None = None,
) -> tuple[list[PositionRegister], InvestorRecord | None]:
    """`investor_registers` and the investor's record (None: none yet), from the same Query (the
    record sorts first in the investor's partition of the index). `known_at`: the registers as
    they stood then, from the investor's register versions replaced since (one Query more,
    `funds.known_at`): one changed since is its state then, one registered since is left out, one
    removed since is back."""
    held = investor_registers_then(investor_id=investor_id, scope=scope, repository=repository, known_at=known_at)
    return held.registers, held.record


@dataclass(frozen=True, slots=True)
class InvestorRegisters:
    """An investor's registers within the scope (as they stood at a moment, when asked), its
    record, and the positions whose register was written since that moment (none: as now)."""

    registers: list[PositionRegister]
    record: InvestorRecord | None
    changed: frozenset[str] = frozenset()


def investor_registers_then(
    *,
    investor_id: str,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
    known_at: datetime | None = None,
) -> InvestorRegisters:
    """`investor_registers_and_record` with the positions written since `known_at` (the
    positions of the register versions replaced since: every write of an entry, an approval or
    a commitment rewrites its register, so any other position counts at `known_at` as now)."""
    validate_id(investor_id, "investor id")
    scope.require_investor(investor_id)
    repository = repository or RegisterRepository()
    found, record = repository.investor_positions_and_record(investor_id)
    changed: frozenset[str] = frozenset()
    if known_at is not None:
        versions = repository.investor_versions_after(investor_id, known_at)
        found = registers_known_at(found, versions, known_at, with_removed=True)
        changed = frozenset(changed_after(versions, known_at))
    covered = (r for r in found if scope.covers_position(r.fund_id, r.investor_id))
    registers = sorted(covered, key=lambda r: natural_line_key(r.fund_id, r.position_id))
    if not registers:
        raise NotFound("Investor", investor_id)
    return InvestorRegisters(registers, record, changed)


def investor_view(
    *,
    investor_id: str,
    cursor: str | None = None,
    as_of: date | None = None,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
    page_size: int = PAGE_ROWS,
    known_at: datetime | None = None,
    sort: LineSort | None = None,
) -> InvestorView:
    """One page of the investor page: the investor's registers and record (one Query), totals over
    all of them, lines for the page's positions. BadCursor/CursorExpired for a bad or old cursor.
    `known_at`: the registers as they stood then (one Query more), valued as of `as_of` (default:
    its day)."""
    sort = sort or LineSort()
    # A cursor is bound to its sort (natural order: the binding links made before sorting had).
    binding: tuple[Any, ...] = ("investor-page", investor_id, *([sort.param] if sort.param else []))
    place = place_of(cursor, binding)
    registers, record = investor_registers_and_record(
        investor_id=investor_id, scope=scope, repository=repository, known_at=known_at
    )
    # Every figure as of one date (`fundportal.domain.valuation`); the investor index holds whole
    # registers (every NAV, the commitment history), so `as_of` costs no further read.
    on = valuation_date(as_of, known_at, date.today())
    # A register's lines, built once: without the IRR (an XIRR each) to sort by another figure.
    sorting: dict[str, list[PositionLine]] = {}

    def lines_of(register: PositionRegister) -> list[PositionLine]:
        if register.position_id not in sorting:
            sorting[register.position_id] = position_lines(register, on, irr=sort.needs_irr)
        return sorting[register.position_id]

    ordered = sort_groups(registers, lambda r: (r.fund_id, r.position_id), lines_of, sort)
    shown, pager = slice_page(ordered, place, binding, page_size)

    def shown_lines(register: PositionRegister) -> list[PositionLine]:
        built = sorting.get(register.position_id)
        return built if built is not None and sort.needs_irr else position_lines(register, on)

    page = GroupPage(
        group_id=investor_id,
        lines=[line for r in shown for line in shown_lines(r)],
        totals=totals(registers, on),
        record=record,
    )
    return InvestorView(page=page, pager=pager, positions=len(registers), registers=registers, on=on)
