"""Errors are RFC 9457 problem details (never HTML, never a stack trace); the access scope of
the token's user holds; lists are cursor-paged with signed, bound, expiring `next` links; the
OpenAPI schema and the docs (assets served locally) are there."""

from __future__ import annotations

import time

import pytest
from django.contrib.staticfiles import finders
from django.core import signing
from django.test import Client

from api import problems, tokens
from fundportal.access import grants
from fundportal.domain.errors import Conflict, NotPermitted
from fundportal.store.errors import StoreUnavailable

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


def is_problem(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["status"] == status and body["title"] and "Traceback" not in response.content.decode()
    return body


def test_a_bad_date_is_400_naming_the_field(sample, api_client):
    body = is_problem(api_client.get("/api/v1/funds/FUND_A/lines?as_of=2025-13-45"), 400)
    assert [e["field"] for e in body["errors"]] == ["as_of"]
    body = is_problem(api_client.get("/api/v1/documents?from=yesterday"), 400)
    assert [e["field"] for e in body["errors"]] == ["from"]
    body = is_problem(api_client.get("/api/v1/funds?limit=0"), 400)
    assert [e["field"] for e in body["errors"]] == ["limit"]


def test_a_bad_id_is_400_and_an_unknown_one_404(sample, api_client):
    is_problem(api_client.get("/api/v1/funds/bad%23id/lines"), 400)
    is_problem(api_client.get("/api/v1/documents?fund=bad%23id"), 400)
    body = is_problem(api_client.get("/api/v1/funds/FUND_Z/lines"), 404)
    assert "FUND_Z" in body["detail"]
    is_problem(api_client.get("/api/v1/documents/DOC999"), 404)
    is_problem(api_client.get("/api/v1/positions/POSITION_9"), 404)


def test_an_unknown_path_is_a_404_problem_not_the_html_page(sample, api_client):
    is_problem(api_client.get("/api/v1/nothing/here"), 404)
    is_problem(Client().get("/api/v1/nothing/here"), 404)


def test_an_unavailable_store_is_503_with_the_cause_only_in_the_log(sample, api_client, monkeypatch):
    def unavailable(**kwargs):
        raise StoreUnavailable("secret-host refused")

    monkeypatch.setattr("funds.selectors.fund_detail", unavailable)
    body = is_problem(api_client.get("/api/v1/funds/FUND_A/lines"), 503)
    assert "secret-host" not in body["detail"]


def test_an_unexpected_error_is_a_500_problem_without_a_trace(sample, api_client, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("internal detail")

    monkeypatch.setattr("funds.selectors.fund_detail", broken)
    body = is_problem(api_client.get("/api/v1/funds/FUND_A/lines"), 500)
    assert "internal detail" not in body["detail"]


@pytest.mark.parametrize(
    ("error", "status"),
    [(Conflict("Document", "DOC001", 1, 2, "someone"), 409), (NotPermitted("edit", "FUND_A"), 403)],
)
def test_typed_errors_map_to_the_pages_statuses(rf, error, status):
    response = problems.domain_error(rf.get("/api/v1/funds"), error)
    assert response.status_code == status and response["Content-Type"] == PROBLEM


# --- scope ----------------------------------------------------------------------------------------


@pytest.mark.coverage_as_granted
def test_a_token_sees_only_what_its_user_covers(sample, django_user_model):
    user = django_user_model.objects.create_user("narrow")
    grants.grant_funds(user=user, funds=["FUND_B"])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {tokens.issue(user, 'nb').token}")
    is_problem(client.get("/api/v1/funds/FUND_A/lines"), 404)
    is_problem(client.get("/api/v1/documents/DOC001"), 404)
    is_problem(client.get("/api/v1/positions/POSITION_1"), 404)
    assert client.get("/api/v1/funds").json()["funds"] == []
    assert client.get("/api/v1/investors").json()["investors"] == []
    assert client.get("/api/v1/documents").json()["documents"] == []


# --- paging ---------------------------------------------------------------------------------------


def walk(client: Client, url: str, key: str) -> list:
    rows, pages = [], 0
    while url:
        body = client.get(url).json()
        rows += body[key]
        url, pages = body["next"], pages + 1
        assert pages < 10
    return rows


def test_fund_lines_walk_page_by_page(sample, api_client):
    first = api_client.get("/api/v1/funds/FUND_A/lines?limit=1").json()
    assert [line["position_id"] for line in first["lines"]] == ["POSITION_1"]
    assert first["next"].startswith("http://testserver/api/v1/funds/FUND_A/lines?") and "limit=1" in first["next"]
    lines = walk(api_client, "/api/v1/funds/FUND_A/lines?limit=1", "lines")
    assert [line["position_id"] for line in lines] == ["POSITION_1", "POSITION_2"]
    assert walk(api_client, "/api/v1/investors?limit=1", "investors") == ["INVESTOR_1", "INVESTOR_2"]


def test_a_cursor_is_bound_to_its_query_and_tamper_proof(sample, api_client):
    cursor = api_client.get("/api/v1/funds/FUND_A/lines?limit=1").json()["next"].split("cursor=")[1]
    body = is_problem(api_client.get(f"/api/v1/investors/INVESTOR_1/lines?cursor={cursor}"), 400)
    assert body["field"] == "cursor"
    is_problem(api_client.get(f"/api/v1/funds/FUND_A/lines?as_of=2020-01-01&cursor={cursor}"), 400)
    is_problem(api_client.get(f"/api/v1/funds/FUND_A/lines?cursor={cursor[:-2]}xx"), 400)


def test_a_cursor_expires(sample, api_client, settings, monkeypatch):
    cursor = api_client.get("/api/v1/funds/FUND_A/lines?limit=1").json()["next"].split("cursor=")[1]
    later = time.time() + getattr(settings, "CURSOR_MAX_AGE", 3600) + 5
    monkeypatch.setattr(signing.time, "time", lambda: later)
    is_problem(api_client.get(f"/api/v1/funds/FUND_A/lines?cursor={cursor}"), 400)


# --- schema and docs ------------------------------------------------------------------------------


def test_the_openapi_schema_is_served_and_names_every_endpoint(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    assert {"/api/v1/funds/{fund_id}/lines", "/api/v1/positions/{position_id}", "/api/v1/documents"} <= set(
        schema["paths"]
    )
    [scheme] = schema["components"]["securitySchemes"].values()
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")


def test_the_docs_load_their_assets_from_this_site(client):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page and "cdn." not in page
    # Shipped inside django-ninja and collected with the site's static files (no CDN download).
    assert finders.find("ninja/swagger-ui-bundle.js") and finders.find("ninja/swagger-ui.css")


def test_the_documents_filters_are_checked_like_the_page(sample, api_client):
    body = is_problem(api_client.get("/api/v1/documents?from=2025-12-01&to=2025-01-01"), 400)
    assert [e["field"] for e in body["errors"]] == ["from"]
    body = is_problem(api_client.get("/api/v1/documents?type=nonsense"), 400)
    assert [e["field"] for e in body["errors"]] == ["type"]
