"""Time travel on the pages and exports: `?as_of=YYYY-MM-DD` (figures as of a date) and
`?known_at=<ISO date or date-time>` (figures as the portal knew them then). One parser for every
page, export and the read API; a malformed or out-of-range value is an `InvalidTimeParameter`,
which the middleware shows as a 400 page with its own message ("as_of must be a date,
YYYY-MM-DD"), never a generic one.

- `as_of`: exactly `YYYY-MM-DD`, between `dates.EARLIEST` and `dates.LATEST`.
- `known_at`: an ISO date (the end of that day, UTC) or date-time (no offset: UTC; an offset is
  converted to UTC).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest

from fundportal.domain import dates
from fundportal.domain.errors import InvalidTimeParameter

AS_OF = "as_of"
KNOWN_AT = "known_at"
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_END_OF_DAY = time(23, 59, 59, 999999)


def parse_as_of(text: str | None) -> date | None:
    """The `as_of` date of `text` (None when empty); InvalidTimeParameter when malformed or out
    of range."""
    text = (text or "").strip()
    if not text:
        return None
    if not _ISO_DATE.fullmatch(text):
        raise InvalidTimeParameter(AS_OF, "format", text)
    try:
        value = date.fromisoformat(text)
    except ValueError:
        raise InvalidTimeParameter(AS_OF, "format", text) from None
    if not dates.in_range(value):
        raise InvalidTimeParameter(AS_OF, "range", text)
    return value


def parse_known_at(text: str | None) -> datetime | None:
    """The `known_at` moment of `text` in UTC (None when empty): a date means the end of that
    day; InvalidTimeParameter when malformed or out of range."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        if _ISO_DATE.fullmatch(text):
            value = datetime.combine(date.fromisoformat(text), _END_OF_DAY, tzinfo=UTC)
        elif len(text) > 10 and _ISO_DATE.match(text) and text[10] in "T ":
            value = datetime.fromisoformat(text)
            value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        else:
            raise ValueError(text)
    except (ValueError, OverflowError):
        raise InvalidTimeParameter(KNOWN_AT, "format", text) from None
    if not dates.in_range(value.date()):
        raise InvalidTimeParameter(KNOWN_AT, "range", text)
    return value


@dataclass(frozen=True, slots=True)
class TimeTravel:
    """The date a page's figures are valued at (`as_of`, None: today) and the moment they are
    shown as known (`known_at`, None: now)."""

    as_of: date | None = None
    known_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.as_of is not None or self.known_at is not None

    @property
    def params(self) -> dict[str, str]:
        """The parameters to keep on a link (pagination, exports, sorting)."""
        held = {}
        if self.as_of is not None:
            held[AS_OF] = self.as_of.isoformat()
        if self.known_at is not None:
            held[KNOWN_AT] = f"{self.known_at_text}Z"
        return held

    @property
    def known_at_text(self) -> str:
        """`known_at` as the picker shows it (UTC, to the second)."""
        if self.known_at is None:
            return ""
        return self.known_at.astimezone(UTC).replace(tzinfo=None, microsecond=0).isoformat()

    def query(self, **more: Any) -> str:
        """A query string ("?as_of=…&cursor=…", "" when nothing to keep): the time-travel
        parameters and `more` (None values left out)."""
        held: dict[str, Any] = dict(self.params)
        held.update({k: v for k, v in more.items() if v is not None})
        return f"?{urlencode(held)}" if held else ""

    def url(self, path: str, **more: Any) -> str:
        """`path` with the time-travel parameters (and `more`) kept."""
        return f"{path}{self.query(**more)}"


NOW = TimeTravel()


def time_travel_of(params: Mapping[str, str]) -> TimeTravel:
    """The time travel a request's GET parameters ask for (InvalidTimeParameter when malformed)."""
    return TimeTravel(parse_as_of(params.get(AS_OF)), parse_known_at(params.get(KNOWN_AT)))


class TimeTravelMixin:
    """A page or export that reads `?as_of=` and `?known_at=`: `self.time_travel` (parsed once; a
    bad value raises InvalidTimeParameter, a 400 with its message), and in the template context
    `time_travel` (its `query()`/`url()` keep the parameters on links) and the picker's values."""

    request: HttpRequest

    @property
    def time_travel(self) -> TimeTravel:
        held = getattr(self, "_time_travel", None)
        if held is None:
            held = time_travel_of(self.request.GET)
            self._time_travel = held
        return held

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)  # type: ignore[misc]
        context["time_travel"] = self.time_travel
        return context
