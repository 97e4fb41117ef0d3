"""Creating the table from the one schema definition, checking it for drift, reporting status."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any

from .client import table_name
from .errors import TableInUse, TableMissing
from .gateway import TableGateway
from .schema import TABLE, describe_differences


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


def delete(name: str | None = None) -> None:
    name = name or table_name()
    with contextlib.suppress(TableMissing):
        TableGateway(name).delete_table()
