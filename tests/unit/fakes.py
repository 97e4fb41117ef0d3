"""In-memory stand-ins: `FakeUnitOfWork` (the real unit's actions and request rules over a dict)
and the repositories' reads over that dict, with the same errors as the real ones, no DynamoDB.
`writes` counts the transactions that landed (a retried write answered from its token adds none)."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace
from typing import Any

from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.errors import Conflict, NotFound
from fundportal.domain.kinds import Kind, SearchKind, parse_version_id
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import PositionEntry, with_document_copies
from fundportal.domain.position_register import PositionRegister
from fundportal.store.gateway import EXISTS, TableGateway, check_size
from fundportal.store.mapping import keys
from fundportal.store.mapping.companions import MonthCatalogEntry
from fundportal.store.mapping.entities import sort_key, to_item
from fundportal.store.repositories import Loaded, PositionPage
from fundportal.store.repositories.documents import DocumentOverview, DocumentSummary, PositionInDocument
from fundportal.store.uow import ANY, NEW, Action, Unchanged, UnitOfWork, describe

Stored = tuple[Any, str | None, str | None]  # (entity, RequestToken, RequestHash)


class FakeUnitOfWork(UnitOfWork):
    """A dict (`store.items`) and a flag: `commit` checks every action's expectation against the
    dict and applies all of them or none."""

    def __init__(self) -> None:
        super().__init__(TableGateway("fake"))  # builds no request: the actions are only collected
        self.store = self.documents = FakeDocumentRepository()
        self.registers = SimpleNamespace(get=self.store.register)
        self.spellings = SimpleNamespace(existing=self.store.spellings)

    def commit(self) -> None:
        for action in self.actions:
            if not self._holds(action):
                raise self._refusal(action, [action])
        for action in self.actions:
            if action.verb == "Put":
                stamp = (self.token, self.request_hash) if action.stamped else (None, None)
                self.store.items[action.key] = (action.entity, *stamp)
            elif action.verb == "Delete":
                del self.store.items[action.key]
            elif action.verb == "Update":  # an entry's copies of its document's title and type
                now, *stamp = self.store.items[action.key]
                copies = action.request["copies"]
                self.store.items[action.key] = (with_document_copies(now, copies), *stamp)
        self.store.writes += 1
        self.committed, self.actions = True, []

    def refresh_copies(self, entry: Any, document: Any, *, name: str, refused: Any = None) -> None:
        key = self._key(entry)
        self.actions.append(Action(name, "Update", entry, key, EXISTS, {"copies": document}, refused=refused))

    def _holds(self, action: Action) -> bool:
        now = self.store.items.get(action.key, (None,))[0]
        expect = action.expect
        if action.verb in ("ConditionCheck", "Update"):
            return now is not None
        if expect is ANY:
            return True
        if expect is NEW or (isinstance(expect, Unchanged) and expect.entity is None):
            return now is None
        if isinstance(expect, Unchanged):
            return now == expect.entity
        return now is not None and now.revision == expect

    def _conflict(self, action: Action) -> Conflict:
        now = self.store.items.get(action.key, (None,))[0]
        expected = action.expect.entity.revision if isinstance(action.expect, Unchanged) else action.expect
        what, key = describe(action.entity, action.key)
        if now is None:
            return Conflict(what, key, None, None)
        return Conflict(what, key, expected, now.revision, now.updated_by, now.updated_at)


class FakeDocumentRepository:
    """The reads of `DocumentRepository` and `RegisterRepository` over `items` ({(PK, SK): stored})."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], Stored] = {}
        self.writes = 0

    def _of(self, cls: type, latest: bool | None = None) -> list[Any]:
        found = [e for e, _, _ in self.items.values() if isinstance(e, cls)]
        return [e for e in found if latest is None or e.latest == latest]

    def _stored(self, entity: Any) -> Stored:
        item = to_item(entity)
        return self.items.get((item["PK"], item["SK"]), (None, None, None))

    # --- test set-up (no audit, like a bulk load) ---

    def add(self, document: Document, activity: CapitalActivity | None = None, entries: tuple = ()) -> None:
        month = (MonthCatalogEntry(document.as_of_date),) if document.as_of_date else ()
        for entity in (document, activity, *entries, *month):
            if entity is not None:
                item = to_item(entity)
                self.items[(item["PK"], item["SK"])] = (entity, None, None)

    # --- views the tests assert on ---

    @property
    def activities(self) -> dict[str, CapitalActivity]:
        return {a.document_id: a for a in self._of(CapitalActivity, latest=True)}

    @property
    def registers_by_position(self) -> dict[str, PositionRegister]:
        return {r.position_id: r for r in self._of(PositionRegister)}

    # --- reads ---

    def get(self, document_id: str, *, consistent: bool = False) -> Any:
        keys.document_pk(document_id)  # InvalidId first, as the real one
        found = [d for d in self._of(Document, latest=True) if d.document_id == document_id]
        if not found:
            raise NotFound("Document", document_id)
        return found[0]

    def leftover_entries(self, document_id: str) -> int:
        if any(d.document_id == document_id for d in self._of(Document, latest=True)):
            return 0
        return sum(1 for e in self._of(PositionEntry) if e.document_id == document_id)

    def spellings(self, ids: Any) -> dict[tuple[SearchKind, str], set[str]]:
        """`SpellingRepository.existing` over the stored documents, entries and registers."""
        held: list[tuple[SearchKind, str]] = []
        for document in self._of(Document, latest=True):
            held += [(SearchKind.DOCUMENT, document.document_id), (SearchKind.FUND, document.fund_id)]
        for entity in (*self._of(PositionEntry), *self._of(PositionRegister)):
            held += [(SearchKind.POSITION, entity.position_id), (SearchKind.INVESTOR, entity.investor_id)]
        wanted = {(kind, value.lower()) for kind, value in ids}
        found: dict[tuple[SearchKind, str], set[str]] = {}
        for kind, value in held:
            if value and (kind, value.lower()) in wanted:
                found.setdefault((kind, value.lower()), set()).add(value)
        return found

    def register(self, position_id: str, *, consistent: bool = False) -> PositionRegister | None:
        return self.registers_by_position.get(position_id)

    def entry(self, document_id: str, kind: Kind, position_id: str, *, consistent: bool = False) -> PositionEntry:
        keys.document_pk(document_id), keys.entry_sk(kind, position_id)  # InvalidId, as the real one
        for entry in self._of(PositionEntry):
            if (entry.document_id, entry.kind, entry.position_id) == (document_id, kind, position_id):
                return entry
        raise NotFound(kind.entity_type, f"{position_id} in {document_id}")

    def _rows(self, document_id: str) -> dict[str, PositionInDocument]:
        rows: dict[str, PositionInDocument] = {}
        for entry in self._of(PositionEntry):
            if entry.document_id == document_id:
                row = rows.setdefault(entry.position_id, PositionInDocument(document_id, entry.position_id))
                row.by_kind[entry.kind] = entry
        return rows

    def overview(self, document_id: str) -> DocumentOverview:
        document = self.get(document_id)
        archived = self._archived(document_id)
        rows = self._rows(document_id)
        return DocumentOverview(
            document=document,
            capital_activity=self.activities.get(document_id),
            document_history=[v for v in archived if isinstance(v, Document)],
            activity_history=[v for v in archived if isinstance(v, CapitalActivity)],
            positions=[rows[p] for p in sorted(rows)],
        )

    def _archived(self, document_id: str) -> list[Any]:
        found = self._of(Document, latest=False) + self._of(CapitalActivity, latest=False)
        return sorted((v for v in found if v.document_id == document_id), key=sort_key, reverse=True)

    def position_in_document(self, document_id: str, position_id: str) -> PositionInDocument:
        row = self._rows(document_id).get(position_id)
        if row is None:
            raise NotFound("Position in document", f"{position_id} in {document_id}")
        return row

    def versions(
        self, document_id: str, start: date | None = None, end: date | None = None, kind: Kind = Kind.DOCUMENT
    ) -> list[Any]:
        lo, hi = keys.history_range(kind, start, end)
        return [v for v in self._archived(document_id) if lo <= sort_key(v) <= hi]

    def all_versions(self, document_id: str) -> tuple[Document, list[Document]]:
        return self.get(document_id), self.versions(document_id)

    def version(self, document_id: str, version: str) -> Document:
        sk = keys.historical_sk(Kind.DOCUMENT, *parse_version_id(version))
        for archived in self._archived(document_id):
            if sort_key(archived) == sk:
                return archived
        raise NotFound("Document version", f"{document_id} {version}")

    def months(self) -> list[str]:
        return sorted({keys.month_catalog_keys(m.month)[1] for m in self._of(MonthCatalogEntry)}, reverse=True)

    def in_month(self, year: int, month: int, *, newest_first: bool = True) -> list[DocumentSummary]:
        found = [
            d
            for d in self._of(Document, latest=True)
            if d.as_of_date and (d.as_of_date.year, d.as_of_date.month) == (year, month)
        ]
        found.sort(key=lambda d: (d.as_of_date, d.document_id), reverse=newest_first)
        return [
            DocumentSummary(d.document_id, d.title, d.fund_id, d.as_of_date, d.status, d.revision, d.currency)
            for d in found
        ]

    def audit_trail(self, document_id: str, limit: int = 50) -> list[AuditEntry]:
        trail = [a for a in self._of(AuditEntry) if a.document_id == document_id]
        return sorted(trail, key=lambda a: (a.at, a.token), reverse=True)[:limit]

    def check(self, entity: Any) -> None:
        check_size(to_item(entity))

    def load_for_restatement(self, document_id: str) -> tuple[Loaded[Document], CapitalActivity | None]:
        try:
            document = self.get(document_id)
        except NotFound:
            return Loaded(None), None
        return Loaded(*self._stored(document)), self.activities.get(document_id)

    def load_for_entry_with_register(
        self, document_id: str, kind: Kind, position_id: str
    ) -> tuple[Document, Loaded[PositionEntry], PositionRegister | None]:
        document = self.get(document_id)
        try:
            loaded = Loaded(*self._stored(self.entry(document_id, kind, position_id)))
        except NotFound:
            loaded = Loaded(None)
        return document, loaded, self.register(position_id)

    def position_entries(self, position_id: str, kind: Kind) -> list[PositionEntry]:
        return [e for e in self._of(PositionEntry) if e.position_id == position_id and e.kind is kind]

    def entries_of(self, document_id: str) -> list[PositionEntry]:
        return [e for e in self._of(PositionEntry) if e.document_id == document_id]


class FakePositionRepository:
    """The position index over a FakeDocumentRepository's entries, sorted as GSI2_SK (kind#document)."""

    def __init__(self, documents: FakeDocumentRepository) -> None:
        self.documents = documents

    def entries(self, position_id: str, kind: Kind | None = None) -> list[PositionEntry]:
        keys.position_index_pk(position_id)  # InvalidId, as the real one
        found = [
            e for e in self.documents._of(PositionEntry) if e.position_id == position_id and kind in (None, e.kind)
        ]
        return sorted(found, key=lambda e: (e.kind.value, e.document_id))

    def entries_with_register(self, position_id: str, kind: Kind | None = None) -> tuple[list[PositionEntry], None]:
        """The entries; the fake keeps no registers."""
        return self.entries(position_id, kind), None

    def page(
        self, position_id: str, kind: Kind | None = None, cursor: str | None = None, limit: int | None = None
    ) -> PositionPage:
        """One page holding everything (no next page); a cursor is not supported."""
        if cursor is not None:
            raise NotImplementedError("FakePositionRepository has a single page")
        entries = self.entries(position_id, kind)
        return PositionPage(position_id, kind, entries[:limit] if limit else entries, {}, None)
