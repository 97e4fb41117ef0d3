"""The position register as a plain value: one per position, holding its commitment (dated
changes), the roll-up of its counted entries and the part awaiting approval (`FiguresBuilder`
states), each counted document's approvals, and the figures, flows and IRR read from them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from moneyed import Money

from .approval_times import Approvals, approved_again
from .commitments import CommitmentChange, commitment_as_of, history_of
from .figures import Figures
from .figures_builder import FiguresBuilder
from .kinds import Kind, validate_id
from .money import money
from .ratios import percent_called
from .valuation import irr_as_of, value_as_of


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
    # When a merge moved each entry in from another position, by (document id, kind): before
    # that it stood under the other position (`fundportal.domain.known_at`).
    moved_in: dict[tuple[str, Kind], datetime] = field(default_factory=dict)
    # When the write that registered the position was made, when the register keeps it (None: its
    # registration is a `RegisterVersion` of its own; `register_versions`).
    registered_at: datetime | None = None
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
        if self.moved_in is None:
            object.__setattr__(self, "moved_in", {})

    def approved_at(self, document_id: str, at: datetime, since: datetime | None = None) -> PositionRegister:
        """The register with `document_id`'s values set from `since` (None: a first approval)
        approved at `at`."""
        approvals = dict(self.approvals)
        approvals[document_id] = approved_again(approvals.get(document_id, ()), at, since)
        return replace(self, approvals=approvals)

    def with_moved_in(self, moved: Iterable[tuple[str, Kind]], at: datetime) -> PositionRegister:
        """The register with the entries `moved` ((document id, kind) pairs) moved in by a merge at `at`."""
        return replace(self, moved_in={**self.moved_in, **dict.fromkeys(moved, at)})

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
        if on is None or not self.commitments:
            # No dated change: the commitment is in effect from the earliest date (`history_of`).
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
            codes = builder.currencies()
            if self.currency not in codes:
                codes = sorted([*codes, self.currency])
            figures = self._memo[key] = [builder.valued(code, on) for code in codes]
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
