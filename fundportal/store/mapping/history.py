"""How a kept entry value (`EntryVersion`, every LP amount versioned) is stored: in the document's
history partition (`keys.entry_history_pk`), with no index keys, so neither the document's own
Query nor any index ever returns it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from fundportal.domain.entry_versions import EntryVersion

from ..schema import TABLE
from . import keys
from .codecs import DATE, DATETIME, INTEGER, NUMBER, TEXT, Codec
from .entities import MAPS, Attribute, EntityMap

ENTRY_VERSION_TYPE = "EntryVersion"
FLAG = Codec(lambda v: True if v else None, bool)


def _keys(version: EntryVersion) -> tuple[str, str]:
    replaced_at = version.replaced_at.isoformat(timespec="microseconds")
    return keys.entry_history_pk(version.document_id), keys.entry_history_sk(
        version.kind, version.position_id, replaced_at, version.revision
    )


def _read_keys(item: dict[str, Any], values: dict[str, Any]) -> None:
    values["kind"], values["position_id"], _, values["revision"] = keys.parse_entry_history_sk(item[TABLE.sk])


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
    ),
    read_keys=_read_keys,
)
MAPS[EntryVersion] = ENTRY_VERSION
