"""create_table: schema from the one definition, idempotence, drift detection (both backends)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from fundportal.store import tables
from fundportal.store.gateway import call
from fundportal.store.schema import ENTITY_INDEX, INVESTOR_INDEX, MONTH_INDEX, POSITION_INDEX, TABLE


def test_table_matches_definition(backend):
    status = tables.describe(backend.table)
    assert status.status == "ACTIVE"
    assert status.problems == ()
    live = status.raw
    assert {k["KeyType"]: k["AttributeName"] for k in live["KeySchema"]} == {"HASH": "PK", "RANGE": "SK"}
    indexes = {i["IndexName"]: i for i in live["GlobalSecondaryIndexes"]}
    assert set(indexes) == {ENTITY_INDEX, POSITION_INDEX, MONTH_INDEX, INVESTOR_INDEX}
    assert [k["AttributeName"] for k in indexes[ENTITY_INDEX]["KeySchema"]] == ["GSI_PK", "GSI_SK"]
    assert [k["AttributeName"] for k in indexes[POSITION_INDEX]["KeySchema"]] == ["GSI2_PK", "GSI2_SK"]
    assert [k["AttributeName"] for k in indexes[MONTH_INDEX]["KeySchema"]] == ["GSI3_PK", "GSI3_SK"]
    assert [k["AttributeName"] for k in indexes[INVESTOR_INDEX]["KeySchema"]] == ["GSI4_PK", "GSI4_SK"]
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
    # Without --check, create_table upgrades the index: recreated with the projection.
    out = io.StringIO()
    call_command("create_table", stdout=out)
    assert "recreating index GSI_Position_Document" in out.getvalue()
    assert tables.describe(name).problems == ()
    tables.delete(name)


def test_unreachable_dynamodb_is_one_clear_line(settings):
    settings.DYNAMODB_ENDPOINT_URL = "http://127.0.0.1:9"  # nothing listens on the discard port
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    with pytest.raises(CommandError, match="DynamoDB is unavailable: cannot reach DynamoDB"):
        call_command("create_table", stdout=io.StringIO())
