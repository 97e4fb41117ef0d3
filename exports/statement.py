"""The capital account statement of a position (`/positions/<pos>/statement.pdf?as_of=`): its
entries up to a date, read like the position page (one Query on GSI_Position_Document, all
pages) with the same accumulator (`FiguresBuilder`), the commitment effective at the date
(`PositionRegister.commitment_on`: `fundportal.domain.commitments.commitment_as_of`) and
the same date basis as every page (`fundportal.domain.valuation`: D = the statement's date).
Rendered from a Jinja2 template to PDF with WeasyPrint."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.template.loader import render_to_string

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.entries import counts
from fundportal.domain.errors import NotFound
from fundportal.domain.figures import Figures
from fundportal.domain.kinds import Kind
from fundportal.domain.money import Money
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.ratios import percent_called
from fundportal.domain.returns import as_percent
from fundportal.domain.time_travel import counts_by, value_entries
from fundportal.store.repositories import PositionRepository
from fundportal.web.cells import KIND_LABELS
from positions.as_of import position_as_of


@dataclass(frozen=True, slots=True)
class Flow:
    on: date | None
    document_id: str
    label: str
    amount: Money
    status: str
    counts: bool


@dataclass(frozen=True, slots=True)
class CurrencyStatement:
    figures: Figures
    commitment: Money | None
    percent_called: Decimal | None
    irr_percent: Decimal | None


@dataclass(frozen=True, slots=True)
class Statement:
    position_id: str
    fund_id: str
    investor_id: str
    as_of: date | None
    currencies: list[CurrencyStatement]
    flows: list[Flow]  # every entry up to the date, by flow date (cancelled shown, not counted)


def position_statement(
    *,
    position_id: str,
    as_of: date | None = None,
    known_at: datetime | None = None,
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
) -> Statement:
    """The statement as of `as_of` (None: today) as known at `known_at` (None: now): the same
    entries and figures as the position page's as-of view (`positions.as_of`)."""
    position = position_as_of(
        position_id=position_id, as_of=as_of, known_at=known_at, scope=scope, repository=repository
    )
    entries = position.entries  # approved documents only, dated up to the statement's date
    if not entries:
        raise NotFound("Position", position_id)
    on = position.on  # the statement's date is D of the one date basis
    currencies = []
    for valued in value_entries(entries, on):
        f = valued.figures
        commitment = position.commitment(f.currency)
        currencies.append(
            CurrencyStatement(f, commitment, percent_called(f.called, commitment), as_percent(valued.irr))
        )
    return Statement(
        position_id=position_id,
        fund_id=position.fund_id,
        investor_id=position.investor_id,
        as_of=as_of,
        currencies=currencies,
        flows=[_flow(e, on) for e in sorted(entries, key=_flow_order)],
    )


def _flow_order(entry: PositionEntry) -> tuple[date, str, int]:
    order = [Kind.CAPITAL_CALL, Kind.DISTRIBUTION, Kind.UNFUNDED_COMMITMENT, Kind.NAV]
    return entry.flow_date or date.min, entry.document_id, order.index(entry.kind)


def _flow(entry: PositionEntry, on: date) -> Flow:
    counted = counts(entry.status) and counts_by(entry, on)
    return Flow(entry.flow_date, entry.document_id, KIND_LABELS[entry.kind], entry.money, entry.status, counted)


def statement_pdf(statement: Statement, *, generated_by: str, base_url: str | None = None) -> bytes:
    """The statement rendered from `exports/statement.html` by WeasyPrint."""
    from weasyprint import HTML

    html = render_to_string("exports/statement.html", {"statement": statement, "generated_by": generated_by})
    return HTML(string=html, base_url=base_url).write_pdf()
