"""The ILPA capital account statement as the book stood at a moment T (`?known_at=`) and as of
its period's end (moto, the seed sample): POSITION_1 was called 500,000 (DOC001) + 750,000
(DOC002) = 1,250,000; a Q1 2026 call of 50,000 is recorded in a draft before T and approved
after T, so as known at T the Q1 statement leaves it out (contributions QTD 0, ITD 1,250,000)
and as known after its approval counts it (50,000 and 1,300,000)."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from documents import services
from exports.capital_account import investor_capital_account, position_capital_account
from fundportal.domain.entry_versions import instant
from fundportal.domain.model import Document
from fundportal.domain.periods import quarter
from fundportal.domain.position_entries import CapitalCall
from fundportal.web.time_travel import parse_known_at
from positions import merging
from tests.approving import approve_by_another

from .test_capital_account_statement import pdf_text

pytestmark = pytest.mark.django_db

STATEMENT = "/positions/POSITION_1/statement"
Q1 = quarter(2026, 1)


def moment() -> str:
    """Now, to the microsecond, as a `known_at` (UTC without an offset)."""
    return instant().replace(tzinfo=None).isoformat(timespec="microseconds")


def q1_call_approved_after() -> str:
    """A draft Q1 2026 statement with a 50,000 call for POSITION_1, then T, then its approval: T."""
    document = Document(document_id="DOC_Q1", title="Q1 call", fund_id="FUND_A", as_of_date=date(2026, 1, 31))
    services.document_create(document=document, user="editor")
    call = CapitalCall("DOC_Q1", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(50_000), "Active")
    services.entry_record(entry=call, user="editor")
    at = moment()
    approve_by_another("DOC_Q1")
    return at


def contributions(statement) -> list[Decimal]:
    (account,) = statement.positions[0].accounts
    return [a.amount for a in account.line("contributions").amounts]


def test_a_statement_known_before_an_approval_leaves_that_entry_out(sample):
    at = q1_call_approved_after()
    then = position_capital_account(position_id="POSITION_1", period=Q1, known_at=parse_known_at(at))
    now = position_capital_account(position_id="POSITION_1", period=Q1)
    assert contributions(then) == [0, 0, Decimal(1_250_000)]  # QTD, YTD, ITD
    assert contributions(now) == [Decimal(50_000), Decimal(50_000), Decimal(1_300_000)]
    assert then.as_of == date(2026, 3, 31) and then.reconciles


def test_the_investor_statement_known_before_an_approval_leaves_that_entry_out(sample):
    at = q1_call_approved_after()
    then = investor_capital_account(investor_id="INVESTOR_1", period=Q1, known_at=parse_known_at(at))
    assert contributions(then) == [0, 0, Decimal(1_250_000)]
    assert [a.amount for a in then.totals[0].line("contributions").amounts] == [0, 0, Decimal(1_250_000)]


def test_the_downloads_state_the_period_end_and_the_moment(sample, analyst_client):
    at = q1_call_approved_after()
    text = pdf_text(analyst_client.get(f"{STATEMENT}.pdf?period=2026Q1&known_at={at}"))
    shown = parse_known_at(at).strftime("%Y-%m-%d %H:%M:%S")
    assert f"as of 2026-03-31, as known at {shown} UTC" in text
    assert "as of 2025-12-31 ·" in pdf_text(analyst_client.get(f"{STATEMENT}.pdf?period=2025Q4"))
    sheet = load_workbook(
        io.BytesIO(analyst_client.get(f"{STATEMENT}.xlsx?period=2026Q1&known_at={at}").content)
    ).active
    rows = {row[0].value: row for row in sheet.iter_rows() if isinstance(row[0].value, str)}
    assert rows["As of"][1].value.date() == date(2026, 3, 31)
    assert rows["As of"][2].value == "As known at" and rows["As of"][3].value == f"{shown} UTC"
    assert [c.value for c in rows["Contributions"][1:4]] == [0, 0, 1_250_000]


def test_a_known_at_statement_reads_one_query_more(sample, analyst_client, django_assert_dynamodb_requests):
    at = q1_call_approved_after()
    with django_assert_dynamodb_requests(3, ["Query", "Query", "BatchGetItem"]):
        assert analyst_client.get(f"{STATEMENT}.xlsx?period=2026Q1&known_at={at}").status_code == 200


def test_a_known_at_investor_statement_reads_the_kept_values_of_positions_written_since_only(
    sample, analyst_client, django_assert_dynamodb_requests
):
    """Today's investor statement: the investor's Query, the fund records, the position's Query.
    As known at T: the investor's register versions since T (one Query more), and the kept
    values of a position written since T (one Query more for that position only)."""
    url = "/investors/INVESTOR_1/statement.xlsx?period=2026Q1"
    before = moment()
    with django_assert_dynamodb_requests(4, ["Query", "Query", "BatchGetItem", "Query"]):
        assert analyst_client.get(f"{url}&known_at={before}").status_code == 200
    at = q1_call_approved_after()
    with django_assert_dynamodb_requests(5, ["Query", "Query", "BatchGetItem", "Query", "Query"]):
        assert analyst_client.get(f"{url}&known_at={at}").status_code == 200


def test_an_investor_statement_known_before_a_merge_shows_the_merged_position_as_it_stood(sample):
    """A Q1 call of 50,000 approved for the mistyped POSITON_1, merged into POSITION_1 after T:
    as known at T the investor's statement holds both positions (POSITON_1's 50,000 under it,
    not under POSITION_1), and the totals are the same 1,300,000 before and after the merge."""
    document = Document(document_id="DOC_Q1", title="Q1 call", fund_id="FUND_A", as_of_date=date(2026, 1, 31))
    services.document_create(document=document, user="editor")
    call = CapitalCall("DOC_Q1", "POSITON_1", "FUND_A", "INVESTOR_1", Decimal(50_000), "Active")
    services.entry_record(entry=call, user="editor")
    approve_by_another("DOC_Q1")
    at = parse_known_at(moment())
    merging.position_merge(source="POSITON_1", target="POSITION_1", user="fixer")

    then = investor_capital_account(investor_id="INVESTOR_1", period=Q1, known_at=at)
    by_position = {
        p.position_id: [a.amount for a in p.accounts[0].line("contributions").amounts] for p in then.positions
    }
    assert by_position == {"POSITION_1": [0, 0, Decimal(1_250_000)], "POSITON_1": [Decimal(50_000)] * 3}
    now = investor_capital_account(investor_id="INVESTOR_1", period=Q1)
    assert [p.position_id for p in now.positions] == ["POSITION_1"]
    for statement in (then, now):
        assert statement.totals[0].line("contributions").amounts[-1].amount == Decimal(1_300_000)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("known_at=yesterday", "known_at must be an ISO date or date-time"),
        ("known_at=1800-01-01", "known_at must be between 1900-01-01 and 2100-12-31"),
        ("as_of=2025-13-01", "as_of must be a date, YYYY-MM-DD"),
    ],
)
@pytest.mark.parametrize("url", [f"{STATEMENT}.pdf", f"{STATEMENT}.xlsx", "/investors/INVESTOR_1/statement.pdf"])
def test_a_bad_moment_or_date_is_a_400_with_its_message(sample, analyst_client, url, query, message):
    response = analyst_client.get(f"{url}?period=2026Q1&{query}")
    assert response.status_code == 400
    assert message in response.content.decode()
