"""Restating an approved document goes back through approval (`fundportal.domain.restatement`):
the service side of a restatement's entries and of approving it.

- `restated_document`: the new current copy of a restatement; an approved document goes back to
  Draft and remembers the approved revision that keeps counting.
- `entry_actions` / `removal_actions`: an entry write into a restating document keeps the
  approved value where it counts, holds the new value apart, and keeps the value it replaces
  (an `EntryVersion`); the registers do not move.
- `promotion_actions`: approving a restatement promotes every restated value (a restated
  removal removes the entry) and recounts each position's register with the one accumulator,
  in the approving transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime

from fundportal.domain.entry_versions import EntryVersion, instant
from fundportal.domain.errors import RestatementRefused
from fundportal.domain.kinds import DRAFT
from fundportal.domain.model import Document, utcnow
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.restatement import promoted, restated, restated_removal, shown
from fundportal.store.repositories.imports import MAX_TRANSACTION_ITEMS
from fundportal.store.uow import NEW, REGISTER_ACTIONS, UnitOfWork, unchanged
from positions import services as position_services


def restated_document(current: Document, document: Document) -> Document:
    """`document` (the restated copy of `current`): an approved document goes back to Draft and
    its approved revision keeps counting until the restatement is approved."""
    if current.approved:
        return replace(document, approval=DRAFT, counted_revision=current.revision)
    return document


def touch(uow: UnitOfWork, document: Document, at: datetime, user: str, *, refused: Callable[[], Exception]) -> None:
    """An entry write into a restating document changes the document: its revision moves (so an
    approval that read it before is refused rather than leave this value unpromoted), conditioned
    on the revision read (an approval or restatement landing first: `refused`, the write re-runs)."""
    changed = replace(document, revision=document.revision + 1, updated_at=at, updated_by=user)
    uow.put(changed, expect=document.revision, name="document", refused=refused)


def entry_actions(
    uow: UnitOfWork, document: Document, before: PositionEntry | None, after: PositionEntry, *, stamped: bool = True
) -> None:
    """Put `after` (a change of `before`) into a restating document: its approved value keeps
    counting, the new value waits apart, the value it replaces is kept. `stamped`: the entry is
    the request's own item (an entry write; a restatement stamps its document)."""
    if before is None:
        raise RestatementRefused(RestatementRefused.NEW_ENTRY, document.document_id, _what(after))
    uow.put(restated(before, after), expect=unchanged(before), name="entry", stamped=stamped)
    _keep(uow, before, after.updated_by or "", removed=False)


def removal_actions(uow: UnitOfWork, before: PositionEntry, user: str) -> PositionEntry:
    """Remove `before` from a restating document: kept, counting, until the removal is approved
    (the entry as stored)."""
    after = replace(before, revision=before.revision + 1, updated_at=utcnow(), updated_by=user)
    stored = restated_removal(before, after)
    uow.put(stored, expect=unchanged(before), name="entry")
    _keep(uow, before, user, removed=True)
    return stored


def _keep(uow: UnitOfWork, before: PositionEntry, user: str, *, removed: bool) -> None:
    """The value the document stated before this write, kept (none if it was restated away)."""
    was = shown(before)
    if was is not None:
        uow.put(EntryVersion.of(was, instant(), user, removed=removed), expect=NEW, name="entry version")


def restated_entries(
    uow: UnitOfWork, document: Document, entries: list[PositionEntry], now: datetime, user: str
) -> list[tuple[PositionEntry, PositionEntry]]:
    """(as stored, as restated) of each restated entry; only an approved (or restating) document's
    amounts are restated (a draft's are changed directly), and only existing entries."""
    if not entries:
        return []
    if not document.restating:
        raise RestatementRefused(RestatementRefused.NOT_COUNTED, document.document_id)
    found = uow.documents.entries_by_key(document.document_id, [(e.kind, e.position_id) for e in entries])
    pairs = []
    for entry in entries:
        before = found.get((entry.kind, entry.position_id))
        if before is None:
            raise RestatementRefused(RestatementRefused.NEW_ENTRY, document.document_id, _what(entry))
        after = replace(  # a status or due date not given is kept
            before,
            amount=entry.amount,
            status=entry.status or before.status,
            due_date=entry.due_date or before.due_date,
            revision=before.revision + 1,
            updated_at=now,
            updated_by=user,
        )
        pairs.append((before, after))
    return pairs


def _what(entry: PositionEntry) -> str:
    return f"{entry.kind.entity_type} for {entry.position_id}"


def promotion_actions(uow: UnitOfWork, document_id: str, entries: Iterable[PositionEntry]) -> int:
    """Add to `uow` the promotion of the restated `entries` and their positions' recounted
    registers (read here, with the entries the recounts need); the number of actions added.
    RestatementRefused when they would not fit one transaction beside the document and audit."""
    restated_entries = [e for e in entries if e.restated is not None]
    by_position: dict[str, list[PositionEntry]] = {}
    for entry in restated_entries:
        by_position.setdefault(entry.position_id, []).append(entry)
    if len(restated_entries) + REGISTER_ACTIONS * len(by_position) > MAX_TRANSACTION_ITEMS - 2:
        raise RestatementRefused(RestatementRefused.TOO_LARGE, document_id, f"{len(restated_entries)} entries")
    registers = uow.imports.registers(sorted(by_position))
    for position_id, held in sorted(by_position.items()):
        register = registers.get(position_id)
        new = _recounted(uow, register, held) if register is not None else None
        for entry in held:
            after = promoted(entry)
            if after is None:
                uow.delete(entry, expect=unchanged(entry), name="entry")
            else:
                uow.put(after, expect=unchanged(entry), name="entry")
        if register is not None and new is not None:
            uow.put(new, expect=register.revision, name="register", was=register)
    return len(restated_entries) + REGISTER_ACTIONS * len(by_position)


def _recounted(uow: UnitOfWork, register: PositionRegister, held: list[PositionEntry]) -> PositionRegister:
    """The register with each restated entry's approved value replaced by its restated one."""
    new = register
    for entry in held:
        counted = replace(entry, restated=None)  # the approved value, as the register counts it
        kind = position_services.recount_needed(new, counted)
        others = [_counted(e) for e in uow.documents.position_entries(entry.position_id, kind)] if kind else []
        new = position_services.register_after(new, counted, promoted(entry), others)
    # The restated values (set from the earliest of them) count from now.
    at = instant()
    since = min((e.restated.updated_at for e in held if e.restated and e.restated.updated_at), default=at)
    new = new.approved_at(held[0].document_id, at, since)
    return replace(new, revision=register.revision + 1, updated_at=utcnow())


def _counted(entry: PositionEntry) -> PositionEntry:
    return replace(entry, restated=None)
