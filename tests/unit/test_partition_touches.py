"""Which partitions a request touched and the bytes billed, read from the request and reply in
DynamoDB's wire format: base table and the index entries an item's key attributes put it in."""

from __future__ import annotations

from fundportal.store.instrumentation import PartitionTouch
from fundportal.store.partition_touches import item_size, touches, value_size
from fundportal.store.schema import ENTITY_INDEX, POSITION_INDEX


def test_sizes_count_attribute_names_and_values_by_dynamodb_rules():
    assert value_size({"S": "héllo"}) == 6  # UTF-8 bytes
    assert value_size({"N": "1250000.00"}) == 3  # zeros trimmed: 3 significant digits, 2 + 1
    assert value_size({"N": "-1234.5678"}) == 5  # 8 significant digits: 4 + 1
    assert value_size({"BOOL": True}) == 1
    assert value_size({"L": [{"S": "ab"}, {"N": "7"}]}) == 3 + (1 + 2) + (1 + 2)
    assert value_size({"M": {"a": {"S": "xy"}}}) == 3 + 1 + 1 + 2
    assert item_size({"PK": {"S": "DOC1"}, "Amount": {"N": "12"}}) == (2 + 4) + (6 + 2)


def _entry(**extra):
    return {
        "PK": {"S": "DOC1"},
        "SK": {"S": "CAPITAL_CALL#P1"},
        "Amount": {"N": "100"},
        "Notes": {"S": "x" * 2000},  # not projected into the position index
        **extra,
    }


def test_a_batch_put_bills_the_base_table_and_each_index_the_item_is_keyed_in():
    item = _entry(GSI2_PK={"S": "P1"}, GSI2_SK={"S": "CAPITAL_CALL#DOC1"})
    found = touches("BatchWriteItem", {"RequestItems": {"t": [{"PutRequest": {"Item": item}}]}}, {})
    base, index = found
    assert base == PartitionTouch(None, "DOC1", "write", item_size(item))
    assert (index.index, index.key, index.kind, index.transactional) == (POSITION_INDEX, "P1", "write", False)
    projected = {k: v for k, v in item.items() if k != "Notes"}  # INCLUDE: keys and listed attributes
    assert index.bytes == item_size(projected)


def test_an_item_without_an_index_key_is_not_written_to_that_index():
    found = touches("BatchWriteItem", {"RequestItems": {"t": [{"PutRequest": {"Item": _entry()}}]}}, {})
    assert [t.index for t in found] == [None]


def test_a_transaction_put_is_transactional_on_the_table_and_ordinary_on_the_index():
    register = _entry(GSI_PK={"S": "FUND#F1"}, GSI_SK={"S": "P1"})
    params = {
        "TransactItems": [
            {"Put": {"Item": register}},
            {"Delete": {"Key": {"PK": {"S": "OLD"}, "SK": {"S": "X"}}}},
            {"ConditionCheck": {"Key": {"PK": {"S": "DOC1"}, "SK": {"S": "DOCUMENT#LATEST"}}}},
        ]
    }
    found = touches("TransactWriteItems", params, {})
    assert [(t.index, t.key, t.transactional) for t in found] == [
        (None, "DOC1", True),
        (ENTITY_INDEX, "FUND#F1", False),
        (None, "OLD", True),
        (None, "DOC1", True),
    ]
    assert found[1].bytes == item_size(register)  # ALL projection: the whole item


def test_a_query_bills_its_partition_the_size_of_the_page_it_returned():
    params = {
        "IndexName": POSITION_INDEX,
        "KeyConditionExpression": "GSI2_PK = :pk AND begins_with(GSI2_SK, :prefix)",
        "ExpressionAttributeValues": {":pk": {"S": "P1"}, ":prefix": {"S": "CAPITAL"}},
    }
    items = [_entry(), _entry()]
    (touch,) = touches("Query", params, {"Items": items})
    assert touch == PartitionTouch(POSITION_INDEX, "P1", "read", 2 * item_size(_entry()))


def test_a_batch_get_bills_every_key_asked_for_found_or_not():
    key = {"PK": {"S": "DOC1"}, "SK": {"S": "CAPITAL_CALL#P1"}}
    missing = {"PK": {"S": "DOC2"}, "SK": {"S": "CAPITAL_CALL#P1"}}
    params = {"RequestItems": {"t": {"Keys": [key, missing], "ConsistentRead": True}}}
    found = touches("BatchGetItem", params, {"Responses": {"t": [_entry()]}})
    assert [(t.key, t.bytes, t.consistent) for t in found] == [("DOC1", item_size(_entry()), True), ("DOC2", 0, True)]


def test_a_get_of_a_missing_item_still_touches_its_partition():
    (touch,) = touches("GetItem", {"Key": {"PK": {"S": "DOC9"}, "SK": {"S": "X"}}}, {})
    assert (touch.key, touch.kind, touch.bytes) == ("DOC9", "read", 0)
