"""Cursor paging of the API's lists: pages in id order, a signed cursor bound to its query, and
a walk that neither repeats nor skips a row that exists throughout it while rows are added and
removed between its pages."""

from __future__ import annotations

import pytest

from api.paging import page_of
from fundportal.domain.errors import BadCursor


def key(row: str) -> tuple[str]:
    return (row,)


def walk(rows_now, limit: int) -> list[str]:
    """Every page, reading the rows afresh for each (`rows_now(page_number)`)."""
    seen: list[str] = []
    cursor, number = None, 0
    while True:
        page = page_of(rows_now(number), key, query=("rows",), cursor=cursor, limit=limit)
        seen += page.rows
        cursor, number = page.next_cursor, number + 1
        if cursor is None:
            return seen


def test_pages_follow_the_id_order_and_end_without_a_cursor():
    rows = ["P3", "P1", "P2", "P5", "P4"]
    first = page_of(rows, key, query=("rows",), cursor=None, limit=2)
    assert first.rows == ["P1", "P2"] and first.next_cursor
    assert walk(lambda _: rows, 2) == ["P1", "P2", "P3", "P4", "P5"]
    assert page_of(rows, key, query=("rows",), cursor=None, limit=5).next_cursor is None


def test_a_walk_is_stable_while_rows_come_and_go():
    steady = ["P10", "P20", "P30", "P40", "P50", "P60"]

    # Between pages rows are written: one lands before the cursor, one after it, one comes and goes.
    changes = {0: [], 1: ["P05", "P55"], 2: ["P55", "P15"], 3: ["P55", "P15", "P45"]}

    def rows_now(number: int) -> list[str]:
        return steady + changes.get(number, changes[3])

    seen = walk(rows_now, 2)
    assert len(seen) == len(set(seen))  # no row twice
    assert [row for row in seen if row in steady] == steady  # none of the steady rows skipped
    assert "P55" in seen and "P05" not in seen  # a row added ahead is met; one behind is not


def test_a_cursor_of_another_query_or_tampered_is_refused():
    cursor = page_of(["A", "B"], key, query=("fund", "F1"), cursor=None, limit=1).next_cursor
    assert cursor
    with pytest.raises(BadCursor):
        page_of(["A", "B"], key, query=("fund", "F2"), cursor=cursor, limit=1)
    with pytest.raises(BadCursor):
        page_of(["A", "B"], key, query=("fund", "F1"), cursor=cursor[:-3] + "abc", limit=1)
