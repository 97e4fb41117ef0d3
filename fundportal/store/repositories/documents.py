"""Documents and what their partition holds: the document (current and superseded), its
capital activity, its position entries, its audit trail, and the month catalog/index.
Patterns 1-6 and 8-12 of DESIGN.md: reads (those for writes return the token and request hash
stamped on the item). Writes are unit-of-work actions built by `documents.services`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from typing import Any

from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.entry_versions import EntryVersion
from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import POSITION_KINDS, Kind, parse_version_id
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister

from .. import cursor as cursors
from ..gateway import TableGateway, check_size
from ..mapping import keys
from ..mapping.companions import MonthCatalogEntry
from ..mapping.entities import entity_from_item, from_item, sort_key, to_item
from ..schema import ENTITY_INDEX, MONTH_INDEX, TABLE
from .document_models import DocumentOverview, DocumentSummary, Loaded, PositionInDocument
from .register import register_key

# The ClientRequestToken of the write that last replaced a current item: a caller retrying a
# write whose reply was lost (same token) finds it here and gets success, not a false conflict.
REQUEST_TOKEN = "RequestToken"  # noqa: S105 - an attribute name, not a secret
# A hash of what that write asked for: the same token with other values is a different request.
REQUEST_HASH = "RequestHash"


class DocumentRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    def _partition(self, document_id: str, prefix: str | None = None, **options: Any) -> Iterable[dict[str, Any]]:
        values = {":pk": keys.document_pk(document_id)}
        condition = "PK = :pk"
        if prefix is not None:
            condition += " AND begins_with(SK, :prefix)"
            values[":prefix"] = prefix
        return self.gateway.query(condition, values, **options)

    # Pattern 1
    def overview(self, document_id: str, *, consistent: bool = False) -> DocumentOverview:
        """Every item of a document from one Query on its partition (more only past 1 MB);
        `consistent`: strongly consistent (a write's read)."""
        return overview_of(document_id, self._partition(document_id, consistent=consistent))

    # Pattern 2
    def position_in_document(self, document_id: str, position_id: str) -> PositionInDocument:
        """The position's entries by their known keys in one BatchGetItem."""
        pk = keys.document_pk(document_id)
        found = self.gateway.batch_get([(pk, keys.entry_sk(kind, position_id)) for kind in POSITION_KINDS])
        row = PositionInDocument(document_id, position_id)
        for item in found.values():
            entry = from_item(PositionEntry, item)
            row.by_kind[entry.kind] = entry
        if not row.by_kind:
            raise NotFound("Position in document", f"{position_id} in {document_id}")
        return row

    # Pattern 3
    def entry(self, document_id: str, kind: Kind, position_id: str, *, consistent: bool = False) -> PositionEntry:
        item = self.gateway.get(
            (keys.document_pk(document_id), keys.entry_sk(kind, position_id)), consistent=consistent
        )
        if item is None:
            raise NotFound(kind.entity_type, f"{position_id} in {document_id}")
        return from_item(PositionEntry, item)

    # Pattern 4
    def capital_items(self, document_id: str) -> list[Any]:
        """Capital activity (current and superseded) and capital calls: begins_with 'CAPITAL_'."""
        return [entity_from_item(item) for item in self._partition(document_id, keys.CAPITAL_PREFIX)]

    # Pattern 5
    def get(self, document_id: str, *, consistent: bool = False) -> Document:
        item = self.gateway.get((keys.document_pk(document_id), keys.latest_sk(Kind.DOCUMENT)), consistent=consistent)
        if item is None:
            raise NotFound("Document", document_id)
        return from_item(Document, item)

    def get_via_index(self, document_id: str) -> Document:
        index = TABLE.index(ENTITY_INDEX)
        gsi_pk, gsi_sk = keys.entity_index_keys(Kind.DOCUMENT, document_id)
        condition = f"{index.pk} = :pk AND {index.sk} = :sk"
        items = list(self.gateway.query(condition, {":pk": gsi_pk, ":sk": gsi_sk}, index=ENTITY_INDEX))
        if not items:
            raise NotFound("Document", document_id)
        return from_item(Document, items[0])

    # Pattern 6
    def entry_via_index(self, kind: Kind, position_id: str, document_id: str) -> PositionEntry:
        index = TABLE.index(ENTITY_INDEX)
        gsi_pk, _ = keys.entity_index_keys(kind, document_id, position_id)
        items = list(self.gateway.query(f"{index.pk} = :pk", {":pk": gsi_pk}, index=ENTITY_INDEX))
        if not items:
            raise NotFound(kind.entity_type, f"{position_id} in {document_id}")
        return from_item(PositionEntry, items[0])

    # Pattern 8
    def versions(
        self, document_id: str, start: date | None = None, end: date | None = None, kind: Kind = Kind.DOCUMENT
    ) -> list[Any]:
        """Superseded copies between two dates (inclusive), newest first: SK BETWEEN."""
        lo, hi = keys.history_range(kind, start, end)
        condition = "PK = :pk AND SK BETWEEN :lo AND :hi"
        values = {":pk": keys.document_pk(document_id), ":lo": lo, ":hi": hi}
        return [entity_from_item(item) for item in self.gateway.query(condition, values, forward=False)]

    def all_versions(self, document_id: str) -> tuple[Document, list[Document]]:
        """Current document and every superseded copy: begins_with(SK, 'DOCUMENT#')."""
        documents = [
            from_item(Document, i) for i in self._partition(document_id, keys.kind_prefix(Kind.DOCUMENT), forward=False)
        ]
        current = next((d for d in documents if d.latest), None)
        if current is None:
            raise NotFound("Document", document_id)
        return current, [d for d in documents if not d.latest]

    def version(self, document_id: str, version: str) -> Document:
        """One superseded copy by its public version id ('2025-09-01' or '2025-09-01.2'): GetItem."""
        on, revision = parse_version_id(version)
        item = self.gateway.get((keys.document_pk(document_id), keys.historical_sk(Kind.DOCUMENT, on, revision)))
        if item is None:
            raise NotFound("Document version", f"{document_id} {version}")
        return from_item(Document, item)

    # Pattern 9
    def in_month(self, year: int, month: int, *, newest_first: bool = True) -> list[DocumentSummary]:
        index = TABLE.index(MONTH_INDEX)
        shard = keys.month_shard(date(year, month, 1))
        items = self.gateway.query(f"{index.pk} = :pk", {":pk": shard}, index=MONTH_INDEX, forward=not newest_first)
        return [DocumentSummary.of(from_item(Document, item)) for item in items]

    def months(self) -> list[str]:
        """Months ('YYYY-MM') that have had current documents, newest first (tiny catalog)."""
        items = self.gateway.query("PK = :pk", {":pk": keys.MONTH_CATALOG_PK}, forward=False)
        return [item["SK"] for item in items]

    def entry_versions(self, document_id: str) -> list[EntryVersion]:
        """Every kept value of the document's entries (changed or removed), by entry and then
        oldest replaced first: one Query on its history partition (more only past 1 MB)."""
        items = self.gateway.query("PK = :pk", {":pk": keys.entry_history_pk(document_id)})
        return [from_item(EntryVersion, item) for item in items]

    def audit_trail(self, document_id: str, limit: int = 50) -> list[AuditEntry]:
        return self.audit_page(document_id, limit=limit)[0]

    def audit_page(
        self, document_id: str, cursor: str | None = None, limit: int = 50
    ) -> tuple[list[AuditEntry], str | None]:
        """One page of a document's audit trail, newest first (one Query), and the signed cursor
        of the next (None on the last), bound to the document (BadCursor otherwise). A change
        written during a walk sorts before its first page (newer), so within one walk no change
        comes twice and none is skipped."""
        binding = ("audit", document_id)
        start_key = cursors.decode(cursor, binding)[0] if cursor else None
        page = self.gateway.query_page(
            "PK = :pk", {":pk": keys.audit_pk(document_id)}, forward=False, limit=limit, start_key=start_key
        )
        next_cursor = cursors.encode(page.last_key, binding) if page.last_key else None
        return [from_item(AuditEntry, item) for item in page.items], next_cursor

    def check(self, entity: Any) -> None:
        """Refuse an entity whose ids or size DynamoDB would refuse, before any request."""
        check_size(to_item(entity))

    def existing(self, document_ids: Iterable[str]) -> dict[str, Document]:
        """The current documents among `document_ids`: BatchGetItem, 100 keys a request."""
        wanted = [(keys.document_pk(d), keys.latest_sk(Kind.DOCUMENT)) for d in document_ids]
        found: dict[str, Document] = {}
        for start in range(0, len(wanted), 100):
            for item in self.gateway.batch_get(wanted[start : start + 100]).values():
                document = from_item(Document, item)
                found[document.document_id] = document
        return found

    def leftover_entries(self, document_id: str) -> int:
        """How many position entries a document's partition holds while the document itself does
        not exist (an unfinished import's, or left behind); 0 when the document exists. A free id
        costs one consistent Query of one item; a taken one a GetItem more; only leftovers are
        counted through (keys only)."""
        pk = keys.document_pk(document_id)
        if not self.gateway.query_page("PK = :pk", {":pk": pk}, limit=1, projection="SK", consistent=True).items:
            return 0
        if self.gateway.get((pk, keys.latest_sk(Kind.DOCUMENT)), consistent=True) is not None:
            return 0  # the document exists: creating it again is AlreadyExists
        items = self._partition(document_id, consistent=True, projection="SK, EntityType")
        return sum(1 for item in items if _is_position_entry(item))

    def count_partition(self, document_id: str) -> int:
        return sum(1 for _ in self._partition(document_id))

    # --- reads for writes (strongly consistent, one request) ---

    def load_for_restatement(self, document_id: str) -> tuple[Loaded[Document], CapitalActivity | None]:
        """The current document (with its last write token) and capital activity."""
        pk = keys.document_pk(document_id)
        doc_key, activity_key = (pk, keys.latest_sk(Kind.DOCUMENT)), (pk, keys.latest_sk(Kind.CAPITAL_ACTIVITY))
        found = self.gateway.batch_get([doc_key, activity_key], consistent=True)
        item = found.get(doc_key)
        document = _loaded(Document, item)
        activity = from_item(CapitalActivity, found[activity_key]) if activity_key in found else None
        return document, activity

    def load_for_entry(self, document_id: str, kind: Kind, position_id: str) -> tuple[Document, Loaded[PositionEntry]]:
        """The document (NotFound if missing) and the entry as it is now, in one BatchGetItem."""
        pk = keys.document_pk(document_id)
        doc_key, entry_key = (pk, keys.latest_sk(Kind.DOCUMENT)), (pk, keys.entry_sk(kind, position_id))
        found = self.gateway.batch_get([doc_key, entry_key], consistent=True)
        if doc_key not in found:
            raise NotFound("Document", document_id)
        item = found.get(entry_key)
        entry = _loaded(PositionEntry, item)
        return from_item(Document, found[doc_key]), entry

    def load_for_entry_with_register(
        self, document_id: str, kind: Kind, position_id: str
    ) -> tuple[Document, Loaded[PositionEntry], PositionRegister | None]:
        """`load_for_entry` plus the position's register, in the same consistent BatchGetItem."""
        pk = keys.document_pk(document_id)
        doc_key, entry_key = (pk, keys.latest_sk(Kind.DOCUMENT)), (pk, keys.entry_sk(kind, position_id))
        reg_key = register_key(position_id)
        found = self.gateway.batch_get([doc_key, entry_key, reg_key], consistent=True)
        if doc_key not in found:
            raise NotFound("Document", document_id)
        register = from_item(PositionRegister, found[reg_key]) if reg_key in found else None
        return from_item(Document, found[doc_key]), _loaded(PositionEntry, found.get(entry_key)), register

    def entries_by_key(self, document_id: str, wanted: list[tuple[Kind, str]]) -> dict[tuple[Kind, str], PositionEntry]:
        """The document's entries of these (kind, position id) keys as they are now (consistent
        BatchGetItem, 100 keys a request): the entries a restatement changes."""
        pk = keys.document_pk(document_id)
        found: dict[tuple[Kind, str], PositionEntry] = {}
        asked = [(pk, keys.entry_sk(kind, position_id)) for kind, position_id in wanted]
        for start in range(0, len(asked), 100):
            for item in self.gateway.batch_get(asked[start : start + 100], consistent=True).values():
                entry = from_item(PositionEntry, item)
                found[(entry.kind, entry.position_id)] = entry
        return found

    def entries_of(self, document_id: str) -> list[PositionEntry]:
        """Every position entry of a document as it is now (consistent Query of its partition,
        all pages): the entries a title or type edit refreshes the copies of."""
        items = self._partition(document_id, consistent=True)
        return [from_item(PositionEntry, item) for item in items if _is_position_entry(item)]

    def position_entries(self, position_id: str, kind: Kind) -> list[PositionEntry]:
        """Every entry of one kind of a position (position index, all pages): the register's
        recount of a "latest" figure when the entry holding it is changed or removed."""
        from .positions import PositionRepository

        return PositionRepository(self.gateway).entries(position_id, kind)

    # Pattern 12
    def bulk_load(
        self, items: Iterable[dict[str, Any]], workers: int = 4, progress: Callable[[int], None] | None = None
    ) -> int:
        """Prepared items (entities' `to_item()`), BatchWriteItem 25 at a time over `workers` threads."""
        return self.gateway.batch_write(items, workers=workers, progress=progress)


def overview_of(document_id: str, items: Iterable[dict[str, Any]]) -> DocumentOverview:
    """The overview of a document from its partition's items (NotFound without its document)."""
    document = activity = None
    document_history: list[Document] = []
    activity_history: list[CapitalActivity] = []
    positions: dict[str, PositionInDocument] = {}
    for item in items:
        entity = entity_from_item(item)
        if isinstance(entity, Document):
            if entity.latest:
                document = entity
            else:
                document_history.append(entity)
        elif isinstance(entity, CapitalActivity):
            if entity.latest:
                activity = entity
            else:
                activity_history.append(entity)
        else:
            row = positions.get(entity.position_id)
            if row is None:
                row = positions[entity.position_id] = PositionInDocument(document_id, entity.position_id)
            row.by_kind[entity.kind] = entity
    if document is None:
        raise NotFound("Document", document_id)
    return DocumentOverview(
        document=document,
        capital_activity=activity,
        document_history=sorted(document_history, key=sort_key, reverse=True),
        activity_history=sorted(activity_history, key=sort_key, reverse=True),
        positions=sorted(positions.values(), key=lambda p: p.position_id),
    )


def _loaded(cls: Any, item: dict[str, Any] | None) -> Loaded[Any]:
    if not item:
        return Loaded(None)
    return Loaded(from_item(cls, item), item.get(REQUEST_TOKEN), item.get(REQUEST_HASH))


def document_items(
    document: Document, activity: CapitalActivity | None, entries: Iterable[PositionEntry]
) -> list[dict[str, Any]]:
    """Items for a whole document (bulk load and seeding), index keys computed by the entities."""
    items = [to_item(document)]
    if activity is not None:
        items.append(to_item(activity))
    items.extend(to_item(entry) for entry in entries)
    if document.latest and document.as_of_date:
        items.append(to_item(MonthCatalogEntry(document.as_of_date)))
    return items


def _is_position_entry(item: dict[str, Any]) -> bool:
    try:
        return Kind.from_entity_type(item.get("EntityType", "")).is_position_entry
    except KeyError:
        return False
