"""The position page shows each document's title and type (the entries' copies, from the page's
one Query) and filters its documents by type, with the period, in memory."""

from __future__ import annotations

import re

from tests.copies import strip_copies


def document_ids(page: str) -> list[str]:
    return re.findall(r'<tr data-document="([^"]+)"', page)


def cells(page: str, testid: str) -> list[str]:
    return re.findall(rf'<td data-testid="{testid}"[^>]*>([^<]*)</td>', page)


def type_options(page: str) -> list[tuple[str, str]]:
    select = re.search(r'<select name="document_type"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))


def test_the_position_page_shows_each_documents_title_and_type_in_its_one_query(
    sample, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(1, ["Query"]):
        page = analyst_client.get("/positions/POSITION_1/").content.decode()
    assert '<th scope="col">Title</th><th scope="col">Type</th>' in page
    assert document_ids(page) == ["DOC001", "DOC002"]
    assert cells(page, "document-title") == ["Q3 2025 capital account statement", "Q4 2025 capital call notice"]
    assert cells(page, "document-type") == ["Capital account statement", "Capital call notice"]  # in words


def test_the_type_select_offers_the_types_on_the_position(sample, analyst_client):
    page = analyst_client.get("/positions/POSITION_1/").content.decode()
    assert type_options(page) == [
        ("", "All types"),
        ("capital_account_statement", "Capital account statement"),
        ("capital_call_notice", "Capital call notice"),
    ]


def test_the_type_filter_keeps_one_type_in_the_same_one_query(sample, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/positions/POSITION_1/?document_type=capital_call_notice")
    page = response.content.decode()
    assert document_ids(page) == ["DOC002"]
    assert "1 of 2 documents on this page of type Capital call notice." in page
    headline = re.search(r'data-testid="total-called">([^<]+)<', page)
    assert headline is not None and headline.group(1) == "USD 1,250,000.00"  # the whole position's
    assert '<option value="capital_call_notice" selected>' in page


def test_the_type_and_period_filters_combine(sample, analyst_client):
    both = "/positions/POSITION_1/?document_type=capital_account_statement&from_date=2025-09-01&to_date=2025-09-30"
    assert document_ids(analyst_client.get(both).content.decode()) == ["DOC001"]
    none = "/positions/POSITION_1/?document_type=capital_call_notice&to_date=2025-09-30"
    page = analyst_client.get(none).content.decode()
    assert document_ids(page) == [] and 'data-testid="no-document-in-period"' in page
    assert "No document on this page is of this type and is dated in this period." in page


def test_an_unknown_type_is_a_field_error_and_filters_nothing(sample, analyst_client):
    response = analyst_client.get("/positions/POSITION_1/?document_type=no_such_type")
    assert response.status_code == 200
    assert document_ids(response.content.decode()) == ["DOC001", "DOC002"]


def test_entries_without_copies_show_the_id_and_a_dash_and_only_every_type_keeps_them(
    sample, analyst_client, django_assert_dynamodb_requests
):
    strip_copies(sample.table, "DOC001")  # written before the copies existed, not yet backfilled
    with django_assert_dynamodb_requests(1, ["Query"]):
        page = analyst_client.get("/positions/POSITION_1/").content.decode()
    assert cells(page, "document-title") == ["DOC001", "Q4 2025 capital call notice"]
    assert cells(page, "document-type") == ["—", "Capital call notice"]
    assert [value for value, _ in type_options(page)] == ["", "capital_call_notice"]
    kept = analyst_client.get("/positions/POSITION_1/?document_type=capital_account_statement").content.decode()
    assert document_ids(kept) == []  # no type copy: kept by no type but every type
    assert document_ids(analyst_client.get("/positions/POSITION_1/?document_type=").content.decode()) == [
        "DOC001",
        "DOC002",
    ]


def test_the_type_filter_is_kept_on_paging_links(sample, analyst_client, settings):
    settings.POSITION_PAGE_SIZE = 3  # the register and two entries a page
    page = analyst_client.get("/positions/POSITION_1/?document_type=capital_call_notice").content.decode()
    next_link = re.search(r'<a href="([^"]+)" rel="next">', page)
    assert next_link is not None and "document_type=capital_call_notice" in next_link.group(1)
    later = analyst_client.get("/positions/POSITION_1/" + next_link.group(1).replace("&amp;", "&")).content.decode()
    assert '<option value="capital_call_notice" selected>' in later  # kept though this page may hold none
    previous = re.search(r'<a href="([^"]+)" rel="prev">', later)
    assert previous is not None and "document_type=capital_call_notice" in previous.group(1)
