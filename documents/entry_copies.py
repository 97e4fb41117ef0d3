"""A document's title and type are copied onto each of its entries (`position_entries.of_document`)
so the position page shows them from the position index alone. A restatement that changes either
refreshes the copies:

- the entries are read (one consistent Query of the document's partition) before the restatement's
  transaction, and as many copies as fit ride in it (at most 100 actions a transaction); the rest
  follow in transactions of at most 100 updates each, right after it, in the same call;
- each copy is an update of the two attributes alone, conditioned on the entry still existing:
  its values and revision stay, so a form open on the entry still saves;
- a follow-up part refused (an entry removed meanwhile) is read again and retried, a bounded
  number of times; what is still stale then (never a figure: only the title and type shown) is
  put right by `manage.py backfill_indexes`.
"""

from __future__ import annotations

from fundportal.domain.errors import Conflict, NotFound
from fundportal.domain.model import Document
from fundportal.domain.position_entries import PositionEntry
from fundportal.store.repositories.imports import MAX_TRANSACTION_ITEMS
from fundportal.store.uow import RegisterChanged, UnitOfWork

FOLLOW_UP_ATTEMPTS = 3


def copies_changed(before: Document, after: Document) -> bool:
    """Whether `after` (a new current copy of `before`) changes what its entries copy."""
    return (before.title, before.document_type) != (after.title, after.document_type)


def is_stale(entry: PositionEntry, document: Document) -> bool:
    """Whether `entry`'s copies differ from `document`'s title and type (absent ones included)."""
    return (entry.document_title, entry.document_type) != (document.title, document.document_type)


def stale_entries(uow: UnitOfWork, document: Document, *, skip: set[tuple[str, str]]) -> list[PositionEntry]:
    """The document's entries whose copies differ from `document`, but those keyed in `skip`
    ((kind, position id): entries the same transaction puts whole, with their copies)."""
    return [
        e
        for e in uow.documents.entries_of(document.document_id)
        if (e.kind.value, e.position_id) not in skip and is_stale(e, document)
    ]


def add_copies(uow: UnitOfWork, document: Document, entries: list[PositionEntry]) -> list[PositionEntry]:
    """Add to `uow` the copy refresh of as many `entries` as its transaction has room for (a
    removed entry makes the write re-run: `RegisterChanged`); the entries left for `follow_up`."""
    room = max(MAX_TRANSACTION_ITEMS - len(uow.actions), 0)
    for entry in entries[:room]:
        uow.refresh_copies(entry, document, name="entry copy", refused=_moved)
    return entries[room:]


def follow_up(uow: UnitOfWork, document: Document, entries: list[PositionEntry]) -> int:
    """Refresh the copies of `entries` (left over by `add_copies`) in transactions of at most 100
    updates; how many were written. A refused part is read again (those still there and stale)."""
    written = 0
    for start in range(0, len(entries), MAX_TRANSACTION_ITEMS):
        part = entries[start : start + MAX_TRANSACTION_ITEMS]
        for _ in range(FOLLOW_UP_ATTEMPTS):
            if not part:
                break
            try:
                with UnitOfWork(uow.gateway) as unit:
                    for entry in part:
                        unit.refresh_copies(entry, document, name="entry copy", refused=_moved)
                    unit.commit()
                written += len(part)
                break
            except (RegisterChanged, Conflict, NotFound):
                wanted = [(e.kind, e.position_id) for e in part]
                found = uow.documents.entries_by_key(document.document_id, wanted)
                part = [e for e in found.values() if is_stale(e, document)]
    return written


def _moved() -> Exception:
    return RegisterChanged(())
