"""How each entity is stored, declared once: its attributes (name, codec, default) and its keys
on the table and on every index together, as one `EntityMap` per entity. `to_item` and
`from_item` derive from those declarations alone, and every write goes through `to_item`, which
computes the index keys from the entity's own fields, so an index key can never drift from its
data. An index key function returning None leaves the item out of that (sparse) index.
Key strings come from `keys`; attribute names of the indexes from the one schema (`schema.TABLE`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.kinds import APPROVED, DEFAULT_DOCUMENT_TYPE, HISTORICAL, LATEST, Kind
from fundportal.domain.model import CapitalActivity, Document, Versioned
from fundportal.domain.position_entries import ENTRY_CLASSES, PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.records import FundRecord, InvestorRecord, RecordAudit

from ..schema import (
    DOCUMENT_INDEX,
    ENTITY_INDEX,
    FUND_INDEX,
    INVESTOR_INDEX,
    MONTH_INDEX,
    POSITION_INDEX,
    TABLE,
    TTL_ATTRIBUTE,
)
from . import keys
from .codecs import (
    APPROVAL,
    AUDIT_CHANGES,
    COMMITMENT,
    DATE,
    DATETIME,
    INTEGER,
    MARKERS,
    NUMBER,
    OPTIONAL_TEXT,
    REGISTER_ROLLUP,
    RESTATED,
    TEXT,
    Codec,
    commitment_history_in,
    read_awaiting,
    register_lines_out,
    register_rollup_out,
)
from .companions import (
    FundCatalogEntry,
    MonthCatalogEntry,
    NameSearchItem,
    SearchItem,
    document_companions,
    register_companions,
    search_items_of,
)
from .entry_parts import ENTRY_PARTS
from .expiry import throwaway_expiry

REGISTER_TYPE = "PositionRegister"
# The former investor copy of a register (see keys.legacy_investor_copy_sk): maintenance only.
LEGACY_INVESTOR_COPY_TYPE = "PositionRegisterInvestorCopy"
FUND_CATALOG_TYPE = "FundCatalog"
MONTH_CATALOG_TYPE = "MonthCatalog"
SEARCH_TYPE = "SearchKey"
AUDIT_TYPE = "AuditEntry"
FUND_RECORD_TYPE = "FundRecord"
INVESTOR_RECORD_TYPE = "InvestorRecord"
RECORD_AUDIT_TYPE = "RecordAudit"
RECORD_TYPES = frozenset((FUND_RECORD_TYPE, INVESTOR_RECORD_TYPE))
REGISTER_TYPES = frozenset((REGISTER_TYPE,))
# Attributes of the register the position page reads from GSI_Position_Document (schema INCLUDE).
REGISTER_PROJECTION = ("Commitment", "Rollup", "Revision")

KeyPair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Attribute:
    """A field kept in DynamoDB attribute `name`; `default` when the item lacks it; `value`
    (optional) computes what is kept from the whole entity instead of the field alone."""

    field: str
    name: str
    codec: Codec = TEXT
    default: Any = None
    value: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class EntityMap:
    """One entity's storage: its class, EntityType, attributes, and keys per index (the table's
    own PK/SK under `TABLE.name`). `stamp` adds constant attributes (Version); `read_keys` sets
    the fields an item holds only in its keys (a document id in PK, a version in SK);
    `companions` names the constant items its write brings along for the catalog and search
    indexes (`companions`)."""

    cls: type
    entity_type: str
    table: Callable[[Any], KeyPair]
    attributes: tuple[Attribute, ...] = ()
    indexes: dict[str, Callable[[Any], KeyPair | None]] = field(default_factory=dict)
    stamp: Callable[[Any], dict[str, Any]] | None = None
    read_keys: Callable[[dict[str, Any], dict[str, Any]], None] | None = None
    companions: Callable[[Any], list[Any]] | None = None
    # Derived once: (field, attribute, decode or None for a value kept as read, default).
    decoders: tuple[tuple[str, str, Callable[[Any], Any] | None, Any], ...] = field(init=False)
    index_names: tuple[tuple[str, str, Callable[[Any], KeyPair | None]], ...] = field(init=False)

    def __post_init__(self) -> None:
        decoders = tuple(
            (a.field, a.name, None if a.codec.reads_as_is else a.codec.decode, a.default) for a in self.attributes
        )
        object.__setattr__(self, "decoders", decoders)
        names = tuple((TABLE.index(n).pk, TABLE.index(n).sk, keys_of) for n, keys_of in self.indexes.items())
        object.__setattr__(self, "index_names", names)

    def to_item(self, entity: Any) -> dict[str, Any]:
        pk, sk = self.table(entity)
        item = {TABLE.pk: pk, TABLE.sk: sk, "EntityType": self.entity_type}
        if self.stamp is not None:
            item.update(self.stamp(entity))
        for attribute in self.attributes:
            raw = attribute.value(entity) if attribute.value else getattr(entity, attribute.field)
            value = attribute.codec.encode(raw)
            if value is not None:
                item[attribute.name] = value
        for pk_name, sk_name, keys_of in self.index_names:
            found = keys_of(entity)
            if found is not None:
                item[pk_name], item[sk_name] = found
        return item

    def from_item(self, item: dict[str, Any]) -> Any:
        values = {}
        for name, attribute, decode, default in self.decoders:
            raw = item.get(attribute)
            values[name] = default if raw is None else raw if decode is None else decode(raw)
        if self.read_keys is not None:
            self.read_keys(item, values)
        return self.cls(**values)


# --- documents and capital activity -------------------------------------------------------------------


def _version_keys(entity: Versioned) -> KeyPair:
    if entity.latest:
        return keys.document_pk(entity.document_id), keys.latest_sk(entity.KIND)
    assert entity.version_date is not None
    return keys.document_pk(entity.document_id), keys.historical_sk(
        entity.KIND, entity.version_date, entity.version_revision
    )


def _read_version(item: dict[str, Any], values: dict[str, Any]) -> None:
    parsed = keys.parse_sk(item[TABLE.sk])
    values["document_id"] = item[TABLE.pk]
    values["latest"] = parsed.latest
    values["version_date"] = parsed.version_date
    values["version_revision"] = parsed.revision


def _version(entity: Versioned) -> dict[str, str]:
    return {"Version": entity.version}


VERSIONED_ATTRIBUTES = (
    Attribute("revision", "Revision", INTEGER, 1),
    Attribute("updated_at", "UpdatedAt", DATETIME),
    Attribute("updated_by", "UpdatedBy"),
    Attribute("superseded_at", "SupersededAt", DATETIME),
)

# A superseded document keeps the seed's Status = Historical; the status it had is kept beside it.
STATUS_BEFORE = "StatusBefore"


def _document_stamp(document: Document) -> dict[str, str]:
    stamp = _version(document)
    if not document.latest and document.status != HISTORICAL:
        stamp[STATUS_BEFORE] = document.status
    return stamp


def _read_document_version(item: dict[str, Any], values: dict[str, Any]) -> None:
    _read_version(item, values)
    if item.get(STATUS_BEFORE):
        values["status"] = item[STATUS_BEFORE]


DOCUMENT = EntityMap(
    Document,
    Kind.DOCUMENT.entity_type,
    table=_version_keys,
    attributes=(
        *VERSIONED_ATTRIBUTES,
        Attribute("title", "Title", TEXT, ""),
        Attribute("fund_id", "FundId", OPTIONAL_TEXT, ""),
        Attribute("as_of_date", "AsOfDate", DATE),
        # The seed's superseded copies carry Status = Historical.
        Attribute("status", "Status", TEXT, "Active", value=lambda d: d.status if d.latest else HISTORICAL),
        Attribute("currency", "Currency", TEXT, "USD"),
        Attribute("document_type", "DocumentType", TEXT, DEFAULT_DOCUMENT_TYPE),
        Attribute("approval", "Approval", APPROVAL, APPROVED),
        Attribute("approval_by", "ApprovalBy"),
        Attribute("approval_at", "ApprovalAt", DATETIME),
        Attribute("purpose", "Purpose", OPTIONAL_TEXT, ""),  # kept only on fund-wide notices
        Attribute("counted_revision", "CountedRevision", INTEGER),
    ),
    indexes={
        # Current documents only; the month index also only when dated (sparse).
        ENTITY_INDEX: lambda d: keys.entity_index_keys(Kind.DOCUMENT, d.document_id) if d.latest else None,
        MONTH_INDEX: lambda d: (
            keys.month_index_keys(d.as_of_date, d.document_id) if d.latest and d.as_of_date else None
        ),
        # First in the document's page index (long document pages read it with their positions).
        DOCUMENT_INDEX: lambda d: keys.document_index_keys(Kind.DOCUMENT, d.document_id) if d.latest else None,
    },
    stamp=_document_stamp,
    read_keys=_read_document_version,
    companions=document_companions,
)

CAPITAL_ACTIVITY = EntityMap(
    CapitalActivity,
    Kind.CAPITAL_ACTIVITY.entity_type,
    table=_version_keys,
    attributes=(
        *VERSIONED_ATTRIBUTES,
        Attribute("amount", "Amount", NUMBER, Decimal(0)),
        Attribute("status", "Status", TEXT, "Pending"),
        Attribute("currency", "Currency", TEXT, "USD"),
        Attribute("as_of_date", "AsOfDate", DATE),
    ),
    indexes={
        # The current copy, beside the document first in the document's page index.
        DOCUMENT_INDEX: lambda a: keys.document_index_keys(Kind.CAPITAL_ACTIVITY, a.document_id) if a.latest else None,
    },
    stamp=_version,
    read_keys=_read_version,
)


# --- position entries ---------------------------------------------------------------------------------


def _read_document_id(item: dict[str, Any], values: dict[str, Any]) -> None:
    values["document_id"] = item[TABLE.pk]


_LATEST_VERSION = {"Version": LATEST}


def _entry_map(cls: type[PositionEntry]) -> EntityMap:
    kind = cls.KIND
    return EntityMap(
        cls,
        kind.entity_type,
        table=lambda e: (keys.document_pk(e.document_id), keys.entry_sk(kind, e.position_id)),
        attributes=(
            Attribute("position_id", "PositionId", TEXT, ""),
            Attribute("fund_id", "FundId", TEXT, ""),
            Attribute("investor_id", "InvestorId", TEXT, ""),
            Attribute("amount", "Amount", NUMBER, Decimal(0)),
            Attribute("status", "Status", TEXT, "Pending"),
            Attribute("currency", "Currency", TEXT, "USD"),
            Attribute("as_of_date", "AsOfDate", DATE),  # the document's, denormalised for the position index
            Attribute("due_date", "DueDate", DATE),
            Attribute("updated_at", "UpdatedAt", DATETIME),
            Attribute("updated_by", "UpdatedBy"),
            Attribute("revision", "Revision", INTEGER, 1),
            Attribute("restated", "Restated", RESTATED),
            *(Attribute(*part) for part in ENTRY_PARTS.get(kind, ())),
        ),
        indexes={
            # Every entry is in the entity index and the position index.
            ENTITY_INDEX: lambda e: keys.entity_index_keys(kind, e.document_id, e.position_id),
            POSITION_INDEX: lambda e: keys.position_index_keys(kind, e.position_id, e.document_id),
            # Grouped by position in the document's page index (a long document page).
            DOCUMENT_INDEX: lambda e: keys.document_index_keys(kind, e.document_id, e.position_id),
        },
        stamp=lambda _: _LATEST_VERSION,
        read_keys=_read_document_id,
    )


ENTRY_MAPS = {kind: _entry_map(cls) for kind, cls in ENTRY_CLASSES.items()}


# --- audit trail ----------------------------------------------------------------------------------------


def _audit_keys(audit: Any) -> KeyPair:
    """A document's trail (`AUDIT#<document>`), or a position's (`AUDIT#POSITION#<position>`) for a
    position-level write (commitment)."""
    pk = keys.position_audit_pk(audit.position_id) if audit.position_id else keys.audit_pk(audit.document_id)
    return pk, keys.audit_sk(audit.at.isoformat(timespec="microseconds"), audit.token)


def _read_audit_keys(item: dict[str, Any], values: dict[str, Any]) -> None:
    values["changes"] = values["changes"] or {}
    values["token"] = keys.parse_audit_sk(item[TABLE.sk])[1]
    values["position_id"] = keys.parse_position_audit_pk(item[TABLE.pk])
    if values["position_id"]:
        values["document_id"] = None


AUDIT = EntityMap(
    AuditEntry,
    AUDIT_TYPE,
    table=_audit_keys,
    attributes=(
        # A position's audit item keeps its position id here (as it always has).
        Attribute("document_id", "DocumentId", value=lambda a: a.document_id or a.position_id),
        Attribute("at", "At", DATETIME),
        Attribute("user", "User", TEXT, ""),
        Attribute("action", "Action", TEXT, ""),
        Attribute("target", "Target", TEXT, ""),
        Attribute("changes", "Changes", AUDIT_CHANGES),
    ),
    read_keys=_read_audit_keys,
)


# --- position register ------------------------------------------------------------------------------------


def _read_register_extras(item: dict[str, Any], values: dict[str, Any]) -> None:
    """The commitment's dated history and the awaiting-approval part, held inside attributes."""
    values["commitments"] = commitment_history_in(item.get("Commitment"))
    read_awaiting(item, values)


REGISTER = EntityMap(
    PositionRegister,
    REGISTER_TYPE,
    table=lambda r: (keys.register_pk(r.position_id), keys.register_sk()),
    attributes=(
        Attribute("position_id", "PositionId"),
        Attribute("fund_id", "FundId", TEXT, ""),
        Attribute("investor_id", "InvestorId", TEXT, ""),
        Attribute("currency", "Currency", TEXT, "USD"),
        # The commitment effective today, and its dated history when one is recorded (codecs).
        Attribute("commitment", "Commitment", COMMITMENT, value=lambda r: (r.commitment, r.commitments)),
        Attribute("revision", "Revision", INTEGER, 0),
        Attribute("rollup", "Rollup", REGISTER_ROLLUP, value=register_rollup_out),
        Attribute("updated_at", "UpdatedAt", DATETIME),
        Attribute("updated_by", "UpdatedBy", OPTIONAL_TEXT, ""),
        Attribute("imports", "Imports", MARKERS, ()),
    ),
    read_keys=_read_register_extras,
    # The fund page's slim copy (no dated flows), projected by its index instead of Rollup.
    stamp=lambda r: {"Lines": register_lines_out(r)},
    indexes={
        # The fund page and every reader by fund (slim copies only: a register is never copied
        # whole under its fund's one index key), first in the position page (position index),
        # the investor page.
        FUND_INDEX: lambda r: keys.fund_page_index_keys(r.fund_id, r.position_id),
        POSITION_INDEX: lambda r: keys.register_position_index_keys(r.position_id),
        INVESTOR_INDEX: lambda r: keys.investor_index_keys(r.investor_id, r.position_id),
    },
    companions=register_companions,  # asked for when the position's first entry registers it
)


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


# --- fund and investor records (the fund's beside its summary shards, the investor's in its index) ---

RECORD_STAMP = (
    Attribute("revision", "Revision", INTEGER, 0),
    Attribute("updated_at", "UpdatedAt", DATETIME),
    Attribute("updated_by", "UpdatedBy", OPTIONAL_TEXT, ""),
)

FUND_RECORD = EntityMap(
    FundRecord,
    FUND_RECORD_TYPE,
    table=lambda r: keys.fund_record_keys(r.fund_id),
    attributes=(
        Attribute("fund_id", "FundId"),
        Attribute("name", "Name", TEXT, ""),
        Attribute("legal_name", "LegalName", OPTIONAL_TEXT, ""),
        Attribute("vintage", "Vintage", INTEGER),
        Attribute("currency", "Currency", TEXT, "USD"),
        Attribute("gp", "GP", OPTIONAL_TEXT, ""),
        *RECORD_STAMP,
    ),
)

INVESTOR_RECORD = EntityMap(
    InvestorRecord,
    INVESTOR_RECORD_TYPE,
    table=lambda r: keys.investor_record_keys(r.investor_id),
    attributes=(
        Attribute("investor_id", "InvestorId"),
        Attribute("name", "Name", TEXT, ""),
        Attribute("investor_type", "InvestorType", TEXT, "other"),
        *RECORD_STAMP,
    ),
    indexes={INVESTOR_INDEX: lambda r: keys.investor_record_index_keys(r.investor_id)},
)

RECORD_AUDIT = EntityMap(
    RecordAudit,
    RECORD_AUDIT_TYPE,
    table=lambda a: (
        keys.record_audit_pk(a.subject, a.subject_id),
        keys.audit_sk(a.at.isoformat(timespec="microseconds"), a.token),
    ),
    attributes=(
        Attribute("subject", "Subject"),
        Attribute("subject_id", "SubjectId"),
        Attribute("at", "At", DATETIME),
        Attribute("user", "User", TEXT, ""),
        Attribute("changes", "Changes", AUDIT_CHANGES),
        Attribute("token", "Token", TEXT, ""),
    ),
)


def is_record_item(item: dict[str, Any]) -> bool:
    """A fund's or an investor's record (read first by the fund and investor pages' Query)."""
    return item.get("EntityType") in RECORD_TYPES


def record_of_item(item: dict[str, Any]) -> FundRecord | InvestorRecord:
    record_map = FUND_RECORD if item["EntityType"] == FUND_RECORD_TYPE else INVESTOR_RECORD
    record: FundRecord | InvestorRecord = record_map.from_item(item)
    return record


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


def is_register_item(item: dict[str, Any]) -> bool:
    return item.get("EntityType") in REGISTER_TYPES


# --- search items ----------------------------------------------------------------------------------------


def search_items_of_item(item: dict[str, Any]) -> list[SearchItem]:
    """`search_items_of` for a stored item (bulk loads, backfill); [] for items that name none."""
    entity_type = item.get("EntityType")
    if entity_type == DOCUMENT.entity_type and item.get(TABLE.sk) == keys.latest_sk(Kind.DOCUMENT):
        return search_items_of(DOCUMENT.from_item(item))
    if entity_type in _ENTRY_BY_TYPE:
        return search_items_of(_ENTRY_BY_TYPE[entity_type].from_item(item))
    return []
