"""How the companion items are stored: the month and fund catalogs and the search items."""

from __future__ import annotations

from typing import Any

from ..schema import TABLE
from . import keys
from .codecs import OPTIONAL_TEXT
from .companions import FundCatalogEntry, MonthCatalogEntry, NameSearchItem, SearchItem
from .entity_map import Attribute, EntityMap

FUND_CATALOG_TYPE = "FundCatalog"
MONTH_CATALOG_TYPE = "MonthCatalog"
SEARCH_TYPE = "SearchKey"


# --- companion items: catalogs and search keys (store records, not entities; `companions`) ------------


def _read_search_keys(item: dict[str, Any], values: dict[str, Any]) -> None:
    values["kind"], values["target_id"] = keys.parse_search_sk(item[TABLE.sk])


MONTH_CATALOG = EntityMap(MonthCatalogEntry, MONTH_CATALOG_TYPE, table=lambda m: keys.month_catalog_keys(m.month))
FUND_CATALOG = EntityMap(FundCatalogEntry, FUND_CATALOG_TYPE, table=lambda f: keys.fund_catalog_keys(f.fund_id))
SEARCH = EntityMap(
    SearchItem,
    SEARCH_TYPE,
    table=lambda s: keys.search_keys(s.kind, s.target_id),
    attributes=(
        Attribute("fund_id", "FundId", OPTIONAL_TEXT, ""),
        Attribute("investor_id", "InvestorId", OPTIONAL_TEXT, ""),
    ),
    read_keys=_read_search_keys,
)


NAME_SEARCH = EntityMap(
    NameSearchItem,
    SEARCH_TYPE,
    table=lambda s: keys.name_search_keys(s.kind, s.target_id, s.term),
    attributes=(
        Attribute("fund_id", "FundId", OPTIONAL_TEXT, ""),
        Attribute("investor_id", "InvestorId", OPTIONAL_TEXT, ""),
    ),
)
