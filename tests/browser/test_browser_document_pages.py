"""Clicking through a long document's pages in a real browser: Next shows the next 100
positions, Previous comes back, and the capital activity stays the headline on every page.
Headless Debian chromium, DynamoDB Local, a 250-position document."""

from __future__ import annotations

import pytest

from tests.browser.test_browser_pages import ANALYST, sign_in
from tests.long_documents import load_long_document, position_id

pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser


@pytest.fixture
def analyst_account(transactional_db, django_user_model):
    return django_user_model.objects.create_user(ANALYST[0], password=ANALYST[1])


def shown_positions(page) -> list[str]:
    return page.eval_on_selector_all("#positions tbody tr[data-position]", "rows => rows.map(r => r.dataset.position)")


def test_next_and_previous_page_through_a_long_document(local_backend, analyst_account, live_server, browser_page):
    load_long_document("LONG", positions=250, workers=4)
    page, base = browser_page, live_server.url
    sign_in(page, base)
    page.goto(f"{base}/documents/LONG/")
    assert shown_positions(page) == [position_id(n) for n in range(1, 101)]
    assert page.get_by_test_id("previous-page").count() == 0

    page.get_by_test_id("next-page").click()
    page.wait_for_load_state()
    assert shown_positions(page) == [position_id(n) for n in range(101, 201)]
    assert "rows 101" in page.get_by_test_id("page-number").inner_text()
    assert "123,456.78" in page.get_by_test_id("activity-amount").inner_text()

    page.get_by_test_id("next-page").click()
    page.wait_for_load_state()
    assert shown_positions(page) == [position_id(n) for n in range(201, 251)]
    assert page.get_by_test_id("next-page").count() == 0

    page.get_by_test_id("previous-page").click()
    page.wait_for_load_state()
    assert shown_positions(page) == [position_id(n) for n in range(101, 201)]
