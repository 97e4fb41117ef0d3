"""The one request function: every DynamoDB call is made by `call`, which keeps it within the
page's time budget, times and records it (instrumentation), checks that a successful reply
has the shape of its operation, and turns every botocore failure into a typed
`DataLayerError` (`_typed`: the one place a ClientError becomes a typed error).
`gateway.TableGateway` builds every request on it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from fundportal.domain.errors import IdempotencyMismatch

from . import budget
from .client import ClientSettings, get_client, table_name
from .errors import (
    ConditionFailed,
    DataLayerError,
    RequestRejected,
    StoreUnavailable,
    TableInUse,
    TableMissing,
    TransactionCancelled,
)
from .instrumentation import RequestRecord, record, wants_touches
from .partition_touches import touches

log = logging.getLogger("fundportal.dynamodb")

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


# --- the one request function ---------------------------------------------------------------------


def call(operation: str, *, index: str | None = None, key_condition: str | None = None, **params: Any) -> dict:
    """Make one DynamoDB API call, record its cost, and raise only typed errors.

    Inside a request's time budget (`budget`), a call is refused once the budget is spent and
    never runs longer than what is left; a reply that is not DynamoDB's answer to `operation`
    (`check_reply`) is StoreUnavailable, never a success."""
    left = budget.check(operation)
    client = get_client(_limits(left))
    if operation not in CONTROL_OPERATIONS:
        params.setdefault("ReturnConsumedCapacity", "TOTAL")
    method = getattr(client, _snake(operation))
    started = time.perf_counter()
    reply: Mapping[str, Any] = {}  # what was answered, a success or a refusal
    try:
        response: dict[str, Any] = method(**params)
        reply = response
    except ClientError as error:
        reply = error.response  # a refused call is still a request (and may carry its capacity)
        raise _typed(operation, params, error) from error
    except BotoCoreError as error:
        log.error("DynamoDB %s could not be reached: %s", operation, error)
        raise StoreUnavailable(f"cannot reach DynamoDB ({type(error).__name__})") from error
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        # botocore's parser fails this way on a 200 body that is not DynamoDB's shape.
        log.exception("DynamoDB %s: unparseable reply from the endpoint", operation)
        raise StoreUnavailable(f"unexpected reply to {operation}") from error
    finally:
        # Recorded whether it succeeded or not: failed calls (conditional check failed,
        # cancelled transactions, unreachable store) count like any other request.
        if isinstance(reply, dict):
            finished = time.perf_counter()
            _record(operation, index, key_condition, params, reply, (finished - started) * 1000, finished)
    check_reply(operation, response, counting=params.get("Select") == "COUNT")
    return response


def _limits(left: float | None) -> tuple[float, float, int] | None:
    """Client timeouts and attempts that fit `left` seconds (None: the configured client)."""
    if left is None:
        return None
    configured = ClientSettings.from_django()
    limits = budget.client_limits(left, configured.connect_timeout, configured.read_timeout, configured.max_attempts)
    if limits == (configured.connect_timeout, configured.read_timeout, configured.max_attempts):
        return None
    return limits


# What a successful reply of each operation must hold: {key: type, "?key": type if present}.
REPLY_SHAPES: dict[str, dict[str, type]] = {
    "Query": {"Items": list, "Count": int},
    "Scan": {"Items": list, "Count": int},
    "GetItem": {"?Item": dict},
    "BatchGetItem": {"Responses": dict, "?UnprocessedKeys": dict},
    "BatchWriteItem": {"?UnprocessedItems": dict},
    "TransactWriteItems": {"?ConsumedCapacity": list},
    "UpdateItem": {"?Attributes": dict},
    "DescribeTable": {"Table": dict},
    "CreateTable": {"TableDescription": dict},
    "DeleteTable": {"TableDescription": dict},
    "UpdateTable": {"TableDescription": dict},
}


def check_reply(operation: str, response: Any, *, counting: bool = False) -> None:
    """A 200 reply is trusted only if it is DynamoDB's answer to `operation`: a dict with
    DynamoDB's request id and the keys that operation returns. A misconfigured endpoint (a
    proxy, another service) answering 200 is StoreUnavailable, never a false success."""
    metadata = response.get("ResponseMetadata") if isinstance(response, dict) else None
    problem = None
    if not isinstance(metadata, dict) or not metadata.get("RequestId"):
        problem = "no DynamoDB request id"
    else:
        for key, kind in REPLY_SHAPES.get(operation, {}).items():
            optional = key.startswith("?") or (counting and key == "Items")  # Select=COUNT: no Items
            name = key.lstrip("?")
            if name not in response:
                if not optional:
                    problem = f"no {name}"
                    break
            elif not isinstance(response[name], kind) or isinstance(response[name], bool):
                problem = f"{name} is not a {kind.__name__}"
                break
    if problem:
        log.error("DynamoDB %s: unexpected reply (%s) from the endpoint", operation, problem)
        raise StoreUnavailable(f"unexpected reply to {operation} ({problem})")


def _typed(operation: str, params: dict[str, Any], error: ClientError) -> DataLayerError | IdempotencyMismatch:
    """The one place a botocore ClientError becomes a typed error (a transport one, or the
    domain's IdempotencyMismatch for a request token reused with other values)."""
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
    if code in {"IdempotentParameterMismatchException", "TransactionInProgressException"}:
        # The token was used with other values, or its first use is still in flight: the
        # caller re-reads to tell "my own write landed" from "someone else's".
        return IdempotencyMismatch()
    log.error("DynamoDB refused %s: %s %s", operation, code, message)
    return RequestRejected(code, message)


def _parts(actions: Any) -> tuple[str, ...]:
    """The distinct kinds of a transaction's actions ("Put", "Delete", ...), sorted."""
    if not isinstance(actions, list):
        return ()
    return tuple(sorted({kind for action in actions if isinstance(action, dict) for kind in action}))


def _record(
    operation: str,
    index: str | None,
    key_condition: str | None,
    params: dict[str, Any],
    response: dict,
    ms: float,
    at: float,
) -> None:
    items = response.get("Count", len(response.get("Items", ())))
    if operation == "GetItem":
        items = 1 if "Item" in response else 0
    elif operation == "BatchGetItem":
        items = sum(len(v) for v in response.get("Responses", {}).values())
    read_units, write_units = _capacity(operation, response.get("ConsumedCapacity"))
    # A request that never reached DynamoDB (no reply) touched nothing.
    touched = touches(operation, params, response) if response and wants_touches() else ()
    record(
        RequestRecord(
            operation,
            index,
            items,
            read_units,
            write_units,
            ms,
            key_condition,
            _parts(params.get("TransactItems")),
            touched,
            at,
        )
    )


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
