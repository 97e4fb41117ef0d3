"""Restating an approved document goes back through approval; the approved version keeps
counting until the restatement is approved.

- Restating an approved document (its header, capital activity or position amounts) archives
  the approved copy and puts the document back to Draft, remembering the approved revision
  (`Document.counted_revision`): it is then *restating*. Submit and approve as for any draft,
  four eyes included.
- While a document is restating, a changed or removed entry keeps its approved value where it
  counts (amount, status, due date: what the registers, the position index, exports and
  `verify_positions` read) and holds the restated value apart (`PositionEntry.restated`), shown
  on the document and compare pages as awaiting approval. The registers do not move.
- Approving the restatement promotes every restated value (a restated removal removes the
  entry) and recounts the registers, in the one transaction that marks the document Approved.
- An entry change, removal or addition on an approved document (the entry forms, the remove
  button, commands: `documents.approved_edits`) starts a restatement, or joins the one pending.
  A new entry (`added`) has no approved value: it is held as a cancelled zero entry (which no
  figure counts) with its value apart, marked added; approving the restatement promotes it.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from .entries import CANCELLED
from .position_entries import PositionEntry, RestatedValue, set_parts, with_parts


def shown(entry: PositionEntry) -> PositionEntry | None:
    """The entry as the document now states it: its restated value when it has one (None:
    restated away), else the entry itself."""
    restated = entry.restated
    if restated is None:
        return entry
    if restated.removed:
        return None
    if restated.parts is not None:
        entry = with_parts(entry, restated.parts)
    return replace(
        entry,
        amount=restated.amount,
        status=restated.status,
        due_date=restated.due_date,
        updated_at=restated.updated_at or entry.updated_at,
        updated_by=restated.updated_by or entry.updated_by,
        restated=None,
    )


def restated(before: PositionEntry, after: PositionEntry) -> PositionEntry:
    """`after` written into a restating document: `before`'s approved value keeps counting and
    `after`'s value is held apart (with `after`'s who/when; the entry takes `after`'s revision
    and keeps the counted value's who/when, by which the register ranks it)."""
    added = before.restated is not None and before.restated.added
    parts = set_parts(after)
    value = RestatedValue(
        after.amount,
        after.status,
        after.due_date,
        added=added,
        updated_at=after.updated_at,
        updated_by=after.updated_by,
        # A changed split (fee line, carry stage...) waits with the amount; none kept if unchanged.
        parts=None if parts == set_parts(before) else parts,
    )
    return replace(before, restated=value, revision=after.revision)


def added(after: PositionEntry) -> PositionEntry:
    """`after` recorded new in a document whose approved values count: it counts nothing until
    the restatement is approved (held cancelled at zero, which no figure counts) and its value
    waits apart, marked added."""
    value = RestatedValue(
        after.amount, after.status, after.due_date, added=True, updated_at=after.updated_at, updated_by=after.updated_by
    )
    return replace(after, amount=Decimal(0), status=CANCELLED, due_date=None, restated=value)


def restated_removal(before: PositionEntry, after: PositionEntry) -> PositionEntry:
    """`before` removed in a restating document: kept, counting, until the removal is approved
    (`after` carries the new revision and who/when)."""
    value = RestatedValue(before.amount, before.status, before.due_date, removed=True)
    if before.restated is not None:
        value = replace(before.restated, removed=True)
    value = replace(value, updated_at=after.updated_at, updated_by=after.updated_by)
    return replace(before, restated=value, revision=after.revision)


def promoted(entry: PositionEntry) -> PositionEntry | None:
    """The entry once its restatement is approved (None: removed); unchanged if not restated."""
    return shown(entry)
