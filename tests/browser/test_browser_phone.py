"""Phone width: at 390 px no page scrolls sideways; wide tables scroll inside their
own box and the chart keeps a legible scale. Headless Debian chromium, DynamoDB Local, the seed
sample plus a 100-position document."""

from __future__ import annotations

import pytest

from tests.browser.test_browser_pages import ANALYST, sign_in
from tests.wide_documents import load_wide_document

pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PAGES = [
    "/documents/",
    "/documents/?type=capital_account_statement",
    "/documents/search/?q=pos",
    "/documents/DOC001/",
    "/documents/WIDE100/",
    "/documents/WIDE100/?sort=capital_call&order=desc&investor=INVESTOR_1",
    "/documents/DOC001/positions/POSITION_1/",
    "/documents/DOC001/history/",
    "/positions/POSITION_1/",
    "/funds/FUND_A/",  # the fund page
    "/investors/INVESTOR_1/",  # the investor page
]


@pytest.fixture
def analyst_account(transactional_db, django_user_model):
    return django_user_model.objects.create_user(ANALYST[0], password=ANALYST[1])


def test_no_page_scrolls_sideways_at_390_px(local_sample, analyst_account, live_server, browser_page):
    load_wide_document(positions=100)
    page, base = browser_page, live_server.url
    page.set_viewport_size(PHONE)
    sign_in(page, base)
    widths = {}
    for url in PAGES:
        page.goto(f"{base}{url}")
        widths[url] = page.evaluate("document.documentElement.scrollWidth")
    assert all(width <= 400 for width in widths.values()), widths
    # The wide positions table scrolls inside its own box: wider than the box, the page is not.
    page.goto(f"{base}/documents/WIDE100/")
    box = page.evaluate(
        "(() => { const b = document.querySelector('.table-scroll.sticky'); return [b.scrollWidth, b.clientWidth]; })()"
    )
    assert box[0] > box[1]
    # The chart is drawn at a legible scale (>= 560 px wide), inside its scrolling card.
    page.goto(f"{base}/positions/POSITION_1/")
    chart_width = page.evaluate("document.querySelector('svg.chart').getBoundingClientRect().width")
    assert chart_width >= 560
    tick_px = page.evaluate("document.querySelector('svg.chart text.tick').getBoundingClientRect().height")
    assert tick_px >= 10
