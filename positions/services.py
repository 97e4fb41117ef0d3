"""Writes about positions: the position register's rules and the commitment (effective-dated:
`commitment_set` records a dated change with its reason, `fundportal.domain.commitments`).

- A position's fund and investor are fixed by its register (set by its first entry); an entry
  naming another fund or investor is refused (`PositionMismatch`, a form error), and so is an
  entry whose fund is not its document's fund.
- The register's roll-up after an entry write is computed here with the one accumulator
  (`FiguresBuilder`): un-count the entry as it was, count it as it is now; when the entry that
  held the latest unfunded commitment or NAV changes or goes, that "latest" is recounted from
  the position's other entries of that kind (`recount_needed` says which: the caller reads them,
  one Query on the position index, only then).
- The register goes into the entry's unit of work conditioned on the revision read; if another
  writer moved it first the unit of work re-reads and retries the whole write, bounded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from decimal import Decimal

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.commitments import CommitmentChange, with_change
from fundportal.domain.errors import NotFound, PositionMismatch
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document, utcnow
from fundportal.domain.money import money
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.store.uow import NEW, RegisterChanged, UnitOfWork


def check_entry(entry: PositionEntry, document: Document, register: PositionRegister | None) -> None:
    """Refuse an entry whose fund is not its document's, or whose fund or investor is not its position's."""
    if document.fund_id and entry.fund_id != document.fund_id:
        raise PositionMismatch("fund_id", "document", entry.document_id, document.fund_id, entry.fund_id)
    if register is None:
        return
    if entry.fund_id != register.fund_id:
        raise PositionMismatch("fund_id", "position", entry.position_id, register.fund_id, entry.fund_id)
    if entry.investor_id != register.investor_id:
        raise PositionMismatch("investor_id", "position", entry.position_id, register.investor_id, entry.investor_id)


def recount_needed(
    register: PositionRegister | None, before: PositionEntry | None, *, awaiting: bool = False
) -> Kind | None:
    """The kind whose "latest" figure `before` holds: changing or removing it recounts that figure
    from the position's other entries of the kind (None: nothing to recount). `awaiting`: the
    entry's document is not approved, so it is in the register's awaiting-approval part."""
    if register is None or before is None:
        return None
    return _part(register, awaiting).remove(before)


def _part(register: PositionRegister, awaiting: bool) -> FiguresBuilder:
    return register.awaiting_builder() if awaiting else register.builder()


def _same_part(register: PositionRegister, awaiting: bool, entries: Iterable[PositionEntry]) -> list[PositionEntry]:
    """The entries counted in the same part of the register (counted or awaiting approval)."""
    return [e for e in entries if register.counts_document(e.document_id) is not awaiting]


def register_after(
    register: PositionRegister | None,
    before: PositionEntry | None,
    after: PositionEntry | None,
    others: Iterable[PositionEntry] = (),
    *,
    awaiting: bool = False,
) -> PositionRegister:
    """The register once `before` (as stored) is replaced by `after` (None: removed/new); `others`
    are the position's entries of the kind `recount_needed` named. `awaiting`: the entry's
    document is not approved, so the change is made in the awaiting-approval part."""
    entry = after or before
    assert entry is not None
    if register is None:  # an entry for an unregistered position registers it
        register = PositionRegister(entry.position_id, entry.fund_id, entry.investor_id, currency=entry.currency)
    builder = _part(register, awaiting)
    recount = builder.remove(before) if before is not None else None
    if after is not None:
        builder.add(after)
    if recount is not None:
        others = _same_part(register, awaiting, others)
        builder.reconsider(recount, [e for e in others if e.document_id != entry.document_id])
    if awaiting:
        new = register.with_awaiting(builder, (*register.awaiting_documents, entry.document_id))
    else:  # an approved document: a listing left by an awaiting entry removed before goes
        new = register.with_builder(builder)
        if not register.counts_document(entry.document_id):
            kept = tuple(d for d in register.awaiting_documents if d != entry.document_id)
            new = new.with_awaiting(new.awaiting_builder(), kept)
    return replace(new, revision=register.revision + 1, updated_at=utcnow())


def register_actions(
    uow: UnitOfWork,
    register: PositionRegister | None,
    before: PositionEntry | None,
    after: PositionEntry | None,
    others: Iterable[PositionEntry] = (),
    *,
    awaiting: bool = False,
) -> None:
    """Add the register's share of an entry write to `uow`: the new roll-up, conditioned on the
    revision read (absent: must still be absent) and, when the entry registers the position, the
    register's companions (its position and investor found by search; its fund's come with the
    fund's documents), so no write of an existing position touches an item shared with other
    positions."""
    new = register_after(register, before, after, others, awaiting=awaiting)
    registers = register is None and after is not None
    uow.put(new, expect=register.revision if register else NEW, name="register", companions=registers, was=register)


# --- commitment -----------------------------------------------------------------------------------


def commitment_set(
    *,
    position_id: str,
    amount: Decimal,
    reason: str,
    expected_revision: int,
    user: str,
    effective_on: date | None = None,
    token: str | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> PositionRegister:
    """Record a change of a position's commitment (in the register's currency) effective from
    `effective_on` (None: today) for `reason`, kept in the register's dated history; the
    register's commitment becomes the one effective today. Conditioned on the register revision
    the editor saw (`RegisterChanged` otherwise), audited; NotFound outside `scope`,
    NotPermitted in a fund it may only read, InvalidCommitmentChange without a reason or for a
    later date (`fundportal.domain.commitments`)."""
    uow = uow or UnitOfWork()
    uow.request(token)
    register = uow.registers.get(position_id, consistent=True)
    if register is None:
        raise NotFound("Position", position_id)
    scope.require_edit(register.fund_id, "Position", position_id)
    if register.revision != expected_revision:
        raise RegisterChanged()
    money(amount, register.currency)  # validates the amount
    now = utcnow()
    change = CommitmentChange(effective_on or now.date(), amount, reason.strip(), now, user)
    current, history = with_change(register.commitment, register.commitments, change, now.date())
    new = replace(
        register,
        commitment=current,
        commitments=history,
        revision=register.revision + 1,
        updated_at=now,
        updated_by=user,
    )
    changes = {
        f"commitment ({register.currency})": [_plain(register.commitment), _plain(current)],
        "change": [None, f"{_plain(amount)} effective {change.effective_on.isoformat()}: {change.reason}"],
    }
    audit = AuditEntry(None, now, user, "commitment", f"Position {position_id}", changes, position_id=position_id)
    with uow:
        uow.put(new, expect=register.revision, name="register", was=register)
        uow.put(audit, expect=NEW, name="audit")
        uow.commit()
    return new


def _plain(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


# --- approval: entries counted apart until their document is approved -------------------------------


def register_counting(
    register: PositionRegister, entries: Iterable[PositionEntry], awaiting: frozenset[str] | set[str]
) -> PositionRegister:
    """The register with new `entries` added: those of the documents in `awaiting` (not approved)
    to its awaiting-approval part, the others to its counted roll-up (revision unchanged)."""
    counted, apart = register.builder(), register.awaiting_builder()
    documents = list(register.awaiting_documents)
    for entry in entries:
        if entry.document_id in awaiting:
            apart.add(entry)
            documents.append(entry.document_id)
        else:
            counted.add(entry)
    return register.with_builder(counted).with_awaiting(apart, tuple(documents))


def register_moving(
    register: PositionRegister,
    document_id: str,
    entries: Iterable[PositionEntry],
    others: Iterable[PositionEntry] = (),
    *,
    to_counted: bool = True,
) -> PositionRegister:
    """The register with `document_id`'s `entries` moved from its awaiting-approval part into its
    counted roll-up (approval), or back (`to_counted=False`: an approved document reopened).
    `others` are the position's entries of the kinds `moving_recounts` named."""
    entries = list(entries)
    source = register.awaiting_builder() if to_counted else register.builder()
    target = register.builder() if to_counted else register.awaiting_builder()
    recount = {kind for entry in entries if (kind := source.remove(entry)) is not None}
    for entry in entries:
        target.add(entry)
    documents = set(register.awaiting_documents)
    if to_counted:
        documents.discard(document_id)
    else:
        documents.add(document_id)
    # What stays in the source part: other documents of the same approval state as before.
    stays = [e for e in others if e.document_id != document_id and (e.document_id in documents) is to_counted]
    for kind in recount:
        source.reconsider(kind, stays)
    counted, apart = (target, source) if to_counted else (source, target)
    return register.with_builder(counted).with_awaiting(apart, tuple(documents))


def moving_recounts(
    register: PositionRegister, entries: Iterable[PositionEntry], *, to_counted: bool = True
) -> set[Kind]:
    """The kinds whose "latest" figure the moved entries hold in the part they leave (the caller
    reads the position's other entries of those kinds)."""
    source = register.awaiting_builder() if to_counted else register.builder()
    return {kind for entry in entries if (kind := source.remove(entry)) is not None}
