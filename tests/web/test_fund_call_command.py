"""`manage.py fund_call` through call_command: the JSON of each position's amount, the notice
written awaiting approval, and one clear line with a non-zero exit on bad input."""

from __future__ import annotations

import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from fundportal.domain.kinds import SUBMITTED

CALL = ("fund_call", "FUND_A", "--total", "5,000,000.01", "--date", "2026-03-31", "--purpose", "investment")


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def error_line(*args: str) -> str:
    with pytest.raises(CommandError) as refused:
        run(*args)
    message = str(refused.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def test_a_dry_run_lists_each_positions_amount_as_json_and_writes_nothing(sample):
    report = json.loads(run(*CALL, "--basis", "commitment", "--dry-run", "--format", "json"))
    assert report["document_id"] is None and not report["created"]
    assert [(p["position_id"], p["amount"]) for p in report["positions"]] == [
        ("POSITION_1", "3174603.18"),
        ("POSITION_2", "1825396.83"),
    ]
    assert sum(Decimal(p["amount"]) for p in report["positions"]) == Decimal(report["total"]) == Decimal("5000000.01")
    assert report["positions"][0]["unfunded_after"] == str(
        Decimal(report["positions"][0]["unfunded_before"]) - Decimal("3174603.18")
    )


def test_a_call_writes_one_notice_awaiting_approval(sample):
    report = json.loads(run(*CALL, "--basis", "unfunded", "--format", "json", "--token", "shell-1"))
    assert report["created"]
    document = sample.repository.overview(report["document_id"]).document
    assert document.approval == SUBMITTED and document.purpose == "investment"
    again = json.loads(run(*CALL, "--basis", "unfunded", "--format", "json", "--token", "shell-1"))
    assert again["document_id"] == report["document_id"] and not again["created"]


def test_the_text_output_names_the_notice(sample):
    out = run(*CALL, "--basis", "commitment")
    assert "POSITION_1\tINVESTOR_1\tUSD 3,174,603.18" in out
    assert "created, awaiting approval" in out.splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "wording"),
    [
        (("--total", "100.001", "--basis", "commitment"), "USD amounts have at most 2 decimals"),
        (("--total", "-5", "--basis", "commitment"), "zero or more"),
        (("--total", "100.00", "--basis", "custom", "--weights", "POSITION_1=60,POSITION_2=30"), "add up to 90 %"),
        (("--total", "100.00", "--basis", "custom", "--weights", "POSITION_1"), "POSITION=PERCENT"),
        (("--total", "100.00", "--basis", "custom", "--weights", "POSITION_1=0"), "adds up to zero"),
        (("--total", "100.00", "--basis", "commitment", "--date", "3026-01-01"), "between 1900-01-01"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(sample, args, wording):
    base = ["fund_call", "FUND_A", "--date", "2026-03-31", "--purpose", "management_fee"]
    assert wording in error_line(*base, *args)


def test_a_fund_without_positions_is_refused_in_one_line(sample):
    assert error_line("fund_call", "FUND_NONE", *CALL[2:], "--basis", "commitment") == "Fund 'FUND_NONE' was not found."
