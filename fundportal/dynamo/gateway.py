"""The table gateway: the one place DynamoDB requests are made.

Every request goes through `call`, which times and records it (instrumentation) and turns
every botocore failure into a typed `DataLayerError` (`_typed`). `TableGateway` adds what
each kind of request needs once: the pagination loop, batch get/write with one retry and
backoff policy, transactions retried on TransactionConflict with the same token. It speaks
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

from botocore.exceptions import BotoCoreError, ClientError

from .client import get_client, table_name
from .errors import (
    ConditionFailed,
    DataLayerError,
    IdempotencyMismatch,
    ItemTooLarge,
    RequestRejected,
    StoreUnavailable,
    TableInUse,
    TableMissing,
    TransactionCancelled,
    UnprocessedItems,
)
from .instrumentation import RequestRecord, record
from .serialization import from_item, to_attr, to_item

log = logging.getLogger("fundportal.dynamodb")

MAX_ITEM_BYTES = 400 * 1024
BATCH_WRITE_SIZE = 25
BATCH_ATTEMPTS = 10
TRANSACTION_CONFLICT_RETRIES = 5
# Error codes that mean "DynamoDB is not able to serve us now" once botocore's retries ran out.
UNAVAILABLE_CODES = {
    "ProvisionedThroughputExceededException": "throttled (provisioned throughput exceeded)",
    "ThrottlingException": "throttled",
    "RequestLimitExceeded": "throttled (account request limit)",
    "InternalServerError": "internal server error",
    "ServiceUnavailable": "service unavailable",
    "UnrecognizedClientException": "credentials were rejected",
    "AccessDeniedException": "access denied",
    "TransactionConflictException": "the item is busy with a transaction",
}
READ_OPERATIONS = {"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"}
CONTROL_OPERATIONS = {"DescribeTable", "CreateTable", "DeleteTable", "ListTables", "UpdateTable"}

Key = tuple[str, str]  # (PK, SK)
Item = dict[str, Any]


# --- the one request function ---------------------------------------------------------------------


def call(operation: str, *, index: str | None = None, key_condition: str | None = None, **params: Any) -> dict:
    """Make one DynamoDB API call, record its cost, and raise only typed errors."""
    client = get_client()
    if operation not in CONTROL_OPERATIONS:
        params.setdefault("ReturnConsumedCapacity", "TOTAL")
    method = getattr(client, _snake(operation))
    started = time.perf_counter()
    response: dict = {}
    try:
        response = method(**params)
    except ClientError as error:
        response = error.response  # a refused call is still a request (and may carry its capacity)
        raise _typed(operation, params, error) from error
    except BotoCoreError as error:
        log.error("DynamoDB %s could not be reached: %s", operation, error)
        raise StoreUnavailable(f"cannot reach DynamoDB ({type(error).__name__})") from error
    finally:
        # Recorded whether it succeeded or not: failed calls (conditional check failed,
        # cancelled transactions, unreachable store) count like any other request.
        _record(operation, index, key_condition, response, (time.perf_counter() - started) * 1000)
    return response


def _typed(operation: str, params: dict[str, Any], error: ClientError) -> DataLayerError:
    """The one place a botocore ClientError becomes a typed error."""
    details = error.response.get("Error", {})
    code, message = details.get("Code", ""), details.get("Message", "")
    if code in UNAVAILABLE_CODES:
        log.error("DynamoDB %s failed after retries: %s", operation, UNAVAILABLE_CODES[code])
        return StoreUnavailable(UNAVAILABLE_CODES[code])
    if code == "ResourceNotFoundException":
        if operation not in {"DescribeTable", "DeleteTable"}:
            log.error("DynamoDB table %s does not exist", params.get("TableName"))
        return TableMissing(params.get("TableName") or table_name())
    if code == "ResourceInUseException":
        return TableInUse()
    if code == "ConditionalCheckFailedException":
        return ConditionFailed()
    if code == "TransactionCanceledException":
        reasons = [reason.get("Code", "None") for reason in error.response.get("CancellationReasons", [])]
        return TransactionCancelled(reasons)
    if code == "IdempotentParameterMismatchException":
        return IdempotencyMismatch()
    log.error("DynamoDB refused %s: %s %s", operation, code, message)
    return RequestRejected(code, message)


def _record(operation: str, index: str | None, key_condition: str | None, response: dict, ms: float) -> None:
    items = response.get("Count", len(response.get("Items", ())))
    if operation == "GetItem":
        items = 1 if "Item" in response else 0
    elif operation == "BatchGetItem":
        items = sum(len(v) for v in response.get("Responses", {}).values())
    read_units, write_units = _capacity(operation, response.get("ConsumedCapacity"))
    record(RequestRecord(operation, index, items, read_units, write_units, ms, key_condition))


def _capacity(operation: str, consumed: Any) -> tuple[float, float]:
    if not consumed:
        return 0.0, 0.0
    entries = consumed if isinstance(consumed, list) else [consumed]
    read = write = 0.0
    for entry in entries:
        read_units = entry.get("ReadCapacityUnits")
        write_units = entry.get("WriteCapacityUnits")
        if read_units is None and write_units is None:
            units = entry.get("CapacityUnits", 0.0)
            if operation in READ_OPERATIONS:
                read_units = units
            else:
                write_units = units
        read += read_units or 0.0
        write += write_units or 0.0
    return read, write


def _snake(operation: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in operation).lstrip("_")


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
    ) -> Page:
        """One Query request (one page)."""
        params: dict[str, Any] = {
            "TableName": self.table,
            "KeyConditionExpression": key_condition,
            "ExpressionAttributeValues": {name: {"S": value} for name, value in values.items()},
        }
        if index:
            params["IndexName"] = index
        if not forward:
            params["ScanIndexForward"] = False
        if limit:
            params["Limit"] = limit
        if start_key:
            params["ExclusiveStartKey"] = start_key
        if projection:
            params["ProjectionExpression"] = projection
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

    def transact(self, actions: list[dict[str, Any]], token: str) -> None:
        """TransactWriteItems with a ClientRequestToken; a TransactionConflict is retried with the
        same token (botocore never retries it; the token makes a landed retry a no-op)."""
        for attempt in range(TRANSACTION_CONFLICT_RETRIES + 1):
            try:
                call("TransactWriteItems", TransactItems=actions, ClientRequestToken=token)
                return
            except TransactionCancelled as error:
                if error.conflicted and attempt < TRANSACTION_CONFLICT_RETRIES:
                    backoff(attempt)
                    continue
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
            for attempt in range(BATCH_ATTEMPTS):
                response = call("BatchWriteItem", RequestItems={self.table: pending})
                pending = response.get("UnprocessedItems", {}).get(self.table, [])
                if not pending:
                    break
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


def _key(key: Key) -> dict[str, Any]:
    return {"PK": {"S": key[0]}, "SK": {"S": key[1]}}
