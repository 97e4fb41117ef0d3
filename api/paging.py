"""Cursor paging of the lists an endpoint builds from one read (a fund's lines, the funds, the
investors): the rows in a fixed order by their ids, a page of `limit` rows, and a signed cursor
(`fundportal.store.cursor`: tamper-proof, bound to its query, expiring after `CURSOR_MAX_AGE`)
holding the last row's ids. The next page starts after those ids in the list as it is then read,
so within one walk no row comes twice and none is skipped for a row added or removed elsewhere."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from fundportal.domain.errors import BadCursor
from fundportal.store import cursor as signed

Row = TypeVar("Row")

DEFAULT_LIMIT = 100
MAX_LIMIT = 500


@dataclass(frozen=True, slots=True)
class Slice(Generic[Row]):
    rows: list[Row]
    next_cursor: str | None


def page_of(
    rows: Sequence[Row],
    key: Callable[[Row], tuple[str, ...]],
    *,
    query: tuple[object, ...],
    cursor: str | None,
    limit: int,
) -> Slice[Row]:
    """The page of `rows` (sorted here by `key`) after `cursor`'s row, `limit` long."""
    ordered = sorted(rows, key=key)
    if cursor:
        start_key, _ = signed.decode(cursor, query)
        parts = tuple(start_key.get(f"k{i}", {}).get("S") for i in range(len(start_key)))
        if not parts or any(part is None for part in parts):
            raise BadCursor()
        ordered = [row for row in ordered if key(row) > parts]
    shown = ordered[:limit]
    next_cursor = None
    if len(ordered) > limit:
        last = key(shown[-1])
        next_cursor = signed.encode({f"k{i}": {"S": part} for i, part in enumerate(last)}, query)
    return Slice(shown, next_cursor)
