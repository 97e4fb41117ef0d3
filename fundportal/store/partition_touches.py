"""Which partitions a DynamoDB request touched, and with how many bytes: the raw material of
the load model (`bench/load_model.py`), recorded only for a collector that asks for it
(`instrumentation.collect(keys=True)`), so ordinary requests pay nothing for it.

A touch names the table (index None) or index, the partition key value, whether it is a read or
a write, and the bytes DynamoDB bills for: a written item's size on the base table, the size of
its index entry (the projected attributes) on every index whose key attributes it carries; a
Query page's returned items; each item of a GetItem/BatchGetItem. Sizes follow DynamoDB's item
size rules (attribute names plus values), computed from the request and the reply; the key
values stay opaque strings (no key is built or parsed here).

What a request does not show is not invented: a Delete's old item is not in the request, so a
delete is billed on the base table at its key's size and its index entries are not counted; an
UpdateItem (maintenance only) is billed on the base table at the size it sends.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from .instrumentation import PartitionTouch
from .schema import TABLE, IndexDef

READ, WRITE = "read", "write"
_PARTITION_CONDITION = re.compile(r"^\s*#?(\w+)\s*=\s*(:\w+)")


def value_size(value: Mapping[str, Any]) -> int:
    """DynamoDB's size of one attribute value in wire format ({"S": ...}, {"N": ...}, ...)."""
    (kind, raw), *_ = value.items()
    if kind == "S":
        return len(raw.encode())
    if kind == "N":  # about one byte per two significant digits, plus one
        return (len(raw.lstrip("-").replace(".", "").strip("0")) + 1) // 2 + 1
    if kind == "B":
        return len(raw)
    if kind in {"BOOL", "NULL"}:
        return 1
    if kind in {"SS", "NS", "BS"}:
        return sum(value_size({kind[0]: member}) for member in raw)
    if kind == "L":
        return 3 + sum(1 + value_size(member) for member in raw)
    if kind == "M":
        return 3 + sum(1 + len(name.encode()) + value_size(member) for name, member in raw.items())
    return 0


def item_size(item: Mapping[str, Mapping[str, Any]]) -> int:
    """DynamoDB's size of an item in wire format: every attribute's name plus its value."""
    return sum(len(name.encode()) + value_size(value) for name, value in item.items())


def index_entry(item: Mapping[str, Any], index: IndexDef) -> dict[str, Any]:
    """The attributes of `item` that `index` stores (its projection plus the table's keys)."""
    if index.projection == "ALL":
        return dict(item)
    kept = {TABLE.pk, TABLE.sk, index.pk, index.sk}
    if index.projection == "INCLUDE":
        kept |= set(index.non_key_attributes)
    return {name: value for name, value in item.items() if name in kept}


def _key_value(item: Mapping[str, Any], attribute: str) -> str | None:
    value = item.get(attribute)
    return str(next(iter(value.values()))) if isinstance(value, Mapping) and value else None


def _written(item: Mapping[str, Any], transactional: bool) -> Iterator[PartitionTouch]:
    pk = _key_value(item, TABLE.pk) or ""
    yield PartitionTouch(None, pk, WRITE, item_size(item), transactional=transactional)
    for index in TABLE.indexes:
        index_pk = _key_value(item, index.pk)
        if index_pk is not None and _key_value(item, index.sk) is not None:
            # Index maintenance is an ordinary write on the index, transaction or not.
            yield PartitionTouch(index.name, index_pk, WRITE, item_size(index_entry(item, index)))


def _keyed(key: Mapping[str, Any], transactional: bool) -> PartitionTouch:
    return PartitionTouch(None, _key_value(key, TABLE.pk) or "", WRITE, item_size(key), transactional=transactional)


def _writes(operation: str, params: Mapping[str, Any]) -> Iterator[PartitionTouch]:
    if operation == "BatchWriteItem":
        for requests in params.get("RequestItems", {}).values():
            for request in requests:
                if "PutRequest" in request:
                    yield from _written(request["PutRequest"]["Item"], transactional=False)
                elif "DeleteRequest" in request:
                    yield _keyed(request["DeleteRequest"]["Key"], transactional=False)
    elif operation == "TransactWriteItems":
        for action in params.get("TransactItems", ()):
            for name, body in action.items():
                if name == "Put":
                    yield from _written(body["Item"], transactional=True)
                else:  # Delete, ConditionCheck, Update: billed on the item's key
                    yield _keyed(body["Key"], transactional=True)
    elif operation in {"PutItem", "UpdateItem", "DeleteItem"}:
        if "Item" in params:
            yield from _written(params["Item"], transactional=False)
        else:
            values = params.get("ExpressionAttributeValues", {})
            touch = _keyed(params["Key"], transactional=False)
            yield PartitionTouch(None, touch.key, WRITE, touch.bytes + sum(value_size(v) for v in values.values()))


def _query_partition(params: Mapping[str, Any]) -> str:
    """The partition key value of a Query: the value bound in its key condition's equality."""
    match = _PARTITION_CONDITION.match(params.get("KeyConditionExpression", ""))
    if not match:
        return ""
    value = params.get("ExpressionAttributeValues", {}).get(match.group(2), {})
    return str(next(iter(value.values()), ""))


def _reads(operation: str, params: Mapping[str, Any], response: Mapping[str, Any]) -> Iterator[PartitionTouch]:
    consistent = bool(params.get("ConsistentRead"))
    if operation == "Query":
        size = sum(item_size(item) for item in response.get("Items", ()))
        yield PartitionTouch(params.get("IndexName"), _query_partition(params), READ, size, consistent=consistent)
    elif operation == "GetItem":
        key = _key_value(params["Key"], TABLE.pk) or ""
        yield PartitionTouch(None, key, READ, item_size(response.get("Item") or {}), consistent=consistent)
    elif operation == "BatchGetItem":
        found: dict[tuple[str | None, str | None], Any] = {
            (_key_value(item, TABLE.pk), _key_value(item, TABLE.sk)): item
            for items in response.get("Responses", {}).values()
            for item in items
        }
        for request in params.get("RequestItems", {}).values():
            for key in request.get("Keys", ()):
                pk = _key_value(key, TABLE.pk)
                item = found.get((pk, _key_value(key, TABLE.sk)), {})
                strong = bool(request.get("ConsistentRead"))
                yield PartitionTouch(None, pk or "", READ, item_size(item), consistent=strong)


def touches(operation: str, params: Mapping[str, Any], response: Mapping[str, Any]) -> tuple[PartitionTouch, ...]:
    """Every partition `operation` touched (reads from the reply, writes from the request)."""
    return (*_reads(operation, params, response), *_writes(operation, params))
