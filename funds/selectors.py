"""Reads about funds and investors, as view models: every figure comes from the
position register (one item per position) through `fundportal.domain.figures` / `returns`.

- fund page: the fund's summary shards (one BatchGetItem: the headline totals, pooled IRR) and
  one page of 100 slim register copies (one Query on GSI_Fund_Position, GSI6_PK = FUND#<fund>,
  signed cursors for Next/Previous): two requests whatever the fund's size;
- investor page: one Query (GSI_Investor_Position, GSI4_PK = INVESTOR#<id>) -> the LP's registers;
- funds list: one Query of the funds catalog + one BatchGetItem per 100 summary shards
  (`fundportal.domain.summary`): no fund's registers are read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import NamedTuple

from django.urls import reverse
from moneyed import Money

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound
from fundportal.domain.figures import Figures, sum_figures
from fundportal.domain.kinds import validate_id
from fundportal.domain.money import format_money, format_percent, format_ratio, zero
from fundportal.domain.ordering import natural_key
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.ratios import percent_called
from fundportal.domain.reconciliation import computed_unfunded, total_unfunded, unfunded_differs
from fundportal.domain.records import FundRecord, InvestorRecord
from fundportal.domain.register_versions import RegisterVersion, registers_known_at
from fundportal.domain.returns import as_percent
from fundportal.domain.summary import SummaryTotals, totals_as_of
from fundportal.domain.time_travel import valuation_date
from fundportal.domain.valuation import irr_as_of
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.summaries import SummaryRepository
from fundportal.web.links import PositionLinks
from funds.known_at import fund_known_at, fund_registers_known_at
from funds.reconciliation import GroupReconciliation, group_reconciliation


class LineText(NamedTuple):
    """A line's figures as shown (formatted once here: a fund page has a thousand lines). A named
    tuple: the rows template unpacks it in one statement instead of looking up thirteen fields."""

    commitment: str
    called: str
    called_pending: str  # "" when nothing is pending
    percent_called: str
    unfunded: str
    unfunded_computed: str  # commitment - called (fundportal.domain.reconciliation)
    unfunded_flag: str  # "flagged" when the reported unfunded differs from the computed one
    distributed: str
    distributed_pending: str
    nav: str
    nav_as_of: str
    adjusted_nav: str  # "" unless calls or distributions since the NAV date roll it forward
    dpi: str
    rvpi: str
    tvpi: str
    irr: str


def line_text(
    commitment: Money | None,
    figures: Figures,
    called: Decimal | None,
    irr_value: Decimal | None,
    computed: Money | None,
) -> LineText:
    """`computed`: the line's `computed_unfunded(commitment, figures)`."""
    pending_called, pending_distributed = figures.called_pending, figures.distributed_pending
    return LineText(
        commitment=format_money(commitment),
        called=format_money(figures.called),
        called_pending=format_money(pending_called) if pending_called.amount else "",
        percent_called=format_percent(called),
        unfunded=format_money(figures.unfunded),
        unfunded_computed=format_money(computed),
        unfunded_flag="flagged" if unfunded_differs(computed, figures.unfunded) else "",
        distributed=format_money(figures.distributed),
        distributed_pending=format_money(pending_distributed) if pending_distributed.amount else "",
        nav=format_money(figures.nav),
        nav_as_of=figures.nav_as_of.isoformat() if figures.nav_as_of else "",
        adjusted_nav=format_money(figures.adjusted_nav) if figures.adjusted_nav != figures.nav else "",
        dpi=format_ratio(figures.dpi),
        rvpi=format_ratio(figures.rvpi),
        tvpi=format_ratio(figures.tvpi),
        irr=format_percent(irr_value),
    )


# A fund page builds a PositionLine per position (a thousand of them): slotted, not frozen, as
# documents.selectors' row view models are (faster to build).
@dataclass(slots=True)
class PositionLine(PositionLinks):
    """One position in one currency: commitment, the figures and the returns."""

    position_id: str
    fund_id: str
    investor_id: str
    currency: str
    commitment: Money | None
    figures: Figures
    percent_called: Decimal | None
    irr_percent: Decimal | None
    shown: LineText
    unfunded_computed: Money | None  # commitment - called (`computed_unfunded`), once per line
    register_currency: str = ""  # the position register's currency (reconciliation)
    # The amounts of documents not approved yet, apart from the figures ("" when none).
    awaiting: str = ""
    irr: Decimal | None = None  # the IRR as a fraction (irr_percent is it rounded for the page)


@dataclass(frozen=True, slots=True)
class TotalLine:
    """A group's totals in one currency (fund, investor): sums of the positions' figures."""

    currency: str
    positions: int
    commitment: Money | None
    figures: Figures
    percent_called: Decimal | None
    irr_percent: Decimal | None
    unfunded_computed: Money | None = None  # the positions' commitment - called, summed
    irr: Decimal | None = None  # the pooled IRR as a fraction (irr_percent is it rounded)


def awaiting_text(figures: Figures) -> str:
    """What documents not approved yet hold, in one currency, as shown beside the figures."""
    parts = [
        f"{label} {format_money(value)}"
        for label, value in (("called", figures.called), ("distributed", figures.distributed))
        if value.amount
    ]
    if figures.nav is not None:
        parts.append(f"NAV {format_money(figures.nav)}")
    if figures.unfunded is not None:
        parts.append(f"unfunded {format_money(figures.unfunded)}")
    return ", ".join(parts)


def awaiting_by_currency(register: PositionRegister) -> dict[str, str]:
    """Per currency, the register's awaiting-approval amounts as shown (empty: nothing awaits)."""
    shown = {f.currency: awaiting_text(f) for f in register.awaiting_figures()}
    return {code: text for code, text in shown.items() if text}


def position_lines(register: PositionRegister, as_of: date | None = None, *, irr: bool = True) -> list[PositionLine]:
    """The register's figures valued as of `as_of` (None: today), a line per currency; each line
    names what awaits approval in its currency (a currency only awaiting approval is named on the
    first line). `irr=False` for a slim copy (the fund page's: no full flow history, no IRR)."""
    lines = []
    awaiting = awaiting_by_currency(register) if register.awaiting_documents else {}
    for figures in register.figures(as_of):
        commitment = register.commitment_on(as_of) if figures.currency == register.currency else None
        called = percent_called(figures.called, commitment)
        rate = register.irr(figures.currency, as_of) if irr else None
        irr_value = as_percent(rate)
        computed = computed_unfunded(commitment, figures)
        lines.append(
            PositionLine(
                position_id=register.position_id,
                fund_id=register.fund_id,
                investor_id=register.investor_id,
                currency=figures.currency,
                commitment=commitment,
                figures=figures,
                percent_called=called,
                irr_percent=irr_value,
                shown=line_text(commitment, figures, called, irr_value, computed),
                unfunded_computed=computed,
                register_currency=register.currency,
                awaiting=awaiting.pop(figures.currency, ""),
                irr=rate,
            )
        )
    if awaiting and lines:
        lines[0].awaiting = "; ".join(filter(None, [lines[0].awaiting, *awaiting.values()]))
    return lines


def totals(registers: Iterable[PositionRegister], as_of: date | None = None) -> list[TotalLine]:
    """Per currency, valued as of `as_of` (None: today): the positions' figures summed
    (`sum_figures`), commitments summed, and the pooled IRR (every position's flows up to the
    date, the positions' adjusted NAVs summed as the terminal value at that date)."""
    registers = list(registers)
    on = as_of or date.today()
    # One pass: each currency's positions (those with figures in it) and their own figures there.
    held: dict[str, list[tuple[PositionRegister, Figures]]] = {}
    for register in registers:
        for own in register.figures(on):
            held.setdefault(own.currency, []).append((register, own))
    lines = []
    for figures in sum_figures(r.figures(on) for r in registers):
        code = figures.currency
        group = held[code]
        commitments = [
            held_commitment
            for r, _ in group
            if r.currency == code and (held_commitment := r.commitment_on(as_of)) is not None
        ]
        commitment = sum(commitments, zero(code)) if commitments else None
        computed = total_unfunded(
            (computed_unfunded(r.commitment_on(as_of) if r.currency == code else None, own) for r, own in group), code
        )
        flows: list[tuple[date, Decimal]] = []
        for register, _ in group:
            flows += register.flows(code)
        pooled = None
        # Every position valued (its adjusted NAV known): otherwise the residual is unknown.
        if all(own.adjusted_nav is not None for _, own in group):
            pooled = irr_as_of(figures, flows)
        lines.append(
            TotalLine(
                currency=code,
                positions=len(group),
                commitment=commitment,
                figures=figures,
                percent_called=percent_called(figures.called, commitment),
                irr_percent=as_percent(pooled),
                unfunded_computed=computed,
                irr=pooled,
            )
        )
    return lines


def summary_totals(summary: SummaryTotals) -> TotalLine:
    """A fund's totals from its summary, as a total line."""
    return TotalLine(
        currency=summary.currency,
        positions=summary.positions,
        commitment=summary.commitment,
        figures=summary.figures,
        percent_called=summary.percent_called,
        irr_percent=as_percent(summary.irr),
        unfunded_computed=summary.unfunded_computed,
        irr=summary.irr,
    )


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
