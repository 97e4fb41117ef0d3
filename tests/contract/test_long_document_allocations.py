"""A long document whose positions hold the capital account's kinds too: a page reads no more
items than one of the seed's kinds, shows fewer positions, and the next page starts with the
position the Query may have stopped inside, so every position is shown once and whole."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import (
    CarriedInterest,
    ManagementFee,
    PartnershipExpense,
    RealizedGain,
    UnrealizedGain,
)
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_pages import DocumentPageRepository, page_items
from fundportal.store.repositories.documents import document_items
from tests.long_documents import long_entries, position_id


def test_pages_of_positions_with_every_kind_show_each_position_once_with_all_its_entries(backend):
    entries = long_entries("LONGK", 120)
    for entry in list(entries):
        if entry.kind.value == "CAPITAL_CALL":
            common = {
                "document_id": "LONGK",
                "position_id": entry.position_id,
                "fund_id": "FUND_L",
                "investor_id": entry.investor_id,
                "as_of_date": entry.as_of_date,
                "status": "Completed",
            }
            entries += [
                ManagementFee(**common, amount=Decimal(10)),
                PartnershipExpense(**common, amount=Decimal(2)),
                RealizedGain(**common, amount=Decimal(-1)),
                UnrealizedGain(**common, amount=Decimal(3)),
                CarriedInterest(**common, amount=Decimal(1)),
            ]
    document = Document(document_id="LONGK", title="t", fund_id="FUND_L", as_of_date=date(2025, 6, 30))
    activity = CapitalActivity(document_id="LONGK", amount=Decimal(1), status="Completed")
    DocumentRepository().bulk_load(document_items(document, activity, entries), workers=1)
    pages = DocumentPageRepository()
    seen: list[str] = []
    after = None
    while True:
        page = pages.positions_page("LONGK", after=after)
        assert len(page.positions) < 100  # nine entries a position: fewer than 100 fit in the read
        assert all(len(p.entries) == 9 for p in page.positions)
        seen += [p.position_id for p in page.positions]
        if not page.more_after:
            break
        after = page.positions[-1].position_id
    assert seen == [position_id(n) for n in range(1, 121)]
    assert page_items() == 101 * 4 + 100
