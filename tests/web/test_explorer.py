"""The admin's item-collection explorer (`fundportal/ops/explorer.py`) on the seed sample: a
document's partition and a position's index collection, raw items in key order, signed cursors,
id checks before any request, and exact JSON."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from fundportal.domain.errors import BadCursor, InvalidId
from fundportal.ops import explorer
from fundportal.store.schema import DOCUMENT_INDEX, ENTITY_INDEX, MONTH_INDEX, POSITION_INDEX

DOC001_SKS = [
    "CAPITAL_ACTIVITY#2025-08-15",
    "CAPITAL_ACTIVITY#LATEST",
    "CAPITAL_CALL#POSITION_1",
    "CAPITAL_CALL#POSITION_2",
    "DISTRIBUTION#POSITION_1",
    "DISTRIBUTION#POSITION_2",
    "DOCUMENT#2025-09-01",
    "DOCUMENT#LATEST",
    "UNFUNDED_COMMITMENT#POSITION_1",
    "UNFUNDED_COMMITMENT#POSITION_2",
]
POSITION_1_GSI2_SKS = [
    "!REGISTER",  # the position register sorts first in the position's partition
    "CAPITAL_CALL#DOC001",
    "CAPITAL_CALL#DOC002",
    "DISTRIBUTION#DOC001",
    "DISTRIBUTION#DOC002",
    "UNFUNDED_COMMITMENT#DOC001",
]


def test_document_collection_is_the_whole_partition_in_sk_order(sample, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        page = explorer.document_collection("DOC001")
    assert [item["SK"] for item in page.items] == DOC001_SKS
    assert page.next_cursor is None
    call_item = next(item for item in page.items if item["SK"] == "CAPITAL_CALL#POSITION_1")
    assert call_item["Amount"] == Decimal(500000)
    assert call_item["GSI2_PK"] == "POSITION_1"
    assert {keys.index for keys in explorer.index_keys(call_item)} == {ENTITY_INDEX, POSITION_INDEX, DOCUMENT_INDEX}
    historical = next(item for item in page.items if item["SK"] == "DOCUMENT#2025-09-01")
    assert historical["Version"] == "Historical"
    assert explorer.index_keys(historical) == []
    current = next(item for item in page.items if item["SK"] == "DOCUMENT#LATEST")
    assert {keys.index for keys in explorer.index_keys(current)} == {ENTITY_INDEX, MONTH_INDEX, DOCUMENT_INDEX}


def test_document_collection_pages_with_a_signed_cursor(sample):
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        page = explorer.document_collection("DOC001", cursor, page_size=4)
        pages += 1
        seen += [item["SK"] for item in page.items]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert pages == 3
    assert seen == DOC001_SKS
    # A cursor is bound to its collection and page size.
    first = explorer.document_collection("DOC001", page_size=4)
    with pytest.raises(BadCursor):
        explorer.document_collection("DOC002", first.next_cursor, page_size=4)
    with pytest.raises(BadCursor):
        explorer.document_collection("DOC001", first.next_cursor + "x", page_size=4)


def test_position_collection_comes_from_the_position_index(sample):
    page = explorer.position_collection("POSITION_1", page_size=3)
    rest = explorer.position_collection("POSITION_1", page.next_cursor, page_size=3)
    assert page.index == POSITION_INDEX
    assert [item["GSI2_SK"] for item in page.items + rest.items] == POSITION_1_GSI2_SKS
    assert rest.next_cursor is None
    # INCLUDE projection: no Title or UpdatedBy in the index.
    assert all("UpdatedBy" not in item for item in page.items)


def test_explorer_rejects_bad_ids_before_any_request(sample, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(0), pytest.raises(InvalidId):
        explorer.document_collection("DOC#001")
    with django_assert_dynamodb_requests(0), pytest.raises(InvalidId):
        explorer.position_collection("")


def test_item_json_is_decimal_safe():
    text = explorer.to_json({"Amount": Decimal("500000"), "Rate": Decimal("0.125"), "Tags": {"b", "a"}})
    assert json.loads(text) == {"Amount": 500000, "Rate": "0.125", "Tags": ["a", "b"]}
