"""Domain entities and their conversion to and from DynamoDB items.

Every write goes through `to_item`, which recomputes all index keys from the entity's own
fields, so an index key can never drift from the data it indexes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, ClassVar

from . import keys
from .keys import Kind

LATEST = "Latest"
HISTORICAL = "Historical"
DOCUMENT_STATUSES = ("Active", "Draft", "Final")
ACTIVITY_STATUSES = ("Pending", "Completed", "Cancelled")
ENTRY_STATUSES = ("Pending", "Completed", "Active", "Cancelled")
CURRENCIES = ("USD", "EUR", "GBP", "CHF", "JPY")
# Amounts in these statuses are shown but left out of totals.
EXCLUDED_FROM_TOTALS = ("Cancelled",)


def _date(value: Any) -> date | None:
    return date.fromisoformat(value) if value else None


def _datetime(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value else None


def utcnow() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


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
    """Fields shared by the document-level entities that keep superseded copies."""

    KIND: ClassVar[Kind]

    document_id: str
    revision: int = 1
    latest: bool = True
    version_date: date | None = None  # date in a superseded copy's SK
    version_revision: int | None = None  # suffix in a superseded copy's SK
    updated_at: datetime | None = None
    updated_by: str | None = None

    @property
    def sk(self) -> str:
        if self.latest:
            return keys.latest_sk(self.KIND)
        assert self.version_date is not None
        return keys.historical_sk(self.KIND, self.version_date, self.version_revision)

    @property
    def version(self) -> str:
        return LATEST if self.latest else HISTORICAL

    def _base_item(self) -> dict[str, Any]:
        return {
            "PK": keys.document_pk(self.document_id),
            "SK": self.sk,
            "EntityType": self.KIND.entity_type,
            "Version": self.version,
            "Revision": self.revision,
            "UpdatedAt": _iso(self.updated_at),
            "UpdatedBy": self.updated_by,
        }

    @staticmethod
    def _base_fields(item: dict[str, Any]) -> dict[str, Any]:
        parsed = keys.parse_sk(item["SK"])
        return {
            "document_id": item["PK"],
            "revision": int(item.get("Revision", 1)),
            "latest": parsed.latest,
            "version_date": parsed.version_date,
            "version_revision": parsed.revision,
            "updated_at": _datetime(item.get("UpdatedAt")),
            "updated_by": item.get("UpdatedBy"),
        }

    def superseded(self, on: date) -> Versioned:
        """The copy to archive when this current version is replaced on `on`."""
        return replace(self, latest=False, version_date=on, version_revision=self.revision)


@dataclass(frozen=True, slots=True)
class Document(Versioned):
    KIND: ClassVar[Kind] = Kind.DOCUMENT

    title: str = ""
    fund_id: str = ""
    as_of_date: date | None = None
    status: str = "Active"
    currency: str = "USD"

    def to_item(self) -> dict[str, Any]:
        item = self._base_item()
        item.update(
            Title=self.title,
            FundId=self.fund_id or None,
            AsOfDate=_iso(self.as_of_date),
            Status=self.status if self.latest else HISTORICAL,
            Currency=self.currency,
        )
        if self.latest:
            item["GSI_PK"], item["GSI_SK"] = keys.entity_index_keys(Kind.DOCUMENT, self.document_id)
            if self.as_of_date:
                item["GSI3_PK"], item["GSI3_SK"] = keys.month_index_keys(self.as_of_date, self.document_id)
        return item

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> Document:
        return cls(
            **cls._base_fields(item),
            title=item.get("Title", ""),
            fund_id=item.get("FundId", ""),
            as_of_date=_date(item.get("AsOfDate")),
            status=item.get("Status", "Active"),
            currency=item.get("Currency", "USD"),
        )


@dataclass(frozen=True, slots=True)
class CapitalActivity(Versioned):
    KIND: ClassVar[Kind] = Kind.CAPITAL_ACTIVITY

    amount: Decimal = Decimal(0)
    status: str = "Pending"
    currency: str = "USD"
    as_of_date: date | None = None

    def to_item(self) -> dict[str, Any]:
        item = self._base_item()
        item.update(Amount=self.amount, Status=self.status, Currency=self.currency, AsOfDate=_iso(self.as_of_date))
        return item

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> CapitalActivity:
        return cls(
            **cls._base_fields(item),
            amount=item.get("Amount", Decimal(0)),
            status=item.get("Status", "Pending"),
            currency=item.get("Currency", "USD"),
            as_of_date=_date(item.get("AsOfDate")),
        )


@dataclass(frozen=True, slots=True)
class PositionEntry:
    """A position's capital call, distribution or unfunded commitment in one document."""

    KIND: ClassVar[Kind]

    document_id: str
    position_id: str
    fund_id: str
    investor_id: str
    amount: Decimal
    status: str = "Pending"
    currency: str = "USD"
    as_of_date: date | None = None  # the document's, denormalised for the position index
    due_date: date | None = None
    updated_at: datetime | None = None
    updated_by: str | None = None

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
    def counts_in_totals(self) -> bool:
        return self.status not in EXCLUDED_FROM_TOTALS

    def to_item(self) -> dict[str, Any]:
        gsi_pk, gsi_sk = keys.entity_index_keys(self.KIND, self.document_id, self.position_id)
        gsi2_pk, gsi2_sk = keys.position_index_keys(self.KIND, self.position_id, self.document_id)
        return {
            "PK": keys.document_pk(self.document_id),
            "SK": self.sk,
            "EntityType": self.KIND.entity_type,
            "Version": LATEST,
            "PositionId": self.position_id,
            "FundId": self.fund_id,
            "InvestorId": self.investor_id,
            "Amount": self.amount,
            "Status": self.status,
            "Currency": self.currency,
            "AsOfDate": _iso(self.as_of_date),
            "DueDate": _iso(self.due_date),
            "UpdatedAt": _iso(self.updated_at),
            "UpdatedBy": self.updated_by,
            "GSI_PK": gsi_pk,
            "GSI_SK": gsi_sk,
            "GSI2_PK": gsi2_pk,
            "GSI2_SK": gsi2_sk,
        }

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> PositionEntry:
        entry_cls = ENTRY_CLASSES[Kind.from_entity_type(item["EntityType"])]
        document_id = item.get("PK") or keys.parse_position_index_sk(item["GSI2_SK"])[1]
        return entry_cls(
            document_id=document_id,
            position_id=item["PositionId"],
            fund_id=item.get("FundId", ""),
            investor_id=item.get("InvestorId", ""),
            amount=item.get("Amount", Decimal(0)),
            status=item.get("Status", "Pending"),
            currency=item.get("Currency", "USD"),
            as_of_date=_date(item.get("AsOfDate")),
            due_date=_date(item.get("DueDate")),
            updated_at=_datetime(item.get("UpdatedAt")),
            updated_by=item.get("UpdatedBy"),
        )


@dataclass(frozen=True, slots=True)
class CapitalCall(PositionEntry):
    KIND: ClassVar[Kind] = Kind.CAPITAL_CALL


@dataclass(frozen=True, slots=True)
class Distribution(PositionEntry):
    KIND: ClassVar[Kind] = Kind.DISTRIBUTION


@dataclass(frozen=True, slots=True)
class UnfundedCommitment(PositionEntry):
    KIND: ClassVar[Kind] = Kind.UNFUNDED_COMMITMENT


ENTRY_CLASSES: dict[Kind, type[PositionEntry]] = {
    Kind.CAPITAL_CALL: CapitalCall,
    Kind.DISTRIBUTION: Distribution,
    Kind.UNFUNDED_COMMITMENT: UnfundedCommitment,
}


def entity_from_item(item: dict[str, Any]) -> Document | CapitalActivity | PositionEntry:
    kind = Kind.from_entity_type(item["EntityType"])
    if kind is Kind.DOCUMENT:
        return Document.from_item(item)
    if kind is Kind.CAPITAL_ACTIVITY:
        return CapitalActivity.from_item(item)
    return PositionEntry.from_item(item)


# --- aggregates the pages show -------------------------------------------------------------------


def _sum(entries: list[PositionEntry | None]) -> Decimal:
    return sum((e.amount for e in entries if e is not None and e.counts_in_totals), Decimal(0))


def dpi(distributed: Decimal, paid_in: Decimal) -> Decimal | None:
    """Distributions to paid-in capital; None where nothing was paid in."""
    return (distributed / paid_in).quantize(Decimal("0.01")) if paid_in > 0 else None


@dataclass(frozen=True, slots=True)
class Totals:
    called: Decimal = Decimal(0)
    distributed: Decimal = Decimal(0)
    unfunded: Decimal = Decimal(0)

    @property
    def dpi(self) -> Decimal | None:
        return dpi(self.distributed, self.called)


@dataclass(slots=True)
class PositionInDocument:
    """One position's three entries in one document (any may be missing)."""

    document_id: str
    position_id: str
    capital_call: CapitalCall | None = None
    distribution: Distribution | None = None
    unfunded_commitment: UnfundedCommitment | None = None

    def set(self, entry: PositionEntry) -> None:
        setattr(self, entry.KIND.value.lower(), entry)

    def get(self, kind: Kind) -> PositionEntry | None:
        return getattr(self, kind.value.lower())

    @property
    def entries(self) -> list[PositionEntry]:
        return [e for e in (self.capital_call, self.distribution, self.unfunded_commitment) if e is not None]

    @property
    def position(self) -> Position | None:
        entries = self.entries
        return entries[0].position if entries else None

    @property
    def totals(self) -> Totals:
        return Totals(
            called=_sum([self.capital_call]),
            distributed=_sum([self.distribution]),
            unfunded=_sum([self.unfunded_commitment]),
        )


@dataclass(slots=True)
class DocumentOverview:
    """Everything a document contains, from one Query on its partition."""

    document: Document
    capital_activity: CapitalActivity | None = None
    document_history: list[Document] = field(default_factory=list)
    activity_history: list[CapitalActivity] = field(default_factory=list)
    positions: list[PositionInDocument] = field(default_factory=list)

    @property
    def totals(self) -> Totals:
        rows = [p.totals for p in self.positions]
        return Totals(
            called=sum((t.called for t in rows), Decimal(0)),
            distributed=sum((t.distributed for t in rows), Decimal(0)),
            unfunded=sum((t.unfunded for t in rows), Decimal(0)),
        )

    def position(self, position_id: str) -> PositionInDocument | None:
        return next((p for p in self.positions if p.position_id == position_id), None)


@dataclass(frozen=True, slots=True)
class DocumentSummary:
    """A row of the document list (from the month index projection)."""

    document_id: str
    title: str
    fund_id: str
    as_of_date: date
    status: str
    revision: int
    currency: str


@dataclass(frozen=True, slots=True)
class AuditEntry:
    document_id: str
    at: datetime
    user: str
    action: str
    target: str
    changes: dict[str, Any]
    token: str

    def to_item(self) -> dict[str, Any]:
        return {
            "PK": keys.audit_pk(self.document_id),
            "SK": keys.audit_sk(self.at.isoformat(timespec="microseconds"), self.token),
            "EntityType": "AuditEntry",
            "DocumentId": self.document_id,
            "At": self.at.isoformat(),
            "User": self.user,
            "Action": self.action,
            "Target": self.target,
            "Changes": {k: _jsonable(v) for k, v in self.changes.items()},
        }

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> AuditEntry:
        return cls(
            document_id=item["DocumentId"],
            at=datetime.fromisoformat(item["At"]),
            user=item.get("User", ""),
            action=item.get("Action", ""),
            target=item.get("Target", ""),
            changes=item.get("Changes", {}),
            token=keys.parse_audit_sk(item["SK"])[1],
        )


def _jsonable(value: Any) -> Any:
    """Audit values: dates as ISO strings, Decimals kept, pairs as [old, new] lists."""
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def diff(old: Any, new: Any, fields: tuple[str, ...]) -> dict[str, list[Any]]:
    """Field-by-field changes between two entities: {field: [old, new]}."""
    changes = {}
    for name in fields:
        before = getattr(old, name, None) if old is not None else None
        after = getattr(new, name, None) if new is not None else None
        if before != after:
            changes[name] = [_jsonable(before), _jsonable(after)]
    return changes
