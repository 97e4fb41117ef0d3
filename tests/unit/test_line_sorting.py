"""Sorting a fund's or investor's position lines: natural order by default, any figure column
either way with missing figures last and ties in natural order, and the headers' links."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest

from funds.line_sorting import LineSort, sort_groups, sort_headers

# (fund, position, IRR %): POSITION_10's IRR ties POSITION_2's; POSITION_3 has none.
HELD = [
    ("FUND_B", "POSITION_1", Decimal("5.0")),
    ("FUND_A", "POSITION_10", Decimal("12.5")),
    ("FUND_A", "POSITION_2", Decimal("12.5")),
    ("FUND_A", "POSITION_3", None),
    ("FUND_A", "POSITION_1", Decimal("-3.0")),
]


def ordered(sort: LineSort) -> list[str]:
    groups = [SimpleNamespace(fund_id=f, position_id=p, lines=[SimpleNamespace(irr_percent=irr)]) for f, p, irr in HELD]
    found = sort_groups(groups, lambda g: (g.fund_id, g.position_id), lambda g: g.lines, sort)
    return [f"{g.fund_id}/{g.position_id}" for g in found]


def test_the_default_is_natural_order_of_fund_then_position():
    assert ordered(LineSort()) == [
        "FUND_A/POSITION_1",
        "FUND_A/POSITION_2",
        "FUND_A/POSITION_3",
        "FUND_A/POSITION_10",
        "FUND_B/POSITION_1",
    ]


def test_a_figure_sorts_either_way_with_missing_figures_last_and_ties_in_natural_order():
    assert ordered(LineSort.parse("-irr")) == [
        "FUND_A/POSITION_2",
        "FUND_A/POSITION_10",
        "FUND_B/POSITION_1",
        "FUND_A/POSITION_1",
        "FUND_A/POSITION_3",
    ]
    assert ordered(LineSort.parse("irr")) == [
        "FUND_A/POSITION_1",
        "FUND_B/POSITION_1",
        "FUND_A/POSITION_2",
        "FUND_A/POSITION_10",
        "FUND_A/POSITION_3",
    ]


def test_the_position_column_sorts_by_position_across_funds():
    assert ordered(LineSort.parse("position"))[:2] == ["FUND_A/POSITION_1", "FUND_B/POSITION_1"]


@pytest.mark.parametrize("text", ["", "nonsense", "-", "--irr", " fund "])
def test_anything_unknown_is_natural_order(text):
    assert LineSort.parse(text).param == ""


def test_a_header_link_toggles_its_column_figures_largest_first_and_keeps_other_parameters():
    headers = sort_headers({"as_of": ["2025-12-31"], "cursor": ["abc"], "sort": ["-irr"]}, LineSort.parse("-irr"))
    assert headers["irr"].href == "?as_of=2025-12-31&sort=irr" and headers["irr"].aria == "descending"
    assert headers["dpi"].href == "?as_of=2025-12-31&sort=-dpi" and headers["dpi"].aria == ""
    assert headers["fund"].href == "?as_of=2025-12-31"  # natural order needs no parameter
    natural = sort_headers({}, LineSort())
    assert natural["fund"].aria == "ascending" and natural["fund"].href == "?sort=-fund"
    assert LineSort.parse("-called").label == "Paid-in (called)"
