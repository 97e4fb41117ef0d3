"""What a register write costs a transaction and how it is retried when a register moved between
the read and the write (`RegisterChanged`, `when_registers_move`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from . import gateway as table_gateway
from .errors import DataLayerError
from .repositories.summaries import shard_count

T = TypeVar("T")

REGISTER_ATTEMPTS = 8  # a write re-read and retried at most this many times when a register moved
REGISTER_ACTIONS = 2  # a register's put (or delete) and the version it keeps of what it replaced


def summary_actions() -> int:
    """The most fund-summary updates a transaction adds (one per shard of a fund): room a caller
    packing a transaction near the 100-action limit keeps free."""
    return shard_count()


class RegisterChanged(DataLayerError):
    """A position register moved between our read and our write (another writer's entry landed
    first): re-read and recompute (`UnitOfWork.run` does, bounded)."""

    def __init__(self, positions: tuple[str, ...] = ()) -> None:
        self.positions = positions  # the positions whose registers moved
        super().__init__(f"position registers moved: {', '.join(positions) or 'unnamed'}")


def when_registers_move(
    write: Callable[[], T], reread: Callable[[tuple[str, ...]], None] | None = None, attempts: int = REGISTER_ATTEMPTS
) -> T:
    """`write()`; when it raises RegisterChanged, `reread(moved positions)` and write again after a
    backoff, at most `attempts` times in all."""
    for attempt in range(attempts):
        try:
            return write()
        except RegisterChanged as moved:
            if attempt == attempts - 1:
                raise
            if reread is not None:
                reread(moved.positions)
            table_gateway.backoff(attempt)
    raise AssertionError("unreachable")
