"""Names beside ids in the exports: the fund's and investor's record names in the fund, investor,
position and document CSV/XLSX, at a bounded number of requests (names a BatchGetItem per 100
rows, never a request per row; a record the export's own read brings costs nothing)."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest

from fundportal.domain.records import FundRecord, InvestorRecord
from funds.record_services import fund_record_set, investor_record_set
from tests.fund_loading import load_fund

pytestmark = pytest.mark.django_db


@pytest.fixture
def named(sample):
    fund_record_set(FundRecord("FUND_A", "Alpha Growth Fund"), expected_revision=0, user="setup")
    investor_record_set(InvestorRecord("INVESTOR_1", "Teachers' Pension"), expected_revision=0, user="setup")
    return sample  # INVESTOR_2 has no record: its name is empty


def csv_rows(response) -> list[dict[str, str]]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.DictReader(io.StringIO(body.decode())))


def names(rows) -> set[tuple[str, str, str, str]]:
    return {
        (r["fund_id"], r["fund_name"], r["investor_id"], r["investor_name"])
        for r in rows
        if r["position_id"] != "TOTAL"
    }


EXPECTED = {
    ("FUND_A", "Alpha Growth Fund", "INVESTOR_1", "Teachers' Pension"),
    ("FUND_A", "Alpha Growth Fund", "INVESTOR_2", ""),
}


def test_the_fund_csv_names_the_fund_free_and_its_investors_in_one_request_a_page(
    named, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(3, ["BatchGetItem", "Query", "BatchGetItem"]):
        rows = csv_rows(analyst_client.get("/funds/FUND_A/export.csv"))
    assert names(rows) == EXPECTED


def test_the_fund_workbook_names_its_investors(named, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(3, ["BatchGetItem", "Query", "BatchGetItem"]):
        content = analyst_client.get("/funds/FUND_A/export.xlsx").content
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    header = [c.value for c in sheet[1]]
    assert header[:4] == ["fund_id", "fund_name", "investor_id", "investor_name"]
    rows = [dict(zip(header, row, strict=False)) for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert names([{k: v or "" for k, v in r.items()} for r in rows]) == EXPECTED


def test_the_investor_export_names_the_investor_from_its_own_query_and_its_funds_in_one_request(
    named, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):
        rows = csv_rows(analyst_client.get("/investors/INVESTOR_1/export.csv"))
    assert names(rows) == {("FUND_A", "Alpha Growth Fund", "INVESTOR_1", "Teachers' Pension")}


def test_the_position_export_names_its_fund_and_investor(named, analyst_client):
    rows = csv_rows(analyst_client.get("/positions/POSITION_1/export.csv"))
    assert {(r["fund_name"], r["investor_name"]) for r in rows} == {("Alpha Growth Fund", "Teachers' Pension")}
    sheet = openpyxl.load_workbook(io.BytesIO(analyst_client.get("/positions/POSITION_1/export.xlsx").content)).active
    header = [c.value for c in sheet[1]]
    assert sheet.cell(2, header.index("fund_name") + 1).value == "Alpha Growth Fund"


def test_the_document_export_names_its_positions_fund_and_investors(
    named, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):
        rows = csv_rows(analyst_client.get("/documents/DOC001/export.csv"))
    assert names(rows) == EXPECTED
    total = [r for r in rows if r["position_id"] == "TOTAL"]
    assert all(r["fund_name"] == "" and r["investor_name"] == "" for r in total)


def test_a_fund_of_many_investors_costs_one_name_request_per_100_lines(
    backend, analyst_client, django_assert_dynamodb_requests
):
    load_fund("FUND_WIDE", 250)  # 250 investors, none with a record
    pages = ["BatchGetItem", "Query", "Query", "Query"]  # the summary, then 100 positions a Query
    with django_assert_dynamodb_requests(7, [*pages, "BatchGetItem", "BatchGetItem", "BatchGetItem"]):
        content = analyst_client.get("/funds/FUND_WIDE/export.xlsx").content
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    header = [c.value for c in sheet[1]]
    investors = {row[header.index("investor_id")] for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert len(investors - {"TOTAL"}) == 250
