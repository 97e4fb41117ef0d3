"""Signed cursors of a long list's place (an offset in a list read whole, or the id a page ends
at): the same signing, binding and expiry as the DynamoDB cursors (`fundportal.store.cursor`),
without a key. A tampered cursor, one taken from another list or another sort/filter, or an old
one is refused (BadCursor, CursorExpired: a 400 with its message)."""

from __future__ import annotations

from typing import Any

from fundportal.domain.errors import BadCursor

from . import cursor as cursors


def encode_place(place: dict[str, Any], query: tuple[Any, ...]) -> str:
    """A cursor of `place` (plain strings and integers), bound to `query`."""
    return cursors.encode({}, query, place)


def decode_place(cursor: str, query: tuple[Any, ...]) -> dict[str, Any]:
    """The place a cursor of `query` holds; BadCursor if none."""
    _, place = cursors.decode(cursor, query)
    if not place:
        raise BadCursor()
    return place


def offset_of(place: dict[str, Any], name: str = "o") -> int:
    """A non-negative integer of a place (BadCursor otherwise)."""
    value = place.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadCursor()
    return value


def text_of(place: dict[str, Any], name: str) -> str | None:
    """A text of a place, None when absent (BadCursor when not text)."""
    value = place.get(name)
    if value is not None and not isinstance(value, str):
        raise BadCursor()
    return value
