"""A kept "next page" link of a position never shows running totals that are no longer true:
the figures carried from earlier pages are re-derived from the entries as they are now, still in
one Query per page."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

import pytest

from documents.approval import document_approve, document_submit
from documents.entry_writes import entry_put, entry_remove
from fundportal.domain.kinds import Kind

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def _next(response) -> str:
    return re.search(r'href="(\?cursor=[^"]+)" rel="next"', response.content.decode()).group(1)


def _approve_doc001() -> None:
    document_submit(document_id="DOC001", user="someone")
    document_approve(document_id="DOC001", user="checker")


def test_a_kept_next_link_shows_the_totals_after_an_earlier_page_changed(
    sample, analyst_client, settings, django_assert_dynamodb_requests
):
    settings.POSITION_PAGE_SIZE = 2  # page 1: the register and DOC001's call (USD 500,000.00)
    url = "/positions/POSITION_1/"
    second = f"{url}{_next(analyst_client.get(url))}"
    assert "Carried from earlier pages (USD) USD 500,000.00 USD 0.00" in _text(analyst_client.get(second))
    call = sample.repository.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1", consistent=True)
    entry_put(entry=replace(call, amount=Decimal("1500000.00")), user="someone")
    _approve_doc001()  # DOC001 is approved: the change counts once another user approves it
    with django_assert_dynamodb_requests(1, ["Query"]):
        kept = analyst_client.get(second)
    assert kept.status_code == 200
    page = _text(kept)
    assert "Carried from earlier pages (USD) USD 1,500,000.00 USD 0.00" in page
    assert "USD 500,000.00 USD 0.00" not in page
    third = f"{url}{_next(kept)}"
    assert "Paid-in (called) USD 2,250,000.00" in _text(analyst_client.get(third))


def test_a_kept_next_link_after_an_earlier_entry_was_removed_skips_no_row(sample, analyst_client, settings):
    settings.POSITION_PAGE_SIZE = 2
    url = "/positions/POSITION_1/"
    second = f"{url}{_next(analyst_client.get(url))}"
    before = _text(analyst_client.get(second))
    entry_remove(document_id="DOC001", kind=Kind.CAPITAL_CALL, position_id="POSITION_1", user="someone")
    _approve_doc001()
    after = _text(analyst_client.get(second))
    assert "Carried from earlier pages" in before and "Carried from earlier pages" not in after  # nothing before
    rows = lambda page: re.findall(r"DOC00\d \d{4}-\d{2}-\d{2}", page)  # noqa: E731
    assert rows(after) == rows(before)
