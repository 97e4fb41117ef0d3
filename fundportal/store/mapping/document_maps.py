"""How documents, capital activity, position entries and the audit trail are stored."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.kinds import APPROVED, DEFAULT_DOCUMENT_TYPE, HISTORICAL, LATEST, Kind
from fundportal.domain.model import CapitalActivity, Document, Versioned
from fundportal.domain.position_entries import ENTRY_CLASSES, PositionEntry

from ..schema import DOCUMENT_INDEX, ENTITY_INDEX, MONTH_INDEX, POSITION_INDEX, TABLE
from . import keys
from .codecs import APPROVAL, AUDIT_CHANGES, DATE, DATETIME, INTEGER, NUMBER, OPTIONAL_TEXT, RESTATED, TEXT
from .companions import document_companions
from .entity_map import Attribute, EntityMap, KeyPair
from .entry_parts import ENTRY_PARTS

AUDIT_TYPE = "AuditEntry"
# An entry's copies of its document's title and type (`position_entries.of_document`).
DOCUMENT_TITLE_COPY = "DocumentTitle"
DOCUMENT_TYPE_COPY = "DocumentType"


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
            # The document's title and type, copied for the position index (absent: not yet backfilled).
            Attribute("document_title", DOCUMENT_TITLE_COPY),
            Attribute("document_type", DOCUMENT_TYPE_COPY),
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


def document_copies(document: Document) -> dict[str, str]:
    """The attributes an entry of `document` holds as copies of it (title and type)."""
    return {DOCUMENT_TITLE_COPY: document.title, DOCUMENT_TYPE_COPY: document.document_type}


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
