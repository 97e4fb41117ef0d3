"""A speed-up, kept apart: a successful Query's Items are taken straight from the JSON body.

botocore's generic parser walks every attribute value against the service model, which is
most of a large Query's client time (`make bench` measures the data layer against raw boto3).
DynamoDB's wire format for an item is already the {"S": ...} / {"N": "..."} shape botocore
would produce, except binary (base64 on the wire, bytes from botocore): a body that
may hold binary is left to botocore. Errors (status >= 300) are left entirely to botocore;
signing, retries and the CRC32 check (done on the raw HTTP response) are unaffected.

The body is read with orjson (faster than the standard `json` on a large Query body).
DynamoDB's numbers travel as strings (`{"N": "1.5"}`), so no amount ever becomes a float; a
body orjson refuses is left to botocore, whole.

On by default; `DYNAMODB_FAST_QUERY_PARSE=false` turns it off (botocore's path then parses
everything). `PerfConfig.ready()` installs it on each new client through the client factory's
public hook (`fundportal.store.client.add_client_customizer`).
`tests/contract/test_client_fast_parse.py` pins that both give the same result.
"""

from __future__ import annotations

from typing import Any

import orjson

EVENT = "before-parse.dynamodb.Query"


def install(client: Any) -> None:
    """Register the hook on `client` (a client customizer)."""
    client.meta.events.register(EVENT, take_query_items)


def take_query_items(response_dict: dict[str, Any], customized_response_dict: dict[str, Any], **_: Any) -> None:
    """botocore `before-parse` hook: hand the Items over parsed by orjson, leave the rest."""
    take_from_body("Items", list, response_dict, customized_response_dict)


def take_from_body(
    key: str, shape: type, response_dict: dict[str, Any], customized_response_dict: dict[str, Any]
) -> None:
    """Move `key` (a `shape`: the Items list, the Responses map) of a successful JSON body into
    botocore's customized response, and leave the rest of the body to botocore; a body that may
    hold binary, an error, or a body orjson refuses stays botocore's whole."""
    if response_dict.get("status_code", 500) >= 300:
        return
    body = response_dict.get("body")
    if not isinstance(body, bytes) or not body or b'"B":' in body or b'"BS":' in body:
        return
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError:  # e.g. NaN, which json accepts: botocore parses it all
        return
    taken = parsed.pop(key, None) if isinstance(parsed, dict) else None
    if not isinstance(taken, shape):
        return
    customized_response_dict[key] = taken
    response_dict["body"] = orjson.dumps(parsed)
