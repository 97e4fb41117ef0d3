"""Reads about funds and investors, as view models: every figure comes from the
position register (one item per position) through `fundportal.domain.figures` / `returns`.

- fund page: one Query (GSI_Entity_Document, GSI_PK = FUND#<fund>) -> every position's register;
- investor page: one Query (GSI_Investor_Position, GSI4_PK = INVESTOR#<id>) -> the LP's registers;
- funds list: one Query of the funds catalog + one Query per fund (totals summed at read time:
  no item holds a fund's totals, so no item is written by every write to a fund).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import NamedTuple

from django.urls import reverse
from moneyed import Money

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound
from fundportal.domain.figures import Figures, percent_called, sum_figures
from fundportal.domain.kinds import validate_id
from fundportal.domain.model import PositionRegister
from fundportal.domain.money import format_money, format_percent, format_ratio, zero
from fundportal.domain.reconciliation import computed_unfunded, total_unfunded, unfunded_differs
from fundportal.domain.records import FundRecord, InvestorRecord
from fundportal.domain.returns import as_percent
from fundportal.domain.valuation import irr_as_of
from fundportal.store.repositories.register import RegisterRepository
from fundportal.web.links import PositionLinks
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
    commitment: Money | None, figures: Figures, called: Decimal | None, irr_value: Decimal | None
) -> LineText:
    pending_called, pending_distributed = figures.called_pending, figures.distributed_pending
    computed = computed_unfunded(commitment, figures)
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
    register_currency: str = ""  # the position register's currency (reconciliation)
    # The amounts of documents not approved yet, apart from the figures ("" when none).
    awaiting: str = ""


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


def position_lines(register: PositionRegister, as_of: date | None = None) -> list[PositionLine]:
    """The register's figures valued as of `as_of` (None: today), a line per currency; each line
    names what awaits approval in its currency (a currency only awaiting approval is named on the
    first line)."""
    lines = []
    awaiting = awaiting_by_currency(register) if register.awaiting_documents else {}
    for figures in register.figures(as_of):
        commitment = register.commitment_on(as_of) if figures.currency == register.currency else None
        called = percent_called(figures.called, commitment)
        irr_value = as_percent(register.irr(figures.currency, as_of))
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
                shown=line_text(commitment, figures, called, irr_value),
                register_currency=register.currency,
                awaiting=awaiting.pop(figures.currency, ""),
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
            )
        )
    return lines


@dataclass(frozen=True, slots=True)
class GroupPage:
    """A fund's or an investor's positions with totals per currency."""

    group_id: str
    lines: list[PositionLine]
    totals: list[TotalLine]
    # The fund's or investor's record (name, vintage, GP / type), read in the same Query; None: none yet.
    record: FundRecord | InvestorRecord | None = None

    @property
    def reconciliation(self) -> GroupReconciliation:
        """Computed vs reported unfunded and the flags, from the lines (no request)."""
        return group_reconciliation(self.lines)


def fund_detail(
    *,
    fund_id: str,
    as_of: date | None = None,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
) -> GroupPage:
    """Every position of the fund with its figures, and fund totals per currency: one Query.
    NotFound outside `scope` (and for LP users: a fund's page shows the other LPs), before any read."""
    validate_id(fund_id, "fund id")
    scope.require_fund(fund_id, "Fund", fund_id)
    found, record = (repository or RegisterRepository()).fund_page(fund_id)
    registers = sorted(found, key=lambda r: r.position_id)
    if not registers:
        raise NotFound("Fund", fund_id)
    on = as_of or date.today()  # every figure as of one date (`fundportal.domain.valuation`)
    return GroupPage(
        group_id=fund_id,
        lines=[line for r in registers for line in position_lines(r, on)],
        totals=totals(registers, on),
        record=record,
    )


def investor_detail(
    *,
    investor_id: str,
    as_of: date | None = None,
    scope: AccessScope = OPERATOR,
    repository: RegisterRepository | None = None,
) -> GroupPage:
    """The LP's positions across funds with their figures, and totals per currency: one Query.
    Only the lines (and totals) of funds `scope` covers; NotFound if none (an LP user: their own
    investors only)."""
    validate_id(investor_id, "investor id")
    scope.require_investor(investor_id)
    found, record = (repository or RegisterRepository()).investor_page(investor_id)
    covered = (r for r in found if scope.covers_position(r.fund_id, r.investor_id))
    registers = sorted(covered, key=lambda r: (r.fund_id, r.position_id))
    if not registers:
        raise NotFound("Investor", investor_id)
    on = as_of or date.today()  # every figure as of one date (`fundportal.domain.valuation`)
    return GroupPage(
        group_id=investor_id,
        lines=[line for r in registers for line in position_lines(r, on)],
        totals=totals(registers, on),
        record=record,
    )


@dataclass(frozen=True, slots=True)
class FundSummary:
    fund_id: str
    url: str
    totals: list[TotalLine]


def fund_list(*, scope: AccessScope = OPERATOR, repository: RegisterRepository | None = None) -> list[FundSummary]:
    """The funds catalog (one Query) and each covered fund's totals (one Query per fund); an
    LP user, who sees no fund's totals, reads nothing."""
    if scope.is_investor or not (scope.all_funds or scope.funds):
        return []
    repository = repository or RegisterRepository()
    return [
        FundSummary(
            fund_id=fund_id,
            url=reverse("funds:detail", args=(fund_id,)),
            totals=totals(repository.fund_positions(fund_id)),
        )
        for fund_id in repository.funds()
        if scope.covers_fund(fund_id)
    ]
