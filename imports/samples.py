"""The notice template offered for download (`/documents/import/template.csv` and `.xlsx`).

Optional columns: `new_position` (yes/true/1 on a row whose position its fund does not hold
yet: without it such a row is refused, so a mistyped position id never opens an LP position)
and `document_type` (the type of a document the file creates; empty: from what it holds); the
kinds' own columns (`imports.entry_columns`): a call's `management_fee`, `partnership_expense`
and `outside_commitment`, a distribution's `return_of_capital`, `gain`, `income` and
`recallable`, a management fee's `fee_line`, carried interest's `carry_stage`."""

from __future__ import annotations

import csv
import io

from .reader import COLUMNS

_NO_PARTS = ("",) * 9  # management_fee ... carry_stage: empty on rows of the seed's kinds
_CALL = ("CALL_2026Q1", "Q1 2026 capital call", "FUND_A", "2026-03-31", "USD")
_STATEMENT = ("CAS_2026Q1", "Q1 2026 capital account statement", "FUND_A", "2026-03-31", "USD")
EXAMPLE_ROWS = (
    # A call of 1,250,000.00 of which 25,000.00 pays the management fee and 5,000.00 expenses.
    (*_CALL, "POSITION_1", "INVESTOR_1", "capital_call", "1,250,000.00", "Pending", "2026-04-15", "",
     "capital_call_notice", "25,000.00", "5,000.00", "no", "", "", "", "", "", ""),
    (*_CALL, "POSITION_1", "INVESTOR_1", "unfunded_commitment", "250,000.00", "Active", "", "",
     "capital_call_notice", *_NO_PARTS),
    (*_CALL, "POSITION_2", "INVESTOR_2", "nav", "812,500.50", "Active", "", "", "capital_call_notice", *_NO_PARTS),
    # A position the fund does not hold yet is opened only by saying so: new_position = yes.
    (*_CALL, "POSITION_9", "INVESTOR_9", "capital_call", "500,000.00", "Pending", "2026-04-15", "yes",
     "capital_call_notice", *_NO_PARTS),
    # A capital account statement: the quarter's allocations and a split distribution.
    (*_STATEMENT, "POSITION_1", "INVESTOR_1", "distribution", "120,000.00", "Completed", "2026-03-20", "",
     "capital_account_statement", "", "", "", "80,000.00", "30,000.00", "10,000.00", "20,000.00", "", ""),
    (*_STATEMENT, "POSITION_1", "INVESTOR_1", "management_fee", "25,000.00", "Completed", "", "",
     "capital_account_statement", "", "", "", "", "", "", "", "gross", ""),
    (*_STATEMENT, "POSITION_1", "INVESTOR_1", "partnership_expense", "4,200.00", "Completed", "", "",
     "capital_account_statement", *_NO_PARTS),
    (*_STATEMENT, "POSITION_1", "INVESTOR_1", "realized_gain", "30,000.00", "Completed", "", "",
     "capital_account_statement", *_NO_PARTS),
    (*_STATEMENT, "POSITION_1", "INVESTOR_1", "unrealized_gain", "-12,500.00", "Completed", "", "",
     "capital_account_statement", *_NO_PARTS),
    (*_STATEMENT, "POSITION_1", "INVESTOR_1", "carried_interest", "3,500.00", "Completed", "", "",
     "capital_account_statement", "", "", "", "", "", "", "", "", "accrued"),
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
