"""An import into a document whose approved amounts count (approved, or with a restatement
awaiting approval) is refused in the preview with the reason: its amounts change only through
approval. A draft or submitted document takes the rows."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from fundportal.domain.kinds import APPROVED, DRAFT, SUBMITTED
from fundportal.domain.model import Document
from imports.reader import RawRow
from imports.validation import validate
from imports.validation_values import Known, Registered
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


def test_an_approved_document_is_refused_with_the_reason():
    validation = validate([RawRow(2, row(**ROW))], known(replace(DOC002, approval=APPROVED)), TOKEN)
    assert not validation.ok and validation.plans == []
    (error,) = validation.errors
    assert (error.row, error.column) == (2, "document_id")
    assert error.reason == (
        "DOC002 is approved: its amounts change only through approval. Import the rows into a new document,"
        " or change its entries on its page (each change awaits approval)."
    )


def test_the_same_document_as_a_draft_or_submitted_takes_the_row():
    for approval in (DRAFT, SUBMITTED):
        validation = validate([RawRow(2, row(**ROW))], known(replace(DOC002, approval=approval)), TOKEN)
        assert validation.ok
        assert [(e.document_id, e.position_id) for plan in validation.plans for e in plan.entries] == [
            ("DOC002", "POSITION_1")
        ]
