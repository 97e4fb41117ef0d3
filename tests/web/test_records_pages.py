"""The record pages and headers (moto, the seed sample): who may edit a fund's and an
investor's record, 409 on a stale save, the name beside the id on the fund and investor pages
with no request more than they make without it, and search by name."""

from __future__ import annotations

import html
import re

import pytest

from fundportal.access import grants
from fundportal.domain.records import FundRecord, InvestorRecord
from fundportal.store.repositories.records import RecordRepository
from funds.record_services import fund_record_set, investor_record_set
from tests.web.coverage_data import covering

pytestmark = pytest.mark.django_db

FUND_FORM = "/funds/FUND_A/record/"
INVESTOR_FORM = "/investors/INVESTOR_1/record/"


def header(response) -> str:
    match = re.search(r'<p class="record-header".*?</p>', response.content.decode(), re.S)
    assert match, "no record header"
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0))).strip())


def fund_data(revision: int, **changes: str) -> dict[str, str]:
    data = {
        "name": "Alpha Growth Fund",
        "legal_name": "Alpha Growth Fund L.P.",
        "vintage": "2019",
        "currency": "USD",
        "gp": "Alpha GP",
        "expected_revision": str(revision),
    }
    return {**data, **changes}


def test_an_editor_sets_the_fund_record_and_the_fund_page_shows_it_with_no_request_more(
    sample, editor_client, django_assert_dynamodb_requests
):
    form = editor_client.get(FUND_FORM)
    assert form.status_code == 200 and 'name="expected_revision"' in form.content.decode()
    response = editor_client.post(FUND_FORM, fund_data(0))
    assert response.status_code == 302 and response.url == "/funds/FUND_A/"
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "Query"]):  # summary shards and record, one page
        page = editor_client.get("/funds/FUND_A/")
    assert header(page) == "Alpha Growth Fund · Alpha Growth Fund L.P. · vintage 2019 · GP Alpha GP · USD · Edit record"
    assert 'href="/funds/FUND_A/record/"' in page.content.decode()


def test_the_form_loads_the_stored_record_and_a_stale_save_is_409_with_nothing_written(sample, editor_client):
    fund_record_set(FundRecord("FUND_A", "Alpha Growth Fund"), expected_revision=0, user="first")
    form = editor_client.get(FUND_FORM).content.decode()
    assert 'value="Alpha Growth Fund"' in form and 'name="expected_revision" value="1"' in form
    assert editor_client.post(FUND_FORM, fund_data(1, name="Second")).status_code == 302
    stale = editor_client.post(FUND_FORM, fund_data(1, name="Third"))
    assert stale.status_code == 409
    assert RecordRepository().fund("FUND_A", consistent=True).name == "Second"


def test_a_record_the_rules_refuse_is_400_with_the_field_named(sample, editor_client):
    response = editor_client.post(FUND_FORM, fund_data(0, vintage="1850"))
    assert response.status_code == 400 and "greater than or equal to 1900" in response.content.decode()
    response = editor_client.post(FUND_FORM, fund_data(0, name="&&&", gp="x" * 201))
    assert response.status_code == 400 and "at most 200 characters" in response.content.decode()
    assert RecordRepository().fund("FUND_A", consistent=True) is None


@pytest.mark.coverage_as_granted
def test_only_editors_of_the_fund_may_edit_its_record(sample, analyst_client):
    assert analyst_client.get(FUND_FORM).status_code == 403  # may edit no fund
    reader = covering("reader", "FUND_A", can_edit=False)
    grants.grant_funds(funds=["FUND_B"], user=reader.user, can_edit=True)
    assert reader.get(FUND_FORM).status_code == 403  # reads FUND_A, may not edit it
    assert reader.post(FUND_FORM, fund_data(0)).status_code == 403
    outsider = covering("outsider", "FUND_B")
    assert outsider.get(FUND_FORM).status_code == 404  # FUND_A is not covered at all
    assert covering("fund_a_editor", "FUND_A").post(FUND_FORM, fund_data(0)).status_code == 302


@pytest.mark.coverage_as_granted
def test_an_editor_of_a_fund_the_investor_is_in_edits_its_record(sample, django_assert_dynamodb_requests):
    editor = covering("fund_a_editor", "FUND_A")
    data = {"name": "Teachers' Pension Plan", "investor_type": "pension", "expected_revision": "0"}
    response = editor.post(INVESTOR_FORM, data)
    assert response.status_code == 302 and response.url == "/investors/INVESTOR_1/"
    with django_assert_dynamodb_requests(1, ["Query"]):
        page = editor.get("/investors/INVESTOR_1/")
    assert header(page) == "Teachers' Pension Plan · Pension · Edit record"
    assert covering("outsider", "FUND_B").get(INVESTOR_FORM).status_code == 404  # not in FUND_B


def test_a_page_without_a_record_says_so_and_readers_get_no_edit_link(sample, analyst_client):
    assert header(analyst_client.get("/funds/FUND_A/")) == "No record yet"
    investor_record_set(InvestorRecord("INVESTOR_2", "Harbor Endowment", "endowment"), expected_revision=0, user="e")
    assert header(analyst_client.get("/investors/INVESTOR_2/")) == "Harbor Endowment · Endowment"


def test_search_by_name_opens_the_fund_page(sample, analyst_client):
    fund_record_set(FundRecord("FUND_A", "Alpha Growth Fund"), expected_revision=0, user="e")
    response = analyst_client.get("/documents/search/", {"q": "alpha growth"})
    assert response.status_code == 302 and response.url == "/funds/FUND_A/"
    assert analyst_client.get("/documents/search/", {"q": "growth"}).url == "/funds/FUND_A/"
    assert "Alpha" not in analyst_client.get("/documents/search/", {"q": "no such name"}).content.decode()


def test_the_funds_list_shows_a_fund_name_in_its_summary_batch(sample, analyst_client, django_assert_dynamodb_requests):
    fund_record_set(FundRecord("FUND_A", "Alpha Growth Fund"), expected_revision=0, user="e")
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):  # the catalog, shards and records
        page = analyst_client.get("/funds/").content.decode()
    assert re.search(
        r'<a href="/funds/FUND_A/">FUND_A</a><br><small data-testid="fund-name">Alpha Growth Fund</small>', page
    )


def test_the_fund_page_as_of_a_date_shows_the_record(sample, analyst_client):
    fund_record_set(FundRecord("FUND_A", "Alpha Growth Fund", vintage=2019), expected_revision=0, user="e")
    page = analyst_client.get("/funds/FUND_A/", {"as_of": "2025-06-30"})
    assert page.status_code == 200
    assert header(page).startswith("Alpha Growth Fund · vintage 2019")
