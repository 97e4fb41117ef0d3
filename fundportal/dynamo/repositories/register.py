"""The position register's access patterns (issue 13): the fund page, the investor page, the funds
catalog, and the register's share of every entry transaction (`RegisterWrite`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fundportal.domain.model import AuditEntry, PositionRegister

from .. import keys
from ..errors import TransactionCancelled
from ..gateway import NOT_EXISTS, Condition, TableGateway
from ..mapping import FundCatalogEntry, from_item, position_audit_item, to_item
from ..schema import ENTITY_INDEX, INVESTOR_INDEX, TABLE

_ENTITY = TABLE.index(ENTITY_INDEX)
_INVESTOR = TABLE.index(INVESTOR_INDEX)


class RegisterChanged(Exception):
    """The register moved between our read and our write (another writer's entry landed first):
    re-read it and recompute (the caller retries, bounded)."""


def register_key(position_id: str) -> tuple[str, str]:
    return keys.register_pk(position_id), keys.register_sk()


@dataclass(frozen=True, slots=True)
class RegisterWrite:
    """The register's part of a transaction: put the new register if it is still at the revision
    we read (absent when `seen_revision` is 0) and, when the position is new, nothing shared with
    other positions (the fund's catalog entry is written with the fund's documents), so no item
    is touched by every write to a fund. The register is in the fund, position and investor
    indexes itself: one item a position."""

    register: PositionRegister
    seen_revision: int

    def condition(self) -> Condition:
        if self.seen_revision == 0:
            return NOT_EXISTS
        # The revision pins everything, fund and investor included (they never change once set).
        return Condition(
            "#rev = :rev AND #fund = :fund AND #inv = :inv",
            {"#rev": "Revision", "#fund": "FundId", "#inv": "InvestorId"},
            {":rev": self.seen_revision, ":fund": self.register.fund_id, ":inv": self.register.investor_id},
        )

    def actions(self, gateway: TableGateway) -> list[dict[str, Any]]:
        return [gateway.put_action(to_item(self.register), self.condition())]


def raise_if_register_moved(error: TransactionCancelled, first_register_action: int) -> None:
    """A cancelled entry transaction whose register condition failed: RegisterChanged."""
    if error.failed(first_register_action):
        raise RegisterChanged() from error


class RegisterRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    def get(self, position_id: str, *, consistent: bool = False) -> PositionRegister | None:
        item = self.gateway.get(register_key(position_id), consistent=consistent)
        return from_item(PositionRegister, item) if item else None

    # Pattern 13: a fund's positions — one Query on GSI_Entity_Document (GSI_PK = FUND#<fund>)
    def fund_positions(self, fund_id: str) -> list[PositionRegister]:
        items = self.gateway.query(f"{_ENTITY.pk} = :pk", {":pk": keys.fund_index_pk(fund_id)}, index=ENTITY_INDEX)
        return [from_item(PositionRegister, item) for item in items]

    # Pattern 14: an investor's positions — one Query on GSI_Investor_Position (GSI4_PK = INVESTOR#<id>)
    def investor_positions(self, investor_id: str) -> list[PositionRegister]:
        pk = keys.investor_index_pk(investor_id)
        items = self.gateway.query(f"{_INVESTOR.pk} = :pk", {":pk": pk}, index=INVESTOR_INDEX)
        return [from_item(PositionRegister, item) for item in items]

    # Pattern 15: the funds that have positions — one Query on the tiny catalog partition
    def funds(self) -> list[str]:
        items = self.gateway.query("PK = :pk", {":pk": keys.FUND_CATALOG_PK}, projection="SK")
        return [item["SK"] for item in items]

    # Commitment: the register (conditioned on the revision read) and an audit item
    def save(self, register: PositionRegister, seen_revision: int, audit: AuditEntry) -> None:
        """RegisterChanged when the register moved since it was read."""
        write = RegisterWrite(register, seen_revision)
        actions = [
            *write.actions(self.gateway),
            self.gateway.put_action(position_audit_item(register.position_id, audit), NOT_EXISTS),
        ]
        try:
            self.gateway.transact(actions, audit.token)
        except TransactionCancelled as error:
            raise_if_register_moved(error, 0)
            raise

    def bulk_items(self, register: PositionRegister) -> list[dict[str, Any]]:
        """The items of a register for a bulk load (seeding, repair): register, catalog."""
        return [to_item(register), to_item(FundCatalogEntry(register.fund_id))]
