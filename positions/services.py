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
from fundportal.domain.commitments import CommitmentChange, with_change
from fundportal.domain.errors import NotFound, PositionMismatch
from fundportal.domain.kinds import Kind
from fundportal.domain.model import AuditEntry, Document, PositionEntry, PositionRegister, utcnow
from fundportal.domain.money import money
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


def recount_needed(register: PositionRegister | None, before: PositionEntry | None) -> Kind | None:
    """The kind whose "latest" figure `before` holds: changing or removing it recounts that figure
    from the position's other entries of the kind (None: nothing to recount)."""
    if register is None or before is None:
        return None
    return register.builder().remove(before)


def register_after(
    register: PositionRegister | None,
    before: PositionEntry | None,
    after: PositionEntry | None,
    others: Iterable[PositionEntry] = (),
) -> PositionRegister:
    """The register once `before` (as stored) is replaced by `after` (None: removed/new); `others`
    are the position's entries of the kind `recount_needed` named."""
    entry = after or before
    assert entry is not None
    if register is None:  # an entry for an unregistered position registers it
        register = PositionRegister(entry.position_id, entry.fund_id, entry.investor_id, currency=entry.currency)
    builder = register.builder()
    recount = builder.remove(before) if before is not None else None
    if after is not None:
        builder.add(after)
    if recount is not None:
        builder.reconsider(recount, [e for e in others if e.document_id != entry.document_id])
    return replace(register.with_builder(builder), revision=register.revision + 1, updated_at=utcnow())


def register_actions(
    uow: UnitOfWork,
    register: PositionRegister | None,
    before: PositionEntry | None,
    after: PositionEntry | None,
    others: Iterable[PositionEntry] = (),
) -> None:
    """Add the register's share of an entry write to `uow`: the new roll-up, conditioned on the
    revision read (absent: must still be absent) and, when the entry registers the position, the
    register's companions (its position and investor found by search; its fund's come with the
    fund's documents), so no write of an existing position touches an item shared with other
    positions."""
    new = register_after(register, before, after, others)
    registers = register is None and after is not None
    uow.put(new, expect=register.revision if register else NEW, name="register", companions=registers)


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
        uow.put(new, expect=register.revision, name="register")
        uow.put(audit, expect=NEW, name="audit")
        uow.commit()
    return new


def _plain(value: Decimal | None) -> str | None:
    return None if value is None else str(value)
