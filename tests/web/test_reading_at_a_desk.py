"""Reading at a desk: fund and investor tables in natural order and sortable by any figure, the
position page's period filter, breadcrumbs and NAV line, and a notice document's LP notices as
one ZIP, each page at its request count."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import date
from decimal import Decimal

import pytest

from documents import services
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.domain.position_register import PositionRegister
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.register import RegisterRepository
from tests.fund_loading import load_fund
from tests.web.coverage_data import covering, lp

pytestmark = pytest.mark.django_db

INVESTOR = "INV_DESK"
SEP = " \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} "  # between breadcrumbs


def positions(response) -> list[str]:
    return re.findall(r'<tr data-position="([^"]+)"', response.content.decode())


def next_link(response) -> str | None:
    found = re.search(r'<a href="([^"]+)" rel="next" data-testid="next-page">', response.content.decode())
    return found.group(1).replace("&amp;", "&") if found else None


def load_investor(count: int) -> None:
    """`count` positions of INV_DESK, ids not zero-padded (DESK_1 .. DESK_<count>), all in
    FUND_DESK; DESK_n has called (7 * n) mod 101 (so figure order differs from id order)."""
    items: list = []
    repository = RegisterRepository()
    for n in range(1, count + 1):
        call = CapitalCall("DOC_DESK", f"DESK_{n}", "FUND_DESK", INVESTOR, Decimal(7 * n % 101 + 1), "Completed")
        builder = FiguresBuilder(flows=True)
        builder.add(call)
        register = PositionRegister(call.position_id, "FUND_DESK", INVESTOR, commitment=Decimal(1000), revision=1)
        items.extend(repository.bulk_items(register.with_builder(builder)))
    unique = {(item["PK"], item["SK"]): item for item in items}
    DocumentRepository().bulk_load(unique.values(), workers=1)


def called(n: int) -> int:
    return 7 * n % 101 + 1


def test_the_investor_page_lists_positions_in_natural_order(backend, analyst_client, django_assert_dynamodb_requests):
    load_investor(12)
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get(f"/investors/{INVESTOR}/")
    assert positions(response) == [f"DESK_{n}" for n in range(1, 13)]  # DESK_2 before DESK_10
    assert "in natural order of fund and position" in response.content.decode()


def test_the_investor_page_sorts_every_position_by_a_figure_not_only_the_page_shown(
    backend, analyst_client, django_assert_dynamodb_requests
):
    load_investor(130)
    by_called = sorted(range(1, 131), key=lambda n: -called(n))  # ties keep natural order
    with django_assert_dynamodb_requests(1, ["Query"]):
        first = analyst_client.get(f"/investors/{INVESTOR}/?sort=-called")
    assert positions(first) == [f"DESK_{n}" for n in by_called[:100]]
    assert "sorted by Paid-in (called), descending across every position" in first.content.decode()
    link = next_link(first)
    assert link is not None and "sort=-called" in link  # the next page keeps the sort
    with django_assert_dynamodb_requests(1, ["Query"]):
        second = analyst_client.get(f"/investors/{INVESTOR}/{link}")
    assert positions(second) == [f"DESK_{n}" for n in by_called[100:]]
    ascending = analyst_client.get(f"/investors/{INVESTOR}/?sort=called")
    assert positions(ascending)[0] == f"DESK_{min(range(1, 131), key=called)}"


def test_the_sorted_columns_header_says_so_and_links_the_other_direction(backend, analyst_client):
    load_investor(3)
    page = analyst_client.get(f"/investors/{INVESTOR}/?sort=-dpi&as_of=2026-01-31").content.decode()
    header = re.search(r'<th scope="col" class="num" data-sort="dpi" aria-sort="descending"><a href="([^"]+)"', page)
    assert header is not None
    assert header.group(1).replace("&amp;", "&") == "?as_of=2026-01-31&sort=dpi"  # the as-of date kept
    irr = re.search(r'data-sort="irr"><a href="([^"]+)"', page)
    assert irr is not None and irr.group(1).endswith("sort=-irr")  # a figure: largest first


def test_an_unknown_sort_is_natural_order_not_an_error(backend, analyst_client):
    load_investor(11)
    response = analyst_client.get(f"/investors/{INVESTOR}/?sort=-nonsense")
    assert response.status_code == 200
    assert positions(response) == [f"DESK_{n}" for n in range(1, 12)]


def test_the_fund_page_sorts_the_page_shown_in_the_browser_and_says_so(
    backend, analyst_client, django_assert_dynamodb_requests
):
    load_fund("FUND_NAT", 3)
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "Query"]):
        response = analyst_client.get("/funds/FUND_NAT/")
    page = response.content.decode()
    assert 'data-client-sort="rows"' in page
    assert '<script src="/static/js/table-sort.js" defer></script>' in page
    assert "sort <strong>the page shown</strong>" in page
    assert 'data-sort="irr"' in page and "aria-sort" not in page  # no server-side order but natural


def test_the_fund_page_shows_its_page_of_positions_in_natural_order(backend, analyst_client):
    items: list = []
    repository = RegisterRepository()
    for n in (1, 2, 10, 11):
        register = PositionRegister(f"NAT_{n}", "FUND_NAT", f"INV_{n}", commitment=Decimal(10), revision=1)
        items.extend(repository.bulk_items(register))
    DocumentRepository().bulk_load({(i["PK"], i["SK"]): i for i in items}.values(), workers=1)
    assert positions(analyst_client.get("/funds/FUND_NAT/")) == ["NAT_1", "NAT_2", "NAT_10", "NAT_11"]


def record_nav(document_id: str, on: date, amount: int) -> None:
    services.document_create(
        document=Document(document_id=document_id, title="Statement", fund_id="FUND_A", as_of_date=on), user="setup"
    )
    services.entry_record(
        entry=NetAssetValue(document_id, "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(amount), "Active"), user="setup"
    )


def test_the_position_page_has_breadcrumbs_fund_investor_position(sample, analyst_client):
    page = analyst_client.get("/positions/POSITION_1/").content.decode()
    crumbs = re.search(r'<nav class="breadcrumbs"[^>]*data-testid="breadcrumbs">(.*?)</nav>', page, re.S)
    assert crumbs is not None
    text = re.sub(r"<[^>]+>", "", crumbs.group(1))
    assert text == SEP.join(["Funds", "Fund FUND_A", "Investor INVESTOR_1", "Position POSITION_1"])
    assert '<a href="/funds/FUND_A/" data-testid="breadcrumb-fund">' in crumbs.group(1)
    assert '<a href="/investors/INVESTOR_1/" data-testid="breadcrumb-investor">' in crumbs.group(1)


def test_the_document_page_breadcrumbs_name_its_fund(sample, analyst_client):
    page = analyst_client.get("/documents/DOC001/").content.decode()
    crumbs = re.search(r'data-testid="breadcrumbs">(.*?)</nav>', page, re.S)
    assert crumbs is not None
    assert re.sub(r"<[^>]+>", "", crumbs.group(1)) == SEP.join(["Documents", "Fund FUND_A", "DOC001"])


def document_ids(page: str) -> list[str]:
    return re.findall(r'<tr data-document="([^"]+)"', page)


def test_the_position_page_filters_its_documents_by_period_in_the_same_one_query(
    sample, analyst_client, django_assert_dynamodb_requests
):
    whole = analyst_client.get("/positions/POSITION_1/").content.decode()
    assert document_ids(whole) == ["DOC001", "DOC002"]
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/positions/POSITION_1/?from_date=2025-10-01&to_date=2025-12-31")
    page = response.content.decode()
    assert document_ids(page) == ["DOC002"]
    assert "1 of 2 documents on this page dated from 2025-10-01 to 2025-12-31" in page
    assert "the headline figures, the running figures beside each row and the chart stay the whole position" in page
    headline = re.search(r'data-testid="total-called">([^<]+)<', page)
    assert headline is not None and headline.group(1) == "USD 1,250,000.00"  # the whole position's
    assert document_ids(analyst_client.get("/positions/POSITION_1/?to_date=2025-09-30").content.decode()) == ["DOC001"]
    empty = analyst_client.get("/positions/POSITION_1/?from_date=2030-01-01").content.decode()
    assert document_ids(empty) == [] and 'data-testid="no-document-in-period"' in empty


def test_a_period_that_ends_before_it_starts_is_explained_and_filters_nothing(sample, analyst_client):
    response = analyst_client.get("/positions/POSITION_1/?from_date=2025-12-31&to_date=2025-01-01")
    page = response.content.decode()
    assert response.status_code == 200
    assert "The period&#39;s start is after its end." in page or "The period's start is after its end." in page
    assert document_ids(page) == ["DOC001", "DOC002"]
    bad_date = analyst_client.get("/positions/POSITION_1/?from_date=31.12.2025")
    assert bad_date.status_code == 200  # a field error, explained beside its field
    field = re.search(r'<input type="date" name="from_date"[^>]*>', bad_date.content.decode())
    described_by = re.search(r'aria-describedby="([^"]+)"', field.group(0)) if field else None
    assert described_by is not None and f'id="{described_by.group(1)}"' in bad_date.content.decode()


def test_the_position_chart_draws_the_reported_navs_beside_calls_and_distributions(sample, analyst_client):
    record_nav("DOC_NAV_Q3", date(2025, 9, 30), 445_000)
    record_nav("DOC_NAV_Q4", date(2025, 12, 31), 1_100_000)
    page = analyst_client.get("/positions/POSITION_1/").content.decode()
    assert re.findall(r'<polyline [^>]*data-series="(\w+)"', page) == ["called", "distributed", "nav"]
    labels = re.findall(r'class="tick date-label">([^<]+)<', page)
    assert labels == ["2025-09-30", "2025-12-31"]  # three documents, two dates: each drawn once


def test_a_notice_documents_lp_notices_download_as_one_zip(sample, analyst_client, django_assert_dynamodb_requests):
    page = analyst_client.get("/documents/DOC002/").content.decode()
    assert 'href="/documents/DOC002/notices.zip" download data-testid="notices-zip"' in page
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):
        response = analyst_client.get("/documents/DOC002/notices.zip")
        assert response.status_code == 200 and response.streaming
        assert response["Content-Type"] == "application/zip"
        assert 'filename="notices-DOC002.zip"' in response["Content-Disposition"]
        content = b"".join(response.streaming_content)
    archive = zipfile.ZipFile(io.BytesIO(content))
    assert archive.namelist() == ["notice-DOC002-POSITION_1.pdf", "notice-DOC002-POSITION_2.pdf"]
    assert archive.testzip() is None
    single = analyst_client.get("/documents/DOC002/notices/POSITION_2.pdf")
    assert archive.read("notice-DOC002-POSITION_2.pdf")[:5] == b"%PDF-" == single.content[:5]


def test_a_document_without_notices_or_outside_the_scope_has_no_zip(sample, analyst_client):
    assert analyst_client.get("/documents/NO_SUCH_DOC/notices.zip").status_code == 404
    assert analyst_client.get("/documents/bad%23id/notices.zip").status_code == 400
    assert 'data-testid="notices-zip"' not in analyst_client.get("/documents/DOC001/").content.decode()


@pytest.mark.coverage_as_granted
def test_an_analyst_of_another_fund_gets_no_zip(sample):
    assert covering("other_fund_analyst", "FUND_B").get("/documents/DOC002/notices.zip").status_code == 404


@pytest.mark.coverage_as_granted
def test_an_lp_users_zip_holds_only_their_own_notice(sample):
    response = lp("lp_one", "INVESTOR_1").get("/documents/DOC002/notices.zip")
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert archive.namelist() == ["notice-DOC002-POSITION_1.pdf"]
