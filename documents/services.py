"""Writes to documents (create, restate) and their rules; the entry writes are
`documents.entry_writes` (re-exported here: `services.entry_record` is the entry point callers use).

- A document's as-of date is fixed once created; a restatement archives the current copies
  under their date and revision and replaces them, conditioned on the revision the editor saw.
- An entry takes its document's as-of date, currency, title and type (denormalised for the
  position index); a restatement changing the title or type refreshes them (`entry_copies`).
- Every write carries an audit item with the exact before/after values, in the same transaction.
- Idempotency: a form's submission token names the request. The same token with the same values
  is success (a double click, a retry whose reply was lost: never a 500 or a false conflict); the
  same token with other values (Back, edit, submit again) is applied as a new write on top of the
  form's own one, never reported saved and dropped. The unit of work (`fundportal.store.uow`)
  keeps the token, the hash of what was asked and the re-checks of a request still in flight.
- Changes and removals are conditioned on the entry's `Revision` the form showed (incremented on
  every change), so two saves in the same second cannot both win.

Views and commands call these functions (keyword-only); each is its rule, then `with uow:`.
Each takes the caller's access scope (`scope=`; commands in operator mode pass none): a write to
a fund outside it is NotFound, to a covered fund the user may only read NotPermitted, before
anything is written.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from documents import entry_copies, restatement
from documents.audit_fields import ACTIVITY_FIELDS, DOCUMENT_FIELDS, ENTRY_FIELDS, entry_target
from documents.entry_writes import entry_change, entry_put, entry_record, entry_remove
from documents.spellings import refuse_other_spellings
from fundportal.domain import dates
from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.audit_trail import AuditEntry, diff
from fundportal.domain.entry_versions import instant
from fundportal.domain.errors import Conflict, InvalidId, LeftoverEntries, NotFound
from fundportal.domain.kinds import DRAFT, SearchKind
from fundportal.domain.model import CapitalActivity, Document, utcnow
from fundportal.domain.position_entries import PositionEntry, with_document_copies
from fundportal.store.uow import NEW, UnitOfWork

# The entry writes, re-exported: every caller writes through `documents.services`.
__all__ = [
    "document_create",
    "document_restate",
    "entry_change",
    "entry_put",
    "entry_record",
    "entry_remove",
]


def document_create(
    *,
    document: Document,
    activity: CapitalActivity | None = None,
    user: str,
    token: str | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> Document:
    """Create a document (and its capital activity) at revision 1; AlreadyExists if the id is taken
    (unless this very request, same token and values, created it: then it is success)."""
    scope.require_edit(document.fund_id, "Fund", document.fund_id)
    if document.as_of_date is not None and not dates.in_range(document.as_of_date):
        raise InvalidId("as-of date", document.as_of_date.isoformat())
    uow = uow or UnitOfWork()
    uow.request(token, "create", *(getattr(document, f) for f in DOCUMENT_FIELDS), activity and activity.amount)
    return uow.run(lambda: _create(uow, document, activity, user))


def _create(uow: UnitOfWork, document: Document, activity: CapitalActivity | None, user: str) -> Document:
    now = utcnow()
    # A new document is a draft: its entries count once another user approves it.
    document = replace(document, revision=1, latest=True, updated_at=now, updated_by=user, approval=DRAFT)
    audit = AuditEntry(document.document_id, now, user, "create", "Document", diff(None, document, DOCUMENT_FIELDS))
    with uow:
        # With its companions: its month and fund listed, its id and fund's found by search.
        uow.put(document, expect=NEW, name="document", stamped=True, companions=True)
        if activity is not None:
            uow.put(_first_activity(activity, document), name="capital activity")
        uow.put(audit, expect=NEW, name="audit")
        _refuse_adopting(uow, document)  # after the puts: an item too large is refused before any request
        uow.commit()
    return document


def _refuse_adopting(uow: UnitOfWork, document: Document) -> None:
    """A new document never adopts entries already in its partition (an import that never
    finished, or left behind), nor becomes another spelling of an existing document or fund."""
    leftover = uow.documents.leftover_entries(document.document_id)
    if leftover:
        raise LeftoverEntries(document.document_id, leftover)
    ids = [(SearchKind.DOCUMENT, document.document_id, "document id")]
    refuse_other_spellings(uow, [*ids, (SearchKind.FUND, document.fund_id, "fund id")])


def _first_activity(activity: CapitalActivity, document: Document) -> CapitalActivity:
    return replace(
        activity,
        document_id=document.document_id,
        revision=1,
        latest=True,
        updated_at=document.updated_at,
        updated_by=document.updated_by,
        as_of_date=document.as_of_date,
    )


def document_restate(
    *,
    document_id: str,
    expected_revision: int,
    changes: dict[str, Any],
    activity_changes: dict[str, Any] | None = None,
    entries: list[PositionEntry] | None = None,
    user: str,
    token: str | None = None,
    on: date | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> Document:
    """Publish a restated document: archive the current document and capital activity under
    dated SKs and replace them, conditioned on `expected_revision` (Conflict otherwise).
    `entries`: restated position amounts (amount, status, due date of existing entries). An
    approved document goes back through approval; its approved values keep counting meanwhile
    (`documents.restatement`)."""
    if changes.get("fund_id"):
        scope.require_edit(changes["fund_id"], "Fund", changes["fund_id"])
    uow = uow or UnitOfWork()
    restated = [(e.kind.value, e.position_id, e.amount, e.status, e.due_date) for e in entries or []]
    uow.request(token, "restate", document_id, expected_revision, changes, activity_changes, restated)
    return uow.run(
        lambda: _restate(
            uow, document_id, expected_revision, changes, activity_changes or {}, entries or [], user, on, scope
        )
    )


def _restate(
    uow: UnitOfWork,
    document_id: str,
    expected_revision: int,
    changes: dict[str, Any],
    activity_changes: dict[str, Any],
    entries: list[PositionEntry],
    user: str,
    on: date | None,
    scope: AccessScope,
) -> Document:
    loaded, activity = uow.documents.load_for_restatement(document_id)
    current = loaded.entity
    if current is None:
        raise NotFound("Document", document_id)
    scope.require_edit(current.fund_id, "Document", document_id)
    if current.revision != expected_revision:
        if uow.landed(loaded.token, loaded.request_hash):
            return current  # this restatement already landed; only its reply was lost
        if not uow.resubmitted(loaded.token):
            raise _stale(current, expected_revision)
        expected_revision = current.revision  # the same form with other values: on top of its own
    on, now = on or utcnow().date(), utcnow()
    changes = {k: v for k, v in changes.items() if k != "as_of_date"}  # the as-of date is fixed
    document = replace(current, **changes, revision=expected_revision + 1, updated_at=now, updated_by=user)
    document = restatement.restated_document(current, document)
    audit_changes = diff(current, document, DOCUMENT_FIELDS)
    restated = restatement.restated_entries(uow, document, entries, now, user)
    stale: list[PositionEntry] = []
    if entry_copies.copies_changed(current, document):  # the entries' title and type copies follow
        restated = [(with_document_copies(b, document), with_document_copies(a, document)) for b, a in restated]
        put_whole = {(after.kind.value, after.position_id) for _, after in restated}
        stale = entry_copies.stale_entries(uow, document, skip=put_whole)
    for before, after in restated:
        audit_changes.update({f"{entry_target(after)}.{k}": v for k, v in diff(before, after, ENTRY_FIELDS).items()})
    new_activity = None
    if activity is not None or activity_changes:
        base = activity or CapitalActivity(document_id=document_id, as_of_date=current.as_of_date)
        new_activity = replace(
            base, **activity_changes, revision=document.revision, latest=True, updated_at=now, updated_by=user
        )
        audit_changes.update({f"activity.{k}": v for k, v in diff(activity, new_activity, ACTIVITY_FIELDS).items()})
    with uow:
        uow.put(document, expect=expected_revision, name="document", stamped=True)
        superseded_at = instant()  # orders the archived copy before any later write of this second
        uow.put(current.superseded(on, superseded_at), expect=NEW, name="archived document")
        if new_activity is not None:
            uow.put(new_activity, name="capital activity")
        if activity is not None:
            archived = replace(activity.superseded(on, superseded_at), version_revision=expected_revision)
            uow.put(archived, expect=NEW, name="archived activity")
        for before, after in restated:
            restatement.entry_actions(uow, document, before, after, stamped=False)
        uow.put(AuditEntry(document_id, now, user, "restate", "Document", audit_changes), expect=NEW, name="audit")
        rest = entry_copies.add_copies(uow, document, stale)
        uow.commit()
    entry_copies.follow_up(uow, document, rest)  # the copies that did not fit, 100 a transaction
    return document


def _stale(current: Document, expected_revision: int) -> Conflict:
    return Conflict(
        "Document", current.document_id, expected_revision, current.revision, current.updated_by, current.updated_at
    )
