"""Removing a position with no entries, and merging a mistyped position into the right one.

- `position_remove`: a registered position with no entries (and no commitment, and no
  unfinished import writing into it) is deleted: its register and its search items (its
  investor's too when the investor holds no other position), audited on the position.
- `position_merge`: every entry of `source` moves to `target` in the same documents (same
  amounts, statuses and dates), both registers recomputed from their entries (the one
  accumulator, as `verify_positions` counts them), then the source register and its search
  items go. Each moved entry's value is kept as removed from the source (`EntryVersion`,
  `moved_to` the target), so the document compare page shows the move, and the target's
  register keeps when each entry moved in (`PositionRegister.moved_in`), so the position page
  as known before the move counts it under the source only. Refused when the two
  differ in fund, investor or currency, when both hold an entry
  of one kind in one document, when the source holds a commitment, or when an unfinished import
  still writes into it. Each step is one transaction of at most 100 items (entries moved with
  both registers at their revisions and one audit item per document touched), so each leaves
  the registers exact; a merge stopped half-way is finished by running it again.

A document being approved in stages refuses the merge (Conflict) until it is approved, and each
step checks that its documents are still in the approval state read (a moved entry is counted in
the target's part that state chooses). Both go through the unit of work (each register
conditioned on the revision read: a concurrent entry write re-runs the read and the rule) and
need edit rights on the fund (`scope`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.entry_versions import EntryVersion, instant
from fundportal.domain.errors import Conflict, NotFound, PositionChangeRefused
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import APPROVING, Kind, validate_id
from fundportal.domain.model import Document, utcnow
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.store.repositories.positions import PositionRepository
from fundportal.store.uow import EXISTS, NEW, REGISTER_ACTIONS, RegisterChanged, UnitOfWork, in_approval, unchanged

MAX_TRANSACTION_ITEMS = 100
REGISTERS_PER_STEP = 2


@dataclass(frozen=True, slots=True)
class MergeResult:
    source: str
    target: str
    moved: int
    transactions: int
    register: PositionRegister  # the target's, after the merge


def recounted(
    register: PositionRegister, entries: Iterable[PositionEntry], awaiting: Iterable[str]
) -> PositionRegister:
    """`register` with its roll-up counted afresh from `entries`: those of the documents in
    `awaiting` (not approved) in its awaiting-approval part, the others counted."""
    waiting = set(awaiting)
    counted, apart = FiguresBuilder(flows=True), FiguresBuilder(flows=True)
    held = set()
    for entry in entries:
        if entry.document_id in waiting:
            apart.add(entry)
            held.add(entry.document_id)
        else:
            counted.add(entry)
    return register.with_builder(counted).with_awaiting(apart, tuple(sorted(held)))


def _same_rollup(a: PositionRegister, b: PositionRegister) -> bool:
    return a.rollup == b.rollup and a.awaiting == b.awaiting


def _read(uow: UnitOfWork, position_id: str, scope: AccessScope) -> tuple[PositionRegister, list[PositionEntry]]:
    """The register (consistent) and its entries as stored; RegisterChanged while the position
    index has not caught up with the register (an entry written an instant ago)."""
    register = uow.registers.get(position_id, consistent=True)
    if register is None:
        raise NotFound("Position", position_id)
    scope.require_edit(register.fund_id, "Position", position_id)
    positions = PositionRepository(uow.gateway)
    entries = positions.as_stored(positions.entries(position_id))
    if not _same_rollup(recounted(register, entries, register.awaiting_documents), register):
        raise RegisterChanged((position_id,))
    return register, entries


def _refuse_unfinished_imports(uow: UnitOfWork, register: PositionRegister) -> None:
    if register.imports and set(register.imports) - uow.imports.published(register.imports):
        raise PositionChangeRefused(PositionChangeRefused.IMPORT_UNFINISHED, register.position_id)


def _refuse_commitment(register: PositionRegister, other: str | None = None) -> None:
    if register.commitment:
        raise PositionChangeRefused(
            PositionChangeRefused.HAS_COMMITMENT, register.position_id, other, register.commitment
        )


# --- remove --------------------------------------------------------------------------------------


def position_remove(
    *, position_id: str, user: str, scope: AccessScope = OPERATOR, uow: UnitOfWork | None = None
) -> PositionRegister:
    """Delete a position that has no entries (see the module); returns the register removed."""
    validate_id(position_id, "position id")
    uow = uow or UnitOfWork()
    return uow.run(lambda: _remove(uow, position_id, user, scope))


def _remove(uow: UnitOfWork, position_id: str, user: str, scope: AccessScope) -> PositionRegister:
    register = uow.registers.get(position_id, consistent=True)
    if register is None:
        raise NotFound("Position", position_id)
    scope.require_edit(register.fund_id, "Position", position_id)
    entries = PositionRepository(uow.gateway).entries(position_id)
    if entries:
        raise PositionChangeRefused(PositionChangeRefused.HAS_ENTRIES, position_id, detail=len(entries))
    if not _same_rollup(recounted(register, (), ()), register):
        raise RegisterChanged((position_id,))  # the index has not caught up with an entry yet
    _refuse_unfinished_imports(uow, register)
    _refuse_commitment(register)
    others = [r for r in uow.registers.investor_positions(register.investor_id) if r.position_id != position_id]
    audit = AuditEntry(
        None,
        utcnow(),
        user,
        "remove",
        f"Position {position_id}",
        {
            "position": [position_id, None],
            "fund_id": [register.fund_id, None],
            "investor_id": [register.investor_id, None],
        },
        position_id=position_id,
    )
    with uow:
        uow.delete(register, expect=register.revision, name="register")
        for key in uow.registers.companion_keys(register, investor=not others):
            uow.delete(key, name="search")
        uow.put(audit, expect=NEW, name="audit")
        uow.commit()
    return register


# --- merge ---------------------------------------------------------------------------------------


def position_merge(
    *, source: str, target: str, user: str, scope: AccessScope = OPERATOR, uow: UnitOfWork | None = None
) -> MergeResult:
    """Move every entry of `source` to `target` and remove `source` (see the module)."""
    validate_id(source, "position id")
    validate_id(target, "position id")
    if source == target:
        raise PositionChangeRefused(PositionChangeRefused.SAME_POSITION, source, target)
    uow = uow or UnitOfWork()
    return uow.run(lambda: _merge(uow, source, target, user, scope))


def _refuse_mismatch(source: PositionRegister, target: PositionRegister) -> None:
    for field in ("fund_id", "investor_id", "currency"):
        mine, theirs = getattr(source, field), getattr(target, field)
        if mine != theirs:
            raise PositionChangeRefused(field, source.position_id, target.position_id, (mine, theirs))


def _refuse_clashes(source: list[PositionEntry], target: list[PositionEntry], source_id: str, target_id: str) -> None:
    held = {(e.document_id, e.kind) for e in target}
    clashes = sorted(f"{d} ({k.slug})" for d, k in {(e.document_id, e.kind) for e in source} & held)
    if clashes:
        raise PositionChangeRefused(PositionChangeRefused.CLASHING_ENTRIES, source_id, target_id, ", ".join(clashes))


def steps(
    entries: list[PositionEntry],
    # Each register's put, the version it keeps, and its summary shard's update.
    room: int = MAX_TRANSACTION_ITEMS - REGISTERS_PER_STEP * (REGISTER_ACTIONS + 1),
) -> list[list[PositionEntry]]:
    """The entries in groups whose transaction fits: three items an entry (its delete, its put
    under the target and its kept version) and two per document in the group (its audit item,
    and a check that it is still in the approval state read)."""
    groups: list[list[PositionEntry]] = []
    group: list[PositionEntry] = []
    documents: set[str] = set()
    for entry in sorted(entries, key=lambda e: (e.document_id, e.kind.value)):
        new_document = entry.document_id not in documents
        if group and 3 * (len(group) + 1) + 2 * (len(documents) + new_document) > room:
            groups.append(group)
            group, documents, new_document = [], set(), True
        group.append(entry)
        documents.add(entry.document_id)
    return [*groups, group] if group else groups


def _merge(uow: UnitOfWork, source_id: str, target_id: str, user: str, scope: AccessScope) -> MergeResult:
    source, left = _read(uow, source_id, scope)
    target, held = _read(uow, target_id, scope)
    _refuse_mismatch(source, target)
    _refuse_clashes(left, held, source_id, target_id)
    _refuse_unfinished_imports(uow, source)
    _refuse_commitment(source, target_id)
    documents = _documents(uow, {e.document_id for e in left})
    # A moved entry is counted in the target's part its document's approval chooses (checked in
    # each step: an approval landing first re-runs the merge).
    awaiting = {*target.awaiting_documents, *(d for d, document in documents.items() if not document.approved)}
    moved_all: list[PositionEntry] = []
    transactions = 0
    for group in steps(left):
        now, at = utcnow(), instant()
        moved = [_moved(entry, target_id) for entry in group]
        going = {_where(e) for e in group}
        left = [e for e in left if _where(e) not in going]
        held = [*held, *moved]
        new_source = _next(recounted(source, left, source.awaiting_documents), source, now, user)
        # The target keeps when each entry moved in (as known before, it stood under the source).
        new_target = _next(recounted(target, held, awaiting).with_moved_in(_moved_keys(group), at), target, now, user)
        uow.request()  # each step is its own transaction, under its own token
        with uow:
            for before, after in zip(group, moved, strict=True):
                uow.delete(before, expect=unchanged(before), name="entry")
                uow.put(after, expect=NEW, name="entry")
                kept = EntryVersion.of(before, at, user, removed=True, moved_to=target_id)
                uow.put(kept, expect=NEW, name="entry version")
            uow.put(new_source, expect=source.revision, name="register", was=source)
            uow.put(new_target, expect=target.revision, name="register", was=target)
            for document_id in sorted({e.document_id for e in group}):
                document = documents[document_id]
                uow.check(document, in_approval(EXISTS, document.approval), name="document", refused=_moved_on)
                kinds = ", ".join(e.kind.slug for e in group if e.document_id == document_id)
                change = {"position_id": [source_id, target_id], "entries": [None, kinds]}
                uow.put(
                    AuditEntry(document_id, now, user, "merge", f"Position {source_id} into {target_id}", change),
                    expect=NEW,
                    name="audit",
                )
            uow.commit()
        source, target = new_source, new_target
        moved_all += moved
        transactions += 1
    _finish(uow, source, target, len(moved_all), user)
    return MergeResult(source_id, target_id, len(moved_all), transactions + 1, target)


def _documents(uow: UnitOfWork, document_ids: set[str]) -> dict[str, Document]:
    """The documents of the entries to move; a document being approved in stages (its entries
    are moving between the registers' parts) refuses the merge until it is approved."""
    found = uow.documents.existing(sorted(document_ids))
    for document_id in sorted(document_ids):
        document = found.get(document_id)
        if document is None:
            raise NotFound("Document", document_id)
        if document.approval == APPROVING:
            raise Conflict("Document", document_id, None, document.revision, document.approval_by, document.approval_at)
    return found


def _moved_on() -> Exception:
    """A document's approval moved since read: the merge reads and recounts again."""
    return RegisterChanged(())


def _moved_keys(entries: Iterable[PositionEntry]) -> list[tuple[str, Kind]]:
    return [(e.document_id, e.kind) for e in entries]


def _where(entry: PositionEntry) -> tuple[str, str]:
    return entry.document_id, entry.kind.value


def _moved(entry: PositionEntry, target_id: str) -> PositionEntry:
    """The entry under the target: a new revision (a form showing the old one is stale), its
    values, time and author kept, so the "latest" NAV and unfunded are ranked as before (who
    moved it and when is in the audit trail)."""
    return replace(entry, position_id=target_id, revision=entry.revision + 1)


def _next(register: PositionRegister, before: PositionRegister, now: datetime, user: str) -> PositionRegister:
    return replace(register, revision=before.revision + 1, updated_at=now, updated_by=user)


def _finish(uow: UnitOfWork, source: PositionRegister, target: PositionRegister, moved: int, user: str) -> None:
    """The emptied source register and its position's search item go (the investor's stays: the
    target holds it), audited on both positions."""
    now = utcnow()
    change = {"merged_into": [None, target.position_id], "entries": [None, moved]}
    uow.request()
    with uow:
        uow.delete(source, expect=source.revision, name="register")
        for key in uow.registers.companion_keys(source, investor=False):
            uow.delete(key, name="search")
        uow.put(
            AuditEntry(
                None,
                now,
                user,
                "merge",
                f"Position {source.position_id} into {target.position_id}",
                change,
                position_id=source.position_id,
            ),
            expect=NEW,
            name="audit",
        )
        into = {"merged_from": [None, source.position_id], "entries": [None, moved]}
        uow.put(
            AuditEntry(
                None,
                now,
                user,
                "merge",
                f"Position {source.position_id} into {target.position_id}",
                into,
                position_id=target.position_id,
            ),
            expect=NEW,
            name="audit",
        )
        uow.commit()
