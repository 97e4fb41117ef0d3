"""The project's data layer over boto3: one table, single-table design (see DESIGN.md).

gateway (requests) ← repositories (access patterns, entities in and out) ← the apps'
services (writes) and selectors (reads).
"""

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

__all__ = [
    "AlreadyExists",
    "BadCursor",
    "Conflict",
    "DataLayerError",
    "InvalidId",
    "ItemTooLarge",
    "NotFound",
    "StoreUnavailable",
    "UnprocessedItems",
]
