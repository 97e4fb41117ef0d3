"""The access patterns of ../shared/DESIGN.md, each served by one kind of request.

Views, forms and commands call these methods and get domain objects back; they never see
keys or boto3 dicts.
"""

from __future__ import annotations

import contextvars
import logging
import random
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any

from botocore.exceptions import ClientError

from . import cursor as cursors
from . import keys
from .client import call, from_item, table_name, to_attr, to_item
from .entities import (
    AuditEntry,
    CapitalActivity,
    Document,
    DocumentOverview,
    DocumentSummary,
    PositionEntry,
    PositionInDocument,
    diff,
    entity_from_item,
    utcnow,
)
from .errors import (
    AlreadyExists,
    Conflict,
    DataLayerError,
    ItemTooLarge,
    NotFound,
    StoreUnavailable,
    UnprocessedItems,
)
from .keys import Kind
from .schema import ENTITY_INDEX, MONTH_INDEX, POSITION_INDEX

log = logging.getLogger("fundportal.dynamodb")

MAX_ITEM_BYTES = 400 * 1024
# The ClientRequestToken of the write that last replaced a current item: a caller retrying a
# write whose reply was lost (same token) finds it here and gets success, not a false conflict.
REQUEST_TOKEN = "RequestToken"  # noqa: S105 - an attribute name, not a secret
BATCH_WRITE_SIZE = 25
TRANSACTION_CONFLICT_RETRIES = 5
DOCUMENT_FIELDS = ("title", "fund_id", "as_of_date", "status", "currency")
ACTIVITY_FIELDS = ("amount", "status", "currency")
ENTRY_FIELDS = ("amount", "status", "currency", "due_date", "fund_id", "investor_id")


@dataclass(frozen=True, slots=True)
class PositionPage:
    """One page of a position's entries across documents (pattern 7)."""

    position_id: str
    entries: list[PositionEntry]
    next_cursor: str | None
    extra: dict[str, Any]  # what the previous page carried forward (for running totals)


def _item_size(item: dict[str, Any]) -> int:
    """DynamoDB's item size: attribute names plus values (close upper bound for our types)."""
    return sum(len(name.encode()) + len(str(value).encode()) + 1 for name, value in item.items())


def check_size(item: dict[str, Any]) -> None:
    size = _item_size(item)
    if size > MAX_ITEM_BYTES:
        raise ItemTooLarge(size, MAX_ITEM_BYTES)


def _error_code(error: ClientError) -> str:
    return error.response.get("Error", {}).get("Code", "")


def _cancellation_codes(error: ClientError) -> list[str]:
    return [reason.get("Code", "None") for reason in error.response.get("CancellationReasons", [])]


def _condition_failed(error: ClientError, index: int) -> bool:
    """True when the cancelled transaction's action at `index` failed its condition."""
    codes = _cancellation_codes(error)
    return len(codes) > index and codes[index] == "ConditionalCheckFailed"


def _write_failed(error: ClientError) -> DataLayerError:
    """The typed error for a write that failed for no reason the caller can act on."""
    if "TransactionConflict" in _cancellation_codes(error):
        return StoreUnavailable("the document is busy with other writes; try again")
    log.error("DynamoDB write failed: %s", error)
    return DataLayerError()


# Attributes a position entry must still have, as read, for a change or removal to apply:
# the audit item records the before/after values, so they must be the values replaced.
_ENTRY_SEEN_ATTRIBUTES = ("UpdatedAt", "Amount", "Status", "DueDate")


def _unchanged_condition(item: dict[str, Any]) -> tuple[str, dict[str, str], dict[str, Any]]:
    """(ConditionExpression, names, values): the item still has the attributes it was read with."""
    clauses, names, values = [], {}, {}
    for i, attribute in enumerate(_ENTRY_SEEN_ATTRIBUTES):
        names[f"#a{i}"] = attribute
        if item.get(attribute) is None:
            clauses.append(f"attribute_not_exists(#a{i})")
        else:
            clauses.append(f"#a{i} = :a{i}")
            values[f":a{i}"] = to_attr(item[attribute])
    return " AND ".join(clauses), names, values


class FundRepository:
    """Reads and writes fund data in the one table."""

    def __init__(self, table: str | None = None) -> None:
        self.table = table or table_name()

    # --- reads ---------------------------------------------------------------------------------

    def _query(self, *, index: str | None = None, key_condition: str, **params: Any) -> Iterator[dict[str, Any]]:
        """Run a Query, following LastEvaluatedKey, yielding deserialised items."""
        params = {"TableName": self.table, "KeyConditionExpression": key_condition, **params}
        if index:
            params["IndexName"] = index
        while True:
            response = call("Query", index=index, key_condition=key_condition, **params)
            for item in response["Items"]:
                yield from_item(item)
            last_key = response.get("LastEvaluatedKey")
            if not last_key:
                return
            params["ExclusiveStartKey"] = last_key

    def _get(self, pk: str, sk: str, consistent: bool = False) -> dict[str, Any] | None:
        response = call(
            "GetItem",
            TableName=self.table,
            Key={"PK": {"S": pk}, "SK": {"S": sk}},
            ConsistentRead=consistent,
        )
        item = response.get("Item")
        return from_item(item) if item else None

    # Pattern 1
    def document_overview(self, document_id: str) -> DocumentOverview:
        """Every item of a document from one Query on its partition (more only past 1 MB)."""
        pk = keys.document_pk(document_id)
        document = activity = None
        document_history: list[Document] = []
        activity_history: list[CapitalActivity] = []
        positions: dict[str, PositionInDocument] = {}
        for item in self._query(key_condition="PK = :pk", ExpressionAttributeValues={":pk": {"S": pk}}):
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
                row.set(entity)
        if document is None:
            raise NotFound("Document", document_id)
        return DocumentOverview(
            document=document,
            capital_activity=activity,
            document_history=sorted(document_history, key=lambda d: d.sk, reverse=True),
            activity_history=sorted(activity_history, key=lambda a: a.sk, reverse=True),
            positions=sorted(positions.values(), key=lambda p: p.position_id),
        )

    # Pattern 2
    def position_in_document(self, document_id: str, position_id: str) -> PositionInDocument:
        """The position's three entries by their known keys in one BatchGetItem."""
        sks = [keys.entry_sk(kind, position_id) for kind in keys.POSITION_KINDS]
        row = PositionInDocument(document_id, position_id)
        for item in self._batch_get(keys.document_pk(document_id), sks).values():
            row.set(PositionEntry.from_item(item))
        if not row.entries:
            raise NotFound("Position in document", f"{position_id} in {document_id}")
        return row

    def _batch_get(self, pk: str, sks: list[str], consistent: bool = False) -> dict[str, dict[str, Any]]:
        """Items of one partition by their sort keys in one BatchGetItem (unprocessed keys
        retried with backoff); returns {SK: item} for the items that exist."""
        request = {"Keys": [{"PK": {"S": pk}, "SK": {"S": sk}} for sk in sks], "ConsistentRead": consistent}
        pending: dict[str, Any] = {self.table: request}
        found: dict[str, dict[str, Any]] = {}
        for attempt in range(8):
            response = call("BatchGetItem", RequestItems=pending)
            for raw in response.get("Responses", {}).get(self.table, []):
                item = from_item(raw)
                found[item["SK"]] = item
            pending = response.get("UnprocessedKeys") or {}
            if not pending:
                return found
            _backoff(attempt)
        raise UnprocessedItems(len(pending.get(self.table, {}).get("Keys", [])))

    # Pattern 3
    def get_entry(self, document_id: str, kind: Kind, position_id: str) -> PositionEntry:
        item = self._get(keys.document_pk(document_id), keys.entry_sk(kind, position_id))
        if item is None:
            raise NotFound(kind.entity_type, f"{position_id} in {document_id}")
        return PositionEntry.from_item(item)

    # Pattern 4
    def capital_items(self, document_id: str) -> list[CapitalActivity | PositionEntry]:
        """Capital activity (current and superseded) and capital calls: begins_with 'CAPITAL_'."""
        items = self._query(
            key_condition="PK = :pk AND begins_with(SK, :prefix)",
            ExpressionAttributeValues={
                ":pk": {"S": keys.document_pk(document_id)},
                ":prefix": {"S": keys.CAPITAL_PREFIX},
            },
        )
        return [entity_from_item(item) for item in items]  # type: ignore[misc]

    # Pattern 5
    def get_document(self, document_id: str, consistent: bool = False) -> Document:
        item = self._get(keys.document_pk(document_id), keys.latest_sk(Kind.DOCUMENT), consistent)
        if item is None:
            raise NotFound("Document", document_id)
        return Document.from_item(item)

    def get_document_via_index(self, document_id: str) -> Document:
        gsi_pk, gsi_sk = keys.entity_index_keys(Kind.DOCUMENT, document_id)
        items = list(
            self._query(
                index=ENTITY_INDEX,
                key_condition="GSI_PK = :pk AND GSI_SK = :sk",
                ExpressionAttributeValues={":pk": {"S": gsi_pk}, ":sk": {"S": gsi_sk}},
            )
        )
        if not items:
            raise NotFound("Document", document_id)
        return Document.from_item(items[0])

    # Pattern 6
    def entry_via_index(self, kind: Kind, position_id: str, document_id: str) -> PositionEntry:
        gsi_pk, _ = keys.entity_index_keys(kind, document_id, position_id)
        items = list(
            self._query(
                index=ENTITY_INDEX,
                key_condition="GSI_PK = :pk",
                ExpressionAttributeValues={":pk": {"S": gsi_pk}},
            )
        )
        if not items:
            raise NotFound(kind.entity_type, f"{position_id} in {document_id}")
        return PositionEntry.from_item(items[0])

    # Pattern 7
    def position_page(
        self,
        position_id: str,
        kind: Kind | None = None,
        cursor: str | None = None,
        limit: int | None = None,
        carry: dict[str, Any] | None = None,
    ) -> PositionPage:
        """One page (one Query) of a position across documents from GSI_Position_Document.

        Without `limit` a page is what DynamoDB returns in one response (up to 1 MB). The
        cursor is signed and bound to (index, position, kind); `carry` rides along in it.
        """
        pk = keys.position_index_pk(position_id)
        binding = _position_binding(position_id, kind)
        params: dict[str, Any] = {
            "TableName": self.table,
            "IndexName": POSITION_INDEX,
            "ExpressionAttributeValues": {":pk": {"S": pk}},
        }
        condition = "GSI2_PK = :pk"
        if kind is not None:
            condition += " AND begins_with(GSI2_SK, :prefix)"
            params["ExpressionAttributeValues"][":prefix"] = {"S": kind.prefix}
        params["KeyConditionExpression"] = condition
        extra: dict[str, Any] = {}
        if cursor:
            params["ExclusiveStartKey"], extra = cursors.decode(cursor, binding)
        if limit:
            params["Limit"] = limit
        response = call("Query", index=POSITION_INDEX, key_condition=condition, **params)
        entries = [PositionEntry.from_item(from_item(item)) for item in response["Items"]]
        last_key = response.get("LastEvaluatedKey")
        next_cursor = cursors.encode(last_key, binding, carry) if last_key else None
        return PositionPage(position_id, entries, next_cursor, extra)

    def reseal_position_cursor(
        self, next_cursor: str, position_id: str, carry: dict[str, Any], kind: Kind | None = None
    ) -> str:
        """A page's `next_cursor` signed again with a `carry` computed from that page's entries
        (running totals); raises BadCursor if it is not a cursor of this position query."""
        binding = _position_binding(position_id, kind)
        start_key, _ = cursors.decode(next_cursor, binding)
        return cursors.encode(start_key, binding, carry)

    def position_entries(self, position_id: str, kind: Kind | None = None) -> list[PositionEntry]:
        """Every entry of a position, all pages (reports and CSV export)."""
        entries: list[PositionEntry] = []
        page_cursor = None
        while True:
            page = self.position_page(position_id, kind, page_cursor)
            entries.extend(page.entries)
            if not page.next_cursor:
                return entries
            page_cursor = page.next_cursor

    # Pattern 8
    def document_versions(
        self, document_id: str, start: date | None = None, end: date | None = None, kind: Kind = Kind.DOCUMENT
    ) -> list[Document] | list[CapitalActivity]:
        """Superseded copies between two dates (inclusive), newest first: SK BETWEEN."""
        lo, hi = keys.history_range(kind, start, end)
        items = self._query(
            key_condition="PK = :pk AND SK BETWEEN :lo AND :hi",
            ExpressionAttributeValues={
                ":pk": {"S": keys.document_pk(document_id)},
                ":lo": {"S": lo},
                ":hi": {"S": hi},
            },
            ScanIndexForward=False,
        )
        return [entity_from_item(item) for item in items]  # type: ignore[return-value]

    def all_versions(self, document_id: str) -> tuple[Document, list[Document]]:
        """Current document and every superseded copy: begins_with(SK, 'DOCUMENT#')."""
        current = None
        history = []
        for item in self._query(
            key_condition="PK = :pk AND begins_with(SK, :prefix)",
            ExpressionAttributeValues={
                ":pk": {"S": keys.document_pk(document_id)},
                ":prefix": {"S": Kind.DOCUMENT.prefix},
            },
            ScanIndexForward=False,
        ):
            document = Document.from_item(item)
            if document.latest:
                current = document
            else:
                history.append(document)
        if current is None:
            raise NotFound("Document", document_id)
        return current, history

    def get_document_version(self, document_id: str, version: str) -> Document:
        """One superseded copy by its public version id ('2025-09-01' or '2025-09-01.2'): GetItem."""
        on, revision = keys.parse_version_id(version)
        item = self._get(keys.document_pk(document_id), keys.historical_sk(Kind.DOCUMENT, on, revision))
        if item is None:
            raise NotFound("Document version", f"{document_id} {version}")
        return Document.from_item(item)

    # Pattern 9
    def documents_in_month(self, year: int, month: int, newest_first: bool = True) -> list[DocumentSummary]:
        shard = keys.month_shard(date(year, month, 1))
        items = self._query(
            index=MONTH_INDEX,
            key_condition="GSI3_PK = :pk",
            ExpressionAttributeValues={":pk": {"S": shard}},
            ScanIndexForward=not newest_first,
        )
        return [
            DocumentSummary(
                document_id=item["PK"],
                title=item.get("Title", ""),
                fund_id=item.get("FundId", ""),
                as_of_date=date.fromisoformat(item["AsOfDate"]),
                status=item.get("Status", ""),
                revision=int(item.get("Revision", 1)),
                currency=item.get("Currency", "USD"),
            )
            for item in items
        ]

    def months(self) -> list[str]:
        """Months ('YYYY-MM') that have had current documents, newest first (tiny catalog)."""
        items = self._query(
            key_condition="PK = :pk",
            ExpressionAttributeValues={":pk": {"S": keys.MONTH_CATALOG_PK}},
            ScanIndexForward=False,
        )
        return [item["SK"] for item in items]

    def audit_trail(self, document_id: str, limit: int = 50) -> list[AuditEntry]:
        response = call(
            "Query",
            TableName=self.table,
            KeyConditionExpression="PK = :pk",
            ExpressionAttributeValues={":pk": {"S": keys.audit_pk(document_id)}},
            ScanIndexForward=False,
            Limit=limit,
        )
        return [AuditEntry.from_item(from_item(item)) for item in response["Items"]]

    # --- writes --------------------------------------------------------------------------------

    def _put(self, values: dict[str, Any]) -> dict[str, Any]:
        check_size(values)
        return {"Put": {"TableName": self.table, "Item": to_item(values)}}

    def _month_catalog_put(self, as_of: date) -> dict[str, Any]:
        pk, sk = keys.month_catalog_keys(as_of)
        return self._put({"PK": pk, "SK": sk, "EntityType": "MonthCatalog"})

    def _audit_put(self, entry: AuditEntry) -> dict[str, Any]:
        # Microsecond time so a document's audit items sort in the order they were written.
        entry = replace(entry, at=datetime.now(UTC))
        put = self._put(entry.to_item())
        put["Put"]["ConditionExpression"] = "attribute_not_exists(PK)"
        return put

    def _transact(self, actions: list[dict[str, Any]], token: str | None = None) -> None:
        """TransactWriteItems with a ClientRequestToken, retrying TransactionConflict with the
        same token (botocore never retries it; the token makes a landed retry a no-op)."""
        token = token or uuid.uuid4().hex
        for attempt in range(TRANSACTION_CONFLICT_RETRIES + 1):
            try:
                call("TransactWriteItems", TransactItems=actions, ClientRequestToken=token)
                return
            except ClientError as error:
                codes = _cancellation_codes(error)
                retryable = "TransactionConflict" in codes and "ConditionalCheckFailed" not in codes
                if retryable and attempt < TRANSACTION_CONFLICT_RETRIES:
                    _backoff(attempt)
                    continue
                raise

    def create_document(
        self, document: Document, activity: CapitalActivity | None = None, user: str = "system"
    ) -> Document:
        """Conditional put of a new document (and its capital activity); existing id → AlreadyExists."""
        now = utcnow()
        document = replace(document, revision=1, latest=True, updated_at=now, updated_by=user)
        put = self._put(document.to_item())
        put["Put"]["ConditionExpression"] = "attribute_not_exists(PK)"
        actions = [put]
        if activity is not None:
            activity = replace(
                activity,
                document_id=document.document_id,
                revision=1,
                latest=True,
                updated_at=now,
                updated_by=user,
                as_of_date=document.as_of_date,
            )
            actions.append(self._put(activity.to_item()))
        if document.as_of_date:
            actions.append(self._month_catalog_put(document.as_of_date))
        token = uuid.uuid4().hex
        actions.append(
            self._audit_put(
                AuditEntry(
                    document.document_id, now, user, "create", "Document", diff(None, document, DOCUMENT_FIELDS), token
                )
            )
        )
        try:
            self._transact(actions, token)
        except ClientError as error:
            if _condition_failed(error, 0):
                raise AlreadyExists("Document", document.document_id) from error
            raise _write_failed(error) from error
        return document

    # Pattern 10
    def restate(
        self,
        document_id: str,
        expected_revision: int,
        changes: dict[str, Any],
        activity_changes: dict[str, Any] | None = None,
        user: str = "system",
        token: str | None = None,
        on: date | None = None,
    ) -> Document:
        """Publish a restated document in one transaction: archive the current document and
        capital activity under dated SKs and replace them, conditioned on `expected_revision`.

        `token` (ClientRequestToken) makes a retried restatement idempotent.
        """
        token = token or uuid.uuid4().hex
        # The current document and capital activity, strongly consistent, in one request.
        doc_sk, activity_sk = keys.latest_sk(Kind.DOCUMENT), keys.latest_sk(Kind.CAPITAL_ACTIVITY)
        items = self._batch_get(keys.document_pk(document_id), [doc_sk, activity_sk], consistent=True)
        item = items.get(doc_sk)
        if item is None:
            raise NotFound("Document", document_id)
        current = Document.from_item(item)
        if current.revision != expected_revision:
            if item.get(REQUEST_TOKEN) == token:
                return current  # this restatement already landed; only its reply was lost
            raise self._conflict(current, expected_revision)
        activity = CapitalActivity.from_item(items[activity_sk]) if activity_sk in items else None
        on = on or utcnow().date()
        now = utcnow()
        new_revision = expected_revision + 1
        changes = {k: v for k, v in changes.items() if k != "as_of_date"}  # as-of date is fixed
        new_document = replace(current, **changes, revision=new_revision, updated_at=now, updated_by=user)
        archived = current.superseded(on)
        doc_put = self._put({**new_document.to_item(), REQUEST_TOKEN: token})
        doc_put["Put"]["ConditionExpression"] = "Revision = :expected"
        doc_put["Put"]["ExpressionAttributeValues"] = {":expected": {"N": str(expected_revision)}}
        archive_put = self._put(archived.to_item())
        archive_put["Put"]["ConditionExpression"] = "attribute_not_exists(PK)"
        actions = [doc_put, archive_put]
        audit_changes = diff(current, new_document, DOCUMENT_FIELDS)
        if activity is not None or activity_changes:
            base = activity or CapitalActivity(document_id=document_id, as_of_date=current.as_of_date)
            new_activity = replace(
                base, **(activity_changes or {}), revision=new_revision, latest=True, updated_at=now, updated_by=user
            )
            actions.append(self._put(new_activity.to_item()))
            if activity is not None:
                archived_activity = replace(activity.superseded(on), version_revision=expected_revision)
                put = self._put(archived_activity.to_item())
                put["Put"]["ConditionExpression"] = "attribute_not_exists(PK)"
                actions.append(put)
            audit_changes.update({f"activity.{k}": v for k, v in diff(activity, new_activity, ACTIVITY_FIELDS).items()})
        actions.append(self._audit_put(AuditEntry(document_id, now, user, "restate", "Document", audit_changes, token)))
        try:
            self._transact(actions, token)
        except ClientError as error:
            checked = "ConditionalCheckFailed" in _cancellation_codes(error)
            if checked or _error_code(error) == "IdempotentParameterMismatchException":
                latest = self.get_document(document_id, consistent=True)
                if latest.revision != expected_revision:  # someone else published first
                    raise self._conflict(latest, expected_revision) from error
            raise _write_failed(error) from error
        return new_document

    @staticmethod
    def _conflict(current: Document, expected_revision: int) -> Conflict:
        return Conflict(
            "Document",
            current.document_id,
            expected_revision,
            current.revision,
            current.updated_by,
            current.updated_at,
        )

    # Pattern 11
    def put_entry(
        self,
        entry: PositionEntry,
        user: str = "system",
        token: str | None = None,
        *,
        new: bool | None = None,
        loaded_at: datetime | None = None,
    ) -> PositionEntry:
        """Record or change a position entry; the document must exist (checked in the same
        transaction). Index keys are recomputed from the entry; the write is idempotent.

        The entry takes the document's as-of date and currency. `new=True`: an existing entry is
        AlreadyExists; `new=False`: a missing one is NotFound. The write applies only if the
        entry is still as read here (so the audit's before/after is exact); otherwise Conflict.
        `loaded_at`: the UpdatedAt the caller's form was loaded with; a later change is a Conflict
        (so a form left open cannot overwrite a colleague's edit).
        """
        check_size(entry.to_item())  # ids and size are refused before any request
        # The document and the entry as they are now, strongly consistent, in one request.
        doc_sk = keys.latest_sk(Kind.DOCUMENT)
        items = self._batch_get(keys.document_pk(entry.document_id), [doc_sk, entry.sk], consistent=True)
        if doc_sk not in items:
            raise NotFound("Document", entry.document_id)
        document = Document.from_item(items[doc_sk])
        previous = items.get(entry.sk)
        before = PositionEntry.from_item(previous) if previous else None
        if token and previous and previous.get(REQUEST_TOKEN) == token:
            return before  # this write already landed; only its reply was lost
        if new and before is not None:
            raise AlreadyExists(entry.KIND.entity_type, f"{entry.position_id} in {entry.document_id}")
        if new is False and before is None:
            raise NotFound(entry.KIND.entity_type, f"{entry.position_id} in {entry.document_id}")
        if loaded_at is not None and before is not None and before.updated_at != loaded_at:
            key = f"{entry.position_id} in {entry.document_id}"
            raise Conflict(entry.KIND.entity_type, key, None, None, before.updated_by, before.updated_at)
        now = utcnow()
        entry = replace(
            entry, as_of_date=document.as_of_date, currency=document.currency, updated_at=now, updated_by=user
        )
        token = token or uuid.uuid4().hex
        put = self._put({**entry.to_item(), REQUEST_TOKEN: token})
        if previous is None:
            put["Put"]["ConditionExpression"] = "attribute_not_exists(PK)"
        else:
            condition, names, values = _unchanged_condition(previous)
            put["Put"].update(ConditionExpression=condition, ExpressionAttributeNames=names)
            if values:
                put["Put"]["ExpressionAttributeValues"] = values
        actions = [
            self._document_exists_check(entry.document_id),
            put,
            self._audit_put(
                AuditEntry(
                    entry.document_id,
                    now,
                    user,
                    "update" if before else "create",
                    f"{entry.KIND.entity_type} {entry.position_id}",
                    diff(before, entry, ENTRY_FIELDS),
                    token,
                )
            ),
        ]
        self._write_entry(actions, token, entry.document_id, entry.KIND, entry.position_id)
        return entry

    def delete_entry(self, document_id: str, kind: Kind, position_id: str, user: str = "system") -> None:
        """Remove a position entry (only if unchanged since read) and audit the removed values."""
        item = self._get(keys.document_pk(document_id), keys.entry_sk(kind, position_id), consistent=True)
        if item is None:
            raise NotFound(kind.entity_type, f"{position_id} in {document_id}")
        existing = PositionEntry.from_item(item)
        now = utcnow()
        token = uuid.uuid4().hex
        condition, names, values = _unchanged_condition(item)
        delete: dict[str, Any] = {
            "TableName": self.table,
            "Key": {"PK": {"S": keys.document_pk(document_id)}, "SK": {"S": existing.sk}},
            "ConditionExpression": condition,
            "ExpressionAttributeNames": names,
        }
        if values:
            delete["ExpressionAttributeValues"] = values
        actions = [
            self._document_exists_check(document_id),
            {"Delete": delete},
            self._audit_put(
                AuditEntry(
                    document_id,
                    now,
                    user,
                    "delete",
                    f"{kind.entity_type} {position_id}",
                    diff(existing, None, ENTRY_FIELDS),
                    token,
                )
            ),
        ]
        self._write_entry(actions, token, document_id, kind, position_id)

    def _document_exists_check(self, document_id: str) -> dict[str, Any]:
        return {
            "ConditionCheck": {
                "TableName": self.table,
                "Key": {"PK": {"S": keys.document_pk(document_id)}, "SK": {"S": keys.latest_sk(Kind.DOCUMENT)}},
                "ConditionExpression": "attribute_exists(PK)",
            }
        }

    def _write_entry(
        self, actions: list[dict[str, Any]], token: str, document_id: str, kind: Kind, position_id: str
    ) -> None:
        """Run an entry transaction: [document exists check, the entry write, audit put]."""
        try:
            self._transact(actions, token)
        except ClientError as error:
            if _condition_failed(error, 0):
                raise NotFound("Document", document_id) from error
            if _condition_failed(error, 1):
                item = self._get(keys.document_pk(document_id), keys.entry_sk(kind, position_id), consistent=True)
                now = PositionEntry.from_item(item) if item else None
                raise Conflict(
                    kind.entity_type,
                    f"{position_id} in {document_id}",
                    None,
                    None,
                    now.updated_by if now else None,
                    now.updated_at if now else None,
                ) from error
            raise _write_failed(error) from error

    # Pattern 12
    def bulk_load(
        self,
        items: Iterable[dict[str, Any]],
        workers: int = 4,
        progress: Callable[[int], None] | None = None,
        max_attempts: int = 10,
    ) -> int:
        """BatchWriteItem 25 at a time over `workers` threads; unprocessed items are retried
        with capped exponential backoff and jitter, and anything left raises UnprocessedItems."""

        def requests() -> Iterator[list[dict[str, Any]]]:
            batch: list[dict[str, Any]] = []
            for values in items:
                check_size(values)
                batch.append({"PutRequest": {"Item": to_item(values)}})
                if len(batch) == BATCH_WRITE_SIZE:
                    yield batch
                    batch = []
            if batch:
                yield batch

        def write(batch: list[dict[str, Any]]) -> int:
            pending = batch
            for attempt in range(max_attempts):
                response = call("BatchWriteItem", RequestItems={self.table: pending})
                pending = response.get("UnprocessedItems", {}).get(self.table, [])
                if not pending or attempt == max_attempts - 1:
                    break
                _backoff(attempt)
            if pending:
                raise UnprocessedItems(len(pending))
            if progress:
                progress(len(batch))
            return len(batch)

        if workers <= 1:
            return sum(write(batch) for batch in requests())
        written = 0
        with ThreadPoolExecutor(max_workers=workers) as pool:
            # Bounded window of in-flight batches so a huge iterable is not materialised.
            window: list[Any] = []
            for batch in requests():
                # Each worker runs in a copy of this context, so its calls reach our collectors.
                window.append(pool.submit(contextvars.copy_context().run, write, batch))
                if len(window) >= workers * 4:
                    written += window.pop(0).result()
            written += sum(f.result() for f in window)
        return written

    def put_items(self, items: Iterable[dict[str, Any]]) -> int:
        """Sequential put of prepared items (seed sample): idempotent, small."""
        return self.bulk_load(items, workers=1)

    def count_partition(self, document_id: str) -> int:
        return sum(
            1
            for _ in self._query(
                key_condition="PK = :pk", ExpressionAttributeValues={":pk": {"S": keys.document_pk(document_id)}}
            )
        )


def _position_binding(position_id: str, kind: Kind | None) -> tuple[Any, ...]:
    """What a position-page cursor is bound to: the index, the position and the kind filter."""
    return (POSITION_INDEX, position_id, kind.value if kind else None)


def _backoff(attempt: int, base: float = 0.05, cap: float = 2.0) -> None:
    """Full-jitter exponential backoff."""
    time.sleep(random.uniform(0, min(cap, base * 2**attempt)))


def document_items(
    document: Document, activity: CapitalActivity | None, entries: Iterable[PositionEntry]
) -> list[dict]:
    """Items for a whole document (bulk load and seeding), index keys computed by the entities."""
    items = [document.to_item()]
    if activity is not None:
        items.append(activity.to_item())
    items.extend(entry.to_item() for entry in entries)
    if document.latest and document.as_of_date:
        pk, sk = keys.month_catalog_keys(document.as_of_date)
        items.append({"PK": pk, "SK": sk, "EntityType": "MonthCatalog"})
    return items
