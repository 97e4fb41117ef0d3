"""Reading notice files: an XLSX's unzipped size is bounded before it is parsed, and number cells
come out as the shortest decimal text of their value (validation then decides)."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from openpyxl import Workbook

from imports.reader import COLUMNS, MAX_PART_BYTES, MAX_UNZIPPED_BYTES, FileError, read_rows


def _workbook(amount: object) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.append(list(COLUMNS))
    header = ["NOTICE_1", "Q1", "FUND_N", "2026-03-31", "USD", "NP_000", "NI_000", "capital_call"]
    sheet.append([*header, amount, "Pending"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _with_part(data: bytes, name: str, size: int) -> bytes:
    """`data` (a workbook) with one more part of `size` bytes of one repeated letter (it
    compresses about a thousandfold: a decompression bomb)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info, source.read(info))
        with target.open(name, "w", force_zip64=True) as part:
            chunk = b"a" * (1024 * 1024)
            for _ in range(size // len(chunk)):
                part.write(chunk)
    return out.getvalue()


def test_a_part_larger_than_the_limit_is_refused_before_parsing_and_quickly():
    data = _with_part(_workbook("1,000.00"), "xl/sharedStrings2.xml", MAX_PART_BYTES + 1024 * 1024)
    assert len(data) < 2 * 1024 * 1024  # small upload, huge once unzipped
    started = time.perf_counter()
    with pytest.raises(FileError) as refused:
        read_rows(data, "bomb.xlsx")
    assert time.perf_counter() - started < 1.0
    assert "unzipped" in str(refused.value) and "MB" in str(refused.value)


def test_parts_adding_up_to_more_than_the_limit_are_refused():
    data = _workbook("1,000.00")
    parts = MAX_UNZIPPED_BYTES // MAX_PART_BYTES + 1
    for n in range(parts):
        data = _with_part(data, f"xl/media/filler{n}.bin", MAX_PART_BYTES - 1024 * 1024)
    with pytest.raises(FileError) as refused:
        read_rows(data, "bomb.xlsx")
    assert "unzipped" in str(refused.value)


def test_a_file_that_is_not_a_zip_is_refused_as_not_a_workbook():
    with pytest.raises(FileError) as refused:
        read_rows(b"PK\x03\x04 not really", "broken.xlsx")
    assert "not a readable XLSX workbook" in str(refused.value)


@pytest.mark.parametrize(("cell", "text"), [(1234.5, "1234.5"), (1e25, "1" + "0" * 25), (1000, "1000")])
def test_number_cells_are_read_as_their_shortest_decimal(cell, text):
    (row,) = read_rows(_workbook(cell), "n.xlsx")
    assert row.values["amount"] == text and "amount" in row.numeric
