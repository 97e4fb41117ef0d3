"""The API's response shapes (pydantic, via django-ninja: the OpenAPI schema is generated from
them) and the functions that turn the selectors' view models into them. Money is
`{"amount": "1250000.00", "currency": "USD"}` with the amount an exact decimal string; ratios and
percentages are decimal strings too; dates ISO.

The functions build plain dicts, keys in their schema's field order, never the schema objects:
a pydantic object per value (17 of them in a line) cost more than the rest of an endpoint. The
body is checked against the endpoint's schema by ninja, or sent as built (`api.rendering`)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from moneyed import Money
from ninja import Schema

from fundportal.domain.figures import Figures
from fundportal.domain.reconciliation import Flag
from fundportal.web.flags import FlagList

Json = dict[str, Any]  # a response body's object, JSON-ready but for dates (ninja's encoder writes them ISO)


class MoneyOut(Schema):
    amount: str
    currency: str


def amount_text(amount: Decimal) -> str:
    """Exact: at least two decimals, never rounded ("1250000" -> "1250000.00", "0.125" kept).
    Written out as it is held, then padded to two decimals: the text `quantize` to the cent
    would give for an amount with fewer, without a Decimal operation (a fund's lines hold
    eleven thousand amounts)."""
    text = format(amount, "f")
    point = text.find(".")
    if point < 0:
        return text + ".00"
    if len(text) - point == 2:
        return text + "0"
    return text


def money_out(value: Money | None) -> Json | None:
    return None if value is None else amount_out(value)


def amount_out(value: Money) -> Json:
    """A `MoneyOut`."""
    return {"amount": amount_text(value.amount), "currency": value.currency.code}


def decimal_out(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def date_out(value: date | None) -> str | date | None:
    """A date as the renderer writes it ("2025-09-30", ISO), written here: the renderer hands
    every date to ninja's encoder, a Python call each (a fund's lines hold three hundred). A
    datetime is left to that encoder (its text differs from `isoformat`)."""
    return value.isoformat() if type(value) is date else value


class FiguresOut(Schema):
    """One currency's figures (`fundportal.domain.figures.Figures`)."""

    currency: str
    called: MoneyOut
    called_settled: MoneyOut
    called_pending: MoneyOut
    distributed: MoneyOut
    distributed_settled: MoneyOut
    distributed_pending: MoneyOut
    unfunded: MoneyOut | None
    unfunded_as_of: date | None
    nav: MoneyOut | None
    nav_as_of: date | None
    as_of: date | None
    adjusted_nav: MoneyOut | None
    dpi: str | None
    dpi_settled: str | None
    rvpi: str | None
    tvpi: str | None


def figures_out(f: Figures) -> Json:
    return {
        "currency": f.currency,
        "called": amount_out(f.called),
        "called_settled": amount_out(f.called_settled),
        "called_pending": amount_out(f.called_pending),
        "distributed": amount_out(f.distributed),
        "distributed_settled": amount_out(f.distributed_settled),
        "distributed_pending": amount_out(f.distributed_pending),
        "unfunded": money_out(f.unfunded),
        "unfunded_as_of": date_out(f.unfunded_as_of),
        "nav": money_out(f.nav),
        "nav_as_of": date_out(f.nav_as_of),
        "as_of": date_out(f.as_of),
        "adjusted_nav": money_out(f.adjusted_nav),
        "dpi": decimal_out(f.dpi),
        "dpi_settled": decimal_out(f.dpi_settled),
        "rvpi": decimal_out(f.rvpi),
        "tvpi": decimal_out(f.tvpi),
    }


class LineOut(Schema):
    """A position in one currency, as a fund's, an investor's or a position's page shows it."""

    position_id: str
    fund_id: str
    investor_id: str
    currency: str
    commitment: MoneyOut | None
    percent_called: str | None
    irr_percent: str | None
    unfunded_computed: MoneyOut | None
    awaiting_approval: str
    figures: FiguresOut


def line_out(line: Any) -> Json:
    """From a `funds.lines.PositionLine` (its `unfunded_computed`: `computed_unfunded` of its
    commitment and figures, computed once when the line was built)."""
    return {
        "position_id": line.position_id,
        "fund_id": line.fund_id,
        "investor_id": line.investor_id,
        "currency": line.currency,
        "commitment": money_out(line.commitment),
        "percent_called": decimal_out(line.percent_called),
        "irr_percent": decimal_out(line.irr_percent),
        "unfunded_computed": money_out(line.unfunded_computed),
        "awaiting_approval": line.awaiting,
        "figures": figures_out(line.figures),
    }


class TotalOut(Schema):
    """A group's totals in one currency (`funds.lines.TotalLine`)."""

    currency: str
    positions: int
    commitment: MoneyOut | None
    percent_called: str | None
    irr_percent: str | None
    unfunded_computed: MoneyOut | None
    figures: FiguresOut


def total_out(total: Any) -> Json:
    return {
        "currency": total.currency,
        "positions": total.positions,
        "commitment": money_out(total.commitment),
        "percent_called": decimal_out(total.percent_called),
        "irr_percent": decimal_out(total.irr_percent),
        "unfunded_computed": money_out(total.unfunded_computed),
        "figures": figures_out(total.figures),
    }


class FlagOut(Schema):
    """A reconciliation flag: its data and its sentence (`fundportal.messages.explain_flag`)."""

    kind: str
    informational: bool
    text: str
    position_id: str
    document_id: str
    expected: MoneyOut | str | None
    actual: MoneyOut | str | None
    difference: MoneyOut | None
    since: date | None
    on: date | None


def _either(value: Money | str | None) -> Json | str | None:
    return money_out(value) if isinstance(value, Money) else value


def flag_out(flag: Flag, text: str) -> Json:
    return {
        "kind": flag.kind.value,
        "informational": flag.informational,
        "text": text,
        "position_id": flag.position_id,
        "document_id": flag.document_id,
        "expected": _either(flag.expected),
        "actual": _either(flag.actual),
        "difference": money_out(flag.difference),
        "since": flag.since,
        "on": flag.on,
    }


def flags_out(flags: FlagList) -> list[Json]:
    return [flag_out(line.flag, line.text) for line in flags]


class UnfundedLineOut(Schema):
    position_id: str
    currency: str
    commitment: MoneyOut | None
    called: MoneyOut
    computed: MoneyOut | None
    reported: MoneyOut | None
    reported_as_of: date | None
    difference: MoneyOut | None
    flagged: bool


class ReconciliationOut(Schema):
    unfunded: list[UnfundedLineOut]
    flags: list[FlagOut]


def unfunded_lines(lines: list) -> list[dict]:
    """`UnfundedLineOut`s of a reconciliation's computed vs reported unfunded lines."""
    return [
        {
            "position_id": u.position_id,
            "currency": u.currency,
            "commitment": money_out(u.commitment),
            "called": money_out(u.called),
            "computed": money_out(u.computed),
            "reported": money_out(u.reported),
            "reported_as_of": u.reported_as_of,
            "difference": money_out(u.difference),
            "flagged": u.flagged,
        }
        for u in lines
    ]


class EntryOut(Schema):
    """A position's entry in a document: kind, amount, status, and whether it counts."""

    kind: str
    amount: MoneyOut
    status: str
    counts: bool
    pending: bool
    due_date: date | None


def entries_out(cells: list[Any]) -> list[Json]:
    """From a row's `fundportal.web.cells.EntryCell`s (None: no entry of that kind)."""
    return [
        {
            "kind": cell.entry.kind.value,
            "amount": amount_out(cell.amount),
            "status": cell.status,
            "counts": cell.counts,
            "pending": cell.pending,
            "due_date": cell.entry.due_date,
        }
        for cell in cells
        if cell is not None
    ]


class DocumentOut(Schema):
    document_id: str
    title: str
    fund_id: str
    as_of_date: date | None
    status: str
    currency: str
    document_type: str
    approval: str
    revision: int
    updated_at: datetime | None
    updated_by: str | None


def document_out(document: Any) -> Json:
    return {
        "document_id": document.document_id,
        "title": document.title,
        "fund_id": document.fund_id,
        "as_of_date": document.as_of_date,
        "status": document.status,
        "currency": document.currency,
        "document_type": document.document_type,
        "approval": document.approval,
        "revision": document.revision,
        "updated_at": document.updated_at,
        "updated_by": document.updated_by,
    }


class Page(Schema):
    """Every list: its items and the link to the next page (None on the last)."""

    next: str | None


class ProblemOut(Schema):
    """RFC 9457 problem details."""

    type: str
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
