"""Every LP amount versioned: when a position entry (capital call, distribution, unfunded
commitment, NAV) is changed or removed, the value it had is kept as an `EntryVersion` (the
value, when and by whom it was set, when and by whom it was replaced, and whether it was
removed), written in the same transaction as the change.

From the current entries and the kept versions, `entries_at` gives a document's entries as they
stood at any moment, and `amount_changes` the per-position differences between two such moments
(the document compare page: header and amounts between any two versions).

A position merge moves an entry to another position in the same document: the moved entry's
value is kept as removed from the mistyped position (`moved_to` names the position it went to),
and the entry stands under its new position from that moment, so the compare page shows the
move (removed from one position, added to the other)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from .kinds import POSITION_KINDS, Kind
from .position_entries import ENTRY_CLASSES, PositionEntry, set_parts

EntryKey = tuple[Kind, str]  # (kind, position id)


@dataclass(frozen=True, slots=True)
class EntryVersion:
    """A value a position entry held before it was changed (`removed=False`) or removed."""

    document_id: str
    kind: Kind
    position_id: str
    replaced_at: datetime
    replaced_by: str
    revision: int = 1  # the entry's revision while it held this value
    removed: bool = False
    fund_id: str = ""
    investor_id: str = ""
    amount: Decimal = Decimal(0)
    status: str = "Pending"
    currency: str = "USD"
    as_of_date: date | None = None
    due_date: date | None = None
    updated_at: datetime | None = None  # when this value was set (None: loaded before times were kept)
    updated_by: str | None = None
    # The kind's own fields (`model.entry_parts`: a split, a fee line...) as (name, value) pairs,
    # those at their default (None, False) left out.
    parts: tuple[tuple[str, Any], ...] = ()
    moved_to: str = ""  # removed by a merge: the position the entry moved to

    @classmethod
    def of(
        cls, before: PositionEntry, at: datetime, by: str, *, removed: bool = False, moved_to: str = ""
    ) -> EntryVersion:
        """The version keeping `before`, replaced at `at` by `by` (removed or changed; `moved_to`:
        removed by a merge into that position)."""
        return cls(
            document_id=before.document_id,
            kind=before.kind,
            position_id=before.position_id,
            replaced_at=at,
            replaced_by=by,
            revision=before.revision,
            removed=removed,
            fund_id=before.fund_id,
            investor_id=before.investor_id,
            amount=before.amount,
            status=before.status,
            currency=before.currency,
            as_of_date=before.as_of_date,
            due_date=before.due_date,
            updated_at=before.updated_at,
            updated_by=before.updated_by,
            parts=set_parts(before),
            moved_to=moved_to,
        )

    @property
    def key(self) -> EntryKey:
        return self.kind, self.position_id

    def entry(self) -> PositionEntry:
        """The entry as it stood while it held this value."""
        return ENTRY_CLASSES[self.kind](
            document_id=self.document_id,
            position_id=self.position_id,
            fund_id=self.fund_id,
            investor_id=self.investor_id,
            amount=self.amount,
            status=self.status,
            currency=self.currency,
            as_of_date=self.as_of_date,
            due_date=self.due_date,
            updated_at=self.updated_at,
            updated_by=self.updated_by,
            revision=self.revision,
            **dict(self.parts),
        )


def instant() -> datetime:
    """Now, in UTC, to the microsecond: when a value is replaced or a document superseded, so
    that writes within one second still sort in the order they were made."""
    return datetime.now(UTC)


def entries_at(
    current: Iterable[PositionEntry], versions: Iterable[EntryVersion], at: datetime | None
) -> dict[EntryKey, PositionEntry]:
    """A document's entries as they stood at `at` (None: now, the current entries).

    Per entry, its values in order: the kept versions (oldest replaced first), then the current
    entry. A value stood from when it was set (when the value before it was replaced, or, for a
    first value or one recorded again after a removal, its own `updated_at`; unknown: always)
    until it was replaced (the current value: until now). A first value that a merge moved in
    stood from the move."""
    now = {(e.kind, e.position_id): e for e in current}
    if at is None:
        return now
    timelines: dict[EntryKey, list[EntryVersion]] = {}
    moved_in: dict[EntryKey, datetime] = {}
    for version in versions:
        timelines.setdefault(version.key, []).append(version)
        if version.moved_to:
            into = (version.kind, version.moved_to)
            moved_in[into] = max(moved_in.get(into, version.replaced_at), version.replaced_at)
    found: dict[EntryKey, PositionEntry] = {}
    for key in set(now) | set(timelines):
        kept = sorted(timelines.get(key, []), key=lambda v: v.replaced_at)
        values: list[tuple[datetime | None, datetime | None, PositionEntry]] = []
        previous: EntryVersion | None = None
        for version in kept:
            values.append(
                (value_set_at(previous, version.updated_at, moved_in.get(key)), version.replaced_at, version.entry())
            )
            previous = version
        if key in now:
            values.append((value_set_at(previous, now[key].updated_at, moved_in.get(key)), None, now[key]))
        for set_at, replaced_at, entry in values:
            if (set_at is None or set_at <= at) and (replaced_at is None or replaced_at > at):
                found[key] = entry
                break
    return found


def value_set_at(
    previous: EntryVersion | None, updated_at: datetime | None, moved_in: datetime | None = None
) -> datetime | None:
    """When a value was set: when the value before it was replaced, unless that one was removed
    (this value was recorded anew) or there is none: its own time (None: unknown), and for a
    first value a merge moved in, the move when later (its own time is kept from the position it
    came from). The one rule for the compare page and the known-at views."""
    if previous is not None and not previous.removed:
        return previous.replaced_at
    if previous is None and moved_in is not None:
        return moved_in if updated_at is None else max(moved_in, updated_at)
    return updated_at


@dataclass(frozen=True, slots=True)
class AmountChange:
    """One position's entry of one kind that differs between two moments (None: absent then)."""

    position_id: str
    kind: Kind
    before: PositionEntry | None
    after: PositionEntry | None

    @property
    def what(self) -> str:
        if self.before is None:
            return "added"
        if self.after is None:
            return "removed"
        return "changed"

    @property
    def difference(self) -> Decimal | None:
        """after - before, in the entry's currency (None when absent on a side or currencies differ)."""
        if self.before is None or self.after is None or self.before.currency != self.after.currency:
            return None
        return self.after.amount - self.before.amount


_COMPARED = ("amount", "currency", "status", "due_date")


def amount_changes(before: dict[EntryKey, PositionEntry], after: dict[EntryKey, PositionEntry]) -> list[AmountChange]:
    """The entries whose amount, currency, status or due date differ between two moments, by
    position then kind (the document page's column order)."""
    order = {kind: i for i, kind in enumerate(POSITION_KINDS)}
    changes = []
    for key in sorted(set(before) | set(after), key=lambda k: (k[1], order.get(k[0], len(order)))):
        old, new = before.get(key), after.get(key)
        if old is not None and new is not None and all(getattr(old, f) == getattr(new, f) for f in _COMPARED):
            continue
        changes.append(AmountChange(key[1], key[0], old, new))
    return changes
