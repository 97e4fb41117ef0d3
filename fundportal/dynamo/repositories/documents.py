"""Documents and what their partition holds: the document (current and superseded), its
capital activity, its position entries, its audit trail, and the month catalog/index.
Patterns 1-6 and 8-12 of DESIGN.md; the write rules live in `documents.services`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

from fundportal.domain.errors import AlreadyExists, NotFound
from fundportal.domain.kinds import POSITION_KINDS, Kind, SearchKind, parse_version_id
from fundportal.domain.model import AuditEntry, CapitalActivity, Document, PositionEntry, PositionRegister

from .. import keys
from ..errors import TransactionCancelled
from ..gateway import EXISTS, NOT_EXISTS, Condition, TableGateway, check_size
from ..mapping import (
    FundCatalogEntry,
    MonthCatalogEntry,
    entity_from_item,
    from_item,
    search_items_of,
    sort_key,
    to_item,
)
from ..schema import ENTITY_INDEX, MONTH_INDEX, TABLE
from .document_models import DocumentOverview, DocumentSummary, Loaded, PositionInDocument
from .register import RegisterWrite, raise_if_register_moved, register_key

# The ClientRequestToken of the write that last replaced a current item: a caller retrying a
# write whose reply was lost (same token) finds it here and gets success, not a false conflict.
REQUEST_TOKEN = "RequestToken"  # noqa: S105 - an attribute name, not a secret
# A hash of what that write asked for: the same token with other values is a different request.
REQUEST_HASH = "RequestHash"
# Attributes a position entry must still have, as read, for a change or removal to apply.
ENTRY_SEEN_ATTRIBUTES = ("Revision", "UpdatedAt", "Amount", "Status", "DueDate")


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
    def overview(self, document_id: str) -> DocumentOverview:
        """Every item of a document from one Query on its partition (more only past 1 MB)."""
        document = activity = None
        document_history: list[Document] = []
        activity_history: list[CapitalActivity] = []
        positions: dict[str, PositionInDocument] = {}
        for item in self._partition(document_id):
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

    def audit_trail(self, document_id: str, limit: int = 50) -> list[AuditEntry]:
        page = self.gateway.query_page("PK = :pk", {":pk": keys.audit_pk(document_id)}, forward=False, limit=limit)
        return [from_item(AuditEntry, item) for item in page.items]

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

    def position_entries(self, position_id: str, kind: Kind) -> list[PositionEntry]:
        """Every entry of one kind of a position (position index, all pages): the register's
        recount of a "latest" figure when the entry holding it is changed or removed."""
        from .positions import PositionRepository

        return PositionRepository(self.gateway).entries(position_id, kind)

    # --- writes (one transaction each, with an audit item) ---

    def create(
        self, document: Document, activity: CapitalActivity | None, audit: AuditEntry, request_hash: str | None = None
    ) -> None:
        """Conditional put of a new document (+ activity, month catalog); existing id → AlreadyExists."""
        actions = [self.gateway.put_action(_stamped(to_item(document), audit, request_hash), NOT_EXISTS)]
        if activity is not None:
            actions.append(self.gateway.put_action(to_item(activity)))
        if document.as_of_date:
            actions.append(self.gateway.put_action(to_item(MonthCatalogEntry(document.as_of_date))))
        if document.fund_id:  # the funds list's catalog entry comes with the fund's documents
            actions.append(self.gateway.put_action(to_item(FundCatalogEntry(document.fund_id))))
        actions.extend(self._search_actions(document))
        actions.append(self._audit_action(audit))
        try:
            self.gateway.transact(actions, audit.token)
        except TransactionCancelled as error:
            if error.failed(0):
                raise AlreadyExists("Document", document.document_id) from error
            raise

    # Pattern 10
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
        """Archive the current copies and replace them, conditioned on `expected_revision`.
        Raises TransactionCancelled / IdempotencyMismatch for the service to explain."""
        revision = Condition("Revision = :expected", values={":expected": expected_revision})
        put = self.gateway.put_action
        actions = [
            put(_stamped(to_item(document), audit, request_hash), revision),
            put(to_item(archived), NOT_EXISTS),
        ]
        if activity is not None:
            actions.append(put(to_item(activity)))
        if archived_activity is not None:
            actions.append(put(to_item(archived_activity), NOT_EXISTS))
        actions.append(self._audit_action(audit))
        self.gateway.transact(actions, audit.token)

    # Pattern 11
    def write_entry(
        self,
        entry: PositionEntry,
        previous: PositionEntry | None,
        audit: AuditEntry,
        request_hash: str | None = None,
        register: RegisterWrite | None = None,
        client_token: str | None = None,
    ) -> None:
        """Put an entry if it is still as `previous` (None: still absent), the document existing
        (and of the entry's fund), with the position register's new roll-up (issue 13).
        NotFound when the document is gone; TransactionCancelled (failed(1)) when the entry moved;
        RegisterChanged when the register moved (re-read and retry)."""
        condition = NOT_EXISTS if previous is None else _unchanged(previous)
        write = self.gateway.put_action(_stamped(to_item(entry), audit, request_hash), condition)
        # Search items are constant: written when the position first registers, never on later
        # writes (its fund's item comes with the fund's documents), so no write of an existing
        # position touches an item shared with other positions.
        new_position = register is None or register.seen_revision == 0
        searchable = [i for i in search_items_of(entry) if i.kind is not SearchKind.FUND] if new_position else []
        extra = [*(register.actions(self.gateway) if register else ()), *(self._put(i) for i in searchable)]
        self._entry_transaction(
            entry.document_id, write, audit, extra=extra, fund_id=entry.fund_id, register=register, token=client_token
        )

    def remove_entry(
        self,
        entry: PositionEntry,
        audit: AuditEntry,
        register: RegisterWrite | None = None,
        client_token: str | None = None,
    ) -> None:
        """Delete an entry if it is still as read (and update the register in the same transaction)."""
        key = (keys.document_pk(entry.document_id), sort_key(entry))
        delete = self.gateway.delete_action(key, _unchanged(entry))
        extra = register.actions(self.gateway) if register else ()
        self._entry_transaction(entry.document_id, delete, audit, extra=extra, register=register, token=client_token)

    def _entry_transaction(
        self,
        document_id: str,
        write: dict[str, Any],
        audit: AuditEntry,
        extra: Iterable[dict[str, Any]] = (),
        fund_id: str | None = None,
        register: RegisterWrite | None = None,
        token: str | None = None,
    ) -> None:
        """The entry transaction; `token` is its ClientRequestToken (default: the audit's)."""
        document_key = (keys.document_pk(document_id), keys.latest_sk(Kind.DOCUMENT))
        document_condition = EXISTS
        if fund_id:  # an entry's fund is its document's (a document without a fund takes any)
            document_condition = Condition(
                "attribute_exists(PK) AND (attribute_not_exists(#fund) OR #fund = :fund)",
                {"#fund": "FundId"},
                {":fund": fund_id},
            )
        check = self.gateway.check_action(document_key, document_condition)
        actions = [check, write, self._audit_action(audit), *extra]
        try:
            self.gateway.transact(actions, token or audit.token)
        except TransactionCancelled as error:
            if error.failed(0):
                raise NotFound("Document", document_id) from error
            if register is not None and not error.failed(1):
                raise_if_register_moved(error, 3)  # the register's put is the first extra action
            raise

    def _search_actions(self, entity: Any) -> list[dict[str, Any]]:
        """Puts of the search items an entity names (constant items: idempotent; issue 15)."""
        return [self._put(item) for item in search_items_of(entity)]

    def _put(self, constant: Any) -> dict[str, Any]:
        return self.gateway.put_action(to_item(constant))

    def _audit_action(self, audit: AuditEntry) -> dict[str, Any]:
        # Microsecond time so a document's audit items sort in the order they were written.
        return self.gateway.put_action(to_item(replace(audit, at=datetime.now(UTC))), NOT_EXISTS)

    # Pattern 12
    def bulk_load(
        self, items: Iterable[dict[str, Any]], workers: int = 4, progress: Callable[[int], None] | None = None
    ) -> int:
        """Prepared items (entities' `to_item()`), BatchWriteItem 25 at a time over `workers` threads."""
        return self.gateway.batch_write(items, workers=workers, progress=progress)


def _loaded(cls: Any, item: dict[str, Any] | None) -> Loaded[Any]:
    if not item:
        return Loaded(None)
    return Loaded(from_item(cls, item), item.get(REQUEST_TOKEN), item.get(REQUEST_HASH))


def _stamped(item: dict[str, Any], audit: AuditEntry, request_hash: str | None) -> dict[str, Any]:
    """The item with the token (and intent hash) of the write that puts it."""
    item = {**item, REQUEST_TOKEN: audit.token}
    if request_hash:
        item[REQUEST_HASH] = request_hash
    return item


def _unchanged(entry: PositionEntry) -> Condition:
    """The entry still has the attributes it was read with (so an audit's before/after is exact),
    its revision first: two saves in one second no longer both win."""
    stored = to_item(entry)
    clauses, names, values = [], {}, {}
    for i, attribute in enumerate(ENTRY_SEEN_ATTRIBUTES):
        names[f"#a{i}"] = attribute
        if attribute == "Revision" and stored[attribute] == 1:
            # Entries written before revisions existed have none: revision 1 is "absent or 1".
            clauses.append(f"(attribute_not_exists(#a{i}) OR #a{i} = :a{i})")
            values[f":a{i}"] = 1
        elif stored.get(attribute) is None:
            clauses.append(f"attribute_not_exists(#a{i})")
        else:
            clauses.append(f"#a{i} = :a{i}")
            values[f":a{i}"] = stored[attribute]
    return Condition(" AND ".join(clauses), names, values)


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
