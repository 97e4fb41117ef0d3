"""When a document's values were approved: the position register keeps, per counted document,
each approval as a window (`Approval`): the values set from `since` (None: any time before; the
document's first approval) up to `at` count from `at`. A restatement's approval keeps the windows
before it, so the first approval time is kept. A document approved before these were kept has
only the windows of its later restatements (its values before them count as their times say)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Approval:
    """One approval of a document: the values set from `since` (None: ever) until `at` count
    from `at`."""

    since: datetime | None
    at: datetime

    def covers(self, set_at: datetime | None) -> bool:
        """Whether a value set at `set_at` (None: unknown, the earliest) waited for this approval."""
        if set_at is None:
            return self.since is None
        return (self.since is None or self.since <= set_at) and set_at <= self.at


Approvals = tuple[Approval, ...]  # oldest first


def approved_again(approvals: Approvals, at: datetime, since: datetime | None) -> Approvals:
    """The approvals after one at `at` of the values set from `since` (None: a first approval)."""
    return (*approvals, Approval(since, at))


def first_approved_at(approvals: Sequence[Approval]) -> datetime | None:
    """When the document was first approved (None: not known, before times were kept)."""
    return next((a.at for a in approvals if a.since is None), None)


def counted_from(set_at: datetime | None, approvals: Sequence[Approval]) -> datetime | None:
    """When a value set at `set_at` (None: unknown) starts to count: the first approval it waited
    for, else its own time (None: always)."""
    for approval in approvals:
        if approval.covers(set_at):
            return approval.at
    return set_at
