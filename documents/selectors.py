"""Reads about documents, returned as view models that pages, exports, commands and the admin
share. Figures come from `fundportal.domain.figures` only. A view model carries ids; its URL
properties are Django's `reverse()`, and long tables' templates call `url()` on the ids instead."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NamedTuple

from django.conf import settings
from django.urls import reverse

from documents.reconciliation import DocumentReconciliation, document_reconciliation
from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import NotFound
from fundportal.domain.figures import Figures, sum_figures
from fundportal.domain.figures_builder import figures_by_currency
from fundportal.domain.kinds import POSITION_KINDS, Kind, version_id
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.money import format_money, format_ratio
from fundportal.domain.position_entries import PositionEntry
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_models import DocumentOverview, PositionInDocument
from fundportal.web.cells import KIND_LABELS, EntryCell, cells
from fundportal.web.links import PositionLinks

# The per-row view models below are slotted but not frozen: a frozen dataclass sets each field
# through object.__setattr__ (several times slower to build), and a document page builds
# hundreds of them. Nothing mutates them after the selector returns.


class FiguresText(NamedTuple):
    """A row's figures of one currency as shown (formatted once, in the selector); a tuple, so
    the row macro unpacks it in its loop instead of looking each field up."""

    currency: str
    called: str
    distributed: str
    dpi: str


def figures_text(figures: list[Figures]) -> list[FiguresText]:
    return [
        FiguresText(f.currency, format_money(f.called), format_money(f.distributed), format_ratio(f.dpi))
        for f in figures
    ]


@dataclass(slots=True)
class PositionRow(PositionLinks):
    """A position in a document: its entries and figures, and where to go from here."""

    document_id: str
    position_id: str
    fund_id: str
    investor_id: str
    cells: list[EntryCell | None]
    figures: list[Figures]
    shown: list[FiguresText]  # `figures` as shown

    @property
    def url(self) -> str:
        """The position in this document (where its entries are changed)."""
        return reverse("documents:position", args=(self.document_id, self.position_id))

    @property
    def history_url(self) -> str:
        """The position across documents."""
        return self.position_url


@dataclass(frozen=True, slots=True)
class DocumentPage:
    document: Document
    activity: CapitalActivity | None
    history_count: int | None  # None on a long document's page (its superseded copies are not read)
    rows: list[PositionRow]
    totals: list[Figures]  # per currency; empty for an LP (a fund's totals reveal the other LPs)
    own_rows_only: bool = False  # an LP's view: only their own positions' rows
    # False on a page of a long document: `rows` are one page of it, so no total or reconciliation
    # is computed from them (the capital activity is the document's own figure).
    whole: bool = True

    @property
    def currency(self) -> str:
        return self.document.currency

    @property
    def reconciliation(self) -> DocumentReconciliation:
        """Capital activity vs the sum of calls and per-position flags, from the rows (no request)."""
        entries = [cell.entry for row in self.rows for cell in row.cells if cell is not None]
        return document_reconciliation(self.document, self.activity, entries)


def document_overview(
    *,
    document_id: str,
    with_edit_urls: bool = False,
    scope: AccessScope = OPERATOR,
    repository: DocumentRepository | None = None,
) -> DocumentPage:
    """Everything a document contains, grouped by position, from one Query (pattern 1).
    `with_edit_urls`: each cell is editable (shows its Change/Remove links). Within `scope`: a
    document of an uncovered fund is NotFound; an LP sees only their own positions' rows (NotFound
    if the document holds none of them), no capital activity and no totals."""
    overview = (repository or DocumentRepository()).overview(document_id)
    return overview_page(overview, with_edit_urls=with_edit_urls, scope=scope)


def overview_page(
    overview: DocumentOverview, *, with_edit_urls: bool = False, scope: AccessScope = OPERATOR
) -> DocumentPage:
    """`document_overview` of a document already read whole."""
    document_id = overview.document.document_id
    own_only = scope.is_investor
    if not own_only:
        scope.require_fund(overview.document.fund_id, "Document", document_id)
    rows = position_rows(overview.positions, with_edit_urls=with_edit_urls, scope=scope)
    if own_only:
        if not rows:
            raise NotFound("Document", document_id)
        return DocumentPage(
            document=overview.document, activity=None, history_count=0, rows=rows, totals=[], own_rows_only=True
        )
    return DocumentPage(
        document=overview.document,
        activity=overview.capital_activity,
        history_count=len(overview.activity_history),  # the capital activity's own superseded copies
        rows=rows,
        totals=sum_figures([row.figures for row in rows]),
    )


def position_rows(
    positions: Iterable[PositionInDocument], *, with_edit_urls: bool = False, scope: AccessScope = OPERATOR
) -> list[PositionRow]:
    """The rows of a document's positions, each with its figures; an LP's scope keeps only the
    rows of their own positions."""
    own_only = scope.is_investor
    rows = []
    for row in positions:
        entries = row.entries  # built from the row's kinds on each access: once a row here
        first = entries[0]
        if own_only and not scope.covers_position(first.fund_id, first.investor_id):
            continue
        figures = figures_by_currency(entries)
        # Built positionally (a page builds a hundred): the fields' order is PositionRow's.
        rows.append(
            PositionRow(
                row.document_id,
                row.position_id,
                first.fund_id,
                first.investor_id,
                cells(row, editable=with_edit_urls),
                figures,
                figures_text(figures),
            )
        )
    return rows


@dataclass(frozen=True, slots=True)
class PositionInDocumentPage:
    document_id: str
    position_id: str
    fund_id: str
    investor_id: str
    as_of_date: date | None
    items: list[tuple[Kind, str, EntryCell | None]]  # (kind, label, cell)
    figures: list[Figures]


def position_in_document(
    *,
    document_id: str,
    position_id: str,
    with_edit_urls: bool = False,
    scope: AccessScope = OPERATOR,
    repository: DocumentRepository | None = None,
) -> PositionInDocumentPage:
    """One position's entries in one document: one BatchGetItem (pattern 2). `with_edit_urls`
    asks for edit links; they are shown only where `scope` may edit the position's fund."""
    row = (repository or DocumentRepository()).position_in_document(document_id, position_id)
    first = row.entries[0]
    scope.require_position(first.fund_id, first.investor_id, "Position", f"{position_id} in {document_id}")
    with_edit_urls = with_edit_urls and scope.can_edit(first.fund_id)
    return PositionInDocumentPage(
        document_id=document_id,
        position_id=position_id,
        fund_id=first.fund_id,
        investor_id=first.investor_id,
        as_of_date=first.as_of_date,
        items=[
            (kind, KIND_LABELS[kind], cell)
            for kind, cell in zip(POSITION_KINDS, cells(row, editable=with_edit_urls), strict=True)
        ],
        figures=figures_by_currency(row.entries),
    )


@dataclass(frozen=True, slots=True)
class ComparedField:
    label: str
    name: str
    current: Any
    historical: Any

    @property
    def changed(self) -> bool:
        return self.current != self.historical

    @property
    def shown(self) -> tuple[str, str]:
        return _shown(self.current), _shown(self.historical)


def _shown(value: Any) -> str:
    if isinstance(value, datetime):
        return f"{value:%Y-%m-%d %H:%M} UTC"
    if isinstance(value, date):
        return value.isoformat()
    return "—" if value in (None, "") else str(value)


# The document fields compared between versions (page and `document_history --compare`).
COMPARED_FIELDS = (
    ("Title", "title"),
    ("Fund", "fund_id"),
    ("As of", "as_of_date"),
    ("Status", "status"),
    ("Currency", "currency"),
    ("Revision", "revision"),
    ("Updated at", "updated_at"),
    ("Updated by", "updated_by"),
)


def compare(current: Document, historical: Document) -> list[ComparedField]:
    return [
        ComparedField(label, name, getattr(current, name), getattr(historical, name)) for label, name in COMPARED_FIELDS
    ]


def public_version_id(document: Any) -> str:
    """The URL id of a superseded copy (document or capital activity)."""
    return version_id(document.version_date, document.version_revision)


@dataclass(frozen=True, slots=True)
class DocumentHistory:
    document: Document
    versions: list[tuple[str, Document]]
    activities: list[CapitalActivity]


def document_history(
    *,
    document_id: str,
    start: date | None = None,
    end: date | None = None,
    scope: AccessScope = OPERATOR,
    repository: DocumentRepository | None = None,
) -> DocumentHistory:
    """Superseded versions in a date range (SK BETWEEN, pattern 8); two of them compared:
    `documents.version_compare`. Requests: GetItem (current) + one Query per versioned kind."""
    repository = repository or DocumentRepository()
    current = repository.get(document_id)
    scope.require_fund(current.fund_id, "Document", document_id)
    versions = repository.versions(document_id, start, end)
    activities = repository.versions(document_id, start, end, kind=Kind.CAPITAL_ACTIVITY)
    return DocumentHistory(
        document=current, versions=[(public_version_id(v), v) for v in versions], activities=activities
    )


def entry(
    *,
    document_id: str,
    kind: Kind,
    position_id: str,
    scope: AccessScope = OPERATOR,
    repository: DocumentRepository | None = None,
) -> PositionEntry:
    """One entry of a position in a document (pattern 3: GetItem)."""
    found = (repository or DocumentRepository()).entry(document_id, kind, position_id)
    scope.require_fund(found.fund_id, kind.entity_type, f"{position_id} in {document_id}")
    return found


def document_versions(
    *,
    document_id: str,
    start: date | None = None,
    end: date | None = None,
    scope: AccessScope = OPERATOR,
    repository: DocumentRepository | None = None,
) -> tuple[Document, list[Document]]:
    """The current document and its superseded copies: one Query (begins_with) for all of them,
    or GetItem + one SK BETWEEN Query for a date range."""
    repository = repository or DocumentRepository()
    if start is None and end is None:
        current, versions = repository.all_versions(document_id)
    else:
        current, versions = repository.get(document_id), repository.versions(document_id, start, end)
    scope.require_fund(current.fund_id, "Document", document_id)
    return current, versions


def document_header(
    *, document_id: str, scope: AccessScope = OPERATOR, repository: DocumentRepository | None = None
) -> Document:
    """The current document (pattern 5: GetItem), NotFound outside the covered funds."""
    document = (repository or DocumentRepository()).get(document_id)
    scope.require_fund(document.fund_id, "Document", document_id)
    return document


AUDIT_PAGE_SIZE = 50


@dataclass(frozen=True, slots=True)
class AuditPage:
    document: Document
    entries: list[Any]  # AuditEntry, newest first
    next_cursor: str | None  # the older changes' page (None: no older change)


def audit_trail(
    *,
    document_id: str,
    cursor: str | None = None,
    limit: int | None = None,
    scope: AccessScope = OPERATOR,
    repository: DocumentRepository | None = None,
) -> AuditPage:
    """A page of the document's changes, newest first (`AUDIT_PAGE_SIZE`, default 50): the
    document (GetItem) and one Query."""
    size = limit or int(getattr(settings, "AUDIT_PAGE_SIZE", AUDIT_PAGE_SIZE))
    repository = repository or DocumentRepository()
    document = repository.get(document_id)
    scope.require_fund(document.fund_id, "Document", document_id)
    entries, next_cursor = repository.audit_page(document.document_id, cursor, size)
    return AuditPage(document, entries, next_cursor)


def document_for_restatement(
    *, document_id: str, scope: AccessScope = OPERATOR, repository: DocumentRepository | None = None
) -> tuple[Document, CapitalActivity | None]:
    overview = (repository or DocumentRepository()).overview(document_id)
    scope.require_edit(overview.document.fund_id, "Document", document_id)
    return overview.document, overview.capital_activity
