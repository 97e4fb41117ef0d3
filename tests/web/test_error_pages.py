"""A typed error that escapes a view gets its own page from the middleware, worded by
`fundportal.messages.describe`: someone else's change 409 (naming who changed what), not found
404, a bad id or page link 400, DynamoDB unavailable 503 (the cause logged, never shown)."""

from __future__ import annotations

import html
import logging
from datetime import UTC, datetime

import pytest

from fundportal.domain.errors import BadCursor, Conflict, CursorExpired, ImportConflict, InvalidId, NotFound
from fundportal.messages import describe
from fundportal.store.errors import StoreUnavailable
from fundportal.store.uow import RegisterChanged
from funds import selectors as fund_selectors

pytestmark = pytest.mark.django_db

AT = datetime(2025, 10, 1, 9, 30, 5, tzinfo=UTC)
UNAVAILABLE = "Temporarily unavailable"


def _page_raising(client, monkeypatch, error: Exception):
    """The fund page, its selector raising `error` (as a read or a write deep down would)."""

    def raising(**kwargs):
        raise error

    monkeypatch.setattr(fund_selectors, "fund_detail", raising)
    response = client.get("/funds/FUND_A/")
    return response, html.unescape(response.content.decode())


def test_a_conflict_is_the_409_page_naming_who_changed_what(backend, analyst_client, monkeypatch):
    conflict = Conflict("Document", "DOC001", 2, 3, "alice", AT)
    response, page = _page_raising(analyst_client, monkeypatch, conflict)
    assert response.status_code == 409
    assert "Document DOC001 was changed by alice at 2025-10-01 09:30:05 UTC" in " ".join(
        page.replace("<strong>", "").replace("</strong>", "").split()
    )
    assert "now revision 3" in page and "Nothing was written" in page
    assert UNAVAILABLE not in page


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(RegisterChanged(("POSITION_1",)), id="register-moved"),
        pytest.param(ImportConflict(ImportConflict.ENTRY_TAKEN, "NOTICE_1", "capital_call", "NP_007"), id="import"),
    ],
)
def test_a_change_someone_else_made_first_is_the_409_page_in_its_own_words(backend, analyst_client, monkeypatch, error):
    response, page = _page_raising(analyst_client, monkeypatch, error)
    assert response.status_code == 409
    assert describe(error) in page
    assert UNAVAILABLE not in page


@pytest.mark.parametrize(
    ("error", "status"),
    [
        pytest.param(NotFound("Fund", "FUND_Z"), 404, id="not-found"),
        pytest.param(InvalidId("fund id", "a b"), 400, id="invalid-id"),
        pytest.param(BadCursor(), 400, id="bad-cursor"),
        pytest.param(CursorExpired(), 400, id="expired-cursor"),
    ],
)
def test_a_missing_item_or_a_bad_link_gets_its_page_and_words(backend, analyst_client, monkeypatch, error, status):
    response, page = _page_raising(analyst_client, monkeypatch, error)
    assert response.status_code == status
    assert describe(error) in page
    assert UNAVAILABLE not in page


def test_an_unavailable_store_is_the_503_page_with_the_cause_only_in_the_log(
    backend, analyst_client, monkeypatch, caplog
):
    with caplog.at_level(logging.ERROR, logger="fundportal.requests"):
        response, page = _page_raising(analyst_client, monkeypatch, StoreUnavailable("secret-host refused"))
    assert response.status_code == 503
    assert UNAVAILABLE in page and "secret-host" not in page
    assert any("secret-host refused" in record.getMessage() for record in caplog.records)
