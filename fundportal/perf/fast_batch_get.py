"""A speed-up, kept apart: a successful BatchGetItem's Responses are taken straight from the JSON body.

The same trick as `fast_parse` (Query items), for the fund page's other request: its summary
shards and record, read by one BatchGetItem whose items botocore's generic parser would walk
attribute by attribute against the service model. DynamoDB's wire format for an item is already
the {"S": ...} / {"N": "..."} shape botocore produces, except binary (base64 on the wire, bytes
from botocore): a body that may hold binary is left to botocore. Errors (status >= 300) are left
entirely to botocore, and so is the rest of the body (UnprocessedKeys, ConsumedCapacity);
signing, retries and the CRC32 check (done on the raw HTTP response) are unaffected. Numbers
travel as strings (`{"N": "1.5"}`), so no amount ever becomes a float; a body orjson refuses is
left to botocore, whole.

On by default; `DYNAMODB_FAST_BATCH_GET_PARSE=false` turns it off (botocore's path then parses
everything). `PerfConfig.ready()` installs it on each new client through the client factory's
public hook (`fundportal.store.client.add_client_customizer`).
`tests/contract/test_client_fast_batch_get.py` pins that both give the same result.
"""

from __future__ import annotations

from typing import Any

from .fast_parse import take_from_body

EVENT = "before-parse.dynamodb.BatchGetItem"


def install(client: Any) -> None:
    """Register the hook on `client` (a client customizer)."""
    client.meta.events.register(EVENT, take_batch_responses)


def take_batch_responses(response_dict: dict[str, Any], customized_response_dict: dict[str, Any], **_: Any) -> None:
    """botocore `before-parse` hook: hand the Responses over parsed by orjson, leave the rest."""
    take_from_body("Responses", dict, response_dict, customized_response_dict)
