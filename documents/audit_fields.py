"""The fields a document write audits with their exact before/after values (a document's, its
capital activity's, an entry's with its kind's own parts) and how an entry is named as the
audit's target."""

from __future__ import annotations

from fundportal.domain.position_entries import PositionEntry

DOCUMENT_FIELDS = ("title", "fund_id", "as_of_date", "status", "currency", "document_type")
ACTIVITY_FIELDS = ("amount", "status", "currency")
# A kind's own fields (a call's parts, a distribution's split, a fee line, a carry stage) are
# audited with the common ones; a kind without one shows no change in it.
ENTRY_PART_FIELDS = (
    "management_fee",
    "partnership_expense",
    "outside_commitment",
    "return_of_capital",
    "gain",
    "income",
    "recallable",
    "fee_line",
    "carry_stage",
)
ENTRY_FIELDS = ("amount", "status", "currency", "due_date", "fund_id", "investor_id", *ENTRY_PART_FIELDS)


def entry_target(entry: PositionEntry) -> str:
    """An entry as an audit's target: its kind's entity type and its position."""
    return f"{entry.kind.entity_type} {entry.position_id}"
