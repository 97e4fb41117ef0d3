"""The seed article's sample: exactly the 14 items of its table (seeds/000_*.txt, "The Single
Table Structure"), with their index keys and the attributes the pages need."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from fundportal.domain.kinds import HISTORICAL
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import CapitalCall, Distribution, UnfundedCommitment, of_document
from fundportal.store.mapping.entities import to_item

FUND = "FUND_A"
POSITIONS = {"POSITION_1": "INVESTOR_1", "POSITION_2": "INVESTOR_2"}
DOC001_AS_OF = date(2025, 9, 30)
DOC002_AS_OF = date(2025, 12, 31)
LOADED_AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
BY = "seed_demo"


def _entry(cls: type, document: Document, position_id: str, amount: int, status: str) -> Any:
    entry = cls(
        document_id=document.document_id,
        position_id=position_id,
        fund_id=FUND,
        investor_id=POSITIONS[position_id],
        amount=Decimal(amount),
        status=status,
        updated_at=LOADED_AT,
        updated_by=BY,
    )
    return of_document(entry, document)


def sample_entities() -> list[Any]:
    # Beyond the seed's table: DocumentType on DOC001's copies and DOC002, and each entry's copies
    # of its document's title and type (DocumentTitle, DocumentType) for the position page.
    doc1 = dict(
        document_id="DOC001",
        fund_id=FUND,
        as_of_date=DOC001_AS_OF,
        updated_at=LOADED_AT,
        updated_by=BY,
        document_type="capital_account_statement",
    )
    doc001 = Document(**doc1, title="Q3 2025 capital account statement", status="Active", revision=2)
    doc002 = Document(
        document_id="DOC002",
        title="Q4 2025 capital call notice",
        document_type="capital_call_notice",
        fund_id=FUND,
        as_of_date=DOC002_AS_OF,
        status="Active",
        updated_at=LOADED_AT,
        updated_by=BY,
    )
    return [
        doc001,
        Document(
            **doc1,
            title="Q3 2025 capital account statement (preliminary)",
            status=HISTORICAL,  # the seed's superseded copy: no status of its own kept
            revision=1,
            latest=False,
            version_date=date(2025, 9, 1),
        ),
        CapitalActivity(
            document_id="DOC001",
            amount=Decimal(500000),
            status="Pending",
            revision=2,
            as_of_date=DOC001_AS_OF,
            updated_at=LOADED_AT,
            updated_by=BY,
        ),
        CapitalActivity(
            document_id="DOC001",
            amount=Decimal(450000),
            status="Completed",
            revision=1,
            latest=False,
            version_date=date(2025, 8, 15),
            as_of_date=DOC001_AS_OF,
            updated_at=LOADED_AT,
            updated_by=BY,
        ),
        _entry(CapitalCall, doc001, "POSITION_1", 500000, "Pending"),
        _entry(Distribution, doc001, "POSITION_1", 75000, "Completed"),
        _entry(UnfundedCommitment, doc001, "POSITION_1", 1500000, "Active"),
        _entry(CapitalCall, doc001, "POSITION_2", 300000, "Pending"),
        _entry(Distribution, doc001, "POSITION_2", 45000, "Completed"),
        _entry(UnfundedCommitment, doc001, "POSITION_2", 850000, "Active"),
        doc002,
        _entry(CapitalCall, doc002, "POSITION_1", 750000, "Completed"),
        _entry(Distribution, doc002, "POSITION_1", 120000, "Pending"),
        _entry(CapitalCall, doc002, "POSITION_2", 400000, "Pending"),
    ]


def sample_items() -> list[dict[str, Any]]:
    """The 14 fund items (plus nothing else: the month catalog is written by seed_demo)."""
    return [to_item(entity) for entity in sample_entities()]


# The position register of the sample: not among the seed's 14 items, written beside
# them. Commitments are consistent with the seed: DOC001 (2025-09-30) reports each position's
# unfunded commitment after that document's call, so commitment = called through 2025-09-30 +
# unfunded then: POSITION_1 500,000 + 1,500,000 = 2,000,000; POSITION_2 300,000 + 850,000 =
# 1,150,000. Called to date (1,250,000 and 700,000) stays within both.
SAMPLE_COMMITMENTS = {"POSITION_1": Decimal(2_000_000), "POSITION_2": Decimal(1_150_000)}


def sample_registers() -> list[Any]:
    from fundportal.domain.figures_builder import FiguresBuilder
    from fundportal.domain.position_entries import PositionEntry
    from fundportal.domain.position_register import PositionRegister

    registers = []
    for position_id, investor_id in POSITIONS.items():
        builder = FiguresBuilder(flows=True)
        for entity in sample_entities():
            if isinstance(entity, PositionEntry) and entity.position_id == position_id:
                builder.add(entity)
        register = PositionRegister(
            position_id,
            FUND,
            investor_id,
            currency="USD",
            commitment=SAMPLE_COMMITMENTS[position_id],
            revision=1,
            updated_at=LOADED_AT,
            updated_by=BY,
        )
        registers.append(register.with_builder(builder))
    return registers


def sample_register_items() -> list[dict[str, Any]]:
    """The registers, FUND_A's catalog entry and its summary shards (one per shard its two
    positions fall in)."""
    from fundportal.store.mapping.companions import FundCatalogEntry
    from fundportal.store.repositories.summaries import shard_items

    registers = sample_registers()
    return [*(to_item(r) for r in registers), to_item(FundCatalogEntry(FUND)), *shard_items(registers)]
