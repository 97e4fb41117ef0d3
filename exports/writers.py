"""Write a `Table` as CSV or XLSX.

CSV: amounts with exactly their currency's decimals ('500000.00', JPY '50000000'), dates ISO,
ratios to 4 places ('0.1560'), shares as fractions to 6 places ('0.625000' for 62.5 %); a text
cell that begins with = + - @ (or a tab/carriage return) is prefixed with ' so a spreadsheet
never runs it as a formula (OWASP "CSV injection").

XLSX (xlsxwriter): amounts are numbers with the currency's number format ('#,##0.00 "USD"',
the currency's minor unit), ratios unrounded numbers shown to 4 places ('0.0000"x"'), shares
fractions with a percent format ('0.00%': 0.625 shows 62.50%), dates real dates; a bold, frozen
header row with an autofilter over the rows only; the totals per currency below it, in bold
(outside the filter, so sorting or filtering the rows never moves them). Spreadsheet numbers
are binary doubles: amounts up to 15 significant digits (9,999,999,999,999.99) are stored
exactly.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from datetime import date
from decimal import Decimal
from functools import partial
from typing import Any

from fundportal.domain.amounts import excel_format, plain_amount

from .tables import Amount, Cell, Percent, Ratio, Table

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
RATIO_FORMAT = '0.0000"x"'
PERCENT_FORMAT = "0.00%"


def neutralised(text: str) -> str:
    """A text cell that a spreadsheet would read as a formula, made inert."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, Amount):
        return plain_amount(value.value, value.currency)
    if isinstance(value, Ratio):
        return f"{value.value:.4f}"
    if isinstance(value, Percent):
        return f"{value.value:.6f}"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (int, Decimal)):
        return str(value)
    return neutralised(str(value))


def write_csv(stream: Any, table: Table) -> None:
    """The table's rows (not its totals: one row per record, so the file stays a plain list)."""
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow(table.columns)
    for row in table.rows:
        writer.writerow([csv_text(cell) for cell in row])


class _Line:
    """A file-like object whose write returns the line (Django's streaming CSV recipe)."""

    def write(self, value: str) -> str:
        return value


def csv_lines(columns: list[str], rows: Iterable[list[Cell]]) -> Iterable[str]:
    """The CSV of `write_csv`, a line at a time, for a StreamingHttpResponse."""
    writer = csv.writer(_Line(), lineterminator="\r\n")
    yield writer.writerow(columns)
    for row in rows:
        yield writer.writerow([csv_text(cell) for cell in row])


def xlsx_bytes(tables: list[Table]) -> bytes:
    """A workbook with one sheet per table."""
    buffer = io.BytesIO()
    workbook, fmt = _workbook(buffer, {"in_memory": True})
    for table in tables:
        write_sheet(workbook, fmt, table.name, table.columns, table.rows, partial(_totals, table))
    workbook.close()
    return buffer.getvalue()


def _totals(table: Table) -> list[list[Cell]]:
    return table.totals


def xlsx_streamed(
    target: Any, name: str, columns: list[str], rows: Iterable[list[Cell]], totals: Callable[[], list[list[Cell]]]
) -> None:
    """A one-sheet workbook written row by row to `target` (a path or file) in xlsxwriter's
    constant_memory mode: each row goes to disk as it is written, so a long list never sits in
    memory. `totals` is asked for after the last row (it may sum what was streamed)."""
    workbook, fmt = _workbook(target, {"constant_memory": True})
    write_sheet(workbook, fmt, name, columns, rows, totals)
    workbook.close()


def _workbook(target: Any, options: dict[str, Any]) -> tuple[Any, Callable[[str, bool], Any]]:
    import xlsxwriter

    workbook = xlsxwriter.Workbook(target, {**options, "strings_to_formulas": False, "strings_to_urls": False})
    formats: dict[tuple[str, bool], Any] = {}

    def fmt(kind: str, bold: bool) -> Any:
        key = (kind, bold)
        if key not in formats:
            if kind == "header":
                spec: dict[str, Any] = {"bottom": 1}
            elif kind == "date":
                spec = {"num_format": "yyyy-mm-dd"}
            elif kind == "ratio":
                spec = {"num_format": RATIO_FORMAT}
            elif kind == "percent":
                spec = {"num_format": PERCENT_FORMAT}
            elif kind == "text":
                spec = {}
            else:
                spec = {"num_format": excel_format(kind)}
            formats[key] = workbook.add_format({**spec, "bold": bold})
        return formats[key]

    return workbook, fmt


def write_sheet(
    workbook: Any,
    fmt: Callable[[str, bool], Any],
    name: str,
    columns: list[str],
    rows: Iterable[list[Cell]],
    totals: Callable[[], list[list[Cell]]],
) -> None:
    """A sheet: a bold, frozen header row, the rows under an autofilter, then the totals in bold
    below the filter's range."""
    sheet = workbook.add_worksheet(_sheet_name(name))
    sheet.write_row(0, 0, columns, fmt("header", True))
    sheet.freeze_panes(1, 0)
    widths = [max(10, len(c) + 2) for c in columns]
    row_number = 1
    last_row = 0
    for bold, part in ((False, rows), (True, None)):
        for row in part if part is not None else totals():
            for column, cell in enumerate(row):
                _write(sheet, row_number, column, cell, fmt, bold)
                widths[column] = max(widths[column], min(40, _width(cell)))
            row_number += 1
        if not bold:
            last_row = row_number - 1
    sheet.autofilter(0, 0, max(last_row, 1), len(columns) - 1)
    for column, width in enumerate(widths):
        sheet.set_column(column, column, width)


def _write(sheet: Any, row: int, column: int, cell: Cell, fmt: Any, bold: bool) -> None:
    if cell is None or cell == "":
        if bold:
            sheet.write_blank(row, column, None, fmt("text", True))
        return
    if isinstance(cell, Amount):
        # The one float in the project: a spreadsheet number is a double (see the module docstring).
        sheet.write_number(row, column, float(cell.value), fmt(cell.currency, bold))
    elif isinstance(cell, Ratio):
        sheet.write_number(row, column, float(cell.value), fmt("ratio", bold))
    elif isinstance(cell, Percent):
        sheet.write_number(row, column, float(cell.value), fmt("percent", bold))
    elif isinstance(cell, date):
        sheet.write_datetime(row, column, cell, fmt("date", bold))
    elif isinstance(cell, (int, Decimal)):  # counts
        sheet.write_number(row, column, float(cell), fmt("text", bold))
    else:
        sheet.write_string(row, column, str(cell), fmt("text", bold))


def _width(cell: Cell) -> int:
    if isinstance(cell, Amount):
        return len(f"{cell.value:,.2f}") + 6
    return len(str(cell)) + 2 if cell is not None else 0


def _sheet_name(name: str) -> str:
    """Excel sheet names: at most 31 characters, none of []:*?/\\ (ids never have them)."""
    return name[:31] or "Sheet1"
