"""The wording of a request refused as it stands: rights on a fund, page links, a form sent twice."""

from __future__ import annotations

from fundportal.domain.errors import BadCursor, CursorExpired, IdempotencyMismatch, NotPermitted

from .dispatch import describe


@describe.register
def _(error: NotPermitted) -> str:
    return f"You may read fund {error.fund_id} but not {error.action} it; ask for {error.action} rights on it."


@describe.register
def _(error: BadCursor) -> str:
    return "The page link is invalid or belongs to another query."


@describe.register
def _(error: CursorExpired) -> str:
    return "This page link has expired; start again from the first page."


@describe.register
def _(error: IdempotencyMismatch) -> str:
    return "This form was already submitted with other values; reload and try again."
