"""Section 2: one document overview (pattern 1, Query PK = doc) read four ways on the same
items: the project's data layer, the raw boto3 client, boto3's Table resource, PynamoDB."""

from __future__ import annotations

import cProfile
import io
import json
import pstats
from collections.abc import Callable
from typing import Any

from boto3.dynamodb.conditions import Key

from fundportal.store import tables
from fundportal.store.gateway import TableGateway
from fundportal.store.instrumentation import collect
from fundportal.store.repositories import DocumentRepository

from . import data
from .common import REGION, credentials, interleave, load, raw_client, resource_table

SIZES = (10, 100, 1000)
CONTENDERS = ("raw boto3 client", "data layer", "boto3 Table resource", "PynamoDB")


def document_id(positions: int) -> str:
    return f"OV_{positions}"


def setup(endpoint: str, table: str, sizes: tuple[int, ...]) -> dict[int, dict[str, Any]]:
    """Create the table (the project's schema) and load one document per size."""
    tables.create(table)
    client = raw_client(endpoint)
    shapes = {}
    for positions in sizes:
        items = data.typed(
            data.document(document_id(positions), [f"POS_{n:04d}" for n in range(positions)], history=True)
        )
        load(client, table, items)
        shapes[positions] = {"items": len(items), "kb": round(sum(len(json.dumps(i)) for i in items) / 1024)}
    return shapes


def raw_query(client: Any, table: str, doc: str) -> list[dict[str, Any]]:
    params: dict[str, Any] = {
        "TableName": table,
        "KeyConditionExpression": "PK = :pk",
        "ExpressionAttributeValues": {":pk": {"S": doc}},
    }
    items: list[dict[str, Any]] = []
    while True:
        response = client.query(**params)
        items.extend(response["Items"])
        if "LastEvaluatedKey" not in response:
            return items
        params["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def resource_query(table: Any, doc: str) -> list[dict[str, Any]]:
    params: dict[str, Any] = {"KeyConditionExpression": Key("PK").eq(doc)}
    items: list[dict[str, Any]] = []
    while True:
        response = table.query(**params)
        items.extend(response["Items"])
        if "LastEvaluatedKey" not in response:
            return items
        params["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def pynamodb_model(endpoint: str, table: str) -> type:
    """A PynamoDB model over the same table and items (every attribute the items carry)."""
    from pynamodb.attributes import NumberAttribute, UnicodeAttribute
    from pynamodb.models import Model

    text = {
        name: UnicodeAttribute(null=True)
        for name in (
            "Version",
            "PositionId",
            "FundId",
            "InvestorId",
            "Status",
            "Currency",
            "AsOfDate",
            "DueDate",
            "UpdatedAt",
            "UpdatedBy",
            "Title",
            "GSI_PK",
            "GSI_SK",
            "GSI2_PK",
            "GSI2_SK",
            "GSI3_PK",
            "GSI3_SK",
        )
    }
    meta = type("Meta", (), {"table_name": table, "host": endpoint, "region": REGION, **credentials()})
    return type(
        "FundItem",
        (Model,),
        {
            "Meta": meta,
            "PK": UnicodeAttribute(hash_key=True),
            "SK": UnicodeAttribute(range_key=True),
            "EntityType": UnicodeAttribute(),
            "Amount": NumberAttribute(null=True),
            "Revision": NumberAttribute(null=True),
            **text,
        },
    )


def contenders(endpoint: str, table: str, doc: str) -> dict[str, Callable[[], Any]]:
    client = raw_client(endpoint)
    resource = resource_table(endpoint, table)
    model = pynamodb_model(endpoint, table)
    repository = DocumentRepository(TableGateway(table))
    return {
        "raw boto3 client": lambda: raw_query(client, table, doc),
        "data layer": lambda: repository.overview(doc),
        "boto3 Table resource": lambda: resource_query(resource, doc),
        "PynamoDB": lambda: list(model.query(doc)),
    }


def check_same_items(runners: dict[str, Callable[[], Any]], expected: int) -> None:
    """Every contender must read the whole document (a benchmark of partial reads is void)."""
    for name, run in runners.items():
        result = run()
        if name == "data layer":
            counted = (
                1
                + (result.capital_activity is not None)
                + len(result.document_history)
                + len(result.activity_history)
                + sum(len(p.entries) for p in result.positions)
            )
        else:
            counted = len(result)
        if counted != expected:
            raise RuntimeError(f"{name} read {counted} items, expected {expected}")


def run(endpoint: str, table: str, sizes: tuple[int, ...], trials: int, warmup: int) -> dict[str, Any]:
    shapes = setup(endpoint, table, sizes)
    results: dict[str, Any] = {}
    for positions in sizes:
        doc = document_id(positions)
        runners = contenders(endpoint, table, doc)
        check_same_items(runners, shapes[positions]["items"])
        with collect() as requests:
            DocumentRepository(TableGateway(table)).overview(doc)
        samples = interleave(runners, trials, warmup)
        raw = samples["raw boto3 client"]
        results[str(positions)] = {
            **shapes[positions],
            "requests": requests.count,
            "rcu": requests.read_units,
            "trials": trials,
            "contenders": {
                name: {
                    "median_ms": round(s.median, 2),
                    "p95_ms": round(s.p95, 2),
                    "cpu_ms": round(s.cpu_median, 2),
                    "over_raw": round(s.median / raw.median, 3),
                    "cpu_over_raw": round(s.cpu_median / raw.cpu_median, 3),
                }
                for name, s in samples.items()
            },
            "layer_over_raw": round(samples["data layer"].median / raw.median, 3),
        }
    return results


def profile(table: str, positions: int, calls: int = 20, top: int = 25) -> str:
    """cProfile of the data layer's overview (cumulative time), for finding its hot path."""
    repository = DocumentRepository(TableGateway(table))
    doc = document_id(positions)
    repository.overview(doc)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        repository.overview(doc)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()
