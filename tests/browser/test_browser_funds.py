"""The fund and investor pages in a real browser: from a document to its fund, from
the fund to an investor, and back to a position; every figure from the position register."""

from __future__ import annotations

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

ANALYST = ("analyst", "analyst-pass-123")


@pytest.fixture
def analyst_account(transactional_db, django_user_model):
    return django_user_model.objects.create_user(ANALYST[0], password=ANALYST[1])


def test_analyst_goes_from_a_document_to_its_fund_and_an_investor(
    local_sample, analyst_account, live_server, browser_page
):
    page, base = browser_page, live_server.url
    page.goto(f"{base}/documents/DOC001/")
    page.get_by_label("Username").fill(ANALYST[0])
    page.get_by_label("Password").fill(ANALYST[1])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/documents/DOC001/")

    page.get_by_test_id("fund-link").click()
    page.wait_for_url(f"{base}/funds/FUND_A/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Fund FUND_A")
    first = page.locator('#fund-positions tr[data-position="POSITION_1"]')
    second = page.locator('#fund-positions tr[data-position="POSITION_2"]')
    expect(first.get_by_test_id("called")).to_contain_text("USD 1,250,000.00")
    expect(second.get_by_test_id("called")).to_contain_text("USD 700,000.00")
    expect(first.get_by_test_id("distributed")).to_contain_text("USD 195,000.00")
    expect(second.get_by_test_id("distributed")).to_contain_text("USD 45,000.00")
    expect(first.get_by_test_id("commitment")).to_have_text("USD 2,000,000.00")
    expect(first.get_by_test_id("percent-called")).to_have_text("62.5 %")
    expect(page.get_by_test_id("total-called")).to_have_text("USD 1,950,000.00")
    expect(page.get_by_test_id("dynamodb-footer")).to_have_count(0)  # analysts are not staff

    first.get_by_role("link", name="INVESTOR_1").click()
    page.wait_for_url(f"{base}/investors/INVESTOR_1/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Investor INVESTOR_1")
    expect(page.locator("#investor-positions tbody tr")).to_have_count(1)
    row = page.locator('#investor-positions tr[data-position="POSITION_1"]')
    expect(row.get_by_test_id("dpi")).to_have_text("0.16x")
    expect(row.get_by_test_id("irr")).to_have_text("—")  # no NAV reported: undefined

    row.get_by_role("link", name="POSITION_1").click()
    page.wait_for_url(f"{base}/positions/POSITION_1/")
    expect(page.get_by_test_id("register-figures").get_by_test_id("commitment")).to_have_text("USD 2,000,000.00")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Funds").click()
    page.wait_for_url(f"{base}/funds/")
    expect(page.locator('#funds tr[data-fund="FUND_A"]')).to_contain_text("USD 3,150,000.00")
