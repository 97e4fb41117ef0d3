"""Next/Previous links of a paged table: the page's own query string with its `cursor` swapped
(sort and filters kept), shared by the document and investor pages (`_pager.html`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlencode

from django.http import QueryDict


class PagerLike(Protocol):
    next_cursor: str | None
    previous_cursor: str | None
    number: int


@dataclass(frozen=True, slots=True)
class PageLinks:
    next: str | None  # "?..." of the next page, None on the last
    previous: str | None
    first: str | None  # "?..." of the first page, shown when the previous one is not known


def page_links(params: QueryDict, pager: PagerLike) -> PageLinks:
    kept: dict[str, Any] = {key: params.getlist(key) for key in params if key != "cursor"}

    def link(cursor: str | None) -> str:
        values = {**kept, "cursor": [cursor]} if cursor else kept
        return "?" + urlencode(values, doseq=True)

    return PageLinks(
        next=link(pager.next_cursor) if pager.next_cursor else None,
        previous=link(pager.previous_cursor) if pager.previous_cursor else None,
        first=link(None) if pager.number > 1 and not pager.previous_cursor else None,
    )
