"""A document page at any size: the whole partition when it is short (today's one Query), else
100 positions at a time from `GSI_Document_Position`, where a document's current items sit
grouped by position (GSI5_SK = <position>#<kind>, the document and its capital activity first).

Requests per view:
- a short document (its partition fits `PROBE_ITEMS` items): one Query of the partition;
- a long one, first page: that Query (cut at `PROBE_ITEMS`) + one Query of the page index;
- a long one, any other page: one Query of the page index + one BatchGetItem of the document
  and its capital activity.
Each Query reads at most `PROBE_ITEMS` or `page_items()` items, whatever the document's size.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import POSITION_KINDS, STATEMENT_KINDS, Kind
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import PositionEntry

from ..gateway import TableGateway
from ..mapping import keys
from ..mapping.entities import entity_from_item, from_item
from ..schema import DOCUMENT_INDEX, TABLE
from .document_models import DocumentOverview, PositionInDocument
from .documents import overview_of

_INDEX = TABLE.index(DOCUMENT_INDEX)
PAGE_POSITIONS = 100
# A short document: its whole partition (100 positions with every kind, the document, its
# capital activity and about a hundred superseded copies) in the first Query.
PROBE_ITEMS = 500


# The kinds a page's read is sized by: the seed's three and NAV, plus one capital account entry
# (fee, expense, gain, carry) a position on average. A page whose positions hold more reads the
# same items and shows fewer positions (its last, maybe partly read, opens the next page) instead
# of every page reading all nine kinds' worth of items.
SIZING_KINDS = POSITION_KINDS.index(STATEMENT_KINDS[0])


def page_items(positions: int = PAGE_POSITIONS) -> int:
    """Items a page Query reads: every seed kind and NAV of `positions` + 1 positions and one
    more item a position, so the first item of the position after the page is seen unless the
    page holds more of the capital account's kinds."""
    return (positions + 1) * SIZING_KINDS + positions


@dataclass(slots=True)
class PositionsPage:
    """Up to `PAGE_POSITIONS` positions of a long document, in id order, and whether positions
    come before or after them."""

    document: Document
    capital_activity: CapitalActivity | None
    positions: list[PositionInDocument] = field(default_factory=list)
    more_before: bool = False
    more_after: bool = False


class DocumentPageRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    def short_overview(self, document_id: str) -> DocumentOverview | None:
        """The whole document from one Query of at most `PROBE_ITEMS` items (pattern 1), or None
        when its partition holds more (a long document: read it by pages). NotFound if absent."""
        pk = keys.document_pk(document_id)
        page = self.gateway.query_page("PK = :pk", {":pk": pk}, limit=PROBE_ITEMS)
        if page.last_key is not None:
            return None
        return overview_of(document_id, page.items)

    def positions_page(
        self,
        document_id: str,
        *,
        after: str | None = None,
        before: str | None = None,
        positions: int = PAGE_POSITIONS,
    ) -> PositionsPage:
        """The `positions` positions after `after` (or before `before`; the first ones without
        either) and the document's header: one Query of the page index, plus one BatchGetItem of
        the document and its capital activity when the page is not the first."""
        pk = keys.document_pk(document_id)
        condition = f"{_INDEX.pk} = :pk"
        values = {":pk": pk}
        if after is not None:
            condition += f" AND {_INDEX.sk} BETWEEN :lo AND :hi"
            values.update({":lo": keys.document_index_after(after), ":hi": keys.DOCUMENT_ENTRIES_HIGH})
        elif before is not None:
            condition += f" AND {_INDEX.sk} BETWEEN :lo AND :hi"
            values.update({":lo": keys.DOCUMENT_ENTRIES_LOW, ":hi": keys.document_index_before(before)})
        first = after is None and before is None
        limit = page_items(positions) + (2 if first else 0)
        page = self.gateway.query_page(condition, values, index=DOCUMENT_INDEX, limit=limit, forward=before is None)
        document, activity, rows = _group(document_id, page.items)
        if page.last_key is not None and len(rows) <= positions and len(rows) > 1:
            rows.pop()  # the Query may have stopped inside it: it opens the next page whole
        beyond = len(rows) > positions or page.last_key is not None
        rows = rows[:positions]
        if before is not None:
            rows.reverse()
        if not first:
            document, activity = self.header(document_id)
        if document is None:
            raise NotFound("Document", document_id)
        return PositionsPage(
            document=document,
            capital_activity=activity,
            positions=rows,
            more_before=beyond if before is not None else not first,
            more_after=beyond if before is None else True,
        )

    def all_positions(self, document_id: str) -> Iterator[PositionInDocument]:
        """Every position of the document in id order, page by page of the page index (1 MB
        Query pages): an export streams them without holding the document."""
        condition = f"{_INDEX.pk} = :pk AND {_INDEX.sk} BETWEEN :lo AND :hi"
        values = {
            ":pk": keys.document_pk(document_id),
            ":lo": keys.DOCUMENT_ENTRIES_LOW,
            ":hi": keys.DOCUMENT_ENTRIES_HIGH,
        }
        row: PositionInDocument | None = None
        for item in self.gateway.query(condition, values, index=DOCUMENT_INDEX):
            entry = from_item(PositionEntry, item)
            if row is None or row.position_id != entry.position_id:
                if row is not None:
                    yield row
                row = PositionInDocument(document_id, entry.position_id)
            row.by_kind[entry.kind] = entry
        if row is not None:
            yield row

    def header(self, document_id: str) -> tuple[Document | None, CapitalActivity | None]:
        """The current document and capital activity (None when missing): one BatchGetItem."""
        pk = keys.document_pk(document_id)
        doc_key, activity_key = (pk, keys.latest_sk(Kind.DOCUMENT)), (pk, keys.latest_sk(Kind.CAPITAL_ACTIVITY))
        found = self.gateway.batch_get([doc_key, activity_key])
        document = from_item(Document, found[doc_key]) if doc_key in found else None
        activity = from_item(CapitalActivity, found[activity_key]) if activity_key in found else None
        return document, activity


def _group(
    document_id: str, items: Iterable[dict[str, Any]]
) -> tuple[Document | None, CapitalActivity | None, list[PositionInDocument]]:
    """The header items and the positions of a page Query's items, in the order read."""
    document = activity = None
    rows: list[PositionInDocument] = []
    for item in items:
        entity = entity_from_item(item)
        if isinstance(entity, Document):
            document = entity
        elif isinstance(entity, CapitalActivity):
            activity = entity
        else:
            if not rows or rows[-1].position_id != entity.position_id:
                rows.append(PositionInDocument(document_id, entity.position_id))
            rows[-1].by_kind[entity.kind] = entity
    return document, activity, rows
