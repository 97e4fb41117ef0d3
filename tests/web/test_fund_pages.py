"""The fund page at size: 100 positions a page with Next/Previous (signed cursors), headline
totals of the whole fund from its summary, two requests a view, and the full list as a streamed
CSV and a workbook."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import openpyxl
import pytest
from django.http import StreamingHttpResponse

from tests.fund_loading import load_fund

pytestmark = pytest.mark.django_db

POSITIONS = 230


def _positions(response) -> list[str]:
    return re.findall(r'data-position="([^"]+)"', response.content.decode())


def _link(response, rel: str) -> str | None:
    found = re.search(rf'<a href="(\?cursor=[^"]+)" rel="{rel}"', response.content.decode())
    return found.group(1).replace("&amp;", "&") if found else None


def test_a_large_fund_pages_100_positions_with_next_and_previous_in_two_requests_each(
    backend, analyst_client, django_assert_dynamodb_requests
):
    load_fund("FUND_BIG", POSITIONS)
    url, pages = "/funds/FUND_BIG/", []
    for _ in range(3):
        with django_assert_dynamodb_requests(2, ["BatchGetItem", "Query"]):
            response = analyst_client.get(url)
        assert response.status_code == 200
        pages.append(response)
        assert f"Total USD ({POSITIONS} positions)" in response.content.decode()  # the fund's, not the page's
        url = "/funds/FUND_BIG/" + (_link(response, "next") or "")
    assert [len(set(_positions(p))) for p in pages] == [100, 100, 30]
    assert _link(pages[0], "prev") is None and _link(pages[2], "next") is None
    back = analyst_client.get("/funds/FUND_BIG/" + _link(pages[2], "prev"))
    assert _positions(back) == _positions(pages[1])


def test_a_tampered_cursor_is_a_400(backend, analyst_client):
    load_fund("FUND_BIG", 120)
    response = analyst_client.get("/funds/FUND_BIG/")
    cursor = _link(response, "next")
    assert analyst_client.get("/funds/FUND_BIG/" + cursor[:-3] + "xyz").status_code == 400
    assert analyst_client.get("/funds/FUND_A/" + cursor).status_code in (400, 404)  # bound to its fund


def test_the_csv_export_streams_every_position_one_page_query_at_a_time(
    backend, analyst_client, django_assert_dynamodb_requests
):
    load_fund("FUND_BIG", POSITIONS)
    # The summary (and the fund's record: its name), then per page of 100 positions one Query and
    # one BatchGetItem of its investors' records (their names beside their ids).
    names = "BatchGetItem"
    with django_assert_dynamodb_requests(7, ["BatchGetItem", "Query", names, "Query", names, "Query", names]):
        response = analyst_client.get("/funds/FUND_BIG/export.csv")
        assert isinstance(response, StreamingHttpResponse)
        body = b"".join(response.streaming_content).decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert len(rows) == POSITIONS and len({r["position_id"] for r in rows}) == POSITIONS
    assert sum(Decimal(r["called"]) for r in rows) == sum(Decimal(1000 + n) for n in range(POSITIONS))


def test_the_workbook_holds_every_position_and_the_fund_totals(backend, analyst_client):
    load_fund("FUND_BIG", POSITIONS)
    sheet = openpyxl.load_workbook(io.BytesIO(analyst_client.get("/funds/FUND_BIG/export.xlsx").content)).active
    values = [row for row in sheet.iter_rows(values_only=True)]
    at = values[0].index("position_id")
    assert sum(1 for row in values if row[at] and str(row[at]).startswith("FUND_BIG_P")) == POSITIONS


def test_the_funds_list_reads_the_catalog_and_one_batch_per_100_summary_shards(
    backend, analyst_client, django_assert_dynamodb_requests
):
    for n in range(12):  # 12 funds x 10 shards: 120 keys, two BatchGetItem requests
        load_fund(f"FUND_L{n:02d}", 3 + n)
    with django_assert_dynamodb_requests(3, ["Query", "BatchGetItem", "BatchGetItem"]):
        response = analyst_client.get("/funds/")
    page = response.content.decode()
    for n in range(12):
        assert f'data-fund="FUND_L{n:02d}"' in page
    assert re.search(
        r'data-fund="FUND_L11"[^>]*>\s*<th[^>]*>.*?</th>\s*<td>USD</td>\s*<td class="num">14</td>', page, re.S
    )
