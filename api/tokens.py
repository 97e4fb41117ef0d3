"""Issuing, revoking and checking personal API tokens. A token is 32 random bytes (URL-safe
base64) behind a recognisable prefix; the database keeps its SHA-256 digest only (a token has far
too much entropy for a slow hash to matter), so a leaked database yields no usable token."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from api.models import ApiToken

TOKEN_PREFIX = "fpt_"  # noqa: S105 - the public prefix that marks a portal token, not a secret
DEFAULT_DAYS = 90
MAX_DAYS = 366


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Issued:
    """A new token: the record and the token itself (shown once, never stored)."""

    record: ApiToken
    token: str


def issue(user: Any, name: str, days: int = DEFAULT_DAYS) -> Issued:
    """A new token for `user`, named `name`, valid for `days` days (1 to MAX_DAYS)."""
    name = name.strip()
    if not name:
        raise ValueError("a token needs a name")
    if not 1 <= days <= MAX_DAYS:
        raise ValueError(f"days must be between 1 and {MAX_DAYS}")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    record = ApiToken.objects.create(
        user=user,
        name=name[:100],
        prefix=token[:12],
        digest=digest_of(token),
        expires_at=timezone.now() + timedelta(days=days),
    )
    return Issued(record, token)


def revoke(record: ApiToken) -> bool:
    """Revoke `record`; False if it already was."""
    updated = ApiToken.objects.filter(pk=record.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return bool(updated)


def read_active(digest: str, now: datetime) -> ApiToken | None:
    """The token with `digest`, neither revoked nor expired at `now`, with its user (one
    indexed query: revocation and expiry count at once)."""
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=digest, revoked_at__isnull=True, expires_at__gt=now)
        .first()
    )


# How a token is read: `read_active` (the ORM), or the same rows by fixed statements when the
# AUTH_RAW_READS speed trick installs its reader (`fundportal.perf.raw_auth_reads.read_token`).
TokenReader = Callable[[str, datetime], ApiToken | None]
_reader: TokenReader = read_active


def use_reader(reader: TokenReader | None) -> None:
    """Read tokens with `reader` (None: `read_active` again)."""
    global _reader
    _reader = reader or read_active


def authenticate(token: str) -> ApiToken | None:
    """The active token `token` is, with its active user; None for anything else. Read from the
    database on every call: revocation, expiry and a deactivated user count at once on every worker."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    record = _reader(digest_of(token), timezone.now())
    if record is None or not record.user.is_active:
        return None
    return record
