"""What the document repository returns: aggregates of entities read together, and an entity
as read for a write (with the token of the write that made it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Generic, TypeVar

from fundportal.domain.kinds import POSITION_KINDS, Kind
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import PositionEntry

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Loaded(Generic[T]):
    """An entity as read for a write (None if missing), the token of the write that made it and
    the hash of what that write asked for."""

    entity: T | None
    token: str | None = None
    request_hash: str | None = None


@dataclass(slots=True)
class PositionInDocument:
    """One position's entries in one document (any kind may be missing)."""

    document_id: str
    position_id: str
    by_kind: dict[Kind, PositionEntry] = field(default_factory=dict)

    def get(self, kind: Kind) -> PositionEntry | None:
        return self.by_kind.get(kind)

    @property
    def entries(self) -> list[PositionEntry]:
        return [self.by_kind[kind] for kind in POSITION_KINDS if kind in self.by_kind]


@dataclass(slots=True)
class DocumentOverview:
    """Everything a document's partition holds, from one Query (pattern 1)."""

    document: Document
    capital_activity: CapitalActivity | None = None
    document_history: list[Document] = field(default_factory=list)
    activity_history: list[CapitalActivity] = field(default_factory=list)
    positions: list[PositionInDocument] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class DocumentSummary:
    """A row of the document list (from the month index projection)."""

    document_id: str
    title: str
    fund_id: str
    as_of_date: date
    status: str
    revision: int
    currency: str

    @classmethod
    def of(cls, document: Document) -> DocumentSummary:
        """The row of a current document from the month index (which holds only dated documents)."""
        if document.as_of_date is None:
            raise ValueError(f"document {document.document_id!r} has no as-of date: it is in no month")
        return cls(
            document_id=document.document_id,
            title=document.title,
            fund_id=document.fund_id,
            as_of_date=document.as_of_date,
            status=document.status,
            revision=document.revision,
            currency=document.currency,
        )
