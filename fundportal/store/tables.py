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
from .schema import TABLE, IndexDef, TableDef, describe_differences, is_retired


@dataclass(frozen=True)
class TableStatus:
    name: str
    status: str  # ACTIVE, CREATING, ... or MISSING
    item_count: int | None = None
    size_bytes: int | None = None
    indexes: tuple[dict[str, Any], ...] = ()
    problems: tuple[str, ...] = ()
    raw: dict[str, Any] | None = None
    retired: tuple[str, ...] = ()  # earlier versions of defined indexes, kept until dropped

    @property
    def active(self) -> bool:
        return self.status == "ACTIVE" and all(i.get("IndexStatus", "ACTIVE") == "ACTIVE" for i in self.indexes)


def describe(name: str | None = None, definition: TableDef = TABLE) -> TableStatus:
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
        problems=tuple(describe_differences(table, definition)),
        raw=table,
        retired=tuple(
            i["IndexName"] for i in table.get("GlobalSecondaryIndexes", ()) if is_retired(i["IndexName"], definition)
        ),
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


class IndexChangedInPlace(Exception):
    """A live index differs from its definition under the same name: changing it in place would
    leave the pages that read it without an index until the new one is backfilled."""

    def __init__(self, index: str) -> None:
        super().__init__(
            f"index {index} differs from its definition; it is never changed in place: give it the next "
            f"version in fundportal/store/schema.py (IndexDef.version) to build the new one beside it"
        )
        self.index = index


def upgrade(
    name: str | None = None,
    wait_seconds: float = 600,
    log: Callable[[str], None] | None = None,
    *,
    definition: TableDef = TABLE,
    drop_retired: bool = False,
    rebuild_in_place: bool = False,
) -> list[str]:
    """Bring an existing table's indexes to the definition without ever leaving a page without the
    index it reads. A missing index (a new one, or the next version of a changed one) is created
    beside the others and waited for until ACTIVE (backfilled); the code reads the version the
    definition names (`IndexDef.physical_name`). Earlier versions are dropped only with
    `drop_retired`, once every defined index is ACTIVE: run it after the code reading them is gone.
    An index that differs under its own name raises IndexChangedInPlace (bump its version), unless
    `rebuild_in_place` (a table nothing reads meanwhile: a local one before its server starts)
    deletes and recreates it. DynamoDB allows one index change per UpdateTable. Returns what was
    done; the base key schema and billing mode are never touched (drift)."""
    name = name or table_name()
    deadline = time.monotonic() + wait_seconds
    gateway = TableGateway(name)
    done: list[str] = []
    attributes = [{"AttributeName": n, "AttributeType": "S"} for n in definition.attribute_names()]

    def note(message: str) -> None:
        done.append(message)
        if log:
            log(message)

    for index in definition.indexes:
        status = _wait(name, lambda s: s.active, deadline, "a previous change")
        live = next((i for i in status.indexes if i["IndexName"] == index.physical_name), None)
        if live is not None:
            if _index_matches(live, index):
                continue
            if not rebuild_in_place:
                raise IndexChangedInPlace(index.physical_name)
            note(f"rebuilding index {index.physical_name} in place (nothing reads this table meanwhile)")
            gateway.update_table(GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": index.physical_name}}])
            _wait(name, _index_gone(index.physical_name), deadline, f"index {index.physical_name} deletion")
        replaces = [] if live else [i["IndexName"] for i in status.indexes if is_retired(i["IndexName"], definition)]
        instead = f" (beside {', '.join(replaces)}, still read until the code moves)" if replaces else ""
        note(f"creating index {index.physical_name}{instead}")
        gateway.update_table(AttributeDefinitions=attributes, GlobalSecondaryIndexUpdates=[{"Create": index.to_api()}])
        _wait(name, _index_active(index.physical_name), deadline, f"index {index.physical_name} backfill")
    status = _wait(name, lambda s: s.active, deadline, "the index changes")
    for retired in [i["IndexName"] for i in status.indexes if is_retired(i["IndexName"], definition)]:
        if not drop_retired:
            note(f"keeping retired index {retired} (drop it with --drop-retired once no code reads it)")
            continue
        note(f"dropping retired index {retired}: every defined index is ACTIVE")
        gateway.update_table(GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": retired}}])
        _wait(name, _index_gone(retired), deadline, f"index {retired} deletion")
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
