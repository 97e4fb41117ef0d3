"""Entries as written before they copied their document's title and type (a table to backfill)."""

from __future__ import annotations

from fundportal.store.gateway import EXISTS, TableGateway
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories.documents import DocumentRepository


def strip_copies(table: str, document_id: str) -> int:
    """Remove `DocumentTitle` and `DocumentType` from every entry of `document_id`; how many."""
    gateway = TableGateway(table)
    entries = DocumentRepository(gateway).entries_of(document_id)
    for entry in entries:
        item = to_item(entry)
        names = {"#title": "DocumentTitle", "#type": "DocumentType"}
        gateway.update((item["PK"], item["SK"]), "REMOVE #title, #type", EXISTS, names, {})
    return len(entries)
