"""A large document for the issue-15 tests: N positions (POSITION_1..N, natural order differs
from string order), amounts that do not follow the position number, a few investors and
statuses, written with the entities' own items (keys from the key codec)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, Distribution, UnfundedCommitment
from fundportal.store.mapping.companions import search_items_of
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_list import DocumentListRepository
from fundportal.store.repositories.documents import document_items

STATUSES = ("Pending", "Completed", "Active", "Cancelled")


def call_amount(n: int) -> Decimal:
    return Decimal((n * 7919) % 100_003) + Decimal("0.25")


def wide_entries(document_id: str, positions: int, as_of: date, fund_id: str = "FUND_W") -> list:
    entries = []
    for n in range(1, positions + 1):
        common = dict(
            document_id=document_id,
            position_id=f"POSITION_{n}",
            fund_id=fund_id,
            investor_id=f"INVESTOR_{n % 5 + 1}",
            as_of_date=as_of,
        )
        entries.append(CapitalCall(**common, amount=call_amount(n), status=STATUSES[n % 4]))
        entries.append(Distribution(**common, amount=Decimal((n * 104_729) % 50_021), status="Completed"))
        if n % 10:  # every tenth position has no unfunded commitment (sorted last)
            entries.append(UnfundedCommitment(**common, amount=Decimal(n * 1000), status="Active"))
    return entries


def load_wide_document(
    document_id: str = "WIDE100", positions: int = 100, as_of: date = date(2025, 6, 30), **document: object
) -> Document:
    doc = Document(
        document_id=document_id,
        title=f"{positions}-position statement",
        fund_id="FUND_W",
        as_of_date=as_of,
        document_type="capital_account_statement",
        **document,
    )
    entries = wide_entries(document_id, positions, as_of)
    DocumentRepository().bulk_load(document_items(doc, None, entries), workers=1)
    DocumentListRepository().put_search_items(s for entity in (doc, *entries) for s in search_items_of(entity))
    return doc
