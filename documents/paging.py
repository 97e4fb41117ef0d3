"""The document page, 100 positions a page with Next/Previous (signed cursors).

A short document (its partition fits one bounded Query, `PROBE_ITEMS`) is read whole, as it
always was: sorting by any amount column and filtering work on all its positions, its totals
are summed over all of them, and a page is a slice of the arranged rows (the cursor holds the
offset). A long document is read 100 positions at a time from the page index, in position-id
order (the cursor holds the id the page ends or starts at): sorting by a figure and filtering
are not offered (they would read the whole document; the export has every row), and the
headline is the document's own capital activity, never a sum of one page.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from documents import position_table
from documents.selectors import DocumentPage, PositionRow, overview_page, position_rows
from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import BadCursor, NotFound
from fundportal.domain.figures import Figures, sum_figures
from fundportal.store.list_cursor import encode_place, offset_of, text_of
from fundportal.store.repositories.document_pages import PAGE_POSITIONS, DocumentPageRepository
from fundportal.web.paging import Pager, place_of, slice_page

__all__ = ["PAGE_POSITIONS", "DocumentExport", "DocumentView", "Pager", "document_export", "document_view"]


@dataclass(frozen=True, slots=True)
class DocumentView:
    page: DocumentPage  # `whole` False on a long document (`page.rows` are this page's)
    table: position_table.PositionTable  # every matching row of a short document; this page's of a long one
    rows: list[Any]  # the rows shown on this page
    pager: Pager

    @property
    def long(self) -> bool:
        return not self.page.whole


def _binding(document_id: str, query: position_table.TableQuery) -> tuple[Any, ...]:
    """What a document-page cursor is bound to: the document and the table's sort and filters."""
    return ("document-page", document_id, query.sort, query.descending, query.position, query.investor, query.status)


def document_view(
    *,
    document_id: str,
    query: position_table.TableQuery | None = None,
    cursor: str | None = None,
    scope: AccessScope = OPERATOR,
    repository: DocumentPageRepository | None = None,
    page_size: int = PAGE_POSITIONS,
) -> DocumentView:
    """One page of the document page. Requests: one Query for a short document; two for a page
    of a long one (`DocumentPageRepository`). BadCursor/CursorExpired for a bad or old cursor."""
    query = query or position_table.TableQuery()
    binding = _binding(document_id, query)
    place = place_of(cursor, binding)
    repository = repository or DocumentPageRepository()
    if "a" in place or "b" in place:  # a page of a long document: no whole read first
        return _long_page(document_id, place, binding, scope, repository, page_size)
    overview = repository.short_overview(document_id)
    if overview is not None:
        page = overview_page(overview, scope=scope)
        table = position_table.arrange(page.rows, query)
        shown, pager = slice_page(table.rows, place, binding, page_size)
        return DocumentView(page=page, table=table, rows=list(shown), pager=pager)
    return _long_page(document_id, place, binding, scope, repository, page_size)


def _long_page(
    document_id: str,
    place: dict[str, Any],
    binding: tuple[Any, ...],
    scope: AccessScope,
    repository: DocumentPageRepository,
    page_size: int,
) -> DocumentView:
    after, before = text_of(place, "a"), text_of(place, "b")
    number = offset_of(place, "n") if (after or before) else 1
    if (after or before) and number < 1:
        raise BadCursor()
    read = repository.positions_page(document_id, after=after, before=before, positions=page_size)
    document = read.document
    if not scope.is_investor:
        scope.require_fund(document.fund_id, "Document", document_id)
    rows = position_rows(read.positions, scope=scope)
    own_only = scope.is_investor
    page = DocumentPage(
        document=document,
        activity=None if own_only else read.capital_activity,
        history_count=None,
        rows=rows,
        totals=[],
        own_rows_only=own_only,
        whole=False,
    )
    first_id = read.positions[0].position_id if read.positions else None
    last_id = read.positions[-1].position_id if read.positions else None
    pager = Pager(
        next_cursor=encode_place({"a": last_id, "n": number + 1}, binding) if read.more_after and last_id else None,
        previous_cursor=encode_place({"b": first_id, "n": number - 1}, binding)
        if read.more_before and first_id and number > 1
        else None,
        number=number,
        first_row=(number - 1) * page_size + 1 if read.positions else 0,
        last_row=(number - 1) * page_size + len(read.positions),
    )
    table = position_table.PositionTable(rows=rows, total_count=len(rows), subtotal=None)
    return DocumentView(page=page, table=table, rows=rows, pager=pager)


@dataclass(frozen=True, slots=True)
class DocumentExport:
    """Every row of a document for a download: `rows` streams them (a long document page by
    page of the page index, never held whole); `totals()` is the sum of every row streamed so
    far, per currency (empty for an LP: a fund's totals reveal the other LPs)."""

    document: DocumentPage  # the header; its `rows` are not used
    rows: Iterator[PositionRow]
    _seen: list[list[Figures]]

    def totals(self) -> list[Figures]:
        if self.document.own_rows_only:
            return []
        return sum_figures(self._seen)


def document_export(
    *, document_id: str, scope: AccessScope = OPERATOR, repository: DocumentPageRepository | None = None
) -> DocumentExport:
    """The rows of a document's export in position order: a short document from its one Query,
    a long one streamed from the page index (1 MB Query pages)."""
    repository = repository or DocumentPageRepository()
    overview = repository.short_overview(document_id)
    seen: list[list[Figures]] = []
    if overview is not None:
        page = overview_page(overview, scope=scope)
        return DocumentExport(page, _counted(iter(page.rows), seen), seen)
    document, activity = repository.header(document_id)
    if document is None:
        raise NotFound("Document", document_id)
    if not scope.is_investor:
        scope.require_fund(document.fund_id, "Document", document_id)
    header = DocumentPage(
        document=document,
        activity=None if scope.is_investor else activity,
        history_count=None,
        rows=[],
        totals=[],
        own_rows_only=scope.is_investor,
        whole=False,
    )
    rows = (row for position in repository.all_positions(document_id) for row in position_rows([position], scope=scope))
    return DocumentExport(header, _counted(rows, seen), seen)


def _counted(rows: Iterator[PositionRow], seen: list[list[Figures]]) -> Iterator[PositionRow]:
    for row in rows:
        seen.append(row.figures)
        yield row
