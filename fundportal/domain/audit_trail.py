"""The audit trail as plain values: who changed what in a document (or a position), and when,
and the field-by-field changes an audit entry records."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """Who changed what in a document, and when; `token` tells apart two changes in one instant.
    The audit of a position-level write (commitment) names its position instead of a document."""

    document_id: str | None = None
    at: datetime | None = None
    user: str = ""
    action: str = ""
    target: str = ""
    changes: dict[str, Any] | None = None
    token: str = ""
    position_id: str | None = None


def jsonable(value: Any) -> Any:
    """An audit value as kept: dates as ISO strings, Decimals kept, pairs as [old, new] lists."""
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def diff(old: Any, new: Any, names: tuple[str, ...]) -> dict[str, list[Any]]:
    """Field-by-field changes between two entities: {field: [old, new]}."""
    changes = {}
    for name in names:
        before = getattr(old, name, None) if old is not None else None
        after = getattr(new, name, None) if new is not None else None
        if before != after:
            changes[name] = [jsonable(before), jsonable(after)]
    return changes
