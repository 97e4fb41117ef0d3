"""Reads about one position across documents (`GSI_Position_Document`), as view models shared
by the position page, its CSV export and `position_report`. Every figure is per currency and
comes from `fundportal.domain.figures`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.urls import reverse

from fundportal.charts import ChartPoint
from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.carry import from_carry, to_carry
from fundportal.domain.commitments import change_in_effect
from fundportal.domain.entries import CANCELLED
from fundportal.domain.errors import BadCursor, NotFound
from fundportal.domain.figures import Figures
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import POSITION_KINDS, STATEMENT_KINDS, Kind
from fundportal.domain.model import utcnow
from fundportal.domain.money import Money, money
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.store.repositories import PositionRepository
from fundportal.store.repositories.documents import PositionInDocument
from fundportal.web.cells import EntryCell, cells
from fundportal.web.document_types import type_label
from funds.lines import PositionLine, position_lines
from positions.reconciliation import PositionReconciliation, position_reconciliation, row_entries

FLOW_COLUMNS = POSITION_KINDS.index(STATEMENT_KINDS[0])  # the kinds before the allocations
COLUMN = {kind: index for index, kind in enumerate(POSITION_KINDS)}  # a kind's column in `cells`


@dataclass(slots=True)  # not frozen: see fundportal.web.cells.EntryCell
class DocumentRow:
    """The position in one document, with its currency's running figures after it."""

    document_id: str
    position_id: str
    as_of_date: date | None
    currency: str
    cells: list[EntryCell | None]
    to_date: Figures
    # The document's title and type as its entries copy them (None: not yet backfilled).
    document_title: str | None = None
    document_type: str | None = None

    @property
    def shown(self) -> tuple[str, str, date | None, str, str, str, list[EntryCell | None], list[EntryCell], Figures]:
        """(document_id, position_id, as_of_date, title, type, type in words, flow cells,
        allocation cells, to_date): what the position page's row shows, unpacked in one statement
        by the row macro; the title falls back to the document id, the type's words to "—"."""
        cells = self.cells
        return (
            self.document_id,
            self.position_id,
            self.as_of_date,
            self.document_title or self.document_id,
            self.document_type or "",
            (type_label(self.document_type) if self.document_type else None) or "—",
            cells[:FLOW_COLUMNS],
            [cell for cell in cells[FLOW_COLUMNS:] if cell is not None],
            self.to_date,
        )

    @property
    def type_label(self) -> str | None:
        """The type in words, as the document list shows it (None: no copy)."""
        return type_label(self.document_type) if self.document_type else None

    @property
    def url(self) -> str:
        """The position in that document."""
        return reverse("documents:position", args=(self.document_id, self.position_id))

    def entry(self, kind: Kind) -> PositionEntry | None:
        cell = self.cells[COLUMN[kind]]
        return cell.entry if cell else None

    @property
    def entries(self) -> list[PositionEntry]:
        """The position's entries in the document, in column order."""
        return [cell.entry for cell in self.cells if cell is not None]

    @property
    def flow_cells(self) -> list[EntryCell | None]:
        """The columns of the seed's kinds and NAV (one each, None where absent)."""
        return self.cells[:FLOW_COLUMNS]

    @property
    def allocation_cells(self) -> list[EntryCell]:
        """The fees, expenses, gains and carry the position holds in the document (one column)."""
        return [cell for cell in self.cells[FLOW_COLUMNS:] if cell is not None]


def document_rows(
    entries: Iterable[PositionEntry], builder: FiguresBuilder, *, with_edit_urls: bool = False, text: bool = True
) -> list[DocumentRow]:
    """Group entries by document, order by (as-of date, document id), accumulate running figures.

    The position index sorts by entry kind, then document; rows regroup per document. `builder`
    starts from what earlier pages carried and ends with the figures through the last row.
    A document's as-of date is its first entry's that has one (in column order); its title and
    type those of its first entry holding the copies. `text` False: the cells' texts left empty
    (`fundportal.web.cells.entry_cell`), for a reader that never shows them (the API).
    """
    groups: dict[str, PositionInDocument] = {}
    for entry in entries:
        group = groups.get(entry.document_id)
        if group is None:
            group = groups[entry.document_id] = PositionInDocument(entry.document_id, entry.position_id)
        group.by_kind[entry.kind] = entry

    placed = []
    for group in groups.values():
        held = group.entries
        as_of = next((e.as_of_date for e in held if e.as_of_date), None)
        placed.append((as_of or date.min, group.document_id, as_of, group, held))
    placed.sort(key=lambda p: (p[0], p[1]))

    rows = []
    add = builder.add
    for _, document_id, as_of, group, held in placed:
        for entry in held:
            add(entry)
        currency = held[0].currency
        copy = next((e for e in held if e.document_type is not None), None)
        rows.append(
            DocumentRow(
                document_id=document_id,
                position_id=group.position_id,
                as_of_date=as_of,
                currency=currency,
                cells=cells(group, editable=with_edit_urls, text=text),
                to_date=builder.figures(currency),
                document_title=copy.document_title if copy else None,
                document_type=copy.document_type if copy else None,
            )
        )
    return rows


@dataclass(frozen=True, slots=True)
class Chart:
    currency: str
    points: list[ChartPoint]
    chart_id: str


@dataclass(frozen=True, slots=True)
class PositionHistory:
    position_id: str
    fund_id: str
    investor_id: str
    rows: list[DocumentRow]
    start: list[Figures]  # carried from earlier pages (empty on the first)
    figures: list[Figures]  # through the last row of this page, per currency
    charts: list[Chart]  # one per currency
    page_number: int
    next_cursor: str | None
    newer_cursor: str | None
    # The position register, first in the first page's Query: the headline figures,
    # commitment and returns of the whole position (not summed from the rows in view).
    register: PositionRegister | None = None
    headline: list[PositionLine] = field(default_factory=list)
    commitments: list[CommitmentLine] = field(default_factory=list)  # from the register, newest first

    @property
    def is_paged(self) -> bool:
        return bool(self.next_cursor or self.newer_cursor or self.page_number > 1)

    @property
    def reconciliation(self) -> PositionReconciliation:
        """Computed vs reported unfunded and the flags, from this page's register and rows."""
        return position_reconciliation(self.position_id, self.register, self.headline, row_entries(self.rows))


@dataclass(frozen=True, slots=True)
class CommitmentLine:
    """One dated change of the commitment, as the position page and the commitment form list it;
    `effective_on` None: recorded before commitments were dated (effective from the start)."""

    effective_on: date | None
    amount: Money
    reason: str
    recorded_by: str
    recorded_at: datetime | None
    effective_today: bool


def commitment_lines(register: PositionRegister) -> list[CommitmentLine]:
    """The register's commitment history, newest effective first; the line in effect today marked."""
    history = register.commitment_history
    in_effect = change_in_effect(history, utcnow().date())
    return [
        CommitmentLine(
            None if c.undated else c.effective_on,
            money(c.amount, register.currency),
            c.reason,
            c.recorded_by,
            c.recorded_at,
            c is in_effect,
        )
        for c in reversed(history)
    ]


def _reported_nav(row: DocumentRow) -> Decimal | None:
    """The NAV the row's document reports (None: none, or a cancelled one)."""
    entry = row.entry(Kind.NAV)
    return None if entry is None or entry.status == CANCELLED else entry.amount


def charts_of(rows: list[DocumentRow]) -> list[Chart]:
    """A chart per currency of `rows`: cumulative called vs distributed, and the NAVs reported."""
    return [
        Chart(
            currency=currency,
            points=[
                ChartPoint(r.as_of_date, r.to_date.called.amount, r.to_date.distributed.amount, _reported_nav(r))
                for r in rows
                if r.as_of_date and r.currency == currency
            ],
            chart_id=f"chart-{currency.lower()}" if index else "chart",
        )
        for index, currency in enumerate(sorted({r.currency for r in rows}))
    ]


def position_history(
    *,
    position_id: str,
    cursor: str | None = None,
    page_size: int | None = None,
    with_edit_urls: bool = False,
    text: bool = True,
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
) -> PositionHistory:
    """One page (one Query) of a position across documents, with running figures per currency.
    The next page's cursor carries this page's figures, so totals stay exact across pages, plus
    a bounded back-reference (this page's start key and starting figures) for the "previous
    page" link, never the whole history: a cursor's size does not grow with the page number.
    A later page re-derives the figures before it from the entries as they are now (read in its
    one Query), so a kept link never shows totals an edit since made untrue; cursors also
    expire (`CURSOR_MAX_AGE`). `text` False: the rows' cells without their texts (the API)."""
    page = (repository or PositionRepository()).page(position_id, cursor=cursor, limit=page_size)
    if not page.entries and page.register is None and cursor is None:
        raise NotFound("Position", position_id)
    held_by = page.register or (page.entries[0] if page.entries else None)
    if held_by is None:  # a later page with nothing on it: nothing says whose position it is
        if not scope.all_funds:
            raise NotFound("Position", position_id)
    else:
        scope.require_position(held_by.fund_id, held_by.investor_id, "Position", position_id)
    with_edit_urls = with_edit_urls and held_by is not None and scope.can_edit(held_by.fund_id)
    if page.earlier is not None:  # the earlier pages' figures as the entries are now
        earlier = FiguresBuilder()
        for entry in page.earlier:
            earlier.add(entry)
        start = earlier.by_currency()
    else:
        start = _carried(page.carried)
    builder = FiguresBuilder(start)
    rows = document_rows(page.entries, builder, with_edit_urls=with_edit_urls, text=text)
    figures = builder.by_currency()
    page_number = _page_number(page.carried)
    here = {"k": page.start_reference, "figures": page.carried.get("figures") or [], "n": page.before}
    next_cursor = (
        page.next_cursor({"figures": [to_carry(f) for f in figures], "page": page_number + 1, "back": here})
        if page.has_next
        else None
    )
    back: dict[str, Any] = page.carried["back"] if isinstance(page.carried.get("back"), dict) else {}
    # Page 2's previous page is page 1 (no cursor: the template links to it); further back, the
    # reference rebuilds the previous page's cursor (whose own "previous" is then the first page).
    newer_cursor = (
        page.cursor_at(
            back.get("k"), {"figures": back.get("figures") or [], "page": page_number - 1, "n": back.get("n")}
        )
        if page_number > 2
        else None
    )
    first = page.entries[0] if page.entries else None
    charts = charts_of(rows)
    register = page.register
    return PositionHistory(
        position_id=position_id,
        fund_id=register.fund_id if register else first.fund_id if first else "",
        investor_id=register.investor_id if register else first.investor_id if first else "",
        rows=rows,
        start=start,
        figures=figures,
        charts=charts,
        page_number=page_number,
        next_cursor=next_cursor,
        newer_cursor=newer_cursor,
        register=register,
        headline=position_lines(register) if register else [],
        commitments=commitment_lines(register) if register else [],
    )


def _page_number(carried: dict[str, Any]) -> int:
    try:
        number = int(carried.get("page") or 1)
    except (TypeError, ValueError) as error:
        raise BadCursor() from error
    if number < 1:
        raise BadCursor()
    return number


def _carried(carried: dict[str, Any]) -> list[Figures]:
    """Figures a (signed) cursor carried; malformed → BadCursor."""
    try:
        return [from_carry(data) for data in carried.get("figures") or []]
    except (ValueError, TypeError) as error:
        raise BadCursor() from error


@dataclass(frozen=True, slots=True)
class PositionReport:
    position_id: str
    entries: list[PositionEntry]  # by as-of date, document, kind (approved documents only)
    rows: list[DocumentRow]
    figures: list[Figures]
    fund_id: str = ""
    investor_id: str = ""


def position_report(
    *,
    position_id: str,
    kind: Kind | None = None,
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
) -> PositionReport:
    """Every entry of a position (all pages) with running and final figures per currency:
    the CSV export and `position_report` both read this."""
    repository = repository or PositionRepository()
    entries, register = repository.entries_with_register(position_id, kind)
    if not entries:
        raise NotFound("Position", position_id)
    fund_id, investor_id = entries[0].fund_id, entries[0].investor_id
    scope.require_position(fund_id, investor_id, "Position", position_id)
    entries = approved_entries(entries, register)
    entries.sort(key=lambda e: (e.as_of_date or date.min, e.document_id, e.kind.value))
    builder = FiguresBuilder()
    rows = document_rows(entries, builder)
    return PositionReport(
        position_id=position_id,
        entries=entries,
        rows=rows,
        figures=builder.by_currency(),
        fund_id=fund_id,
        investor_id=investor_id,
    )


def approved_entries(entries: list[PositionEntry], register: PositionRegister | None) -> list[PositionEntry]:
    """The entries of approved documents only (the register names the others): exports,
    statements and `position_report` count what the headline figures count."""
    if register is None or not register.awaiting_documents:
        return entries
    return [e for e in entries if register.counts_document(e.document_id)]
