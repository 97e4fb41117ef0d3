"""The capital account statement of a position (`/positions/<pos>/statement.pdf?as_of=`): its
entries up to a date, read like the position page (one Query on GSI_Position_Document, all
pages) with the same accumulator (`FiguresBuilder`), the commitment effective at the date
(`PositionRegister.commitment_on`: `fundportal.domain.commitments.commitment_as_of`) and
the same date basis as every page (`fundportal.domain.valuation`: D = the statement's date).
Rendered from a Jinja2 template to PDF with WeasyPrint."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.template.loader import render_to_string

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.entries import counts
from fundportal.domain.errors import NotFound
from fundportal.domain.figures import Figures, FiguresBuilder, percent_called
from fundportal.domain.kinds import Kind
from fundportal.domain.model import PositionEntry
from fundportal.domain.money import Money
from fundportal.domain.returns import as_percent
from fundportal.domain.valuation import irr_as_of, value_as_of
from fundportal.store.repositories import PositionRepository
from fundportal.web.cells import KIND_LABELS
from positions.selectors import approved_entries


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
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
) -> Statement:
    entries, register = (repository or PositionRepository()).entries_with_register(position_id)
    if entries:  # NotFound outside the scope, like a position with no entries
        scope.require_position(entries[0].fund_id, entries[0].investor_id, "Position", position_id)
    entries = approved_entries(entries, register)  # documents awaiting approval are not stated
    if as_of is not None:
        entries = [e for e in entries if e.as_of_date is None or e.as_of_date <= as_of]
    if not entries:
        raise NotFound("Position", position_id)
    on = as_of or date.today()  # the statement's date is D of the one date basis
    builder = FiguresBuilder(flows=True)
    for entry in entries:
        if _moved_by(entry, on):  # a call or distribution due after D is shown, not counted
            builder.add(entry)
    currencies = []
    for counted in builder.by_currency():
        f = value_as_of(counted, builder.dated_flows(counted.currency), on)
        commitment = register.commitment_on(as_of) if register is not None and register.currency == f.currency else None
        rate = irr_as_of(f, builder.flows(f.currency))
        currencies.append(CurrencyStatement(f, commitment, percent_called(f.called, commitment), as_percent(rate)))
    first = entries[0]
    return Statement(
        position_id=position_id,
        fund_id=first.fund_id,
        investor_id=first.investor_id,
        as_of=as_of,
        currencies=currencies,
        flows=[_flow(e, on) for e in sorted(entries, key=_flow_order)],
    )


def _flow_order(entry: PositionEntry) -> tuple[date, str, int]:
    order = [Kind.CAPITAL_CALL, Kind.DISTRIBUTION, Kind.UNFUNDED_COMMITMENT, Kind.NAV]
    return entry.flow_date or date.min, entry.document_id, order.index(entry.kind)


def _moved_by(entry: PositionEntry, on: date) -> bool:
    """False for a call or distribution whose flow date is after `on` (not in the figures as of
    `on`, `fundportal.domain.valuation`); True for every other entry."""
    flow_date = entry.flow_date
    return entry.kind not in _FLOW_KINDS or flow_date is None or flow_date <= on


_FLOW_KINDS = frozenset((Kind.CAPITAL_CALL, Kind.DISTRIBUTION))


def _flow(entry: PositionEntry, on: date) -> Flow:
    counted = counts(entry.status) and _moved_by(entry, on)
    return Flow(entry.flow_date, entry.document_id, KIND_LABELS[entry.kind], entry.money, entry.status, counted)


def statement_pdf(statement: Statement, *, generated_by: str, base_url: str | None = None) -> bytes:
    """The statement rendered from `exports/statement.html` by WeasyPrint."""
    from weasyprint import HTML

    html = render_to_string("exports/statement.html", {"statement": statement, "generated_by": generated_by})
    return HTML(string=html, base_url=base_url).write_pdf()
