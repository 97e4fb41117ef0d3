"""The wording of a date, time or period a request asks for and the figures cannot give."""

from __future__ import annotations

from fundportal.domain.dates import EARLIEST, LATEST
from fundportal.domain.errors import DatedAfter, InvalidPeriod, InvalidTimeParameter

from .dispatch import describe


@describe.register
def _(error: DatedAfter) -> str:
    return (
        f"{error.what} {error.key} is dated {error.dated.isoformat()}, after {error.as_of.isoformat()}: "
        f"it was not part of the figures as of that date. Choose a later date or today."
    )


TIME_FORMATS = {"as_of": "a date, YYYY-MM-DD", "known_at": "an ISO date or date-time"}


@describe.register
def _(error: InvalidTimeParameter) -> str:
    if error.problem == "range":
        return f"{error.parameter} must be between {EARLIEST.isoformat()} and {LATEST.isoformat()}"
    return f"{error.parameter} must be {TIME_FORMATS.get(error.parameter, 'a date, YYYY-MM-DD')}"


PERIOD_PROBLEMS = {
    "format": "{parameter} must be {form}",
    "range": "{parameter} must be between {earliest} and {latest}",
    "order": "start must be on or before end",
    "incomplete": "give both start and end (YYYY-MM-DD), or a period",
    "both": "give either period or start and end, not both",
}
PERIOD_FORMS = {
    "period": "a quarter (2025Q4) or a year (2025)",
    "start": "a date, YYYY-MM-DD",
    "end": "a date, YYYY-MM-DD",
}


@describe.register
def _(error: InvalidPeriod) -> str:
    return PERIOD_PROBLEMS[error.problem].format(
        parameter=error.parameter,
        form=PERIOD_FORMS.get(error.parameter, "a date, YYYY-MM-DD"),
        earliest=EARLIEST.isoformat(),
        latest=LATEST.isoformat(),
    )
