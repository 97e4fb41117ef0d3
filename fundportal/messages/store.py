"""The wording of the store's transport: DynamoDB unavailable, refused or cancelled requests."""

from __future__ import annotations

from fundportal.store.errors import (
    ConditionFailed,
    DataLayerError,
    StoreUnavailable,
    TableInUse,
    TransactionCancelled,
    UnprocessedItems,
)
from fundportal.store.uow import RegisterChanged

from .dispatch import describe


@describe.register
def _(error: DataLayerError) -> str:
    return "The fund data could not be processed."


@describe.register
def _(error: RegisterChanged) -> str:
    return "The position changed meanwhile; reload and try again."


@describe.register
def _(error: StoreUnavailable) -> str:
    return f"DynamoDB is unavailable: {error.reason}"


@describe.register
def _(error: UnprocessedItems) -> str:
    return f"{error.count} items were still unprocessed after all retries."


@describe.register
def _(error: TableInUse) -> str:
    return "The table already exists or is being changed."


@describe.register
def _(error: ConditionFailed) -> str:
    return "The item was not as expected; nothing was written."


@describe.register
def _(error: TransactionCancelled) -> str:
    return "The change was not applied; nothing was written."
