"""Finding documents: the documents list across months and the id search. Reads
only; view models with URLs computed here.

The list walks the month-sharded index of current documents (`LATEST_DOCS#YYYY-MM`) newest
first: the month catalog (`CATALOG#MONTHS`, one Query) names the months, then one Query a month
partition until the page holds `PAGE_SIZE` documents or `MAX_MONTH_QUERIES` Queries were made
(a sparse filter may then give a short page that still has an "Older" link). The index projects
every listed column (type included), so fund, type and status filters need no other read. A
page's cursor is signed and bound to the filters; it also carries where the previous pages
began, so "Newer" goes back without reading anything twice.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.urls import reverse

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import BadCursor, InvalidId, NotFound
from fundportal.domain.kinds import SearchKind, normalise_search, parse_month, validate_id
from fundportal.domain.records import is_name_query, normalise_name
from fundportal.store import cursor as cursors
from fundportal.store.repositories import DocumentRepository, PositionRepository
from fundportal.store.repositories.document_list import DocumentListRepository, Listed, SearchHit
from fundportal.store.repositories.documents import DocumentSummary
from fundportal.web.document_types import type_label

PAGE_SIZE = 50
MAX_MONTH_QUERIES = 12  # month partitions read for one page, at most (a year of months)
FILTERED_CHUNK = 200  # items read a Query when filters may drop some
# The landing page starts at the newest month on or before today + HORIZON: a document dated
# 9999-12-31 (a typing error) cannot make everyone land in "December 9999". An explicit
# "as of to" date moves the bound anywhere.
HORIZON = timedelta(days=366)
MAX_HISTORY = 50  # earlier page starts a cursor remembers for "Newer"


# --- the documents list -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListFilters:
    """What the list is narrowed to (already validated by the view's form)."""

    fund_id: str = ""
    document_type: str = ""
    status: str = ""
    start: date | None = None
    end: date | None = None

    @property
    def drops_rows(self) -> bool:
        return bool(self.fund_id or self.document_type or self.status)

    def binding(self) -> tuple[Any, ...]:
        return (
            "documents-list",
            self.fund_id.lower(),
            self.document_type,
            self.status,
            self.start.isoformat() if self.start else "",
            self.end.isoformat() if self.end else "",
        )

    def keeps(self, listed: Listed) -> bool:
        summary = listed.summary
        if self.fund_id and summary.fund_id.lower() != self.fund_id.lower():
            return False
        if self.document_type and listed.document_type != self.document_type:
            return False
        return not self.status or summary.status == self.status


@dataclass(frozen=True, slots=True)
class ListedDocument:
    summary: DocumentSummary
    document_type: str
    type_label: str
    url: str


@dataclass(frozen=True, slots=True)
class DocumentListPage:
    documents: list[ListedDocument]
    page_number: int
    older_cursor: str | None
    newer_cursor: str | None  # None on page 2: "Newer" is then the first page (no cursor)
    upper: date  # newest as-of date listed
    later_months: list[str]  # months with documents after `upper` (not listed unless asked for)
    month_queries: int
    partial: bool  # the Query budget ran out before the page was full
    filters: ListFilters = field(default_factory=ListFilters)

    @property
    def has_newer(self) -> bool:
        return self.page_number > 1


@dataclass(frozen=True, slots=True)
class _Position:
    """Where a page begins: a month, and the index position to continue after (None: its top)."""

    month: str
    after: str | None = None

    def to_json(self) -> dict[str, str]:
        return {"m": self.month, **({"a": self.after} if self.after else {})}

    @classmethod
    def from_json(cls, data: Any) -> _Position:
        if not isinstance(data, dict) or not isinstance(data.get("m"), str):
            raise BadCursor()
        after = data.get("a")
        if after is not None and not isinstance(after, str):
            raise BadCursor()
        try:
            parse_month(data["m"])
        except InvalidId:
            raise BadCursor() from None
        return cls(data["m"], after)


def _encode(position: _Position, filters: ListFilters, upper: date, history: list[Any], number: int) -> str:
    key = {name: {"S": value} for name, value in position.to_json().items()}
    extra = {"u": upper.isoformat(), "h": history[-MAX_HISTORY:], "n": number}
    return cursors.encode(key, filters.binding(), extra)


def _decode(cursor: str, filters: ListFilters) -> tuple[_Position, date, list[Any], int]:
    key, extra = cursors.decode(cursor, filters.binding())
    position = _Position.from_json({name: value["S"] for name, value in key.items()})
    try:
        upper = date.fromisoformat(extra["u"])
        history, number = list(extra["h"]), int(extra["n"])
    except (KeyError, TypeError, ValueError):
        raise BadCursor() from None
    if number < 2:
        raise BadCursor()
    return position, upper, history, number


def _month_span(month: str) -> tuple[date, date]:
    year, number = parse_month(month)
    return date(year, number, 1), date(year, number, calendar.monthrange(year, number)[1])


def document_list_page(
    *,
    filters: ListFilters | None = None,
    cursor: str | None = None,
    page_size: int = PAGE_SIZE,
    today: date | None = None,
    scope: AccessScope = OPERATOR,
    repository: DocumentListRepository | None = None,
    documents: DocumentRepository | None = None,
) -> DocumentListPage:
    """One page of current documents, newest first across months (see the module docstring).
    Requests: 1 catalog Query + at most MAX_MONTH_QUERIES month Queries. Only documents of the
    funds `scope` covers are listed (the index projects each one's fund); a scope covering no
    fund (an LP user) reads nothing."""
    filters = filters or ListFilters()
    repository = repository or DocumentListRepository()
    if cursor:
        start, upper, history, number = _decode(cursor, filters)
    else:
        upper = filters.end or (today or date.today()) + HORIZON
        start, history, number = None, [], 1
    if scope.is_investor or not (scope.all_funds or scope.funds):
        return DocumentListPage([], number, None, None, upper, [], 0, False, filters)
    drops_rows = filters.drops_rows or not scope.all_funds
    months = (documents or DocumentRepository(repository.gateway)).months()  # newest first
    later = [m for m in months if _month_span(m)[0] > upper]
    candidates = [
        m
        for m in months
        if _month_span(m)[0] <= upper and (filters.start is None or _month_span(m)[1] >= filters.start)
    ]
    if start is not None:  # continue at the cursor's month (or the next older one, if it is gone)
        candidates = [m for m in candidates if m <= start.month]
    after = start.after if start is not None and candidates and candidates[0] == start.month else None
    page_start = _Position(candidates[0], after) if candidates else None

    rows: list[Listed] = []
    queries = 0
    index = 0
    next_position: _Position | None = None
    while index < len(candidates):
        month = candidates[index]
        if len(rows) >= page_size or queries >= MAX_MONTH_QUERIES:
            next_position = _Position(month, after)
            break
        remaining = page_size - len(rows)
        limit = FILTERED_CHUNK if drops_rows else remaining
        chunk = repository.month_chunk(month, after=after, lower=filters.start, upper=upper, limit=limit)
        queries += 1
        kept_ids = {
            id(listed) for listed in chunk.items if filters.keeps(listed) and scope.covers_fund(listed.summary.fund_id)
        }
        stopped = False
        for listed in chunk.items:
            if len(rows) >= page_size:
                stopped = True
                break
            after = listed.position
            if id(listed) in kept_ids:
                rows.append(listed)
        if stopped or chunk.more:
            continue  # same month, after the last item examined
        index, after = index + 1, None

    listed_documents = [
        ListedDocument(
            summary=listed.summary,
            document_type=listed.document_type,
            type_label=type_label(listed.document_type),
            url=reverse("documents:detail", args=(listed.summary.document_id,)),
        )
        for listed in rows
    ]
    older = newer = None
    if next_position is not None:
        older = _encode(next_position, filters, upper, [*history, _json(page_start)], number + 1)
    if number > 2:
        previous = _Position.from_json(history[-1]) if history and history[-1] else None
        newer = _encode(previous, filters, upper, history[:-1], number - 1) if previous else None
    return DocumentListPage(
        documents=listed_documents,
        page_number=number,
        older_cursor=older,
        newer_cursor=newer,
        upper=upper,
        later_months=[] if filters.end else later,
        month_queries=queries,
        partial=next_position is not None and len(rows) < page_size,
        filters=filters,
    )


def _json(position: _Position | None) -> dict[str, str] | None:
    return position.to_json() if position else None


# --- search ---------------------------------------------------------------------------------------

SEARCH_LIMIT = 50
KIND_ORDER = (SearchKind.DOCUMENT, SearchKind.POSITION, SearchKind.FUND, SearchKind.INVESTOR)
KIND_HEADINGS = {
    SearchKind.DOCUMENT: "Documents",
    SearchKind.POSITION: "Positions",
    SearchKind.FUND: "Funds",
    SearchKind.INVESTOR: "Investors",
}
_URL_NAMES = {
    SearchKind.DOCUMENT: ("documents:detail", "document_id"),
    SearchKind.POSITION: ("positions:detail", "position_id"),
    SearchKind.FUND: ("funds:detail", "fund_id"),  # the fund page
    SearchKind.INVESTOR: ("investors:detail", "investor_id"),  # the investor page
}


@dataclass(frozen=True, slots=True)
class Found:
    kind: SearchKind
    target_id: str
    url: str
    exact: bool


@dataclass(frozen=True, slots=True)
class SearchResults:
    query: str
    groups: list[tuple[str, list[Found]]]  # (heading, hits) per kind, in KIND_ORDER
    truncated: bool

    @property
    def hits(self) -> list[Found]:
        return [hit for _, hits in self.groups for hit in hits]

    @property
    def target(self) -> Found | None:
        """Where to go straight away: the one exact match, else the one match; None otherwise."""
        hits = self.hits
        exact = [hit for hit in hits if hit.exact]
        if len(exact) == 1:
            return exact[0]
        return hits[0] if len(hits) == 1 else None


def url_of(kind: SearchKind, target_id: str) -> str:
    name, argument = _URL_NAMES[kind]
    return reverse(name, kwargs={argument: target_id})


def search(
    *,
    query: str,
    repository: DocumentListRepository | None = None,
    documents: DocumentRepository | None = None,
    positions: PositionRepository | None = None,
    scope: AccessScope = OPERATOR,
) -> SearchResults:
    """Ids of documents, positions, funds and investors equal to or starting with `query`, in any
    case: one Query on the search items (`SEARCH#<first 3 letters>`). A table whose search items
    were never written (loaded before search existed, not yet backfilled) still finds an exact id in
    its own case: GetItem of the document, then a 1-item Query of the position index.
    Hits outside `scope` are dropped, from what the search items name (no further read).
    Fund and investor names are found by the same Query (their search items share the
    partitions): a query that is no id (spaces, ...) searches names only."""
    normal, by_id = search_text(query)
    repository = repository or DocumentListRepository()
    hits, truncated = repository.search(normal, SEARCH_LIMIT)
    if not hits and by_id:
        hits = _exact_fallback(query, documents or DocumentRepository(repository.gateway), positions)
    by_kind: dict[SearchKind, list[Found]] = {}
    seen: set[tuple[SearchKind, str]] = set()
    for hit in hits:
        if not in_scope(hit, scope) or (hit.kind, hit.target_id) in seen:
            continue  # a fund found by its id and its name is listed once
        seen.add((hit.kind, hit.target_id))
        exact = normalise_search(hit.target_id) == normal
        found = Found(hit.kind, hit.target_id, url_of(hit.kind, hit.target_id), exact)
        by_kind.setdefault(hit.kind, []).append(found)
    groups = [(KIND_HEADINGS[kind], by_kind[kind]) for kind in KIND_ORDER if kind in by_kind]
    return SearchResults(query=query, groups=groups, truncated=truncated)


def search_text(query: str, what: str = "search") -> tuple[str, bool]:
    """(what the search items are searched for, whether `query` is an id): an id in lower case,
    else the query as a name (`normalise_name`); InvalidId when it is neither."""
    try:
        return normalise_search(validate_id(query, what)), True
    except InvalidId:
        if not is_name_query(query):
            raise
        return normalise_name(query), False


def in_scope(hit: SearchHit, scope: AccessScope) -> bool:
    """Whether a search hit may be shown: a document or fund of a covered fund, a position the
    scope covers (an LP: their own), an investor to every-fund users and to the LP it is (an
    investor's item names no fund, so an analyst covering some funds finds investors through
    the covered funds' pages)."""
    if hit.kind is SearchKind.INVESTOR:
        return scope.all_funds or hit.target_id in scope.investors
    if hit.kind is SearchKind.POSITION:
        return scope.covers_position(hit.fund_id, hit.investor_id)
    if scope.is_investor:
        return False
    return scope.covers_fund(hit.target_id if hit.kind is SearchKind.FUND else hit.fund_id)


def _exact_fallback(query: str, documents: DocumentRepository, positions: PositionRepository | None) -> list[SearchHit]:
    try:
        document = documents.get(query)
        return [SearchHit(SearchKind.DOCUMENT, query, document.fund_id)]
    except NotFound:
        pass
    entries = (positions or PositionRepository(documents.gateway)).page(query, limit=1).entries
    if entries:
        return [SearchHit(SearchKind.POSITION, query, entries[0].fund_id, entries[0].investor_id)]
    return []
