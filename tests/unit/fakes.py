"""In-memory stand-ins for `DocumentRepository` and `PositionRepository`: entities in and out,
the same errors and write conditions as the real ones, no DynamoDB. `writes` counts the
transactions that landed (a retried write that is answered from the stored token adds none)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

from fundportal.domain.errors import AlreadyExists, NotFound
from fundportal.domain.kinds import Kind, parse_version_id
from fundportal.domain.model import AuditEntry, CapitalActivity, Document, PositionEntry, PositionRegister
from fundportal.dynamo import keys
from fundportal.dynamo.errors import TransactionCancelled
from fundportal.dynamo.gateway import check_size
from fundportal.dynamo.mapping import sort_key, to_item
from fundportal.dynamo.repositories import Loaded, PositionPage
from fundportal.dynamo.repositories.documents import (
    ENTRY_SEEN_ATTRIBUTES,
    DocumentOverview,
    DocumentSummary,
    PositionInDocument,
)
from fundportal.dynamo.repositories.register import RegisterChanged

EntryKey = tuple[str, Kind, str]  # (document id, kind, position id)


def _cancelled(index: int, size: int) -> TransactionCancelled:
    return TransactionCancelled(["ConditionalCheckFailed" if i == index else "None" for i in range(size)])


def _seen(entry: PositionEntry) -> dict[str, Any]:
    """What the real write condition compares: the attributes the entry was read with."""
    item = to_item(entry)
    return {attribute: item.get(attribute) for attribute in ENTRY_SEEN_ATTRIBUTES}


class FakeDocumentRepository:
    def __init__(self) -> None:
        self.documents: dict[str, Document] = {}
        self.document_tokens: dict[str, str | None] = {}
        self.activities: dict[str, CapitalActivity] = {}
        self.archived: dict[str, list[Any]] = {}  # superseded documents and activities
        self.entries: dict[EntryKey, PositionEntry] = {}
        self.entry_tokens: dict[EntryKey, str | None] = {}
        self.hashes: dict[Any, str | None] = {}  # (document id) or EntryKey -> RequestHash
        self.audits: dict[str, list[AuditEntry]] = {}
        self.month_catalog: set[str] = set()
        self.registers: dict[str, PositionRegister] = {}  # the position register (issue 13)
        self.writes = 0

    # --- test set-up (no audit, like a bulk load) ---

    def add(self, document: Document, activity: CapitalActivity | None = None, entries: tuple = ()) -> None:
        self.documents[document.document_id] = document
        if activity is not None:
            self.activities[document.document_id] = activity
        for entry in entries:
            self.entries[(entry.document_id, entry.kind, entry.position_id)] = entry
        if document.as_of_date:
            self.month_catalog.add(keys.month_catalog_keys(document.as_of_date)[1])

    # --- reads ---

    def get(self, document_id: str, *, consistent: bool = False) -> Document:
        if keys.document_pk(document_id) not in self.documents:  # InvalidId first, as the real one
            raise NotFound("Document", document_id)
        return self.documents[document_id]

    def entry(self, document_id: str, kind: Kind, position_id: str, *, consistent: bool = False) -> PositionEntry:
        keys.document_pk(document_id), keys.entry_sk(kind, position_id)  # InvalidId, as the real one
        found = self.entries.get((document_id, kind, position_id))
        if found is None:
            raise NotFound(kind.entity_type, f"{position_id} in {document_id}")
        return found

    def _rows(self, document_id: str) -> dict[str, PositionInDocument]:
        rows: dict[str, PositionInDocument] = {}
        for (doc, kind, position), entry in self.entries.items():
            if doc == document_id:
                rows.setdefault(position, PositionInDocument(document_id, position)).by_kind[kind] = entry
        return rows

    def overview(self, document_id: str) -> DocumentOverview:
        document = self.get(document_id)
        archived = sorted(self.archived.get(document_id, []), key=sort_key, reverse=True)
        rows = self._rows(document_id)
        return DocumentOverview(
            document=document,
            capital_activity=self.activities.get(document_id),
            document_history=[v for v in archived if isinstance(v, Document)],
            activity_history=[v for v in archived if isinstance(v, CapitalActivity)],
            positions=[rows[p] for p in sorted(rows)],
        )

    def position_in_document(self, document_id: str, position_id: str) -> PositionInDocument:
        row = self._rows(document_id).get(position_id)
        if row is None:
            raise NotFound("Position in document", f"{position_id} in {document_id}")
        return row

    def versions(
        self, document_id: str, start: date | None = None, end: date | None = None, kind: Kind = Kind.DOCUMENT
    ) -> list[Any]:
        lo, hi = keys.history_range(kind, start, end)
        found = [v for v in self.archived.get(document_id, []) if lo <= sort_key(v) <= hi]
        return sorted(found, key=sort_key, reverse=True)

    def all_versions(self, document_id: str) -> tuple[Document, list[Document]]:
        return self.get(document_id), self.versions(document_id)

    def version(self, document_id: str, version: str) -> Document:
        sk = keys.historical_sk(Kind.DOCUMENT, *parse_version_id(version))
        for archived in self.archived.get(document_id, []):
            if sort_key(archived) == sk:
                return archived
        raise NotFound("Document version", f"{document_id} {version}")

    def months(self) -> list[str]:
        return sorted(self.month_catalog, reverse=True)

    def in_month(self, year: int, month: int, *, newest_first: bool = True) -> list[DocumentSummary]:
        found = [
            d
            for d in self.documents.values()
            if d.as_of_date and (d.as_of_date.year, d.as_of_date.month) == (year, month)
        ]
        found.sort(key=lambda d: (d.as_of_date, d.document_id), reverse=newest_first)
        return [
            DocumentSummary(d.document_id, d.title, d.fund_id, d.as_of_date, d.status, d.revision, d.currency)
            for d in found
        ]

    def audit_trail(self, document_id: str, limit: int = 50) -> list[AuditEntry]:
        trail = sorted(self.audits.get(document_id, []), key=lambda a: (a.at, a.token), reverse=True)
        return trail[:limit]

    def check(self, entity: Any) -> None:
        check_size(to_item(entity))

    def load_for_restatement(self, document_id: str) -> tuple[Loaded[Document], CapitalActivity | None]:
        document = self.documents.get(document_id)
        loaded = (
            Loaded(document, self.document_tokens.get(document_id), self.hashes.get(document_id))
            if document
            else Loaded(None)
        )
        return loaded, self.activities.get(document_id)

    def load_for_entry(self, document_id: str, kind: Kind, position_id: str) -> tuple[Document, Loaded[PositionEntry]]:
        document = self.get(document_id)
        key = (document_id, kind, position_id)
        entry = self.entries.get(key)
        return document, Loaded(entry, self.entry_tokens.get(key), self.hashes.get(key)) if entry else Loaded(None)

    def load_for_entry_with_register(
        self, document_id: str, kind: Kind, position_id: str
    ) -> tuple[Document, Loaded[PositionEntry], PositionRegister | None]:
        document, loaded = self.load_for_entry(document_id, kind, position_id)
        return document, loaded, self.registers.get(position_id)

    def position_entries(self, position_id: str, kind: Kind) -> list[PositionEntry]:
        return [e for (_, k, p), e in self.entries.items() if p == position_id and k is kind]

    def _register_condition(self, register: Any) -> None:
        """The register's condition (issue 13): still at the revision read, else RegisterChanged."""
        if register is None:
            return
        stored = self.registers.get(register.register.position_id)
        if (stored.revision if stored else 0) != register.seen_revision:
            raise RegisterChanged()

    # --- writes (all-or-nothing, like a transaction) ---

    def _audit(self, audit: AuditEntry) -> None:
        self.audits.setdefault(audit.document_id, []).append(replace(audit, at=datetime.now(UTC)))
        self.writes += 1

    def create(
        self, document: Document, activity: CapitalActivity | None, audit: AuditEntry, request_hash: str | None = None
    ) -> None:
        if document.document_id in self.documents:
            raise AlreadyExists("Document", document.document_id)
        self.add(document, activity)
        self.document_tokens[document.document_id] = audit.token
        self.hashes[document.document_id] = request_hash
        self._audit(audit)

    def publish_restatement(
        self,
        document: Document,
        archived: Document,
        expected_revision: int,
        audit: AuditEntry,
        activity: CapitalActivity | None = None,
        archived_activity: CapitalActivity | None = None,
        request_hash: str | None = None,
    ) -> None:
        size = 3 + (activity is not None) + (archived_activity is not None)
        current = self.documents.get(document.document_id)
        if current is None or current.revision != expected_revision:
            raise _cancelled(0, size)
        history = self.archived.setdefault(document.document_id, [])
        if any(sort_key(v) == sort_key(archived) for v in history):
            raise _cancelled(1, size)
        if archived_activity is not None and any(sort_key(v) == sort_key(archived_activity) for v in history):
            raise _cancelled(size - 2, size)
        self.documents[document.document_id] = document
        self.document_tokens[document.document_id] = audit.token
        self.hashes[document.document_id] = request_hash
        history.append(archived)
        if activity is not None:
            self.activities[document.document_id] = activity
        if archived_activity is not None:
            history.append(archived_activity)
        self._audit(audit)

    def _entry_condition(self, document_id: str, key: EntryKey, previous: PositionEntry | None) -> None:
        if document_id not in self.documents:
            raise NotFound("Document", document_id)
        stored = self.entries.get(key)
        if (stored is None) != (previous is None) or (stored and _seen(stored) != _seen(previous)):
            raise _cancelled(1, 3)

    def write_entry(
        self,
        entry: PositionEntry,
        previous: PositionEntry | None,
        audit: AuditEntry,
        request_hash: str | None = None,
        register: Any = None,
        client_token: str | None = None,
    ) -> None:
        key = (entry.document_id, entry.kind, entry.position_id)
        self._entry_condition(entry.document_id, key, previous)
        self._register_condition(register)
        if register is not None:
            self.registers[entry.position_id] = register.register
        self.entries[key] = entry
        self.entry_tokens[key] = audit.token
        self.hashes[key] = request_hash
        self._audit(audit)

    def remove_entry(
        self, entry: PositionEntry, audit: AuditEntry, register: Any = None, client_token: str | None = None
    ) -> None:
        key = (entry.document_id, entry.kind, entry.position_id)
        self._entry_condition(entry.document_id, key, entry)
        self._register_condition(register)
        if register is not None:
            self.registers[entry.position_id] = register.register
        del self.entries[key]
        self.entry_tokens.pop(key, None)
        self._audit(audit)


class FakePositionRepository:
    """The position index over a FakeDocumentRepository's entries, sorted as GSI2_SK (kind#document)."""

    def __init__(self, documents: FakeDocumentRepository) -> None:
        self.documents = documents

    def entries(self, position_id: str, kind: Kind | None = None) -> list[PositionEntry]:
        keys.position_index_pk(position_id)  # InvalidId, as the real one
        found = [
            e for (_, k, p), e in self.documents.entries.items() if p == position_id and (kind is None or k is kind)
        ]
        return sorted(found, key=lambda e: (e.kind.value, e.document_id))

    def page(
        self, position_id: str, kind: Kind | None = None, cursor: str | None = None, limit: int | None = None
    ) -> PositionPage:
        """One page holding everything (no next page); a cursor is not supported."""
        if cursor is not None:
            raise NotImplementedError("FakePositionRepository has a single page")
        entries = self.entries(position_id, kind)
        return PositionPage(position_id, kind, entries[:limit] if limit else entries, {}, None)
