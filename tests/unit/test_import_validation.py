"""One amount rule for typed text and XLSX number cells (exact or refused, never an exception),
ASCII digits only, and dates written YYYY-MM-DD only."""

from __future__ import annotations

from decimal import Decimal

import pytest

from imports.reader import RawRow
from imports.row_parsing import parse_row
from tests.notices import row


def _parse(numeric: bool = False, **values: str):
    return parse_row(RawRow(2, row(**values), frozenset({"amount"}) if numeric else frozenset()))


def _reasons(errors, column: str) -> list[str]:
    return [e.reason for e in errors if e.column == column]


@pytest.mark.parametrize(
    ("cell", "amount"),
    [("1234.5", "1234.50"), ("1000", "1000.00"), ("0.1", "0.10"), ("999999999999.99", "999999999999.99")],
)
def test_a_number_cell_exactly_within_the_limit_is_taken_padded(cell, amount):
    parsed, errors = _parse(numeric=True, amount=cell)
    assert errors == [] and parsed.amount == Decimal(amount)


@pytest.mark.parametrize(
    "cell",
    [
        "10000000000000000000000000",  # 1e25 as the reader writes it out
        "100000000000000000000000000",  # 1e26
        "1" + "0" * 300,  # 1e300
        "1234567890123456.7",  # more digits than a number cell holds exactly
        "Infinity",
        "NaN",
    ],
)
def test_a_number_cell_that_is_not_exact_within_18_digits_is_refused_with_type_it_as_text(cell):
    parsed, errors = _parse(numeric=True, amount=cell)
    assert parsed is None
    (reason,) = _reasons(errors, "amount")
    assert "type the amount as text" in reason


@pytest.mark.parametrize("text", ["10,000,000,000,000,000,000,000,000.00", "1" + "0" * 300 + ".00"])
def test_typed_amounts_over_18_digits_are_refused(text):
    parsed, errors = _parse(amount=text)
    assert parsed is None and "more than 18 digits" in _reasons(errors, "amount")[0]


OTHER_SCRIPTS = [
    "\u0661\u0660\u0660.\u0660\u0660",
    "\uff11\uff10\uff10.\uff10\uff10",
    "100.\u0660\u0660",
    "\u09eb\u09e6.00",
]


@pytest.mark.parametrize("text", OTHER_SCRIPTS)
def test_amounts_in_other_scripts_digits_are_refused_saying_ascii_digits(text):
    parsed, errors = _parse(amount=text)
    assert parsed is None
    (reason,) = _reasons(errors, "amount")
    assert "digits 0-9" in reason


ARABIC_DATE = "\u0662\u0660\u0662\u0666-\u0660\u0664-\u0663\u0660"


@pytest.mark.parametrize("text", ["2026-W01-1", "20260430", "2026W011", "2026-04-30T00:00", ARABIC_DATE])
def test_dates_other_than_yyyy_mm_dd_are_refused_saying_so(text):
    parsed, errors = _parse(as_of_date=text)
    assert parsed is None
    (reason,) = _reasons(errors, "as_of_date")
    assert "YYYY-MM-DD" in reason


def test_a_yyyy_mm_dd_date_is_taken():
    parsed, errors = _parse(as_of_date="2026-04-30", due_date="2026-05-15")
    assert errors == [] and parsed.as_of_date.isoformat() == "2026-04-30"
