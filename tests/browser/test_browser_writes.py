"""Analyst writes in a real browser: an editor records a capital call for a new
position in DOC001 and sees the new totals; a viewer sees no edit controls and gets 403.

Headless Debian chromium via Playwright (`browser_page` in conftest) against the live server
on DynamoDB Local with the seed sample.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission

from fundportal.domain.kinds import Kind
from fundportal.models import EDITORS_GROUP

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

EDITOR = ("editor", "editor-pass-123")
VIEWER = ("viewer", "viewer-pass-123")


@pytest.fixture
def accounts(transactional_db, django_user_model):
    """An editor (in "Fund editors") and a viewer, created before the browser starts.

    The group is fetched or re-created: transactional tests flush the database, which removes
    rows written by data migrations (the migration itself is tested in test_writes.py)."""
    group, _ = Group.objects.get_or_create(name=EDITORS_GROUP)
    group.permissions.add(Permission.objects.get(codename="edit_fund_data", content_type__app_label="fundportal"))
    editor = django_user_model.objects.create_user(EDITOR[0], password=EDITOR[1])
    editor.groups.add(group)
    django_user_model.objects.create_user(VIEWER[0], password=VIEWER[1])


def usd_total_called(page):
    """The tfoot's called total of the USD row (one row per currency)."""
    return page.locator('tr[data-testid="document-totals"][data-currency="USD"] [data-testid="total-called"]')


def amount_then_pending(amount: str) -> re.Pattern[str]:
    """The total itself, optionally followed by its pending part ("pending USD ...")."""
    return re.compile(rf"^\s*{re.escape(amount)}(?![\d,.])")


def sign_in(page, base_url: str, account: tuple[str, str]) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username", exact=True).fill(account[0])
    page.get_by_label("Password", exact=True).fill(account[1])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base_url}/documents/")


def test_editor_records_a_capital_call_and_sees_the_new_totals(local_draft_sample, accounts, live_server, browser_page):
    page, base = browser_page, live_server.url
    sign_in(page, base, EDITOR)
    page.goto(f"{base}/documents/DOC001/")
    expect(usd_total_called(page)).to_have_text(amount_then_pending("USD 800,000.00"))
    expect(page.locator('#positions tr[data-position="POSITION_3"]')).to_have_count(0)

    page.get_by_role("link", name="Record an entry").click()
    page.wait_for_url(f"{base}/documents/DOC001/entries/new/")
    expect(page.get_by_label("Fund id", exact=True)).to_have_value("FUND_A")  # prefilled from the document
    page.get_by_label("Entry", exact=True).select_option(label="Capital call")
    page.get_by_label("Position id", exact=True).fill("POSITION_3")
    page.get_by_label("Investor id", exact=True).fill("INVESTOR_3")
    page.get_by_label("Amount", exact=True).fill("250000.50")
    page.get_by_label("Status", exact=True).select_option("Pending")
    page.get_by_label("Due date (optional)", exact=True).fill("2025-10-15")
    page.get_by_role("button", name="Record entry").click()

    page.wait_for_url(f"{base}/documents/DOC001/")
    expect(page.get_by_role("status")).to_contain_text("Capital call for POSITION_3 recorded: USD 250,000.50.")
    expect(usd_total_called(page)).to_have_text(amount_then_pending("USD 1,050,000.50"))
    row = page.locator('#positions tr[data-position="POSITION_3"]')
    expect(row).to_contain_text("USD 250,000.50")
    expect(row).to_contain_text("INVESTOR_3")

    # Stored once, with its index keys (the position index finds it), and who recorded it.
    repo = local_draft_sample.repository
    [indexed] = local_draft_sample.positions.entries("POSITION_3", Kind.CAPITAL_CALL)
    assert (indexed.document_id, indexed.amount) == ("DOC001", Decimal("250000.50"))
    assert repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_3").updated_by == "editor"

    page.get_by_role("link", name="Audit trail").click()
    expect(page.get_by_test_id("audit-trail")).to_contain_text("CapitalCall POSITION_3")
    expect(page.get_by_test_id("audit-trail")).to_contain_text("editor")


def test_viewer_sees_no_edit_controls_and_cannot_open_the_forms(local_sample, accounts, live_server, browser_page):
    page, base = browser_page, live_server.url
    sign_in(page, base, VIEWER)
    page.goto(f"{base}/documents/DOC001/")
    expect(usd_total_called(page)).to_have_text(amount_then_pending("USD 800,000.00"))
    expect(page.get_by_role("link", name="Record an entry")).to_have_count(0)
    expect(page.get_by_role("link", name="Restate")).to_have_count(0)
    expect(page.get_by_role("link", name="Change")).to_have_count(0)
    response = page.goto(f"{base}/documents/DOC001/entries/new/")
    assert response.status == 403
    expect(page.get_by_role("heading", level=1)).to_contain_text("Permission denied")
