"""Time travel on the position page, its exports and the statement (moto, the seed sample):
POSITION_1 holds DOC001 (2025-09-30: call 500,000, distribution 75,000, unfunded 1,500,000) and
DOC002 (2025-12-31: call 750,000, distribution 120,000), commitment 2,000,000 from the start."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta
from decimal import Decimal

import openpyxl
import pytest

from documents import approval
from fundportal.domain.model import utcnow
from fundportal.store.repositories.register import RegisterRepository
from positions.services import commitment_set

pytestmark = pytest.mark.django_db

PAGE = "/positions/POSITION_1/"


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def side_letter(amount: int = 2_500_000, effective_on: date = date(2025, 10, 15)) -> None:
    revision = RegisterRepository().get("POSITION_1", consistent=True).revision
    commitment_set(
        position_id="POSITION_1",
        amount=Decimal(amount),
        effective_on=effective_on,
        reason="Side letter",
        expected_revision=revision,
        user="setup",
    )


def test_the_position_page_as_of_the_first_document_uses_the_commitment_effective_then(
    sample, analyst_client, django_assert_dynamodb_requests
):
    side_letter()  # 2,500,000 from 2025-10-15: after the date asked for
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get(f"{PAGE}?as_of=2025-09-30")
    assert response.status_code == 200
    page = text(response)
    # Through 2025-09-30: 500,000 called of the 2,000,000 then in effect (25 %), 75,000 out: DPI 0.15x.
    assert "Commitment USD 2,000,000.00" in page
    assert "Paid-in (called) USD 500,000.00" in page
    assert "% called 25.0 %" in page
    assert "Distributed USD 75,000.00" in page
    assert "DPI 0.15x" in page
    history = page[page.index("Commitment history") :]
    assert "from the start USD 2,000,000.00 in effect on the date shown" in history
    assert 'data-document="DOC001"' in response.content.decode()
    assert 'data-document="DOC002"' not in response.content.decode()


def test_the_position_page_today_is_unchanged_by_time_travel(sample, analyst_client):
    side_letter()
    page = text(analyst_client.get(PAGE))
    assert "Commitment USD 2,500,000.00" in page and "Paid-in (called) USD 1,250,000.00" in page


def test_the_picker_shows_the_date_and_the_links_keep_it(sample, analyst_client):
    page = analyst_client.get(f"{PAGE}?as_of=2025-09-30").content.decode()
    assert 'name="as_of" value="2025-09-30"' in page
    assert "Figures as of 2025-09-30." in text(analyst_client.get(f"{PAGE}?as_of=2025-09-30"))
    assert f'href="{PAGE}export.csv?as_of=2025-09-30"' in page
    assert f'href="{PAGE}export.xlsx?as_of=2025-09-30"' in page
    assert f'href="{PAGE}statement.pdf?as_of=2025-09-30"' in page
    today = analyst_client.get(PAGE).content.decode()
    assert 'name="as_of" value=""' in today and f'href="{PAGE}export.csv"' in today


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("as_of=30-09-2025", "as_of must be a date, YYYY-MM-DD"),
        ("as_of=2025-02-30", "as_of must be a date, YYYY-MM-DD"),
        ("as_of=1850-01-01", "as_of must be between 1900-01-01 and 2100-12-31"),
        ("known_at=last+week", "known_at must be an ISO date or date-time"),
    ],
)
@pytest.mark.parametrize("path", [PAGE, f"{PAGE}export.csv", f"{PAGE}export.xlsx", f"{PAGE}statement.pdf"])
def test_a_bad_date_is_a_400_with_its_own_message(sample, analyst_client, path, query, message):
    response = analyst_client.get(f"{path}?{query}")
    assert response.status_code == 400
    assert message in text(response)


def test_the_csv_export_as_of_a_date_leaves_later_documents_out(sample, analyst_client):
    response = analyst_client.get(f"{PAGE}export.csv?as_of=2025-09-30")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {r["document_id"] for r in rows} == {"DOC001"}
    everything = list(csv.DictReader(io.StringIO(analyst_client.get(f"{PAGE}export.csv").content.decode())))
    assert {r["document_id"] for r in everything} == {"DOC001", "DOC002"}


def test_known_at_leaves_out_a_commitment_change_recorded_later(sample, analyst_client):
    before = (utcnow() - timedelta(seconds=2)).replace(tzinfo=None).isoformat()
    side_letter()
    page = text(analyst_client.get(f"{PAGE}?as_of=2025-12-31&known_at={before}"))
    assert "Commitment USD 2,000,000.00" in page
    now = text(analyst_client.get(f"{PAGE}?as_of=2025-12-31"))
    assert "Commitment USD 2,500,000.00" in now


# --- the document list and the document page ----------------------------------------------------


def test_the_document_list_as_of_a_date_leaves_later_documents_out(sample, analyst_client):
    listed = analyst_client.get("/documents/?as_of=2025-09-30").content.decode()
    assert 'data-document="DOC001"' in listed and 'data-document="DOC002"' not in listed
    assert 'href="/documents/DOC001/?as_of=2025-09-30"' in listed
    assert 'name="as_of" value="2025-09-30"' in listed
    everything = analyst_client.get("/documents/").content.decode()
    assert 'data-document="DOC001"' in everything and 'data-document="DOC002"' in everything


def test_the_document_list_rejects_a_bad_date_with_its_message(sample, analyst_client):
    response = analyst_client.get("/documents/?as_of=2025/09/30")
    assert response.status_code == 400 and "as_of must be a date, YYYY-MM-DD" in text(response)


def test_a_document_dated_after_the_date_says_so(sample, analyst_client):
    response = analyst_client.get("/documents/DOC002/?as_of=2025-09-30")
    assert response.status_code == 404
    assert "Document DOC002 is dated 2025-12-31, after 2025-09-30" in text(response)
    assert analyst_client.get("/documents/DOC002/export.csv?as_of=2025-09-30").status_code == 404


def test_a_document_dated_by_the_date_shows_as_today_and_keeps_the_date_on_its_links(
    sample, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/documents/DOC001/?as_of=2025-09-30")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="as_of" value="2025-09-30"' in page
    assert 'href="/documents/DOC001/export.csv?as_of=2025-09-30"' in page


# --- the investor and fund pages ----------------------------------------------------------------


def test_the_investor_page_as_of_a_date_values_each_line_then_from_its_one_query(
    sample, analyst_client, django_assert_dynamodb_requests
):
    side_letter()
    with django_assert_dynamodb_requests(1, ["Query"]):  # the investor index holds whole registers
        response = analyst_client.get("/investors/INVESTOR_1/?as_of=2025-09-30")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="as_of" value="2025-09-30"' in page and 'name="known_at" value=""' in page
    line = text(response)
    # POSITION_1 through 2025-09-30: 500,000 called of the 2,000,000 then in effect.
    assert "USD 2,000,000.00" in line and "USD 500,000.00" in line
    assert "USD 1,250,000.00" not in line
    today = text(analyst_client.get("/investors/INVESTOR_1/"))
    assert "USD 2,500,000.00" in today and "USD 1,250,000.00" in today


def test_the_fund_page_as_of_a_date_values_each_line_then_with_one_more_request(
    sample, analyst_client, django_assert_dynamodb_requests
):
    # The page's summary BatchGetItem and page Query, then its registers in full (one more).
    with django_assert_dynamodb_requests(3, ["BatchGetItem", "Query", "BatchGetItem"]):
        response = analyst_client.get("/funds/FUND_A/?as_of=2025-09-30")
    assert response.status_code == 200
    assert "USD 1,250,000.00" not in text(response) and "USD 500,000.00" in text(response)


def test_the_investor_and_fund_pages_reject_a_bad_date_with_its_message(sample, analyst_client):
    for path in ("/investors/INVESTOR_1/", "/funds/FUND_A/"):
        response = analyst_client.get(f"{path}?as_of=2025-9-30")
        assert response.status_code == 400 and "as_of must be a date, YYYY-MM-DD" in text(response)


def test_the_fund_workbook_as_of_a_date_is_the_page_as_of_that_date(sample, analyst_client):
    response = analyst_client.get("/funds/FUND_A/export.xlsx?as_of=2025-09-30")
    rows = list(openpyxl.load_workbook(io.BytesIO(response.content)).active.iter_rows(values_only=True))
    header = next(r for r in rows if r and "called" in r)
    first = next(dict(zip(header, r, strict=True)) for r in rows if r and "POSITION_1" in r)
    assert first["called"] == 500000


def test_known_at_leaves_out_an_entry_recorded_later_and_composes_with_as_of(
    sample, editor_client, analyst_client, django_assert_dynamodb_requests
):
    """A NAV of 445,000 recorded in DOC001 now: as known a moment before, POSITION_1 had no NAV
    (TVPI "—"); as known now, as of 2025-09-30, TVPI (75,000 + 445,000) / 500,000 = 1.04x."""
    before = (utcnow() - timedelta(seconds=2)).replace(tzinfo=None).isoformat()
    nav = {
        "kind": "nav",
        "position_id": "POSITION_1",
        "fund_id": "FUND_A",
        "investor_id": "INVESTOR_1",
        "status": "Active",
        "amount": "445000",
    }
    assert editor_client.post("/documents/DOC001/entries/new/", nav).status_code == 302
    # DOC001 is approved: the new NAV counts once another user approves it.
    approval.document_submit(document_id="DOC001", user="editor")
    approval.document_approve(document_id="DOC001", user="checker")
    with django_assert_dynamodb_requests(2, ["Query", "Query"]):  # the page's, the kept values'
        then = text(analyst_client.get(f"{PAGE}?as_of=2025-09-30&known_at={before}"))
    assert "USD 445,000.00" not in then
    assert "Paid-in (called) USD 500,000.00" in then  # the sample's entries were known then
    now = text(analyst_client.get(f"{PAGE}?as_of=2025-09-30"))
    assert "NAV (2025-09-30) USD 445,000.00" in now and "TVPI 1.04x" in now
