"""A document's audit trail, page by page, on the page and in the API: newest first, a signed
cursor bound to the document, one Query a page (beside the document's GetItem), and a walk that
neither repeats nor skips a change while new ones are written."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from api.urls import REQUESTS_HEADER

pytestmark = pytest.mark.django_db

EDIT = "/documents/DOC001/entries/capital_call/POSITION_1/edit/"


def edit(editor_client, amount: int) -> None:
    changed = {
        "kind": "capital_call",
        "position_id": "POSITION_1",
        "fund_id": "FUND_A",
        "investor_id": "INVESTOR_1",
        "amount": str(amount),
        "status": "Completed",
        "currency": "USD",
        "due_date": "2025-10-15",
    }
    assert editor_client.post(EDIT, changed).status_code == 302


def amounts(entries: list[dict]) -> list[str]:
    return [e["changes"]["amount"][1] for e in entries]


def cursor_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["cursor"][0]


def test_the_api_walks_the_trail_page_by_page_while_changes_are_written(
    sample, api_client, editor_client, settings, django_assert_dynamodb_requests
):
    settings.AUDIT_PAGE_SIZE = 2
    for amount in (600_000, 610_000, 620_000):
        edit(editor_client, amount)
    with django_assert_dynamodb_requests(2, ["GetItem", "Query"]):
        first = api_client.get("/api/v1/documents/DOC001/audit")
    assert first.status_code == 200 and first[REQUESTS_HEADER] == "2"
    body = first.json()
    assert amounts(body["entries"]) == ["620000", "610000"]
    assert body["next"].startswith("http://testserver/api/v1/documents/DOC001/audit?cursor=")
    edit(editor_client, 630_000)  # written during the walk: newer than every page still to come
    with django_assert_dynamodb_requests(2, ["GetItem", "Query"]):
        second = api_client.get(body["next"]).json()
    assert amounts(second["entries"]) == ["600000"]
    assert second["next"] is None or api_client.get(second["next"]).json()["entries"] == []
    # A new walk starts with the newest change.
    assert amounts(api_client.get("/api/v1/documents/DOC001/audit").json()["entries"]) == ["630000", "620000"]


def test_an_audit_cursor_is_bound_to_its_document_and_tamper_proof(sample, api_client, editor_client, settings):
    settings.AUDIT_PAGE_SIZE = 1
    for amount in (600_000, 610_000):
        edit(editor_client, amount)
    cursor = cursor_of(api_client.get("/api/v1/documents/DOC001/audit").json()["next"])
    for path in (f"/api/v1/documents/DOC002/audit?cursor={cursor}", f"/api/v1/documents/DOC001/audit?cursor={cursor}x"):
        response = api_client.get(path)
        assert response.status_code == 400, path
        assert response["Content-Type"] == "application/problem+json"


def test_the_audit_page_links_to_the_older_changes(sample, analyst_client, editor_client, settings):
    settings.AUDIT_PAGE_SIZE = 2
    for amount in (600_000, 610_000, 620_000):
        edit(editor_client, amount)
    first = analyst_client.get("/documents/DOC001/audit/")
    html = first.content.decode()
    assert "→ 620000" in html and "→ 600000" not in html  # a change shows "before → after"
    older = unquote(unescape(re.search(r'href="\?cursor=([^"]+)" rel="next"', html).group(1)))
    second = analyst_client.get("/documents/DOC001/audit/", {"cursor": older}).content.decode()
    assert "→ 600000" in second and "→ 620000" not in second
    assert analyst_client.get("/documents/DOC001/audit/", {"cursor": older + "x"}).status_code == 400
