"""Read a notice file (CSV or XLSX) into rows of text, whatever the format: validation then sees
one shape. XLSX is read with openpyxl (read-only); its numbers and dates are turned into the
text a person would have typed, never through a float's repr guess: a numeric cell is taken at
the shortest decimal that round-trips (what Excel shows), and validation then checks it against
the currency's decimals like any typed amount."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

# One kind's own columns (a call's parts, a distribution's split, a fee line, a carry stage),
# in the template's order (`imports.entry_columns` reads them).
KIND_COLUMNS = (
    "management_fee",
    "partnership_expense",
    "outside_commitment",
    "return_of_capital",
    "gain",
    "income",
    "recallable",
    "fee_line",
    "carry_stage",
)
COLUMNS = (
    "document_id",
    "title",
    "fund_id",
    "as_of_date",
    "currency",
    "position_id",
    "investor_id",
    "kind",
    "amount",
    "status",
    "due_date",
    "new_position",
    "document_type",
    *KIND_COLUMNS,
)
# Optional columns: a missing one reads as empty (`new_position`: the row opens a position not
# yet registered in its fund; `document_type`: the type of the documents the file creates; the
# kinds' own columns, `imports.entry_columns.PART_COLUMNS`).
OPTIONAL = (
    "due_date",
    "new_position",
    "document_type",
    *KIND_COLUMNS,
)
REQUIRED = tuple(c for c in COLUMNS if c not in OPTIONAL)
MAX_ROWS = 100_000
MAX_BYTES = 20 * 1024 * 1024
# An XLSX is a zip: 20 MB of it may unzip to gigabytes (one 2 GB shared string in 1.95 MB).
# The parts' declared sizes are checked before openpyxl opens it (zipfile never inflates a part
# beyond its declared size); a 100,000-row notice unzips to well under these.
MAX_UNZIPPED_BYTES = 256 * 1024 * 1024
MAX_PART_BYTES = 128 * 1024 * 1024
MAX_PARTS = 1000


class FileError(ValueError):
    """The file as a whole cannot be read (format, header, size); the message says why."""


@dataclass(frozen=True, slots=True)
class RawRow:
    number: int  # the row number a spreadsheet shows (header = 1)
    values: dict[str, str]
    numeric: frozenset[str] = frozenset()  # columns that were number cells (XLSX), not typed text


def kind_of(filename: str) -> str:
    name = filename.lower()
    if name.endswith(".csv"):
        return "csv"
    if name.endswith(".xlsx"):
        return "xlsx"
    raise FileError(f"'{filename}' is neither .csv nor .xlsx.")


def read_rows(data: bytes, filename: str) -> list[RawRow]:
    """Every non-empty row of the file, numbered as a spreadsheet shows them (header = row 1)."""
    if len(data) > MAX_BYTES:
        raise FileError(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB.")
    table = _csv(data) if kind_of(filename) == "csv" else _xlsx(data)
    try:
        header = next(table)
    except StopIteration:
        raise FileError("The file is empty.") from None
    names = [str(h or "").strip().lower() for h in header]
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise FileError(f"Missing column(s): {', '.join(missing)}. The header must be: {','.join(COLUMNS)}.")
    unknown = [n for n in names if n and n not in COLUMNS]
    if unknown:
        raise FileError(f"Unknown column(s): {', '.join(unknown)}. The header must be: {','.join(COLUMNS)}.")
    if len(set(n for n in names if n)) != len([n for n in names if n]):
        raise FileError("A column appears twice in the header.")
    rows = []
    for number, cells in enumerate(table, start=2):
        pairs = [(name, cell) for name, cell in zip(names, cells, strict=False) if name]
        values = {name: _text(cell) for name, cell in pairs}
        if not any(values.values()):
            continue  # blank lines (and trailing empty spreadsheet rows) are not rows
        numeric = frozenset(n for n, c in pairs if isinstance(c, (int, float)) and not isinstance(c, bool))
        rows.append(RawRow(number, {c: values.get(c, "") for c in COLUMNS}, numeric))
        if len(rows) > MAX_ROWS:
            raise FileError(f"The file has more than {MAX_ROWS:,} rows.")
    if not rows:
        raise FileError("The file has a header but no rows.")
    return rows


def _csv(data: bytes) -> Iterator[Sequence[object]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileError("The CSV file is not UTF-8 text.") from None
    return iter(csv.reader(io.StringIO(text, newline="")))


def _bounded_zip(data: bytes) -> None:
    """Refuse an XLSX whose parts would unzip beyond the limits, from the zip's directory alone
    (nothing is inflated): a decompression bomb costs a worker no time and no memory."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        raise FileError("The file is not a readable XLSX workbook (not a zip archive).") from None
    mb = 1024 * 1024
    if len(parts) > MAX_PARTS:
        raise FileError(f"The workbook has more than {MAX_PARTS} parts; save it again as a plain XLSX.")
    largest = max(parts, key=lambda part: part.file_size, default=None)
    if largest is not None and largest.file_size > MAX_PART_BYTES:
        raise FileError(
            f"The workbook's part {largest.filename[:80]} is {largest.file_size // mb:,} MB unzipped; "
            f"a part may be at most {MAX_PART_BYTES // mb} MB. Split the notice or save it as CSV."
        )
    total = sum(part.file_size for part in parts)
    if total > MAX_UNZIPPED_BYTES:
        raise FileError(
            f"The workbook is {total // mb:,} MB unzipped; at most {MAX_UNZIPPED_BYTES // mb} MB is read. "
            "Split the notice or save it as CSV."
        )


def _xlsx(data: bytes) -> Iterator[Sequence[object]]:
    from openpyxl import load_workbook

    _bounded_zip(data)
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many types for a file that is not a workbook
        raise FileError(f"The file is not a readable XLSX workbook ({type(error).__name__}).") from None
    sheet = workbook.worksheets[0]
    return sheet.iter_rows(values_only=True)


def _text(cell: object) -> str:
    if cell is None:
        return ""
    if isinstance(cell, datetime):
        return cell.date().isoformat() if cell.time() == datetime.min.time() else cell.isoformat()
    if isinstance(cell, date):
        return cell.isoformat()
    if isinstance(cell, bool):
        return str(cell)
    if isinstance(cell, int):
        return str(cell)
    if isinstance(cell, float):
        # repr() is the shortest text that reads back as the same float: what Excel displays.
        return format(Decimal(repr(cell)), "f")
    return str(cell).strip()
