"""A position's entries as table cells: the view model the document, position and export tables
share, with the entry kinds' labels. Amounts are formatted once here, not per render."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from moneyed import Money

from fundportal.domain.entries import counts, is_pending
from fundportal.domain.kinds import POSITION_KINDS, Kind
from fundportal.domain.money import format_amount
from fundportal.domain.position_entries import PositionEntry
from fundportal.store.repositories.documents import PositionInDocument

from .entry_words import parts_text

KIND_LABELS = {
    Kind.CAPITAL_CALL: "Capital call",
    Kind.DISTRIBUTION: "Distribution",
    Kind.UNFUNDED_COMMITMENT: "Unfunded commitment",
    Kind.NAV: "NAV",
    Kind.MANAGEMENT_FEE: "Management fee",
    Kind.PARTNERSHIP_EXPENSE: "Partnership expense",
    Kind.REALIZED_GAIN: "Realized gain/loss",
    Kind.UNREALIZED_GAIN: "Unrealized gain/loss",
    Kind.CARRIED_INTEREST: "Carried interest",
}


# Slotted but not frozen: a frozen dataclass sets each field through object.__setattr__ (several
# times slower to build), and a document page builds ~500 cells. Nothing mutates them after the
# selector returns.


@dataclass(slots=True)
class EntryCell:
    """One entry as a table cell: amount with its currency (and as shown), status, how it counts."""

    entry: PositionEntry
    amount_text: str  # the amount as shown: formatted once here, not per render
    status: str
    counts: bool  # False for Cancelled: shown, never totalled
    pending: bool
    editable: bool  # the page shows its Change/Remove links
    restated_text: str = ""  # its restated value awaiting approval (the amount shown still counts)
    parts_text: str = ""  # its kind's own fields in words (`entry_words.parts_text`): a split, a fee line

    @property
    def shown(self) -> tuple[bool, str, str, str, str]:
        """(counts, amount_text, status, restated_text, parts_text): what a table row shows of the
        cell, unpacked in one statement by the row macro instead of five attribute look-ups."""
        return self.counts, self.amount_text, self.status, self.restated_text, self.parts_text

    @property
    def amount(self) -> Money:
        """The amount with its currency (exports and sorting; the page shows `amount_text`)."""
        return self.entry.money

    @property
    def kind_label(self) -> str:
        """The entry's kind in words: "Management fee"."""
        return KIND_LABELS[self.entry.kind]

    @property
    def label(self) -> str:
        """The Change/Remove links' accessible name, e.g. "Capital call of POSITION_1"."""
        return f"{KIND_LABELS[self.entry.kind]} of {self.entry.position_id}"

    @property
    def url_args(self) -> tuple[str, str, str]:
        """The entry's id in its URLs: `url("documents:entry_edit", *cell.url_args)`."""
        return self.entry.document_id, self.entry.kind.slug, self.entry.position_id

    @property
    def edit_url(self) -> str:
        return reverse("documents:entry_edit", args=self.url_args) if self.editable else ""

    @property
    def remove_url(self) -> str:
        return reverse("documents:entry_delete", args=self.url_args) if self.editable else ""


def entry_cell(entry: PositionEntry, *, editable: bool = False, text: bool = True) -> EntryCell:
    """The cell of `entry`; `editable`: the page shows its Change/Remove links; `text` False: its
    texts (amount, restatement, parts) left empty, for a reader that never shows them (the API)."""
    status = entry.status
    restated = entry.restated
    # Built positionally (a page builds hundreds): the fields' order is EntryCell's.
    return EntryCell(
        entry,
        format_amount(entry.amount, entry.currency) if text else "",
        "Awaiting approval" if restated is not None and restated.added else status,  # nothing of it counts yet
        counts(status),
        is_pending(status),
        editable,
        restated_text(entry) if text and restated is not None else "",
        parts_text(entry) if text else "",
    )


def restated_text(entry: PositionEntry) -> str:
    """'restated USD 410,000.00 Pending, awaiting approval' ('' when not restated)."""
    restated = entry.restated
    if restated is None:
        return ""
    if restated.removed:
        return "removed in a restatement awaiting approval"
    if restated.added:
        return f"added {format_amount(restated.amount, entry.currency)} {restated.status}, awaiting approval"
    return f"restated {format_amount(restated.amount, entry.currency)} {restated.status}, awaiting approval"


def cells(row: PositionInDocument, *, editable: bool = False, text: bool = True) -> list[EntryCell | None]:
    """The kinds in column order; None where the position has no entry of that kind (`text`: as
    `entry_cell`'s)."""
    held = row.by_kind
    return [
        entry_cell(entry, editable=editable, text=text) if (entry := held.get(kind)) is not None else None
        for kind in POSITION_KINDS
    ]
