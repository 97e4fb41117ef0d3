"""Domain entities, each declared once: its fields, the DynamoDB attribute each is stored in,
its defaults, and the indexes it belongs to. `to_item` / `from_item` are derived from that
declaration (`stored(...)` fields: `fundportal.dynamo.fields`), and every write goes through
`to_item`, which recomputes the index keys from the entity's own fields, so an index key can
never drift from its data.
Index attribute names come from the one schema definition (`schema.TABLE`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, ClassVar

from moneyed import Money

from fundportal.domain.money import CURRENCIES, money

from . import keys
from .fields import (
    DATE,
    DATETIME,
    INTEGER,
    NUMBER,
    OPTIONAL_TEXT,
    TEXT,
    decode_fields,
    encode_fields,
    index_attributes,
    stored,
)
from .keys import Kind
from .schema import ENTITY_INDEX, MONTH_INDEX, POSITION_INDEX

__all__ = ["CURRENCIES"]

LATEST = "Latest"
HISTORICAL = "Historical"
DOCUMENT_STATUSES = ("Active", "Draft", "Final")
# What kind of document it is (issue 15); set on create, shown and filtered on the list. A
# document stored without one (before types existed) reads as "other".
DOCUMENT_TYPES = (
    "capital_call_notice",
    "distribution_notice",
    "capital_account_statement",
    "quarterly_report",
    "other",
)
DEFAULT_DOCUMENT_TYPE = "other"
ACTIVITY_STATUSES = ("Pending", "Completed", "Cancelled")
ENTRY_STATUSES = ("Pending", "Completed", "Active", "Cancelled")


def utcnow() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


# --- entities -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Position:
    """A Fund + Investor combination (seed: FUND_A + INVESTOR_1 = POSITION_1)."""

    position_id: str
    fund_id: str
    investor_id: str

    def __post_init__(self) -> None:
        keys.validate_id(self.position_id, "position id")
        keys.validate_id(self.fund_id, "fund id")
        keys.validate_id(self.investor_id, "investor id")


@dataclass(frozen=True, slots=True)
class Versioned:
    """The document-level entities that keep superseded copies (PK = document, SK = version)."""

    KIND: ClassVar[Kind]

    document_id: str
    revision: int = stored("Revision", INTEGER, 1)
    latest: bool = True
    version_date: date | None = None  # date in a superseded copy's SK
    version_revision: int | None = None  # suffix in a superseded copy's SK
    updated_at: datetime | None = stored("UpdatedAt", DATETIME)
    updated_by: str | None = stored("UpdatedBy")

    @property
    def sk(self) -> str:
        if self.latest:
            return keys.latest_sk(self.KIND)
        assert self.version_date is not None
        return keys.historical_sk(self.KIND, self.version_date, self.version_revision)

    @property
    def version(self) -> str:
        return LATEST if self.latest else HISTORICAL

    def index_keys(self) -> dict[str, str]:
        return {}

    def to_item(self) -> dict[str, Any]:
        return {
            "PK": keys.document_pk(self.document_id),
            "SK": self.sk,
            "EntityType": self.KIND.entity_type,
            "Version": self.version,
            **encode_fields(self),
            **self.index_keys(),
        }

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> Any:
        parsed = keys.parse_sk(item["SK"])
        return cls(
            document_id=item["PK"],
            latest=parsed.latest,
            version_date=parsed.version_date,
            version_revision=parsed.revision,
            **decode_fields(cls, item),
        )

    def superseded(self, on: date) -> Any:
        """The copy to archive when this current version is replaced on `on`."""
        return replace(self, latest=False, version_date=on, version_revision=self.revision)


@dataclass(frozen=True, slots=True)
class Document(Versioned):
    KIND: ClassVar[Kind] = Kind.DOCUMENT

    title: str = stored("Title", TEXT, "")
    fund_id: str = stored("FundId", OPTIONAL_TEXT, "")
    as_of_date: date | None = stored("AsOfDate", DATE)
    status: str = stored("Status", TEXT, "Active")
    currency: str = stored("Currency", TEXT, "USD")
    document_type: str = stored("DocumentType", TEXT, DEFAULT_DOCUMENT_TYPE)

    def to_item(self) -> dict[str, Any]:
        item = Versioned.to_item(self)
        if not self.latest:
            item["Status"] = HISTORICAL  # the seed's superseded copies carry Status = Historical
        return item

    def index_keys(self) -> dict[str, str]:
        """Current documents only: the entity index, and the month index when dated (sparse)."""
        if not self.latest:
            return {}
        attributes = index_attributes(ENTITY_INDEX, *keys.entity_index_keys(Kind.DOCUMENT, self.document_id))
        if self.as_of_date:
            attributes.update(index_attributes(MONTH_INDEX, *keys.month_index_keys(self.as_of_date, self.document_id)))
        return attributes


@dataclass(frozen=True, slots=True)
class CapitalActivity(Versioned):
    KIND: ClassVar[Kind] = Kind.CAPITAL_ACTIVITY

    amount: Decimal = stored("Amount", NUMBER, Decimal(0))
    status: str = stored("Status", TEXT, "Pending")
    currency: str = stored("Currency", TEXT, "USD")
    as_of_date: date | None = stored("AsOfDate", DATE)

    @property
    def money(self) -> Money:
        return money(self.amount, self.currency)


@dataclass(frozen=True, slots=True)
class PositionEntry:
    """A position's capital call, distribution or unfunded commitment in one document."""

    KIND: ClassVar[Kind]

    document_id: str
    position_id: str = stored("PositionId", TEXT, "")
    fund_id: str = stored("FundId", TEXT, "")
    investor_id: str = stored("InvestorId", TEXT, "")
    amount: Decimal = stored("Amount", NUMBER, Decimal(0))
    status: str = stored("Status", TEXT, "Pending")
    currency: str = stored("Currency", TEXT, "USD")
    as_of_date: date | None = stored("AsOfDate", DATE)  # the document's, denormalised for the position index
    due_date: date | None = stored("DueDate", DATE)
    updated_at: datetime | None = stored("UpdatedAt", DATETIME)
    updated_by: str | None = stored("UpdatedBy")
    # Incremented on every change: the version a form showed (UpdatedAt is whole seconds).
    revision: int = stored("Revision", INTEGER, 1)

    @property
    def kind(self) -> Kind:
        return self.KIND

    @property
    def sk(self) -> str:
        return keys.entry_sk(self.KIND, self.position_id)

    @property
    def position(self) -> Position:
        return Position(self.position_id, self.fund_id, self.investor_id)

    @property
    def money(self) -> Money:
        return money(self.amount, self.currency)

    @property
    def flow_date(self) -> date | None:
        """When the cash moves: the due date when set, else the document's as-of date."""
        return self.due_date or self.as_of_date

    def index_keys(self) -> dict[str, str]:
        """Every entry is in the entity index and the position index."""
        return {
            **index_attributes(ENTITY_INDEX, *keys.entity_index_keys(self.KIND, self.document_id, self.position_id)),
            **index_attributes(
                POSITION_INDEX, *keys.position_index_keys(self.KIND, self.position_id, self.document_id)
            ),
        }

    def to_item(self) -> dict[str, Any]:
        return {
            "PK": keys.document_pk(self.document_id),
            "SK": self.sk,
            "EntityType": self.KIND.entity_type,
            "Version": LATEST,
            **encode_fields(self),
            **self.index_keys(),
        }

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> PositionEntry:
        entry_cls = ENTRY_CLASSES[Kind.from_entity_type(item["EntityType"])]
        return entry_cls(document_id=item["PK"], **decode_fields(entry_cls, item))


@dataclass(frozen=True, slots=True)
class CapitalCall(PositionEntry):
    KIND: ClassVar[Kind] = Kind.CAPITAL_CALL


@dataclass(frozen=True, slots=True)
class Distribution(PositionEntry):
    KIND: ClassVar[Kind] = Kind.DISTRIBUTION


@dataclass(frozen=True, slots=True)
class UnfundedCommitment(PositionEntry):
    KIND: ClassVar[Kind] = Kind.UNFUNDED_COMMITMENT


@dataclass(frozen=True, slots=True)
class NetAssetValue(PositionEntry):
    """The capital account's value (NAV) at the document's as-of date (issue 13)."""

    KIND: ClassVar[Kind] = Kind.NAV


ENTRY_CLASSES: dict[Kind, type[PositionEntry]] = {
    Kind.CAPITAL_CALL: CapitalCall,
    Kind.DISTRIBUTION: Distribution,
    Kind.UNFUNDED_COMMITMENT: UnfundedCommitment,
    Kind.NAV: NetAssetValue,
}


def entity_from_item(item: dict[str, Any]) -> Document | CapitalActivity | PositionEntry:
    kind = Kind.from_entity_type(item["EntityType"])
    if kind is Kind.DOCUMENT:
        return Document.from_item(item)
    if kind is Kind.CAPITAL_ACTIVITY:
        return CapitalActivity.from_item(item)
    return PositionEntry.from_item(item)


@dataclass(frozen=True, slots=True)
class MonthCatalogEntry:
    """A month that has had current documents (tiny catalog partition; the list's month menu)."""

    month: date

    def to_item(self) -> dict[str, Any]:
        pk, sk = keys.month_catalog_keys(self.month)
        return {"PK": pk, "SK": sk, "EntityType": "MonthCatalog"}


@dataclass(frozen=True, slots=True)
class SearchItem:
    """A normalised search key (issue 15): lets a case-insensitive id or id prefix find a
    document, position, fund or investor with one Query (`keys.search_keys`)."""

    kind: keys.SearchKind
    target_id: str

    def to_item(self) -> dict[str, Any]:
        pk, sk = keys.search_keys(self.kind, self.target_id)
        return {"PK": pk, "SK": sk, "EntityType": "SearchKey"}

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> SearchItem:
        return cls(*keys.parse_search_sk(item["SK"]))


def search_items_of(entity: Any) -> list[SearchItem]:
    """The search items a fund entity needs: a current document names itself and its fund; a
    position entry its position, fund and investor. Anything else needs none."""
    if isinstance(entity, Document) and entity.latest:
        found = [SearchItem(keys.SearchKind.DOCUMENT, entity.document_id)]
        return found + ([SearchItem(keys.SearchKind.FUND, entity.fund_id)] if entity.fund_id else [])
    if isinstance(entity, PositionEntry):
        ids = (
            (keys.SearchKind.POSITION, entity.position_id),
            (keys.SearchKind.FUND, entity.fund_id),
            (keys.SearchKind.INVESTOR, entity.investor_id),
        )
        return [SearchItem(kind, value) for kind, value in ids if value]
    return []


def search_items_of_item(item: dict[str, Any]) -> list[SearchItem]:
    """`search_items_of` for a stored item (bulk loads, backfill); [] for items that name none."""
    entity_type = item.get("EntityType")
    if entity_type == Kind.DOCUMENT.entity_type and item.get("SK") == keys.latest_sk(Kind.DOCUMENT):
        return search_items_of(Document.from_item(item))
    if entity_type in _ENTRY_TYPES:
        return search_items_of(PositionEntry.from_item(item))
    return []


_ENTRY_TYPES = frozenset(kind.entity_type for kind in ENTRY_CLASSES)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """Who changed what in a document, and when (its own `AUDIT#<doc>` partition)."""

    document_id: str = stored("DocumentId")
    at: datetime = stored("At", DATETIME)
    user: str = stored("User", TEXT, "")
    action: str = stored("Action", TEXT, "")
    target: str = stored("Target", TEXT, "")
    changes: dict[str, Any] = stored("Changes", TEXT, None)
    token: str = ""

    def to_item(self) -> dict[str, Any]:
        item = encode_fields(replace(self, changes={k: _jsonable(v) for k, v in (self.changes or {}).items()}))
        return {
            "PK": keys.audit_pk(self.document_id),
            "SK": keys.audit_sk(self.at.isoformat(timespec="microseconds"), self.token),
            "EntityType": "AuditEntry",
            **item,
        }

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> AuditEntry:
        values = decode_fields(cls, item)
        values["changes"] = values["changes"] or {}
        return cls(**values, token=keys.parse_audit_sk(item["SK"])[1])


def _jsonable(value: Any) -> Any:
    """Audit values: dates as ISO strings, Decimals kept, pairs as [old, new] lists."""
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def diff(old: Any, new: Any, names: tuple[str, ...]) -> dict[str, list[Any]]:
    """Field-by-field changes between two entities: {field: [old, new]}."""
    changes = {}
    for name in names:
        before = getattr(old, name, None) if old is not None else None
        after = getattr(new, name, None) if new is not None else None
        if before != after:
            changes[name] = [_jsonable(before), _jsonable(after)]
    return changes
