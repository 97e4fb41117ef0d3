"""The project's data layer over boto3: one table, single-table design (see DESIGN.md)."""

from .errors import (
    AlreadyExists,
    BadCursor,
    Conflict,
    DataLayerError,
    InvalidId,
    ItemTooLarge,
    NotFound,
    StoreUnavailable,
    UnprocessedItems,
)
from .repository import FundRepository

__all__ = [
    "AlreadyExists",
    "BadCursor",
    "Conflict",
    "DataLayerError",
    "FundRepository",
    "InvalidId",
    "ItemTooLarge",
    "NotFound",
    "StoreUnavailable",
    "UnprocessedItems",
]
