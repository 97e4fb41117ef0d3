"""Writes to documents and their entries: the rules, in one place.

- A document's as-of date is fixed once created; a restatement archives the current copies
  under their date and revision and replaces them, conditioned on the revision the editor saw.
- An entry takes its document's as-of date and currency (denormalised for the position index).
- Every write carries an audit item with the exact before/after values, in the same transaction.
- Idempotency: a form's submission token is the transaction's ClientRequestToken and is stored
  on the written item with a hash of what the request asked for (`RequestHash`). The same token
  with the same values is success (a double click, a retry whose reply was lost: never a 500 or
  a false conflict); the same token with other values (Back, edit, submit again) is applied as a
  new write on top of the form's own one, never reported saved and dropped.
- Changes and removals are conditioned on the entry's `Revision` the form showed (incremented on
  every change), so two saves in the same second cannot both win.

Views and commands call these functions (keyword-only); the repository does the requests.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from fundportal.domain import dates
from fundportal.domain.errors import AlreadyExists, Conflict, IdempotencyMismatch, InvalidId, NotFound
from fundportal.domain.kinds import Kind
from fundportal.domain.model import AuditEntry, CapitalActivity, Document, PositionEntry, diff, utcnow
from fundportal.dynamo.errors import DataLayerError, StoreUnavailable, TransactionCancelled
from fundportal.dynamo.gateway import backoff
from fundportal.dynamo.repositories import DocumentRepository
from positions import services as position_services

# Re-reads (with backoff) after DynamoDB refused a token whose first use may still be in flight.
IN_FLIGHT_CHECKS = 4
DOCUMENT_FIELDS = ("title", "fund_id", "as_of_date", "status", "currency", "document_type")
ACTIVITY_FIELDS = ("amount", "status", "currency")
ENTRY_FIELDS = ("amount", "status", "currency", "due_date", "fund_id", "investor_id")


def _token(token: str | None) -> str:
    return token or uuid.uuid4().hex


def _intent(*parts: Any) -> str:
    """The hash stored with a write's token: what the request asked for, canonically."""

    def canonical(value: Any) -> Any:
        if isinstance(value, Decimal):
            return format(value.normalize(), "f")
        if isinstance(value, (date, datetime)):
            return value.isoformat()
        if isinstance(value, dict):
            return {str(k): canonical(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [canonical(v) for v in value]
        return value

    text = json.dumps(canonical(list(parts)), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _entry_intent(entry: PositionEntry) -> str:
    return _intent(
        "entry",
        entry.document_id,
        entry.kind.value,
        entry.position_id,
        entry.fund_id,
        entry.investor_id,
        entry.amount,
        entry.status,
        entry.due_date,
    )


def _same_request(request_hash: str | None, intent: str) -> bool:
    """A token's write asked for `intent` (items written before hashes existed count as same)."""
    return request_hash is None or request_hash == intent


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
    """Create a document (and its capital activity) at revision 1; AlreadyExists if the id is taken
    (unless this very request, same token and values, created it: then it is success)."""
    if document.as_of_date is not None and not dates.in_range(document.as_of_date):
        raise InvalidId("as-of date", document.as_of_date.isoformat())
    repository = repository or DocumentRepository()
    intent = _intent("create", *(getattr(document, f) for f in DOCUMENT_FIELDS), activity and activity.amount)
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
        repository.create(document, activity, audit, request_hash=intent)
    except (AlreadyExists, IdempotencyMismatch) as error:
        if token:  # a form's token: was it this very request that created the document?
            loaded, _ = repository.load_for_restatement(document.document_id)
            if loaded.entity is not None and loaded.token == token and loaded.request_hash == intent:
                return loaded.entity  # this form's create already landed (double click, lost reply)
        if isinstance(error, IdempotencyMismatch):
            raise AlreadyExists("Document", document.document_id) from error
        raise
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
    intent = _intent("restate", document_id, expected_revision, changes, activity_changes)
    loaded, activity = repository.load_for_restatement(document_id)
    current = loaded.entity
    if current is None:
        raise NotFound("Document", document_id)
    if current.revision != expected_revision:
        if loaded.token != token:
            raise _stale(current, expected_revision)
        if _same_request(loaded.request_hash, intent):
            return current  # this restatement already landed; only its reply was lost
        # The same form again with other values (Back, edit, submit): a new restatement on top
        # of the form's own one, under a fresh token.
        expected_revision, token = current.revision, uuid.uuid4().hex
        intent = _intent("restate", document_id, expected_revision, changes, activity_changes)
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
            document, current.superseded(on), expected_revision, audit, new_activity, archived_activity, intent
        )
    except (TransactionCancelled, IdempotencyMismatch) as error:
        if isinstance(error, IdempotencyMismatch) or error.condition_failed:
            again, _ = repository.load_for_restatement(document_id)
            if again.entity is not None and again.token == token and again.request_hash == intent:
                return again.entity  # a concurrent submission of this same request landed it
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
    expected_revision: int | None = None,
    loaded_at: datetime | None = None,
    repository: DocumentRepository | None = None,
) -> PositionEntry:
    """Change an existing entry; Conflict if it is no longer at `expected_revision` (the revision
    the form showed; `loaded_at`, its UpdatedAt, is still honoured for older callers)."""
    return _entry_write(
        entry=entry,
        user=user,
        token=token,
        new=False,
        expected_revision=expected_revision,
        loaded_at=loaded_at,
        repository=repository,
    )


def entry_put(
    *, entry: PositionEntry, user: str, token: str | None = None, repository: DocumentRepository | None = None
) -> PositionEntry:
    """Record or change an entry, whichever applies (commands, the pattern explainer)."""
    return _entry_write(entry=entry, user=user, token=token, new=None, repository=repository)


@position_services.retry_when_register_moves
def _entry_write(
    *,
    entry: PositionEntry,
    user: str,
    token: str | None,
    new: bool | None,
    expected_revision: int | None = None,
    loaded_at: datetime | None = None,
    repository: DocumentRepository | None = None,
    attempt: int = 0,
) -> PositionEntry:
    repository = repository or DocumentRepository()
    repository.check(entry)  # ids and size are refused before any request
    intent = _entry_intent(entry)
    document, loaded, register = repository.load_for_entry_with_register(
        entry.document_id, entry.kind, entry.position_id
    )
    before = loaded.entity
    where = f"{entry.position_id} in {entry.document_id}"
    if token and before is not None and loaded.token == token:
        if _same_request(loaded.request_hash, intent):
            return before  # this write already landed (double click, lost reply): success
        # The same form again with other values (Back, edit, submit): nobody wrote after the
        # form's own write, so apply these values on top of it as a new write.
        token, new, expected_revision, loaded_at = None, False, before.revision, None
    if new and before is not None:
        raise AlreadyExists(entry.kind.entity_type, where)
    if new is False and before is None:
        raise NotFound(entry.kind.entity_type, where)
    if before is not None and expected_revision is not None and before.revision != expected_revision:
        raise Conflict(
            entry.kind.entity_type, where, expected_revision, before.revision, before.updated_by, before.updated_at
        )
    if loaded_at is not None and before is not None and before.updated_at != loaded_at:
        raise Conflict(entry.kind.entity_type, where, None, None, before.updated_by, before.updated_at)
    now = utcnow()
    entry = replace(
        entry,
        as_of_date=document.as_of_date,
        currency=document.currency,
        updated_at=now,
        updated_by=user,
        revision=before.revision + 1 if before else 1,
    )
    position_services.check_entry(entry, document, register)  # fund and investor are the position's
    register_write = position_services.register_after(repository, register, before, entry)
    action = "update" if before else "create"
    token = _token(token)
    audit = AuditEntry(entry.document_id, now, user, action, _target(entry), diff(before, entry, ENTRY_FIELDS), token)
    try:
        repository.write_entry(
            entry,
            before,
            audit,
            request_hash=intent,
            register=register_write,
            client_token=position_services.retry_token(token, attempt),
        )
    except (TransactionCancelled, IdempotencyMismatch) as error:
        # A concurrent submission of this very request (same token, same values) may have won,
        # or still be in flight (DynamoDB refuses a token whose first use is not finished).
        for attempt in range(IN_FLIGHT_CHECKS if isinstance(error, IdempotencyMismatch) else 1):
            if attempt:
                backoff(attempt)
            _, again = repository.load_for_entry(entry.document_id, entry.kind, entry.position_id)
            if again.entity is not None and again.token == token and again.request_hash == intent:
                return again.entity
        raise _entry_failed(
            repository, error, entry.document_id, entry.kind, entry.position_id, expected_revision
        ) from error
    return entry


@position_services.retry_when_register_moves
def entry_remove(
    *,
    document_id: str,
    kind: Kind,
    position_id: str,
    user: str,
    token: str | None = None,
    expected_revision: int | None = None,
    repository: DocumentRepository | None = None,
    attempt: int = 0,
) -> PositionEntry | None:
    """Remove an entry if it is still at `expected_revision` (the revision the confirmation page
    showed; else unchanged since read) and audit the removed values. Removing an entry this same
    form (`token`) already removed is success (None): a double click is not a conflict."""
    repository = repository or DocumentRepository()
    try:
        existing, register = position_services.load_entry_and_register(repository, document_id, kind, position_id)
    except NotFound:
        if token and _removed_by(repository, document_id, token):
            return None
        raise
    where = f"{position_id} in {document_id}"
    if expected_revision is not None and existing.revision != expected_revision:
        raise Conflict(
            kind.entity_type, where, expected_revision, existing.revision, existing.updated_by, existing.updated_at
        )
    token = _token(token)
    audit = AuditEntry(
        document_id, utcnow(), user, "delete", _target(existing), diff(existing, None, ENTRY_FIELDS), token
    )
    try:
        repository.remove_entry(
            existing,
            audit,
            register=position_services.register_after(repository, register, existing, None),
            client_token=position_services.retry_token(token, attempt),
        )
    except (TransactionCancelled, IdempotencyMismatch) as error:
        for attempt in range(IN_FLIGHT_CHECKS if isinstance(error, IdempotencyMismatch) else 1):
            if attempt:
                backoff(attempt)
            if _removed_by(repository, document_id, token):
                return existing  # a concurrent submission of this same form removed it
        raise _entry_failed(repository, error, document_id, kind, position_id, expected_revision) from error
    return existing


def _removed_by(repository: DocumentRepository, document_id: str, token: str) -> bool:
    """The document's recent audit trail holds a removal made with `token`."""
    return any(a.token == token and a.action == "delete" for a in repository.audit_trail(document_id, limit=50))


def _target(entry: PositionEntry) -> str:
    return f"{entry.kind.entity_type} {entry.position_id}"


def _entry_failed(
    repository: DocumentRepository,
    error: DataLayerError,
    document_id: str,
    kind: Kind,
    position_id: str,
    expected_revision: int | None = None,
) -> DataLayerError:
    """The entry changed under us (or the token was used with other values): Conflict naming
    who changed it; otherwise a typed failure."""
    if isinstance(error, TransactionCancelled) and not error.failed(1):
        return _failed(error)
    try:
        now = repository.entry(document_id, kind, position_id, consistent=True)
    except NotFound:
        now = None
    return Conflict(
        kind.entity_type,
        f"{position_id} in {document_id}",
        expected_revision if now else None,
        now.revision if now and expected_revision is not None else None,
        now.updated_by if now else None,
        now.updated_at if now else None,
    )
