"""The document compare page: the header and every position's amounts between any two versions,
the status a superseded version had, and the capital activity's count of historical versions."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

import pytest

from documents import services
from documents.selectors import document_header, entry
from fundportal.domain.kinds import Kind

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def change_call(document_id: str, position_id: str, amount: int, user: str = "ana") -> None:
    current = entry(document_id=document_id, kind=Kind.CAPITAL_CALL, position_id=position_id)
    services.entry_change(entry=replace(current, amount=Decimal(amount)), user=user, expected_revision=current.revision)


def restate(document_id: str, title: str, user: str = "ana") -> None:
    revision = document_header(document_id=document_id).revision
    services.document_restate(document_id=document_id, expected_revision=revision, changes={"title": title}, user=user)


def amount_rows(response) -> list[str]:
    table = re.search(r'<table id="amount-changes".*?</table>', response.content.decode(), re.S)
    assert table is not None, "no amount table"
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
        for row in re.findall(r"<tr data-position.*?</tr>", table.group(0), re.S)
    ]


def test_a_restated_doc002_shows_position_2s_call_change(sample, analyst_client, django_assert_dynamodb_requests):
    restate("DOC002", "Q4 2025 notice (restated)")  # archives revision 1 as it stood
    change_call("DOC002", "POSITION_2", 410000)
    version = _only_version(analyst_client)
    # GetItem (current) + one Query per versioned kind + the partition + its entry history.
    with django_assert_dynamodb_requests(5, ["GetItem", "Query", "Query", "Query", "Query"]):
        response = analyst_client.get("/documents/DOC002/history/", {"compare": version})
    assert amount_rows(response) == ["POSITION_2 Capital call changed USD 400,000.00 USD 410,000.00 +USD 10,000.00"]
    page = text(response)
    assert "Title (changed) Q4 2025 notice (restated)" in page


def test_the_prior_status_is_the_one_the_version_had(sample, analyst_client):
    restate("DOC002", "Q4 2025 notice (restated)")
    response = analyst_client.get("/documents/DOC002/history/", {"compare": _only_version(analyst_client)})
    changed = [
        c.strip() for c in re.findall(r'data-changed="true">\s*<th scope="row">([^<]+)', response.content.decode())
    ]
    assert "Title" in changed and "Status" not in changed
    assert re.search(r'<th scope="row">Status</th>\s*<td>Active</td><td>Active</td>', response.content.decode())
    versions = text(analyst_client.get("/documents/DOC002/history/"))
    assert "Active" in versions and "Historical" not in versions


def test_any_two_versions_compare_amounts_as_they_stood_in_each(sample, analyst_client):
    restate("DOC002", "first restatement")  # archives revision 1: call 400,000
    change_call("DOC002", "POSITION_2", 410000)
    restate("DOC002", "second restatement")  # archives revision 2: call 410,000
    change_call("DOC002", "POSITION_2", 425000)
    services.entry_remove(document_id="DOC002", kind=Kind.DISTRIBUTION, position_id="POSITION_1", user="ana")
    listing = analyst_client.get("/documents/DOC002/history/").content.decode()
    versions = re.findall(r'compare=([0-9.-]+)">Compare with current', listing)
    newest, oldest = versions[0], versions[1]
    between = analyst_client.get("/documents/DOC002/history/", {"compare": oldest, "with": newest})
    assert amount_rows(between) == ["POSITION_2 Capital call changed USD 400,000.00 USD 410,000.00 +USD 10,000.00"]
    to_current = analyst_client.get("/documents/DOC002/history/", {"compare": newest})
    assert amount_rows(to_current) == [
        "POSITION_1 Distribution removed USD 120,000.00 — —",
        "POSITION_2 Capital call changed USD 410,000.00 USD 425,000.00 +USD 15,000.00",
    ]
    listing = analyst_client.get("/documents/DOC002/history/").content.decode()
    assert f"compare={oldest}&amp;with={newest}" in listing  # each version links to the one before it


def test_no_amount_change_says_so(sample, analyst_client):
    response = analyst_client.get("/documents/DOC001/history/", {"compare": "2025-09-01"})
    assert "No position amount differs between the two versions." in text(response)


def test_the_capital_activity_cell_counts_its_own_historical_versions(sample, analyst_client):
    page = analyst_client.get("/documents/DOC001/").content.decode()
    count = re.search(r'data-testid="history-count">([^<]+)<', page)
    assert count is not None and count.group(1) == "1 historical version"
    history = analyst_client.get("/documents/DOC001/history/").content.decode()
    listed = re.search(r'<table id="activity-versions">.*?<tbody>(.*?)</tbody>', history, re.S)
    assert listed is not None and listed.group(1).count("<tr>") == 1


def test_a_bad_or_unknown_other_version_is_refused(sample, analyst_client):
    bad = analyst_client.get("/documents/DOC001/history/", {"compare": "2025-09-01", "with": "DOCUMENT#x"})
    assert bad.status_code == 400
    unknown = analyst_client.get("/documents/DOC001/history/", {"compare": "2025-09-01", "with": "2020-01-01"})
    assert unknown.status_code == 404


def _only_version(client) -> str:
    (version,) = re.findall(
        r'compare=([0-9.-]+)">Compare with current', client.get("/documents/DOC002/history/").content.decode()
    )
    return version
