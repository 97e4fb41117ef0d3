"""The Content-Security-Policy is enforced by the browser, and the check every browser
test makes (no CSP violation on the console, tests/browser/conftest.py) does catch one."""

from __future__ import annotations

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser


def test_the_browser_blocks_inline_script_and_reports_it(transactional_db, live_server, browser_page):
    response = browser_page.goto(f"{live_server.url}/accounts/login/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert browser_page.csp_violations == []  # the login page itself satisfies the policy
    with pytest.raises(sync_api.Error):
        browser_page.add_script_tag(content="window.injected = true;")  # an injected inline script
    assert browser_page.evaluate("window.injected === undefined")
    browser_page.wait_for_timeout(200)  # let the console event arrive
    assert any("script-src" in text for text in browser_page.csp_violations)
    browser_page.csp_violations.clear()  # provoked on purpose: not a failure of this page
