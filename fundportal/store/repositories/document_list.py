"""Reads for the documents list and search: the month-sharded index of current
documents walked newest first, one month partition a Query, and the normalised search items.
Filtering and paging rules live in `documents.list_selectors`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from fundportal.domain.errors import BadCursor, InvalidId
from fundportal.domain.kinds import DEFAULT_DOCUMENT_TYPE, Kind, SearchKind, parse_month
from fundportal.domain.model import Document

from ..gateway import TableGateway
from ..mapping import keys
from ..mapping.companions import SearchItem
from ..mapping.entities import from_item, to_item
from ..schema import MONTH_INDEX, TABLE
from .documents import DocumentSummary

_MONTH = TABLE.index(MONTH_INDEX)


@dataclass(frozen=True, slots=True)
class Listed:
    """A current document as the month index lists it, with its place in the index."""

    position: str  # its GSI3_SK: where a page that ends on it continues from
    summary: DocumentSummary
    document_type: str  # projected into the month index ("other" when a document has none)


@dataclass(frozen=True, slots=True)
class MonthChunk:
    """One Query on one month partition, newest first."""

    month: str
    items: list[Listed]
    more: bool  # the partition has more items after the last one returned


@dataclass(frozen=True, slots=True)
class SearchHit:
    kind: SearchKind
    target_id: str
    fund_id: str = ""  # "" when the item names none (an investor; an item written before funds were named)
    investor_id: str = ""


class DocumentListRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    # Pattern 9b: current documents across months (one month partition per Query)
    def month_chunk(
        self,
        month: str,
        *,
        after: str | None = None,
        lower: date | None = None,
        upper: date | None = None,
        limit: int | None = None,
    ) -> MonthChunk:
        """Current documents of `month` ('YYYY-MM') newest first, as-of dates within
        [lower, upper], continuing after the index position `after` (a GSI3_SK of this month)."""
        year, number = parse_month(month)
        shard = keys.month_shard(date(year, number, 1))
        lo, hi = keys.month_index_range(lower, upper)
        condition = f"{_MONTH.pk} = :pk AND {_MONTH.sk} BETWEEN :lo AND :hi"
        values = {":pk": shard, ":lo": lo, ":hi": hi}
        page = self.gateway.query_page(
            condition,
            values,
            index=MONTH_INDEX,
            forward=False,
            limit=limit,
            start_key=_start_key(shard, after) if after else None,
        )
        items = []
        for item in page.items:
            document = from_item(Document, item)
            items.append(
                Listed(
                    position=item[_MONTH.sk],
                    summary=DocumentSummary.of(document),
                    document_type=document.document_type or DEFAULT_DOCUMENT_TYPE,
                )
            )
        return MonthChunk(month, items, page.last_key is not None)

    # Pattern 13: search by normalised id or id prefix
    def search(self, query: str, limit: int = 50) -> tuple[list[SearchHit], bool]:
        """Search items whose lower-cased id starts with `query` (already normalised), exact
        matches first; one Query on the query's search partition. Returns (hits, truncated)."""
        condition = "PK = :pk AND begins_with(SK, :prefix)"
        values = {":pk": keys.search_shard(query), ":prefix": query}
        page = self.gateway.query_page(condition, values, limit=limit + 1)
        found = [from_item(SearchItem, item) for item in page.items]
        hits = [SearchHit(s.kind, s.target_id, s.fund_id, s.investor_id) for s in found]
        return hits[:limit], len(hits) > limit

    def put_search_items(self, items: Iterable[SearchItem], workers: int = 1) -> int:
        """Write search items (idempotent puts of constant items); duplicates are written once."""
        unique = {(i.kind, i.target_id): i for i in items}
        return self.gateway.batch_write((to_item(i) for i in unique.values()), workers=workers)


def _start_key(shard: str, position: str) -> dict[str, dict[str, str]]:
    """ExclusiveStartKey of the month index from a listed position (BadCursor if not this month's)."""
    try:
        as_of, document_id = keys.parse_month_index_sk(position)
        own_shard, own_sk = keys.month_index_keys(as_of, document_id)
    except (ValueError, InvalidId):
        raise BadCursor() from None
    if own_shard != shard or own_sk != position:
        raise BadCursor()
    return {
        "PK": {"S": keys.document_pk(document_id)},
        "SK": {"S": keys.latest_sk(Kind.DOCUMENT)},
        _MONTH.pk: {"S": shard},
        _MONTH.sk: {"S": position},
    }
