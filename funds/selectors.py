"""Reads about funds and investors, as view models: every figure comes from the
position register (one item per position) through `fundportal.domain.figures` / `returns`.

- fund page: the fund's summary shards (one BatchGetItem: the headline totals, pooled IRR) and
  one page of 100 slim register copies (one Query on GSI_Fund_Position, GSI6_PK = FUND#<fund>,
  signed cursors for Next/Previous): two requests whatever the fund's size;
- investor page: one Query (GSI_Investor_Position, GSI4_PK = INVESTOR#<id>) -> the LP's registers;
- funds list: one Query of the funds catalog + one BatchGetItem per 100 summary shards
  (`fundportal.domain.summary`): no fund's registers are read.

The lines and totals they hold are built in `funds.lines`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime

from django.urls import reverse

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import validate_id
from fundportal.domain.ordering import natural_key
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.records import FundRecord, InvestorRecord
from fundportal.domain.register_versions import RegisterVersion, registers_known_at
from fundportal.domain.summary import totals_as_of
from fundportal.domain.time_travel import valuation_date
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.summaries import SummaryRepository
from funds.known_at import fund_known_at, fund_registers_known_at
from funds.lines import PositionLine, ShownRow, TotalLine, position_lines, shown_rows, summary_totals, totals
from funds.reconciliation import GroupReconciliation, group_reconciliation


@dataclass(frozen=True, slots=True)
class GroupPage:
    """A fund's or an investor's positions with totals per currency (a fund's: one page of its
    positions, the totals of all of them from its summary, and the cursors beside the page)."""

    group_id: str
    lines: list[PositionLine]
    totals: list[TotalLine]
    next_cursor: str | None = None
    previous_cursor: str | None = None
    page_number: int = 1
    positions: int = 0  # every position of the group (a fund page shows a page of them)
    # The fund's or investor's record (name, vintage, GP / type), read with no request more; None: none yet.
    record: FundRecord | InvestorRecord | None = None

    @property
    def rows(self) -> list[ShownRow]:
        """The lines as the table shows them (`funds.lines.shown_rows`)."""
        return shown_rows(self.lines)

    @property
    def reconciliation(self) -> GroupReconciliation:
        """Computed vs reported unfunded and the flags, from the lines (no request)."""
        return group_reconciliation(self.lines)


def natural_order(registers: Iterable[PositionRegister]) -> list[PositionRegister]:
    """Registers in natural order of their position ids (POSITION_2 before POSITION_10)."""
    return sorted(registers, key=lambda r: natural_key(r.position_id))


def fund_detail(
    *,
    fund_id: str,
    as_of: date | None = None,
    cursor: str | None = None,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
    summaries: SummaryRepository | None = None,
    known_at: datetime | None = None,
    versions: list[RegisterVersion] | None = None,
) -> GroupPage:
    """The fund's headline totals per currency from its summary and its record (one BatchGetItem
    of its shards and record) and one page of its positions with their figures (one Query, 100 a page, signed cursors).
    NotFound outside `scope` (and for LP users: a fund's page shows the other LPs), before any
    read, and for a fund with neither a summary nor a position. `known_at`: the summary and the
    page's registers as they stood then (`funds.known_at.fund_known_at`: one Query more of the
    fund's register `versions` replaced since, unless given; the lines to read whole for
    `as_of` in the summary's BatchGetItem), valued as of `as_of` (default: its day)."""
    validate_id(fund_id, "fund id")
    scope.require_fund(fund_id, "Fund", fund_id)
    repository = repository or RegisterRepository()
    summaries = summaries or SummaryRepository(getattr(repository, "gateway", None))
    # Every figure of the page as of one date (`fundportal.domain.valuation`).
    on = valuation_date(as_of, known_at, date.today())
    if known_at is None:
        summary, record = summaries.fund_with_record(fund_id)
        page = repository.fund_page(fund_id, cursor)
        registers, found = page.registers, bool(summary)
    else:  # the page and the versions first: the summary's read then takes the lines to read whole
        page = repository.fund_page(fund_id, cursor)
        versions = repository.fund_versions_after(fund_id, known_at) if versions is None else versions
        then = fund_known_at(fund_id, page.registers, versions, known_at, on, summaries)
        summary, record, registers, found = then.summary, then.record, then.registers, then.found
    if not page.registers and not found and cursor is None:
        raise NotFound("Fund", fund_id)
    totals_lines = [summary_totals(t) for t in totals_as_of(summary or {}, on)]
    return GroupPage(
        group_id=fund_id,
        # The page's positions in natural order (POSITION_2 before POSITION_10); the index pages them in its own.
        lines=[line for r in natural_order(registers) for line in position_lines(r, on, irr=False)],
        totals=totals_lines,
        next_cursor=page.next_cursor,
        previous_cursor=page.previous_cursor,
        page_number=page.number,
        positions=max((t.positions for t in totals_lines), default=0),
        record=record,
    )


def investor_detail(
    *,
    investor_id: str,
    as_of: date | None = None,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
    known_at: datetime | None = None,
) -> GroupPage:
    """The LP's positions across funds with their figures, and totals per currency: one Query.
    Only the lines (and totals) of funds `scope` covers; NotFound if none (an LP user: their own
    investors only). `known_at`: the registers as they stood then (one Query more of the
    investor's register versions, as the investor page), valued as of `as_of` (default: its day)."""
    validate_id(investor_id, "investor id")
    scope.require_investor(investor_id)
    repository = repository or RegisterRepository()
    found = repository.investor_positions(investor_id)
    if known_at is not None:
        versions = repository.investor_versions_after(investor_id, known_at)
        found = registers_known_at(found, versions, known_at, with_removed=True)
    covered = (r for r in found if scope.covers_position(r.fund_id, r.investor_id))
    registers = sorted(covered, key=lambda r: (r.fund_id, r.position_id))
    if not registers:
        raise NotFound("Investor", investor_id)
    on = valuation_date(as_of, known_at, date.today())  # every figure as of one date (`fundportal.domain.valuation`)
    return GroupPage(
        group_id=investor_id,
        lines=[line for r in registers for line in position_lines(r, on)],
        totals=totals(registers, on),
    )


@dataclass(frozen=True, slots=True)
class FundSummary:
    fund_id: str
    url: str
    totals: list[TotalLine]
    name: str = ""  # the fund record's name ("": no record yet)


def fund_list(
    *,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
    summaries: SummaryRepository | None = None,
) -> list[FundSummary]:
    """The funds catalog (one Query) and each covered fund's totals from its summary shards and
    its name from its record (one BatchGetItem per 100 keys: a fund's shards and its record); an
    LP user, who sees no fund's totals, reads nothing."""
    if scope.is_investor or not (scope.all_funds or scope.funds):
        return []
    repository = repository or RegisterRepository()
    covered = [fund_id for fund_id in repository.funds() if scope.covers_fund(fund_id)]
    summaries = summaries or SummaryRepository(getattr(repository, "gateway", None))
    found, records = summaries.funds_with_records(covered) if covered else ({}, {})
    on = date.today()
    return [
        FundSummary(
            fund_id=fund_id,
            url=reverse("funds:detail", args=(fund_id,)),
            totals=[summary_totals(t) for t in totals_as_of(found.get(fund_id, {}), on)],
            name=records[fund_id].name if fund_id in records else "",
        )
        for fund_id in covered
    ]


def fund_export(
    *,
    fund_id: str,
    as_of: date | None = None,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
    known_at: datetime | None = None,
) -> tuple[GroupPage, Iterator[list[PositionLine]]]:
    """The full list of a fund's lines for an export: its first page with the totals (as the
    fund page), and the later pages' lines, read one Query at a time as the caller consumes
    them (a streamed CSV never holds the fund in memory). `known_at`: as the fund page, the
    register versions read once for every page."""
    repository = repository or RegisterRepository()
    validate_id(fund_id, "fund id")
    scope.require_fund(fund_id, "Fund", fund_id)  # before any read, as the fund page
    versions = repository.fund_versions_after(fund_id, known_at) if known_at is not None else None
    first = fund_detail(
        fund_id=fund_id, as_of=as_of, scope=scope, repository=repository, known_at=known_at, versions=versions
    )

    def later() -> Iterator[list[PositionLine]]:
        cursor, on = first.next_cursor, valuation_date(as_of, known_at, date.today())
        while cursor:
            page = repository.fund_page(fund_id, cursor)
            registers = page.registers
            if known_at is not None and versions is not None:
                registers = fund_registers_known_at(registers, versions, known_at, on, repository)
            yield [line for r in registers for line in position_lines(r, on, irr=False)]
            cursor = page.next_cursor

    return first, later()
