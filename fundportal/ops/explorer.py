"""Raw item collections for the admin's item-collection explorer.

This is the one place raw items (plain dicts of deserialised attributes) leave the data layer:
the staff-only explorer shows exactly what is stored. Analyst pages use the repository's
domain objects instead. Pages are cut at `page_size` items with a signed cursor bound to the
collection; one extra item is read ahead so the last page never links to an empty one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from fundportal.domain.access import AccessScope
from fundportal.store import cursor as cursors
from fundportal.store.gateway import TableGateway
from fundportal.store.mapping import keys
from fundportal.store.schema import POSITION_INDEX, TABLE

DEFAULT_PAGE_SIZE = 25
MAX_PAGE_SIZE = 100
FUND_ATTRIBUTE = "FundId"  # on documents, entries and registers (never on audit or catalog items)


@dataclass(frozen=True, slots=True)
class IndexKeys:
    """The key attributes of one index that an item carries (so it appears in that index)."""

    index: str
    pk_attribute: str
    sk_attribute: str
    pk: Any
    sk: Any


@dataclass(frozen=True, slots=True)
class CollectionPage:
    """One page of an item collection, in sort-key order."""

    collection: str  # "document" or "position"
    collection_id: str
    index: str | None  # None for the base table
    items: list[dict[str, Any]]
    next_cursor: str | None


def document_collection(
    document_id: str, cursor: str | None = None, page_size: int = DEFAULT_PAGE_SIZE
) -> CollectionPage:
    """Every item in a document's partition (PK = document id) in SK order, one page."""
    pk = keys.document_pk(document_id)
    return _collection_page(
        collection="document",
        collection_id=document_id,
        index=None,
        key_condition="PK = :pk",
        pk=pk,
        key_attributes=(TABLE.pk, TABLE.sk),
        cursor=cursor,
        page_size=page_size,
    )


def position_collection(
    position_id: str, cursor: str | None = None, page_size: int = DEFAULT_PAGE_SIZE
) -> CollectionPage:
    """A position's item collection in GSI_Position_Document (GSI2_PK = position id), GSI2_SK order."""
    pk = keys.position_index_pk(position_id)
    index = TABLE.index(POSITION_INDEX)
    return _collection_page(
        collection="position",
        collection_id=position_id,
        index=POSITION_INDEX,
        key_condition=f"{index.pk} = :pk",
        pk=pk,
        key_attributes=(TABLE.pk, TABLE.sk, index.pk, index.sk),
        cursor=cursor,
        page_size=page_size,
    )


def _collection_page(
    *,
    collection: str,
    collection_id: str,
    index: str | None,
    key_condition: str,
    pk: str,
    key_attributes: tuple[str, ...],
    cursor: str | None,
    page_size: int,
) -> CollectionPage:
    page_size = max(1, min(int(page_size), MAX_PAGE_SIZE))
    binding = ("explorer", collection, collection_id, page_size)
    gateway = TableGateway()
    start_key = cursors.decode(cursor, binding)[0] if cursor else None
    items: list[dict[str, Any]] = []
    # Read one item beyond the page; keep following LastEvaluatedKey if a 1 MB response
    # boundary cut the page short.
    while len(items) <= page_size:
        limit = page_size + 1 - len(items)
        page = gateway.query_page(key_condition, {":pk": pk}, index=index, limit=limit, start_key=start_key)
        items.extend(page.items)
        if not page.last_key:
            break
        start_key = page.last_key
    next_cursor = None
    if len(items) > page_size:
        items = items[:page_size]
        last_shown = {name: {"S": items[-1][name]} for name in key_attributes}
        next_cursor = cursors.encode(last_shown, binding)
    return CollectionPage(collection, collection_id, index, items, next_cursor)


def index_keys(item: dict[str, Any]) -> list[IndexKeys]:
    """The indexes (from the one schema definition) whose key attributes this item carries."""
    return [
        IndexKeys(index.name, index.pk, index.sk, item[index.pk], item.get(index.sk))
        for index in TABLE.indexes
        if index.pk in item
    ]


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        # Exact: integral amounts as JSON integers, others as their decimal string (never float).
        return int(value) if value == value.to_integral_value() else str(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def to_json(item: dict[str, Any]) -> str:
    """An item as indented JSON, Decimal-safe, attributes in name order."""
    return json.dumps(item, default=_json_default, indent=2, sort_keys=True, ensure_ascii=False)


def within_scope(page: CollectionPage, scope: AccessScope) -> CollectionPage:
    """The page as `scope` may see it: items of covered funds (each fund item names its fund);
    items that name no fund (audit, catalog) only beside a covered fund's items. A staff member
    covering some funds explores those funds only; `all_funds` sees every item."""
    if scope.all_funds:
        return page
    covered = [item for item in page.items if item.get(FUND_ATTRIBUTE) and scope.covers_fund(item[FUND_ATTRIBUTE])]
    if not covered:
        return replace(page, items=[], next_cursor=None)
    items = [item for item in page.items if not item.get(FUND_ATTRIBUTE) or scope.covers_fund(item[FUND_ATTRIBUTE])]
    return replace(page, items=items)
