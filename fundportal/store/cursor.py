"""Opaque page cursors: DynamoDB's LastEvaluatedKey, signed and bound to the query it came
from, so a tampered cursor or one taken from another query is refused. Cursors are signed with
a timestamp and expire after `CURSOR_MAX_AGE` seconds (default 1 hour): an old link is refused
(CursorExpired). A position page does not trust the running totals a cursor carries: it
re-derives them from the entries before it (`PositionRepository.page`)."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core import signing

from fundportal.domain.errors import BadCursor, CursorExpired

_SALT = "fundportal.store.cursor"


def _binding(query: tuple[Any, ...]) -> str:
    return hashlib.sha256(repr(query).encode()).hexdigest()[:16]


def encode(last_key: dict[str, Any], query: tuple[Any, ...], extra: dict[str, Any] | None = None) -> str:
    """`last_key` is a LastEvaluatedKey of string attributes; `extra` rides along signed."""
    payload = {"k": {name: value["S"] for name, value in last_key.items()}, "q": _binding(query)}
    if extra:
        payload["x"] = extra
    return signing.dumps(payload, salt=_SALT, compress=True)


def decode(cursor: str, query: tuple[Any, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return (ExclusiveStartKey, extra) or raise BadCursor."""
    try:
        payload = signing.loads(cursor, salt=_SALT, max_age=getattr(settings, "CURSOR_MAX_AGE", 3600))
    except signing.SignatureExpired as error:
        raise CursorExpired() from error
    except (signing.BadSignature, ValueError, TypeError, UnicodeError) as error:
        raise BadCursor() from error
    if not isinstance(payload, dict) or payload.get("q") != _binding(query) or not isinstance(payload.get("k"), dict):
        raise BadCursor()
    start_key = {name: {"S": value} for name, value in payload["k"].items() if isinstance(value, str)}
    return start_key, payload.get("x") or {}
