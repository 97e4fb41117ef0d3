"""The data layer's client hands Query Items over from the JSON body instead of botocore's
generic parser (a speed trick: fundportal/perf/fast_parse.py, installed on each client by
fundportal.perf when DYNAMODB_FAST_QUERY_PARSE is on). These tests install it themselves, so
they pin the trick path whatever the settings say: the result is exactly what botocore would
have produced, paging, capacity accounting and error translation are unchanged, and without it
the result is the same and the hook is absent, on moto and on DynamoDB Local."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from fundportal.perf import fast_parse
from fundportal.store.client import (
    add_client_customizer,
    client_customizers,
    get_client,
    remove_client_customizer,
    reset_clients,
)
from fundportal.store.errors import RequestRejected, StoreUnavailable, TableMissing
from fundportal.store.gateway import call
from fundportal.store.instrumentation import collect


@pytest.fixture(autouse=True)
def fast_parse_installed():
    """Every client made during the test carries the fast parse (as PerfConfig installs it)."""
    installed = fast_parse.install in client_customizers()
    add_client_customizer(fast_parse.install)
    yield
    if installed:
        add_client_customizer(fast_parse.install)
    else:
        remove_client_customizer(fast_parse.install)


def plain_client(backend):
    """A stock boto3 client (no hooks) on the same backend."""
    kwargs = {"region_name": "us-east-1"}
    if backend.endpoint:
        kwargs["endpoint_url"] = backend.endpoint
    return boto3.client("dynamodb", **kwargs)


def query(backend, **params):
    return {
        "TableName": backend.table,
        "KeyConditionExpression": "PK = :pk",
        "ExpressionAttributeValues": {":pk": {"S": "DOC001"}},
        **params,
    }


def test_items_are_exactly_what_botocore_parses(sample):
    ours = call("Query", **query(sample))
    stock = plain_client(sample).query(**query(sample))
    assert len(ours["Items"]) == 10
    assert ours["Items"] == stock["Items"]
    assert ours["Count"] == stock["Count"] == 10
    amounts = {item["SK"]["S"]: item["Amount"]["N"] for item in ours["Items"] if "Amount" in item}
    assert amounts["CAPITAL_CALL#POSITION_1"] == "500000"


def test_paging_keys_and_capacity_still_parsed_by_botocore(sample):
    pages = []
    params = query(sample, Limit=4)
    with collect() as requests:
        while True:
            response = call("Query", **params)
            pages.append(response["Items"])
            if "LastEvaluatedKey" not in response:
                break
            assert response["LastEvaluatedKey"]["PK"] == {"S": "DOC001"}
            params["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    assert [len(p) for p in pages] == [4, 4, 2]
    assert [r.items for r in requests.records] == [4, 4, 2]
    stock = plain_client(sample).query(**query(sample))
    assert [i for p in pages for i in p] == stock["Items"]


def test_consumed_capacity_recorded(local_sample):
    with collect() as requests:
        call("Query", **query(local_sample))
    assert requests.count == 1
    assert requests.records[0].read_units > 0


def test_count_only_query_has_no_items(sample):
    response = call("Query", **query(sample, Select="COUNT"))
    assert response["Count"] == 10
    assert "Items" not in response


def test_errors_are_still_parsed_and_translated(local_sample):
    with pytest.raises(RequestRejected) as caught:
        call("Query", **query(local_sample, KeyConditionExpression="PK = :missing"))
    assert caught.value.code == "ValidationException"  # typed; the ClientError never escapes
    assert isinstance(caught.value.__cause__, ClientError)
    with pytest.raises(StoreUnavailable, match="does not exist") as missing:
        call("Query", **query(local_sample, TableName="no_such_table"))
    assert isinstance(missing.value, TableMissing) and missing.value.table == "no_such_table"


def test_binary_values_are_left_to_botocore(backend):
    item = {"PK": {"S": "BLOB"}, "SK": {"S": "ONE"}, "Data": {"B": b"\x00\xff"}, "Tags": {"BS": [b"a"]}}
    call("PutItem", TableName=backend.table, Item=item)
    response = call(
        "Query",
        TableName=backend.table,
        KeyConditionExpression="PK = :pk",
        ExpressionAttributeValues={":pk": {"S": "BLOB"}},
    )
    assert response["Items"] == [item]


def _spy_on_the_hook(monkeypatch) -> list[int]:
    """Make `install` register a counting wrapper of the hook (for clients created from now on)."""
    seen: list[int] = []
    real = fast_parse.take_query_items

    def counting(*args: Any, **kwargs: Any) -> None:
        seen.append(1)
        real(*args, **kwargs)

    monkeypatch.setattr(fast_parse, "take_query_items", counting)
    return seen


def _registered(client: Any) -> bool:
    """Whether the client's event system holds our hook for Query responses."""
    handlers = client.meta.events._emitter._handlers.prefix_search(fast_parse.EVENT)
    return any(handler is fast_parse.take_query_items for handler in handlers)


def test_without_the_fast_parse_the_result_is_the_same_and_the_hook_absent(sample, monkeypatch):
    seen = _spy_on_the_hook(monkeypatch)
    reset_clients()
    fast = call("Query", **query(sample))
    assert _registered(get_client()) and seen  # the hook ran

    remove_client_customizer(fast_parse.install)  # what PerfConfig does when the setting is off
    seen.clear()
    with collect() as requests:
        slow = call("Query", **query(sample))
    assert not _registered(get_client())
    assert seen == []  # botocore parsed everything
    assert slow["Items"] == fast["Items"] == plain_client(sample).query(**query(sample))["Items"]
    assert slow["Count"] == fast["Count"] == 10
    assert requests.records[0].items == 10  # accounting unchanged

    # Paging keys and typed errors are the same on botocore's own path.
    page = call("Query", **query(sample, Limit=4))
    assert page["LastEvaluatedKey"]["PK"] == {"S": "DOC001"} and len(page["Items"]) == 4
    with pytest.raises(RequestRejected):
        call("Query", **query(sample, KeyConditionExpression="PK = :missing"))


def test_a_body_orjson_refuses_is_left_whole_to_botocore():
    """orjson refuses what Python's json module accepts beyond the JSON standard (NaN here): the
    hook leaves such a body untouched and botocore parses all of it."""
    from fundportal.perf.fast_parse import take_query_items

    body = b'{"Count": 1, "ConsumedCapacity": {"CapacityUnits": NaN}, "Items": [{"PK": {"S": "D"}}]}'
    response = {"status_code": 200, "body": body}
    customized: dict = {}
    take_query_items(response, customized)
    assert customized == {}
    assert response["body"] == body


def test_items_taken_and_the_rest_left_as_json_for_botocore():
    import json

    from fundportal.perf.fast_parse import take_query_items

    body = json.dumps(
        {"Count": 1, "Items": [{"PK": {"S": "D"}, "Amount": {"N": "1.50"}}], "LastEvaluatedKey": {"PK": {"S": "D"}}}
    )
    response = {"status_code": 200, "body": body.encode()}
    customized: dict = {}
    take_query_items(response, customized)
    assert customized == {"Items": [{"PK": {"S": "D"}, "Amount": {"N": "1.50"}}]}
    assert json.loads(response["body"]) == {"Count": 1, "LastEvaluatedKey": {"PK": {"S": "D"}}}
