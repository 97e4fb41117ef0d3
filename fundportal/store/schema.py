"""The one definition of the table and its indexes (used by create_table, drift checks,
export_table_definition, the admin dashboard and the tests)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ENTITY_INDEX = "GSI_Entity_Document"
POSITION_INDEX = "GSI_Position_Document"
MONTH_INDEX = "GSI_Latest_Documents_By_Month"
INVESTOR_INDEX = "GSI_Investor_Position"
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
)
# Attributes the document list shows.
# DocumentType: the list shows and filters it from the index alone.
MONTH_PROJECTION = ("Title", "FundId", "AsOfDate", "Status", "Revision", "Currency", "UpdatedAt", "DocumentType")


@dataclass(frozen=True)
class IndexDef:
    name: str
    pk: str
    sk: str
    projection: str  # ALL | KEYS_ONLY | INCLUDE
    non_key_attributes: tuple[str, ...] = ()
    why: str = ""

    def to_api(self) -> dict[str, Any]:
        projection: dict[str, Any] = {"ProjectionType": self.projection}
        if self.non_key_attributes:
            projection["NonKeyAttributes"] = list(self.non_key_attributes)
        return {
            "IndexName": self.name,
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
        got = live_indexes.pop(index.name, None)
        if got is None:
            problems.append(f"index {index.name} is missing")
            continue
        got_keys = {k["KeyType"]: k["AttributeName"] for k in got["KeySchema"]}
        if got_keys != {"HASH": index.pk, "RANGE": index.sk}:
            problems.append(f"index {index.name} keys are {got_keys}, expected HASH={index.pk}, RANGE={index.sk}")
        projection = got.get("Projection", {})
        if projection.get("ProjectionType") != index.projection:
            problems.append(
                f"index {index.name} projection is {projection.get('ProjectionType')}, expected {index.projection}"
            )
        elif set(projection.get("NonKeyAttributes", [])) != set(index.non_key_attributes):
            problems.append(
                f"index {index.name} projects {sorted(projection.get('NonKeyAttributes', []))}, "
                f"expected {sorted(index.non_key_attributes)}"
            )
    for extra in live_indexes:
        problems.append(f"index {extra} is not in the definition")
    return problems
