"""Reading at a desk in a real browser (headless Debian chromium, DynamoDB Local, the seed
sample): at 1440 px no page scrolls sideways; the fund page sorts the rows shown by a header
click, the investor page every position by a header link; the position page's title and type
columns, its period and type filters, breadcrumbs, and a chart whose date labels never overlap,
with its NAV line."""

from __future__ import annotations

import itertools
from datetime import date
from decimal import Decimal

import pytest

from documents import services
from fundportal.domain.model import Document
from fundportal.domain.position_entries import NetAssetValue
from tests.browser.test_browser_pages import ANALYST, sign_in

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

DESK = {"width": 1440, "height": 900}
SEP = " \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} "  # between breadcrumbs
WIDE_PAGES = ["/funds/FUND_A/", "/investors/INVESTOR_1/", "/positions/POSITION_1/", "/documents/DOC001/"]


@pytest.fixture
def analyst_account(transactional_db, django_user_model):
    return django_user_model.objects.create_user(ANALYST[0], password=ANALYST[1])


def record_navs() -> None:
    """POSITION_1's NAVs at the sample's two dates, and a third document on DOC002's date (two
    documents of one date: one point, one label)."""
    for document_id, on, amount in (
        ("NAV_Q3", date(2025, 9, 30), 445_000),
        ("NAV_Q4", date(2025, 12, 31), 1_100_000),
    ):
        document = Document(document_id=document_id, title="Capital account statement", fund_id="FUND_A", as_of_date=on)
        services.document_create(document=document, user="setup")
        nav = NetAssetValue(document_id, "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(amount), "Active")
        services.entry_record(entry=nav, user="setup")


def order(page, table: str) -> list[str]:
    return page.locator(f"#{table} tbody tr").evaluate_all("rows => rows.map(r => r.dataset.position)")


def test_no_desk_page_scrolls_sideways_at_1440_px(local_sample, analyst_account, live_server, browser_page):
    record_navs()
    page, base = browser_page, live_server.url
    page.set_viewport_size(DESK)
    sign_in(page, base)
    widths = {}
    for url in WIDE_PAGES:
        page.goto(f"{base}{url}")
        widths[url] = page.evaluate("document.scrollingElement.scrollWidth")
    assert all(width <= 1440 for width in widths.values()), widths
    # The figure tables fit their column: no table wider than the page's content box either.
    for url in ("/funds/FUND_A/", "/investors/INVESTOR_1/"):
        page.goto(f"{base}{url}")
        fits = page.evaluate(
            "[...document.querySelectorAll('main table')].every(t => t.getBoundingClientRect().right"
            " <= document.querySelector('main').getBoundingClientRect().right + 1)"
        )
        assert fits, url


def test_the_fund_page_sorts_the_rows_shown_by_a_header_click(local_sample, analyst_account, live_server, browser_page):
    page, base = browser_page, live_server.url
    sign_in(page, base)
    page.goto(f"{base}/funds/FUND_A/")
    expect(page.get_by_test_id("sort-note")).to_contain_text("the page shown")
    assert order(page, "fund-positions") == ["POSITION_1", "POSITION_2"]
    page.locator("#fund-positions").get_by_test_id("sort-called").click()  # largest first
    assert order(page, "fund-positions") == ["POSITION_1", "POSITION_2"]  # 1,250,000 then 700,000
    expect(page.locator('#fund-positions th[data-sort="called"]')).to_have_attribute("aria-sort", "descending")
    page.locator("#fund-positions").get_by_test_id("sort-called").click()
    assert order(page, "fund-positions") == ["POSITION_2", "POSITION_1"]
    expect(page.locator('#fund-positions th[data-sort="called"]')).to_have_attribute("aria-sort", "ascending")
    page.locator("#fund-positions").get_by_test_id("sort-position").click()
    assert order(page, "fund-positions") == ["POSITION_1", "POSITION_2"]
    expect(page.locator('#fund-positions th[data-sort="called"]')).not_to_have_attribute("aria-sort", "ascending")


def test_the_investor_page_sorts_on_the_server_by_a_header_link(
    local_sample, analyst_account, live_server, browser_page
):
    page, base = browser_page, live_server.url
    sign_in(page, base)
    page.goto(f"{base}/investors/INVESTOR_1/")
    page.locator("#investor-positions").get_by_test_id("sort-distributed").click()
    page.wait_for_url(f"{base}/investors/INVESTOR_1/?sort=-distributed")
    expect(page.get_by_test_id("positions-shown")).to_contain_text("sorted by Distributed, descending")
    expect(page.locator('#investor-positions th[data-sort="distributed"]')).to_have_attribute("aria-sort", "descending")
    page.get_by_test_id("natural-order").click()
    page.wait_for_url(f"{base}/investors/INVESTOR_1/?")
    expect(page.get_by_test_id("positions-shown")).to_contain_text("natural order")


def test_the_position_page_shows_titles_and_types_and_filters_by_type(
    local_sample, analyst_account, live_server, browser_page
):
    page, base = browser_page, live_server.url
    page.set_viewport_size(DESK)
    sign_in(page, base)
    page.goto(f"{base}/positions/POSITION_1/")
    documents = page.locator("#documents tbody tr[data-document]")
    expect(documents).to_have_count(2)
    expect(page.locator("#documents thead")).to_contain_text("Title")
    first = page.locator('#documents tr[data-document="DOC001"]')
    expect(first.get_by_test_id("document-title")).to_have_text("Q3 2025 capital account statement")
    expect(first.get_by_test_id("document-type")).to_have_text("Capital account statement")
    page.get_by_label("Type", exact=True).select_option(label="Capital call notice")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(f"{base}/positions/POSITION_1/?from_date=&to_date=&document_type=capital_call_notice")
    expect(documents).to_have_count(1)
    expect(page.locator('#documents tr[data-document="DOC002"]')).to_be_visible()
    expect(page.get_by_test_id("period-note")).to_contain_text("of type Capital call notice")
    expect(page.get_by_label("Type", exact=True)).to_have_value("capital_call_notice")
    page.get_by_test_id("clear-period").click()
    expect(documents).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= DESK["width"]


def test_the_position_page_filters_by_period_and_leads_back_through_breadcrumbs(
    local_sample, analyst_account, live_server, browser_page
):
    page, base = browser_page, live_server.url
    sign_in(page, base)
    page.goto(f"{base}/positions/POSITION_1/")
    documents = page.locator("#documents tbody tr[data-document]")
    expect(documents).to_have_count(2)
    page.get_by_label("From (as of)").fill("2025-10-01")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(f"{base}/positions/POSITION_1/?from_date=2025-10-01&to_date=&document_type=")
    expect(documents).to_have_count(1)
    expect(page.locator('#documents tr[data-document="DOC002"]')).to_be_visible()
    expect(page.get_by_test_id("period-note")).to_contain_text("stay the whole position")
    expect(page.get_by_test_id("register-figures").get_by_test_id("total-called")).to_have_text("USD 1,250,000.00")
    page.get_by_test_id("clear-period").click()
    expect(documents).to_have_count(2)
    crumbs = page.get_by_test_id("breadcrumbs")
    expect(crumbs).to_have_text(SEP.join(["Funds", "Fund FUND_A", "Investor INVESTOR_1", "Position POSITION_1"]))
    crumbs.get_by_test_id("breadcrumb-investor").click()
    page.wait_for_url(f"{base}/investors/INVESTOR_1/")
    page.goto(f"{base}/positions/POSITION_1/")
    page.get_by_test_id("breadcrumbs").get_by_test_id("breadcrumb-fund").click()
    page.wait_for_url(f"{base}/funds/FUND_A/")


def test_the_chart_has_a_nav_line_and_date_labels_that_never_overlap(
    local_sample, analyst_account, live_server, browser_page
):
    record_navs()
    page, base = browser_page, live_server.url
    page.set_viewport_size(DESK)
    sign_in(page, base)
    page.goto(f"{base}/positions/POSITION_1/")
    chart = page.locator("svg.chart").first
    expect(chart.locator('polyline[data-series="nav"]')).to_have_count(1)
    expect(chart.locator("text.legend")).to_have_text(["Called (paid-in)", "Distributed", "NAV"])
    boxes = chart.locator("text.date-label").evaluate_all(
        "labels => labels.map(l => { const r = l.getBoundingClientRect(); return [l.textContent, r.left, r.right]; })"
    )
    texts = [text for text, _, _ in boxes]
    assert texts == sorted(set(texts)) == ["2025-09-30", "2025-12-31"]  # four documents, two dates
    assert all(a[2] <= b[1] for a, b in itertools.pairwise(boxes)), boxes  # no two overlap
    svg = chart.evaluate("s => { const r = s.getBoundingClientRect(); return [r.left, r.right]; }")
    assert all(svg[0] <= left and right <= svg[1] for _, left, right in boxes), (boxes, svg)  # none cut off
