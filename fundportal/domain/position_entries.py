"""A position's entries in a document as plain values: capital calls, distributions, unfunded
commitments, NAVs and the capital account's allocations (one frozen dataclass per kind,
`ENTRY_CLASSES`), the value a restatement awaits approval with, and an entry's kind-specific
parts (`entry_parts`, `set_parts`, `with_parts`)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any, ClassVar

from moneyed import Money

from .kinds import CARRY_ACCRUED, FEE_GROSS, Kind
from .model import Document, Position
from .money import money


@dataclass(frozen=True, slots=True)
class RestatedValue:
    """An entry's value as restated, awaiting approval (`removed`: restated away; `added`: the
    entry is new in the restatement, nothing of it counts yet); see
    `fundportal.domain.restatement`."""

    amount: Decimal
    status: str
    due_date: date | None = None
    removed: bool = False
    added: bool = False
    # Who set the restated value and when (the entry's own UpdatedAt/UpdatedBy stay the counted
    # value's, which the register ranks the latest NAV and unfunded by).
    updated_at: datetime | None = None
    updated_by: str | None = None
    # The kind's own fields as restated (`entry_parts`: a split, a fee line...), as (name, value)
    # pairs with those at their default left out; None: as the counted value holds them.
    parts: tuple[tuple[str, Any], ...] | None = None


@dataclass(frozen=True, slots=True)
class PositionEntry:
    """A position's capital call, distribution, unfunded commitment or NAV in one document."""

    KIND: ClassVar[Kind]

    document_id: str
    position_id: str = ""
    fund_id: str = ""
    investor_id: str = ""
    amount: Decimal = Decimal(0)
    status: str = "Pending"
    currency: str = "USD"
    as_of_date: date | None = None  # the document's
    due_date: date | None = None
    updated_at: datetime | None = None
    updated_by: str | None = None
    # Incremented on every change: the version a form showed (updated_at is whole seconds).
    revision: int = 1
    # Its value as restated while its document's approved version still counts (`restatement`).
    restated: RestatedValue | None = None
    # The document's title and type, copied onto the entry (`of_document`) so the position page
    # shows them from the position index; None: written before the copies existed.
    document_title: str | None = None
    document_type: str | None = None

    @property
    def kind(self) -> Kind:
        return self.KIND

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


@dataclass(frozen=True, slots=True)
class CapitalCall(PositionEntry):
    """A contribution. `management_fee` and `partnership_expense` are the parts of it that pay
    fees and expenses (None: none); the rest is `investment`. `outside_commitment`: those parts
    are called outside the commitment and do not reduce unfunded (`statement_kinds`)."""

    KIND: ClassVar[Kind] = Kind.CAPITAL_CALL

    management_fee: Decimal | None = None
    partnership_expense: Decimal | None = None
    outside_commitment: bool = False

    @property
    def investment(self) -> Decimal:
        """The part of the call that is invested: amount - fee part - expense part."""
        return self.amount - (self.management_fee or 0) - (self.partnership_expense or 0)


@dataclass(frozen=True, slots=True)
class Distribution(PositionEntry):
    """A distribution, with its split when known: `return_of_capital` + `gain` + `income` equal
    the amount (parts not given are zero); `recallable`: the part that may be called again
    (adds back to unfunded). All None: not split."""

    KIND: ClassVar[Kind] = Kind.DISTRIBUTION

    return_of_capital: Decimal | None = None
    gain: Decimal | None = None
    income: Decimal | None = None
    recallable: Decimal | None = None

    @property
    def split(self) -> bool:
        """Whether any of return of capital, gain and income is given."""
        return self.return_of_capital is not None or self.gain is not None or self.income is not None


@dataclass(frozen=True, slots=True)
class UnfundedCommitment(PositionEntry):
    KIND: ClassVar[Kind] = Kind.UNFUNDED_COMMITMENT


@dataclass(frozen=True, slots=True)
class NetAssetValue(PositionEntry):
    """The capital account's value (NAV) at the document's as-of date."""

    KIND: ClassVar[Kind] = Kind.NAV


@dataclass(frozen=True, slots=True)
class ManagementFee(PositionEntry):
    """One line of a management fee allocated to the position: `fee_line` "gross", "offset" or
    "waiver" (`FEE_LINES`); the amount is zero or more; net fee = gross - offsets - waivers."""

    KIND: ClassVar[Kind] = Kind.MANAGEMENT_FEE

    fee_line: str = FEE_GROSS


@dataclass(frozen=True, slots=True)
class PartnershipExpense(PositionEntry):
    """Fund expenses allocated to the position (zero or more)."""

    KIND: ClassVar[Kind] = Kind.PARTNERSHIP_EXPENSE


@dataclass(frozen=True, slots=True)
class RealizedGain(PositionEntry):
    """A realized gain allocated to the position; a loss is negative."""

    KIND: ClassVar[Kind] = Kind.REALIZED_GAIN


@dataclass(frozen=True, slots=True)
class UnrealizedGain(PositionEntry):
    """An unrealized gain (change in valuation) allocated to the position; a loss is negative."""

    KIND: ClassVar[Kind] = Kind.UNREALIZED_GAIN


@dataclass(frozen=True, slots=True)
class CarriedInterest(PositionEntry):
    """Carried interest: `carry_stage` "accrued" (allocated to the GP; negative for a reversal or
    clawback) or "paid" (zero or more; paid out of what was accrued)."""

    KIND: ClassVar[Kind] = Kind.CARRIED_INTEREST

    carry_stage: str = CARRY_ACCRUED


ENTRY_CLASSES: dict[Kind, type[PositionEntry]] = {
    Kind.CAPITAL_CALL: CapitalCall,
    Kind.DISTRIBUTION: Distribution,
    Kind.UNFUNDED_COMMITMENT: UnfundedCommitment,
    Kind.NAV: NetAssetValue,
    Kind.MANAGEMENT_FEE: ManagementFee,
    Kind.PARTNERSHIP_EXPENSE: PartnershipExpense,
    Kind.REALIZED_GAIN: RealizedGain,
    Kind.UNREALIZED_GAIN: UnrealizedGain,
    Kind.CARRIED_INTEREST: CarriedInterest,
}


def of_document(entry: PositionEntry, document: Document) -> PositionEntry:
    """`entry` holding what it copies of its document: the as-of date and currency (the figures'
    date and money) and the title and type (shown beside it on the position page). Every write
    of an entry takes them from the document as read in the same write."""
    return replace(
        entry,
        as_of_date=document.as_of_date,
        currency=document.currency,
        document_title=document.title,
        document_type=document.document_type,
    )


def with_document_copies(entry: PositionEntry, document: Document) -> PositionEntry:
    """`entry` with its copies of the document's title and type refreshed (a title or type
    edit, the backfill); its own values and revision unchanged."""
    return replace(entry, document_title=document.title, document_type=document.document_type)


def entry_parts(entry: PositionEntry) -> dict[str, Any]:
    """What an entry holds beyond every kind's fields: a call's fee and expense parts, a
    distribution's split, a fee line, a carry stage (names to values; empty for the other kinds)."""
    return {f.name: getattr(entry, f.name) for f in fields(entry) if f.name not in _COMMON_FIELDS}


def set_parts(entry: PositionEntry) -> tuple[tuple[str, Any], ...]:
    """`entry_parts` without those at their default (None, False), sorted: how they are kept."""
    return tuple(sorted((k, v) for k, v in entry_parts(entry).items() if v is not None and v is not False))


def with_parts(entry: PositionEntry, parts: tuple[tuple[str, Any], ...]) -> PositionEntry:
    """`entry` holding exactly `parts` (as `set_parts` keeps them): any other part at its default."""
    given = dict(parts)
    values = {f.name: given.get(f.name, f.default) for f in fields(entry) if f.name not in _COMMON_FIELDS}
    return replace(entry, **values) if values else entry


_COMMON_FIELDS = frozenset(f.name for f in fields(PositionEntry))
