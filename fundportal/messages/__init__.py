"""What a user reads when something goes wrong: the one place an error becomes words.

Errors carry data only (`fundportal.domain.errors`, `fundportal.store.errors`); middleware,
views, forms, admin and commands show `describe(error)`. The most specific registered class of
an error chooses its wording. Each area module registers the wording of its errors with the one
dispatcher (`dispatch.describe`); importing this package registers them all, so callers import
`describe` and `explain_flag` from here, never from an area module.
"""

from __future__ import annotations

from . import access, common, dates, documents, imports, positions, records, store  # noqa: F401 - registers each area's wording
from .dispatch import describe
from .flags import explain_flag

__all__ = ["describe", "explain_flag"]
