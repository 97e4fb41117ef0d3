"""Reads of fund and investor records for their edit pages (the fund and investor pages read
the records in their own Query: `funds.selectors.GroupPage.record`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound, NotPermitted
from fundportal.domain.kinds import validate_id
from fundportal.domain.records import FundRecord, InvestorRecord, RecordNames
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


def record_names(
    *, fund_ids: Iterable[str] = (), investor_ids: Iterable[str] = (), known: RecordNames | None = None
) -> RecordNames:
    """The names of these funds and investors beside their ids in an export: those `known`
    already (read with the export's own requests: a fund record rides in the fund's summary
    BatchGetItem, an investor record sorts first on the investor index) and the rest from their
    records, one BatchGetItem per 100 (none when nothing is left to look up)."""
    names = known or RecordNames()
    funds = [f for f in dict.fromkeys(fund_ids) if f not in names.funds]
    investors = [i for i in dict.fromkeys(investor_ids) if i not in names.investors]
    if funds or investors:
        found = RecordRepository().names(funds, investors)
        names = RecordNames({**names.funds, **found.funds}, {**names.investors, **found.investors})
    return names


class ExportNames:
    """Names for an export's rows, a chunk at a time (`exports.tables.named_chunks`): each id's
    record looked up once (found or not), one BatchGetItem per chunk of up to 100 rows with ids
    not seen yet."""

    def __init__(self, known: RecordNames | None = None, *, funds_read: Iterable[str] = ()) -> None:
        """`known`: names the export's own reads brought; `funds_read`: funds whose record those
        reads looked for (found or not: never asked again)."""
        self.names = known or RecordNames()
        self.tried: set[tuple[str, str]] = {("fund", f) for f in funds_read}

    def __call__(self, rows: Iterable[Any]) -> RecordNames:
        rows = list(rows)
        funds = [r.fund_id for r in rows if ("fund", r.fund_id) not in self.tried]
        investors = [r.investor_id for r in rows if ("investor", r.investor_id) not in self.tried]
        self.names = record_names(fund_ids=funds, investor_ids=investors, known=self.names)
        self.tried.update(("fund", f) for f in funds)
        self.tried.update(("investor", i) for i in investors)
        return self.names

    def every(self, rows: list[Any], size: int = 100) -> RecordNames:
        """The names of all `rows`, looked up a chunk of `size` rows at a time."""
        for start in range(0, len(rows), size):
            self(rows[start : start + size])
        return self.names
