"""Statement periods: a quarter (`2025Q4`), a year (`2025`) or a custom range (`start`, `end`),
and the columns a capital account statement shows for one (`Period.columns`).

The columns are counted back from the period's end D:
- QTD: from the first day of D's quarter to D;
- YTD: from 1 January of D's year to D;
- ITD: from inception (the position's first entry) to D;
- a custom range that is not a whole quarter-to-date or year-to-date adds its own column
  ("Period", `start`..D) first.
Every column ends on D and every bound is inclusive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from . import dates
from .errors import InvalidPeriod

PERIOD = "period"
START = "start"
END = "end"
_QUARTER = re.compile(r"([0-9]{4})[Qq]([1-4])")
_YEAR = re.compile(r"[0-9]{4}")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a statement: `start` (None: inception) to `end`, both inclusive."""

    key: str  # "period", "qtd", "ytd", "itd"
    label: str
    start: date | None
    end: date

    @property
    def day_before(self) -> date | None:
        """The day the column's beginning balance is taken on (None: inception, a zero balance)."""
        return None if self.start is None else self.start - timedelta(days=1)

    def holds(self, on: date) -> bool:
        return (self.start is None or self.start <= on) and on <= self.end


@dataclass(frozen=True, slots=True)
class Period:
    """The period a statement is for: `start`..`end` inclusive, named `label`."""

    start: date
    end: date
    label: str

    def columns(self) -> tuple[Column, ...]:
        end = self.end
        quarter_start = quarter_start_of(end)
        year_start = date(end.year, 1, 1)
        columns = []
        if self.start not in (quarter_start, year_start):
            columns.append(Column("period", "Period", self.start, end))
        columns += [
            Column("qtd", "QTD", quarter_start, end),
            Column("ytd", "YTD", year_start, end),
            Column("itd", "ITD", None, end),
        ]
        return tuple(columns)

    @property
    def slug(self) -> str:
        """For a file name: `2025Q4`, `2025`, `2025-10-01_2025-11-15`."""
        return self.label.replace(" to ", "_")


def quarter_start_of(on: date) -> date:
    return date(on.year, 3 * ((on.month - 1) // 3) + 1, 1)


def quarter(year: int, number: int) -> Period:
    start = date(year, 3 * (number - 1) + 1, 1)
    end = date(year + 1, 1, 1) if number == 4 else date(year, 3 * number + 1, 1)
    return Period(start, end - timedelta(days=1), f"{year}Q{number}")


def year(number: int) -> Period:
    return Period(date(number, 1, 1), date(number, 12, 31), str(number))


def parse_period(period: str | None, start: str | None, end: str | None) -> Period | None:
    """The period asked for: `period` (YYYYQn or YYYY) or `start` and `end` (YYYY-MM-DD); None
    when none is given; InvalidPeriod naming the parameter at fault otherwise."""
    period, start, end = (period or "").strip(), (start or "").strip(), (end or "").strip()
    if period and (start or end):
        raise InvalidPeriod(PERIOD, "both", period)
    if period:
        return _named(period)
    if not start and not end:
        return None
    if not start or not end:
        raise InvalidPeriod(START if not start else END, "incomplete", start or end)
    first, last = _date(START, start), _date(END, end)
    if first > last:
        raise InvalidPeriod(START, "order", start)
    return Period(first, last, f"{first.isoformat()} to {last.isoformat()}")


def _named(text: str) -> Period:
    if found := _QUARTER.fullmatch(text):
        value = quarter(int(found[1]), int(found[2]))
    elif _YEAR.fullmatch(text):
        value = year(int(text))
    else:
        raise InvalidPeriod(PERIOD, "format", text)
    if not dates.in_range(value.start) or not dates.in_range(value.end):
        raise InvalidPeriod(PERIOD, "range", text)
    return value


def _date(parameter: str, text: str) -> date:
    if not _ISO_DATE.fullmatch(text):
        raise InvalidPeriod(parameter, "format", text)
    try:
        value = date.fromisoformat(text)
    except ValueError:
        raise InvalidPeriod(parameter, "format", text) from None
    if not dates.in_range(value):
        raise InvalidPeriod(parameter, "range", text)
    return value
