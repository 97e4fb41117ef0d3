"""Writes of fund and investor records: set (create or change) a record through the unit of work,
conditioned on the revision the editor saw, audited, with the search items of its name.

Who may edit:
- a fund's record: an editor of that fund (`AccessScope.require_edit`);
- an investor's record: an editor of any fund the investor has a position in (read from the
  investor's positions: one Query); an investor with no position has no page and no record.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import Conflict, NotFound
from fundportal.domain.kinds import validate_id
from fundportal.domain.model import utcnow
from fundportal.domain.records import FundRecord, InvestorRecord, RecordAudit, record_changes
from fundportal.store.repositories.records import RecordRepository, name_items
from fundportal.store.uow import NEW, UnitOfWork
from funds.record_selectors import require_investor_edit

Record = FundRecord | InvestorRecord


def fund_record_set(
    record: FundRecord,
    *,
    expected_revision: int,
    user: str,
    token: str | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> FundRecord:
    """Create (`expected_revision` 0) or change a fund's record. NotFound outside `scope` or for a
    fund with no position, NotPermitted for a reader, InvalidRecord for values the rules refuse,
    Conflict when the stored record is not at `expected_revision`."""
    fund_id = validate_id(record.fund_id, "fund id")
    scope.require_edit(fund_id, "Fund", fund_id)
    wanted = record.check()  # bad values are refused before any request
    uow = uow or UnitOfWork()
    uow.request(token, "fund record", record, expected_revision)
    if not uow.registers.fund_position_ids(fund_id):
        raise NotFound("Fund", fund_id)
    stored = RecordRepository(uow.gateway).fund(fund_id, consistent=True)
    return _set(uow, "fund", fund_id, stored, wanted, expected_revision, user)  # type: ignore[return-value]


def investor_record_set(
    record: InvestorRecord,
    *,
    expected_revision: int,
    user: str,
    token: str | None = None,
    scope: AccessScope = OPERATOR,
    uow: UnitOfWork | None = None,
) -> InvestorRecord:
    """Create or change an investor's record: allowed to an editor of any fund the investor is in
    (NotFound when the scope covers none of them, NotPermitted when it may only read them)."""
    investor_id = validate_id(record.investor_id, "investor id")
    wanted = record.check()
    uow = uow or UnitOfWork()
    uow.request(token, "investor record", record, expected_revision)
    require_investor_edit(investor_id, scope, uow.registers)
    stored = RecordRepository(uow.gateway).investor(investor_id, consistent=True)
    return _set(uow, "investor", investor_id, stored, wanted, expected_revision, user)  # type: ignore[return-value]


def _set(
    uow: UnitOfWork, subject: str, subject_id: str, stored: Record | None, wanted: Record, expected: int, user: str
) -> Record:
    current = stored.revision if stored is not None else 0
    if stored is not None and _landed(stored, wanted, expected, user):
        return stored
    if current != expected:
        what = "Fund record" if subject == "fund" else "Investor record"
        updated_by = stored.updated_by if stored is not None else None
        updated_at = stored.updated_at if stored is not None else None
        raise Conflict(what, subject_id, expected, current, updated_by, updated_at)
    changes = record_changes(stored, wanted)
    if stored is not None and not changes:
        return stored  # nothing changed: nothing written
    now = utcnow()
    new = replace(wanted, revision=current + 1, updated_at=now, updated_by=user)
    audit = RecordAudit(subject, subject_id, datetime.now(UTC), user, changes, uow.token)
    old_items, new_items = name_items(stored), name_items(new)
    with uow:
        uow.put(new, expect=NEW if stored is None else current, name=f"{subject} record", stamped=True)
        uow.put(audit, expect=NEW, name="audit")
        for item in old_items:
            if item not in new_items:
                uow.delete(item, name="name search")
        for item in new_items:
            if item not in old_items:
                uow.put(item, name="name search")
        uow.commit()
    return new


def _landed(stored: Record | None, wanted: Record, expected: int, user: str) -> bool:
    """This very change already landed (a double click, a lost reply): the stored record is one
    revision past the form's, by the same user, with the same values."""
    if stored is None or stored.revision != expected + 1 or stored.updated_by != user:
        return False
    return not record_changes(stored, wanted)
