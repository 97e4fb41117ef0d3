"""Writes to a document's position entries: record, change, put and remove, each conditioned on
the revision the form showed, audited, and counted in the position's register in the same
transaction (a document under restatement or awaiting approval counts them apart). The rules
the module docstring of `documents.services` states hold here too."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from documents import approved_edits, restatement
from documents.audit_fields import ENTRY_FIELDS, entry_target
from documents.spellings import refuse_other_spellings
from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.audit_trail import AuditEntry, diff
from fundportal.domain.entry_versions import EntryVersion, instant
from fundportal.domain.errors import AlreadyExists, Conflict, NotFound
from fundportal.domain.kinds import APPROVING, DEFAULT_DOCUMENT_TYPE, Kind, SearchKind
from fundportal.domain.model import Document, utcnow
from fundportal.domain.position_entries import PositionEntry, entry_parts, of_document
from fundportal.domain.restatement import shown
from fundportal.domain.statement_kinds import check_entry as check_kind_rules
from fundportal.store.uow import (
    EXISTS,
    NEW,
    RegisterChanged,
    UnitOfWork,
    in_approval,
    of_fund,
    unchanged,
    with_copies_as_read,
)
from positions import services as position_services


def entry_record(
    *,
    entry: PositionEntry,
    user: str,
    token: str | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> PositionEntry:
    """Record a new entry; AlreadyExists if the position already has one of its kind here."""
    return _entry_write(entry, user, token, new=True, expected_revision=None, scope=scope, uow=uow)


def entry_change(
    *,
    entry: PositionEntry,
    user: str,
    token: str | None = None,
    expected_revision: int | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> PositionEntry:
    """Change an existing entry; Conflict if it is no longer at `expected_revision` (the revision
    the form showed)."""
    return _entry_write(entry, user, token, new=False, expected_revision=expected_revision, scope=scope, uow=uow)


def entry_put(
    *,
    entry: PositionEntry,
    user: str,
    token: str | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> PositionEntry:
    """Record or change an entry, whichever applies (commands, the pattern explainer)."""
    return _entry_write(entry, user, token, new=None, expected_revision=None, scope=scope, uow=uow)


def _entry_write(
    entry: PositionEntry,
    user: str,
    token: str | None,
    new: bool | None,
    expected_revision: int | None,
    scope: AccessScope,
    uow: UnitOfWork | None,
) -> PositionEntry:
    # The entry's fund must be its document's (the write is conditioned on it): checked here first.
    scope.require_edit(entry.fund_id, "Document", entry.document_id)
    uow = uow or UnitOfWork()
    uow.documents.check(entry)  # ids and size are refused before any request
    check_kind_rules(entry)  # a negative fee, a split that does not add up: nothing is written
    uow.request(token, *_entry_request(entry))
    return uow.run(lambda: _write_entry(uow, entry, user, new, expected_revision))


def _entry_request(entry: PositionEntry) -> tuple[Any, ...]:
    """What an entry write asks for (its request hash)."""
    return (
        "entry",
        entry.document_id,
        entry.kind.value,
        entry.position_id,
        entry.fund_id,
        entry.investor_id,
        entry.amount,
        entry.status,
        entry.due_date,
        *sorted(entry_parts(entry).items()),
    )


def _write_entry(
    uow: UnitOfWork, entry: PositionEntry, user: str, new: bool | None, expected_revision: int | None
) -> PositionEntry:
    document, loaded, register = uow.documents.load_for_entry_with_register(
        entry.document_id, entry.kind, entry.position_id
    )
    before = loaded.entity
    if before is not None and uow.landed(loaded.token, loaded.request_hash):
        return before  # this write already landed (double click, lost reply): success
    if before is not None and uow.resubmitted(loaded.token):
        new, expected_revision = False, before.revision  # the same form, other values: on top of its own
    _expect(entry.kind, entry.position_id, entry.document_id, before, new, expected_revision)
    now = utcnow()
    revision = before.revision + 1 if before else 1
    # Its document's as-of date, currency, title and type, as read in this write.
    entry = replace(of_document(entry, document), updated_at=now, updated_by=user, revision=revision)
    position_services.check_entry(entry, document, register)  # fund and investor are the position's
    if approved_edits.through_approval(document):  # the approved value keeps counting; this one waits
        changes = diff(shown(before) if before else None, entry, ENTRY_FIELDS)
        audit = AuditEntry(entry.document_id, now, user, "update" if before else "create", entry_target(entry), changes)
        with uow:
            approved_edits.document_actions(uow, document, now, user, refused=_approval_moved)
            stored = approved_edits.entry_actions(uow, document, before, entry, register)
            uow.put(audit, expect=NEW, name="audit")
            uow.commit()
        return stored
    awaiting = _awaiting(document)
    others = _recount_reads(uow, register, before, awaiting)
    changes = diff(before, entry, ENTRY_FIELDS)
    audit = AuditEntry(entry.document_id, now, user, "update" if before else "create", entry_target(entry), changes)
    with uow:
        _check_document(uow, document, of_fund(entry.fund_id))
        uow.put(entry, expect=unchanged(before), name="entry", stamped=True)
        if before is not None:  # the value it replaces is kept
            uow.put(EntryVersion.of(before, instant(), user), expect=NEW, name="entry version")
        uow.put(audit, expect=NEW, name="audit")
        position_services.register_actions(uow, register, before, entry, others, awaiting=awaiting)
        if register is None and before is None:  # a new position: not another spelling of one
            ids = [(SearchKind.POSITION, entry.position_id, "position id")]
            refuse_other_spellings(uow, [*ids, (SearchKind.INVESTOR, entry.investor_id, "investor id")])
        uow.commit()
    return entry


def _awaiting(document: Document) -> bool:
    """Whether the document's entries are counted apart (not approved); an entry write into a
    document being approved in stages is refused until it is approved."""
    if document.approval == APPROVING:
        raise Conflict(
            "Document", document.document_id, None, document.revision, document.approval_by, document.approval_at
        )
    return not document.approved


def _check_document(uow: UnitOfWork, document: Document, condition: Any) -> None:
    """The document still exists (of the fund), in the approval state read and with the title
    and type the entry copies: an approval landing first re-runs the write, which then counts the
    entry in the other part; a restatement retitling it first re-runs it with the new title."""
    as_read = with_copies_as_read(condition, document.title, document.document_type, DEFAULT_DOCUMENT_TYPE)
    uow.check(document, in_approval(as_read, document.approval), name="document", refused=_approval_moved)


def _approval_moved() -> Exception:
    return RegisterChanged(())


def _expect(
    kind: Kind,
    position_id: str,
    document_id: str,
    before: PositionEntry | None,
    new: bool | None,
    expected_revision: int | None,
) -> None:
    """A record needs no entry yet, a change an entry still at the revision the form showed."""
    where = f"{position_id} in {document_id}"
    if new and before is not None:
        raise AlreadyExists(kind.entity_type, where)
    if new is False and before is None:
        raise NotFound(kind.entity_type, where)
    if before is not None and expected_revision is not None and before.revision != expected_revision:
        raise Conflict(
            kind.entity_type, where, expected_revision, before.revision, before.updated_by, before.updated_at
        )


def _recount_reads(uow: UnitOfWork, register: Any, before: PositionEntry | None, awaiting: bool) -> list[PositionEntry]:
    """The position's entries the register's roll-up must recount (read before the rule runs)."""
    kind = position_services.recount_needed(register, before, awaiting=awaiting)
    return uow.documents.position_entries(before.position_id, kind) if kind and before else []


def entry_remove(
    *,
    document_id: str,
    kind: Kind,
    position_id: str,
    user: str,
    token: str | None = None,
    expected_revision: int | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> PositionEntry | None:
    """Remove an entry if it is still at `expected_revision` (the revision the confirmation page
    showed; else unchanged since read) and audit the removed values. Removing an entry this same
    form (`token`) already removed is success (None): a double click is not a conflict."""
    uow = uow or UnitOfWork()
    uow.request(token)
    return uow.run(lambda: _remove_entry(uow, document_id, kind, position_id, user, expected_revision, scope))


def _remove_entry(
    uow: UnitOfWork,
    document_id: str,
    kind: Kind,
    position_id: str,
    user: str,
    expected_revision: int | None,
    scope: AccessScope,
) -> PositionEntry | None:
    try:
        document, loaded, register = uow.documents.load_for_entry_with_register(document_id, kind, position_id)
        if loaded.entity is None:
            raise NotFound(kind.entity_type, f"{position_id} in {document_id}")
    except NotFound:
        if uow.removed(document_id):
            return None  # this form already removed it
        raise
    existing = loaded.entity
    scope.require_edit(document.fund_id, "Document", document_id)
    if document.restating and existing.restated is not None and existing.restated.removed:
        return existing  # already removed in this restatement (a double click): nothing to do
    _expect(kind, position_id, document_id, existing, None, expected_revision)
    if approved_edits.through_approval(document):  # removed once approved; counted until then
        audit = AuditEntry(
            document_id, utcnow(), user, "delete", entry_target(existing), diff(shown(existing), None, ENTRY_FIELDS)
        )
        with uow:
            approved_edits.document_actions(uow, document, audit.at or utcnow(), user, refused=_approval_moved)
            stored = restatement.removal_actions(uow, existing, user)
            uow.put(audit, expect=NEW, name="audit")
            uow.commit()
        return stored
    awaiting = _awaiting(document)
    others = _recount_reads(uow, register, existing, awaiting)
    now = utcnow()
    audit = AuditEntry(document_id, now, user, "delete", entry_target(existing), diff(existing, None, ENTRY_FIELDS))
    with uow:
        _check_document(uow, document, EXISTS)
        uow.delete(existing, expect=unchanged(existing), name="entry")
        uow.put(EntryVersion.of(existing, instant(), user, removed=True), expect=NEW, name="entry version")
        uow.put(audit, expect=NEW, name="audit")
        position_services.register_actions(uow, register, existing, None, others, awaiting=awaiting)
        uow.commit()
    return existing
