"""Writes to documents and their entries: the rules, in one place.

- A document's as-of date is fixed once created; a restatement archives the current copies
  under their date and revision and replaces them, conditioned on the revision the editor saw.
- An entry takes its document's as-of date and currency (denormalised for the position index).
- Every write carries an audit item with the exact before/after values, in the same transaction.
- Idempotency: a form's submission token is the transaction's ClientRequestToken and is stored
  on the written item, so a retried submission whose reply was lost is success, not a conflict.

Views and commands call these functions (keyword-only); the repository does the requests.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from fundportal.dynamo.entities import AuditEntry, CapitalActivity, Document, PositionEntry, diff, utcnow
from fundportal.dynamo.errors import (
    AlreadyExists,
    Conflict,
    DataLayerError,
    IdempotencyMismatch,
    NotFound,
    StoreUnavailable,
    TransactionCancelled,
)
from fundportal.dynamo.keys import Kind
from fundportal.dynamo.repositories import DocumentRepository

DOCUMENT_FIELDS = ("title", "fund_id", "as_of_date", "status", "currency")
ACTIVITY_FIELDS = ("amount", "status", "currency")
ENTRY_FIELDS = ("amount", "status", "currency", "due_date", "fund_id", "investor_id")


def _token(token: str | None) -> str:
    return token or uuid.uuid4().hex


def _failed(error: DataLayerError) -> DataLayerError:
    """A cancelled write for no reason the user can act on."""
    if isinstance(error, TransactionCancelled) and "TransactionConflict" in error.reasons:
        return StoreUnavailable("the document is busy with other writes; try again")
    return error


def document_create(
    *,
    document: Document,
    activity: CapitalActivity | None = None,
    user: str,
    token: str | None = None,
    repository: DocumentRepository | None = None,
) -> Document:
    """Create a document (and its capital activity) at revision 1; AlreadyExists if the id is taken."""
    now = utcnow()
    document = replace(document, revision=1, latest=True, updated_at=now, updated_by=user)
    if activity is not None:
        activity = replace(
            activity,
            document_id=document.document_id,
            revision=1,
            latest=True,
            updated_at=now,
            updated_by=user,
            as_of_date=document.as_of_date,
        )
    changes = diff(None, document, DOCUMENT_FIELDS)
    audit = AuditEntry(document.document_id, now, user, "create", "Document", changes, _token(token))
    try:
        (repository or DocumentRepository()).create(document, activity, audit)
    except TransactionCancelled as error:
        raise _failed(error) from error
    return document


def document_restate(
    *,
    document_id: str,
    expected_revision: int,
    changes: dict[str, Any],
    activity_changes: dict[str, Any] | None = None,
    user: str,
    token: str | None = None,
    on: date | None = None,
    repository: DocumentRepository | None = None,
) -> Document:
    """Publish a restated document: archive the current document and capital activity under
    dated SKs and replace them, conditioned on `expected_revision` (Conflict otherwise)."""
    token = _token(token)
    repository = repository or DocumentRepository()
    loaded, activity = repository.load_for_restatement(document_id)
    current = loaded.entity
    if current is None:
        raise NotFound("Document", document_id)
    if current.revision != expected_revision:
        if loaded.token == token:
            return current  # this restatement already landed; only its reply was lost
        raise _stale(current, expected_revision)
    on = on or utcnow().date()
    now = utcnow()
    new_revision = expected_revision + 1
    changes = {k: v for k, v in changes.items() if k != "as_of_date"}  # the as-of date is fixed
    document = replace(current, **changes, revision=new_revision, updated_at=now, updated_by=user)
    audit_changes = diff(current, document, DOCUMENT_FIELDS)
    new_activity = archived_activity = None
    if activity is not None or activity_changes:
        base = activity or CapitalActivity(document_id=document_id, as_of_date=current.as_of_date)
        new_activity = replace(
            base, **(activity_changes or {}), revision=new_revision, latest=True, updated_at=now, updated_by=user
        )
        if activity is not None:
            archived_activity = replace(activity.superseded(on), version_revision=expected_revision)
        audit_changes.update({f"activity.{k}": v for k, v in diff(activity, new_activity, ACTIVITY_FIELDS).items()})
    audit = AuditEntry(document_id, now, user, "restate", "Document", audit_changes, token)
    try:
        repository.publish_restatement(
            document, current.superseded(on), expected_revision, audit, new_activity, archived_activity
        )
    except (TransactionCancelled, IdempotencyMismatch) as error:
        if isinstance(error, IdempotencyMismatch) or error.condition_failed:
            latest = repository.get(document_id, consistent=True)
            if latest.revision != expected_revision:  # someone else published first
                raise _stale(latest, expected_revision) from error
        raise _failed(error) from error
    return document


def _stale(current: Document, expected_revision: int) -> Conflict:
    return Conflict(
        "Document", current.document_id, expected_revision, current.revision, current.updated_by, current.updated_at
    )


def entry_record(
    *, entry: PositionEntry, user: str, token: str | None = None, repository: DocumentRepository | None = None
) -> PositionEntry:
    """Record a new entry; AlreadyExists if the position already has one of its kind here."""
    return _entry_write(entry=entry, user=user, token=token, new=True, repository=repository)


def entry_change(
    *,
    entry: PositionEntry,
    user: str,
    token: str | None = None,
    loaded_at: datetime | None = None,
    repository: DocumentRepository | None = None,
) -> PositionEntry:
    """Change an existing entry; Conflict if it changed since `loaded_at` (the form's UpdatedAt)."""
    return _entry_write(entry=entry, user=user, token=token, new=False, loaded_at=loaded_at, repository=repository)


def entry_put(
    *, entry: PositionEntry, user: str, token: str | None = None, repository: DocumentRepository | None = None
) -> PositionEntry:
    """Record or change an entry, whichever applies (commands, the pattern explainer)."""
    return _entry_write(entry=entry, user=user, token=token, new=None, repository=repository)


def _entry_write(
    *,
    entry: PositionEntry,
    user: str,
    token: str | None,
    new: bool | None,
    loaded_at: datetime | None = None,
    repository: DocumentRepository | None = None,
) -> PositionEntry:
    repository = repository or DocumentRepository()
    repository.check(entry)  # ids and size are refused before any request
    document, loaded = repository.load_for_entry(entry.document_id, entry.kind, entry.position_id)
    before = loaded.entity
    where = f"{entry.position_id} in {entry.document_id}"
    if token and before is not None and loaded.token == token:
        return before  # this write already landed; only its reply was lost
    if new and before is not None:
        raise AlreadyExists(entry.kind.entity_type, where)
    if new is False and before is None:
        raise NotFound(entry.kind.entity_type, where)
    if loaded_at is not None and before is not None and before.updated_at != loaded_at:
        raise Conflict(entry.kind.entity_type, where, None, None, before.updated_by, before.updated_at)
    now = utcnow()
    entry = replace(entry, as_of_date=document.as_of_date, currency=document.currency, updated_at=now, updated_by=user)
    action = "update" if before else "create"
    audit = AuditEntry(
        entry.document_id, now, user, action, _target(entry), diff(before, entry, ENTRY_FIELDS), _token(token)
    )
    try:
        repository.write_entry(entry, before, audit)
    except TransactionCancelled as error:
        raise _entry_failed(repository, error, entry.document_id, entry.kind, entry.position_id) from error
    return entry


def entry_remove(
    *, document_id: str, kind: Kind, position_id: str, user: str, repository: DocumentRepository | None = None
) -> PositionEntry:
    """Remove an entry (only if unchanged since read) and audit the removed values."""
    repository = repository or DocumentRepository()
    existing = repository.entry(document_id, kind, position_id, consistent=True)
    now = utcnow()
    audit = AuditEntry(
        document_id, now, user, "delete", _target(existing), diff(existing, None, ENTRY_FIELDS), uuid.uuid4().hex
    )
    try:
        repository.remove_entry(existing, audit)
    except TransactionCancelled as error:
        raise _entry_failed(repository, error, document_id, kind, position_id) from error
    return existing


def _target(entry: PositionEntry) -> str:
    return f"{entry.kind.entity_type} {entry.position_id}"


def _entry_failed(
    repository: DocumentRepository, error: TransactionCancelled, document_id: str, kind: Kind, position_id: str
) -> DataLayerError:
    """The entry changed under us: Conflict naming who changed it; otherwise a typed failure."""
    if not error.failed(1):
        return _failed(error)
    try:
        now = repository.entry(document_id, kind, position_id, consistent=True)
    except NotFound:
        now = None
    return Conflict(
        kind.entity_type,
        f"{position_id} in {document_id}",
        None,
        None,
        now.updated_by if now else None,
        now.updated_at if now else None,
    )
