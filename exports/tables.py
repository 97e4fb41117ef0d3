"""The rows every export writes (CSV and XLSX alike), built from the pages' own view models
(`documents.selectors.document_overview`, `positions.selectors.position_report`): no figure is
computed here, each is read from a `Figures` (fundportal/domain/figures.py).

A table is a header and rows of typed cells: `Amount` (Decimal + currency), `Ratio`, text or a
date. The CSV writer prints them with exactly the currency's decimals; the XLSX writer stores
real numbers with the currency's number format."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from documents.selectors import DocumentPage, PositionRow
from fundportal.domain.cash_flows import CashFlowSchedule
from fundportal.domain.figures import Figures
from fundportal.domain.kinds import POSITION_KINDS, Kind
from fundportal.domain.model import Document
from fundportal.domain.ordering import natural_key
from fundportal.domain.ratios import called_fraction, dpi, ratio, rvpi, tvpi
from fundportal.domain.records import RecordNames
from fundportal.web.cells import EntryCell

TOTAL = "TOTAL"
TOTAL_NAME = ""  # a totals row's name cells are empty: the TOTAL marker sits in the id columns
NAME_CHUNK = 100  # rows whose names one BatchGetItem looks up (100 keys at most)


@dataclass(frozen=True, slots=True)
class Amount:
    value: Decimal
    currency: str


@dataclass(frozen=True, slots=True)
class Ratio:
    value: Decimal  # a multiple (DPI, TVPI), unrounded: shown to 4 places ("x" on pages)


@dataclass(frozen=True, slots=True)
class Percent:
    value: Decimal  # a fraction, unrounded: 0.625 is shown "62.50%" (never 62.5 as a number)


Cell = Amount | Ratio | Percent | str | date | int | Decimal | None


@dataclass
class Table:
    name: str
    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    totals: list[list[Cell]] = field(default_factory=list)  # one row per currency, after the rows


def _amount(value: Any) -> Amount | None:
    """A Money (or None) as an Amount cell."""
    return None if value is None else Amount(value.amount, value.currency.code)


def _ratio(value: Decimal | None) -> Ratio | None:
    return None if value is None else Ratio(value)


def _percent(value: Decimal | None) -> Percent | None:
    return None if value is None else Percent(value)


def _entry_cells(cells: list[EntryCell | None]) -> list[Cell]:
    out: list[Cell] = []
    for cell in cells:
        out.extend([_amount(cell.amount), cell.status] if cell is not None else [None, ""])
    return out


KIND_COLUMNS = [name for kind in POSITION_KINDS for name in (kind.slug, f"{kind.slug}_status")]
# A document's own figures: its calls and distributions (pending included) and their ratio. Its
# NAV is the "nav" entry column already, and a TVPI of one document's flows means nothing.
FIGURE_COLUMNS = ["called", "distributed", "unfunded", "dpi"]


def _figure_cells(f: Figures) -> list[Cell]:
    return [_amount(f.called), _amount(f.distributed), _amount(f.unfunded), _ratio(dpi(f, exact=True))]


def by_position(rows: Iterable[Any]) -> list[Any]:
    """Rows (with a position_id) in natural order, POSITION_2 before POSITION_10 (a stable sort:
    one position's lines keep their currency order)."""
    return sorted(rows, key=lambda row: natural_key(row.position_id))


DOCUMENT_COLUMNS = [
    "document_id",
    "as_of_date",
    "fund_id",
    "fund_name",
    "investor_id",
    "investor_name",
    "position_id",
    "currency",
    *KIND_COLUMNS,
    *FIGURE_COLUMNS,
]


def document_rows(
    document: Document, rows: Iterable[PositionRow], names: Callable[[list[Any]], RecordNames] | None = None
) -> Iterator[list[Cell]]:
    """A row per position and currency of a document, as `rows` come (streamed or read whole).
    `names`: looks up the names of a chunk of 100 rows' funds and investors (one BatchGetItem)."""
    as_of = document.as_of_date
    for chunk, found in named_chunks(rows, names):
        for row in chunk:
            yield from _document_row_cells(document, as_of, row, found)


def named_chunks(
    rows: Iterable[Any], names: Callable[[list[Any]], RecordNames] | None, size: int = NAME_CHUNK
) -> Iterator[tuple[list[Any], RecordNames]]:
    """`rows` in chunks of `size`, each with the names `names` finds for it (none: no names)."""
    chunk: list[Any] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk, names(chunk) if names else RecordNames()
            chunk = []
    if chunk:
        yield chunk, names(chunk) if names else RecordNames()


def _document_row_cells(
    document: Document, as_of: date | None, row: PositionRow, names: RecordNames
) -> Iterator[list[Cell]]:
    for f in row.figures or []:
        yield [
            document.document_id,
            as_of,
            row.fund_id,
            names.fund(row.fund_id),
            row.investor_id,
            names.investor(row.investor_id),
            row.position_id,
            f.currency,
            *_entry_cells(row.cells),
            *_figure_cells(f),
        ]


def document_totals(document: Document, totals: list[Figures]) -> list[list[Cell]]:
    """The document's totals per currency, below its rows."""
    blank = [None, ""] * len(POSITION_KINDS)
    return [
        [
            document.document_id,
            document.as_of_date,
            document.fund_id,
            "",
            TOTAL,
            "",
            TOTAL,
            f.currency,
            *blank,
            *_figure_cells(f),
        ]
        for f in totals
    ]


def document_table(page: DocumentPage) -> Table:
    """The document page: a row per position (and currency), totals per currency."""
    document = page.document
    return Table(
        name=document.document_id,
        columns=list(DOCUMENT_COLUMNS),
        rows=list(document_rows(document, page.rows)),
        totals=document_totals(document, page.totals),
    )


def _flow_dates(row: Any) -> list[Cell]:
    """When the row's call and distribution move cash (their due date, else the document's date):
    the dates IRR counts them on."""
    return [entry.flow_date if (entry := row.entry(kind)) is not None else None for kind in FLOW_KINDS]


FLOW_KINDS = (Kind.CAPITAL_CALL, Kind.DISTRIBUTION)


def position_table(report: Any, names: RecordNames | None = None) -> Table:
    """The position history (`position_report`): a row per document with its flows' dates and the
    running figures of its currency, totals per currency; `names`: the fund's and investor's
    names beside their ids."""
    names = names or RecordNames()
    held_by = [report.fund_id, names.fund(report.fund_id), report.investor_id, names.investor(report.investor_id)]
    table = Table(
        name=report.position_id,
        columns=[
            "position_id",
            "fund_id",
            "fund_name",
            "investor_id",
            "investor_name",
            "document_id",
            "as_of_date",
            "currency",
            *KIND_COLUMNS,
            "call_due_date",
            "distribution_date",
            "called_to_date",
            "distributed_to_date",
            "dpi_to_date",
            "dpi_settled_to_date",
        ],
    )
    for row in report.rows:
        to_date = row.to_date
        table.rows.append(
            [
                report.position_id,
                *held_by,
                row.document_id,
                row.as_of_date,
                row.currency,
                *_entry_cells(row.cells),
                *_flow_dates(row),
                _amount(to_date.called),
                _amount(to_date.distributed),
                _ratio(dpi(to_date, exact=True)),
                _ratio(ratio(to_date.distributed_settled, to_date.called_settled, exact=True)),
            ]
        )
    blank = [None, ""] * len(POSITION_KINDS)
    for f in report.figures:
        table.totals.append(
            [
                report.position_id,
                *held_by,
                TOTAL,
                None,
                f.currency,
                *blank,
                None,
                None,
                _amount(f.called),
                _amount(f.distributed),
                _ratio(dpi(f, exact=True)),
                _ratio(ratio(f.distributed_settled, f.called_settled, exact=True)),
            ]
        )
    return table


CASH_FLOW_COLUMNS = ["position_id", "currency", "date", "cash_flow", "what", "irr"]


def cash_flow_table(position_id: str, schedules: list[CashFlowSchedule]) -> Table:
    """IRR's cash flows per currency (calls negative, distributions positive) and the adjusted NAV
    on the valuation date as the last flow: Excel's XIRR over a currency's dates and cash_flow
    gives the portal's IRR (`fundportal.domain.cash_flows`); the IRR itself as the total."""
    table = Table(name="cash_flows", columns=list(CASH_FLOW_COLUMNS))
    for schedule in schedules:
        code = schedule.currency
        for day, amount in schedule.flows:
            what = "distribution" if amount > 0 else "capital_call"
            table.rows.append([position_id, code, day, Amount(amount, code), what])
        if schedule.terminal_value is not None:
            table.rows.append([position_id, code, schedule.on, Amount(schedule.terminal_value, code), "nav_as_of"])
        table.totals.append([position_id, code, schedule.on, None, "IRR", _percent(schedule.irr)])
    return table


def fund_table(page: Any, names: RecordNames | None = None) -> Table:
    """The fund page (`funds.selectors.fund_detail`): a row per position and currency in natural
    order with commitment, figures and returns from the register, totals per currency; every
    figure as of the page's date (`as_of`), with the NAV's own date and the adjusted NAV RVPI and
    TVPI use. Shares (called / commitment, IRR) are fractions, ratios unrounded. `names`: the
    fund and investor names beside their ids ("" without a record)."""
    names = names or RecordNames()
    table = Table(
        name=page.group_id,
        columns=[
            "fund_id",
            "fund_name",
            "investor_id",
            "investor_name",
            "position_id",
            "currency",
            "commitment",
            "called",
            "called_share",
            "unfunded",
            "distributed",
            "nav",
            "nav_as_of",
            "adjusted_nav",
            "as_of",
            "dpi",
            "rvpi",
            "tvpi",
            "irr",
        ],
    )

    def cells(line: Any) -> list[Cell]:
        f = line.figures
        return [
            _amount(line.commitment),
            _amount(f.called),
            _percent(called_fraction(f.called, line.commitment)),
            _amount(f.unfunded),
            _amount(f.distributed),
            _amount(f.nav),
            f.nav_as_of,
            _amount(f.adjusted_nav),
            f.as_of,
            _ratio(dpi(f, exact=True)),
            _ratio(rvpi(f, exact=True)),
            _ratio(tvpi(f, exact=True)),
            _percent(line.irr),
        ]

    for line in by_position(page.lines):
        table.rows.append(
            [
                line.fund_id,
                names.fund(line.fund_id),
                line.investor_id,
                names.investor(line.investor_id),
                line.position_id,
                line.currency,
                *cells(line),
            ]
        )
    for line in page.totals:
        table.totals.append([page.group_id, TOTAL_NAME, TOTAL, "", TOTAL, line.currency, *cells(line)])
    return table
