"""The document page index's sort keys: the headers first, a position's entries together and
in id order, and the Next/Previous bounds that fall exactly between two positions."""

from __future__ import annotations

import pytest

from fundportal.domain.errors import InvalidId
from fundportal.domain.kinds import POSITION_KINDS, Kind
from fundportal.store.mapping import keys

# Ids that share prefixes and use every id character class ('-' and '.' sort below digits).
POSITIONS = ["P", "P-1", "P.2", "P1", "P10", "P2", "P_A", "Pa", "Q"]


def sort_keys() -> list[tuple[str, str | None]]:
    """Every GSI5_SK of a document with these positions, sorted as DynamoDB sorts them."""
    found: list[tuple[str, str | None]] = [
        (keys.document_index_keys(Kind.DOCUMENT, "DOC1")[1], None),
        (keys.document_index_keys(Kind.CAPITAL_ACTIVITY, "DOC1")[1], None),
    ]
    for position in POSITIONS:
        found += [(keys.document_index_keys(kind, "DOC1", position)[1], position) for kind in POSITION_KINDS]
    return sorted(found, key=lambda pair: pair[0].encode())


def test_the_headers_sort_first_and_each_positions_entries_sit_together_in_id_order():
    ordered = sort_keys()
    assert [position for _, position in ordered[:2]] == [None, None]
    positions = [position for _, position in ordered[2:]]
    grouped = [p for i, p in enumerate(positions) if i == 0 or positions[i - 1] != p]
    assert grouped == sorted(POSITIONS, key=str.encode)
    assert len(grouped) == len(POSITIONS)  # no position's entries are split


@pytest.mark.parametrize("position", POSITIONS)
def test_next_and_previous_bounds_fall_between_two_positions(position):
    ordered = sort_keys()[2:]
    after, before = keys.document_index_after(position), keys.document_index_before(position)
    assert [p for sk, p in ordered if sk > after] == [p for _, p in ordered if p.encode() > position.encode()]
    assert [p for sk, p in ordered if keys.DOCUMENT_ENTRIES_LOW <= sk <= before] == [
        p for _, p in ordered if p.encode() < position.encode()
    ]
    assert all(sk < keys.DOCUMENT_ENTRIES_HIGH for sk, _ in ordered)


def test_the_entries_range_leaves_the_headers_out():
    header = keys.document_index_keys(Kind.DOCUMENT, "DOC1")[1]
    assert header < keys.DOCUMENT_ENTRIES_LOW


def test_a_position_id_with_a_separator_is_refused():
    with pytest.raises(InvalidId):
        keys.document_index_after("P#1")
