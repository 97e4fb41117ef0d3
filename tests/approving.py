"""Approving a document in a test as the four-eyes rule asks: submitted by its editor, approved
by another user (an approved document's changes count only then: `documents.approved_edits`)."""

from __future__ import annotations

from documents import approval


def approve_by_another(document_id: str, submitter: str = "editor", approver: str = "checker") -> None:
    approval.document_submit(document_id=document_id, user=submitter)
    approval.document_approve(document_id=document_id, user=approver)
