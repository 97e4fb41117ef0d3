"""A position's entries as table cells: the view model the document, position and export tables
share, with the entry kinds' labels. Amounts are formatted once here, not per render."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from moneyed import Money

from fundportal.domain.entries import counts, is_pending
from fundportal.domain.kinds import POSITION_KINDS, Kind
from fundportal.domain.model import PositionEntry
from fundportal.domain.money import format_amount
from fundportal.dynamo.repositories.documents import PositionInDocument

KIND_LABELS = {
    Kind.CAPITAL_CALL: "Capital call",
    Kind.DISTRIBUTION: "Distribution",
    Kind.UNFUNDED_COMMITMENT: "Unfunded commitment",
    Kind.NAV: "NAV",
}


# Slotted but not frozen: a frozen dataclass sets each field through object.__setattr__ (~2.5x
# the construction time), and a document page builds ~500 cells. Nothing mutates them after the
# selector returns.


@dataclass(slots=True)
class EntryCell:
    """One entry as a table cell: amount with its currency (and as shown), status, how it counts."""

    entry: PositionEntry
    amount_text: str  # the amount as shown: formatted once here, not per render
    status: str
    counts: bool  # False for Cancelled: shown, never totalled
    pending: bool
    edit_url: str
    remove_url: str

    @property
    def amount(self) -> Money:
        """The amount with its currency (exports and sorting; the page shows `amount_text`)."""
        return self.entry.money

    @property
    def label(self) -> str:
        """The Change/Remove links' accessible name, e.g. "Capital call of POSITION_1"."""
        return f"{KIND_LABELS[self.entry.kind]} of {self.entry.position_id}"


def entry_cell(entry: PositionEntry, url: Callable[..., str] | None = None) -> EntryCell:
    """The cell of `entry`; with `url` (a `memo_reverse()`), its Change/Remove URLs too."""
    edit_url = remove_url = ""
    if url is not None:
        args = (entry.document_id, entry.kind.slug, entry.position_id)
        edit_url, remove_url = url("documents:entry_edit", *args), url("documents:entry_delete", *args)
    status = entry.status
    return EntryCell(
        entry,
        format_amount(entry.amount, entry.currency),
        status,
        counts(status),
        is_pending(status),
        edit_url,
        remove_url,
    )


def cells(row: PositionInDocument, url: Callable[..., str] | None = None) -> list[EntryCell | None]:
    """The kinds in column order; None where the position has no entry of that kind. With `url`
    (a `memo_reverse()`, one per page), each cell carries its Change/Remove URLs."""
    return [entry_cell(entry, url) if (entry := row.get(kind)) is not None else None for kind in POSITION_KINDS]
