"""`?as_of=` and `?known_at=` on the read API: declared as plain strings (so the OpenAPI schema
names them) and parsed by the pages' own parser (`fundportal.web.time_travel`), so a bad value
is the same 400 with the same words as on the page (`api.problems` names the field)."""

from __future__ import annotations

from typing import Any

from ninja import Query

from fundportal.web.time_travel import AS_OF, KNOWN_AT, TimeTravel, time_travel_of

AsOf: Any = Query(
    None,
    max_length=64,
    description="value every figure as of this date, YYYY-MM-DD (default: today)",
    example="2025-09-30",
)
KnownAt: Any = Query(
    None,
    max_length=64,
    description=(
        "show the figures as the portal knew them at this moment: an ISO date (the end of that day, "
        "UTC) or date-time (no offset: UTC); the date figures are valued at is then its day unless "
        "`as_of` is given (default: now)"
    ),
    example="2025-10-15T12:00:00Z",
)


def travel_of(as_of: str | None, known_at: str | None) -> TimeTravel:
    """The time travel an endpoint's `as_of` and `known_at` ask for, exactly as a page reads it
    (InvalidTimeParameter when malformed or out of range)."""
    return time_travel_of({AS_OF: as_of or "", KNOWN_AT: known_at or ""})
