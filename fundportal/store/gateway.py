"""The table gateway: the one place DynamoDB requests are made.

Every request goes through `transport.call`, which keeps it within the page's time budget,
times and records it, validates the reply and turns every botocore failure into a typed
`DataLayerError`. `TableGateway` adds what each kind of request needs once: the pagination
loop, batch get/write with one retry and backoff policy, and one TransactWriteItems call that
the unit of work (`uow`) builds and retries. It speaks
plain values and items (dicts of Python values); keys are built by `keys`, entities by
`entities`, and the repositories put the two together.
"""

from __future__ import annotations

import contextvars
import logging
import random
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from fundportal.domain.errors import ItemTooLarge

from . import pacing
from .client import table_name
from .errors import TransactionCancelled, UnprocessedItems
from .schema import TABLE
from .serialization import from_item, to_attr, to_item
from .transport import call

__all__ = ["EXISTS", "NOT_EXISTS", "Condition", "Page", "TableGateway", "backoff", "call", "check_size"]

log = logging.getLogger("fundportal.dynamodb")

MAX_ITEM_BYTES = 400 * 1024
BATCH_WRITE_SIZE = 25
BATCH_ATTEMPTS = 10
TRANSACTION_CONFLICT_RETRIES = 5  # the unit of work's same-token retries of a conflict
Key = tuple[str, str]  # (PK, SK)
Item = dict[str, Any]


# --- retry delay and item size ----------------------------------------------------------------------


def backoff(attempt: int, base: float = 0.05, cap: float = 2.0) -> None:
    """The one retry delay: capped exponential backoff with full jitter."""
    time.sleep(random.uniform(0, min(cap, base * 2**attempt)))


def item_size(item: Item) -> int:
    """DynamoDB's item size: attribute names plus values (close upper bound for our types)."""
    return sum(len(name.encode()) + len(str(value).encode()) + 1 for name, value in item.items())


def check_size(item: Item) -> None:
    size = item_size(item)
    if size > MAX_ITEM_BYTES:
        raise ItemTooLarge(size, MAX_ITEM_BYTES)


# --- the gateway ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Page:
    """One Query/Scan response: its items and the key to continue from (None on the last)."""

    items: list[Item]
    last_key: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition expression with its names and (Python) values."""

    expression: str
    names: dict[str, str] | None = None
    values: dict[str, Any] | None = None

    def params(self) -> dict[str, Any]:
        params: dict[str, Any] = {"ConditionExpression": self.expression}
        if self.names:
            params["ExpressionAttributeNames"] = self.names
        if self.values:
            params["ExpressionAttributeValues"] = {k: to_attr(v) for k, v in self.values.items()}
        return params


NOT_EXISTS = Condition("attribute_not_exists(PK)")
EXISTS = Condition("attribute_exists(PK)")


class TableGateway:
    """Requests against the one table (or the one named)."""

    def __init__(self, table: str | None = None) -> None:
        self.table = table or table_name()

    # --- reads ---

    def query_page(
        self,
        key_condition: str,
        values: dict[str, str],
        *,
        index: str | None = None,
        forward: bool = True,
        limit: int | None = None,
        start_key: dict[str, Any] | None = None,
        projection: str | None = None,
        consistent: bool = False,
    ) -> Page:
        """One Query request (one page); `consistent` for reads that decide a write."""
        params: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": key_condition,
            "ExpressionAttributeValues": {name: {"S": value} for name, value in values.items()},
        }
        if index:  # the code names an index; the table holds its current version (schema)
            params["IndexName"] = TABLE.physical_name(index)
        if not forward:
            params["ScanIndexForward"] = False
        if limit:
            params["Limit"] = limit
        if start_key:
            params["ExclusiveStartKey"] = start_key
        if projection:
            params["ProjectionExpression"] = projection
        if consistent:
            params["ConsistentRead"] = True
        response = call("Query", index=index, key_condition=key_condition, **params)
        return Page([from_item(item) for item in response["Items"]], response.get("LastEvaluatedKey"))

    def query(self, key_condition: str, values: dict[str, str], **options: Any) -> Iterator[Item]:
        """Every item a Query matches: the one pagination loop (follows LastEvaluatedKey)."""
        start_key = None
        while True:
            page = self.query_page(key_condition, values, start_key=start_key, **options)
            yield from page.items
            if not page.last_key:
                return
            start_key = page.last_key

    def scan_page(self, segment: int, segments: int, limit: int, start_key: dict[str, Any] | None) -> Page:
        """One page of a parallel Scan (maintenance commands only)."""
        params: dict[str, Any] = {"TableName": self.table, "Segment": segment, "TotalSegments": segments}
        params["Limit"] = limit
        if start_key:
            params["ExclusiveStartKey"] = start_key
        response = call("Scan", **params)
        return Page([from_item(item) for item in response["Items"]], response.get("LastEvaluatedKey"))

    def get(self, key: Key, *, consistent: bool = False) -> Item | None:
        response = call("GetItem", TableName=self.table, Key=_key(key), ConsistentRead=consistent)
        item = response.get("Item")
        return from_item(item) if item else None

    def batch_get(self, keys: list[Key], *, consistent: bool = False) -> dict[Key, Item]:
        """Up to 100 items by key in one BatchGetItem (unprocessed keys retried with backoff);
        returns {(PK, SK): item} for the items that exist."""
        pending: dict[str, Any] = {self.table: {"Keys": [_key(k) for k in keys], "ConsistentRead": consistent}}
        found: dict[Key, Item] = {}
        for attempt in range(BATCH_ATTEMPTS):
            response = call("BatchGetItem", RequestItems=pending)
            for raw in response.get("Responses", {}).get(self.table, []):
                item = from_item(raw)
                found[(item["PK"], item["SK"])] = item
            pending = response.get("UnprocessedKeys") or {}
            if not pending:
                return found
            backoff(attempt)
        raise UnprocessedItems(len(pending.get(self.table, {}).get("Keys", [])))

    # --- writes ---

    def put_action(self, item: Item, condition: Condition | None = None) -> dict[str, Any]:
        """A transaction's Put of `item` (size checked before any request)."""
        check_size(item)
        put: dict[str, Any] = {"TableName": self.table, "Item": to_item(item)}
        if condition:
            put.update(condition.params())
        return {"Put": put}

    def delete_action(self, key: Key, condition: Condition | None = None) -> dict[str, Any]:
        delete: dict[str, Any] = {"TableName": self.table, "Key": _key(key)}
        if condition:
            delete.update(condition.params())
        return {"Delete": delete}

    def check_action(self, key: Key, condition: Condition) -> dict[str, Any]:
        return {"ConditionCheck": {"TableName": self.table, "Key": _key(key), **condition.params()}}

    def update_action(
        self, key: Key, update: str, names: dict[str, str], values: dict[str, Any], condition: Condition | None = None
    ) -> dict[str, Any]:
        """A transaction's Update of the item at `key` (the fund summaries' ADD of a delta)."""
        request: dict[str, Any] = {"TableName": self.table, "Key": _key(key), "UpdateExpression": update}
        params = condition.params() if condition else {}
        request["ExpressionAttributeNames"] = {**names, **params.pop("ExpressionAttributeNames", {})}
        attr_values = {k: to_attr(v) for k, v in values.items()}
        attr_values.update(params.pop("ExpressionAttributeValues", {}))
        if attr_values:
            request["ExpressionAttributeValues"] = attr_values
        request.update(params)
        return {"Update": request}

    def transact(self, actions: list[dict[str, Any]], token: str) -> None:
        """One TransactWriteItems with a ClientRequestToken (the unit of work retries a
        TransactionConflict with the same token: botocore never does)."""
        pacer = pacing.current()  # None unless the caller paces its writes per partition
        if pacer is None:
            call("TransactWriteItems", TransactItems=actions, ClientRequestToken=token)
            return
        if pacer.engaged:
            pacer.before(pacing.transaction_units(actions))
        try:
            call("TransactWriteItems", TransactItems=actions, ClientRequestToken=token)
        except TransactionCancelled as error:  # the throttled actions' partitions (an index's back-pressure)
            throttled = [a for a, r in zip(actions, error.reasons, strict=False) if r in pacing.THROTTLING_REASONS]
            if throttled:
                pacer.throttled(pacing.transaction_units(throttled))
            raise

    def update(self, key: Key, update: str, condition: Condition, names: dict[str, str], values: dict) -> None:
        """UpdateItem (maintenance: index backfill); ConditionFailed when the item moved."""
        params = condition.params()
        params["ExpressionAttributeNames"] = {**names, **params.get("ExpressionAttributeNames", {})}
        attr_values = {k: to_attr(v) for k, v in values.items()}
        attr_values.update(params.get("ExpressionAttributeValues", {}))
        if attr_values:
            params["ExpressionAttributeValues"] = attr_values
        call("UpdateItem", TableName=self.table, Key=_key(key), UpdateExpression=update, **params)

    def batch_write(
        self,
        items: Iterable[Item],
        *,
        delete_keys: Iterable[Key] = (),
        workers: int = 1,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Put `items` (and delete `delete_keys`) with BatchWriteItem, 25 a request, over `workers`
        threads; unprocessed requests are retried with backoff, anything left raises."""

        def requests() -> Iterator[list[dict[str, Any]]]:
            batch: list[dict[str, Any]] = []
            for item in items:
                check_size(item)
                batch.append({"PutRequest": {"Item": to_item(item)}})
                if len(batch) == BATCH_WRITE_SIZE:
                    yield batch
                    batch = []
            for key in delete_keys:
                batch.append({"DeleteRequest": {"Key": _key(key)}})
                if len(batch) == BATCH_WRITE_SIZE:
                    yield batch
                    batch = []
            if batch:
                yield batch

        def write(batch: list[dict[str, Any]]) -> int:
            pending = batch
            pacer = pacing.current()  # None unless the caller paces its writes per partition
            for attempt in range(BATCH_ATTEMPTS):
                if pacer is not None and pacer.engaged:
                    pacer.before(pacing.batch_units(self.table, pending))
                response = call("BatchWriteItem", RequestItems={self.table: pending})
                pending = response.get("UnprocessedItems", {}).get(self.table, [])
                if not pending:
                    break
                if pacer is not None:  # what DynamoDB handed back went to throttled partitions
                    pacer.throttled(pacing.batch_units(self.table, pending))
                if attempt < BATCH_ATTEMPTS - 1:
                    backoff(attempt)
            if pending:
                raise UnprocessedItems(len(pending))
            if progress:
                progress(len(batch))
            return len(batch)

        if workers <= 1:
            return sum(write(batch) for batch in requests())
        written = 0
        with ThreadPoolExecutor(max_workers=workers) as pool:
            # A bounded window of batches in flight, so a huge iterable is never materialised.
            window: list[Any] = []
            for batch in requests():
                # Each worker runs in a copy of this context, so its calls reach our collectors.
                window.append(pool.submit(contextvars.copy_context().run, write, batch))
                if len(window) >= workers * 4:
                    written += window.pop(0).result()
            written += sum(future.result() for future in window)
        return written

    # --- the table itself ---

    def describe_table(self) -> dict[str, Any]:
        return call("DescribeTable", TableName=self.table)["Table"]

    def create_table(self, definition: dict[str, Any]) -> None:
        call("CreateTable", **{**definition, "TableName": self.table})

    def delete_table(self) -> None:
        call("DeleteTable", TableName=self.table)

    def update_table(self, **params: Any) -> None:
        """UpdateTable (create_table's upgrade of an existing table: one index change per call)."""
        call("UpdateTable", TableName=self.table, **params)


def _key(key: Key) -> dict[str, Any]:
    return {"PK": {"S": key[0]}, "SK": {"S": key[1]}}
