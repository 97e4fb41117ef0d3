"""The fund data as plain values: documents and their capital activity (versioned: a restated
one keeps its superseded copies), a position's entries in a document, the audit trail, and each
position's register with its roll-up. Frozen dataclasses with their rules; how they are stored
is the store's business (`fundportal.store.mapping.entities`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, ClassVar

from moneyed import Money

from .approval_times import Approvals, approved_again
from .commitments import CommitmentChange, commitment_as_of, history_of
from .figures import Figures
from .figures_builder import FiguresBuilder
from .kinds import (
    APPROVED,
    CARRY_ACCRUED,
    DEFAULT_DOCUMENT_TYPE,
    FEE_GROSS,
    HISTORICAL,
    LATEST,
    Kind,
    validate_id,
)
from .money import money
from .ratios import percent_called
from .valuation import irr_as_of, value_as_of


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


# --- a position's entries in a document -------------------------------------------------------------


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


# --- the audit trail ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """Who changed what in a document, and when; `token` tells apart two changes in one instant.
    The audit of a position-level write (commitment) names its position instead of a document."""

    document_id: str | None = None
    at: datetime | None = None
    user: str = ""
    action: str = ""
    target: str = ""
    changes: dict[str, Any] | None = None
    token: str = ""
    position_id: str | None = None


def jsonable(value: Any) -> Any:
    """An audit value as kept: dates as ISO strings, Decimals kept, pairs as [old, new] lists."""
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def diff(old: Any, new: Any, names: tuple[str, ...]) -> dict[str, list[Any]]:
    """Field-by-field changes between two entities: {field: [old, new]}."""
    changes = {}
    for name in names:
        before = getattr(old, name, None) if old is not None else None
        after = getattr(new, name, None) if new is not None else None
        if before != after:
            changes[name] = [jsonable(before), jsonable(after)]
    return changes


# --- the position register ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PositionRegister:
    """One per position: its fund, investor, currency, commitment and the roll-up of its entries
    (the `FiguresBuilder` state: sums per currency, the latest unfunded commitment and NAV with
    their rank, and the dated cash flows IRR needs). Every entry write changes it in the same
    transaction, so it never disagrees with the entries."""

    position_id: str
    fund_id: str = ""
    investor_id: str = ""
    currency: str = "USD"
    # The commitment effective today (what the pages show); its dated changes in `commitments`
    # (empty for a register recorded before commitments were dated: see `commitment_history`).
    commitment: Decimal | None = None
    revision: int = 0  # 0: not stored yet
    rollup: dict[str, dict[str, Any]] = field(default_factory=dict)
    updated_at: datetime | None = None
    updated_by: str | None = ""
    # Imports (markers) whose new-document entries are counted and not yet published: an import
    # writes those entries first and the register after, so a re-run can tell whether it counted.
    imports: tuple[str, ...] = ()
    commitments: tuple[CommitmentChange, ...] = ()
    # The entries of documents not approved yet, counted apart ("awaiting approval"): the same
    # accumulator's state as `rollup`, and the documents whose entries it holds.
    awaiting: dict[str, dict[str, Any]] = field(default_factory=dict)
    awaiting_documents: tuple[str, ...] = ()
    # Each counted document's approvals (`approval_times`; a document approved before these were
    # kept has none but its restatements'): what counted at a past moment.
    approvals: dict[str, Approvals] = field(default_factory=dict)
    # Memo of what is read from the register: its builder, figures, flows and commitments (the
    # register is immutable). Not an init field: `dataclasses.replace` starts a changed copy afresh.
    _memo: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        validate_id(self.position_id, "position id")
        validate_id(self.fund_id, "fund id")
        validate_id(self.investor_id, "investor id")
        if self.rollup is None:  # the store passes None for an item kept without a roll-up
            object.__setattr__(self, "rollup", {})
        if self.awaiting is None:
            object.__setattr__(self, "awaiting", {})
        if self.approvals is None:
            object.__setattr__(self, "approvals", {})

    def approved_at(self, document_id: str, at: datetime, since: datetime | None = None) -> PositionRegister:
        """The register with `document_id`'s values set from `since` (None: a first approval)
        approved at `at`."""
        approvals = dict(self.approvals)
        approvals[document_id] = approved_again(approvals.get(document_id, ()), at, since)
        return replace(self, approvals=approvals)

    def counts_document(self, document_id: str) -> bool:
        """Whether the document's entries are in the counted roll-up (not awaiting approval)."""
        return document_id not in self.awaiting_documents

    def awaiting_builder(self) -> FiguresBuilder:
        """A fresh builder holding the awaiting-approval part (then `with_awaiting`)."""
        return FiguresBuilder.restore(self.awaiting)

    def with_awaiting(self, builder: FiguresBuilder, documents: tuple[str, ...]) -> PositionRegister:
        """The register with `builder` as its awaiting part, holding `documents` (none: no part)."""
        state = builder.state() if documents else {}
        return replace(self, awaiting=state, awaiting_documents=tuple(sorted(set(documents))))

    def awaiting_figures(self) -> list[Figures]:
        """The figures of the entries awaiting approval, per currency (empty when none)."""
        if not self.awaiting_documents:
            return []
        return FiguresBuilder.restore(self.awaiting, read_only=True).by_currency()

    def builder(self) -> FiguresBuilder:
        """A fresh builder holding the roll-up (add/remove entries, then `with_builder`)."""
        return FiguresBuilder.restore(self.rollup)

    def _cached(self) -> FiguresBuilder:
        """The builder the figures are read from (never added to: it shares the roll-up's lists)."""
        builder = self._memo.get("builder")
        if builder is None:
            builder = self._memo["builder"] = FiguresBuilder.restore(self.rollup, read_only=True)
        return builder

    def with_builder(self, builder: FiguresBuilder) -> PositionRegister:
        return replace(self, rollup=builder.state())

    def ids(self) -> tuple[str, str, str]:
        """(position, fund, investor) ids."""
        return self.position_id, self.fund_id, self.investor_id

    @property
    def commitment_money(self) -> Money | None:
        if self.commitment is None:
            return None
        held = self._memo.get("commitment")
        if held is None:
            held = self._memo["commitment"] = money(self.commitment, self.currency)
        return held

    @property
    def commitment_history(self) -> tuple[CommitmentChange, ...]:
        """The dated changes, oldest effective first (an undated commitment: effective from the
        earliest date, `fundportal.domain.commitments.history_of`)."""
        return history_of(self.commitment, self.commitments)

    def commitment_on(self, on: date | None) -> Money | None:
        """The commitment effective on `on` (None: the one effective today), as Money."""
        if on is None:
            return self.commitment_money
        key = ("commitment_on", on)  # once per register and date (a fund page asks three times)
        if key not in self._memo:
            amount = commitment_as_of(self.commitment_history, on)
            self._memo[key] = None if amount is None else money(amount, self.currency)
        return self._memo[key]

    def figures(self, as_of: date | None = None) -> list[Figures]:
        """Figures per currency valued as of `as_of` (None: today), by currency code (the
        register's own currency always among them); computed once per register object and date
        (a fund page asks for them several times). The date basis: `fundportal.domain.valuation`."""
        on = as_of or date.today()
        key = ("figures", on)
        figures = self._memo.get(key)
        if figures is None:
            builder = self._cached()
            found = {f.currency: f for f in builder.by_currency(on)}
            if self.currency not in found:
                found[self.currency] = builder.figures(self.currency, on)
            figures = self._memo[key] = [
                value_as_of(found[code], builder.dated_flows(code), on, builder.dated_activity(code))
                for code in sorted(found)
            ]
        return figures

    def figures_of(self, currency: str, as_of: date | None = None) -> Figures:
        """The figures of `currency` valued as of `as_of` (zero figures if the position has none in it)."""
        found = next((f for f in self.figures(as_of) if f.currency == currency), None)
        if found is not None:
            return found
        return value_as_of(self._cached().figures(currency), {}, as_of or date.today())

    def flows(self, currency: str) -> list[tuple[date, Decimal]]:
        """IRR's cash flows of `currency` (see `FiguresBuilder.flows`), computed once per currency
        (a fund page reads them for the line's IRR and again for the pooled IRR)."""
        key = ("flows", currency)
        flows = self._memo.get(key)
        if flows is None:
            flows = self._memo[key] = self._cached().flows(currency)
        return list(flows)

    def irr(self, currency: str, as_of: date | None = None) -> Decimal | None:
        """The IRR as of `as_of` (None: today), on the same basis as TVPI (`irr_as_of`)."""
        return irr_as_of(self.figures_of(currency, as_of), self.flows(currency))

    def percent_called(self, figures: Figures) -> Decimal | None:
        commitment = self.commitment_money if figures.currency == self.currency else None
        return percent_called(figures.called, commitment)
