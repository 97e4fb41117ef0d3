"""Time travel: a position's figures as of a date D (`?as_of=`) and as the portal knew them at a
moment T (`?known_at=`). Both compose: first what was known at T, then valued as of D.

As of D (the one date basis, `fundportal.domain.valuation`):
- the entries of documents dated after D are left out (so the NAV is the latest at or before D);
- a call or distribution whose flow date (due date, else the document's date) is after D is
  shown, not counted;
- the rest is valued by `value_as_of` (NAV rolled forward to D) and the IRR by `irr_as_of`;
- the commitment is the one effective at D (`commitments.commitment_as_of`).

Known at T (D defaults to T's date):
- an entry counts with the value that counted at T, from the kept versions and the documents'
  approval times (`fundportal.domain.known_at.entries_counted_at`); an entry set after T with no
  earlier value standing then is left out;
- a commitment change recorded after T is left out (one recorded before changes were timed
  always counts).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from .commitments import CommitmentChange, commitment_as_of
from .figures import Figures
from .figures_builder import FiguresBuilder
from .kinds import Kind
from .position_entries import PositionEntry
from .valuation import irr_as_of, value_as_of

_FLOW_KINDS = frozenset((Kind.CAPITAL_CALL, Kind.DISTRIBUTION))


def counts_by(entry: PositionEntry, on: date) -> bool:
    """False for a call or distribution whose flow date is after `on` (shown, not counted as of
    `on`); True for every other entry."""
    flow_date = entry.flow_date
    return entry.kind not in _FLOW_KINDS or flow_date is None or flow_date <= on


def entries_as_of(entries: Iterable[PositionEntry], on: date) -> list[PositionEntry]:
    """The entries of documents dated on or before `on` (an undated entry always)."""
    return [e for e in entries if e.as_of_date is None or e.as_of_date <= on]


@dataclass(frozen=True, slots=True)
class Valued:
    """One currency's figures valued as of a date and their IRR (None: not valued)."""

    figures: Figures
    irr: Decimal | None


def value_entries(entries: Iterable[PositionEntry], on: date) -> list[Valued]:
    """The figures per currency of `entries` (already `entries_as_of(on)`) valued as of `on`, by
    currency code, every entry's currency among them: flows after `on` left out, NAV rolled
    forward to `on`, the IRR on the same basis."""
    builder = FiguresBuilder(flows=True)
    currencies = set()
    for entry in entries:
        currencies.add(entry.currency)
        if counts_by(entry, on):
            builder.add(entry)
    valued = []
    for code in sorted(currencies):  # a currency whose every flow is after `on`: zero figures
        figures = value_as_of(builder.figures(code), builder.dated_flows(code), on, builder.dated_activity(code))
        valued.append(Valued(figures, irr_as_of(figures, builder.flows(code))))
    return valued


def commitments_known_at(history: Iterable[CommitmentChange], at: datetime) -> tuple[CommitmentChange, ...]:
    """The commitment changes recorded at or before `at` (an untimed one always)."""
    return tuple(c for c in history if c.recorded_at is None or c.recorded_at <= at)


def commitment_known(history: Iterable[CommitmentChange], on: date, known_at: datetime | None) -> Decimal | None:
    """The commitment effective at `on` as known at `known_at` (None: as known now)."""
    held = tuple(history) if known_at is None else commitments_known_at(history, known_at)
    return commitment_as_of(held, on)


def valuation_date(as_of: date | None, known_at: datetime | None, today: date) -> date:
    """D: `as_of` when given, else the day of `known_at`, else today."""
    if as_of is not None:
        return as_of
    return known_at.date() if known_at is not None else today
