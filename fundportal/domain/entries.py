"""Which entries count, how, and which one is latest: the rules every figure
(`fundportal.domain.figures`) reads its entries by.

- Cancelled never counts: cancelled entries are shown on pages but never totalled, and never
  picked as the latest unfunded commitment or NAV.
- Pending calls and distributions count, and are also reported apart. Every status other than
  Pending and Cancelled (Completed, Active) is settled.
- Latest (unfunded commitment, NAV) is the greatest (as_of_date or date.min, updated_at or
  datetime.min UTC, document_id); naive timestamps are read as UTC, and a full tie keeps the
  larger amount, so the pick never depends on the order entries arrive in, nor on where a page
  boundary falls.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Protocol

from .kinds import Kind

PENDING = "Pending"
CANCELLED = "Cancelled"
SETTLED = ("Completed", "Active")  # the known settled statuses; any status but Pending/Cancelled settles
MIN_AT = datetime.min.replace(tzinfo=UTC)

UnfundedKey = tuple[date, datetime, str]


Rank = tuple[UnfundedKey, Decimal]  # (latest key, amount) of an unfunded or NAV entry
LATEST_KINDS = (Kind.UNFUNDED_COMMITMENT, Kind.NAV)  # kinds whose figure is the latest entry, not a sum


class EntryLike(Protocol):
    """What the figures read from a position entry (`fundportal.domain.position_entries.PositionEntry`)."""

    @property
    def kind(self) -> Kind: ...
    @property
    def amount(self) -> Decimal: ...
    @property
    def currency(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def document_id(self) -> str: ...
    @property
    def as_of_date(self) -> date | None: ...
    @property
    def updated_at(self) -> datetime | None: ...
    @property
    def flow_date(self) -> date | None: ...


def counts(status: str) -> bool:
    """Whether an entry with this status counts in any figure (False only for Cancelled)."""
    return status != CANCELLED


def is_pending(status: str) -> bool:
    """Pending calls/distributions count, and are also reported apart."""
    return status == PENDING


def is_settled(status: str) -> bool:
    """Every status other than Pending and Cancelled is settled."""
    return status != PENDING and status != CANCELLED


def aware(at: datetime | None) -> datetime:
    """`at` with a time zone (naive = UTC); the earliest instant for None."""
    return MIN_AT if at is None else at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def rank(entry: EntryLike) -> tuple[UnfundedKey, Decimal]:
    """Which unfunded entry is latest: its key, then (full ties only) the larger amount."""
    return (entry.as_of_date or date.min, aware(entry.updated_at), entry.document_id), entry.amount


def latest_unfunded(entries: Iterable[EntryLike]) -> EntryLike | None:
    """The latest non-cancelled unfunded-commitment entry (rule in the module docstring), or None."""
    return latest(entries, Kind.UNFUNDED_COMMITMENT)


def latest(entries: Iterable[EntryLike], kind: Kind) -> EntryLike | None:
    """The latest non-cancelled entry of `kind` (unfunded commitment or NAV), or None."""
    found = (e for e in entries if e.kind is kind and counts(e.status))
    return max(found, key=rank, default=None)
