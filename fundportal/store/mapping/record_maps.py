"""How fund and investor records and their audit trail are stored."""

from __future__ import annotations

from typing import Any

from fundportal.domain.records import FundRecord, InvestorRecord, RecordAudit

from ..schema import INVESTOR_INDEX
from . import keys
from .codecs import AUDIT_CHANGES, DATETIME, INTEGER, OPTIONAL_TEXT, TEXT
from .entity_map import Attribute, EntityMap

FUND_RECORD_TYPE = "FundRecord"
INVESTOR_RECORD_TYPE = "InvestorRecord"
RECORD_AUDIT_TYPE = "RecordAudit"
RECORD_TYPES = frozenset((FUND_RECORD_TYPE, INVESTOR_RECORD_TYPE))


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
