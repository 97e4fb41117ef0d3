"""Issuing, revoking and checking personal API tokens. A token is 32 random bytes (URL-safe
base64) behind a recognisable prefix; the database keeps its SHA-256 digest only (a token has far
too much entropy for a slow hash to matter), so a leaked database yields no usable token."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
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


def authenticate(token: str) -> ApiToken | None:
    """The active token `token` is, with its active user; None for anything else. One indexed
    query on every call: revocation, expiry and a deactivated user count at once."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    record = (
        ApiToken.objects.select_related("user")
        .filter(digest=digest_of(token), revoked_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    if record is None or not record.user.is_active:
        return None
    return record
