"""Two versions of a document side by side: the header fields, the capital activity, and every
position's amounts as they stood in each version (every LP amount versioned:
`fundportal.domain.entry_versions`).

A version stood until it was superseded: its entries are those at that moment (the superseded
copy's `superseded_at`; a copy archived before that was kept, such as the seed's, stood until
the next version was written). The current version's entries are today's.

Requests: one Query of the document's partition (the current document, every superseded copy,
the capital activity and the entries) + one Query of its entry history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from documents.selectors import ComparedField, compare, public_version_id
from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.entry_versions import AmountChange, amount_changes, entries_at
from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import parse_version_id
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.money import format_money, money
from fundportal.domain.restatement import shown
from fundportal.store.repositories import DocumentRepository
from fundportal.web.cells import KIND_LABELS

CURRENT = ""  # the version id of the current document in a comparison


@dataclass(frozen=True, slots=True)
class AmountLine:
    """One position's entry that differs between the two versions, as shown."""

    position_id: str
    kind_label: str
    what: str  # "changed", "added" or "removed"
    older: str
    newer: str
    difference: str


@dataclass(frozen=True, slots=True)
class VersionComparison:
    older: Document
    older_id: str
    newer: Document
    newer_id: str  # CURRENT for the current document
    fields: list[ComparedField]  # `current` holds the newer side's value, `historical` the older's
    amounts: list[AmountLine]


def compare_versions(
    *,
    document_id: str,
    older_id: str,
    newer_id: str = CURRENT,
    scope: AccessScope = OPERATOR,
    repository: DocumentRepository | None = None,
) -> VersionComparison:
    """Version `older_id` against `newer_id` (CURRENT: the current document); NotFound for a
    version the document does not have."""
    repository = repository or DocumentRepository()
    overview = repository.overview(document_id)
    scope.require_fund(overview.document.fund_id, "Document", document_id)
    documents = [overview.document, *overview.document_history]
    older, newer = _version(documents, document_id, older_id), _version(documents, document_id, newer_id)
    # As the document states them: a restatement awaiting approval with its restated values.
    entries = [s for row in overview.positions for e in row.entries if (s := shown(e)) is not None]
    kept = repository.entry_versions(document_id)
    before = entries_at(entries, kept, _stood_until(older, documents))
    after = entries_at(entries, kept, _stood_until(newer, documents))
    activities = [overview.capital_activity, *overview.activity_history]
    fields = [
        *compare(newer, older),
        _activity_field(_activity_of(newer, activities), _activity_of(older, activities)),
    ]
    return VersionComparison(
        older, older_id, newer, newer_id, fields, [_line(c) for c in amount_changes(before, after)]
    )


def _version(documents: list[Document], document_id: str, version: str) -> Document:
    if version == CURRENT:
        return documents[0]
    parse_version_id(version)  # InvalidId for a malformed id
    found = next((d for d in documents[1:] if public_version_id(d) == version), None)
    if found is None:
        raise NotFound("Document version", f"{document_id} {version}")
    return found


def _stood_until(version: Document, documents: list[Document]) -> datetime | None:
    """When a version was superseded (None: it is current); a copy archived before that was
    kept stood until the next version was written."""
    if version.latest:
        return None
    if version.superseded_at is not None:
        return version.superseded_at
    newer = sorted((d for d in documents if d.revision > version.revision), key=lambda d: d.revision)
    return next((d.updated_at for d in newer if d.updated_at is not None), None)


def _activity_of(version: Document, activities: list[CapitalActivity | None]) -> CapitalActivity | None:
    """The capital activity that belonged to a version (archived with the document's revision)."""
    if version.latest:
        return activities[0]
    revision = version.version_revision or version.revision
    return next((a for a in activities[1:] if a is not None and (a.version_revision or a.revision) == revision), None)


def _activity_field(newer: CapitalActivity | None, older: CapitalActivity | None) -> ComparedField:
    def shown(activity: CapitalActivity | None) -> str | None:
        return None if activity is None else f"{format_money(activity.money)} {activity.status}"

    return ComparedField("Capital activity", "activity", shown(newer), shown(older))


def _line(change: AmountChange) -> AmountLine:
    difference = change.difference
    side = change.after or change.before
    currency = side.currency if side is not None else ""
    return AmountLine(
        position_id=change.position_id,
        kind_label=KIND_LABELS[change.kind],
        what=change.what,
        older="—" if change.before is None else format_money(change.before.money),
        newer="—" if change.after is None else format_money(change.after.money),
        difference="—" if difference is None else _signed(difference, currency),
    )


def _signed(amount: Decimal, currency: str) -> str:
    text = format_money(money(abs(amount), currency))
    return f"+{text}" if amount > 0 else f"\N{MINUS SIGN}{text}" if amount < 0 else text
