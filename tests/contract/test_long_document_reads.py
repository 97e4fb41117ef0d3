"""A 20,000-position document on DynamoDB Local (which reports read units): every view of its
page makes at most 2 requests and reads a bounded number of items and read units, on the first
page, a middle page reached by Next, and going back with Previous."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from fundportal.store.instrumentation import collect
from fundportal.store.repositories.document_pages import PROBE_ITEMS, page_items
from tests.long_documents import load_long_document, position_id

pytestmark = pytest.mark.django_db

POSITIONS = 20_000
# Each view reads at most one bounded Query of the partition (PROBE_ITEMS, the first page only)
# and one Query of the page index (page_items() + the two headers), or 2 items by key.
MAX_ITEMS_PER_VIEW = PROBE_ITEMS + page_items() + 2
MAX_READ_UNITS_PER_VIEW = 40


@pytest.fixture
def twenty_thousand(local_backend):
    # Every 20th position carries every kind: the widest pages are read too.
    return load_long_document("BIG", positions=POSITIONS, every_kind=20, workers=4)


def view(client: Client, href: str) -> tuple[list[str], str, tuple[int, int, float]]:
    """(rows shown, body, (requests, items read, read units)) of one view of the page."""
    with collect() as collector:
        response = client.get("/documents/BIG/" + href)
    assert response.status_code == 200
    body = response.content.decode().replace("&amp;", "&")
    cost = (collector.count, sum(r.items for r in collector.records), collector.read_units)
    return re.findall(r'<tr data-position="([^"]+)"', body), body, cost


def pager_link(body: str, rel: str) -> str:
    return re.search(rf'<a href="([^"]+)" rel="{rel}"', body).group(1)


def test_a_20000_position_document_page_costs_at_most_2_requests_and_bounded_reads(twenty_thousand, admin_user):
    client = Client()
    client.force_login(admin_user)
    first, body, cost = view(client, "")
    costs = [cost]
    assert first == [position_id(n) for n in range(1, 101)]
    pages = [first]
    for _ in range(3):
        rows, body, cost = view(client, pager_link(body, "next"))
        pages.append(rows)
        costs.append(cost)
    assert pages[3] == [position_id(n) for n in range(301, 401)]
    back, body, cost = view(client, pager_link(body, "prev"))
    costs.append(cost)
    assert back == pages[2]
    for requests, items, units in costs:
        assert requests <= 2, costs
        assert items <= MAX_ITEMS_PER_VIEW, costs
        assert 0 < units <= MAX_READ_UNITS_PER_VIEW, costs
