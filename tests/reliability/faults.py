"""Fault injection for DynamoDB through botocore's own event hooks.

A `before-send.dynamodb.*` handler sees every HTTP attempt botocore makes (retries included)
and may answer it itself: returning an `AWSResponse` replaces the network round trip, raising
a botocore exception looks to the retry machinery exactly like a failed socket. So the
real retry policy, the real error parsing and the data layer's translation all run.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from botocore.awsrequest import AWSResponse
from botocore.exceptions import ReadTimeoutError

from fundportal.store.client import get_client

ERROR_PREFIX = "com.amazonaws.dynamodb.v20120810#"


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self.data


def error_response(status: int, code: str, message: str = "injected fault", **extra: Any) -> AWSResponse:
    """An HTTP reply shaped like DynamoDB's JSON-protocol error."""
    body = json.dumps({"__type": ERROR_PREFIX + code, "message": message, **extra}).encode()
    headers = {"content-type": "application/x-amz-json-1.0", "x-amzn-requestid": "injected"}
    return AWSResponse("http://injected", status, headers, _Body(body))


def throttled() -> AWSResponse:
    return error_response(400, "ThrottlingException", "Rate of requests exceeds the allowed throughput.")


def internal_error() -> AWSResponse:
    return error_response(500, "InternalServerError", "Internal server error")


def transaction_conflict() -> AWSResponse:
    return error_response(
        400,
        "TransactionCanceledException",
        "Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]",
        CancellationReasons=[{"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}],
    )


@dataclass
class Attempt:
    operation: str
    body: dict[str, Any]
    request: Any = None


@dataclass
class FaultInjector:
    """Records every attempt of the chosen operations; `fault(attempt_number, attempt)` may
    return an AWSResponse (injected reply), raise (injected transport failure) or return None
    (the request goes to the real endpoint)."""

    operations: set[str] | None = None
    fault: Callable[[int, Attempt], AWSResponse | None] = lambda n, a: None
    attempts: list[Attempt] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def handler(self, request: Any, **_: Any) -> AWSResponse | None:
        target = request.headers.get("X-Amz-Target", b"")
        operation = (target.decode() if isinstance(target, bytes) else target).rpartition(".")[2]
        if self.operations is not None and operation not in self.operations:
            return None
        body = request.body
        attempt = Attempt(operation, json.loads(body.decode() if isinstance(body, bytes) else body or "{}"), request)
        with self.lock:
            self.attempts.append(attempt)
            number = len(self.attempts)
        return self.fault(number, attempt)

    @property
    def count(self) -> int:
        return len(self.attempts)


@contextmanager
def inject(
    fault: Callable[[int, Attempt], AWSResponse | None], operations: set[str] | None = None
) -> Iterator[FaultInjector]:
    injector = FaultInjector(operations, fault)
    events = get_client().meta.events
    events.register("before-send.dynamodb.*", injector.handler)
    try:
        yield injector
    finally:
        events.unregister("before-send.dynamodb.*", injector.handler)


def send_for_real(request: Any) -> AWSResponse:
    """Deliver the attempt to the real endpoint (used to make a write land before a fault)."""
    return get_client()._endpoint.http_session.send(request)


def landed_then_timed_out(attempt: Attempt) -> None:
    """The write reaches DynamoDB and is applied, but its reply is lost."""
    send_for_real(attempt.request)
    raise ReadTimeoutError(endpoint_url=attempt.request.url)
