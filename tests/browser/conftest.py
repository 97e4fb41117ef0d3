"""Browser-test plumbing: Debian's chromium through Playwright (never a browser download), and
a screenshot in test-artifacts/ when a test that used `browser_page` fails."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item so fixtures can see whether the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def browser_page(request, monkeypatch) -> Iterator:
    """A page in headless Debian chromium; on failure its screenshot goes to test-artifacts/."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI"):  # in CI a missing browser is a broken install, not a skip
            pytest.fail(f"{CHROMIUM} is not installed: `make test` should have installed it (make chromium)")
        pytest.skip(f"{CHROMIUM} is not installed (make chromium)")
    # Playwright's sync API runs an event loop in this thread; Django's async-safety check
    # would otherwise refuse the ORM calls of the fixtures (users, teardown) in this thread.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        # Every page a browser test visits must satisfy the Content-Security-Policy:
        # Chromium reports each violation on the console.
        violations: list[str] = []
        page.on(
            "console",
            lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None,
        )
        page.csp_violations = violations  # a test that provokes one on purpose empties it
        yield page
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        context.close()
        browser.close()
        if violations and not (report is not None and report.failed):
            pytest.fail("Content-Security-Policy violations in the console:\n" + "\n".join(violations))
