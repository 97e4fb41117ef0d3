"""Effective-dated commitments: each change of a position's commitment has the date it takes
effect from, a reason, and who recorded it when. As-of figures (statements, computed unfunded,
`reconcile --as-of`) use the commitment effective at their date (`commitment_as_of`).

- A register recorded before commitments were dated holds a commitment and no history: that
  commitment counts as effective from the earliest date (`EARLIEST_EFFECTIVE`), so every as-of
  figure keeps the value it showed before (`history_of`). Its first dated change keeps it as the
  first line of the history.
- A change takes effect on or before the day it is recorded (`check_change`): a commitment
  agreed for a later date is recorded on that date, so the register's commitment is always the
  one effective today.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from .errors import InvalidCommitmentChange

# The effective date of a commitment recorded before commitments were dated.
EARLIEST_EFFECTIVE = date.min
REASON_MAX_LENGTH = 200


@dataclass(frozen=True, slots=True)
class CommitmentChange:
    """One change of a commitment: `amount` (in the register's currency) from `effective_on`."""

    effective_on: date
    amount: Decimal
    reason: str = ""
    recorded_at: datetime | None = None
    recorded_by: str = ""

    @property
    def undated(self) -> bool:
        """Recorded before commitments were dated (effective from the earliest date)."""
        return self.effective_on == EARLIEST_EFFECTIVE


def commitment_as_of(history: Iterable[CommitmentChange], on: date) -> Decimal | None:
    """The commitment effective on `on`: the amount of the change with the latest effective
    date on or before `on`; of changes effective the same day, the one recorded last (a
    correction); None when no change is effective yet (no commitment on that date)."""
    change = change_in_effect(history, on)
    return None if change is None else change.amount


def change_in_effect(history: Iterable[CommitmentChange], on: date) -> CommitmentChange | None:
    """The change whose amount `commitment_as_of` gives for `on` (None: none effective yet)."""
    effective = [c for c in history if c.effective_on <= on]
    return max(effective, key=_order) if effective else None


def history_of(commitment: Decimal | None, history: Iterable[CommitmentChange]) -> tuple[CommitmentChange, ...]:
    """A register's dated history, oldest effective first: `history` as recorded or, for a
    register with a commitment and no history, that commitment effective from the earliest date."""
    held = tuple(history)
    if not held and commitment is not None:
        held = (CommitmentChange(EARLIEST_EFFECTIVE, commitment),)
    return tuple(sorted(held, key=_order))


def check_change(change: CommitmentChange, today: date) -> None:
    """A change needs a reason and takes effect no later than the day it is recorded."""
    if not change.reason.strip():
        raise InvalidCommitmentChange("reason", "missing")
    if len(change.reason) > REASON_MAX_LENGTH:
        raise InvalidCommitmentChange("reason", "too_long")
    if change.effective_on > today:
        raise InvalidCommitmentChange("effective_on", "future")


def _order(change: CommitmentChange) -> tuple[date, str]:
    return change.effective_on, change.recorded_at.isoformat() if change.recorded_at else ""


def with_change(
    commitment: Decimal | None, history: Iterable[CommitmentChange], change: CommitmentChange, today: date
) -> tuple[Decimal | None, tuple[CommitmentChange, ...]]:
    """A register's (commitment effective today, history) once `change` is recorded on `today`
    (checked by `check_change`); an undated commitment stays as the history's first line."""
    check_change(change, today)
    held = tuple(sorted((*history_of(commitment, history), change), key=_order))
    return commitment_as_of(held, today), held
