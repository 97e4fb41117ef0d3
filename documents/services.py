"""Writes to documents and their entries: the rules, in one place.

- A document's as-of date is fixed once created; a restatement archives the current copies
  under their date and revision and replaces them, conditioned on the revision the editor saw.
- An entry takes its document's as-of date and currency (denormalised for the position index).
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

from documents import approved_edits, restatement
from fundportal.domain import dates
from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.audit_trail import AuditEntry, diff
from fundportal.domain.entry_versions import EntryVersion, instant
from fundportal.domain.errors import AlreadyExists, Conflict, InvalidId, LeftoverEntries, NotFound, SpelledOtherwise
from fundportal.domain.kinds import APPROVING, DRAFT, Kind, SearchKind, normalise_search
from fundportal.domain.model import CapitalActivity, Document, utcnow
from fundportal.domain.position_entries import PositionEntry, entry_parts
from fundportal.domain.restatement import shown
from fundportal.domain.statement_kinds import check_entry as check_kind_rules
from fundportal.store.uow import EXISTS, NEW, RegisterChanged, UnitOfWork, in_approval, of_fund, unchanged
from positions import services as position_services

DOCUMENT_FIELDS = ("title", "fund_id", "as_of_date", "status", "currency", "document_type")
ACTIVITY_FIELDS = ("amount", "status", "currency")
# A kind's own fields (a call's parts, a distribution's split, a fee line, a carry stage) are
# audited with the common ones; a kind without one shows no change in it.
ENTRY_PART_FIELDS = (
    "management_fee",
    "partnership_expense",
    "outside_commitment",
    "return_of_capital",
    "gain",
    "income",
    "recallable",
    "fee_line",
    "carry_stage",
)
ENTRY_FIELDS = ("amount", "status", "currency", "due_date", "fund_id", "investor_id", *ENTRY_PART_FIELDS)


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


def refuse_other_spellings(uow: UnitOfWork, ids: list[tuple[SearchKind, str, str]]) -> None:
    """SpelledOtherwise when an id (kind, id, what) is not in the table as spelled but another
    spelling of it is: `position_1` beside `POSITION_1` would be a second position."""
    named = [(kind, value) for kind, value, _ in ids if value]
    if not named:
        return
    spellings = uow.spellings.existing(named)
    for kind, value, what in ids:
        existing = spellings.get((kind, normalise_search(value)), set()) if value else set()
        if existing and value not in existing:
            raise SpelledOtherwise(what, value, sorted(existing)[0])


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
    for before, after in restated:
        audit_changes.update({f"{_target(after)}.{k}": v for k, v in diff(before, after, ENTRY_FIELDS).items()})
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
        uow.commit()
    return document


def _stale(current: Document, expected_revision: int) -> Conflict:
    return Conflict(
        "Document", current.document_id, expected_revision, current.revision, current.updated_by, current.updated_at
    )


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
    entry = replace(
        entry,
        as_of_date=document.as_of_date,
        currency=document.currency,
        updated_at=now,
        updated_by=user,
        revision=revision,
    )
    position_services.check_entry(entry, document, register)  # fund and investor are the position's
    if approved_edits.through_approval(document):  # the approved value keeps counting; this one waits
        changes = diff(shown(before) if before else None, entry, ENTRY_FIELDS)
        audit = AuditEntry(entry.document_id, now, user, "update" if before else "create", _target(entry), changes)
        with uow:
            approved_edits.document_actions(uow, document, now, user, refused=_approval_moved)
            stored = approved_edits.entry_actions(uow, document, before, entry, register)
            uow.put(audit, expect=NEW, name="audit")
            uow.commit()
        return stored
    awaiting = _awaiting(document)
    others = _recount_reads(uow, register, before, awaiting)
    changes = diff(before, entry, ENTRY_FIELDS)
    audit = AuditEntry(entry.document_id, now, user, "update" if before else "create", _target(entry), changes)
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
    """The document still exists (of the fund) and in the approval state read: an approval
    landing first re-runs the write, which then counts the entry in the other part."""
    uow.check(document, in_approval(condition, document.approval), name="document", refused=_approval_moved)


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
            document_id, utcnow(), user, "delete", _target(existing), diff(shown(existing), None, ENTRY_FIELDS)
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
    audit = AuditEntry(document_id, now, user, "delete", _target(existing), diff(existing, None, ENTRY_FIELDS))
    with uow:
        _check_document(uow, document, EXISTS)
        uow.delete(existing, expect=unchanged(existing), name="entry")
        uow.put(EntryVersion.of(existing, instant(), user, removed=True), expect=NEW, name="entry version")
        uow.put(audit, expect=NEW, name="audit")
        position_services.register_actions(uow, register, existing, None, others, awaiting=awaiting)
        uow.commit()
    return existing


def _target(entry: PositionEntry) -> str:
    return f"{entry.kind.entity_type} {entry.position_id}"
