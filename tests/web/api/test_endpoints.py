"""The read endpoints on the seed sample: what each returns, money as exact strings, and the
same DynamoDB requests as the page it mirrors (asserted like assertNumQueries)."""

from __future__ import annotations

import pytest

from api.urls import READ_UNITS_HEADER, REQUESTS_HEADER

pytestmark = pytest.mark.django_db


def test_fund_lines_are_one_query_like_the_fund_page(sample, api_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = api_client.get("/api/v1/funds/FUND_A/lines")
    assert response.status_code == 200, response.content
    assert response[REQUESTS_HEADER] == "1"
    assert float(response[READ_UNITS_HEADER]) > 0
    body = response.json()
    first = body["lines"][0]
    assert first["position_id"] == "POSITION_1"
    assert first["commitment"] == {"amount": "2000000.00", "currency": "USD"}
    assert first["figures"]["called"] == {"amount": "1250000.00", "currency": "USD"}
    assert first["percent_called"].startswith("62.5")
    assert body["totals"][0]["commitment"] == {"amount": "3150000.00", "currency": "USD"}
    assert body["next"] is None


# Each endpoint and the page it mirrors: the same selector, so the same DynamoDB requests.
SAME_AS_THE_PAGE = [
    ("/documents/", "/api/v1/documents"),
    ("/documents/?fund=FUND_A&from=2025-01-01", "/api/v1/documents?fund=FUND_A&from=2025-01-01"),
    ("/documents/DOC001/", "/api/v1/documents/DOC001"),
    ("/documents/DOC001/", "/api/v1/documents/DOC001/reconciliation"),
    ("/documents/DOC001/audit/", "/api/v1/documents/DOC001/audit"),
    ("/positions/POSITION_1/", "/api/v1/positions/POSITION_1"),
    ("/positions/POSITION_1/", "/api/v1/positions/POSITION_1/figures?as_of=2025-09-30"),
    ("/positions/POSITION_1/", "/api/v1/positions/POSITION_1/reconciliation"),
    ("/funds/", "/api/v1/funds"),
    ("/funds/FUND_A/", "/api/v1/funds/FUND_A/lines"),
    ("/funds/FUND_A/", "/api/v1/funds/FUND_A/figures?as_of=2025-09-30"),
    ("/funds/FUND_A/", "/api/v1/funds/FUND_A/reconciliation"),
    ("/investors/INVESTOR_1/", "/api/v1/investors/INVESTOR_1/lines"),
    ("/investors/INVESTOR_1/", "/api/v1/investors/INVESTOR_1/figures"),
    ("/investors/INVESTOR_1/", "/api/v1/investors/INVESTOR_1/reconciliation"),
]


@pytest.mark.parametrize(("page", "endpoint"), SAME_AS_THE_PAGE)
def test_an_endpoint_makes_the_requests_of_its_page(sample, analyst_client, api_client, page, endpoint):
    from fundportal.store.instrumentation import collect

    with collect() as on_page:
        assert analyst_client.get(page).status_code == 200
    with collect() as on_api:
        response = api_client.get(endpoint)
    assert response.status_code == 200, response.content
    assert on_api.operations == on_page.operations, (on_page.describe(), on_api.describe())
    assert response[REQUESTS_HEADER] == str(on_page.count)


def test_the_investors_list_is_the_catalog_plus_one_query_per_fund(sample, api_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(2, ["Query", "Query"]):
        response = api_client.get("/api/v1/investors")
    assert response.json() == {"next": None, "investors": ["INVESTOR_1", "INVESTOR_2"]}


def test_documents_list_with_filters(sample, api_client):
    body = api_client.get("/api/v1/documents").json()
    assert [d["document_id"] for d in body["documents"]] == ["DOC002", "DOC001"]
    assert body["documents"][1]["as_of_date"] == "2025-09-30"
    assert body["next"] is None
    later = api_client.get("/api/v1/documents?from=2025-10-01").json()["documents"]
    assert [d["document_id"] for d in later] == ["DOC002"]
    assert api_client.get("/api/v1/documents?fund=FUND_Z").json()["documents"] == []


def test_document_overview_and_reconciliation(sample, api_client):
    body = api_client.get("/api/v1/documents/DOC001").json()
    assert body["document"]["document_id"] == "DOC001" and body["document"]["fund_id"] == "FUND_A"
    assert body["capital_activity"]["amount"] == {"amount": "500000.00", "currency": "USD"}
    assert [p["position_id"] for p in body["positions"]] == ["POSITION_1", "POSITION_2"]
    assert body["totals"][0]["called"] == {"amount": "800000.00", "currency": "USD"}
    flags = api_client.get("/api/v1/documents/DOC001/reconciliation").json()
    assert flags["activity"] == {"amount": "500000.00", "currency": "USD"}
    assert flags["calls"] == {"amount": "800000.00", "currency": "USD"}
    assert [f["kind"] for f in flags["flags"]] == ["activity_vs_calls"]
    assert flags["flags"][0]["difference"] == {"amount": "300000.00", "currency": "USD"}


def test_position_history_and_figures_as_of(sample, api_client):
    body = api_client.get("/api/v1/positions/POSITION_1").json()
    assert (body["fund_id"], body["investor_id"]) == ("FUND_A", "INVESTOR_1")
    assert [r["document_id"] for r in body["rows"]] == ["DOC001", "DOC002"]
    assert body["headline"][0]["figures"]["called"]["amount"] == "1250000.00"
    then = api_client.get("/api/v1/positions/POSITION_1/figures?as_of=2025-09-30").json()
    assert then["as_of"] == "2025-09-30"
    # As of 2025-09-30 only DOC001's flows count: the figures differ from today's.
    assert then["lines"][0]["figures"]["as_of"] == "2025-09-30"
    assert then["lines"][0]["figures"]["called"] != body["headline"][0]["figures"]["called"]


def test_reconciliation_flags_of_a_fund_and_a_position(sample, api_client):
    fund = api_client.get("/api/v1/funds/FUND_A/reconciliation").json()
    assert {(f["kind"], f["position_id"]) for f in fund["flags"]} >= {("unfunded_differs", "POSITION_1")}
    first = next(u for u in fund["unfunded"] if u["position_id"] == "POSITION_1")
    assert first["computed"]["amount"] == "750000.00" and first["reported"]["amount"] == "1500000.00"
    position = api_client.get("/api/v1/positions/POSITION_1/reconciliation").json()
    assert any(f["kind"] == "unfunded_differs" for f in position["flags"])


def test_the_audit_trail_of_a_document(sample, api_client, editor_client):
    changed = {
        "kind": "capital_call",
        "position_id": "POSITION_1",
        "fund_id": "FUND_A",
        "investor_id": "INVESTOR_1",
        "amount": "600000",
        "status": "Completed",
        "currency": "USD",
        "due_date": "2025-10-15",
    }
    edit = editor_client.post("/documents/DOC001/entries/capital_call/POSITION_1/edit/", changed)
    assert edit.status_code == 302
    body = api_client.get("/api/v1/documents/DOC001/audit").json()
    assert body["document_id"] == "DOC001" and body["next"] is None
    [entry] = body["entries"]
    assert (entry["user"], entry["action"]) == ("editor", "update")
    assert entry["changes"]["amount"] == ["500000", "600000"]
    assert entry["changes"]["due_date"] == [None, "2025-10-15"]


def test_positions_of_a_fund_or_an_investor(sample, api_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        body = api_client.get("/api/v1/positions?fund=FUND_A").json()
    assert [p["position_id"] for p in body["positions"]] == ["POSITION_1", "POSITION_2"]
    assert body["positions"][0]["commitment"] == {"amount": "2000000.00", "currency": "USD"}
    assert body["positions"][0]["currencies"] == ["USD"]
    mine = api_client.get("/api/v1/positions?investor=INVESTOR_1").json()["positions"]
    assert [p["position_id"] for p in mine] == ["POSITION_1"]
    for query in ("", "?fund=FUND_A&investor=INVESTOR_1"):
        response = api_client.get(f"/api/v1/positions{query}")
        assert response.status_code == 400 and response["Content-Type"] == "application/problem+json"
