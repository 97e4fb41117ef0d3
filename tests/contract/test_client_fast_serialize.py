"""The data layer's client makes the bodies of BatchWriteItem and TransactWriteItems with
`json.dumps` instead of botocore's serializer (a performance change, issue 14;
fundportal/dynamo/fast_serialize.py, behind DYNAMODB_FAST_WRITE_SERIALIZE). These tests pin that
the body is what botocore would send, that other operations and binary values are left to
botocore, and that the writes land the same items on moto and on DynamoDB Local."""

from __future__ import annotations

import json
from decimal import Decimal

import boto3
from botocore.config import Config

from fundportal.dynamo.client import get_client, reset_clients
from fundportal.dynamo.fast_serialize import FastWriteSerializer
from fundportal.dynamo.gateway import NOT_EXISTS, TableGateway
from fundportal.dynamo.serialization import to_item

ITEM = {
    "PK": "FS_DOC",
    "SK": "CAPITAL_CALL#P_1",
    "Amount": Decimal("1250000.50"),
    "Revision": 3,
    "Flag": True,
    "Note": None,
    "Rollup": {"USD": {"Sums": [Decimal("1.00"), Decimal(0)], "Nav": None, "Name": "ünïcødé ✓"}},
    "Tags": ["a", "b"],
}


def _stock_serializer():
    """botocore's serializer as the layer's client has it (no client-side parameter validation)."""
    config = Config(parameter_validation=False)
    return boto3.client("dynamodb", region_name="us-east-1", config=config)._serializer


def _bodies(operation: str, params: dict) -> tuple[dict, dict, dict, dict]:
    stock = _stock_serializer()
    model = boto3.client("dynamodb", region_name="us-east-1").meta.service_model.operation_model(operation)
    ours = FastWriteSerializer(stock).serialize_to_request(params, model)
    theirs = stock.serialize_to_request(params, model)
    return json.loads(ours["body"]), json.loads(theirs["body"]), ours, theirs


def test_batch_write_body_is_what_botocore_sends():
    params = {
        "RequestItems": {
            "t": [{"PutRequest": {"Item": to_item(ITEM)}}, {"DeleteRequest": {"Key": to_item({"PK": "a", "SK": "b"})}}]
        },
        "ReturnConsumedCapacity": "TOTAL",
    }
    ours, theirs, request, stock = _bodies("BatchWriteItem", params)
    assert ours == theirs
    assert request["headers"] == stock["headers"] and request["method"] == stock["method"]
    assert request["url_path"] == stock["url_path"]


def test_transaction_body_is_what_botocore_sends():
    put = TableGateway("t").put_action(ITEM, NOT_EXISTS)
    check = TableGateway("t").check_action(("a", "b"), NOT_EXISTS)
    params = {"TransactItems": [put, check], "ClientRequestToken": "tok-1", "ReturnConsumedCapacity": "TOTAL"}
    ours, theirs, request, _ = _bodies("TransactWriteItems", params)
    assert ours == theirs and ours["ClientRequestToken"] == "tok-1"
    assert request["headers"]["X-Amz-Target"] == "DynamoDB_20120810.TransactWriteItems"


def test_other_operations_and_binary_values_are_left_to_botocore():
    stock = _stock_serializer()
    model = boto3.client("dynamodb", region_name="us-east-1").meta.service_model.operation_model
    binary = {
        "RequestItems": {"t": [{"PutRequest": {"Item": {"PK": {"S": "a"}, "SK": {"S": "b"}, "B": {"B": b"\x00"}}}}]}
    }
    ours = FastWriteSerializer(stock).serialize_to_request(binary, model("BatchWriteItem"))
    assert ours["body"] == stock.serialize_to_request(binary, model("BatchWriteItem"))["body"]  # base64 by botocore
    get = {"TableName": "t", "Key": {"PK": {"S": "a"}, "SK": {"S": "b"}}}
    assert FastWriteSerializer(stock).serialize_to_request(get, model("GetItem")) == stock.serialize_to_request(
        get, model("GetItem")
    )


def test_the_writes_land_the_same_items_either_way(backend, settings):
    gateway = TableGateway()
    for fast in (True, False):
        settings.DYNAMODB_FAST_WRITE_SERIALIZE = fast
        reset_clients()
        assert isinstance(get_client()._serializer, FastWriteSerializer) is fast
        sk = f"FAST#{fast}"
        gateway.batch_write([{**ITEM, "SK": f"{sk}#batch"}])
        gateway.transact([gateway.put_action({**ITEM, "SK": f"{sk}#tx"}, NOT_EXISTS)], f"token-{fast}")
    settings.DYNAMODB_FAST_WRITE_SERIALIZE = True
    reset_clients()
    items = {sk: gateway.get(("FS_DOC", sk), consistent=True) for sk in ("FAST#True#batch", "FAST#False#batch")}
    items |= {sk: gateway.get(("FS_DOC", sk), consistent=True) for sk in ("FAST#True#tx", "FAST#False#tx")}
    expected = {k: v for k, v in ITEM.items() if v is not None and k != "SK"}
    expected["Rollup"] = {"USD": {"Sums": [Decimal("1.00"), Decimal(0)], "Name": "ünïcødé ✓"}}
    for item in items.values():
        assert {k: v for k, v in item.items() if k != "SK"} == expected
