"""Notice imports: the reads that validate a file against the table, the bulk writes that land
new documents' entries, and the import's own items (run, record). Rules (what to write, in which
order) live in `imports.services` and `imports.writing`; the transactions are unit-of-work actions.

Writes, in order: the run record (one conditional put: the import's time, user and new documents);
the entries of new documents, search items and fund catalog entries by parallel BatchWriteItem; the
registers of those entries in TransactWriteItems of at most 100 items (each conditioned on the
revision read, plus a check that the run is not published yet); the entries of existing documents
with their registers in TransactWriteItems (entries conditioned on not existing); then publishing
(the new documents, the audit items, the import record and the run marked published) in one
transaction, or in parts of at most 100 actions, each putting its `PublishedPart` item
(`imports.publishing`).
"""

from __future__ import annotations

import contextvars
import itertools
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fundportal.domain.kinds import Kind, SearchKind, import_marker
from fundportal.domain.model import Document
from fundportal.domain.position_entries import PositionEntry

from ..gateway import Condition, TableGateway
from ..mapping import keys
from ..mapping.companions import FundCatalogEntry, search_items_of
from ..mapping.entities import entity_from_item, from_item, to_item
from ..mapping.expiry import published_run_expiry
from ..schema import TTL_ATTRIBUTE
from .documents import REQUEST_TOKEN

MAX_TRANSACTION_ITEMS = 100
IMPORT_RECORD_TYPE = "NoticeImport"
IMPORT_RUN_TYPE = "NoticeImportRun"
IMPORT_PART_TYPE = "NoticeImportPart"
BATCH_GET_KEYS = 100
# A register transaction may land only while its import is unpublished: a marker is dropped from
# the registers (as published) only once the run says so, so an import never counts its entries twice.
UNPUBLISHED = Condition("attribute_exists(PK) AND attribute_not_exists(Published)")


IMPORT_TOKEN_PREFIX = "import-"  # noqa: S105 - a RequestToken prefix, not a secret


def import_token(checksum: str) -> str:
    """The RequestToken stamped on every entry a file's import writes."""
    return f"{IMPORT_TOKEN_PREFIX}{checksum[:32]}"


def marker_of_token(token: str | None) -> str | None:
    """The import marker (`kinds.import_marker`) of an entry's RequestToken, if an import wrote it."""
    if not token or not token.startswith(IMPORT_TOKEN_PREFIX):
        return None
    return token[len(IMPORT_TOKEN_PREFIX) :][:16]


@dataclass(frozen=True, slots=True)
class ImportRecord:
    """The record of a completed import (the same file is published once)."""

    checksum: str
    file: str
    rows: int
    documents: list[str]
    at: datetime | str
    by: str

    def to_item(self) -> dict[str, Any]:
        pk, sk = keys.import_record_keys(self.checksum)
        return {
            "PK": pk,
            "SK": sk,
            "EntityType": IMPORT_RECORD_TYPE,
            "File": self.file,
            "Rows": self.rows,
            "Checksum": self.checksum,
            "Documents": self.documents,
            "ImportedAt": self.at.isoformat() if isinstance(self.at, datetime) else self.at,
            "ImportedBy": self.by,
        }


@dataclass(frozen=True, slots=True)
class ImportRun:
    """The run record: the first run's time and user (every run of a file stamps them, so a re-run
    writes the very same items) and the documents it creates."""

    marker: str
    checksum: str
    at: datetime
    by: str
    new_documents: tuple[str, ...]
    published: bool = False

    def to_item(self) -> dict[str, Any]:
        pk, sk = keys.import_run_keys(self.marker)
        item = {
            "PK": pk,
            "SK": sk,
            "EntityType": IMPORT_RUN_TYPE,
            "Checksum": self.checksum,
            "StartedAt": self.at.isoformat(),
            "StartedBy": self.by,
            "NewDocuments": list(self.new_documents),
        }
        if not self.published:
            return item
        return {**item, "Published": True, TTL_ATTRIBUTE: published_run_expiry(self.at)}

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> ImportRun:
        return cls(
            import_marker(item["Checksum"]),
            item["Checksum"],
            datetime.fromisoformat(item["StartedAt"]),
            item.get("StartedBy", ""),
            tuple(item.get("NewDocuments") or ()),
            bool(item.get("Published")),
        )


@dataclass(frozen=True, slots=True)
class PublishedPart:
    """A part of an import's publishing is done: its documents are visible. Expires with the run
    (the same fixed time after the run's start, so every run of the file writes the same item)."""

    marker: str
    number: int
    documents: tuple[str, ...]
    started_at: datetime

    def to_item(self) -> dict[str, Any]:
        pk, sk = keys.import_part_keys(self.marker, self.number)
        return {
            "PK": pk,
            "SK": sk,
            "EntityType": IMPORT_PART_TYPE,
            "Documents": list(self.documents),
            TTL_ATTRIBUTE: published_run_expiry(self.started_at),
        }


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
                document = from_item(Document, item)
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

    def registers(self, position_ids: Iterable[str], workers: int = 1) -> dict[str, Any]:
        """The position registers among `position_ids`: BatchGetItem of 100 keys, the
        requests spread over `workers` threads."""
        from fundportal.domain.position_register import PositionRegister

        from .register import register_key

        wanted = [register_key(p) for p in position_ids]
        chunks = [wanted[start : start + BATCH_GET_KEYS] for start in range(0, len(wanted), BATCH_GET_KEYS)]
        found: dict[str, Any] = {}
        for items in _spread(lambda chunk: self.gateway.batch_get(chunk, consistent=True), chunks, workers):
            for item in items.values():
                register = from_item(PositionRegister, item)
                found[register.position_id] = register
        return found

    def published(self, markers: Iterable[str]) -> set[str]:
        """The markers among `markers` whose import is published (their runs, BatchGetItem). A run
        that is gone expired, and only published runs expire (`expiry`): it counts as published."""
        wanted = sorted(set(markers))
        done = set(wanted)
        for start in range(0, len(wanted), BATCH_GET_KEYS):
            chunk = [keys.import_run_keys(m) for m in wanted[start : start + BATCH_GET_KEYS]]
            for item in self.gateway.batch_get(chunk, consistent=True).values():
                run = ImportRun.from_item(item)
                if not run.published:
                    done.discard(run.marker)
        return done

    def run(self, marker: str) -> ImportRun:
        """The run record of an import (GetItem; records are never deleted)."""
        item = self.gateway.get(keys.import_run_keys(marker), consistent=True)
        assert item is not None
        return ImportRun.from_item(item)

    def published_parts(self, marker: str, parts: int) -> set[int]:
        """The publishing parts (numbered 0 .. `parts` - 1) of an import that are done
        (BatchGetItem of their items, consistent)."""
        done: set[int] = set()
        for start in range(0, parts, BATCH_GET_KEYS):
            numbers = range(start, min(parts, start + BATCH_GET_KEYS))
            wanted = {keys.import_part_keys(marker, n): n for n in numbers}
            for key in self.gateway.batch_get(list(wanted), consistent=True):
                done.add(wanted[key])
        return done

    # --- bulk writes (BatchWriteItem; the transactions are unit-of-work actions) ---

    def put_entries(
        self,
        entries: Iterable[PositionEntry],
        token: str,
        extra: Iterable[dict[str, Any]] = (),
        workers: int = 1,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Entries of documents that do not exist yet, stamped with the import's token, then the
        `extra` items (`catalog_items`), by BatchWriteItem (unconditional: no one else can write
        into a missing document, and the catalog items are constant)."""
        items = ({**to_item(entry), REQUEST_TOKEN: token} for entry in entries)
        return self.gateway.batch_write(itertools.chain(items, extra), workers=workers, progress=progress)

    def catalog_items(self, first_entries: dict[str, PositionEntry]) -> dict[str, list[dict[str, Any]]]:
        """The constant items of the positions an import registers, by position (given by their
        first entry, in the order they go in): the search items of its position and investor (a
        fund's comes with its documents) and, with the first position of each fund, the fund's
        catalog entry. Each item comes once, with the first position that needs it: an investor
        holding several new positions has one search item, and BatchWriteItem refuses a request
        that names a key twice."""
        found: dict[str, list[dict[str, Any]]] = {}
        seen: set[tuple[str, str]] = set()
        for position_id, entry in first_entries.items():
            searches = [s for s in search_items_of(entry) if s.kind is not SearchKind.FUND]
            found[position_id] = []
            for record in (*searches, FundCatalogEntry(entry.fund_id)):
                item = to_item(record)
                if (item["PK"], item["SK"]) not in seen:
                    seen.add((item["PK"], item["SK"]))
                    found[position_id].append(item)
        return found


def _is_entry(item: dict[str, Any]) -> bool:
    try:
        return Kind.from_entity_type(item.get("EntityType", "")).is_position_entry
    except KeyError:
        return False


def _spread(work: Callable[[Any], Any], chunks: list[Any], workers: int) -> list[Any]:
    """`work` of every chunk, over up to `workers` threads (each in a copy of this context, so its
    requests reach the caller's collectors)."""
    if workers <= 1 or len(chunks) <= 1:
        return [work(chunk) for chunk in chunks]
    contexts = [contextvars.copy_context() for _ in chunks]  # taken here, in the caller's thread
    with ThreadPoolExecutor(max_workers=min(workers, len(chunks))) as pool:
        return list(pool.map(lambda task: task[0].run(work, task[1]), zip(contexts, chunks, strict=True)))
