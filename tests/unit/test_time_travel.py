"""The time-travel parameters: as_of (YYYY-MM-DD), known_at (ISO date or date-time, UTC)."""

from datetime import UTC, date, datetime

import pytest

from fundportal.domain.errors import InvalidTimeParameter
from fundportal.messages import describe
from fundportal.web.time_travel import TimeTravel, parse_as_of, parse_known_at, time_travel_of


def test_as_of_is_an_iso_date():
    assert parse_as_of("2025-09-30") == date(2025, 9, 30)


def test_an_empty_as_of_means_today():
    assert parse_as_of("") is None
    assert parse_as_of(None) is None


@pytest.mark.parametrize("text", ["30/09/2025", "20250930", "2025-9-30", "2025-02-30", "yesterday", "2025-09-30T00:00"])
def test_a_malformed_as_of_names_the_format(text):
    with pytest.raises(InvalidTimeParameter) as raised:
        parse_as_of(text)
    assert describe(raised.value) == "as_of must be a date, YYYY-MM-DD"


def test_an_as_of_out_of_range_names_the_range():
    with pytest.raises(InvalidTimeParameter) as raised:
        parse_as_of("1850-01-01")
    assert describe(raised.value) == "as_of must be between 1900-01-01 and 2100-12-31"


def test_a_known_at_date_means_the_end_of_that_day_utc():
    assert parse_known_at("2025-10-15") == datetime(2025, 10, 15, 23, 59, 59, 999999, tzinfo=UTC)


def test_a_known_at_without_offset_is_utc_and_an_offset_is_converted():
    assert parse_known_at("2025-10-15T09:30") == datetime(2025, 10, 15, 9, 30, tzinfo=UTC)
    assert parse_known_at("2025-10-15T09:30:00+02:00") == datetime(2025, 10, 15, 7, 30, tzinfo=UTC)
    assert parse_known_at("2025-10-15T09:30:00Z") == datetime(2025, 10, 15, 9, 30, tzinfo=UTC)


@pytest.mark.parametrize("text", ["15 Oct 2025", "2025-10-15X", "2025-13-01", "2025-10-15T25:00"])
def test_a_malformed_known_at_names_the_format(text):
    with pytest.raises(InvalidTimeParameter) as raised:
        parse_known_at(text)
    assert describe(raised.value) == "known_at must be an ISO date or date-time"


def test_a_known_at_out_of_range_names_the_range():
    with pytest.raises(InvalidTimeParameter) as raised:
        parse_known_at("2200-01-01")
    assert describe(raised.value) == "known_at must be between 1900-01-01 and 2100-12-31"


def test_links_keep_both_parameters_and_add_others():
    travel = time_travel_of({"as_of": "2025-09-30", "known_at": "2025-10-15T09:30"})
    assert travel.active
    assert travel.query(cursor="abc") == "?as_of=2025-09-30&known_at=2025-10-15T09%3A30%3A00Z&cursor=abc"
    assert travel.url("/positions/POSITION_1/export.csv") == (
        "/positions/POSITION_1/export.csv?as_of=2025-09-30&known_at=2025-10-15T09%3A30%3A00Z"
    )


def test_today_keeps_nothing_on_links():
    assert not TimeTravel().active
    assert TimeTravel().query() == ""
    assert TimeTravel().query(cursor=None) == ""
    assert TimeTravel().query(cursor="abc") == "?cursor=abc"
