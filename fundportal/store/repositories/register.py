"""The position register's access patterns: the fund page, the investor page and the funds
catalog (reads). The register's writes are unit-of-work actions (`uow.put(register,
expect=revision, name="register")`), conditioned on the revision read."""

from __future__ import annotations

from typing import Any

from fundportal.domain.kinds import SearchKind
from fundportal.domain.model import PositionRegister
from fundportal.domain.records import FundRecord, InvestorRecord

from ..gateway import TableGateway
from ..mapping import keys
from ..mapping.companions import register_companions
from ..mapping.entities import (
    REGISTER_TYPE,
    FundCatalogEntry,
    from_item,
    is_record_item,
    record_of_item,
    to_item,
)
from ..schema import ENTITY_INDEX, INVESTOR_INDEX, TABLE

_ENTITY = TABLE.index(ENTITY_INDEX)
_INVESTOR = TABLE.index(INVESTOR_INDEX)


def register_key(position_id: str) -> tuple[str, str]:
    return keys.register_pk(position_id), keys.register_sk()


class RegisterRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    def get(self, position_id: str, *, consistent: bool = False) -> PositionRegister | None:
        item = self.gateway.get(register_key(position_id), consistent=consistent)
        return from_item(PositionRegister, item) if item else None

    # Pattern 13: a fund's positions — one Query on GSI_Entity_Document (GSI_PK = FUND#<fund>)
    def fund_positions(self, fund_id: str) -> list[PositionRegister]:
        return self.fund_page(fund_id)[0]

    def fund_page(self, fund_id: str) -> tuple[list[PositionRegister], FundRecord | None]:
        """The fund's registers and its record (None: no record yet), from the same Query: the
        record sorts first in the partition (`keys.fund_record_index_keys`)."""
        items = self.gateway.query(f"{_ENTITY.pk} = :pk", {":pk": keys.fund_index_pk(fund_id)}, index=ENTITY_INDEX)
        registers, record = _split(items)
        return registers, record if isinstance(record, FundRecord) else None

    # Pattern 13, ids only: which positions a fund holds (the import's check that a row's position
    # is registered in its fund) — the same Query, projected to the position id, every page.
    def fund_position_ids(self, fund_id: str) -> set[str]:
        values = {":pk": keys.fund_index_pk(fund_id)}
        items = self.gateway.query(
            f"{_ENTITY.pk} = :pk", values, index=ENTITY_INDEX, projection="PositionId, EntityType"
        )
        return {item["PositionId"] for item in items if item.get("EntityType") == REGISTER_TYPE}

    # Pattern 14: an investor's positions — one Query on GSI_Investor_Position (GSI4_PK = INVESTOR#<id>)
    def investor_positions(self, investor_id: str) -> list[PositionRegister]:
        return self.investor_page(investor_id)[0]

    def investor_page(self, investor_id: str) -> tuple[list[PositionRegister], InvestorRecord | None]:
        """The LP's registers and its record (None: no record yet), from the same Query."""
        pk = keys.investor_index_pk(investor_id)
        items = self.gateway.query(f"{_INVESTOR.pk} = :pk", {":pk": pk}, index=INVESTOR_INDEX)
        registers, record = _split(items)
        return registers, record if isinstance(record, InvestorRecord) else None

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

    def bulk_items(self, register: PositionRegister) -> list[dict[str, Any]]:
        """The items of a register for a bulk load (seeding, repair): register, catalog."""
        return [to_item(register), to_item(FundCatalogEntry(register.fund_id))]


def _split(items: Any) -> tuple[list[PositionRegister], FundRecord | InvestorRecord | None]:
    """Registers and the record among a fund's or an investor's index items."""
    registers, record = [], None
    for item in items:
        if is_record_item(item):
            record = record_of_item(item)
        else:
            registers.append(from_item(PositionRegister, item))
    return registers, record
