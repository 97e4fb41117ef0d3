"""The investor page 100 positions at a time: Next/Previous with signed cursors, the totals of
every position on every page, one Query a view, the access scope on every page, and the
investor's downloads."""

from __future__ import annotations

import csv
import io
import re

import openpyxl
import pytest
from pytest_django.asserts import assertContains

from tests.long_documents import load_investor_positions
from tests.web.coverage_data import covering, lp

pytestmark = pytest.mark.django_db


def position_ids(response) -> list[str]:
    return re.findall(r'data-position="(INV_POS_\d+)"', response.content.decode())


def link(response, testid: str) -> str | None:
    found = re.search(rf'<a href="([^"]+)" rel="[a-z]+" data-testid="{testid}"', response.content.decode())
    return found.group(1).replace("&amp;", "&") if found else None


def totals(response) -> list[str]:
    return re.findall(r'<tr class="total"[^>]*>.*?</tr>', response.content.decode(), re.S)


@pytest.fixture
def investor(backend):
    load_investor_positions("INVESTOR_P", positions=150)
    return "INVESTOR_P"


def in_position_order(numbers) -> list[str]:
    """Fund, then position: FUND_P1 holds the odd positions, FUND_P2 the even ones."""
    ids = [(f"FUND_P{2 - n % 2}", f"INV_POS_{n:05d}") for n in numbers]
    return [position for _, position in sorted(ids)]


def test_the_investor_page_shows_100_positions_a_page_with_the_same_totals(
    investor, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(1, ["Query"]):
        first = analyst_client.get("/investors/INVESTOR_P/")
    everything = in_position_order(range(1, 151))
    assert position_ids(first) == everything[:100]
    assert link(first, "previous-page") is None
    with django_assert_dynamodb_requests(1, ["Query"]):
        second = analyst_client.get("/investors/INVESTOR_P/" + link(first, "next-page"))
    assert position_ids(second) == everything[100:]
    assert link(second, "next-page") is None
    assert totals(first) == totals(second) and totals(first)
    assert "150 positions" in totals(first)[0] and "11,325.00" in totals(first)[0]  # 1 + ... + 150 called
    back = analyst_client.get("/investors/INVESTOR_P/" + link(second, "previous-page"))
    assert position_ids(back) == everything[:100]


def test_a_bad_investor_page_cursor_is_a_clear_400(investor, analyst_client):
    first = analyst_client.get("/investors/INVESTOR_P/")
    cursor = link(first, "next-page").split("cursor=")[1]
    bad = analyst_client.get("/investors/INVESTOR_P/", {"cursor": cursor[:-4] + "xxxx"})
    assertContains(bad, "The page link is invalid or belongs to another query.", status_code=400)
    foreign = analyst_client.get("/investors/INVESTOR_Q/", {"cursor": cursor})
    assert foreign.status_code == 400


@pytest.mark.coverage_as_granted
def test_the_scope_applies_on_every_page_and_to_the_totals(investor):
    fund_one = covering("fund_one_analyst", "FUND_P1")
    first = fund_one.get("/investors/INVESTOR_P/")
    odd = in_position_order(range(1, 151, 2))
    assert position_ids(first) == odd  # 75 positions: one page
    assert link(first, "next-page") is None
    (total,) = totals(first)
    assert "75 positions" in total and "5,625.00" in total  # 1 + 3 + ... + 149
    assert lp("lp_p", "INVESTOR_P").get("/investors/INVESTOR_P/").status_code == 200
    assert lp("lp_other", "INVESTOR_OTHER").get("/investors/INVESTOR_P/").status_code == 404


def test_the_investor_downloads_hold_every_position(investor, analyst_client):
    page = analyst_client.get("/investors/INVESTOR_P/")
    assertContains(page, "/investors/INVESTOR_P/export.csv")
    response = analyst_client.get("/investors/INVESTOR_P/export.csv")
    assert response.streaming
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert sorted(r["position_id"] for r in rows) == sorted(in_position_order(range(1, 151)))
    workbook = analyst_client.get("/investors/INVESTOR_P/export.xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(b"".join(workbook.streaming_content))).active
    assert sheet.max_row == 1 + 150 + 1  # header, every position, the USD total
