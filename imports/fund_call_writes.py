"""Where a fund call's notice is written: the notice import's repository with one change, the
entries of the new document (and the search items of positions new to the table) go in by
transactions of at most 100 items through the unit of work instead of BatchWriteItem.

A fund call is confirmed on a page and written while it is served, by the web role, which writes
only in transactions (`fundportal.store.roles`); a notice holds one entry per LP, a few
transactions. The writes are the same unconditional puts, stamped with the import's token, so the
import's order and its re-run rules hold unchanged (`imports.services`, `imports.writing`):
entries first, then the registers in conditioned transactions, then one publishing transaction."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fundportal.domain.position_entries import PositionEntry
from fundportal.store.repositories.imports import MAX_TRANSACTION_ITEMS, ImportRepository
from fundportal.store.uow import ImportUnitOfWork


class TransactionalImportRepository(ImportRepository):
    def put_entries(
        self,
        entries: Iterable[PositionEntry],
        token: str,
        extra: Iterable[dict[str, Any]] = (),
        workers: int = 1,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """The entries stamped with the import's token and the `extra` constant items, in
        transactions of at most `MAX_TRANSACTION_ITEMS` (unconditional, like the batch they replace)."""
        items: list[Any] = [*entries, *extra]
        for start in range(0, len(items), MAX_TRANSACTION_ITEMS):
            uow = ImportUnitOfWork(self.gateway)
            uow.request(token)
            with uow:
                for item in items[start : start + MAX_TRANSACTION_ITEMS]:
                    entry = isinstance(item, PositionEntry)
                    uow.put(item, name="entry" if entry else "search item", stamped=entry)
                uow.commit()
            if progress:
                progress(min(len(items) - start, MAX_TRANSACTION_ITEMS))
        return len(items)
