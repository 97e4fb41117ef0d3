"""A speed-up, kept apart: the bodies of the bulk writes are made by `json.dumps`.

botocore's JSON serializer walks every attribute value of every item against the service model:
about 0.13 ms an item, ten times `json.dumps` of the same parameters, and most of the client's
time in a bulk load or an import (`bench/`: a 10,000-row import serialises ~23,000 items).
The layer already hands botocore DynamoDB's wire shapes ({"S": ...}, {"N": "..."}), never
binary, so for BatchWriteItem and TransactWriteItems the body is `json.dumps` of the
parameters, exactly what botocore sends. Everything else is botocore's: the other operations,
the headers, endpoint resolution (it reads the parameters, not the body), the idempotency
token it fills in before serialising, signing and retries. Parameters `json` cannot encode
(bytes) go to botocore as before.

On by default; `DYNAMODB_FAST_WRITE_SERIALIZE=false` turns it off.
`tests/contract/test_client_fast_serialize.py` pins that both give the same body.
"""

from __future__ import annotations

import json
from typing import Any

from botocore.validate import ParamValidationDecorator

OPERATIONS = frozenset({"BatchWriteItem", "TransactWriteItems"})


class FastWriteSerializer:
    """Wraps the client's serializer; only the body of the bulk writes is made differently."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def serialize_to_request(self, parameters: dict[str, Any], operation_model: Any) -> dict[str, Any]:
        if operation_model.name not in OPERATIONS:
            return self._inner.serialize_to_request(parameters, operation_model)
        try:
            body = json.dumps(parameters).encode("utf-8")
        except (TypeError, ValueError):  # bytes or another value only botocore knows how to send
            return self._inner.serialize_to_request(parameters, operation_model)
        request = self._inner.serialize_to_request({}, operation_model)  # method, headers, url
        request["body"] = body
        return request

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def install(client: Any) -> None:
    """Wrap the client's serializer; a client that validates parameters client-side keeps
    botocore's (the validation would need the full parameters walked anyway)."""
    if not isinstance(client._serializer, ParamValidationDecorator):
        client._serializer = FastWriteSerializer(client._serializer)
