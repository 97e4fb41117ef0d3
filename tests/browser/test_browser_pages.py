"""The analyst journey in a real browser: sign in, list, DOC001, POSITION_1, CSV.

Runs headless Debian chromium via Playwright against pytest-django's live server on DynamoDB
Local with the seed sample. Set PAGE_SCREENSHOTS=<dir> to keep a screenshot of every page.
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

ANALYST = ("analyst", "analyst-pass-123")


@pytest.fixture
def analyst_account(transactional_db, django_user_model):
    """Created before the browser starts (the live server reads it from the shared database)."""
    return django_user_model.objects.create_user(ANALYST[0], password=ANALYST[1])


def snapshot(page, name: str) -> None:
    folder = os.environ.get("PAGE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def sign_in(page, base_url: str) -> None:
    page.goto(f"{base_url}/documents/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()  # sent to the login form
    snapshot(page, "0-login")
    page.get_by_label("Username").fill(ANALYST[0])
    page.get_by_label("Password").fill(ANALYST[1])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base_url}/documents/")


def test_analyst_follows_a_position_across_documents(local_sample, analyst_account, live_server, browser_page):
    page, base = browser_page, live_server.url
    sign_in(page, base)

    # The list shows every current document across months, newest first.
    expect(page.locator("#document-list tbody tr").first).to_have_attribute("data-document", "DOC002")
    expect(page.get_by_role("link", name="DOC002")).to_be_visible()
    snapshot(page, "1-list")
    page.get_by_role("link", name="DOC001").click()
    page.wait_for_url(f"{base}/documents/DOC001/")

    # Document overview.
    expect(page.get_by_role("heading", level=1)).to_contain_text("Q3 2025 capital account statement")
    row = page.locator('#positions tr[data-position="POSITION_1"]')
    expect(row).to_contain_text("USD 500,000.00")
    expect(page.locator('#positions tr[data-position="POSITION_2"]')).to_contain_text("USD 300,000.00")
    totals = page.locator('tr[data-testid="document-totals"]')
    expect(totals).to_have_count(1)  # one currency, one row
    expect(totals.get_by_test_id("total-called")).to_have_text(re.compile(r"^\s*USD 800,000\.00(?![\d,.])"))
    expect(totals.get_by_test_id("total-dpi")).to_contain_text("0.15x")
    expect(page.get_by_test_id("history-count")).to_have_text("1 historical version")
    snapshot(page, "2-document")

    # The position in this document, then the position across documents.
    row.get_by_role("link", name="POSITION_1", exact=True).click()
    page.wait_for_url(f"{base}/documents/DOC001/positions/POSITION_1/")
    expect(page.locator('#entries tr[data-kind="capital_call"]')).to_contain_text("USD 500,000.00")
    snapshot(page, "3-position-in-document")
    page.get_by_role("link", name="POSITION_1 across documents").click()
    page.wait_for_url(f"{base}/positions/POSITION_1/")

    expect(page.locator('#documents tr[data-document="DOC001"]')).to_contain_text("500,000")
    expect(page.locator('#documents tr[data-document="DOC002"]')).to_contain_text("750,000")
    expect(page.get_by_test_id("total-called")).to_have_text("USD 1,250,000.00")
    expect(page.get_by_test_id("total-distributed")).to_have_text("USD 195,000.00")
    expect(page.get_by_test_id("dpi")).to_have_text("0.16x")
    expect(page.get_by_test_id("dpi-settled")).to_have_text("0.10x")
    expect(page.locator("svg.chart")).to_be_visible()
    snapshot(page, "4-position")

    # CSV export: the same rows, exact decimals.
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download CSV").click()
    download = download_info.value
    assert download.suggested_filename == "position-POSITION_1.csv"
    with open(download.path(), newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["document_id"], r["capital_call"], r["called_to_date"]) for r in rows] == [
        ("DOC001", "500000.00", "500000.00"),
        ("DOC002", "750000.00", "1250000.00"),
    ]
    assert rows[-1]["distributed_to_date"] == "195000.00"


def test_analyst_compares_history_and_sees_clear_errors(local_sample, analyst_account, live_server, browser_page):
    page, base = browser_page, live_server.url
    sign_in(page, base)
    page.goto(f"{base}/documents/DOC001/history/")
    page.get_by_role("link", name="Compare with current").click()
    expect(page.get_by_role("heading", name="Current vs version 2025-09-01")).to_be_visible()
    expect(page.locator("#comparison tr.changed").first).to_contain_text("Title")
    snapshot(page, "5-history")

    page.goto(f"{base}/documents/DOC001/history/?from=2025-10-01&to=2025-09-01")
    expect(page.get_by_role("alert")).to_contain_text("must be on or before")
    page.goto(f"{base}/documents/NOPE/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Not found")
    page.goto(f"{base}/documents/bad%23id/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bad request")
    snapshot(page, "6-bad-request")
