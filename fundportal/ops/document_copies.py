"""The backfill step of the entries' copies of their document's title and type (`DocumentTitle`,
`DocumentType`, `position_entries.of_document`): an entry written before the copies existed, or
left stale, gets them from its current document. Run by `backfill_indexes` on every item it
scans; idempotent (an entry already holding its document's copies is left alone)."""

from __future__ import annotations

import threading
from typing import Any

from fundportal.domain.errors import NotFound
from fundportal.domain.model import Document
from fundportal.domain.position_entries import PositionEntry
from fundportal.store.errors import ConditionFailed
from fundportal.store.gateway import Condition, TableGateway
from fundportal.store.mapping.document_maps import DOCUMENT_TITLE_COPY, DOCUMENT_TYPE_COPY, document_copies
from fundportal.store.mapping.entities import entity_from_item
from fundportal.store.repositories.documents import DocumentRepository

COPY_ATTRIBUTES = (DOCUMENT_TITLE_COPY, DOCUMENT_TYPE_COPY)


class DocumentCopies:
    """Fills entries' copies from their documents, each document read once a run (GetItem)."""

    def __init__(self, gateway: TableGateway) -> None:
        self.gateway = gateway
        self.documents = DocumentRepository(gateway)
        self._found: dict[str, Document | None] = {}
        self._lock = threading.Lock()

    def document(self, document_id: str) -> Document | None:
        """The current document (None: none, an entry left behind), read once a run."""
        with self._lock:
            if document_id in self._found:
                return self._found[document_id]
        try:
            found: Document | None = self.documents.get(document_id)
        except NotFound:
            found = None
        with self._lock:
            self._found[document_id] = found
        return found

    def fill(self, item: dict[str, Any]) -> bool | None:
        """Write `item`'s copies when it is an entry whose copies differ from its document's:
        True when written, False when left (up to date, no document, or changed meanwhile: a
        concurrent write set them), None when the item is no entry."""
        try:
            entity = entity_from_item(item)
        except (KeyError, ValueError):
            return None
        if not isinstance(entity, PositionEntry):
            return None
        document = self.document(entity.document_id)
        if document is None:
            return False
        wanted = document_copies(document)
        if all(item.get(name) == value for name, value in wanted.items()):
            return False
        names = {f"#c{n}": name for n, name in enumerate(COPY_ATTRIBUTES)}
        values: dict[str, Any] = {f":c{n}": wanted[name] for n, name in enumerate(COPY_ATTRIBUTES)}
        conditions = ["attribute_exists(PK)"]
        for n, name in enumerate(COPY_ATTRIBUTES):  # the copies as read: a concurrent refresh wins
            if item.get(name) is None:
                conditions.append(f"attribute_not_exists(#c{n})")
            else:
                values[f":old{n}"] = item[name]
                conditions.append(f"#c{n} = :old{n}")
        update = "SET " + ", ".join(f"#c{n} = :c{n}" for n in range(len(COPY_ATTRIBUTES)))
        try:
            self.gateway.update((item["PK"], item["SK"]), update, Condition(" AND ".join(conditions)), names, values)
        except ConditionFailed:
            return False
        return True
