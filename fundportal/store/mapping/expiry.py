"""Which items expire, and when: DynamoDB's TTL deletes an item some time after the epoch second
in its `schema.TTL_ATTRIBUTE`. Only two kinds of item carry it; the seed's items never do.

- The access-pattern explainer's throwaway items (ids starting `kinds.THROWAWAY_PREFIX`): the
  explainer deletes them itself; the TTL removes them if it was killed first.
- Published import runs: a run record guards an import while it writes; once published it is
  kept `PUBLISHED_RUN_LIFETIME` (a register still listing its marker treats a run that is gone
  as published: only published runs expire). The import record (the file was published once)
  never expires.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fundportal.domain.kinds import is_throwaway

THROWAWAY_LIFETIME = timedelta(days=1)
PUBLISHED_RUN_LIFETIME = timedelta(days=90)


def epoch(at: datetime) -> int:
    """Whole epoch seconds of `at` (a naive time is taken as UTC)."""
    return int((at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp())


def throwaway_expiry(entity: Any, now: datetime | None = None) -> int | None:
    """When an explainer's throwaway entity expires (to the hour, so rebuilding its item in the
    same hour writes the same value), or None for every other entity."""
    ids = (getattr(entity, "document_id", None), getattr(entity, "position_id", None))
    if not any(is_throwaway(i) for i in ids):
        return None
    hour = (now or datetime.now(UTC)).replace(minute=0, second=0, microsecond=0)
    return epoch(hour + THROWAWAY_LIFETIME)


def published_run_expiry(started_at: datetime) -> int:
    """When a published import run expires: a fixed time after its start, so every run of the
    same file writes the same item."""
    return epoch(started_at + PUBLISHED_RUN_LIFETIME)
