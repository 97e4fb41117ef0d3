"""Next/Previous links of a paged table: the page's own query string with its `cursor` swapped
(sort and filters kept), shared by the document and investor pages (`_pager.html`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.http import QueryDict

from fundportal.store.list_cursor import decode_place, encode_place, offset_of

T = TypeVar("T")
PAGE_ROWS = 100


@dataclass(frozen=True, slots=True)
class Pager:
    """Where a page is in its list: the cursors of its neighbours and the rows it shows."""

    next_cursor: str | None
    previous_cursor: str | None
    number: int  # 1 for the first page
    first_row: int  # 1-based number of the first row shown (0 when none)
    last_row: int

    @property
    def paged(self) -> bool:
        return bool(self.next_cursor or self.previous_cursor or self.number > 1)


def slice_page(
    items: Sequence[T], place: dict[str, Any], binding: tuple[Any, ...], size: int = PAGE_ROWS
) -> tuple[Sequence[T], Pager]:
    """The page of a list read whole that a cursor's place (`{"o": offset}`) starts, and its
    pager: cursors bound to `binding` (the list and its sort and filters)."""
    offset = offset_of(place) if "o" in place else 0
    if offset and offset >= len(items):
        offset = 0  # the list shrank since the link was made: its first page
    shown = items[offset : offset + size]
    pager = Pager(
        next_cursor=encode_place({"o": offset + size}, binding) if offset + size < len(items) else None,
        previous_cursor=encode_place({"o": max(offset - size, 0)}, binding) if offset else None,
        number=offset // size + 1,
        first_row=offset + 1 if shown else 0,
        last_row=offset + len(shown),
    )
    return shown, pager


def place_of(cursor: str | None, binding: tuple[Any, ...]) -> dict[str, Any]:
    """The place a page's `?cursor=` holds ({} for the first page); BadCursor/CursorExpired."""
    return decode_place(cursor, binding) if cursor else {}


@dataclass(frozen=True, slots=True)
class PageLinks:
    next: str | None  # "?..." of the next page, None on the last
    previous: str | None
    first: str | None  # "?..." of the first page, shown when the previous one is not known


def page_links(params: QueryDict, pager: Pager) -> PageLinks:
    kept: dict[str, Any] = {key: params.getlist(key) for key in params if key != "cursor"}

    def link(cursor: str | None) -> str:
        values = {**kept, "cursor": [cursor]} if cursor else kept
        return "?" + urlencode(values, doseq=True)

    return PageLinks(
        next=link(pager.next_cursor) if pager.next_cursor else None,
        previous=link(pager.previous_cursor) if pager.previous_cursor else None,
        first=link(None) if pager.number > 1 and not pager.previous_cursor else None,
    )
