"""Companion items: the constant items an entity's write brings along so that the indexes built
of them list it (the month catalog, the funds catalog, the search partitions). They are store
records, not entities: nothing outside the store names them. Each entity's declaration
(`entities.EntityMap.companions`) names the function below that says which it needs; the unit of
work puts them when a write asks for them (`uow.put(entity, ..., companions=True)`).

- A current document: its month (month catalog), its fund (funds catalog), and the search items
  of its id and its fund's.
- A position register written for the first time (the position's first entry): the search items
  of its position and its investor (its fund's comes with the fund's documents).

Every companion is constant (the same item whoever writes it): put without a condition, once per
transaction (a transaction touches an item once).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from fundportal.domain.kinds import SearchKind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister


@dataclass(frozen=True, slots=True)
class MonthCatalogEntry:
    """A month that has had current documents (tiny catalog partition; the list's month menu)."""

    month: date


@dataclass(frozen=True, slots=True)
class FundCatalogEntry:
    """A fund that has registered positions (tiny catalog partition; the funds list)."""

    fund_id: str


@dataclass(frozen=True, slots=True)
class SearchItem:
    """A normalised search key: lets a case-insensitive id or id prefix find a document,
    position, fund or investor with one Query (`keys.search_keys`). A document's and a position's
    item also names its fund (and a position's its investor), so search filters hits by the
    reader's access scope with no further read; an investor's names no fund (an investor may be
    in several, and a companion item is the same whoever writes it). Those two are not part of
    the item's identity (its keys)."""

    kind: SearchKind
    target_id: str
    fund_id: str = field(default="", compare=False)
    investor_id: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class NameSearchItem:
    """A search item of a fund's or an investor's name (`keys.name_search_keys`): one per term
    the name is found by (`fundportal.domain.records.name_search_terms`), in the id search's
    partitions, read back as a `SearchItem` of the id it names. A fund's names its fund, an
    investor's its investor, so search filters hits by scope as it does for ids."""

    kind: SearchKind
    target_id: str
    term: str
    fund_id: str = field(default="", compare=False)
    investor_id: str = field(default="", compare=False)


def search_items_of(entity: Any) -> list[SearchItem]:
    """The search items a fund entity needs: a current document names itself and its fund; a
    position entry its position, fund and investor. Anything else needs none."""
    if isinstance(entity, Document) and entity.latest:
        found = [SearchItem(SearchKind.DOCUMENT, entity.document_id, entity.fund_id)]
        return found + ([SearchItem(SearchKind.FUND, entity.fund_id, entity.fund_id)] if entity.fund_id else [])
    if isinstance(entity, PositionEntry):
        return _position_items(entity.position_id, entity.fund_id, entity.investor_id, with_fund=True)
    return []


def _position_items(position_id: str, fund_id: str, investor_id: str, *, with_fund: bool) -> list[SearchItem]:
    found = []
    if position_id:
        found.append(SearchItem(SearchKind.POSITION, position_id, fund_id, investor_id))
    if fund_id and with_fund:
        found.append(SearchItem(SearchKind.FUND, fund_id, fund_id))
    if investor_id:
        found.append(SearchItem(SearchKind.INVESTOR, investor_id, "", investor_id))
    return found


def document_companions(document: Document) -> list[Any]:
    if not document.latest:
        return []  # a superseded copy is in no index
    found: list[Any] = [MonthCatalogEntry(document.as_of_date)] if document.as_of_date else []
    if document.fund_id:  # the funds list's catalog entry comes with the fund's documents
        found.append(FundCatalogEntry(document.fund_id))
    return found + search_items_of(document)


def register_companions(register: PositionRegister) -> list[Any]:
    return _position_items(register.position_id, register.fund_id, register.investor_id, with_fund=False)


NAMES = {
    MonthCatalogEntry: "month catalog",
    FundCatalogEntry: "fund catalog",
    SearchItem: "search",
    NameSearchItem: "name search",
}


def companion_name(companion: Any) -> str:
    """The name of a companion's action ("month catalog", "fund catalog", "search")."""
    return NAMES[type(companion)]
