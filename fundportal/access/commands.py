"""The access scope of a management command: operator mode (`--all-funds`, the default: whoever
runs commands on the server already reaches the whole table) or one user's coverage
(`--as-user U`: what U may see and change on the web)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser

from fundportal.domain.access import OPERATOR, AccessScope

from .scope import resolve_scope


def add_scope_arguments(parser: CommandParser) -> None:
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--all-funds", action="store_true", help="operator mode: every fund (the default)")
    scope.add_argument("--as-user", metavar="U", help="only what user U covers (and may edit, for writes)")


def scope_from_options(options: dict[str, Any]) -> AccessScope:
    username = options.get("as_user")
    if not username:
        return OPERATOR
    try:
        user = get_user_model().objects.get_by_natural_key(username)
    except get_user_model().DoesNotExist:
        raise CommandError(f"No user '{username}'.") from None
    return resolve_scope(user)
