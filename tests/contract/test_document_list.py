"""Both backends: the documents list walks the month-sharded index newest first
across months (every current document exactly once, bounded Queries a page, no Scan), and the
search items find ids in any case, exact or by prefix, with one Query."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from documents import list_selectors
from documents.list_selectors import ListFilters, document_list_page
from fundportal.domain.errors import BadCursor
from fundportal.domain.kinds import DOCUMENT_TYPES, SearchKind
from fundportal.domain.model import Document
from fundportal.store.instrumentation import collect
from fundportal.store.mapping.companions import search_items_of
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_list import DocumentListRepository
from fundportal.store.repositories.documents import document_items

pytestmark = pytest.mark.django_db

TODAY = date(2026, 1, 15)
FAR_FUTURE = "FUTURE9999"


def month_end(months_back: int) -> date:
    first = date(2025, 12, 1)
    year, month = divmod(first.year * 12 + first.month - 1 - months_back, 12)
    nxt = date(year + (month + 1) // 12, (month + 1) % 12 + 1, 1)
    return nxt - timedelta(days=1)


def documents() -> list[Document]:
    """67 current documents over 14 months (some months empty, several on one day), a mistyped
    9999-12-31 one, and superseded copies that must never be listed."""
    made = []
    for n in range(1, 67):
        as_of = month_end((n * 5) % 17) - timedelta(days=n % 3)  # months 0..16 back, 3 days each
        made.append(
            Document(
                document_id=f"L{n:03d}",
                title=f"Document {n}",
                fund_id=f"FUND_{'AB'[n % 2]}",
                as_of_date=as_of,
                status=("Active", "Draft", "Final")[n % 3],
                document_type=DOCUMENT_TYPES[n % len(DOCUMENT_TYPES)],
            )
        )
    made.append(Document(document_id=FAR_FUTURE, title="Mistyped", fund_id="FUND_A", as_of_date=date(9999, 12, 31)))
    return made


@pytest.fixture
def listed(backend) -> list[Document]:
    made = documents()
    items = []
    for document in made:
        items += document_items(document, None, [])
        items.append(to_item(document.superseded(date(2025, 1, 2))))
    DocumentRepository().bulk_load(items, workers=backend.workers(4))
    DocumentListRepository().put_search_items(s for d in made for s in search_items_of(d))
    return made


def newest_first(made: list[Document]) -> list[str]:
    return [d.document_id for d in sorted(made, key=lambda d: (d.as_of_date, d.document_id), reverse=True)]


def walk(filters: ListFilters | None = None, page_size: int = list_selectors.PAGE_SIZE) -> list[list[str]]:
    pages, cursor = [], None
    while True:
        with collect() as collector:
            page = document_list_page(filters=filters, cursor=cursor, page_size=page_size, today=TODAY)
        assert "Scan" not in collector.operations
        assert collector.count <= 1 + list_selectors.MAX_MONTH_QUERIES, collector.describe()
        assert collector.operations.count("Query") == collector.count == 1 + page.month_queries
        pages.append([d.summary.document_id for d in page.documents])
        # a page is full unless it is the last, or it used its whole Query budget
        assert len(page.documents) == page_size or not page.older_cursor or page.partial
        assert not page.partial or page.month_queries == list_selectors.MAX_MONTH_QUERIES
        if not page.older_cursor:
            return pages
        cursor = page.older_cursor
        assert len(pages) < 100


@pytest.mark.parametrize("page_size", [50, 7, 1])
def test_every_current_document_once_newest_first_across_months(listed, page_size):
    pages = walk(page_size=page_size)
    everything = [document_id for page in pages for document_id in page]
    current = [d for d in listed if d.document_id != FAR_FUTURE]
    assert everything == newest_first(current)  # each exactly once, in order; superseded copies never


def test_a_far_future_date_does_not_hijack_the_landing_page(listed):
    first = document_list_page(today=TODAY)
    assert first.documents[0].summary.document_id != FAR_FUTURE
    assert first.later_months == ["9999-12"]
    shown = document_list_page(filters=ListFilters(end=date(9999, 12, 31)), today=TODAY)
    assert shown.documents[0].summary.document_id == FAR_FUTURE
    assert shown.later_months == []


def test_newer_goes_back_to_the_previous_page(listed):
    first = document_list_page(page_size=10, today=TODAY)
    second = document_list_page(page_size=10, cursor=first.older_cursor, today=TODAY)
    third = document_list_page(page_size=10, cursor=second.older_cursor, today=TODAY)
    assert second.newer_cursor is None and second.has_newer  # page 2's "Newer" is the first page
    back = document_list_page(page_size=10, cursor=third.newer_cursor, today=TODAY)
    assert [d.summary for d in back.documents] == [d.summary for d in second.documents]
    assert back.page_number == 2


def test_filters_by_fund_type_status_and_as_of_range(listed):
    current = [d for d in listed if d.document_id != FAR_FUTURE]
    start, end = date(2025, 3, 1), date(2025, 9, 30)
    filters = ListFilters(fund_id="fund_b", document_type="capital_call_notice", status="Active", start=start, end=end)
    expected = [
        d
        for d in current
        if d.fund_id == "FUND_B"
        and d.document_type == "capital_call_notice"
        and d.status == "Active"
        and start <= d.as_of_date <= end
    ]
    assert expected  # the data has some
    found = [document_id for page in walk(filters, page_size=2) for document_id in page]
    assert found == newest_first(expected)
    for kind in DOCUMENT_TYPES:
        typed = [document_id for page in walk(ListFilters(document_type=kind)) for document_id in page]
        assert typed == newest_first([d for d in current if d.document_type == kind])


def test_a_cursor_is_bound_to_its_filters(listed):
    first = document_list_page(page_size=5, today=TODAY)
    with pytest.raises(BadCursor):
        document_list_page(filters=ListFilters(status="Draft"), cursor=first.older_cursor, today=TODAY)
    with pytest.raises(BadCursor):
        document_list_page(cursor=first.older_cursor[:-3] + "abc", today=TODAY)


# --- search -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "kind", "target"),
    [
        ("doc001", SearchKind.DOCUMENT, "DOC001"),
        ("DoC002", SearchKind.DOCUMENT, "DOC002"),
        ("fund_a", SearchKind.FUND, "FUND_A"),
        ("investor_2", SearchKind.INVESTOR, "INVESTOR_2"),
        ("position_1", SearchKind.POSITION, "POSITION_1"),
    ],
)
def test_search_finds_an_id_in_any_case_with_one_query(sample, query, kind, target, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(1, ["Query"]):
        results = list_selectors.search(query=query)
    assert results.target is not None
    assert (results.target.kind, results.target.target_id) == (kind, target)


def test_search_by_prefix_groups_hits_by_kind(sample):
    results = list_selectors.search(query="inv")
    assert [(heading, [h.target_id for h in hits]) for heading, hits in results.groups] == [
        ("Investors", ["INVESTOR_1", "INVESTOR_2"])
    ]
    assert results.target is None  # two hits, no exact one: the results page
    assert [h.target_id for h in list_selectors.search(query="DOC").hits] == ["DOC001", "DOC002"]
    assert list_selectors.search(query="zzz").hits == []
    assert list_selectors.search(query="do").hits == []  # below 3 characters: exact ids only
