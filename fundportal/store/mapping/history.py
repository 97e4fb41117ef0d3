"""How a kept entry value (`EntryVersion`, every LP amount versioned) is stored: in the document's
history partition (`keys.entry_history_pk`), so the document's own Query never returns it, and in
its position's history partition of the position index (`keys.entry_history_position_keys`,
sparse: a partition of its own, which no position page's Query reads), so a position's kept
values are one Query (`PositionRepository.entry_versions`)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from fundportal.domain.entry_versions import EntryVersion

from ..schema import POSITION_INDEX, TABLE
from . import keys
from .codecs import DATE, DATETIME, INTEGER, NUMBER, OPTIONAL_TEXT, TEXT, Codec
from .entities import MAPS
from .entity_map import Attribute, EntityMap

ENTRY_VERSION_TYPE = "EntryVersion"
FLAG = Codec(lambda v: True if v else None, bool)
# A kept value's own fields (`EntryVersion.parts`) as a map, None and False left out; absent when none.
PARTS = Codec(
    lambda v: {name: value for name, value in v if value is not None and value is not False} or None,
    lambda v: tuple(sorted(v.items())),
)


def _keys(version: EntryVersion) -> tuple[str, str]:
    replaced_at = version.replaced_at.isoformat(timespec="microseconds")
    return keys.entry_history_pk(version.document_id), keys.entry_history_sk(
        version.kind, version.position_id, replaced_at, version.revision
    )


def _position_keys(version: EntryVersion) -> tuple[str, str]:
    replaced_at = version.replaced_at.isoformat(timespec="microseconds")
    return keys.entry_history_position_keys(
        version.position_id, version.document_id, version.kind, replaced_at, version.revision, version.removed
    )


def _read_keys(item: dict[str, Any], values: dict[str, Any]) -> None:
    """The fields held in the keys; read from the position index (which projects neither
    DocumentId, ReplacedAt nor Removed) they come from the keys too."""
    kind, position_id, replaced_at, revision = keys.parse_entry_history_sk(item[TABLE.sk])
    values["kind"], values["position_id"], values["revision"] = kind, position_id, revision
    values["document_id"] = values["document_id"] or keys.parse_entry_history_pk(item[TABLE.pk])
    if values["replaced_at"] is None:
        values["replaced_at"] = datetime.fromisoformat(replaced_at)
    index_sk = item.get(TABLE.index(POSITION_INDEX).sk)
    if "Removed" not in item and index_sk is not None:
        values["removed"] = keys.parse_entry_history_position_removed(index_sk)


ENTRY_VERSION = EntityMap(
    EntryVersion,
    ENTRY_VERSION_TYPE,
    table=_keys,
    attributes=(
        Attribute("document_id", "DocumentId", TEXT, ""),
        Attribute("replaced_at", "ReplacedAt", DATETIME),
        Attribute("replaced_by", "ReplacedBy", TEXT, ""),
        Attribute("removed", "Removed", FLAG, False),
        Attribute("fund_id", "FundId", TEXT, ""),
        Attribute("investor_id", "InvestorId", TEXT, ""),
        Attribute("amount", "Amount", NUMBER, Decimal(0)),
        Attribute("status", "Status", TEXT, "Pending"),
        Attribute("currency", "Currency", TEXT, "USD"),
        Attribute("as_of_date", "AsOfDate", DATE),
        Attribute("due_date", "DueDate", DATE),
        Attribute("updated_at", "UpdatedAt", DATETIME),
        Attribute("updated_by", "UpdatedBy"),
        Attribute("revision", "Revision", INTEGER, 1),
        Attribute("parts", "Parts", PARTS, ()),
        Attribute("moved_to", "MovedTo", OPTIONAL_TEXT, ""),
    ),
    indexes={POSITION_INDEX: _position_keys},
    read_keys=_read_keys,
)
MAPS[EntryVersion] = ENTRY_VERSION
