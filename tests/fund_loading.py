"""Test helper: a fund of many positions loaded whole (registers and summary shards), as the bulk
loaders do, so paging and exports can be tested without writing each entry."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.domain.position_register import PositionRegister
from fundportal.store.gateway import TableGateway
from fundportal.store.mapping.companions import FundCatalogEntry
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories.summaries import shard_items


def load_fund(fund_id: str, positions: int, nav_on: date | None = None) -> list[PositionRegister]:
    """`positions` registers of `fund_id` (a call of 1,000 + n each, commitment 5,000; with
    `nav_on`, the call dated a year before and a NAV of 2,000 + n on that date), its catalog
    entry and its summary shards."""
    registers = []
    for n in range(positions):
        position_id = f"{fund_id}_P{n:05d}"
        builder = FiguresBuilder(flows=True)
        called_on = nav_on.replace(year=nav_on.year - 1) if nav_on else None
        ids = (position_id, fund_id, f"INV_{n}")
        builder.add(CapitalCall("DOC_BIG", *ids, Decimal(1000 + n), "Completed", as_of_date=called_on))
        if nav_on is not None:
            builder.add(NetAssetValue("DOC_NAV", *ids, Decimal(2000 + n), "Active", as_of_date=nav_on))
        register = PositionRegister(position_id, fund_id, f"INV_{n}", commitment=Decimal(5000), revision=1)
        registers.append(register.with_builder(builder))
    items = [*(to_item(r) for r in registers), to_item(FundCatalogEntry(fund_id)), *shard_items(registers)]
    TableGateway().batch_write(items, workers=4)
    return registers
