"""Typed errors of the store's transport: DynamoDB unreachable, a table missing, a request
refused or cancelled. Nothing outside the data layer sees a botocore exception. The errors the
business raises (not found, conflict, invalid id...) are the domain's (`fundportal.domain.errors`);
what a user reads of either is chosen by `fundportal.messages.describe`."""

from __future__ import annotations


class DataLayerError(Exception):
    """Base class of every transport error the data layer raises."""


class StoreUnavailable(DataLayerError):
    """DynamoDB could not be reached, or kept throttling after the configured retries."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"DynamoDB is unavailable: {reason}")


class UnprocessedItems(DataLayerError):
    """A bulk write left items unwritten after every retry (never silently dropped)."""

    def __init__(self, count: int) -> None:
        self.count = count
        super().__init__(f"{count} items still unprocessed after all retries")


class TableMissing(StoreUnavailable):
    """The table (or an index) does not exist."""

    def __init__(self, table: str) -> None:
        self.table = table
        super().__init__(f"table '{table}' does not exist (run manage.py create_table)")


class TableInUse(DataLayerError):
    """CreateTable/DeleteTable on a table that is being created or already exists."""


class ConditionFailed(DataLayerError):
    """A single conditional write (PutItem/UpdateItem/DeleteItem) failed its condition."""


class TransactionCancelled(DataLayerError):
    """TransactWriteItems was cancelled; `reasons` holds one code per action ('None' = fine),
    which the unit of work (`uow`) ties to its named actions."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = reasons
        super().__init__(f"transaction cancelled: {reasons}")

    @property
    def condition_failed(self) -> bool:
        return "ConditionalCheckFailed" in self.reasons

    @property
    def conflicted(self) -> bool:
        """Another transaction held an item: worth retrying with the same token."""
        return "TransactionConflict" in self.reasons and not self.condition_failed


class RequestRejected(DataLayerError):
    """DynamoDB refused the request (validation and the like): a bug on our side, logged."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(f"{code}: {message}")
