"""The data layer's client hands BatchGetItem Responses over from the JSON body instead of
botocore's generic parser (a speed trick: fundportal/perf/fast_batch_get.py, installed on each
client by fundportal.perf when DYNAMODB_FAST_BATCH_GET_PARSE is on). These tests install it
themselves, so they pin the trick path whatever the settings say: the result is exactly what
botocore would have produced, capacity accounting and error translation are unchanged, and
without it the result is the same and the hook absent, on moto and on DynamoDB Local."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest

from fundportal.perf import fast_batch_get
from fundportal.store.client import (
    add_client_customizer,
    client_customizers,
    get_client,
    remove_client_customizer,
    reset_clients,
)
from fundportal.store.errors import StoreUnavailable
from fundportal.store.gateway import call
from fundportal.store.instrumentation import collect


@pytest.fixture(autouse=True)
def fast_batch_get_installed():
    """Every client made during the test carries the hook (as PerfConfig installs it)."""
    installed = fast_batch_get.install in client_customizers()
    add_client_customizer(fast_batch_get.install)
    reset_clients()
    yield
    if not installed:
        remove_client_customizer(fast_batch_get.install)
    reset_clients()


def plain_client(backend):
    """A stock boto3 client (no hooks) on the same backend."""
    kwargs = {"region_name": "us-east-1"}
    if backend.endpoint:
        kwargs["endpoint_url"] = backend.endpoint
    return boto3.client("dynamodb", **kwargs)


def batch(backend, *keys: tuple[str, str]) -> dict[str, Any]:
    return {"RequestItems": {backend.table: {"Keys": [{"PK": {"S": pk}, "SK": {"S": sk}} for pk, sk in keys]}}}


KEYS = (("DOC001", "CAPITAL_CALL#POSITION_1"), ("DOC001", "DOCUMENT#LATEST"), ("DOC001", "NO_SUCH_ITEM"))


def _by_key(items: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(item["PK"]["S"], item["SK"]["S"]): item for item in items}


def _registered(client: Any) -> bool:
    handlers = client.meta.events._emitter._handlers.prefix_search(fast_batch_get.EVENT)
    return any(handler is fast_batch_get.take_batch_responses for handler in handlers)


def test_responses_are_exactly_what_botocore_parses(sample):
    ours = call("BatchGetItem", **batch(sample, *KEYS))
    stock = plain_client(sample).batch_get_item(**batch(sample, *KEYS))
    found = _by_key(ours["Responses"][sample.table])
    assert found == _by_key(stock["Responses"][sample.table])
    assert set(found) == {KEYS[0], KEYS[1]}
    assert found[KEYS[0]]["Amount"] == {"N": "500000"}
    assert not ours.get("UnprocessedKeys")


def test_without_the_hook_the_result_is_the_same_and_the_hook_absent(sample):
    fast = call("BatchGetItem", **batch(sample, *KEYS))
    assert _registered(get_client())
    remove_client_customizer(fast_batch_get.install)  # what PerfConfig does when the setting is off
    reset_clients()
    with collect() as requests:
        slow = call("BatchGetItem", **batch(sample, *KEYS))
    assert not _registered(get_client())
    assert _by_key(slow["Responses"][sample.table]) == _by_key(fast["Responses"][sample.table])
    assert requests.count == 1


def test_consumed_capacity_recorded(local_sample):
    with collect() as requests:
        call("BatchGetItem", **batch(local_sample, *KEYS))
    assert requests.count == 1
    assert requests.records[0].read_units > 0


def test_errors_are_still_parsed_and_translated(local_sample):
    request = {"RequestItems": {"no_such_table": {"Keys": [{"PK": {"S": "D"}, "SK": {"S": "S"}}]}}}
    with pytest.raises(StoreUnavailable, match="does not exist"):
        call("BatchGetItem", **request)


def test_responses_taken_and_the_rest_left_as_json_for_botocore():
    unprocessed = {"t": {"Keys": [{"PK": {"S": "D"}, "SK": {"S": "S"}}]}}
    items = [{"PK": {"S": "D"}, "Amount": {"N": "1.50"}}]
    body = json.dumps({"Responses": {"t": items}, "UnprocessedKeys": unprocessed})
    response = {"status_code": 200, "body": body.encode()}
    customized: dict = {}
    fast_batch_get.take_batch_responses(response, customized)
    assert customized == {"Responses": {"t": items}}
    assert json.loads(response["body"]) == {"UnprocessedKeys": unprocessed}


def test_binary_errors_and_bodies_orjson_refuses_are_left_whole_to_botocore():
    for status, body in (
        (200, b'{"Responses": {"t": [{"Data": {"B": "AP8="}}]}}'),
        (400, b'{"__type": "ValidationException", "Responses": {}}'),
        (200, b'{"Responses": {"t": []}, "ConsumedCapacity": [{"CapacityUnits": NaN}]}'),
    ):
        response = {"status_code": status, "body": body}
        customized: dict = {}
        fast_batch_get.take_batch_responses(response, customized)
        assert customized == {} and response["body"] == body
