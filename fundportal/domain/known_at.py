"""What the portal counted at a moment T (`?known_at=`), from the current entries, the kept
versions of their earlier values (`entry_versions.EntryVersion`) and each document's approval
times (`approval_times.Approval`, kept on the position's register).

Only approved figures count, so a value counts from when it was approved, not from when it was
typed:
- a document first approved after T does not count at T (none of its values);
- a value counts from the approval it waited for (`approval_times.counted_from`): one set
  before the document's first approval from that approval, one set by a restatement from the
  restatement's approval; a value no approval covers (the approved value a restating document
  keeps counting, or any value of a document approved before approval times were kept) from
  when it was written;
- a value stands until the value replacing it counts (a removal: until the removal counts);
- a document with no approval time kept (approved before approval times were kept, or the
  seed's) counts as its values' own times say.

A position merge moves an entry from one position to another at a moment M (`moved_in`, kept
on the target's register; the source keeps the value as removed, `EntryVersion.moved_to`):
- on the target, the first value it holds stood under the other position until M, so it is set
  at M (or at its own time when later) and counts from then as any value set then would
  (`counted_from`): as known before M it does not count here;
- on the source, the value stands until its removal at M counts, as any removal: as known
  before M it counts there.
So at every moment a moved entry counts under exactly one of the two positions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from .approval_times import Approvals, counted_from, first_approved_at
from .entry_versions import EntryVersion, value_set_at
from .kinds import Kind
from .position_entries import PositionEntry

ValueKey = tuple[str, Kind, str]  # (document id, kind, position id)


@dataclass(frozen=True, slots=True)
class _Value:
    entry: PositionEntry
    start: datetime | None  # counts from (None: always)
    end: datetime | None  # until (None: still)

    def stands_at(self, at: datetime) -> bool:
        return (self.start is None or self.start <= at) and (self.end is None or self.end > at)


def _key(entry: PositionEntry | EntryVersion) -> ValueKey:
    return entry.document_id, entry.kind, entry.position_id


def _timeline(
    current: PositionEntry | None, kept: list[EntryVersion], approval: Approvals, moved_in: datetime | None
) -> list[_Value]:
    """An entry's values in order (kept versions, oldest replaced first, then the current one)
    with when each counted."""
    values: list[_Value] = []
    previous: EntryVersion | None = None
    for version in sorted(kept, key=lambda v: v.replaced_at):
        start = value_set_at(previous, version.updated_at, moved_in)
        end = counted_from(version.replaced_at, approval)
        values.append(_Value(version.entry(), counted_from(start, approval), end))
        previous = version
    if current is not None:
        start = value_set_at(previous, current.updated_at, moved_in)
        values.append(_Value(current, counted_from(start, approval), None))
    return values


def entries_counted_at(
    current: Iterable[PositionEntry],
    versions: Iterable[EntryVersion],
    approvals: Mapping[str, Approvals],
    at: datetime,
    moved_in: Mapping[tuple[str, Kind], datetime] | None = None,
) -> list[PositionEntry]:
    """The entries as counted at `at`: per entry, the value standing then (none: left out); a
    document first approved after `at` left out whole. `current` and `versions`: the counted
    documents' only; `moved_in`: when a merge moved each entry in, by (document id, kind)."""
    moved_in = moved_in or {}
    now = {_key(e): e for e in current}
    kept: dict[ValueKey, list[EntryVersion]] = {}
    for version in versions:
        kept.setdefault(_key(version), []).append(version)
    found = []
    for key in sorted(set(now) | set(kept), key=lambda k: (k[0], k[1].value, k[2])):
        approval = approvals.get(key[0], ())
        first = first_approved_at(approval)
        if first is not None and first > at:
            continue
        for value in _timeline(now.get(key), kept.get(key, []), approval, moved_in.get((key[0], key[1]))):
            if value.stands_at(at):
                found.append(value.entry)
                break
    return found
