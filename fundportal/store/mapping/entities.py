"""Items in and out: `to_item` and `from_item` over every entity's `EntityMap` (the declaration in
`entity_map`; the maps per family in `document_maps`, `register_maps`, `companion_maps` and
`record_maps`). Every write goes through `to_item`, which computes the index keys from the
entity's own fields, so an index key can never drift from its data.
"""

from __future__ import annotations

from typing import Any

from fundportal.domain.kinds import Kind
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import PositionEntry

from ..schema import TABLE, TTL_ATTRIBUTE
from . import keys
from .companion_maps import FUND_CATALOG, MONTH_CATALOG, NAME_SEARCH, SEARCH
from .companions import SearchItem, search_items_of
from .document_maps import AUDIT, CAPITAL_ACTIVITY, DOCUMENT, ENTRY_MAPS
from .entity_map import EntityMap
from .expiry import throwaway_expiry
from .record_maps import FUND_RECORD, INVESTOR_RECORD, RECORD_AUDIT
from .register_maps import REGISTER

# --- items in and out -------------------------------------------------------------------------------------

MAPS: dict[type, EntityMap] = {
    m.cls: m
    for m in (
        *(DOCUMENT, CAPITAL_ACTIVITY, *ENTRY_MAPS.values(), AUDIT, REGISTER, MONTH_CATALOG, FUND_CATALOG, SEARCH),
        *(NAME_SEARCH, FUND_RECORD, INVESTOR_RECORD, RECORD_AUDIT),
    )
}
_ENTRY_BY_TYPE: dict[str, EntityMap] = {m.entity_type: m for m in ENTRY_MAPS.values()}
# The entities of a document's partition: the document, its capital activity, its entries.
_DOCUMENT_ENTITY_BY_TYPE = {m.entity_type: m for m in (DOCUMENT, CAPITAL_ACTIVITY, *ENTRY_MAPS.values())}


def to_item(entity: Any) -> dict[str, Any]:
    """The DynamoDB item of an entity (or store record): keys on the table and every index, its
    EntityType and its attributes (and a time to live on the explainer's throwaway items)."""
    item = MAPS[type(entity)].to_item(entity)
    expires = throwaway_expiry(entity)
    if expires is not None:
        item[TTL_ATTRIBUTE] = expires
    return item


def from_item(cls: type, item: dict[str, Any]) -> Any:
    """The `cls` an item holds; `PositionEntry` reads any entry as its own kind's class."""
    if cls is PositionEntry:
        return _ENTRY_BY_TYPE[item["EntityType"]].from_item(item)
    return MAPS[cls].from_item(item)


def entity_from_item(item: dict[str, Any]) -> Document | CapitalActivity | PositionEntry:
    """The entity of an item of a document's partition (document, capital activity or entry)."""
    return _DOCUMENT_ENTITY_BY_TYPE[item["EntityType"]].from_item(item)


def sort_key(entity: Any) -> str:
    """An entity's SK (superseded copies sort newest first by it)."""
    return MAPS[type(entity)].table(entity)[1]


def companions_of(entity: Any) -> list[Any]:
    """The companion items `entity`'s write brings along, in the order they are put ([]: none)."""
    declared = MAPS[type(entity)].companions
    return declared(entity) if declared is not None else []


# --- search items ----------------------------------------------------------------------------------------


def search_items_of_item(item: dict[str, Any]) -> list[SearchItem]:
    """`search_items_of` for a stored item (bulk loads, backfill); [] for items that name none."""
    entity_type = item.get("EntityType")
    if entity_type == DOCUMENT.entity_type and item.get(TABLE.sk) == keys.latest_sk(Kind.DOCUMENT):
        return search_items_of(DOCUMENT.from_item(item))
    if entity_type in _ENTRY_BY_TYPE:
        return search_items_of(_ENTRY_BY_TYPE[entity_type].from_item(item))
    return []
