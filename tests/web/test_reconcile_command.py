"""`manage.py reconcile` on the seed sample: the flags one a line, exit 1 when flagged, 0 when
clean, 2 on bad input; Queries only (no Scan)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.django_db


def reconcile(**options) -> tuple[str, CommandError | None]:
    out = io.StringIO()
    try:
        call_command("reconcile", stdout=out, stderr=io.StringIO(), **options)
    except CommandError as error:
        return out.getvalue(), error
    return out.getvalue(), None


def test_sample_lists_its_three_flags_and_exits_1_with_reads_only(sample, django_assert_dynamodb_requests):
    # funds catalog, FUND_A's position ids (slim copies) and its registers whole, months catalog,
    # 2025-09 and 2025-12, DOC001 and DOC002
    with django_assert_dynamodb_requests(8, ["Query", "Query", "BatchGetItem"] + ["Query"] * 5):
        out, error = reconcile()
    assert out.splitlines() == [
        "flag activity_vs_calls: DOC001: capital activity USD 500,000.00 differs from the sum of its positions' "
        "calls USD 800,000.00, by USD +300,000.00.",
        "flag unfunded_differs: POSITION_1: reported unfunded USD 1,500,000.00 (2025-09-30) differs from computed "
        "unfunded USD 750,000.00 (commitment - called), by USD +750,000.00.",
        "flag unfunded_differs: POSITION_2: reported unfunded USD 850,000.00 (2025-09-30) differs from computed "
        "unfunded USD 450,000.00 (commitment - called), by USD +400,000.00.",
    ]
    assert error is not None and error.returncode == 1
    assert str(error) == "3 flags in 1 fund, 2 positions, 2 documents."


def test_as_of_counts_only_the_documents_dated_by_then(sample):
    # Through 2025-09-30 only DOC001 counts: POSITION_1 called 500,000 of 2,000,000 -> 1,500,000
    # computed, as reported; POSITION_2 300,000 of 1,150,000 -> 850,000, as reported.
    out, error = reconcile(fund="FUND_A", as_of="2025-09-30")
    assert [line.split(":")[0] for line in out.splitlines()] == ["flag activity_vs_calls"]
    assert error is not None and error.returncode == 1
    assert str(error) == "1 flag in 1 fund, 2 positions, 1 document, as of 2025-09-30."


def test_a_clean_book_exits_0(sample):
    out, error = reconcile(as_of="2025-06-30")
    assert error is None
    assert out.strip() == "Nothing flagged in 1 fund, 2 positions, 0 documents, as of 2025-06-30."


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"as_of": "2025-13-01"}, "--as-of must be a date, YYYY-MM-DD (got '2025-13-01')."),
        ({"fund": "FUND_Z"}, "Fund 'FUND_Z' was not found."),
        ({"fund": "bad#id"}, "Invalid fund id 'bad#id'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(sample, options, message):
    out, error = reconcile(**options)
    assert out == ""
    assert error is not None and error.returncode == 2
    assert str(error).startswith(message)
    assert "\n" not in str(error)
