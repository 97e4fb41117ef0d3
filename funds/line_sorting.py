"""Sorting a fund's or an investor's position lines: natural order of ids by default (POSITION_2
before POSITION_10), or by any figure column, ascending or descending (`?sort=irr`,
`?sort=-irr`). Missing figures ("—") sort last either way; ties keep natural order. Pure: the
lines are already read, so sorting costs no request."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar
from urllib.parse import urlencode

from moneyed import Money

from fundportal.domain.ordering import natural_key
from funds.lines import PositionLine


def _amount(value: Money | None) -> Decimal | None:
    return None if value is None else value.amount


# Each figure column: its `?sort=` name, its header, and the line's value it sorts by.
FIGURE_COLUMNS: dict[str, tuple[str, Callable[[PositionLine], Decimal | None]]] = {
    "commitment": ("Commitment", lambda line: _amount(line.commitment)),
    "called": ("Paid-in (called)", lambda line: line.figures.called.amount),
    "percent_called": ("% called", lambda line: line.percent_called),
    "unfunded": ("Unfunded (reported)", lambda line: _amount(line.figures.unfunded)),
    "unfunded_computed": ("Unfunded (computed)", lambda line: _amount(line.unfunded_computed)),
    "distributed": ("Distributed", lambda line: line.figures.distributed.amount),
    "nav": ("NAV (NAV date; adjusted NAV)", lambda line: _amount(line.figures.nav)),
    "dpi": ("DPI", lambda line: line.figures.dpi),
    "rvpi": ("RVPI", lambda line: line.figures.rvpi),
    "tvpi": ("TVPI", lambda line: line.figures.tvpi),
    "irr": ("IRR", lambda line: line.irr_percent),
}
ID_COLUMNS = ("position", "fund")
SORT_COLUMNS = (*ID_COLUMNS, *FIGURE_COLUMNS)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class LineSort:
    """What `?sort=` asked for: a column and a direction; anything unknown is natural order."""

    column: str = ""  # "": natural order of (fund, position)
    descending: bool = False

    @classmethod
    def parse(cls, text: str | None) -> LineSort:
        text = (text or "").strip()
        descending = text.startswith("-")
        column = text[1:] if descending else text
        if column not in SORT_COLUMNS:
            return cls()
        return cls(column, descending)

    @property
    def param(self) -> str:
        """The `?sort=` value that asks for this sort ("" for the default)."""
        column = self.column or "fund"  # the default order is (fund, position), ascending
        if column == "fund" and not self.descending:
            return ""
        return f"-{column}" if self.descending else column

    @property
    def label(self) -> str:
        """The sorted column as its header names it."""
        if self.column in FIGURE_COLUMNS:
            return FIGURE_COLUMNS[self.column][0]
        return "Position" if self.column == "position" else "Fund"

    @property
    def needs_irr(self) -> bool:
        return self.column == "irr"

    def toggled(self, column: str) -> LineSort:
        """The sort a click on `column`'s header asks for: the other direction of the current
        column, else that column ascending (figures: descending first, the largest on top)."""
        if column == (self.column or "fund"):
            return LineSort(column, not self.descending)
        return LineSort(column, column in FIGURE_COLUMNS)

    def aria(self, column: str) -> str:
        """`aria-sort` of a header: ascending / descending for the sorted column, "" otherwise."""
        if column != (self.column or "fund"):
            return ""
        return "descending" if self.descending else "ascending"


def natural_line_key(fund_id: str, position_id: str) -> tuple[Any, ...]:
    """Natural order of a line: its fund, then its position."""
    return natural_key(fund_id), natural_key(position_id)


def sort_groups(
    groups: Sequence[T],
    ids_of: Callable[[T], tuple[str, str]],
    lines_of: Callable[[T], Sequence[PositionLine]],
    sort: LineSort,
) -> list[T]:
    """`groups` (a register each: `ids_of` gives its (fund, position), `lines_of` its lines, one per
    currency, asked for only to sort by a figure) in the order `sort` asks for. A group sorts by
    its first line's figure (the register's own currency comes first); groups without the figure
    come last whichever the direction; ties and the default are natural order of (fund, position)."""
    natural = sorted(groups, key=lambda g: natural_line_key(*ids_of(g)))
    if sort.column in ("", "fund"):
        return natural[::-1] if sort.descending else natural
    if sort.column == "position":
        ordered = sorted(natural, key=lambda g: natural_key(ids_of(g)[1]))
        return ordered[::-1] if sort.descending else ordered
    value_of = FIGURE_COLUMNS[sort.column][1]
    present: list[tuple[T, Decimal]] = []
    missing: list[T] = []
    for group in natural:
        lines = lines_of(group)
        value = value_of(lines[0]) if lines else None
        if value is None:
            missing.append(group)
        else:
            present.append((group, value))
    present.sort(key=lambda pair: pair[1], reverse=sort.descending)  # stable: ties stay natural
    return [g for g, _ in present] + missing


@dataclass(frozen=True, slots=True)
class SortHeader:
    """A sortable column header: the link that sorts by it and its `aria-sort` ("" unsorted)."""

    href: str
    aria: str


def sort_headers(params: Mapping[str, list[str]], sort: LineSort) -> dict[str, SortHeader]:
    """Per column, the header's link: the page's own query (the as-of date kept) with `sort`
    toggled and no cursor (a new sort starts on its first page)."""
    kept = {key: values for key, values in params.items() if key not in ("cursor", "sort")}
    headers = {}
    for column in SORT_COLUMNS:
        wanted = sort.toggled(column).param
        query = urlencode({**kept, "sort": [wanted]} if wanted else kept, doseq=True)
        headers[column] = SortHeader(href=f"?{query}" if query else "?", aria=sort.aria(column))
    return headers
