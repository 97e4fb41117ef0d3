"""Creating the table from the one schema definition, checking it for drift, reporting status."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError

from .client import call, table_name
from .errors import StoreUnavailable
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
        table = call("DescribeTable", TableName=name)["Table"]
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") == "ResourceNotFoundException":
            return TableStatus(name, "MISSING")
        raise StoreUnavailable(error.response.get("Error", {}).get("Message", "DescribeTable failed")) from error
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
            call("CreateTable", **TABLE.create_table_kwargs(name))
            created = True
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "ResourceInUseException":
                raise
    deadline = time.monotonic() + wait_seconds
    status = describe(name)
    while not status.active and time.monotonic() < deadline:
        time.sleep(0.5)
        status = describe(name)
    return created, status


def delete(name: str | None = None) -> None:
    name = name or table_name()
    try:
        call("DeleteTable", TableName=name)
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") != "ResourceNotFoundException":
            raise
