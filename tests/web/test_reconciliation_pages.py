"""Computed vs reported unfunded and the reconciliation flags on the fund, investor, position and
document pages, from the seed sample, with each page's request count unchanged."""

from __future__ import annotations

import re
from html import unescape

import pytest

pytestmark = pytest.mark.django_db


def section(response) -> str:
    """The reconciliation section's text, tags removed and spaces collapsed."""
    html = response.content.decode()
    match = re.search(r'<section[^>]*data-testid="reconciliation".*?</section>', html, re.S)
    assert match, "no reconciliation section"
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", match.group(0))))


def flag_kinds(response) -> list[str]:
    return re.findall(r'<li class="flag[^"]*" data-kind="([a-z_]+)"', response.content.decode())


def row(response, position_id: str) -> str:
    """The positions table's row of `position_id`, as text."""
    match = re.search(rf'<tr data-position="{position_id}".*?</tr>', response.content.decode(), re.S)
    assert match, f"no row for {position_id}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0)))


def test_fund_page_shows_computed_beside_reported_unfunded_without_more_requests(
    sample, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "Query"]):  # its summary, one page
        response = analyst_client.get("/funds/FUND_A/")
    html = response.content.decode()
    assert (
        '<th scope="col" class="num" data-sort="unfunded">Unfunded (reported)</th>'
        '<th scope="col" class="num" data-sort="unfunded_computed">Unfunded (computed)</th>' in html
    )
    # POSITION_1: 2,000,000 - 1,250,000 = 750,000 computed, beside the 1,500,000 reported.
    assert "62.5 % USD 1,500,000.00 USD 750,000.00 USD 195,000.00" in row(response, "POSITION_1")
    # POSITION_2: 1,150,000 - 700,000 = 450,000 computed, beside the 850,000 reported.
    assert "60.9 % USD 850,000.00 USD 450,000.00 USD 45,000.00" in row(response, "POSITION_2")
    assert html.count('<td class="num flagged" data-testid="unfunded-computed">') == 2
    text = section(response)
    # totals: 750,000 + 450,000 = 1,200,000 computed; 1,500,000 + 850,000 = 2,350,000 reported.
    assert "Total USD USD 1,200,000.00 USD 2,350,000.00 USD 1,150,000.00" in text
    assert flag_kinds(response) == ["unfunded_differs", "unfunded_differs"]
    assert "2 flags" in text
    assert (
        "POSITION_1: reported unfunded USD 1,500,000.00 (2025-09-30) differs from computed unfunded "
        "USD 750,000.00 (commitment - called), by USD +750,000.00." in text
    )


def test_investor_page_reconciles_only_its_positions_in_one_query(
    sample, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/investors/INVESTOR_2/")
    assert "60.9 % USD 850,000.00 USD 450,000.00 USD 45,000.00" in row(response, "POSITION_2")
    text = section(response)
    assert "Total USD USD 450,000.00 USD 850,000.00 USD 400,000.00" in text
    assert "POSITION_1" not in text
    assert flag_kinds(response) == ["unfunded_differs"]


def test_position_page_flags_its_unfunded_in_one_query(sample, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/positions/POSITION_1/")
    text = section(response)
    assert "USD USD 2,000,000.00 USD 1,250,000.00 USD 750,000.00 USD 1,500,000.00 2025-09-30 USD 750,000.00" in text
    assert flag_kinds(response) == ["unfunded_differs"]
    assert "1 flag " in text


def test_document_page_compares_capital_activity_with_the_calls_in_one_query(
    sample, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/documents/DOC001/")
    text = section(response)
    # DOC001: activity 500,000; calls 500,000 (POSITION_1) + 300,000 (POSITION_2) = 800,000.
    assert "Capital activity USD 500,000.00 Sum of positions' calls USD 800,000.00" in text
    assert flag_kinds(response) == ["activity_vs_calls"]
    assert (
        "DOC001: capital activity USD 500,000.00 differs from the sum of its positions' calls USD 800,000.00, "
        "by USD +300,000.00." in text
    )


def test_document_page_without_capital_activity_has_nothing_to_compare(sample, analyst_client):
    response = analyst_client.get("/documents/DOC002/")
    text = section(response)
    assert "Sum of positions' calls" not in text
    assert "Nothing to reconcile" in text
