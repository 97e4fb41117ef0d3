"""The per-request DynamoDB time
budget, bounded expiring page cursors, the plain 503 page, the Content-Security-Policy and the
request log shared by every worker."""

from __future__ import annotations

import logging
import re
import time
from datetime import date
from decimal import Decimal

import pytest
from django.core import signing
from django.urls import reverse

from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall
from fundportal.store import budget
from fundportal.store.client import get_client
from fundportal.store.instrumentation import Collector, PageLogBuffer, RequestRecord, page_log
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.documents import document_items

pytestmark = pytest.mark.django_db


class SlowStore:
    """A clock that moves `step` seconds each time the budget looks at it: every DynamoDB call
    of the page 'takes' that long, without a real wait."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


# --- 4. the request budget -----------------------------------------------------------------------


def test_a_page_whose_calls_exceed_the_budget_gets_the_503_page(sample, analyst_client, settings, monkeypatch, caplog):
    """Was: each call had its own timeouts and a slow store ran into gunicorn's 30 s kill (a
    bare 500). Now the second call of the page finds the budget spent: the 503 page."""
    settings.DYNAMODB_REQUEST_BUDGET = 20
    monkeypatch.setattr(budget, "clock", SlowStore(step=12))
    with caplog.at_level(logging.ERROR, logger="fundportal.requests"):
        response = analyst_client.get("/documents/DOC001/history/")
    assert response.status_code == 503
    assert "Temporarily unavailable" in response.content.decode()
    assert any("took too long" in r.getMessage() for r in caplog.records)


def test_within_the_budget_pages_are_served(sample, analyst_client, settings, monkeypatch):
    settings.DYNAMODB_REQUEST_BUDGET = 20
    monkeypatch.setattr(budget, "clock", SlowStore(step=0.01))
    assert analyst_client.get("/documents/DOC001/history/").status_code == 200


def test_no_call_may_outlast_what_is_left_of_the_budget():
    # 2 s connect + 5 s read, 4 attempts: 28 s plus backoff, far more than 10 s left.
    connect, read, attempts = budget.client_limits(10, 2, 5, 4)
    assert attempts * (connect + read) + (2 ** (attempts - 1) - 1) <= 10
    connect, read, attempts = budget.client_limits(3, 2, 5, 4)
    assert (attempts, connect + read) == (1, 3)
    assert budget.client_limits(None, 2, 5, 4) == (2, 5, 4)  # commands: no budget


def test_the_client_used_near_the_end_of_the_budget_has_short_timeouts(settings):
    settings.DYNAMODB_CONNECT_TIMEOUT, settings.DYNAMODB_READ_TIMEOUT, settings.DYNAMODB_MAX_ATTEMPTS = 2, 5, 4
    client = get_client(budget.client_limits(4, 2, 5, 4))
    assert client.meta.config.read_timeout + client.meta.config.connect_timeout <= 4
    assert client.meta.config.retries["total_max_attempts"] == 1


def test_gunicorn_timeout_of_make_run_is_above_the_budget(settings):
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / "scripts" / "run.sh").read_text()
    assert "--timeout" in script and "TIMEOUT=$(( ${BUDGET%.*} + 10 ))" in script
    # The configured policy's worst case fits a fresh budget: budget cuts only late calls.
    from fundportal.settings import base

    worst = base.DYNAMODB_MAX_ATTEMPTS * (base.DYNAMODB_CONNECT_TIMEOUT + base.DYNAMODB_READ_TIMEOUT)
    assert worst + 2 ** (base.DYNAMODB_MAX_ATTEMPTS - 1) - 1 <= base.DYNAMODB_REQUEST_BUDGET
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"--timeout {int(base.DYNAMODB_REQUEST_BUDGET) + 10}" in readme


# --- 5. bounded, expiring cursors ----------------------------------------------------------------


@pytest.fixture
def long_position(backend):
    """POSITION_Z with a capital call in each of 16 documents (one per page at page size 1)."""
    items = []
    for n in range(1, 17):
        document = Document(f"DOCZ{n:02d}", title="t", fund_id="FUND_Z", as_of_date=date(2024, 1, n))
        call = CapitalCall(
            document.document_id,
            "POSITION_Z",
            "FUND_Z",
            "INVESTOR_Z",
            Decimal(1000 * n),
            "Completed",
            "USD",
            document.as_of_date,
        )
        items += document_items(document, None, [call])
    unique = {(item["PK"], item["SK"]): item for item in items}  # one month-catalog entry
    DocumentRepository().bulk_load(list(unique.values()), workers=1)
    return "/positions/POSITION_Z/"


def _link(response, rel: str) -> str | None:
    match = re.search(rf'href="(\?cursor=[^"]*)" rel="{rel}"', response.content.decode())
    return match.group(1) if match else None


def test_cursors_stay_small_however_deep_the_page(long_position, analyst_client, settings):
    """Was: each cursor embedded the previous one (280 → 3,102 characters by page 10, 414 URI
    Too Long at page 14)."""
    settings.POSITION_PAGE_SIZE = 1
    url, lengths, pages = long_position, [], []
    while url:
        response = analyst_client.get(url)
        assert response.status_code == 200
        pages.append(response)
        link = _link(response, "next")
        if link:
            lengths.append(len(link))
        url = f"{long_position}{link}" if link else None
    assert len(pages) == 16
    assert max(lengths) < 700
    assert max(lengths[2:]) - min(lengths[2:]) < 40  # flat, not growing with the page number
    assert "Page 16" in pages[-1].content.decode()
    assert "USD 136,000.00" in pages[-1].content.decode()  # 1,000 + ... + 16,000 carried exactly


def test_previous_page_links_go_back_with_the_right_totals(long_position, analyst_client, settings):
    settings.POSITION_PAGE_SIZE = 1
    url = long_position
    pages = []
    for _ in range(5):
        response = analyst_client.get(url)
        pages.append(response.content.decode())
        url = f"{long_position}{_link(response, 'next')}"
    back = _link(analyst_client.get(url), "prev")  # from page 6 to page 5
    page5 = analyst_client.get(f"{long_position}{back}").content.decode()
    assert "Page 5" in page5

    def main(page: str) -> str:  # the page's content; cursors in links differ, figures must not
        content = re.sub(
            r'<nav class="pager".*?</nav>', "", page[page.index("<main") : page.index("</main>")], flags=re.S
        )
        return re.sub(r'href="[^"]*"', "", content)

    assert main(page5) == main(pages[4])
    # A rebuilt page keeps a bounded way back: the first page (not the whole history).
    assert 'href="?" rel="prev"' in page5


def test_an_expired_page_link_is_a_clear_400_with_a_link_to_page_1(
    long_position, analyst_client, settings, monkeypatch
):
    settings.POSITION_PAGE_SIZE = 1
    settings.CURSOR_MAX_AGE = 3600
    link = _link(analyst_client.get(long_position), "next")
    real = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real() + 3601)
    response = analyst_client.get(f"{long_position}{link}")
    assert response.status_code == 400
    assert "This page link has expired" in response.content.decode()
    assert f'href="{long_position}"' in response.content.decode()


def test_a_fresh_page_link_still_works(long_position, analyst_client, settings, monkeypatch):
    settings.POSITION_PAGE_SIZE = 1
    link = _link(analyst_client.get(long_position), "next")
    real = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real() + 3000)
    assert analyst_client.get(f"{long_position}{link}").status_code == 200


# --- 8. the 503 page and the Content-Security-Policy ---------------------------------------------


def test_the_503_page_says_nothing_internal(sample, analyst_client, settings, caplog):
    """Was: table names and exception class names on the page."""
    settings.DYNAMODB_TABLE = "secret_internal_table"
    with caplog.at_level(logging.ERROR):
        response = analyst_client.get("/documents/DOC001/history/")
    assert response.status_code == 503
    page = response.content.decode()
    assert "secret_internal_table" not in page and "create_table" not in page
    assert "TableMissing" not in page and "Exception" not in page
    assert any("secret_internal_table" in r.getMessage() for r in caplog.records)  # the details are logged


def test_every_page_carries_a_strict_content_security_policy(sample, analyst_client):
    for url in ("/documents/DOC001/", "/positions/POSITION_1/", "/accounts/login/"):
        policy = analyst_client.get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy


def test_templates_have_no_inline_scripts_styles_or_handlers():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    offenders = []
    # Rendered to PDF by WeasyPrint, never served to a browser (the statements and LP notices).
    not_pages = {"jinja2/exports/statement.html", "jinja2/exports/notice.html", "jinja2/exports/capital_account.html"}
    for path in root.rglob("*.html"):
        if str(path.relative_to(root)) in not_pages:
            continue
        text = path.read_text()
        for pattern in (r"<style", r"\sstyle=", r"<script(?![^>]*\bsrc=)(?![^>]*application/json)", r"\son[a-z]+="):
            if re.search(pattern, text):
                offenders.append(f"{path.relative_to(root)}: {pattern}")
    assert offenders == []


# --- 10. the request log every worker sees -------------------------------------------------------


def test_the_request_log_is_shared_by_every_worker():
    """Was: a deque per gunicorn worker (reloads alternated between two logs)."""
    worker_a, worker_b = PageLogBuffer(), PageLogBuffer()
    worker_a.clear()
    worker_a.add("GET", "/documents/", 200, "analyst", Collector([RequestRecord("Query", None, 1, 0.5, 0, 1.0)]))
    worker_b.add("GET", "/positions/", 200, "analyst", Collector([RequestRecord("Query", None, 1, 0.5, 0, 1.0)]))
    worker_b.flush_due()  # as each worker does once its response has gone out
    assert [p.path for p in worker_a.latest()] == ["/positions/", "/documents/"]
    assert [p.path for p in worker_b.latest()] == ["/positions/", "/documents/"]


def test_a_served_page_reaches_the_shared_request_log_once_its_response_is_closed(analyst_client, sample, monkeypatch):
    """The flush runs on `request_finished` (once the response has gone out), not in the view."""
    page_log.clear()
    monkeypatch.setattr(page_log, "flush_seconds", 0)
    path = reverse("documents:detail", args=["DOC001"])
    assert analyst_client.get(path).status_code == 200
    shared = PageLogBuffer().latest()  # another worker's buffer: only what reached the shared cache
    assert [(p.path, p.status) for p in shared] == [(path, 200)]


def test_the_default_cache_is_a_database_cache_chosen_by_environment():
    from fundportal.settings import base

    assert base.CACHES["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
