"""Statement periods (`fundportal.domain.periods`): quarters, years and custom ranges, their
columns, and the problems a bad parameter is refused with."""

from __future__ import annotations

from datetime import date

import pytest

from fundportal.domain.errors import InvalidPeriod
from fundportal.domain.periods import parse_period


def test_a_quarter_runs_from_its_first_to_its_last_day_with_qtd_ytd_itd_columns():
    period = parse_period("2025Q4", None, None)
    assert (period.start, period.end, period.label) == (date(2025, 10, 1), date(2025, 12, 31), "2025Q4")
    qtd, ytd, itd = period.columns()
    assert (qtd.start, ytd.start, itd.start) == (date(2025, 10, 1), date(2025, 1, 1), None)
    assert {c.end for c in period.columns()} == {date(2025, 12, 31)}
    assert parse_period("2024q1", "", "").end == date(2024, 3, 31)


def test_a_year_has_the_last_quarter_as_its_qtd_column():
    period = parse_period("2025", None, None)
    assert (period.start, period.end) == (date(2025, 1, 1), date(2025, 12, 31))
    assert [(c.key, c.start) for c in period.columns()] == [
        ("qtd", date(2025, 10, 1)),
        ("ytd", date(2025, 1, 1)),
        ("itd", None),
    ]


def test_a_custom_range_adds_its_own_column_unless_it_is_a_quarter_or_year_to_date():
    custom = parse_period(None, "2025-11-15", "2026-02-10")
    assert [c.key for c in custom.columns()] == ["period", "qtd", "ytd", "itd"]
    assert custom.columns()[0].day_before == date(2025, 11, 14)
    assert [c.key for c in parse_period(None, "2026-01-01", "2026-02-10").columns()] == ["qtd", "ytd", "itd"]
    assert custom.slug == "2025-11-15_2026-02-10"


def test_no_period_asked_is_none():
    assert parse_period(None, None, None) is None and parse_period(" ", "", "") is None


@pytest.mark.parametrize(
    ("period", "start", "end", "parameter", "problem"),
    [
        ("2025Q0", None, None, "period", "format"),
        ("Q4-2025", None, None, "period", "format"),
        ("1899", None, None, "period", "range"),
        (None, "2025-01-01", None, "end", "incomplete"),
        (None, None, "2025-01-01", "start", "incomplete"),
        (None, "2025-02-30", "2025-03-01", "start", "format"),
        (None, "2025-03-01", "2025-02-01", "start", "order"),
        (None, "2025-01-01", "2101-01-01", "end", "range"),
        ("2025", "2025-01-01", "2025-02-01", "period", "both"),
    ],
)
def test_a_bad_period_names_its_parameter_and_problem(period, start, end, parameter, problem):
    with pytest.raises(InvalidPeriod) as raised:
        parse_period(period, start, end)
    assert (raised.value.parameter, raised.value.problem) == (parameter, problem)
