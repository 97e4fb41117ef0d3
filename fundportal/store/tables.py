"""Creating the table from the one schema definition, checking it for drift, reporting status."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .client import table_name
from .errors import TableInUse, TableMissing
from .gateway import TableGateway
from .schema import TABLE, IndexDef, describe_differences


@dataclass(frozen=True)
class TableStatus:
    name: str
    status: str  # ACTIVE, CREATING, ... or MISSING
    item_count: int | None = None
    size_bytes: int | None = None
    indexes: tuple[dict[str, Any], ...] = ()
    problems: tuple[str, ...] = ()
    raw: dict[str, Any] | None = None

    @property
    def active(self) -> bool:
        return self.status == "ACTIVE" and all(i.get("IndexStatus", "ACTIVE") == "ACTIVE" for i in self.indexes)


def describe(name: str | None = None) -> TableStatus:
    name = name or table_name()
    try:
        table = TableGateway(name).describe_table()
    except TableMissing:
        return TableStatus(name, "MISSING")
    return TableStatus(
        name=name,
        status=table["TableStatus"],
        item_count=table.get("ItemCount"),
        size_bytes=table.get("TableSizeBytes"),
        indexes=tuple(table.get("GlobalSecondaryIndexes", ())),
        problems=tuple(describe_differences(table)),
        raw=table,
    )


def create(name: str | None = None, wait_seconds: float = 120) -> tuple[bool, TableStatus]:
    """Create the table if it is missing and wait until it and its indexes are ACTIVE.

    Returns (created, status); status.problems lists drift from the definition.
    """
    name = name or table_name()
    created = False
    if describe(name).status == "MISSING":
        try:
            TableGateway(name).create_table(TABLE.create_table_kwargs(name))
            created = True
        except TableInUse:
            pass  # created meanwhile by someone else
    deadline = time.monotonic() + wait_seconds
    status = describe(name)
    while not status.active and time.monotonic() < deadline:
        time.sleep(0.5)
        status = describe(name)
    return created, status


def _index_matches(live: dict[str, Any], index: IndexDef) -> bool:
    keys_ = {k["KeyType"]: k["AttributeName"] for k in live.get("KeySchema", [])}
    projection = live.get("Projection", {})
    return (
        keys_ == {"HASH": index.pk, "RANGE": index.sk}
        and projection.get("ProjectionType") == index.projection
        and set(projection.get("NonKeyAttributes", [])) == set(index.non_key_attributes)
    )


def _wait(name: str, done: Callable[[TableStatus], bool], deadline: float, what: str) -> TableStatus:
    status = describe(name)
    while not done(status):
        if time.monotonic() > deadline:
            raise TimeoutError(f"table {name}: {what} did not finish in time")
        time.sleep(0.5)
        status = describe(name)
    return status


def upgrade(name: str | None = None, wait_seconds: float = 600, log: Callable[[str], None] | None = None) -> list[str]:
    """Bring an existing table's indexes to the definition: create a missing index, and recreate
    (UpdateTable delete, wait, create, wait for ACTIVE) one whose keys or projection differ.
    DynamoDB allows one index change per UpdateTable and cannot change a projection in place.
    Returns what was done; the base key schema and billing mode are never touched (drift)."""
    name = name or table_name()
    deadline = time.monotonic() + wait_seconds
    gateway = TableGateway(name)
    done: list[str] = []
    attributes = {"AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"} for n in TABLE.attribute_names()]}

    def note(message: str) -> None:
        done.append(message)
        if log:
            log(message)

    for index in TABLE.indexes:
        status = _wait(name, lambda s: s.active, deadline, "a previous change")
        live = next((i for i in status.indexes if i["IndexName"] == index.name), None)
        if live is not None and _index_matches(live, index):
            continue
        if live is not None:
            note(f"recreating index {index.name}: its keys or projection differ from the definition")
            gateway.update_table(GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": index.name}}])
            _wait(name, _index_gone(index.name), deadline, "index deletion")
        else:
            note(f"creating missing index {index.name}")
        gateway.update_table(**attributes, GlobalSecondaryIndexUpdates=[{"Create": index.to_api()}])
        _wait(name, _index_active(index.name), deadline, "index creation")
    return done


def _index_gone(index: str) -> Callable[[TableStatus], bool]:
    """Whether a status no longer lists `index` (its deletion finished)."""
    return lambda status: all(i["IndexName"] != index for i in status.indexes)


def _index_active(index: str) -> Callable[[TableStatus], bool]:
    """Whether a status shows the table active with `index` in it (its creation finished)."""
    return lambda status: status.active and any(i["IndexName"] == index for i in status.indexes)


def delete(name: str | None = None) -> None:
    name = name or table_name()
    with contextlib.suppress(TableMissing):
        TableGateway(name).delete_table()
