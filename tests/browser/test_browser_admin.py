"""Smoke test of the admin's DynamoDB section in a real browser (Debian's chromium, headless,
driven by Playwright; no browser download) against a live server on DynamoDB Local."""

from __future__ import annotations

import pytest

playwright_sync = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

STAFF = ("operator", "operator-pass-123")


@pytest.fixture
def operator(transactional_db, django_user_model):
    """A staff user, created before the browser starts (the ORM is not used while it runs)."""
    return django_user_model.objects.create_user(STAFF[0], password=STAFF[1], is_staff=True)


def test_staff_explores_the_dynamodb_section(local_sample, operator, live_server, browser_page):
    page = browser_page
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", STAFF[0])
    page.fill("#id_password", STAFF[1])
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/")

    module = page.locator("#dynamodb-module")
    playwright_sync.expect(module.get_by_role("link", name="DynamoDB")).to_be_visible()
    module.get_by_role("link", name="Table and indexes").click()
    playwright_sync.expect(page.get_by_test_id("table-status")).to_have_text("ACTIVE")
    index_rows = page.locator("tr.index-row")
    playwright_sync.expect(index_rows).to_have_count(6)
    indexes = (
        "GSI_Entity_Document",
        "GSI_Position_Document",
        "GSI_Latest_Documents_By_Month",
        "GSI_Investor_Position",
        "GSI_Document_Position",
        "GSI_Fund_Position",
    )
    for name in indexes:
        playwright_sync.expect(page.locator(f'tr[data-index="{name}"] td.status-active')).to_have_text("ACTIVE")
    playwright_sync.expect(page.locator(".breadcrumbs")).to_contain_text("DynamoDB")

    page.locator(".breadcrumbs").get_by_role("link", name="DynamoDB").click()
    page.get_by_role("link", name="Item-collection explorer").click()
    page.fill("#id_document", "DOC001")
    page.get_by_role("button", name="Explore").click()
    items = page.locator("tr.collection-item")
    playwright_sync.expect(items).to_have_count(10)
    playwright_sync.expect(page.locator('tr[data-sk="DOCUMENT#2025-09-01"]')).to_be_visible()
    playwright_sync.expect(page.get_by_test_id("explorer-cost")).to_contain_text("1 request")

    page.locator('tr[data-sk="CAPITAL_CALL#POSITION_1"] summary').click()
    playwright_sync.expect(page.locator('tr[data-sk="CAPITAL_CALL#POSITION_1"] pre.json')).to_contain_text(
        '"Amount": 500000'
    )
