"""A document's reconciliation on its page, from the one Query the page already made: its
capital activity against the sum of its positions' calls, and each position's entries against
the document's fund and currency. The rules are `fundportal.domain.reconciliation`'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from moneyed import Money

from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.reconciliation import activity_flags, document_calls, entry_flags
from fundportal.web.flags import FlagList, flag_lines


@dataclass(frozen=True, slots=True)
class DocumentReconciliation:
    activity: Money | None
    calls: Money | None  # the positions' counted calls in the activity's currency
    flags: FlagList

    @property
    def findings(self) -> int:
        return self.flags.findings


def document_reconciliation(
    document: Document, activity: CapitalActivity | None, entries: Sequence[PositionEntry]
) -> DocumentReconciliation:
    amount = activity.money if activity is not None else None
    calls = document_calls(entries, amount.currency.code) if amount is not None else None  # once, for both
    flags = activity_flags(document.document_id, amount, entries, calls=calls)
    flags += entry_flags(entries, document.fund_id, document.currency, holder="document")
    return DocumentReconciliation(activity=amount, calls=calls, flags=flag_lines(flags))
