"""An import into a document whose restatement awaits approval is refused in the preview with
the reason; the same document once approved takes the rows."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from fundportal.domain.kinds import APPROVED, DRAFT
from fundportal.domain.model import Document
from imports.reader import RawRow
from imports.validation import Known, Registered, validate
from tests.notices import row

TOKEN = "import-test"
DOC002 = Document(
    document_id="DOC002", title="Q4 2025 capital call notice", fund_id="FUND_A", as_of_date=date(2025, 12, 31)
)
ROW = {
    "document_id": "DOC002",
    "title": "Q4 2025 capital call notice",
    "fund_id": "FUND_A",
    "as_of_date": "2025-12-31",
    "position_id": "POSITION_1",
    "investor_id": "INVESTOR_1",
    "kind": "nav",
    "new_position": "",
}


def known(document: Document) -> Known:
    return Known(
        documents={"DOC002": document},
        registers={"POSITION_1": Registered("FUND_A", "INVESTOR_1")},
        fund_positions={"FUND_A": {"POSITION_1"}},
    )


def test_a_document_with_a_restatement_awaiting_approval_is_refused_with_the_reason():
    restating = replace(DOC002, approval=DRAFT, counted_revision=1)
    validation = validate([RawRow(2, row(**ROW))], known(restating), TOKEN)
    assert not validation.ok and validation.plans == []
    (error,) = validation.errors
    assert (error.row, error.column) == (2, "document_id")
    assert error.reason == (
        "DOC002 has a restatement awaiting approval: import into it once the restatement is approved."
    )


def test_the_same_document_approved_takes_the_row():
    validation = validate([RawRow(2, row(**ROW))], known(replace(DOC002, approval=APPROVED)), TOKEN)
    assert validation.ok
    assert [(e.document_id, e.position_id) for plan in validation.plans for e in plan.entries] == [
        ("DOC002", "POSITION_1")
    ]
