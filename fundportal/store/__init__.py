"""The project's data layer over boto3: one table, single-table design (see DESIGN.md).

gateway (requests) ← repositories (access patterns, entities in and out) ← the apps'
services (writes) and selectors (reads). The entities and the errors the business raises are
the domain's (`fundportal.domain`); the store's own errors (transport) are in `errors`.
"""

from .errors import DataLayerError, StoreUnavailable, UnprocessedItems

__all__ = ["DataLayerError", "StoreUnavailable", "UnprocessedItems"]
