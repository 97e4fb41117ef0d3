"""The seed's sample with some of its documents loaded as drafts (not approved): tests that
exercise direct entry writes (forms, services, conditional writes, idempotency) write into a
draft DOC001/DOC002 with the seed's values, since an approved document's amounts change only
through approval (`documents.approved_edits`). Each position register holds the draft
documents' entries in its awaiting-approval part, as the entry services would have; the fund
summaries are derived from the registers, so `verify_positions` is clean."""

from __future__ import annotations

from dataclasses import replace

from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import DRAFT
from fundportal.domain.model import Document
from fundportal.domain.position_entries import PositionEntry
from fundportal.ops.sample import sample_entities, sample_registers
from fundportal.store.mapping.companions import FundCatalogEntry, MonthCatalogEntry
from fundportal.store.mapping.entities import search_items_of_item, to_item
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_list import DocumentListRepository
from fundportal.store.repositories.summaries import shard_items

SAMPLE_DOCUMENTS = ("DOC001", "DOC002")


def load_sample_with_drafts(drafts: tuple[str, ...] = SAMPLE_DOCUMENTS) -> None:
    """The sample as `seed_demo --sample` loads it, but `drafts` in Draft (created by seed_demo)."""
    entities = [
        replace(e, approval=DRAFT) if isinstance(e, Document) and e.latest and e.document_id in drafts else e
        for e in sample_entities()
    ]
    entries = [e for e in entities if isinstance(e, PositionEntry)]
    registers = []
    for register in sample_registers():
        counted, apart = FiguresBuilder(flows=True), FiguresBuilder(flows=True)
        held = set()
        for entry in entries:
            if entry.position_id != register.position_id:
                continue
            if entry.document_id in drafts:
                apart.add(entry)
                held.add(entry.document_id)
            else:
                counted.add(entry)
        registers.append(register.with_builder(counted).with_awaiting(apart, tuple(sorted(held))))
    items = [to_item(e) for e in entities]
    months = {e.as_of_date for e in entities if getattr(e, "latest", False) and e.as_of_date}
    catalog = [to_item(MonthCatalogEntry(month)) for month in sorted(months)]
    fund = registers[0].fund_id
    stored = [*(to_item(r) for r in registers), to_item(FundCatalogEntry(fund)), *shard_items(registers)]
    DocumentRepository().bulk_load(items + catalog + stored, workers=1)
    DocumentListRepository().put_search_items(s for item in items for s in search_items_of_item(item))
