"""The position register's access patterns: the fund page, the investor page and the funds
catalog (reads). The register's writes are unit-of-work actions (`uow.put(register,
expect=revision, name="register")`), conditioned on the revision read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fundportal.domain.kinds import SearchKind
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.records import FundRecord, InvestorRecord
from fundportal.domain.register_versions import RegisterVersion

from .. import cursor as cursors
from ..gateway import TableGateway
from ..mapping import keys
from ..mapping.companions import FundCatalogEntry, register_companions
from ..mapping.entities import from_item, to_item
from ..mapping.record_maps import is_record_item, record_of_item
from ..mapping.register_history import replaced_at_text, versions_of_item
from ..schema import DOCUMENT_INDEX, FUND_INDEX, INVESTOR_INDEX, TABLE

BATCH_KEYS = 100  # BatchGetItem's limit
_INVESTOR = TABLE.index(INVESTOR_INDEX)
_FUND = TABLE.index(FUND_INDEX)


def register_key(position_id: str) -> tuple[str, str]:
    return keys.register_pk(position_id), keys.register_sk()


class RegisterRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    def get(self, position_id: str, *, consistent: bool = False) -> PositionRegister | None:
        item = self.gateway.get(register_key(position_id), consistent=consistent)
        return from_item(PositionRegister, item) if item else None

    # Pattern 13: a fund's positions whole — the slim copies on GSI_Fund_Position (GSI6_PK =
    # FUND#<fund>, position ids only) then the registers by BatchGetItem, 100 keys a request.
    # Registers are not copied whole to any index keyed by fund: an import's register writes
    # would all land on that one index key.
    def fund_positions(self, fund_id: str) -> list[PositionRegister]:
        return self.in_full(self._fund_ids(fund_id))

    # Pattern 13, ids only: which positions a fund holds (the import's check that a row's position
    # is registered in its fund) — one Query of the slim copies, projected to the id, every page.
    def fund_position_ids(self, fund_id: str) -> set[str]:
        return set(self._fund_ids(fund_id))

    def _fund_ids(self, fund_id: str) -> list[str]:
        """The fund's position ids in the index's order (GSI6_SK)."""
        values = {":pk": keys.fund_index_pk(fund_id)}
        items = self.gateway.query(f"{_FUND.pk} = :pk", values, index=FUND_INDEX, projection="PositionId")
        return [item["PositionId"] for item in items]

    # Pattern 13, slim: every slim copy of the fund (`slim_register`: no dated flows, so no IRR),
    # for readers that need the figures but not the history.
    def fund_slim_positions(self, fund_id: str) -> list[PositionRegister]:
        items = self.gateway.query(f"{_FUND.pk} = :pk", {":pk": keys.fund_index_pk(fund_id)}, index=FUND_INDEX)
        return [slim_register(item) for item in items]

    # Pattern 14: an investor's positions — one Query on GSI_Investor_Position (GSI4_PK = INVESTOR#<id>)
    def investor_positions(self, investor_id: str) -> list[PositionRegister]:
        return self.investor_positions_and_record(investor_id)[0]

    def investor_positions_and_record(self, investor_id: str) -> tuple[list[PositionRegister], InvestorRecord | None]:
        """The LP's registers and its record (None: no record yet), from the same Query: the
        record sorts first in the partition (`keys.investor_record_index_keys`)."""
        pk = keys.investor_index_pk(investor_id)
        items = self.gateway.query(f"{_INVESTOR.pk} = :pk", {":pk": pk}, index=INVESTOR_INDEX)
        registers, record = _split(items)
        return registers, record if isinstance(record, InvestorRecord) else None

    # As-of pages: the registers of a page's positions as the table holds them (the index copies
    # may be slim): BatchGetItem, 100 keys a request; one gone since is left out.
    def in_full(self, position_ids: list[str]) -> list[PositionRegister]:
        wanted = [register_key(p) for p in position_ids]
        found = []
        for start in range(0, len(wanted), BATCH_KEYS):
            chunk = wanted[start : start + BATCH_KEYS]
            got = self.gateway.batch_get(chunk)
            found += [from_item(PositionRegister, got[key]) for key in chunk if key in got]
        return found

    # Known at T (the fund and investor pages): every register version of a fund (on the document
    # index) or of an investor (on the investor index) replaced after T, one Query (every page);
    # a fund's registrations (an import's new positions) come as versions registering each.
    def fund_versions_after(self, fund_id: str, at: datetime) -> list[RegisterVersion]:
        return self._versions_after(DOCUMENT_INDEX, keys.register_history_fund_pk(fund_id), at)

    def investor_versions_after(self, investor_id: str, at: datetime) -> list[RegisterVersion]:
        return self._versions_after(INVESTOR_INDEX, keys.register_history_investor_pk(investor_id), at)

    def _versions_after(self, index: str, pk: str, at: datetime) -> list[RegisterVersion]:
        held = TABLE.index(index)
        values = {":pk": pk, ":after": keys.register_history_after(replaced_at_text(at))}
        items = self.gateway.query(f"{held.pk} = :pk AND {held.sk} > :after", values, index=index)
        return [version for item in items for version in versions_of_item(item)]

    # Pattern 15: the funds that have positions — one Query on the tiny catalog partition
    def funds(self) -> list[str]:
        items = self.gateway.query("PK = :pk", {":pk": keys.FUND_CATALOG_PK}, projection="SK")
        return [item["SK"] for item in items]

    def companion_keys(self, register: PositionRegister, *, investor: bool) -> list[tuple[str, str]]:
        """The keys of the search items a register's first entry brought along (`companions`):
        its position's, and with `investor` its investor's (shared by the investor's other
        positions: only when it has none left). Removing the position deletes them."""
        found = []
        for companion in register_companions(register):
            if companion.kind is SearchKind.INVESTOR and not investor:
                continue
            item = to_item(companion)
            found.append((item["PK"], item["SK"]))
        return found

    def fund_page(self, fund_id: str, cursor: str | None = None, limit: int = 100) -> FundPositionsPage:
        """One page of the fund's positions (see `fund_positions_page`)."""
        return fund_positions_page(self.gateway, fund_id, cursor, limit)

    def bulk_items(self, register: PositionRegister) -> list[dict[str, Any]]:
        """The items of a register for a bulk load (seeding, repair): register, catalog."""
        return [to_item(register), to_item(FundCatalogEntry(register.fund_id))]


@dataclass(frozen=True)
class FundPositionsPage:
    """One page of a fund's registers in position order, with the signed cursors of the pages
    beside it (None at either end) and its 1-based number."""

    registers: list[PositionRegister]
    next_cursor: str | None
    previous_cursor: str | None
    number: int


FUND_PAGE_SIZE = 100
_INDEX_KEYS = ("PK", "SK", _FUND.pk, _FUND.sk)


def _start_key(item: dict[str, Any]) -> dict[str, Any]:
    return {name: {"S": item[name]} for name in _INDEX_KEYS}


def fund_positions_page(
    gateway: TableGateway, fund_id: str, cursor: str | None = None, limit: int = FUND_PAGE_SIZE
) -> FundPositionsPage:
    """Pattern 13, paged: `limit` slim register copies of the fund in position order from one
    Query on GSI_Fund_Position (`slim_register`); the cursor is signed and bound to the fund
    (BadCursor otherwise) and
    says which way to read (a previous page is read backwards from this page's first item)."""
    query = ("fund positions", fund_id)
    start_key, carried = cursors.decode(cursor, query) if cursor else (None, {})
    backwards = carried.get("d") == "b"
    number = int(carried.get("p") or 1) if str(carried.get("p") or "1").isdigit() else 1
    page = gateway.query_page(
        f"{_FUND.pk} = :pk",
        {":pk": keys.fund_index_pk(fund_id)},
        index=FUND_INDEX,
        limit=limit,
        start_key=start_key,
        forward=not backwards,
    )
    items = list(reversed(page.items)) if backwards else page.items
    more = page.last_key is not None  # DynamoDB may say so on a page that ended exactly: one empty page then
    after = more if not backwards else bool(items)
    before = (more if backwards else start_key is not None) and number > 1
    next_cursor = cursors.encode(_start_key(items[-1]), query, {"d": "f", "p": number + 1}) if items and after else None
    previous_cursor = (
        cursors.encode(_start_key(items[0]), query, {"d": "b", "p": number - 1}) if items and before else None
    )
    return FundPositionsPage([slim_register(i) for i in items], next_cursor, previous_cursor, number)


def slim_register(item: dict[str, Any]) -> PositionRegister:
    """A register from its slim copy (`codecs.register_lines_out`): figures, commitment, ids and
    only the flows after its NAV date, enough to value it as of today but not for an IRR (the
    position page has it)."""
    return from_item(PositionRegister, {**item, "Rollup": item.get("Lines") or {}})


def _split(items: Any) -> tuple[list[PositionRegister], FundRecord | InvestorRecord | None]:
    """Registers and the record among an investor's index items."""
    registers, record = [], None
    for item in items:
        if is_record_item(item):
            record = record_of_item(item)
        else:
            registers.append(from_item(PositionRegister, item))
    return registers, record
