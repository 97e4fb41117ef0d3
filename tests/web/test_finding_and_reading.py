"""Pages on moto: the documents list across months, search that finds documents,
positions, funds and investors in any case, a 100-position document that is sortable and
filterable in one Query, document types, and search keys backfilled on an older table."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from fundportal.store.gateway import call
from tests.wide_documents import call_amount, load_wide_document

pytestmark = pytest.mark.django_db


def listed_ids(response) -> list[str]:
    return re.findall(r'<tr data-document="([^"]+)"', response.content.decode())


def position_ids(response) -> list[str]:
    return re.findall(r'<tr data-position="([^"]+)"', response.content.decode())


# --- documents list -------------------------------------------------------------------------------


def test_the_list_shows_both_sample_documents_with_their_types(sample, analyst_client):
    response = analyst_client.get("/documents/")
    assert listed_ids(response) == ["DOC002", "DOC001"]
    assertContains(response, 'data-type="capital_call_notice"')
    assertContains(response, "Capital account statement")
    assertContains(response, "Read 2 month partitions")
    typed = analyst_client.get("/documents/", {"type": "capital_account_statement"})
    assert listed_ids(typed) == ["DOC001"]
    assert listed_ids(analyst_client.get("/documents/", {"fund": "fund_a", "to": "2025-10-31"})) == ["DOC001"]
    assert listed_ids(analyst_client.get("/documents/", {"status": "Draft"})) == []


def test_the_list_pages_with_older_and_newer_links(sample, analyst_client):
    for n in range(1, 56):
        load_wide_document(f"PAGE{n:02d}", positions=0)  # 55 documents as of 2025-06-30
    first = analyst_client.get("/documents/")
    assert listed_ids(first)[:2] == ["DOC002", "DOC001"] and len(listed_ids(first)) == 50
    older = re.search(r'href="\?([^"]+)" rel="next">Older', first.content.decode()).group(1).replace("&amp;", "&")
    second = analyst_client.get(f"/documents/?{older}")
    assert listed_ids(second) == [f"PAGE{n:02d}" for n in range(7, 0, -1)]
    assertNotContains(second, 'rel="next"')
    newer = re.search(r'href="\?([^"]*)" rel="prev">', second.content.decode()).group(1)
    assert listed_ids(analyst_client.get(f"/documents/?{newer}")) == listed_ids(first)


def test_a_mistyped_far_future_document_does_not_hijack_the_list(sample, analyst_client):
    from datetime import date

    load_wide_document("TYPO", positions=0, as_of=date(9999, 12, 31))
    response = analyst_client.get("/documents/")
    assert listed_ids(response) == ["DOC002", "DOC001"]
    assertContains(response, 'data-testid="later-months"')
    assert listed_ids(analyst_client.get("/documents/", {"to": "9999-12-31"}))[0] == "TYPO"


def test_a_document_created_with_a_type_is_listed_and_filtered_by_it(sample, client, django_user_model):
    from django.contrib.auth.models import Group

    from fundportal.models import EDITORS_GROUP

    editor = django_user_model.objects.create_user("editor", password="editor-pass-123")
    editor.groups.add(Group.objects.get(name=EDITORS_GROUP))
    client.force_login(editor)
    form = {
        "document_id": "DOC010",
        "title": "Q1 2026 distribution",
        "fund_id": "FUND_Z",
        "as_of_date": "2026-03-31",
        "currency": "USD",
        "status": "Active",
        "document_type": "distribution_notice",
    }
    assertRedirects(client.post("/documents/new/", form), "/documents/DOC010/", fetch_redirect_response=False)
    assertContains(client.get("/documents/DOC010/"), "Distribution notice")
    assert listed_ids(client.get("/documents/", {"type": "distribution_notice"})) == ["DOC010"]
    # creating the document wrote its search keys: the new fund is found in any case
    assertRedirects(client.get("/documents/search/", {"q": "fund_z"}), "/funds/FUND_Z/", fetch_redirect_response=False)


# --- search ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "target"),
    [
        ("doc001", "/documents/DOC001/"),
        ("  Doc002 ", "/documents/DOC002/"),
        ("fund_a", "/funds/FUND_A/"),
        ("FUND_A", "/funds/FUND_A/"),
        ("investor_2", "/investors/INVESTOR_2/"),
        ("position_1", "/positions/POSITION_1/"),
    ],
)
def test_search_opens_the_one_match(sample, analyst_client, query, target, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/documents/search/", {"q": query})
    assertRedirects(response, target, fetch_redirect_response=False)


def test_search_lists_several_matches_by_kind_and_explains_none(sample, analyst_client):
    several = analyst_client.get("/documents/search/", {"q": "pos"})
    assert several.status_code == 200
    html = several.content.decode()
    assert '<section class="search-group" data-kind="position">' in html
    assert 'href="/positions/POSITION_1/"' in html and 'href="/positions/POSITION_2/"' in html
    none = analyst_client.get("/documents/search/", {"q": "nothing_here"})
    assert none.status_code == 200
    assertContains(none, "Nothing found for")
    assertContains(none, 'name="q"')  # the form again, not a redirect
    assert analyst_client.get("/documents/search/").status_code == 200


def test_backfill_gives_an_older_table_its_search_keys(sample, analyst_client):
    for key in [("SEARCH#doc", "doc001#document#DOC001"), ("SEARCH#fun", "fund_a#fund#FUND_A")]:
        call("DeleteItem", TableName=sample.table, Key={"PK": {"S": key[0]}, "SK": {"S": key[1]}})
    missing = analyst_client.get("/documents/search/", {"q": "fund_a"})
    assertContains(missing, "Nothing found")
    # exact ids in their own case still open (GetItem / position Query fallback)
    assertRedirects(
        analyst_client.get("/documents/search/", {"q": "DOC001"}), "/documents/DOC001/", fetch_redirect_response=False
    )
    out = io.StringIO()
    call_command("backfill_indexes", segments=2, stdout=out)
    assert "search keys written 7" in out.getvalue()
    assertRedirects(
        analyst_client.get("/documents/search/", {"q": "fund_a"}), "/funds/FUND_A/", fetch_redirect_response=False
    )


# --- a 100-position document ----------------------------------------------------------------------


@pytest.fixture
def wide(sample):
    return load_wide_document(positions=100)


def test_a_large_document_is_in_natural_order_in_one_query(wide, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/documents/WIDE100/")
    assert position_ids(response) == [f"POSITION_{n}" for n in range(1, 101)]
    assertContains(response, 'class="table-scroll sticky"')
    assertContains(response, "100 of 100 positions")
    assertContains(response, 'data-testid="position-subtotal"', count=100)


def test_a_large_document_sorts_and_filters_server_side(wide, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/documents/WIDE100/", {"sort": "capital_call", "order": "desc"})
    expected = sorted(range(1, 101), key=lambda n: call_amount(n), reverse=True)
    assert position_ids(response) == [f"POSITION_{n}" for n in expected]
    by_unfunded = position_ids(analyst_client.get("/documents/WIDE100/", {"sort": "unfunded_commitment"}))
    assert by_unfunded[:3] == ["POSITION_1", "POSITION_2", "POSITION_3"]
    assert by_unfunded[-10:] == [f"POSITION_{n}" for n in range(10, 101, 10)]  # no commitment: last
    with django_assert_dynamodb_requests(1, ["Query"]):
        filtered = analyst_client.get("/documents/WIDE100/", {"investor": "investor_2", "status": "Pending"})
    shown = [n for n in range(1, 101) if n % 5 + 1 == 2 and n % 4 == 0]
    assert position_ids(filtered) == [f"POSITION_{n}" for n in shown]
    assertContains(filtered, f"{len(shown)} of 100 positions")
    assertContains(filtered, 'data-testid="shown-totals"')
    assertContains(filtered, 'data-testid="document-totals"')
    assert position_ids(analyst_client.get("/documents/WIDE100/", {"position": "position_10"})) == [
        "POSITION_10",
        "POSITION_100",
    ]
    bad = analyst_client.get("/documents/WIDE100/", {"sort": "nope"})
    assert bad.status_code == 400


def test_the_status_filter_shows_the_chosen_status_and_marks_a_bad_one(wide, analyst_client):
    """The status <select> is template markup (no form-renderer round trip per page): it keeps the
    widget's behaviour, the chosen option selected and an invalid value flagged for assistive tech."""
    chosen = analyst_client.get("/documents/WIDE100/", {"status": "Pending"})
    assertContains(chosen, '<select name="status" id="id_status"><option value="">Any status</option>')
    assertContains(chosen, '<option value="Pending" selected>Pending</option>', html=True)
    assertContains(chosen, '<option value="Cancelled">Cancelled</option>', html=True)
    unfiltered = analyst_client.get("/documents/WIDE100/")
    assertContains(unfiltered, '<option value="" selected>Any status</option>', html=True)
    bad = analyst_client.get("/documents/WIDE100/", {"status": "Bogus"})
    assert bad.status_code == 400
    assertContains(bad, 'aria-invalid="true" aria-describedby="id_status_error"', status_code=400)
    assertContains(bad, 'id="id_status_error"', status_code=400)
