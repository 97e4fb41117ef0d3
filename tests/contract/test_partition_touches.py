"""The bytes a request's partition touches are billed for agree with what DynamoDB Local reports
per table and per index (ReturnConsumedCapacity=INDEXES) for the portal's own items."""

from __future__ import annotations

import pytest

from bench import data
from bench.load_model import partition_units
from fundportal.store.gateway import call
from fundportal.store.instrumentation import collect

pytestmark = pytest.mark.local_only


def _reported(consumed: list[dict]) -> dict[str, float]:
    (entry,) = consumed
    units = {"table": entry["Table"]["CapacityUnits"]}
    units |= {name: index["CapacityUnits"] for name, index in entry.get("GlobalSecondaryIndexes", {}).items()}
    return units


@pytest.mark.parametrize(
    "items",
    [
        pytest.param(lambda: data.fund_registers("TOUCH_FUND", 5), id="registers"),
        pytest.param(lambda: data.document("TOUCH_DOC", ["TP_1", "TP_2", "TP_3"]), id="document and entries"),
    ],
)
def test_batch_write_units_per_table_and_index_match_dynamodb_local(local_backend, items):
    typed = data.typed(items())[:25]
    with collect(keys=True) as requests:
        response = call(
            "BatchWriteItem",
            RequestItems={local_backend.table: [{"PutRequest": {"Item": item}} for item in typed]},
            ReturnConsumedCapacity="INDEXES",
        )
    (record,) = requests.records
    modelled: dict[str, float] = {}
    for units in partition_units(record.touches):
        modelled[units.table] = modelled.get(units.table, 0.0) + units.wcu
    assert modelled == _reported(response["ConsumedCapacity"])


def test_query_units_match_dynamodb_local_on_the_table_and_an_index(local_backend):
    from bench.common import load, raw_client

    document = data.document("TOUCH_DOC", [f"TP_{n:03d}" for n in range(60)])
    load(raw_client(local_backend.endpoint), local_backend.table, data.typed(document))
    for index, condition, value in (
        (None, "PK = :pk", "TOUCH_DOC"),
        ("GSI_Position_Document", "GSI2_PK = :pk", "TP_007"),
    ):
        params = {"IndexName": index} if index else {}
        with collect(keys=True) as requests:
            response = call(
                "Query",
                TableName=local_backend.table,
                KeyConditionExpression=condition,
                ExpressionAttributeValues={":pk": {"S": value}},
                **params,
            )
        (units,) = partition_units(requests.records[0].touches)
        assert response["Count"] > 0
        assert (units.table, units.key) == (index or "table", value)
        assert units.rcu == response["ConsumedCapacity"]["CapacityUnits"]
