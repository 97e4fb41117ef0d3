"""The document page 100 positions at a time: Next/Previous with signed cursors, the same
headline on every page, bad or old cursors refused with a clear 400, an LP's scope on every
page, and the requests a page of a long document makes."""

from __future__ import annotations

import csv
import io
import re
from urllib.parse import parse_qs, urlparse

import openpyxl
import pytest
from django.core import signing
from pytest_django.asserts import assertContains

from tests.long_documents import ACTIVITY, load_long_document, position_id
from tests.web.coverage_data import lp

pytestmark = pytest.mark.django_db


def position_ids(response) -> list[str]:
    return re.findall(r'<tr data-position="([^"]+)"', response.content.decode())


def link(response, testid: str) -> str | None:
    """The href of the pager link with this test id (HTML-unescaped), None if absent."""
    found = re.search(rf'<a href="([^"]+)" rel="[a-z]+" data-testid="{testid}"', response.content.decode())
    return found.group(1).replace("&amp;", "&") if found else None


def cursor_of(href: str) -> str:
    return parse_qs(urlparse(href).query)["cursor"][0]


@pytest.fixture
def long_document(backend):
    """250 positions with every kind: 1,002 items, past the one-Query read of a short document."""
    return load_long_document("LONG", positions=250)


@pytest.fixture
def short_document(backend):
    """150 positions with a capital call each: 152 items, read whole in one Query."""
    return load_long_document("SHORT", positions=150, every_kind=1000)


def test_a_long_document_pages_forward_and_back_by_100_positions(
    long_document, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(2, ["Query", "Query"]):
        first = analyst_client.get("/documents/LONG/")
    assert position_ids(first) == [position_id(n) for n in range(1, 101)]
    assert link(first, "previous-page") is None
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):
        second = analyst_client.get("/documents/LONG/" + link(first, "next-page"))
    assert position_ids(second) == [position_id(n) for n in range(101, 201)]
    assertContains(second, "Page 2: rows 101\u2013200")
    third = analyst_client.get("/documents/LONG/" + link(second, "next-page"))
    assert position_ids(third) == [position_id(n) for n in range(201, 251)]
    assert link(third, "next-page") is None
    back = analyst_client.get("/documents/LONG/" + link(third, "previous-page"))
    assert position_ids(back) == position_ids(second)
    assertContains(back, "Page 2: rows 101\u2013200")
    assert position_ids(analyst_client.get("/documents/LONG/" + link(back, "previous-page"))) == position_ids(first)


def test_a_long_documents_headline_is_its_capital_activity_on_every_page(long_document, analyst_client):
    first = analyst_client.get("/documents/LONG/")
    second = analyst_client.get("/documents/LONG/" + link(first, "next-page"))
    for page in (first, second):
        assertContains(page, "123,456.78")
        assertContains(page, 'data-testid="activity-amount"')
        assert 'data-testid="document-totals"' not in page.content.decode()  # no sum of one page
        assertContains(page, "the CSV and XLSX downloads hold every position")
    assert str(ACTIVITY) == "123456.78"


def test_a_short_documents_totals_are_the_same_on_page_1_and_page_2(
    short_document, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(1, ["Query"]):
        first = analyst_client.get("/documents/SHORT/")
    assert position_ids(first) == [position_id(n) for n in range(1, 101)]
    with django_assert_dynamodb_requests(1, ["Query"]):
        second = analyst_client.get("/documents/SHORT/" + link(first, "next-page"))
    assert position_ids(second) == [position_id(n) for n in range(101, 151)]

    def totals(response) -> str:
        body = response.content.decode()
        return body[body.index('data-testid="document-totals"') :].split("</tr>")[0]

    assert totals(first) == totals(second)
    assert "11,325.00" in totals(first)  # 1 + 2 + ... + 150 called, summed over every position
    assertContains(second, "150 of 150 positions")


def test_a_short_document_sorted_by_a_figure_pages_through_the_sorted_rows(short_document, analyst_client):
    first = analyst_client.get("/documents/SHORT/", {"sort": "capital_call", "order": "desc"})
    assert position_ids(first) == [position_id(n) for n in range(150, 50, -1)]
    second = analyst_client.get("/documents/SHORT/" + link(first, "next-page"))
    assert position_ids(second) == [position_id(n) for n in range(50, 0, -1)]


def test_a_tampered_or_foreign_cursor_is_a_clear_400(short_document, long_document, analyst_client):
    first = analyst_client.get("/documents/LONG/")
    cursor = cursor_of(link(first, "next-page"))
    tampered = analyst_client.get("/documents/LONG/", {"cursor": cursor[:-3] + "abc"})
    assertContains(tampered, "The page link is invalid or belongs to another query.", status_code=400)
    foreign = analyst_client.get("/documents/SHORT/", {"cursor": cursor})
    assertContains(foreign, "The page link is invalid or belongs to another query.", status_code=400)
    resorted = analyst_client.get("/documents/LONG/", {"cursor": cursor, "sort": "dpi"})
    assert resorted.status_code == 400


def test_an_expired_cursor_says_to_start_again(long_document, analyst_client, settings):
    first = analyst_client.get("/documents/LONG/")
    next_href = link(first, "next-page")
    settings.CURSOR_MAX_AGE = -1
    expired = analyst_client.get("/documents/LONG/" + next_href)
    assertContains(expired, "This page link has expired; start again from the first page.", status_code=400)
    assert isinstance(signing.loads(cursor_of(next_href), salt="fundportal.store.cursor", max_age=None), dict)


@pytest.mark.coverage_as_granted
def test_an_lp_sees_only_their_own_rows_on_every_page(long_document):
    client = lp("lp_two", "INVESTOR_L2")
    first = client.get("/documents/LONG/")
    assert position_ids(first) == [position_id(n) for n in range(1, 101) if n % 5 + 1 == 2]
    second = client.get("/documents/LONG/" + link(first, "next-page"))
    assert position_ids(second) == [position_id(n) for n in range(101, 201) if n % 5 + 1 == 2]
    for page in (first, second):
        assert 'data-testid="activity-amount"' not in page.content.decode()
        assertContains(page, 'data-testid="own-rows-only"')


def test_a_long_documents_downloads_stream_every_position(long_document, analyst_client):
    page = analyst_client.get("/documents/LONG/")
    assertContains(page, "/documents/LONG/export.csv")
    response = analyst_client.get("/documents/LONG/export.csv")
    assert response.streaming
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [r["position_id"] for r in rows] == [position_id(n) for n in range(1, 251)]
    assert rows[-1]["called"] == "250.00" and rows[-1]["nav"] == "750.00"
    workbook = analyst_client.get("/documents/LONG/export.xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(b"".join(workbook.streaming_content))).active
    header = [c.value for c in sheet[1]]
    total = dict(zip(header, (c.value for c in sheet[sheet.max_row]), strict=True))
    assert sheet.max_row == 1 + 250 + 1
    assert total["position_id"] == "TOTAL" and total["called"] == 31375  # 1 + ... + 250, every row


def test_backfill_indexes_puts_a_table_loaded_before_the_page_index_on_its_pages(long_document, analyst_client):
    from django.core.management import call_command

    from fundportal.store.client import table_name
    from fundportal.store.gateway import call

    for kind in ("CAPITAL_CALL", "DISTRIBUTION", "UNFUNDED_COMMITMENT", "NAV"):
        call(
            "UpdateItem",
            TableName=table_name(),
            Key={"PK": {"S": "LONG"}, "SK": {"S": f"{kind}#{position_id(150)}"}},
            UpdateExpression="REMOVE GSI5_PK, GSI5_SK",
        )
    first = analyst_client.get("/documents/LONG/")
    assert position_id(150) not in position_ids(analyst_client.get("/documents/LONG/" + link(first, "next-page")))
    call_command("backfill_indexes", segments=2, stdout=io.StringIO())
    second = analyst_client.get("/documents/LONG/" + link(first, "next-page"))
    assert position_ids(second) == [position_id(n) for n in range(101, 201)]


def test_a_page_without_table_parameters_is_the_default_table(short_document, analyst_client):
    plain = analyst_client.get("/documents/SHORT/")
    spelled_out = analyst_client.get("/documents/SHORT/", {"sort": "position", "order": "asc"})
    assert plain.status_code == spelled_out.status_code == 200

    def table(response) -> str:
        return re.search(r"<table id=\"positions\">.*?</table>", response.content.decode(), re.S).group(0)

    assert table(plain) == table(spelled_out)
    assert position_ids(plain) == sorted(position_ids(plain), key=lambda p: int(p.rsplit("_", 1)[-1]))


def test_a_bad_table_parameter_is_a_400_with_the_forms_message(short_document, analyst_client):
    response = analyst_client.get("/documents/SHORT/", {"status": "Nope"})
    assertContains(response, "Select a valid choice. Nope is not one of the available choices.", status_code=400)
    assert 'aria-invalid="true" aria-describedby="id_status_error"' in response.content.decode()
