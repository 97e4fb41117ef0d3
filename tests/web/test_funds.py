"""Funds, investors and the position register on the pages: request counts, the seed
sample's figures, links, mismatched fund/investor refused with nothing written, commitment."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest
from pytest_django.asserts import assertContains

from fundportal.store.gateway import call
from fundportal.store.repositories.register import RegisterRepository
from tests.approving import approve_by_another

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def row(response, position_id: str) -> str:
    match = re.search(rf'<tr data-position="{position_id}".*?</tr>', response.content.decode(), re.S)
    assert match, f"no row for {position_id}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0)))


def test_fund_page_is_its_summary_and_one_page_query_with_the_seed_figures(
    sample, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "Query"]):
        response = analyst_client.get("/funds/FUND_A/")
    assert response.status_code == 200
    first, second = row(response, "POSITION_1"), row(response, "POSITION_2")
    # commitment, called, % called, unfunded (reported, computed), distributed, NAV, DPI, RVPI, TVPI, IRR
    assert "USD 2,000,000.00 USD 1,250,000.00 pending USD 500,000.00 62.5 % USD 1,500,000.00 USD 750,000.00" in first
    assert "USD 195,000.00 pending USD 120,000.00 — 0.16x — — —" in first
    assert (
        "USD 1,150,000.00 USD 700,000.00 pending USD 700,000.00 60.9 % USD 850,000.00 USD 450,000.00 USD 45,000.00"
        in second
    )
    page = text(response)
    assert (
        "Total USD (2 positions) USD 3,150,000.00 USD 1,950,000.00 61.9 % USD 2,350,000.00 USD 1,200,000.00 "
        "USD 240,000.00" in page
    )
    assertContains(response, 'href="/positions/POSITION_1/"')
    assertContains(response, 'href="/investors/INVESTOR_1/"')
    assertContains(response, 'href="/investors/INVESTOR_2/"')


def test_investor_page_is_one_query(sample, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/investors/INVESTOR_1/")
    assert response.status_code == 200
    assert "USD 2,000,000.00 USD 1,250,000.00" in row(response, "POSITION_1")
    assert 'data-position="POSITION_2"' not in response.content.decode()
    assertContains(response, 'href="/funds/FUND_A/"')


def test_funds_list_is_the_catalog_plus_one_batch_of_summary_shards(
    sample, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):
        response = analyst_client.get("/funds/")
    page = text(response)
    assert "FUND_A USD 2 USD 3,150,000.00 USD 1,950,000.00 61.9 % USD 240,000.00" in page
    assertContains(response, 'href="/funds/FUND_A/"')


def test_unknown_fund_and_investor_are_404_and_bad_ids_400(sample, analyst_client):
    assert analyst_client.get("/funds/FUND_Z/").status_code == 404
    assert analyst_client.get("/investors/INVESTOR_9/").status_code == 404
    assert analyst_client.get("/funds/bad%23id/").status_code == 400


def test_position_page_is_one_query_with_register_figures(sample, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/positions/POSITION_1/")
    page = text(response)
    assert "Commitment USD 2,000,000.00" in page
    assert "% called 62.5 %" in page
    # No NAV in the sample: no adjusted NAV either, which is labelled with the date D (today).
    assert f"NAV — Adjusted NAV ({date.today().isoformat()}) — DPI 0.16x" in page
    assertContains(response, 'href="/funds/FUND_A/"')
    assertContains(response, 'href="/investors/INVESTOR_1/"')


def test_fund_and_investor_are_links_on_the_document_pages(sample, analyst_client):
    for url in ("/documents/DOC001/", "/documents/DOC001/positions/POSITION_1/"):
        response = analyst_client.get(url)
        assertContains(response, 'href="/funds/FUND_A/"')
        assertContains(response, 'href="/investors/INVESTOR_1/"')


ENTRY = {
    "kind": "distribution",
    "position_id": "POSITION_1",
    "fund_id": "FUND_A",
    "investor_id": "INVESTOR_1",
    "amount": "1000",
    "status": "Completed",
}


def _table_items(table: str) -> list[dict]:
    return sorted(call("Scan", TableName=table)["Items"], key=lambda i: (i["PK"]["S"], i["SK"]["S"]))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"fund_id": "FUND_Z"}, "DOC002 is a document of fund FUND_A"),
        ({"investor_id": "INVESTOR_9"}, "POSITION_1 is held by investor INVESTOR_1, not INVESTOR_9"),
    ],
)
def test_a_mismatched_fund_or_investor_is_a_form_error_and_nothing_is_written(sample, editor_client, changes, message):
    before = _table_items(sample.table)
    response = editor_client.post("/documents/DOC002/entries/new/", {**ENTRY, "kind": "nav", **changes})
    assert response.status_code == 400
    assertContains(response, message, status_code=400)
    assert _table_items(sample.table) == before


def test_recording_a_nav_updates_the_register_in_the_same_transaction(
    sample, editor_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "TransactWriteItems"]):
        response = editor_client.post("/documents/DOC002/entries/new/", {**ENTRY, "kind": "nav", "amount": "1400000"})
    assert response.status_code == 302
    approve_by_another("DOC002")  # DOC002 is approved: the NAV counts once another user approves it
    register = RegisterRepository().get("POSITION_1", consistent=True)
    (figures,) = register.figures()
    assert figures.nav.amount == Decimal("1400000")
    # RVPI = 1,400,000 / 1,250,000 = 1.12x; TVPI = (195,000 + 1,400,000) / 1,250,000 = 1.276 -> 1.28x
    assert (figures.rvpi, figures.tvpi) == (Decimal("1.12"), Decimal("1.28"))
    page = text(editor_client.get("/funds/FUND_A/"))
    assert "USD 1,400,000.00" in page and "1.12x 1.28x" in page
    document = text(editor_client.get("/documents/DOC002/"))
    assert "USD 1,400,000.00" in document  # the NAV column of the document page


def test_a_new_position_registers_itself_and_its_fund_stays_listed(draft_sample, editor_client):
    response = editor_client.post(
        "/documents/DOC002/entries/new/",
        {**ENTRY, "kind": "capital_call", "position_id": "POSITION_3", "investor_id": "INVESTOR_3", "amount": "5000"},
    )
    assert response.status_code == 302
    register = RegisterRepository().get("POSITION_3", consistent=True)
    assert (register.fund_id, register.investor_id, register.revision) == ("FUND_A", "INVESTOR_3", 1)
    assert RegisterRepository().funds() == ["FUND_A"]
    assert "POSITION_3" in text(editor_client.get("/investors/INVESTOR_3/"))


def test_editor_changes_the_commitment_audited(sample, editor_client, analyst_client):
    form = editor_client.get("/positions/POSITION_1/commitment/")
    assert form.status_code == 200
    response = editor_client.post(
        "/positions/POSITION_1/commitment/",
        {"commitment": "2500000", "effective_on": "2025-10-15", "reason": "Side letter", "expected_revision": "1"},
    )
    assert response.status_code == 302
    assert "Commitment USD 2,500,000.00" in text(editor_client.get("/positions/POSITION_1/"))
    assert "% called 50.0 %" in text(editor_client.get("/positions/POSITION_1/"))
    stale = editor_client.post(
        "/positions/POSITION_1/commitment/",
        {"commitment": "1", "effective_on": "2025-10-16", "reason": "Typo", "expected_revision": "1"},
    )
    assert stale.status_code == 409
    audit = call(
        "Query",
        TableName=sample.table,
        KeyConditionExpression="PK = :pk",
        ExpressionAttributeValues={":pk": {"S": "AUDIT#POSITION#POSITION_1"}},
    )["Items"]
    assert len(audit) == 1 and audit[0]["User"]["S"] == "editor"
    assert analyst_client.post("/positions/POSITION_1/commitment/", {"commitment": "1"}).status_code == 403


def test_a_nav_before_later_flows_is_rolled_forward_on_every_page(sample, editor_client):
    """A NAV of 445,000 for POSITION_1 in DOC001 (as of 2025-09-30), before DOC002's call of
    750,000 and distribution of 120,000 (2025-12-31). As of today: adjusted NAV = 445,000 +
    750,000 - 120,000 = 1,075,000; RVPI = 1,075,000 / 1,250,000 = 0.86x; TVPI = (195,000 +
    1,075,000) / 1,250,000 = 1.016 -> 1.02x, and the IRR of the same flows (-425,000 on
    2025-09-30, -630,000 on 2025-12-31, +1,075,000 today) is positive like the gain TVPI shows.
    The exact IRR depends on today's date: `tests/unit/test_valuation.py` computes it at fixed dates."""
    response = editor_client.post("/documents/DOC001/entries/new/", {**ENTRY, "kind": "nav", "amount": "445000"})
    assert response.status_code == 302
    approve_by_another("DOC001")  # DOC001 is approved: the NAV counts once another user approves it
    fund_page = editor_client.get("/funds/FUND_A/")
    first = row(fund_page, "POSITION_1")
    assert "USD 445,000.00 2025-09-30 adjusted USD 1,075,000.00 0.16x 0.86x 1.02x" in first
    # The fund page reads slim copies (no full flow history): a position's IRR is on its own page.
    irr_cell = re.search(r'data-position="POSITION_1".*?data-testid="irr">([^<]*)<', fund_page.content.decode(), re.S)
    assert irr_cell and irr_cell.group(1) == "—"
    position_page = text(editor_client.get("/positions/POSITION_1/"))
    assert "NAV (2025-09-30) USD 445,000.00" in position_page
    assert f"Adjusted NAV ({date.today().isoformat()}) USD 1,075,000.00" in position_page
    assert "RVPI 0.86x TVPI 1.02x" in position_page


def test_the_funds_list_totals_use_the_adjusted_nav(sample, editor_client):
    """FUND_A's total with POSITION_1's NAV of 445,000 (2025-09-30) and no NAV for POSITION_2:
    total NAV 445,000, adjusted by POSITION_1's later flows to 1,075,000 (as on the fund page);
    TVPI = (240,000 + 1,075,000) / 1,950,000 = 0.674 -> 0.67x."""
    assert (
        editor_client.post("/documents/DOC001/entries/new/", {**ENTRY, "kind": "nav", "amount": "445000"}).status_code
        == 302
    )
    approve_by_another("DOC001")
    listed = text(editor_client.get("/funds/"))
    assert "USD 445,000.00 adjusted USD 1,075,000.00 0.12x 0.67x" in listed
