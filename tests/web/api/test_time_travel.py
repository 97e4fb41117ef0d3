"""`?as_of=` and `?known_at=` on the read API: the pages' parser (a bad value is a 400 problem
naming the field, with the page's words), the pages' as-of selectors (the same figures as the
page with the same parameters) and the pages' DynamoDB requests. The seed sample: POSITION_1
holds DOC001 (2025-09-30: call 500,000) and DOC002 (2025-12-31: call 750,000)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from api.site import api
from api.urls import REQUESTS_HEADER
from fundportal.domain.model import utcnow
from fundportal.store.instrumentation import collect
from tests.web.api.test_same_figures_as_the_pages import assert_same
from tests.web.test_time_travel_pages import side_letter

pytestmark = pytest.mark.django_db

THEN = "as_of=2025-09-30"
KNOWN = "known_at=2026-01-15T12:00:00Z"
BOTH = f"{THEN}&{KNOWN}"

# Each endpoint and the page it mirrors, with the same time-travel parameters.
SAME_AS_THE_PAGE = [
    (f"/documents/?{THEN}", f"/api/v1/documents?{THEN}"),
    (f"/documents/?fund=FUND_A&{BOTH}", f"/api/v1/documents?fund=FUND_A&{BOTH}"),
    (f"/documents/DOC001/?{THEN}", f"/api/v1/documents/DOC001?{THEN}"),
    (f"/documents/DOC001/?{KNOWN}", f"/api/v1/documents/DOC001?{KNOWN}"),
    (f"/positions/POSITION_1/?{THEN}", f"/api/v1/positions/POSITION_1?{THEN}"),
    (f"/positions/POSITION_1/?{KNOWN}", f"/api/v1/positions/POSITION_1?{KNOWN}"),
    (f"/positions/POSITION_1/?{BOTH}", f"/api/v1/positions/POSITION_1/figures?{BOTH}"),
    (f"/positions/POSITION_1/?{KNOWN}", f"/api/v1/positions/POSITION_1/figures?{KNOWN}"),
    (f"/funds/FUND_A/?{THEN}", f"/api/v1/funds/FUND_A/lines?{THEN}"),
    (f"/funds/FUND_A/?{BOTH}", f"/api/v1/funds/FUND_A/lines?{BOTH}"),
    (f"/funds/FUND_A/?{KNOWN}", f"/api/v1/funds/FUND_A/lines?{KNOWN}"),
    (f"/investors/INVESTOR_1/?{THEN}", f"/api/v1/investors/INVESTOR_1/lines?{THEN}"),
    (f"/investors/INVESTOR_1/?{BOTH}", f"/api/v1/investors/INVESTOR_1/figures?{BOTH}"),
    (f"/investors/INVESTOR_1/?{THEN}", f"/api/v1/investors/INVESTOR_1/reconciliation?{THEN}"),
]


@pytest.mark.parametrize(("page", "endpoint"), SAME_AS_THE_PAGE)
def test_an_endpoint_as_of_a_date_makes_the_requests_of_its_page_as_of_it(
    sample, analyst_client, api_client, page, endpoint
):
    with collect() as on_page:
        assert analyst_client.get(page).status_code == 200
    with collect() as on_api:
        response = api_client.get(endpoint)
    assert response.status_code == 200, response.content
    assert on_api.operations == on_page.operations, (on_page.describe(), on_api.describe())
    assert response[REQUESTS_HEADER] == str(on_page.count)


def test_fund_lines_as_of_a_date_read_the_registers_in_full_like_the_fund_page(
    sample, api_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(3, ["BatchGetItem", "Query", "BatchGetItem"]):
        body = api_client.get(f"/api/v1/funds/FUND_A/lines?{THEN}").json()
    assert body["as_of"] == "2025-09-30" and body["next"] is None
    first = next(line for line in body["lines"] if line["position_id"] == "POSITION_1")
    assert first["figures"]["called"] == {"amount": "500000.00", "currency": "USD"}


@pytest.mark.parametrize(
    ("page", "endpoint"),
    [
        (f"/funds/FUND_A/?{THEN}", f"/api/v1/funds/FUND_A/lines?{THEN}"),
        (f"/investors/INVESTOR_1/?{THEN}", f"/api/v1/investors/INVESTOR_1/lines?{THEN}"),
    ],
)
def test_lines_as_of_a_date_show_the_figures_of_the_page_as_of_it(sample, analyst_client, api_client, page, endpoint):
    side_letter()  # a commitment change after the date: neither shows it
    assert assert_same(analyst_client, api_client, page, endpoint)


def test_position_history_as_of_a_date_is_every_document_up_to_it_on_one_page(sample, api_client):
    body = api_client.get(f"/api/v1/positions/POSITION_1?{THEN}").json()
    assert [r["document_id"] for r in body["rows"]] == ["DOC001"]
    assert body["next"] is None
    assert body["headline"][0]["figures"]["called"] == {"amount": "500000.00", "currency": "USD"}


def test_position_figures_as_known_at_a_moment_leave_out_a_later_commitment_change(sample, api_client):
    before = (utcnow() - timedelta(seconds=2)).replace(tzinfo=None, microsecond=0).isoformat()
    side_letter()  # 2,500,000 from 2025-10-15, recorded now
    then = api_client.get(f"/api/v1/positions/POSITION_1/figures?as_of=2025-12-31&known_at={before}").json()
    assert then["as_of"] == "2025-12-31"
    assert then["known_at"].startswith(before)
    assert then["lines"][0]["commitment"] == {"amount": "2000000.00", "currency": "USD"}
    now = api_client.get("/api/v1/positions/POSITION_1/figures?as_of=2025-12-31").json()
    assert now["known_at"] is None
    assert now["lines"][0]["commitment"] == {"amount": "2500000.00", "currency": "USD"}


def test_position_figures_as_known_at_a_date_are_valued_on_that_day(sample, api_client):
    body = api_client.get("/api/v1/positions/POSITION_1/figures?known_at=2025-10-01").json()
    assert body["as_of"] == "2025-10-01"
    assert body["known_at"].startswith("2025-10-01T23:59:59")


def test_the_document_list_as_of_a_date_leaves_later_documents_out(sample, api_client):
    body = api_client.get(f"/api/v1/documents?{THEN}").json()
    assert [d["document_id"] for d in body["documents"]] == ["DOC001"]


def test_a_document_dated_after_the_date_is_a_404_saying_so(sample, api_client):
    response = api_client.get(f"/api/v1/documents/DOC002?{THEN}")
    assert response.status_code == 404
    assert "Document DOC002 is dated 2025-12-31, after 2025-09-30" in response.json()["detail"]


TIME_TRAVEL_ENDPOINTS = [
    ("/documents/", "/api/v1/documents"),
    ("/documents/DOC001/", "/api/v1/documents/DOC001"),
    ("/positions/POSITION_1/", "/api/v1/positions/POSITION_1"),
    ("/positions/POSITION_1/", "/api/v1/positions/POSITION_1/figures"),
    ("/funds/FUND_A/", "/api/v1/funds/FUND_A/lines"),
    ("/funds/FUND_A/", "/api/v1/funds/FUND_A/figures"),
    ("/funds/FUND_A/", "/api/v1/funds/FUND_A/reconciliation"),
    ("/investors/INVESTOR_1/", "/api/v1/investors/INVESTOR_1/lines"),
    ("/investors/INVESTOR_1/", "/api/v1/investors/INVESTOR_1/figures"),
    ("/investors/INVESTOR_1/", "/api/v1/investors/INVESTOR_1/reconciliation"),
]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("as_of=30-09-2025", "as_of", "as_of must be a date, YYYY-MM-DD"),
        ("as_of=2025-02-30", "as_of", "as_of must be a date, YYYY-MM-DD"),
        ("as_of=1850-01-01", "as_of", "as_of must be between 1900-01-01 and 2100-12-31"),
        ("known_at=last+week", "known_at", "known_at must be an ISO date or date-time"),
        ("known_at=2300-01-01", "known_at", "known_at must be between 1900-01-01 and 2100-12-31"),
    ],
)
@pytest.mark.parametrize(("page", "endpoint"), TIME_TRAVEL_ENDPOINTS)
def test_a_bad_date_is_a_400_problem_with_the_pages_message(
    sample, analyst_client, api_client, page, endpoint, query, field, message
):
    response = api_client.get(f"{endpoint}?{query}")
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["field"] == field and body["detail"] == message
    assert body["errors"] == [{"field": field, "message": message}]
    shown = analyst_client.get(f"{page}?{query}")
    assert shown.status_code == 400
    assert message in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown.content.decode()))


def test_the_schema_names_as_of_and_known_at_on_every_endpoint_whose_page_takes_them(db):
    paths = api.get_openapi_schema()["paths"]
    templates = {
        "DOC001": "{document_id}",
        "POSITION_1": "{position_id}",
        "FUND_A": "{fund_id}",
        "INVESTOR_1": "{investor_id}",
    }
    for _, endpoint in TIME_TRAVEL_ENDPOINTS:
        path = "/".join(templates.get(part, part) for part in endpoint.split("/"))
        names = {p["name"] for p in paths[path]["get"]["parameters"]}
        assert {"as_of", "known_at"} <= names, path
