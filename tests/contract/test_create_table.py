"""create_table: schema from the one definition, idempotence, drift detection (both backends)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command

from fundportal.store import gateway as gateway_module
from fundportal.store import tables
from fundportal.store.gateway import TableGateway, call
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


def test_table_matches_definition(backend):
    status = tables.describe(backend.table)
    assert status.status == "ACTIVE"
    assert status.problems == ()
    live = status.raw
    assert {k["KeyType"]: k["AttributeName"] for k in live["KeySchema"]} == {"HASH": "PK", "RANGE": "SK"}
    indexes = {i["IndexName"]: i for i in live["GlobalSecondaryIndexes"]}
    assert set(indexes) == {ENTITY_INDEX, POSITION_INDEX, MONTH_INDEX, INVESTOR_INDEX, DOCUMENT_INDEX, FUND_INDEX}
    assert [k["AttributeName"] for k in indexes[ENTITY_INDEX]["KeySchema"]] == ["GSI_PK", "GSI_SK"]
    assert [k["AttributeName"] for k in indexes[POSITION_INDEX]["KeySchema"]] == ["GSI2_PK", "GSI2_SK"]
    assert [k["AttributeName"] for k in indexes[MONTH_INDEX]["KeySchema"]] == ["GSI3_PK", "GSI3_SK"]
    assert [k["AttributeName"] for k in indexes[INVESTOR_INDEX]["KeySchema"]] == ["GSI4_PK", "GSI4_SK"]
    assert [k["AttributeName"] for k in indexes[DOCUMENT_INDEX]["KeySchema"]] == ["GSI5_PK", "GSI5_SK"]
    assert [k["AttributeName"] for k in indexes[FUND_INDEX]["KeySchema"]] == ["GSI6_PK", "GSI6_SK"]
    assert indexes[FUND_INDEX]["Projection"]["ProjectionType"] == "INCLUDE"
    assert "Rollup" not in indexes[FUND_INDEX]["Projection"]["NonKeyAttributes"]  # the slim copy only
    assert live["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


def test_create_table_twice_succeeds(backend):
    first, second = io.StringIO(), io.StringIO()
    call_command("create_table", stdout=first)
    call_command("create_table", stdout=second)
    assert "Found table" in second.getvalue()
    assert "matches the definition" in second.getvalue()


def test_create_table_creates_missing_table(backend, settings):
    settings.DYNAMODB_TABLE = backend.table + "_new"
    out = io.StringIO()
    call_command("create_table", stdout=out)
    assert f"Created table {settings.DYNAMODB_TABLE}: ACTIVE" in out.getvalue()
    tables.delete(settings.DYNAMODB_TABLE)


def test_drift_is_reported_and_exits_non_zero(backend, settings):
    """A table whose position index projects different attributes is drift (--check reports it)."""
    name = backend.table + "_drift"
    kwargs = TABLE.create_table_kwargs(name)
    for index in kwargs["GlobalSecondaryIndexes"]:
        if index["IndexName"] == POSITION_INDEX:
            index["Projection"] = {"ProjectionType": "KEYS_ONLY"}
    call("CreateTable", **kwargs)
    settings.DYNAMODB_TABLE = name
    err = io.StringIO()
    with pytest.raises(CommandError, match="differs from the definition"):
        call_command("create_table", check=True, stdout=io.StringIO(), stderr=err)
    assert "GSI_Position_Document projection is KEYS_ONLY" in err.getvalue()
    # Without --check neither: the pages read that index, so it is never deleted to change it.
    with pytest.raises(CommandError, match="never changed in place: give it the next version"):
        call_command("create_table", stdout=io.StringIO())
    live = tables.describe(name)
    assert [i["IndexStatus"] for i in live.indexes if i["IndexName"] == POSITION_INDEX] == ["ACTIVE"]
    tables.delete(name)


def _next_version(index_name: str, **changes) -> TableDef:
    """The definition with `index_name` changed (and its version bumped)."""
    return replace(
        TABLE,
        indexes=tuple(
            replace(i, version=i.version + 1, **changes) if i.name == index_name else i for i in TABLE.indexes
        ),
    )


def test_a_changed_index_is_built_beside_the_old_one_and_the_old_dropped_only_after(backend, monkeypatch):
    """The safe order: create the new version, wait for its backfill, read it; the old one stays
    (and answers) until --drop-retired, which drops it only when every defined index is ACTIVE."""
    changed = _next_version(POSITION_INDEX, projection="ALL", non_key_attributes=())
    new_name = changed.physical_name(POSITION_INDEX)
    assert new_name == f"{POSITION_INDEX}_v2"
    item = {"PK": {"S": "DOC9"}, "SK": {"S": "CAPITAL_CALL#P9"}, "GSI2_PK": {"S": "P9"}, "GSI2_SK": {"S": "X"}}
    call("PutItem", TableName=backend.table, Item=item)
    updates: list[tuple[str, str, dict[str, str]]] = []
    original = TableGateway.update_table

    def recording(gateway, **params):
        (change,) = params["GlobalSecondaryIndexUpdates"]
        (kind, body), *_ = change.items()
        states = {i["IndexName"]: i.get("IndexStatus", "ACTIVE") for i in tables.describe(gateway.table).indexes}
        updates.append((kind, body["IndexName"], states))
        return original(gateway, **params)

    monkeypatch.setattr(TableGateway, "update_table", recording)

    done = tables.upgrade(backend.table, definition=changed)
    assert done[0] == f"creating index {new_name} (beside {POSITION_INDEX}, still read until the code moves)"
    status = tables.describe(backend.table, changed)
    assert status.problems == () and status.retired == (POSITION_INDEX,) and status.active
    # both answer: the old one for code still deployed, the new one (backfilled) for the new code
    for index in (POSITION_INDEX, new_name):
        found = call(
            "Query",
            TableName=backend.table,
            IndexName=index,
            KeyConditionExpression="GSI2_PK = :p",
            ExpressionAttributeValues={":p": {"S": "P9"}},
        )
        assert found["Count"] == 1
    monkeypatch.setattr(gateway_module, "TABLE", changed)  # the new code: reads name the new version
    page = TableGateway(backend.table).query_page("GSI2_PK = :p", {":p": "P9"}, index=POSITION_INDEX)
    assert [i["SK"] for i in page.items] == ["CAPITAL_CALL#P9"]

    tables.upgrade(backend.table, definition=changed, drop_retired=True)
    assert [(kind, name) for kind, name, _ in updates] == [("Create", new_name), ("Delete", POSITION_INDEX)]
    assert updates[1][2][new_name] == "ACTIVE"  # the old one went only once the new one was built
    status = tables.describe(backend.table, changed)
    assert status.retired == () and status.problems == ()
    assert {i["IndexName"] for i in status.indexes} == changed.physical_names()


def test_unreachable_dynamodb_is_one_clear_line(settings):
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:9"  # nothing listens on the discard port
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    with pytest.raises(CommandError, match="DynamoDB is unavailable: cannot reach DynamoDB"):
        call_command("create_table", stdout=io.StringIO())
