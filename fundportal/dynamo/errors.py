"""Typed errors of the data layer. Nothing outside the data layer sees a botocore exception."""

from __future__ import annotations

from datetime import datetime


class DataLayerError(Exception):
    """Base class of every error the data layer raises."""

    user_message = "The fund data could not be processed."

    def __str__(self) -> str:
        return self.user_message


class InvalidId(DataLayerError, ValueError):
    """An id (document, position, fund, investor, month...) is malformed."""

    def __init__(self, what: str, value: object) -> None:
        self.what = what
        self.value = value
        shown = repr(value) if not isinstance(value, str) else f"'{value[:80]}'"
        self.user_message = (
            f"Invalid {what} {shown}: use 1-64 letters, digits, '_', '-' or '.' (not only dots)"
            if what.endswith("id")
            else f"Invalid {what} {shown}."
        )
        super().__init__(self.user_message)


class NotFound(DataLayerError, LookupError):
    def __init__(self, what: str, key: str) -> None:
        self.what = what
        self.key = key
        self.user_message = f"{what} '{key}' was not found."
        super().__init__(self.user_message)


class AlreadyExists(DataLayerError):
    def __init__(self, what: str, key: str) -> None:
        self.what = what
        self.key = key
        self.user_message = f"{what} '{key}' already exists."
        super().__init__(self.user_message)


class Conflict(DataLayerError):
    """An optimistic-lock check failed: someone else changed the item first."""

    def __init__(
        self,
        what: str,
        key: str,
        expected_revision: int | None,
        current_revision: int | None,
        updated_by: str | None = None,
        updated_at: datetime | None = None,
    ) -> None:
        self.what = what
        self.key = key
        self.expected_revision = expected_revision
        self.current_revision = current_revision
        self.updated_by = updated_by
        self.updated_at = updated_at
        who = f" by {updated_by}" if updated_by else ""
        when = f" at {updated_at:%Y-%m-%d %H:%M:%S} UTC" if updated_at else ""
        revisions = (
            f" (now revision {current_revision}, you loaded revision {expected_revision})"
            if expected_revision is not None
            else ""
        )
        self.user_message = f"{what} '{key}' was changed{who}{when}{revisions}. Reload and apply your change again."
        super().__init__(self.user_message)


class BadCursor(DataLayerError, ValueError):
    user_message = "The page link is invalid or belongs to another query."


class CursorExpired(BadCursor):
    """A signed page link older than `CURSOR_MAX_AGE`: its carried totals may be stale."""

    user_message = "This page link has expired; start again from the first page."


class ItemTooLarge(DataLayerError, ValueError):
    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        self.user_message = f"The item is {size:,} bytes; DynamoDB accepts at most {limit:,} bytes per item."
        super().__init__(self.user_message)


class StoreUnavailable(DataLayerError):
    """DynamoDB could not be reached, or kept throttling after the configured retries."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.user_message = f"DynamoDB is unavailable: {reason}"
        super().__init__(self.user_message)


class UnprocessedItems(DataLayerError):
    """A bulk write left items unwritten after every retry (never silently dropped)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.user_message = f"{count} items were still unprocessed after all retries."
        super().__init__(self.user_message)


class TableMissing(StoreUnavailable):
    """The table (or an index) does not exist."""

    def __init__(self, table: str) -> None:
        self.table = table
        super().__init__(f"table '{table}' does not exist (run manage.py create_table)")


class TableInUse(DataLayerError):
    """CreateTable/DeleteTable on a table that is being created or already exists."""

    user_message = "The table already exists or is being changed."


class ConditionFailed(DataLayerError):
    """A single conditional write (PutItem/UpdateItem/DeleteItem) failed its condition."""

    user_message = "The item was not as expected; nothing was written."


class TransactionCancelled(DataLayerError):
    """TransactWriteItems was cancelled; `reasons` holds one code per action ('None' = fine),
    which the unit of work (`uow`) ties to its named actions."""

    user_message = "The change was not applied; nothing was written."

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


class IdempotencyMismatch(DataLayerError):
    """A ClientRequestToken was reused with different parameters within DynamoDB's 10 minutes."""

    user_message = "This form was already submitted with other values; reload and try again."


class RequestRejected(DataLayerError):
    """DynamoDB refused the request (validation and the like): a bug on our side, logged."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(f"{code}: {message}")
