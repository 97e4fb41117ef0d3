"""The fund data as plain values: a position, and documents and their capital activity
(versioned: a restated one keeps its superseded copies). Frozen dataclasses with their rules; how
they are stored is the store's business (`fundportal.store.mapping.entities`). A position's
entries are `fundportal.domain.position_entries`, the audit trail `fundportal.domain.audit_trail`,
the position register `fundportal.domain.position_register`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, ClassVar

from moneyed import Money

from .kinds import APPROVED, DEFAULT_DOCUMENT_TYPE, HISTORICAL, LATEST, Kind, validate_id
from .money import money


def utcnow() -> datetime:
    """Now, in UTC, to the second: the time every write is stamped with."""
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True, slots=True)
class Position:
    """A Fund + Investor combination (seed: FUND_A + INVESTOR_1 = POSITION_1)."""

    position_id: str
    fund_id: str
    investor_id: str

    def __post_init__(self) -> None:
        validate_id(self.position_id, "position id")
        validate_id(self.fund_id, "fund id")
        validate_id(self.investor_id, "investor id")


# --- a document and its capital activity (versioned) ------------------------------------------------


@dataclass(frozen=True, slots=True)
class Versioned:
    """The document-level entities that keep superseded copies: the current one (`latest`) and,
    for each restatement, the copy it replaced (dated `version_date`, numbered `version_revision`)."""

    KIND: ClassVar[Kind]

    document_id: str
    revision: int = 1
    latest: bool = True
    version_date: date | None = None  # when a superseded copy was replaced
    version_revision: int | None = None  # the revision a superseded copy had
    updated_at: datetime | None = None
    updated_by: str | None = None
    superseded_at: datetime | None = None  # when a superseded copy was replaced (None: not kept)

    @property
    def version(self) -> str:
        return LATEST if self.latest else HISTORICAL

    def superseded(self, on: date, at: datetime | None = None) -> Any:
        """The copy to archive when this current version is replaced on `on` (at `at`)."""
        return replace(self, latest=False, version_date=on, version_revision=self.revision, superseded_at=at)


@dataclass(frozen=True, slots=True)
class Document(Versioned):
    KIND: ClassVar[Kind] = Kind.DOCUMENT

    title: str = ""
    fund_id: str = ""
    as_of_date: date | None = None
    status: str = "Active"
    currency: str = "USD"
    document_type: str = DEFAULT_DOCUMENT_TYPE
    # Four eyes: Draft -> Submitted -> Approved; who moved it last and when. `updated_by` stays
    # the last one who changed the document's content (submitting or approving is no change).
    approval: str = APPROVED
    approval_by: str | None = None
    approval_at: datetime | None = None
    # What a fund-wide call or distribution notice is for (`allocation.Purpose`); "" otherwise.
    purpose: str = ""
    # A restated approved document: the approved revision whose entry values keep counting until
    # the restatement is approved (None: not restating; `fundportal.domain.restatement`).
    counted_revision: int | None = None

    @property
    def approved(self) -> bool:
        """Its entries count in the headline figures."""
        return self.approval == APPROVED

    @property
    def restating(self) -> bool:
        """A restatement of an approved document awaiting approval: its entries' approved values
        count, their restated values wait apart."""
        return self.counted_revision is not None and not self.approved

    @property
    def counts_entries(self) -> bool:
        """Its entries' (approved) values are in the registers' counted roll-ups."""
        return self.approved or self.restating


@dataclass(frozen=True, slots=True)
class CapitalActivity(Versioned):
    KIND: ClassVar[Kind] = Kind.CAPITAL_ACTIVITY

    amount: Decimal = Decimal(0)
    status: str = "Pending"
    currency: str = "USD"
    as_of_date: date | None = None

    @property
    def money(self) -> Money:
        return money(self.amount, self.currency)
