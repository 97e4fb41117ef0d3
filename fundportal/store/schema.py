"""The one definition of the table and its indexes (used by create_table, drift checks,
export_table_definition, the admin dashboard and the tests)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

ENTITY_INDEX = "GSI_Entity_Document"
POSITION_INDEX = "GSI_Position_Document"
MONTH_INDEX = "GSI_Latest_Documents_By_Month"
INVESTOR_INDEX = "GSI_Investor_Position"
DOCUMENT_INDEX = "GSI_Document_Position"
FUND_INDEX = "GSI_Fund_Position"
# A changed index is built beside the old one as `<name>_v<version>` (IndexDef.physical_name).
VERSION_SEPARATOR = "_v"
# Epoch seconds after which DynamoDB's TTL deletes an item: written only on items meant to expire
# (published import runs, the access-pattern explainer's throwaway items); the seed's items never.
TTL_ATTRIBUTE = "expires_at"

# Attributes the position page, CSV and reports read from the position index.
POSITION_PROJECTION = (
    "EntityType",
    "PositionId",
    "FundId",
    "InvestorId",
    "Amount",
    "Status",
    "Currency",
    "AsOfDate",
    "DueDate",
    # The position register, sorted first in the position's partition: the position
    # page's headline figures, commitment and IRR come from it in the same Query.
    "Commitment",
    "Rollup",
    "Revision",
    # An entry's UpdatedAt ranks it in the "latest unfunded / NAV" rule: the register's recount
    # of a latest figure reads the entries from this index.
    "UpdatedAt",
    # The capital account's kinds and the splits (`mapping.entry_parts`): the position page,
    # exports and statements read a fee line, a carry stage or a split from this index too.
    "FeeLine",
    "CarryStage",
    "ManagementFee",
    "PartnershipExpense",
    "OutsideCommitment",
    "ReturnOfCapital",
    "Gain",
    "Income",
    "Recallable",
    # A kept entry value's own fields (EntryVersion: the parts above, as a map).
    "Parts",
    # The entry's copies of its document's title and type: the position page shows and filters
    # them from this index alone (written with every entry; `backfill_indexes` fills older ones).
    "DocumentTitle",
    "DocumentType",
)
# The fund page's slim register copy: ids, currency, commitment and `Lines` (the roll-up
# without dated flows, `codecs.register_lines_out`), never the whole `Rollup`.
FUND_PROJECTION = ("PositionId", "FundId", "InvestorId", "Currency", "Commitment", "Revision", "UpdatedAt", "Lines")
# Attributes the document list shows.
# DocumentType: the list shows and filters it from the index alone.
MONTH_PROJECTION = ("Title", "FundId", "AsOfDate", "Status", "Revision", "Currency", "UpdatedAt", "DocumentType")


@dataclass(frozen=True)
class IndexDef:
    """One global secondary index. `name` is what the code asks for; `version` names the index
    on the table (`physical_name`): an index is never changed in place (DynamoDB cannot change
    keys or a projection, and a page reads it meanwhile), so a changed definition gets the next
    version, built beside the old one (`tables.upgrade`)."""

    name: str
    pk: str
    sk: str
    projection: str  # ALL | KEYS_ONLY | INCLUDE
    non_key_attributes: tuple[str, ...] = ()
    why: str = ""
    version: int = 1

    @property
    def physical_name(self) -> str:
        """The index's name on the table: `name`, then `name_v2`, `name_v3`... as it changes."""
        return self.name if self.version == 1 else f"{self.name}{VERSION_SEPARATOR}{self.version}"

    def to_api(self) -> dict[str, Any]:
        projection: dict[str, Any] = {"ProjectionType": self.projection}
        if self.non_key_attributes:
            projection["NonKeyAttributes"] = list(self.non_key_attributes)
        return {
            "IndexName": self.physical_name,
            "KeySchema": [
                {"AttributeName": self.pk, "KeyType": "HASH"},
                {"AttributeName": self.sk, "KeyType": "RANGE"},
            ],
            "Projection": projection,
        }


@dataclass(frozen=True)
class TableDef:
    pk: str = "PK"
    sk: str = "SK"
    billing_mode: str = "PAY_PER_REQUEST"
    indexes: tuple[IndexDef, ...] = field(default_factory=tuple)

    def attribute_names(self) -> list[str]:
        names = [self.pk, self.sk]
        for index in self.indexes:
            names += [index.pk, index.sk]
        return names

    def create_table_kwargs(self, table_name: str) -> dict[str, Any]:
        return {
            "TableName": table_name,
            "BillingMode": self.billing_mode,
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"} for n in self.attribute_names()],
            "KeySchema": [
                {"AttributeName": self.pk, "KeyType": "HASH"},
                {"AttributeName": self.sk, "KeyType": "RANGE"},
            ],
            "GlobalSecondaryIndexes": [index.to_api() for index in self.indexes],
        }

    def index(self, name: str) -> IndexDef:
        return next(i for i in self.indexes if i.name == name)

    def physical_name(self, name: str) -> str:
        """The table's name of the index the code calls `name` (its current version); a name
        that is no defined index is passed on as it is (DynamoDB answers for it)."""
        found = next((i for i in self.indexes if i.name == name), None)
        return found.physical_name if found else name

    def physical_names(self) -> set[str]:
        return {index.physical_name for index in self.indexes}


TABLE = TableDef(
    indexes=(
        IndexDef(
            ENTITY_INDEX,
            "GSI_PK",
            "GSI_SK",
            "ALL",
            why="Direct look-ups of one current entity return the whole item; only current documents "
            "and position entries carry GSI_PK, so the index stays small.",
        ),
        IndexDef(
            POSITION_INDEX,
            "GSI2_PK",
            "GSI2_SK",
            "INCLUDE",
            POSITION_PROJECTION,
            why="The position page needs amounts, status and document dates only; INCLUDE keeps reads "
            "and index storage to what it shows.",
            # Kept at version 1 (its name) although its projection grew with the capital account's
            # kinds and the documents' title and type copies: the seed article's own query names
            # this index, so it keeps its name; a table from before is rebuilt in place (README,
            # "Changing an index safely").
        ),
        IndexDef(
            MONTH_INDEX,
            "GSI3_PK",
            "GSI3_SK",
            "INCLUDE",
            MONTH_PROJECTION,
            why="Sparse: only current documents carry GSI3_PK (LATEST_DOCS#YYYY-MM), so listing a "
            "month reads just the list columns, never a Scan.",
        ),
        IndexDef(
            INVESTOR_INDEX,
            "GSI4_PK",
            "GSI4_SK",
            "ALL",
            why="Sparse: only position registers carry GSI4_PK (INVESTOR#<id>), so an investor's "
            "positions are one Query, kept right by the register's own write (no copy item to keep in step).",
        ),
        IndexDef(
            DOCUMENT_INDEX,
            "GSI5_PK",
            "GSI5_SK",
            "ALL",
            why="A document's current items grouped by position (GSI5_SK = <position>#<kind>, the document "
            "and its capital activity first): a long document page reads its 100 positions in one Query. "
            "ALL: the page shows every attribute of these small items; superseded copies are left out.",
        ),
        IndexDef(
            FUND_INDEX,
            "GSI6_PK",
            "GSI6_SK",
            "INCLUDE",
            FUND_PROJECTION,
            why="Sparse: only position registers carry GSI6_PK (FUND#<id>); the fund page reads 100 slim "
            "copies a page (no dated cash flows: a few hundred bytes each, whatever a position's history).",
        ),
    )
)


def describe_differences(live: dict[str, Any], definition: TableDef = TABLE) -> list[str]:
    """Compare a DescribeTable 'Table' dict with the definition; return human-readable drifts."""
    problems: list[str] = []
    key_schema = {k["KeyType"]: k["AttributeName"] for k in live.get("KeySchema", [])}
    if key_schema != {"HASH": definition.pk, "RANGE": definition.sk}:
        problems.append(f"base key schema is {key_schema}, expected HASH={definition.pk}, RANGE={definition.sk}")
    billing = live.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED")
    if billing != definition.billing_mode:
        problems.append(f"billing mode is {billing}, expected {definition.billing_mode}")
    live_indexes = {i["IndexName"]: i for i in live.get("GlobalSecondaryIndexes", [])}
    for index in definition.indexes:
        got = live_indexes.pop(index.physical_name, None)
        if got is None:
            problems.append(f"index {index.physical_name} is missing")
            continue
        got_keys = {k["KeyType"]: k["AttributeName"] for k in got["KeySchema"]}
        if got_keys != {"HASH": index.pk, "RANGE": index.sk}:
            problems.append(
                f"index {index.physical_name} keys are {got_keys}, expected HASH={index.pk}, RANGE={index.sk}"
            )
        projection = got.get("Projection", {})
        if projection.get("ProjectionType") != index.projection:
            problems.append(
                f"index {index.physical_name} projection is {projection.get('ProjectionType')}, "
                f"expected {index.projection}"
            )
        elif set(projection.get("NonKeyAttributes", [])) != set(index.non_key_attributes):
            problems.append(
                f"index {index.physical_name} projects {sorted(projection.get('NonKeyAttributes', []))}, "
                f"expected {sorted(index.non_key_attributes)}"
            )
    for extra in live_indexes:
        if not is_retired(extra, definition):  # an earlier version is kept until dropped, not drift
            problems.append(f"index {extra} is not in the definition")
    return problems


def is_retired(live_name: str, definition: TableDef = TABLE) -> bool:
    """Whether a live index is an earlier version of a defined one (the same code name)."""
    if live_name in definition.physical_names():
        return False
    versioned = re.fullmatch(rf"(.+){VERSION_SEPARATOR}[0-9]+", live_name)
    base = versioned.group(1) if versioned else live_name
    return any(index.name == base for index in definition.indexes)
