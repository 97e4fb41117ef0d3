"""The notice template offered for download (`/documents/import/template.csv` and `.xlsx`).

Optional columns: `new_position` (yes/true/1 on a row whose position its fund does not hold
yet: without it such a row is refused, so a mistyped position id never opens an LP position)
and `document_type` (the type of a document the file creates; empty: from what it holds)."""

from __future__ import annotations

import csv
import io

from .reader import COLUMNS

EXAMPLE_ROWS = (
    ("CALL_2026Q1", "Q1 2026 capital call", "FUND_A", "2026-03-31", "USD", "POSITION_1", "INVESTOR_1",
     "capital_call", "1,250,000.00", "Pending", "2026-04-15", "", "capital_call_notice"),
    ("CALL_2026Q1", "Q1 2026 capital call", "FUND_A", "2026-03-31", "USD", "POSITION_1", "INVESTOR_1",
     "unfunded_commitment", "250,000.00", "Active", "", "", "capital_call_notice"),
    ("CALL_2026Q1", "Q1 2026 capital call", "FUND_A", "2026-03-31", "USD", "POSITION_2", "INVESTOR_2",
     "nav", "812,500.50", "Active", "", "", "capital_call_notice"),
    # A position the fund does not hold yet is opened only by saying so: new_position = yes.
    ("CALL_2026Q1", "Q1 2026 capital call", "FUND_A", "2026-03-31", "USD", "POSITION_9", "INVESTOR_9",
     "capital_call", "500,000.00", "Pending", "2026-04-15", "yes", "capital_call_notice"),
)  # fmt: skip


def template_csv() -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    writer.writerows(EXAMPLE_ROWS)
    return out.getvalue()


def template_xlsx() -> bytes:
    """The same header and rows; amounts as text cells so they read back exactly as typed."""
    import xlsxwriter

    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"in_memory": True, "strings_to_numbers": False})
    sheet = workbook.add_worksheet("notice")
    bold = workbook.add_format({"bold": True})
    sheet.write_row(0, 0, COLUMNS, bold)
    for number, row in enumerate(EXAMPLE_ROWS, start=1):
        for column, value in enumerate(row):
            sheet.write_string(number, column, value)
    sheet.freeze_panes(1, 0)
    sheet.set_column(0, len(COLUMNS) - 1, 18)
    workbook.close()
    return buffer.getvalue()
