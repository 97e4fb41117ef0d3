"""Notice imports (issue 14): the reads that validate a file against the table and the writes
that land it. Rules (what to write, in which groups) live in `imports.services`.

Writes: position groups as TransactWriteItems of at most 100 items (entries conditioned on not
existing, each position's register conditioned on the revision read, in the same transaction),
then one publishing transaction (the new documents, the audit items and the import record).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .. import keys
from ..entities import AuditEntry, Document, MonthCatalogEntry, PositionEntry, entity_from_item, search_items_of
from ..gateway import EXISTS, NOT_EXISTS, TableGateway
from ..keys import Kind
from .documents import REQUEST_TOKEN

MAX_TRANSACTION_ITEMS = 100
IMPORT_RECORD_TYPE = "NoticeImport"


class ImportRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    # --- reads (consistent: they decide what to write) ---

    def record(self, checksum: str) -> dict[str, Any] | None:
        """The record of a completed import of this file (GetItem), or None."""
        item = self.gateway.get(keys.import_record_keys(checksum), consistent=True)
        if item is None:
            return None
        return {
            "file": item.get("File", ""),
            "rows": int(item.get("Rows", 0)),
            "at": item.get("ImportedAt", ""),
            "by": item.get("ImportedBy", ""),
            "documents": list(item.get("Documents") or []),
        }

    def documents(self, document_ids: Iterable[str]) -> dict[str, Document]:
        """The current documents among `document_ids` (BatchGetItem, 100 keys a request)."""
        wanted = [(keys.document_pk(d), keys.latest_sk(Kind.DOCUMENT)) for d in document_ids]
        found: dict[str, Document] = {}
        for start in range(0, len(wanted), 100):
            for item in self.gateway.batch_get(wanted[start : start + 100], consistent=True).values():
                document = Document.from_item(item)
                found[document.document_id] = document
        return found

    def entries(self, document_id: str) -> list[tuple[PositionEntry, str | None]]:
        """Every position entry in a document's partition with the token of the write that made
        it (one Query, paginated), whether or not the document item exists yet."""
        found = []
        for item in self.gateway.query("PK = :pk", {":pk": keys.document_pk(document_id)}):
            entity = entity_from_item(item) if _is_entry(item) else None
            if isinstance(entity, PositionEntry):
                found.append((entity, item.get(REQUEST_TOKEN)))
        return found

    def registers(self, position_ids: Iterable[str]) -> dict[str, Any]:
        """The position registers among `position_ids` (issue 13), BatchGetItem 100 keys a request."""
        from ..register import PositionRegister
        from .register import register_key

        wanted = [register_key(p) for p in position_ids]
        found: dict[str, Any] = {}
        for start in range(0, len(wanted), 100):
            for item in self.gateway.batch_get(wanted[start : start + 100], consistent=True).values():
                register = PositionRegister.from_item(item)
                found[register.position_id] = register
        return found

    # --- writes ---

    def entry_action(self, entry: PositionEntry, token: str) -> dict[str, Any]:
        """Put a new entry (it must not exist), stamped with the import's token."""
        return self.gateway.put_action({**entry.to_item(), REQUEST_TOKEN: token}, NOT_EXISTS)

    def register_actions(self, register: Any, seen_revision: int) -> list[dict[str, Any]]:
        """The register and its investor copy, conditioned on the revision read (issue 13's
        `RegisterWrite`), without the fund catalog entry: the import writes that once per fund
        (`put_catalogs`), so parallel transactions of one fund never touch a common item."""
        from .register import RegisterWrite

        write = RegisterWrite(register, seen_revision)
        return [
            self.gateway.put_action(register.to_item(), write.condition()),
            self.gateway.put_action(register.investor_copy_item()),
        ]

    def transact(self, actions: list[dict[str, Any]], token: str) -> None:
        self.gateway.transact(actions, token)

    def put_catalogs(self, entries: Iterable[PositionEntry], fund_ids: Iterable[str], workers: int = 1) -> int:
        """Idempotent puts of constant items: search items (issue 15) of the entries, and the funds
        catalog entries (issue 13). Duplicates are written once."""
        from ..register import FundCatalogEntry

        unique: dict[tuple[str, str], dict[str, Any]] = {}
        for entry in entries:
            for search in search_items_of(entry):
                item = search.to_item()
                unique[(item["PK"], item["SK"])] = item
        for fund_id in set(fund_ids):
            item = FundCatalogEntry(fund_id).to_item()
            unique[(item["PK"], item["SK"])] = item
        return self.gateway.batch_write(unique.values(), workers=workers)

    def publish(
        self,
        new_documents: list[Document],
        existing_documents: list[Document],
        audits: list[AuditEntry],
        record: dict[str, Any],
        token: str,
    ) -> None:
        """One transaction: each new document (must not exist) with its month catalog entry and
        search items, a check that each existing document is still there, one audit item per
        document, and the import record (must not exist: the same file is published once)."""
        put, actions = self.gateway.put_action, []
        months = set()
        for document in new_documents:
            actions.append(put({**document.to_item(), REQUEST_TOKEN: token}, NOT_EXISTS))
            if document.as_of_date:
                months.add(document.as_of_date.replace(day=1))
        for document in existing_documents:
            key = (keys.document_pk(document.document_id), keys.latest_sk(Kind.DOCUMENT))
            actions.append(self.gateway.check_action(key, EXISTS))
        constant = [MonthCatalogEntry(month).to_item() for month in sorted(months)]
        constant += [search.to_item() for document in new_documents for search in search_items_of(document)]
        # Two documents of one fund name the same search item: a transaction touches an item once.
        actions.extend(put(item) for item in {(i["PK"], i["SK"]): i for i in constant}.values())
        actions.extend(put(audit.to_item(), NOT_EXISTS) for audit in audits)
        pk, sk = keys.import_record_keys(record["checksum"])
        actions.append(
            put(
                {
                    "PK": pk,
                    "SK": sk,
                    "EntityType": IMPORT_RECORD_TYPE,
                    "File": record["file"],
                    "Rows": record["rows"],
                    "Checksum": record["checksum"],
                    "Documents": record["documents"],
                    "ImportedAt": record["at"].isoformat() if isinstance(record["at"], datetime) else record["at"],
                    "ImportedBy": record["by"],
                },
                NOT_EXISTS,
            )
        )
        if len(actions) > MAX_TRANSACTION_ITEMS:
            raise ValueError(f"publishing needs {len(actions)} items; a transaction holds {MAX_TRANSACTION_ITEMS}")
        self.gateway.transact(actions, token)


def _is_entry(item: dict[str, Any]) -> bool:
    try:
        return Kind.from_entity_type(item.get("EntityType", "")).is_position_entry
    except KeyError:
        return False
