"""Computed vs reported unfunded and the reconciliation flags of a fund's or an investor's
positions, from the position lines the page already built (no request of its own). The rules
are `fundportal.domain.reconciliation`'s."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from moneyed import Money

from fundportal.domain.figures import Figures
from fundportal.domain.reconciliation import (
    Flag,
    register_currency_flags,
    total_unfunded,
    unfunded_difference,
    unfunded_flags,
)
from fundportal.web.flags import FlagList, flag_lines


class Line(Protocol):
    """What is read from a `funds.lines.PositionLine`."""

    position_id: str
    fund_id: str
    investor_id: str
    currency: str
    commitment: Money | None
    figures: Figures
    register_currency: str
    unfunded_computed: Money | None  # computed_unfunded(commitment, figures), computed once


# Slotted, not frozen: a fund page builds one per line (a frozen dataclass is slower to build).
@dataclass(slots=True)
class UnfundedLine:
    """One position in one currency: commitment, called, computed and reported unfunded."""

    position_id: str
    fund_id: str
    investor_id: str
    currency: str
    commitment: Money | None
    called: Money
    computed: Money | None
    reported: Money | None
    reported_as_of: date | None
    difference: Money | None  # reported - computed, when both are known
    flagged: bool


@dataclass(frozen=True, slots=True)
class UnfundedTotal:
    """A currency's totals: the positions' computed and reported unfunded, each summed."""

    currency: str
    computed: Money | None
    reported: Money | None
    difference: Money | None


@dataclass(frozen=True, slots=True)
class GroupReconciliation:
    totals: list[UnfundedTotal]
    flags: FlagList
    # The lines reconciled, each with whether it is flagged: `lines` is built from them when asked
    # (the API's reconciliation; a page shows only the totals and the flags).
    reconciled: Sequence[tuple[Line, bool]] = ()

    @property
    def lines(self) -> list[UnfundedLine]:
        """Per line computed vs reported unfunded and whether it is flagged."""
        return [unfunded_line(line, flagged) for line, flagged in self.reconciled]

    @property
    def findings(self) -> int:
        return self.flags.findings


def group_reconciliation(lines: Sequence[Line]) -> GroupReconciliation:
    """Per line computed vs reported unfunded and its flags; per currency the totals."""
    reconciled: list[tuple[Line, bool]] = []
    flags: list[Flag] = []
    # A position's lines are gathered only when some line is in another currency than its
    # register's (the only case `register_currency_flags` flags): usually none is.
    by_position: dict[str, list[Line]] = {}
    if any(line.register_currency and line.currency != line.register_currency for line in lines):
        for line in lines:
            by_position.setdefault(line.position_id, []).append(line)
    for line in lines:
        own = unfunded_flags(line.position_id, line.commitment, line.figures, computed=line.unfunded_computed)
        flags += own
        held = by_position.pop(line.position_id, None) if by_position else None  # once per position, at its first line
        if held and line.register_currency:
            flags += register_currency_flags(line.position_id, line.register_currency, [h.figures for h in held])
        reconciled.append((line, bool(own)))
    return GroupReconciliation(totals=unfunded_totals(lines), flags=flag_lines(flags), reconciled=reconciled)


def unfunded_line(line: Line, flagged: bool) -> UnfundedLine:
    """A line's computed vs reported unfunded (`flagged`: its `unfunded_flags` found any)."""
    figures, computed = line.figures, line.unfunded_computed
    return UnfundedLine(
        position_id=line.position_id,
        fund_id=line.fund_id,
        investor_id=line.investor_id,
        currency=line.currency,
        commitment=line.commitment,
        called=figures.called,
        computed=computed,
        reported=figures.unfunded,
        reported_as_of=figures.unfunded_as_of,
        difference=unfunded_difference(computed, figures.unfunded),
        flagged=flagged,
    )


def unfunded_totals(lines: Iterable[Line]) -> list[UnfundedTotal]:
    """Per currency, the lines' computed and reported unfunded, each summed (`total_unfunded`)."""
    by_currency: dict[str, list[Line]] = {}
    for line in lines:
        by_currency.setdefault(line.currency, []).append(line)
    totals = []
    for code in sorted(by_currency):
        group = by_currency[code]
        computed = total_unfunded((line.unfunded_computed for line in group), code)
        reported = total_unfunded((line.figures.unfunded for line in group), code)
        totals.append(UnfundedTotal(code, computed, reported, unfunded_difference(computed, reported)))
    return totals
