"""Reads of fund and investor records for their edit pages (the fund and investor pages read
the records in their own Query: `funds.selectors.GroupPage.record`)."""

from __future__ import annotations

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound, NotPermitted
from fundportal.domain.kinds import validate_id
from fundportal.domain.records import FundRecord, InvestorRecord
from fundportal.store.repositories.records import RecordRepository
from fundportal.store.repositories.register import RegisterRepository


def fund_record_for_edit(*, fund_id: str, scope: AccessScope = OPERATOR) -> FundRecord | None:
    """The fund's record as stored now (consistent GetItem; None: none yet), after the edit rule."""
    validate_id(fund_id, "fund id")
    scope.require_edit(fund_id, "Fund", fund_id)
    return RecordRepository().fund(fund_id, consistent=True)


def investor_record_for_edit(*, investor_id: str, scope: AccessScope = OPERATOR) -> InvestorRecord | None:
    """The investor's record as stored now, after the edit rule (its positions: one Query)."""
    validate_id(investor_id, "investor id")
    require_investor_edit(investor_id, scope)
    return RecordRepository().investor(investor_id, consistent=True)


def require_investor_edit(investor_id: str, scope: AccessScope, registers: RegisterRepository | None = None) -> None:
    """The investor-record rule: the scope may edit at least one fund the investor is in (its
    positions: one Query). NotFound when the scope covers none of them, NotPermitted when it may
    only read them."""
    found = (registers or RegisterRepository()).investor_positions(investor_id)
    funds = {r.fund_id for r in found if scope.covers_position(r.fund_id, r.investor_id)}
    if not funds or scope.is_investor:
        raise NotFound("Investor", investor_id)
    if not any(scope.can_edit(fund_id) for fund_id in funds):
        raise NotPermitted("edit", sorted(funds)[0])
