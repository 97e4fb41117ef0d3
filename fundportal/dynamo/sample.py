"""The seed article's sample: exactly the 14 items of its table (seeds/000_*.txt, "The Single
Table Structure"), with their index keys and the attributes the pages need."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from .entities import CapitalActivity, CapitalCall, Distribution, Document, UnfundedCommitment

FUND = "FUND_A"
POSITIONS = {"POSITION_1": "INVESTOR_1", "POSITION_2": "INVESTOR_2"}
DOC001_AS_OF = date(2025, 9, 30)
DOC002_AS_OF = date(2025, 12, 31)
LOADED_AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
BY = "seed_demo"


def _entry(cls: type, document_id: str, as_of: date, position_id: str, amount: int, status: str) -> Any:
    return cls(
        document_id=document_id,
        position_id=position_id,
        fund_id=FUND,
        investor_id=POSITIONS[position_id],
        amount=Decimal(amount),
        status=status,
        as_of_date=as_of,
        updated_at=LOADED_AT,
        updated_by=BY,
    )


def sample_entities() -> list[Any]:
    doc1 = dict(document_id="DOC001", fund_id=FUND, as_of_date=DOC001_AS_OF, updated_at=LOADED_AT, updated_by=BY)
    return [
        Document(**doc1, title="Q3 2025 capital account statement", status="Active", revision=2),
        Document(
            **doc1,
            title="Q3 2025 capital account statement (preliminary)",
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
        _entry(CapitalCall, "DOC001", DOC001_AS_OF, "POSITION_1", 500000, "Pending"),
        _entry(Distribution, "DOC001", DOC001_AS_OF, "POSITION_1", 75000, "Completed"),
        _entry(UnfundedCommitment, "DOC001", DOC001_AS_OF, "POSITION_1", 1500000, "Active"),
        _entry(CapitalCall, "DOC001", DOC001_AS_OF, "POSITION_2", 300000, "Pending"),
        _entry(Distribution, "DOC001", DOC001_AS_OF, "POSITION_2", 45000, "Completed"),
        _entry(UnfundedCommitment, "DOC001", DOC001_AS_OF, "POSITION_2", 850000, "Active"),
        Document(
            document_id="DOC002",
            title="Q4 2025 capital call notice",
            fund_id=FUND,
            as_of_date=DOC002_AS_OF,
            status="Active",
            updated_at=LOADED_AT,
            updated_by=BY,
        ),
        _entry(CapitalCall, "DOC002", DOC002_AS_OF, "POSITION_1", 750000, "Completed"),
        _entry(Distribution, "DOC002", DOC002_AS_OF, "POSITION_1", 120000, "Pending"),
        _entry(CapitalCall, "DOC002", DOC002_AS_OF, "POSITION_2", 400000, "Pending"),
    ]


def sample_items() -> list[dict[str, Any]]:
    """The 14 fund items (plus nothing else: the month catalog is written by seed_demo)."""
    return [entity.to_item() for entity in sample_entities()]
