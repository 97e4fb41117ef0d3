"""Pagination completeness: every item exactly once for many page sizes, past DynamoDB's 1 MB
response limit and across an empty last page; tampered or foreign cursors are a 400 page."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from decimal import Decimal
from html import unescape
from urllib.parse import unquote

import pytest

from fundportal.domain.errors import BadCursor
from fundportal.domain.figures_builder import figures_by_currency
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, Distribution, UnfundedCommitment
from fundportal.store.instrumentation import collect
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories import DocumentRepository, PositionRepository
from fundportal.store.repositories.documents import document_items

POSITION = "PAG_1"
DOCUMENTS = [f"PAGDOC{n:03d}" for n in range(23)]
ENTRY_CLASSES = (CapitalCall, Distribution, UnfundedCommitment)
PAGE_SIZES = [1, 2, 3, 5, 7, 10, 22, 23, 68, 69, 70, 1000, None]


def load_position(repository: DocumentRepository, workers: int = 1) -> set[tuple[str, Kind]]:
    """23 documents, each with the three entries of PAG_1 and of a neighbour position."""
    items = []
    for n, document_id in enumerate(DOCUMENTS):
        as_of = date(2024 + n // 12, n % 12 + 1, 28)
        document = Document(document_id=document_id, title=f"Statement {n}", fund_id="FUND_P", as_of_date=as_of)
        entries = [
            cls(document_id, position, "FUND_P", "INV_P", Decimal(n * 10 + 1), as_of_date=as_of)
            for cls in ENTRY_CLASSES
            for position in (POSITION, "PAG_2")
        ]
        items += document_items(document, None, entries)
    repository.bulk_load(items, workers=workers)
    return {(d, cls.KIND) for d in DOCUMENTS for cls in ENTRY_CLASSES}


def walk(repository: PositionRepository, limit: int | None, kind: Kind | None = None) -> tuple[Counter, list[int]]:
    seen: Counter = Counter()
    sizes = []
    cursor = None
    while True:
        page = repository.page(POSITION, kind, cursor, limit)
        sizes.append(len(page.entries))
        seen.update((e.document_id, e.kind) for e in page.entries)
        if page.next_cursor() is None:
            assert not page.has_next
            return seen, sizes
        assert page.entries, "an empty page that still has a next page"
        cursor = page.next_cursor()
        assert len(sizes) < 200


def test_every_item_exactly_once_for_many_page_sizes(backend):
    repository = PositionRepository()
    expected = load_position(DocumentRepository(), workers=backend.workers(2))
    for limit in PAGE_SIZES:
        seen, sizes = walk(repository, limit)
        assert set(seen) == expected, f"limit {limit}: missing {expected - set(seen)}"
        assert max(seen.values()) == 1, f"limit {limit}: duplicates {[k for k, n in seen.items() if n > 1]}"
        if limit:
            assert all(size <= limit for size in sizes)
            # Only the last page may be empty (DynamoDB can hand out a key when a page is exactly full).
            assert all(sizes[:-1])
    calls, _ = walk(repository, 5, Kind.CAPITAL_CALL)
    assert set(calls) == {(d, Kind.CAPITAL_CALL) for d in DOCUMENTS} and max(calls.values()) == 1


def test_a_full_last_page_is_followed_by_an_empty_page_without_a_cursor(local_backend):
    repository = PositionRepository()
    load_position(DocumentRepository(), workers=2)
    seen, sizes = walk(repository, 23)  # 69 entries = 3 full pages of 23
    assert sum(seen.values()) == 69
    assert sizes == [23, 23, 23, 0]  # DynamoDB Local returns a LastEvaluatedKey after a full page


def test_a_partition_over_1_mb_is_read_whole(backend):
    """12 padded entries of 100 KB each: the overview Query follows LastEvaluatedKey."""
    repository = DocumentRepository()
    document = Document(document_id="BIGDOC", title="Large", fund_id="FUND_P", as_of_date=date(2025, 9, 30))
    padded = []
    for n in range(12):
        entry = CapitalCall("BIGDOC", f"BIGPOS_{n}", "FUND_P", "INV_P", Decimal(1000 + n), as_of_date=date(2025, 9, 30))
        padded.append({**to_item(entry), "Notes": "n" * 100_000})  # not read by the portal; only size
    repository.bulk_load(document_items(document, None, []) + padded, workers=1)
    with collect() as requests:
        overview = repository.overview("BIGDOC")
    assert [p.position_id for p in overview.positions] == sorted(f"BIGPOS_{n}" for n in range(12))
    (totals,) = figures_by_currency(e for p in overview.positions for e in p.entries)
    assert totals.called.amount == sum(Decimal(1000 + n) for n in range(12))
    assert requests.operations.count("Query") >= 2  # more than 1 MB: more than one page


def test_tampered_and_foreign_cursors_are_refused(backend):
    repository = PositionRepository()
    load_position(DocumentRepository())
    cursor = repository.page(POSITION, limit=5).next_cursor()
    assert cursor
    for bad in tampered(cursor):
        with pytest.raises(BadCursor):
            repository.page(POSITION, cursor=bad, limit=5)
    with pytest.raises(BadCursor):  # a cursor of another position's query
        repository.page("PAG_2", cursor=cursor, limit=5)
    with pytest.raises(BadCursor):  # ...or of the same position with another kind filter
        repository.page(POSITION, Kind.DISTRIBUTION, cursor=cursor, limit=5)


def tampered(cursor: str) -> list[str]:
    flipped = cursor[:10] + ("A" if cursor[10] != "A" else "B") + cursor[11:]
    return [flipped, cursor[:-3], cursor + "x", "garbage", "a" * 5000, cursor.replace(":", ";"), "\x00\x01"]


def page_links(html: str) -> tuple[str | None, list[str]]:
    """(next cursor, document ids linked) of a position page."""
    match = re.search(r'href="\?cursor=([^"]+)" rel="next"', html)
    return (unquote(unescape(match.group(1))) if match else None), re.findall(r"PAGDOC\d{3}", html)


@pytest.mark.parametrize("page_size", [4, 23, None])
def test_position_pages_in_the_browser_show_every_document(analyst_client, moto_backend, settings, page_size):
    settings.POSITION_PAGE_SIZE = page_size
    load_position(DocumentRepository())
    seen: set[str] = set()
    cursor = None
    for _ in range(100):
        response = analyst_client.get(f"/positions/{POSITION}/", {"cursor": cursor} if cursor else {})
        assert response.status_code == 200
        cursor, documents = page_links(response.content.decode())
        seen.update(documents)
        if cursor is None:
            break
    assert seen == set(DOCUMENTS)


def test_tampered_cursor_in_the_url_is_a_400_page(analyst_client, moto_backend, settings):
    settings.POSITION_PAGE_SIZE = 5
    load_position(DocumentRepository())
    cursor, _ = page_links(analyst_client.get(f"/positions/{POSITION}/").content.decode())
    assert cursor
    for bad in tampered(cursor):
        response = analyst_client.get(f"/positions/{POSITION}/", {"cursor": bad})
        assert response.status_code == 400, bad
        assert "page link is invalid" in response.content.decode()
    foreign = analyst_client.get("/positions/PAG_2/", {"cursor": cursor})
    assert foreign.status_code == 400


def test_a_later_position_page_re_derives_its_earlier_entries_past_1_mb(backend):
    """A later page reads from the position's start (its running figures as the entries are now):
    12 padded entries of 100 KB each, page 3 of 4 entries follows LastEvaluatedKey past 1 MB."""
    repository = PositionRepository()
    items = []
    for n in range(12):
        entry = CapitalCall(
            f"BIGDOC{n:02d}", "BIGPOS", "FUND_P", "INV_P", Decimal(1000 + n), as_of_date=date(2025, 9, 30)
        )
        items.append({**to_item(entry), "Notes": "n" * 100_000})  # not read by the portal; only size
    DocumentRepository().bulk_load(items, workers=1)
    first = repository.page("BIGPOS", limit=4)
    second = repository.page("BIGPOS", cursor=first.next_cursor(), limit=4)
    assert [e.document_id for e in second.earlier] == ["BIGDOC00", "BIGDOC01", "BIGDOC02", "BIGDOC03"]
    with collect() as requests:
        third = repository.page("BIGPOS", cursor=second.next_cursor(), limit=4)
    assert requests.operations.count("Query") >= 2  # more than 1 MB from the start
    assert [e.document_id for e in third.entries] == [f"BIGDOC{n:02d}" for n in range(8, 12)]
    assert len(third.earlier) == 8 and third.read == 12
