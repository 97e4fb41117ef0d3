"""An approved document's amounts change only through approval.

Every entry write into a document whose approved values count (an Approved document, or one
whose restatement awaits approval) is a restatement (`fundportal.domain.restatement`): the
entry forms, the remove button, `manage.py` and the pattern explainer all reach it through
`documents.services`' entry writes, so no caller can change a counted amount directly.

- An Approved document's first such write starts a restatement in the same transaction: the
  document goes back to Draft and remembers the approved revision that keeps counting. Its
  header is unchanged, so no copy is archived (the values replaced are kept as entry versions,
  in the history partition: the seed's queries of the document see no new item). Later writes
  join it (the document's revision moves, so an approval that read it before is refused rather
  than leave a value unpromoted).
- A changed entry keeps its approved value where it counts and holds the new one apart; a
  removed entry keeps counting until the removal is approved; a new entry counts nothing until
  approved (`restatement.added`). Only a registered position takes a new entry this way: its
  register is what the approval recounts.
- Another user's approval promotes every pending value and recounts the registers
  (`documents.approval`, four eyes); Draft and Submitted documents are edited directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from documents import restatement
from fundportal.domain.errors import RestatementRefused
from fundportal.domain.kinds import DRAFT
from fundportal.domain.model import Document
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.restatement import added, restated
from fundportal.store.uow import NEW, UnitOfWork


def through_approval(document: Document) -> bool:
    """Whether an entry write into `document` waits for approval (its approved values count)."""
    return document.approved or document.restating


def restating_copy(document: Document, at: datetime, user: str) -> Document:
    """The approved `document` restated: back to Draft, its approved revision counting."""
    return replace(
        document,
        approval=DRAFT,
        counted_revision=document.revision,
        revision=document.revision + 1,
        updated_at=at,
        updated_by=user,
    )


def document_actions(
    uow: UnitOfWork, document: Document, at: datetime, user: str, *, refused: Callable[[], Exception]
) -> Document:
    """Start the restatement of an approved document, or join the pending one; conditioned on
    the revision read (an approval or another restatement landing first: `refused`, the write
    re-runs). The document as written."""
    if document.restating:
        restatement.touch(uow, document, at, user, refused=refused)
        return replace(document, revision=document.revision + 1, updated_at=at, updated_by=user)
    restating = restating_copy(document, at, user)
    uow.put(restating, expect=document.revision, name="document", refused=refused)
    return restating


def entry_actions(
    uow: UnitOfWork,
    document: Document,
    before: PositionEntry | None,
    after: PositionEntry,
    register: PositionRegister | None,
) -> PositionEntry:
    """Put `after` (a change of `before`, or a new entry) as pending in the restating `document`;
    the entry as stored."""
    if before is not None:
        restatement.entry_actions(uow, document, before, after)
        return restated(before, after)
    if register is None:  # a new position opens only in a document edited directly
        raise RestatementRefused(RestatementRefused.NEW_POSITION, document.document_id, after.position_id)
    pending = added(after)
    uow.put(pending, expect=NEW, name="entry", stamped=True)
    return pending
