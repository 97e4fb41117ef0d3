"""Long documents for the paging tests: N positions (LONG_00001.. in id order), a capital
activity (the document's own figure), written with the entities' own items (keys from the key codec)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue, UnfundedCommitment
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.documents import document_items

ACTIVITY = Decimal("123456.78")


def position_id(n: int) -> str:
    return f"LONG_{n:05d}"


def long_entries(document_id: str, positions: int, *, every_kind: int = 1, investors: int = 5) -> list:
    """A capital call per position; every `every_kind`-th position also has a distribution, an
    unfunded commitment and a NAV (so a page of them is the widest a page can be)."""
    entries: list = []
    for n in range(1, positions + 1):
        common = dict(
            document_id=document_id,
            position_id=position_id(n),
            fund_id="FUND_L",
            investor_id=f"INVESTOR_L{n % investors + 1}",
            as_of_date=date(2025, 6, 30),
        )
        entries.append(CapitalCall(**common, amount=Decimal(n), status="Completed"))
        if n % every_kind == 0:
            entries.append(Distribution(**common, amount=Decimal(n) / 2, status="Completed"))
            entries.append(UnfundedCommitment(**common, amount=Decimal(1000), status="Active"))
            entries.append(NetAssetValue(**common, amount=Decimal(n) * 3, status="Active"))
    return entries


def load_long_document(
    document_id: str = "LONG", positions: int = 250, *, every_kind: int = 1, workers: int = 1
) -> Document:
    doc = Document(
        document_id=document_id,
        title=f"{positions}-position notice",
        fund_id="FUND_L",
        as_of_date=date(2025, 6, 30),
        document_type="capital_call_notice",
    )
    activity = CapitalActivity(document_id=document_id, amount=ACTIVITY, status="Completed")
    items = document_items(doc, activity, long_entries(document_id, positions, every_kind=every_kind))
    DocumentRepository().bulk_load(items, workers=workers)
    return doc


def load_investor_positions(investor_id: str, positions: int, funds: tuple[str, ...] = ("FUND_P1", "FUND_P2")) -> None:
    """`positions` registers of one investor spread over `funds` (INV_POS_00001..), each with one
    called amount of n (the register's roll-up built from that entry, as a write would)."""
    from fundportal.domain.figures_builder import FiguresBuilder
    from fundportal.domain.position_register import PositionRegister
    from fundportal.store.repositories.register import RegisterRepository

    repository = RegisterRepository()
    items: list = []
    for n in range(1, positions + 1):
        fund_id = funds[(n - 1) % len(funds)]  # FUND_P1: the odd positions
        call = CapitalCall(
            document_id="DOC_P",
            position_id=f"INV_POS_{n:05d}",
            fund_id=fund_id,
            investor_id=investor_id,
            amount=Decimal(n),
            status="Completed",
            as_of_date=date(2025, 6, 30),
        )
        builder = FiguresBuilder(flows=True)
        builder.add(call)
        register = PositionRegister(call.position_id, fund_id, investor_id, commitment=Decimal(1000), revision=1)
        items.extend(repository.bulk_items(register.with_builder(builder)))
    unique = {(item["PK"], item["SK"]): item for item in items}  # one fund catalog entry a fund
    DocumentRepository().bulk_load(unique.values(), workers=1)
