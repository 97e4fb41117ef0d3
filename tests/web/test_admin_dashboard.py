"""The DynamoDB section of the admin: every page on the seed sample (moto and DynamoDB Local)
and the permission checks (the explorer's data function: tests/web/test_explorer.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from fundportal.store.gateway import call
from fundportal.store.instrumentation import page_log
from fundportal.store.schema import (
    DOCUMENT_INDEX,
    ENTITY_INDEX,
    FUND_INDEX,
    INVESTOR_INDEX,
    MONTH_INDEX,
    POSITION_INDEX,
    TABLE,
    TableDef,
)
from tests.web.test_explorer import DOC001_SKS, POSITION_1_GSI2_SKS

PAGES = ["index", "table", "patterns", "explorer", "requests"]


def url(name: str) -> str:
    return reverse(f"dynamodb_admin:{name}")


def shown_sort_keys(html: str) -> list[str]:
    return re.findall(r'class="collection-item" data-sk="([^"]+)"', html)


# --- pages -----------------------------------------------------------------------------------


def test_admin_index_links_to_the_dynamodb_section(staff_client, db):
    html = staff_client.get("/admin/").content.decode()
    assert 'id="dynamodb-module"' in html
    for name in PAGES:
        assert f'href="{url(name)}"' in html


def test_section_index_has_breadcrumbs_and_links(staff_client, db):
    response = staff_client.get(url("index"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="breadcrumbs"' in html and 'href="/admin/"' in html
    for name in PAGES[1:]:
        assert f'href="{url(name)}"' in html


def test_table_page_shows_the_table_and_its_active_indexes(staff_client, sample):
    response = staff_client.get(url("table"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="table-status">ACTIVE<' in html
    assert "PAY_PER_REQUEST" in html
    assert sample.table in html
    assert 'id="no-drift"' in html and 'class="errornote drift"' not in html
    rows = re.findall(r'data-index="([^"]+)">.*?<td class="status-(\w+)">', html, flags=re.S)
    assert rows == [
        (ENTITY_INDEX, "active"),
        (POSITION_INDEX, "active"),
        (MONTH_INDEX, "active"),
        (INVESTOR_INDEX, "active"),
        (DOCUMENT_INDEX, "active"),
        (FUND_INDEX, "active"),
    ]
    assert "GSI2_PK (partition)" in html and "GSI2_SK (sort)" in html
    assert "INCLUDE" in html and "AsOfDate" in html
    assert "Home</a>" in html and "Table and indexes" in html


def test_table_page_highlights_drift_from_the_definition(staff_client, backend, settings):
    settings.DYNAMODB_TABLE = drifted = f"{backend.table}_drifted"
    call("CreateTable", **TableDef(indexes=TABLE.indexes[:2]).create_table_kwargs(drifted))
    html = staff_client.get(url("table")).content.decode()
    assert 'class="errornote drift"' in html
    assert f"index {MONTH_INDEX} is missing" in html
    assert re.search(rf'class="index-row drift" data-index="{MONTH_INDEX}"', html)
    assert f'class="index-row" data-index="{ENTITY_INDEX}"' in html
    call("DeleteTable", TableName=drifted)


def test_table_page_explains_a_missing_table(staff_client, backend, settings):
    settings.DYNAMODB_TABLE = "no_such_table"
    response = staff_client.get(url("table"))
    assert response.status_code == 200
    assert "does not exist" in response.content.decode()


@pytest.mark.parametrize("name", ["table", "explorer"])
def test_unreachable_dynamodb_is_a_503_page(staff_client, settings, name, caplog):
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:9"
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    response = staff_client.get(url(name), {"document": "DOC001"} if name == "explorer" else {})
    assert response.status_code == 503
    assert "cannot be reached right now" in response.content.decode()  # plain words...
    assert any("cannot reach DynamoDB" in r.getMessage() for r in caplog.records)  # ...the cause in the log


def test_explorer_shows_doc001s_collection(staff_client, sample):
    response = staff_client.get(url("explorer"), {"document": "DOC001"})
    html = response.content.decode()
    assert response.status_code == 200
    assert shown_sort_keys(html) == DOC001_SKS
    assert "10 items on this page" in html
    assert "DynamoDB: 1 request" in html
    assert "DOCUMENT#2025-09-01" in html  # historical copy included
    assert "GSI_PK=CAPITAL_CALL#POSITION_1#DOC001" in html
    assert "GSI2_PK=POSITION_1" in html
    assert "GSI3_PK=LATEST_DOCS#2025-09" in html
    assert "&quot;Amount&quot;: 1500000" in html  # JSON view, Decimal as an exact number
    assert "End of the collection." in html
    assert 'href="?position=POSITION_2"' in html  # position items link to the position's collection


def test_explorer_shows_position_1s_collection(staff_client, sample):
    html = staff_client.get(url("explorer"), {"position": "POSITION_1"}).content.decode()
    assert shown_sort_keys(html) == POSITION_1_GSI2_SKS
    assert POSITION_INDEX in html
    assert 'href="?document=DOC002"' in html


def test_explorer_paginates(staff_client, sample):
    first = staff_client.get(url("explorer"), {"document": "DOC001", "page_size": 4}).content.decode()
    assert shown_sort_keys(first) == DOC001_SKS[:4]
    next_url = re.search(r'href="([^"]+)" id="next-page"', first).group(1).replace("&amp;", "&")
    second = staff_client.get(next_url).content.decode()
    assert shown_sort_keys(second) == DOC001_SKS[4:8]
    assert "First page" in second


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"document": "DOC#001"}, "Invalid document id"),
        ({"position": "x" * 65}, "Ensure this value has at most 64 characters"),
        ({"document": "DOC001", "position": "POSITION_1"}, "one of the two"),
        ({}, "one of the two"),
        ({"document": "DOC001", "cursor": "forged"}, "The page link is invalid"),
        ({"document": "DOC001", "page_size": "0"}, "greater than or equal to 1"),
    ],
)
def test_explorer_bad_input_is_a_clear_400(staff_client, moto_backend, query, message):
    response = staff_client.get(url("explorer"), {**query, "submitted": "1"})
    assert response.status_code == 400
    assert message in response.content.decode()


def test_explorer_unknown_document_is_an_empty_collection(staff_client, sample):
    response = staff_client.get(url("explorer"), {"document": "DOC999"})
    assert response.status_code == 200
    assert 'id="collection-empty"' in response.content.decode()


def test_patterns_page_lists_the_catalog(staff_client, moto_backend):
    html = staff_client.get(url("patterns")).content.decode()
    assert html.count("<tr><td>") >= 12
    assert "document overview" in html and "GSI2_PK = {position}" in html
    assert 'id="pattern-results"' not in html


def test_patterns_page_runs_the_read_patterns_with_their_cost(staff_client, sample):
    response = staff_client.get(url("patterns"), {"document": "DOC001", "position": "POSITION_1"})
    html = response.content.decode()
    assert response.status_code == 200
    rows = dict(re.findall(r'data-pattern="(\d+)">(.*?)</tr>', html, flags=re.S))
    assert len(rows) == 12
    overview = re.findall(r'<td class="num">([\d.]+)</td>', rows["1"])
    assert overview[:2] == ["10", "1"]  # 10 items from one request
    position = re.findall(r'<td class="num">([\d.]+)</td>', rows["7"])
    assert position[:2] == ["5", "1"]
    assert "not run" in rows["10"] and "not run" in rows["12"]
    assert "no Scan" in html and "Scan!" not in html


def test_patterns_page_unknown_document_and_bad_id(staff_client, sample):
    missing = staff_client.get(url("patterns"), {"document": "DOC999", "position": "POSITION_1"})
    assert missing.status_code == 404
    assert "Document &#x27;DOC999&#x27; was not found." in missing.content.decode()
    bad = staff_client.get(url("patterns"), {"document": "DOC001", "position": "POS#1"})
    assert bad.status_code == 400
    assert "Invalid position id" in bad.content.decode()


def test_request_log_flags_pages_with_more_than_one_request(staff_client, sample):
    page_log.clear()
    staff_client.get(url("table"))  # one DescribeTable
    staff_client.get(url("patterns"), {"document": "DOC001", "position": "POSITION_1"})  # many
    html = staff_client.get(url("requests")).content.decode()
    rows = re.findall(r'<tr class="(flagged|)">.*?<code>([^<]+)</code>', html, flags=re.S)
    assert [(flag, path.split("?")[0]) for flag, path in rows] == [
        ("flagged", url("patterns")),
        ("", url("table")),
    ]
    assert "1 of 2" in html
    assert "operator" in html
    assert staff_client.get(url("requests"), {"n": "1"}).content.decode().count("<tr class=") == 1
    assert staff_client.get(url("requests"), {"n": "0"}).status_code == 400


# --- permissions -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", PAGES)
def test_anonymous_users_are_sent_to_the_admin_login(client, moto_backend, db, name, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(0):
        response = client.get(url(name))
    assert response.status_code == 302
    assert response["Location"] == f"/admin/login/?next={url(name)}"


@pytest.mark.parametrize("name", PAGES)
def test_signed_in_non_staff_users_cannot_reach_the_pages(
    analyst_client, moto_backend, name, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(0):
        response = analyst_client.get(url(name), {"document": "DOC001", "position": "POSITION_1"})
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/?next=")


def test_users_and_groups_are_in_the_standard_admin(client, django_user_model):
    admin_user = django_user_model.objects.create_superuser("root", password="root-pass-123")
    Group.objects.get_or_create(name="Fund editors")
    client.force_login(admin_user)
    assert "Fund editors" in client.get("/admin/auth/group/").content.decode()
    assert "root" in client.get("/admin/auth/user/").content.decode()
