"""Four eyes: a document moves Draft -> Submitted -> Approved, and only an approved document's
entries count in the headline figures.

- Every position register keeps the entries of documents not approved yet apart, in its
  awaiting-approval part (`PositionRegister.awaiting`); the entry services choose the part by the
  document's approval and condition their write on it, so an entry never lands in the wrong part.
- Submitting needs the edit permission for the document's fund; approving needs the approve
  permission for it and a user other than the one who last changed the document (the newest
  audit item that is not a submission or an approval: creating, restating, an entry write, an
  import). Approving a draft, approving twice or submitting twice is refused
  (`ApprovalRefused`) and writes nothing.
- Approving moves the document's entries from each of its positions' awaiting parts into their
  counted roll-ups. Up to `POSITIONS_PER_TRANSACTION` positions this is one transaction with the
  document (conditioned on the revision read: a restatement or an entry write racing it is a
  Conflict naming who changed what) and its audit item. A larger document is approved in stages:
  it is marked Approving (entry writes are then refused), its registers are moved in
  transactions of `POSITIONS_PER_TRANSACTION`, each conditioned on the document still being
  Approving, and the last transaction marks it Approved. A register that no longer lists the
  document was moved by an earlier stage, so approving again after an interruption finishes it.
- Submitting and approving bump the document's revision (a form loaded before is stale) and
  stamp who did it (`approval_by`, `approval_at`, and `updated_by` so a Conflict names them).
"""

from __future__ import annotations

from dataclasses import replace

from documents import restatement
from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.entry_versions import instant
from fundportal.domain.errors import ApprovalRefused, Conflict, NotFound, NotPermitted
from fundportal.domain.kinds import APPROVED, APPROVING, DRAFT, SUBMITTED
from fundportal.domain.model import Document, utcnow
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.store.repositories.imports import MAX_TRANSACTION_ITEMS
from fundportal.store.uow import EXISTS, NEW, REGISTER_ACTIONS, UnitOfWork, in_approval, summary_actions
from positions import services as position_services

# A transaction: the document, its audit item and this many registers.
POSITIONS_PER_TRANSACTION = MAX_TRANSACTION_ITEMS - 4


def positions_per_transaction() -> int:
    """Registers a transaction moves (each with the version it keeps): the document, the audit
    and the fund summary's shard updates (one document: one fund) take the rest of its 100 actions."""
    room = MAX_TRANSACTION_ITEMS - 4 - summary_actions()
    return min(POSITIONS_PER_TRANSACTION, room // REGISTER_ACTIONS)


APPROVAL_ACTIONS = frozenset(("submit", "approve"))


def document_submit(
    *,
    document_id: str,
    user: str,
    expected_revision: int | None = None,
    token: str | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> Document:
    """Submit a draft for approval (edit permission for its fund)."""
    uow = uow or UnitOfWork()
    uow.request(token, "submit", document_id)
    return uow.run(lambda: _submit(uow, document_id, user, expected_revision, scope))


def _submit(
    uow: UnitOfWork, document_id: str, user: str, expected_revision: int | None, scope: AccessScope
) -> Document:
    current, landed = _load(uow, document_id)
    scope.require_edit(current.fund_id, "Document", document_id)
    if landed:
        return current  # this very request submitted it (a double click, a lost reply)
    _check_revision(current, expected_revision)
    if current.approval == APPROVED:
        raise ApprovalRefused(ApprovalRefused.ALREADY_APPROVED, document_id, current.approval, user)
    if current.approval != DRAFT:
        raise ApprovalRefused(ApprovalRefused.ALREADY_SUBMITTED, document_id, current.approval, user)
    document = _moved(current, SUBMITTED, user)
    with uow:
        uow.put(document, expect=current.revision, name="document", stamped=True)
        uow.put(_audit(document, "submit", current.approval), expect=NEW, name="audit")
        uow.commit()
    return document


def document_approve(
    *,
    document_id: str,
    user: str,
    expected_revision: int | None = None,
    token: str | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> Document:
    """Approve a submitted document (approve permission for its fund, four eyes): its entries
    count in the headline figures from now on."""
    uow = uow or UnitOfWork()
    uow.request(token, "approve", document_id)
    return uow.run(lambda: _approve(uow, document_id, user, expected_revision, scope))


def _approve(
    uow: UnitOfWork, document_id: str, user: str, expected_revision: int | None, scope: AccessScope
) -> Document:
    current, landed = _load(uow, document_id)
    scope.require_fund(current.fund_id, "Document", document_id)
    if not scope.can_approve(current.fund_id):
        raise NotPermitted("approve", current.fund_id)
    if landed:
        return current
    if current.approval != APPROVING:  # an interrupted staged approval is finished, not re-checked
        _check_revision(current, expected_revision)
        if current.approval == APPROVED:
            raise ApprovalRefused(ApprovalRefused.ALREADY_APPROVED, document_id, current.approval, user)
        if current.approval == DRAFT:
            raise ApprovalRefused(ApprovalRefused.NOT_SUBMITTED, document_id, current.approval, user)
    # Consistent for a restatement: its approval promotes every restated value written before it.
    overview = uow.documents.overview(document_id, consistent=current.restating)
    entries = [e for row in overview.positions for e in row.by_kind.values()]
    editor = last_editor(uow.documents.audit_trail(document_id, limit=20), current, entries)
    if editor == user:
        raise ApprovalRefused(ApprovalRefused.OWN_CHANGE, document_id, current.approval, user, editor)
    if current.restating:
        return _approve_restatement(uow, current, user, entries)
    moves = _moves(uow, document_id, entries)
    approved = _moved(current, APPROVED, user)
    if len(moves) <= positions_per_transaction() and current.approval != APPROVING:
        with uow:
            uow.put(approved, expect=current.revision, name="document", stamped=True)
            uow.put(_audit(approved, "approve", current.approval), expect=NEW, name="audit")
            for new, seen in moves:
                uow.put(new, expect=seen.revision, name="register", was=seen)
            uow.commit()
        return approved
    return _approve_in_stages(uow, current, approved, moves)


def _approve_restatement(uow: UnitOfWork, current: Document, user: str, entries: list[PositionEntry]) -> Document:
    """A restated approved document: its restated values replace the approved ones, with each
    position's register recounted, in one transaction with the document (`documents.restatement`)."""
    approved = replace(_moved(current, APPROVED, user), counted_revision=None)
    with uow:
        uow.put(approved, expect=current.revision, name="document", stamped=True)
        uow.put(_audit(approved, "approve", current.approval), expect=NEW, name="audit")
        restatement.promotion_actions(uow, current.document_id, entries)
        uow.commit()
    return approved


def _approve_in_stages(
    uow: UnitOfWork, current: Document, approved: Document, moves: list[tuple[PositionRegister, PositionRegister]]
) -> Document:
    """Mark the document Approving, move its registers a transaction at a time, then mark it
    Approved (see the module's docstring)."""
    if current.approval != APPROVING:
        approving = _moved(current, APPROVING, approved.approval_by or "")
        with uow:
            uow.put(approving, expect=current.revision, name="document")  # unstamped: not the request's end
            uow.commit()
        current = approving
    still_approving = in_approval(EXISTS, APPROVING)
    size = positions_per_transaction()
    for start in range(0, len(moves), size):
        with uow:
            uow.check(current, still_approving, name="document")
            for new, seen in moves[start : start + size]:
                uow.put(new, expect=seen.revision, name="register", was=seen)
            uow.commit()
    approved = replace(approved, revision=current.revision + 1)
    with uow:
        uow.put(approved, expect=current.revision, name="document", stamped=True)
        uow.put(_audit(approved, "approve", SUBMITTED), expect=NEW, name="audit")
        uow.commit()
    return approved


def _moves(
    uow: UnitOfWork, document_id: str, entries: list[PositionEntry]
) -> list[tuple[PositionRegister, PositionRegister]]:
    """Each position's register with the document's entries moved into its counted roll-up, and
    the register as read; registers already moved (an earlier stage) are left out."""
    by_position: dict[str, list[PositionEntry]] = {}
    for entry in entries:
        by_position.setdefault(entry.position_id, []).append(entry)
    registers = uow.imports.registers(sorted(by_position))
    moves = []
    now, approved_at = utcnow(), instant()  # approved_at: when its values count from
    for position_id, held in sorted(by_position.items()):
        register = registers.get(position_id)
        if register is None or register.counts_document(document_id):
            continue
        others = [
            e
            for kind in sorted(position_services.moving_recounts(register, held), key=lambda k: k.value)
            for e in uow.documents.position_entries(position_id, kind)
        ]
        new = position_services.register_moving(register, document_id, held, others).approved_at(
            document_id, approved_at
        )
        moves.append((replace(new, revision=register.revision + 1, updated_at=now), register))
    return moves


def last_editor(audits: list[AuditEntry], document: Document, entries: list[PositionEntry]) -> str | None:
    """Who last changed the document: the newest audit item that is no submission or approval
    (`audits` newest first), else the newest entry's or the document's own editor."""
    for audit in audits:
        if audit.action not in APPROVAL_ACTIONS:
            return audit.user
    dated = [(e.updated_at, e.updated_by) for e in entries if e.updated_at and e.updated_by]
    if dated:
        return max(dated)[1]
    return document.updated_by if document.approval_by is None else None


def _load(uow: UnitOfWork, document_id: str) -> tuple[Document, bool]:
    """The current document (consistent) and whether this very request already wrote it."""
    loaded, _ = uow.documents.load_for_restatement(document_id)
    if loaded.entity is None:
        raise NotFound("Document", document_id)
    return loaded.entity, uow.landed(loaded.token, loaded.request_hash)


def _check_revision(current: Document, expected_revision: int | None) -> None:
    if expected_revision is not None and current.revision != expected_revision:
        raise Conflict(
            "Document",
            current.document_id,
            expected_revision,
            current.revision,
            current.updated_by,
            current.updated_at,
        )


def _moved(current: Document, approval: str, user: str) -> Document:
    now = utcnow()
    return replace(
        current,
        approval=approval,
        approval_by=user,
        approval_at=now,
        revision=current.revision + 1,
        updated_at=now,
        updated_by=user,
    )


def _audit(document: Document, action: str, before: str) -> AuditEntry:
    changes = {"approval": [before, document.approval]}
    return AuditEntry(document.document_id, document.updated_at, document.updated_by or "", action, "Document", changes)
