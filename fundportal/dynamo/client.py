"""The boto3 client, created lazily from settings (so moto can intercept it), and `call`,
the one place a DynamoDB API call is made, timed, recorded and its errors translated."""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings

from .errors import StoreUnavailable
from .instrumentation import RequestRecord, record

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
}
READ_OPERATIONS = {"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"}


@dataclass(frozen=True)
class ClientSettings:
    endpoint_url: str | None
    region: str
    table: str
    max_attempts: int
    connect_timeout: float
    read_timeout: float
    max_pool_connections: int

    @classmethod
    def from_django(cls) -> ClientSettings:
        return cls(
            endpoint_url=getattr(settings, "DYNAMODB_ENDPOINT_URL", None) or None,
            region=getattr(settings, "AWS_REGION", "us-east-1"),
            table=settings.DYNAMODB_TABLE,
            max_attempts=int(getattr(settings, "DYNAMODB_MAX_ATTEMPTS", 4)),
            connect_timeout=getattr(settings, "DYNAMODB_CONNECT_TIMEOUT", 2.0),
            read_timeout=getattr(settings, "DYNAMODB_READ_TIMEOUT", 5.0),
            max_pool_connections=int(getattr(settings, "DYNAMODB_MAX_POOL_CONNECTIONS", 32)),
        )

    def botocore_config(self) -> Config:
        return Config(
            # total_max_attempts counts the first try; botocore's "max_attempts" would count retries only.
            retries={"mode": "standard", "total_max_attempts": self.max_attempts},
            connect_timeout=self.connect_timeout,
            read_timeout=self.read_timeout,
            max_pool_connections=self.max_pool_connections,
            region_name=self.region,
            # Requests are built by this layer from typed entities and DynamoDB validates every
            # request itself; botocore's client-side walk of each attribute value is pure cost
            # on bulk loads (measured in bench/).
            parameter_validation=False,
        )


_lock = threading.Lock()
_clients: dict[tuple[ClientSettings, int], Any] = {}


def get_client() -> Any:
    """The botocore DynamoDB client for the current settings (one per settings and thread-safe)."""
    config = ClientSettings.from_django()
    # moto patches botocore per mock context; keying on its state keeps clients apart.
    key = (config, _moto_generation())
    client = _clients.get(key)
    if client is None:
        with _lock:
            client = _clients.get(key)
            if client is None:
                kwargs: dict[str, Any] = {"config": config.botocore_config(), "region_name": config.region}
                if config.endpoint_url:
                    kwargs["endpoint_url"] = config.endpoint_url
                    # DynamoDB Local accepts any credentials; don't require real ones locally.
                    session = boto3.session.Session()
                    if session.get_credentials() is None:
                        kwargs.update(aws_access_key_id="local", aws_secret_access_key="local")  # noqa: S106
                client = boto3.session.Session().client("dynamodb", **kwargs)
                client.meta.events.register("before-parse.dynamodb.Query", _take_query_items)
                _clients[key] = client
    return client


def _take_query_items(response_dict: dict[str, Any], customized_response_dict: dict[str, Any], **_: Any) -> None:
    """Hand a successful Query's Items to the caller straight from the JSON body.

    botocore's generic parser walks every attribute value against the service model, which is
    most of a large Query's client time; DynamoDB's wire format for an item is already the
    {"S": ...} / {"N": "..."} shape it would produce, except binary (base64 on the wire, bytes
    from botocore): a body that may hold binary is left to botocore. Otherwise json parses
    the Items and botocore parses the rest (Count, LastEvaluatedKey, ConsumedCapacity) as
    usual. Errors (status >= 300) are left entirely to botocore; signing, retries and the
    CRC32 check (done on the raw HTTP response) are unaffected.
    """
    if response_dict.get("status_code", 500) >= 300:
        return
    body = response_dict.get("body")
    if not isinstance(body, bytes) or not body or b'"B":' in body or b'"BS":' in body:
        return
    parsed = json.loads(body)
    items = parsed.pop("Items", None) if isinstance(parsed, dict) else None
    if items is None:
        return
    customized_response_dict["Items"] = items
    response_dict["body"] = json.dumps(parsed).encode()


def reset_clients() -> None:
    with _lock:
        _clients.clear()


def _moto_generation() -> int:
    try:
        from moto.core.models import MockAWS  # type: ignore[import-not-found]
    except ImportError:  # moto is a test dependency only
        return 0
    return MockAWS._nested_count


def table_name() -> str:
    return settings.DYNAMODB_TABLE


def call(operation: str, *, index: str | None = None, key_condition: str | None = None, **params: Any) -> dict:
    """Make one DynamoDB API call, record its cost, and translate transport failures.

    ClientErrors other than "unavailable" ones (conditional check failed, transaction
    cancelled, validation) propagate to the repository, which turns them into typed errors.
    """
    client = get_client()
    if operation not in {"DescribeTable", "CreateTable", "DeleteTable", "ListTables", "UpdateTable"}:
        params.setdefault("ReturnConsumedCapacity", "TOTAL")
    method = getattr(client, _snake(operation))
    started = time.perf_counter()
    response: dict = {}
    try:
        response = method(**params)
    except ClientError as error:
        response = error.response  # a refused call is still a request (and may carry its capacity)
        code = error.response.get("Error", {}).get("Code", "")
        if code in UNAVAILABLE_CODES:
            reason = UNAVAILABLE_CODES[code]
            log.error("DynamoDB %s failed after retries: %s", operation, reason)
            raise StoreUnavailable(reason) from error
        if code == "ResourceNotFoundException" and operation not in {"DescribeTable", "DeleteTable"}:
            log.error("DynamoDB table %s does not exist", params.get("TableName"))
            raise StoreUnavailable(f"table '{table_name()}' does not exist (run manage.py create_table)") from error
        raise
    except BotoCoreError as error:
        log.error("DynamoDB %s could not be reached: %s", operation, error)
        raise StoreUnavailable(f"cannot reach DynamoDB ({type(error).__name__})") from error
    finally:
        # Recorded whether it succeeded or not: failed calls (conditional check failed,
        # cancelled transactions, unreachable store) count like any other request.
        _record(operation, index, key_condition, response, (time.perf_counter() - started) * 1000)
    return response


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


# --- attribute values ---------------------------------------------------------------------------
# A small serializer pair instead of boto3's TypeSerializer/TypeDeserializer: the same
# semantics for the types we store, several times faster on the hot read path.


def to_attr(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, (int, Decimal)):
        return {"N": str(value)}
    if value is None:
        return {"NULL": True}
    if isinstance(value, dict):
        return {"M": {k: to_attr(v) for k, v in value.items() if v is not None}}
    if isinstance(value, (list, tuple)):
        return {"L": [to_attr(v) for v in value]}
    raise TypeError(f"cannot store {type(value).__name__} in DynamoDB (money must be Decimal)")


def to_item(values: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Serialize a plain dict, leaving out None values."""
    return {k: to_attr(v) for k, v in values.items() if v is not None}


def from_attr(value: dict[str, Any]) -> Any:
    for kind, raw in value.items():
        if kind == "S":
            return raw
        if kind == "N":
            return Decimal(raw)
        if kind == "BOOL":
            return raw
        if kind == "NULL":
            return None
        if kind == "M":
            return {k: from_attr(v) for k, v in raw.items()}
        if kind == "L":
            return [from_attr(v) for v in raw]
        if kind in ("SS", "BS"):
            return set(raw)
        if kind == "NS":
            return {Decimal(v) for v in raw}
        return raw
    raise ValueError("empty attribute value")


def from_item(item: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in item.items():
        raw = value.get("S")
        if raw is not None:
            out[name] = raw
            continue
        raw = value.get("N")
        out[name] = Decimal(raw) if raw is not None else from_attr(value)
    return out
