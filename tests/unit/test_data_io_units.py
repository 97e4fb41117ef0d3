"""Without DynamoDB: typed amounts per currency, the notice reader and the validation
rules, and the CSV/XLSX writers' cell handling."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest

from exports.tables import Amount, Percent, Ratio, Table
from exports.writers import csv_text, neutralised, write_csv
from fundportal.domain.amounts import (
    AmountError,
    currency_decimals,
    excel_format,
    parse_amount,
    plain_amount,
    typed_amount,
)
from imports.reader import FileError, read_rows
from imports.validation import validate
from imports.validation_values import Existing, Known, Registered
from tests.notices import csv_bytes, notice_rows, row


@pytest.mark.parametrize(
    ("text", "currency", "exact", "expected"),
    [
        ("1,250,000.00", "USD", True, Decimal("1250000.00")),
        ("1250000.00", "USD", True, Decimal("1250000.00")),
        ("50,000,000", "JPY", True, Decimal(50_000_000)),
        ("12.5", "EUR", False, Decimal("12.5")),
        ("0.00", "GBP", True, Decimal("0.00")),
    ],
)
def test_parse_amount_accepts_what_people_type(text, currency, exact, expected):
    assert parse_amount(text, currency, exact=exact) == expected


@pytest.mark.parametrize(
    ("text", "currency", "reason"),
    [
        ("1,250,000", "USD", "exactly 2 decimals"),
        ("12.5", "USD", "exactly 2 decimals"),
        ("5,000.00", "JPY", "no decimals"),
        ("1,25,000.00", "USD", "not an amount"),
        ("-1.00", "USD", "zero or more"),
        ("1e5", "USD", "not an amount"),
        ("9" * 19 + ".00", "USD", "more than 18 digits"),
    ],
)
def test_parse_amount_refuses_what_it_would_have_to_guess(text, currency, reason):
    with pytest.raises(AmountError, match=reason):
        parse_amount(text, currency, exact=True)


def test_currency_decimals_and_the_file_and_form_forms():
    assert [currency_decimals(c) for c in ("USD", "EUR", "GBP", "CHF", "JPY")] == [2, 2, 2, 2, 0]
    assert plain_amount(Decimal(500000), "USD") == "500000.00"
    assert plain_amount(Decimal(50_000_000), "JPY") == "50000000"
    assert typed_amount(Decimal("1250000"), "USD") == "1,250,000.00"
    assert excel_format("USD") == '#,##0.00 "USD"' and excel_format("JPY") == '#,##0 "JPY"'


def test_reader_refuses_files_that_are_not_notices():
    with pytest.raises(FileError, match="Missing column"):
        read_rows(b"document_id,title\nD,T\n", "n.csv")
    with pytest.raises(FileError, match="no rows"):
        read_rows(csv_bytes([]), "n.csv")
    with pytest.raises(FileError, match=r"neither \.csv nor \.xlsx"):
        read_rows(b"x", "n.pdf")
    with pytest.raises(FileError, match="not a readable XLSX"):
        read_rows(b"not a zip", "n.xlsx")
    assert [r.number for r in read_rows(csv_bytes(notice_rows(1)) + b"\r\n,,,\r\n", "n.csv")] == [2, 3, 4]


def test_validation_skips_rows_an_earlier_run_of_the_same_file_wrote():
    rows = read_rows(csv_bytes(notice_rows(1)), "n.csv")
    first = validate(rows, Known(), "import-abc")
    assert first.ok and first.to_write == 3 and first.plans[0].is_new
    written = first.plans[0].entries[0]
    known = Known(entries={"NOTICE_1": {(written.kind, written.position_id): Existing(written, "import-abc")}})
    again = validate(rows, known, "import-abc")
    assert again.ok and (again.to_write, again.already) == (2, 1)
    someone_else = Known(entries={"NOTICE_1": {(written.kind, written.position_id): Existing(written, "form")}})
    # Row 2's entry is taken, and the missing document's partition holds a write not this import's.
    assert [e.row for e in validate(rows, someone_else, "import-abc").errors] == [0, 2]


def test_validation_checks_the_register_and_reports_every_bad_cell():
    rows = read_rows(csv_bytes([row(position_id="P1", investor_id="I1", amount="x", status="?")]), "n.csv")
    result = validate(rows, Known(registers={"P1": Registered("FUND_N", "I9")}), "t")
    assert sorted(e.column for e in result.errors) == ["amount", "status"]  # cells first, then the rest
    rows = read_rows(csv_bytes([row(position_id="P1", investor_id="I1")]), "n.csv")
    (error,) = validate(rows, Known(registers={"P1": Registered("FUND_N", "I9")}), "t").errors
    assert (error.row, error.column) == (2, "investor_id")


def test_control_totals_per_document_currency_and_kind():
    rows = read_rows(csv_bytes(notice_rows(2)), "n.csv")
    totals = {(t.kind.slug, t.currency): (t.rows, t.amount.amount) for t in validate(rows, Known(), "t").totals}
    assert totals[("capital_call", "USD")] == (2, Decimal("2500001.00"))
    assert totals[("unfunded_commitment", "USD")] == (2, Decimal("10000000.00"))


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_formula_like_text_is_neutralised(text):
    assert neutralised(text) == "'" + text


def test_csv_cells_have_exact_decimals_and_plain_text():
    assert csv_text(Amount(Decimal("41719.2"), "USD")) == "41719.20"
    assert csv_text(Ratio(Decimal("0.156"))) == "0.1560"
    assert csv_text(Percent(Decimal("0.625"))) == "0.625000"
    assert csv_text(None) == "" and csv_text("FUND_A") == "FUND_A"
    out = io.StringIO()
    write_csv(out, Table("t", ["a", "b"], rows=[["=cmd", Amount(Decimal(5), "JPY")]]))
    assert out.getvalue() == "a,b\r\n'=cmd,5\r\n"
