"""A document's type in words, as every page shows it (the document list, a document's page, the
position page's type column and filter)."""

from __future__ import annotations

from fundportal.domain.kinds import DOCUMENT_TYPES

TYPE_LABELS = {
    "capital_call_notice": "Capital call notice",
    "distribution_notice": "Distribution notice",
    "capital_account_statement": "Capital account statement",
    "quarterly_report": "Quarterly report",
    "other": "Other",
}
assert set(TYPE_LABELS) == set(DOCUMENT_TYPES)


def type_label(document_type: str) -> str:
    return TYPE_LABELS.get(document_type, document_type)
