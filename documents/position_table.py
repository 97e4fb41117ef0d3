"""The positions table of a document page: natural order of ids, sorting by any
amount column and filtering by position, investor or status, all on the rows the page's one
Query already returned (no further request), with the subtotal of the rows shown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from fundportal.domain.figures import Figures, sum_figures
from fundportal.domain.kinds import ENTRY_STATUSES, POSITION_KINDS
from fundportal.domain.ordering import natural_key

if TYPE_CHECKING:
    from documents.selectors import FiguresText, PositionRow

# ?sort= values: each entry column (by the entry's amount, in POSITION_KINDS order, as the
# row's cells are) and DPI; "position" is natural order.
_CELL_INDEX = {kind.slug: index for index, kind in enumerate(POSITION_KINDS)}
SORT_COLUMNS = ("position", *_CELL_INDEX, "dpi")


@dataclass(frozen=True, slots=True)
class TableQuery:
    """What `?sort=&order=&position=&investor=&status=` asked for (validated by the view)."""

    sort: str = "position"
    descending: bool = False
    position: str = ""  # part of the position id, any case
    investor: str = ""  # part of the investor id, any case
    status: str = ""  # rows with at least one entry in this status

    @property
    def filtered(self) -> bool:
        return bool(self.position or self.investor or self.status)

    def keeps(self, row: PositionRow) -> bool:
        if self.position and self.position.lower() not in row.position_id.lower():
            return False
        if self.investor and self.investor.lower() not in row.investor_id.lower():
            return False
        return not self.status or any(cell is not None and cell.status == self.status for cell in row.cells)


def _sort_value(row: PositionRow, column: str) -> Decimal | None:
    if column == "dpi":
        return next((f.dpi for f in row.figures if f.dpi is not None), None)
    cell = row.cells[_CELL_INDEX[column]]
    return None if cell is None else cell.amount.amount


@dataclass(frozen=True, slots=True)
class PositionTable:
    rows: list[PositionRow]
    total_count: int
    subtotal: list[Figures] | None  # figures of the rows shown, when a filter hides some

    @property
    def shown_count(self) -> int:
        return len(self.rows)


def arrange(rows: list[PositionRow], query: TableQuery) -> PositionTable:
    """Filter, then sort (natural order; by a column: missing values last, ties in natural order)."""
    shown = sorted((row for row in rows if query.keeps(row)), key=lambda row: natural_key(row.position_id))
    if query.sort != "position":
        present = [row for row in shown if _sort_value(row, query.sort) is not None]
        missing = [row for row in shown if _sort_value(row, query.sort) is None]
        present.sort(key=lambda row: _sort_value(row, query.sort), reverse=query.descending)
        shown = present + missing
    elif query.descending:
        shown.reverse()
    subtotal = sum_figures([row.figures for row in shown]) if query.filtered else None
    return PositionTable(rows=shown, total_count=len(rows), subtotal=subtotal)


STATUS_CHOICES = ENTRY_STATUSES

# A shown cell: `EntryCell.shown` (counts, amount_text, status, restated_text, parts_text); None
# where the position has no entry of the column's kind.
ShownCell = tuple[bool, str, str, str, str] | None
# (position_id, document_id, fund_id, investor_id, the shown columns' cells, figures as shown)
TableRow = tuple[str, str, str, str, list[ShownCell], list["FiguresText"]]


def table_rows(rows: Sequence[PositionRow], columns: Sequence[int]) -> list[TableRow]:
    """What the table's row macro shows of each row, as plain tuples it unpacks in its loops
    (no attribute or item look-up in the template): the row's ids, the cells of the shown
    `columns` (indexes into the row's cells) and its figures as shown."""
    table: list[TableRow] = []
    for row in rows:
        cells = row.cells
        shown_cells = [None if (cell := cells[index]) is None else cell.shown for index in columns]
        table.append((row.position_id, row.document_id, row.fund_id, row.investor_id, shown_cells, row.shown))
    return table
