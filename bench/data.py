"""Synthetic fund documents, built as the project's entities (so the proper design's items and
index keys come from mapping.to_item / the key codec, exactly as the portal writes them)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import CapitalCall, Distribution, PositionEntry, UnfundedCommitment
from fundportal.store.mapping import entities as mapping
from fundportal.store.repositories.documents import document_items
from fundportal.store.serialization import to_item

LOADED_AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
ENTRY_CLASSES = (CapitalCall, Distribution, UnfundedCommitment)
STATUSES = ("Pending", "Completed", "Active")


def as_of(number: int) -> date:
    """Quarter ends spread over 2023-2025 (so the month index has several shards)."""
    quarter = number % 12
    return date(2023 + quarter // 4, 3 * (quarter % 4) + 1, 28)


def entries(document_id: str, positions: list[str], on: date, fund_id: str = "FUND_B") -> list[PositionEntry]:
    out: list[PositionEntry] = []
    for n, position_id in enumerate(positions):
        for cls, base in zip(ENTRY_CLASSES, (250_000, 40_000, 900_000), strict=True):
            out.append(
                cls(
                    document_id=document_id,
                    position_id=position_id,
                    fund_id=fund_id,
                    investor_id=f"INV_{position_id}",
                    amount=Decimal(base + 1_000 * n) + Decimal("0.50"),
                    status=STATUSES[n % 3],
                    as_of_date=on,
                    due_date=on,
                    updated_at=LOADED_AT,
                    updated_by="bench",
                )
            )
    return out


def document(document_id: str, positions: list[str], number: int = 0, history: bool = False) -> list[dict[str, Any]]:
    """Plain-valued items of one document: current document and capital activity (and, with
    `history`, one superseded copy of each) plus three entries per position."""
    on = as_of(number)
    common = {"document_id": document_id, "as_of_date": on, "updated_at": LOADED_AT, "updated_by": "bench"}
    doc = Document(**common, title=f"Statement {document_id}", fund_id="FUND_B", revision=2 if history else 1)
    activity = CapitalActivity(**common, amount=Decimal("5000000.00"), revision=2 if history else 1)
    # The month-catalog item is shared by documents: left out here (a batch must not repeat a key).
    items = [
        i
        for i in document_items(doc, activity, entries(document_id, positions, on))
        if i["EntityType"] != "MonthCatalog"
    ]
    if history:
        items.append(mapping.to_item(doc.superseded(date(on.year, on.month, 1))))
        items.append(mapping.to_item(activity.superseded(date(on.year, on.month, 1))))
    return items


def typed(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Items in DynamoDB's typed JSON form (for BatchWriteItem)."""
    return [to_item(item) for item in items]


def fund_registers(fund_id: str, positions: int) -> list[dict[str, Any]]:
    """The position registers of a fund of `positions` positions (the fund page): each built
    by the portal's own accumulator from one document's entries, with a commitment and a NAV (in
    the investor index), plus the fund's catalog entry."""
    from fundportal.domain.figures_builder import FiguresBuilder
    from fundportal.domain.position_entries import NetAssetValue
    from fundportal.domain.position_register import PositionRegister
    from fundportal.store.mapping.companions import FundCatalogEntry
    from fundportal.store.repositories.summaries import shard_items

    on = as_of(0)
    ids = [f"{fund_id}_P{n:05d}" for n in range(positions)]
    items: list[dict[str, Any]] = []
    registers: list[PositionRegister] = []
    for position_id, *made in _grouped(entries(f"{fund_id}_DOC", ids, on, fund_id=fund_id), 3):
        builder = FiguresBuilder(flows=True)
        for entry in made:
            builder.add(entry)
        first = made[0]
        builder.add(NetAssetValue(**{**_fields(first), "amount": first.amount * 2, "status": "Active"}))
        register = PositionRegister(
            position_id, fund_id, first.investor_id, commitment=Decimal(2_000_000), revision=1
        ).with_builder(builder)
        items.append(mapping.to_item(register))
        registers.append(register)
    return [*items, mapping.to_item(FundCatalogEntry(fund_id)), *shard_items(registers)]


def _grouped(found: list[PositionEntry], size: int) -> list[list[Any]]:
    return [[found[i].position_id, *found[i : i + size]] for i in range(0, len(found), size)]


def _fields(entry: PositionEntry) -> dict[str, Any]:
    names = ("document_id", "position_id", "fund_id", "investor_id", "currency", "as_of_date", "updated_at")
    return {name: getattr(entry, name) for name in names}
