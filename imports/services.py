"""Import a notice file: `import_prepare` (read, validate against the table; writes nothing) and
`import_apply` (write it). The web import and `import_notice` call exactly these.

All or nothing, from the user's point of view:
- any bad row: nothing is written (validation runs over the whole file first);
- the entries go in as TransactWriteItems of at most 100 items, each holding whole positions:
  their entries (conditioned on not existing) and their register (issue 13, conditioned on the
  revision read), so the roll-ups never disagree with the entries; transactions run in parallel;
- a new document's item is written last, in one publishing transaction with the audit items and
  the import record: until then the document has no page and is in no list;
- every entry is stamped with the import's token (from the file's sha256): a re-run of an
  interrupted import skips what landed and writes the rest; a re-run of a finished one finds
  the import record and writes nothing.
"""

from __future__ import annotations

import contextvars
import hashlib
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from fundportal.dynamo.entities import AuditEntry, PositionEntry, utcnow
from fundportal.dynamo.errors import DataLayerError, InvalidId, TransactionCancelled
from fundportal.dynamo.keys import validate_id
from fundportal.dynamo.repositories.imports import MAX_TRANSACTION_ITEMS, ImportRepository

from .reader import FileError, RawRow, read_rows
from .validation import Existing, Known, Registered, Validation, validate

REGISTER_ITEMS = 2  # the register and its investor copy
REGISTER_RETRIES = 4


class ImportConflict(DataLayerError):
    """Someone else wrote one of the file's entries while it was being imported."""

    def __init__(self, message: str) -> None:
        self.user_message = message
        super().__init__(message)


def checksum_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def import_token(checksum: str) -> str:
    """The RequestToken stamped on every entry this file writes."""
    return f"import-{checksum[:32]}"


@dataclass
class Prepared:
    filename: str
    checksum: str
    size: int
    rows: list[RawRow]
    validation: Validation | None = None
    file_error: str | None = None
    done: dict[str, Any] | None = None  # the record of an earlier, completed import of this file

    @property
    def ok(self) -> bool:
        return self.file_error is None and self.done is None and self.validation is not None and self.validation.ok


@dataclass(frozen=True, slots=True)
class ImportResult:
    filename: str
    checksum: str
    rows: int
    written: int
    already: int
    documents: list[str]
    seconds: float

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds else 0.0


def import_prepare(*, data: bytes, filename: str, repository: ImportRepository | None = None) -> Prepared:
    """Read and validate a file against the table (reads only)."""
    repository = repository or ImportRepository()
    checksum = checksum_of(data)
    try:
        rows = read_rows(data, filename)
    except FileError as error:
        return Prepared(filename, checksum, len(data), [], file_error=str(error))
    prepared = Prepared(filename, checksum, len(data), rows)
    prepared.done = repository.record(checksum)
    if prepared.done is None:
        prepared.validation = validate(rows, _known(rows, repository), import_token(checksum))
    return prepared


def _ids(rows: list[RawRow], column: str, what: str) -> list[str]:
    found = []
    for row in rows:
        try:
            found.append(validate_id(row.values[column], what))
        except InvalidId:
            continue  # reported by validation
    return sorted(set(found))


def _known(rows: list[RawRow], repository: ImportRepository) -> Known:
    document_ids = _ids(rows, "document_id", "document id")
    entries = {
        d: {(e.kind, e.position_id): Existing(e, token) for e, token in repository.entries(d)} for d in document_ids
    }
    registers = {
        p: Registered(r.fund_id, r.investor_id)
        for p, r in repository.registers(_ids(rows, "position_id", "position id")).items()
    }
    return Known(repository.documents(document_ids), entries, registers)


def import_apply(
    *,
    prepared: Prepared,
    user: str,
    workers: int = 8,
    progress: Callable[[int], None] | None = None,
    repository: ImportRepository | None = None,
) -> ImportResult:
    """Write a prepared (valid) file. Raises ValueError when it is not valid."""
    if not prepared.ok:
        raise ValueError("only a valid file that was not imported before can be applied")
    repository = repository or ImportRepository()
    started = time.perf_counter()
    validation = prepared.validation
    assert validation is not None
    token, now = import_token(prepared.checksum), utcnow()
    entries = [replace(e, updated_at=now, updated_by=user) for plan in validation.plans for e in plan.entries]
    writer = _GroupWriter(repository, token, now, user)
    by_position: dict[str, list[PositionEntry]] = defaultdict(list)
    for entry in entries:
        by_position[entry.position_id].append(entry)
    writer.registers = repository.registers(by_position)
    small, large = _batches(by_position)
    for batch in large:  # a position with more entries than one transaction holds: in order
        writer.write(batch)
        if progress:
            progress(sum(len(chunk) for _, chunk in batch))
    _parallel(writer, small, workers, progress)
    repository.put_catalogs(entries, writer.new_funds, workers=workers)
    documents = [plan.document for plan in validation.plans]
    audits = [
        AuditEntry(
            plan.document.document_id,
            datetime.now(now.tzinfo),
            user,
            "import",
            f"File {prepared.filename}",
            {"file": [None, prepared.filename], "rows": [None, plan.rows], "checksum": [None, prepared.checksum]},
            _hash(token, "audit", plan.document.document_id, now.isoformat()),
        )
        for plan in validation.plans
    ]
    record = {
        "checksum": prepared.checksum,
        "file": prepared.filename,
        "rows": len(prepared.rows),
        "documents": [d.document_id for d in documents],
        "at": now,
        "by": user,
    }
    new = [replace(p.document, updated_at=now, updated_by=user) for p in validation.plans if p.is_new]
    existing = [p.document for p in validation.plans if not p.is_new]
    try:
        repository.publish(new, existing, audits, record, _hash(token, "publish", now.isoformat()))
    except TransactionCancelled as error:
        if repository.record(prepared.checksum) is None:  # not a concurrent run of the same file
            raise ImportConflict(
                "The import could not be published (a document changed meanwhile); nothing was "
                "published. Run the import again."
            ) from error
    return ImportResult(
        prepared.filename,
        prepared.checksum,
        len(prepared.rows),
        len(entries),
        validation.already,
        [d.document_id for d in documents],
        time.perf_counter() - started,
    )


Batch = list[tuple[str, list[PositionEntry]]]


def _batches(by_position: dict[str, list[PositionEntry]]) -> tuple[list[Batch], list[Batch]]:
    """Whole positions packed into transactions of at most 100 items (entries + register items);
    a position too large for one is split into chunks written one after the other."""
    room = MAX_TRANSACTION_ITEMS - REGISTER_ITEMS
    small: list[Batch] = []
    large: list[Batch] = []
    batch: Batch = []
    size = 0
    for position_id in sorted(by_position):
        entries = by_position[position_id]
        if len(entries) > room:
            large.extend([[(position_id, entries[i : i + room])] for i in range(0, len(entries), room)])
            continue
        if size + len(entries) + REGISTER_ITEMS > MAX_TRANSACTION_ITEMS:
            small.append(batch)
            batch, size = [], 0
        batch.append((position_id, entries))
        size += len(entries) + REGISTER_ITEMS
    if batch:
        small.append(batch)
    return small, large


def _parallel(writer: _GroupWriter, batches: list[Batch], workers: int, progress: Callable[[int], None] | None):
    def run(batch: Batch) -> int:
        writer.write(batch)
        return sum(len(chunk) for _, chunk in batch)

    if workers <= 1:
        for batch in batches:
            done = run(batch)
            if progress:
                progress(done)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        # Each task runs in a copy of this context, so its requests reach the caller's collectors.
        futures = [pool.submit(contextvars.copy_context().run, run, batch) for batch in batches]
        for future in futures:
            done = future.result()
            if progress:
                progress(done)


class _GroupWriter:
    """Writes one batch: its entries and its positions' registers in one transaction."""

    def __init__(self, repository: ImportRepository, token: str, now: datetime, user: str) -> None:
        self.repository, self.token, self.now, self.user = repository, token, now, user
        self.registers: dict[str, Any] = {}
        self.new_funds: set[str] = set()

    def write(self, batch: Batch) -> None:
        for attempt in range(REGISTER_RETRIES):
            actions, owners, seen, updated = self._actions(batch)
            try:
                self.repository.transact(
                    actions, _hash(self.token, self.now.isoformat(), *_owner_keys(owners), *map(str, seen))
                )
            except TransactionCancelled as error:
                moved = {owner[1] for i, owner in enumerate(owners) if owner[0] == "register" and error.failed(i)}
                entries = [owner[1] for i, owner in enumerate(owners) if owner[0] == "entry" and error.failed(i)]
                if entries:
                    e = entries[0]
                    raise ImportConflict(
                        f"{e.document_id} got a {e.kind.slug} for {e.position_id} from someone else during the "
                        "import; the rows written so far stay. Run the import again to see what is left."
                    ) from error
                if moved and attempt < REGISTER_RETRIES - 1:
                    self.registers.update(self.repository.registers(moved))
                    continue
                raise
            self.registers.update(updated)
            return

    def _actions(self, batch: Batch):
        from fundportal.dynamo.register import PositionRegister

        actions: list[dict[str, Any]] = []
        owners: list[tuple[str, Any]] = []
        seen: list[int] = []
        updated: dict[str, Any] = {}
        for position_id, chunk in batch:
            for entry in chunk:
                actions.append(self.repository.entry_action(entry, self.token))
                owners.append(("entry", entry))
            first = chunk[0]
            register = self.registers.get(position_id) or PositionRegister(
                position_id=position_id, fund_id=first.fund_id, investor_id=first.investor_id, currency=first.currency
            )
            if register.revision == 0:
                self.new_funds.add(register.fund_id)
            builder = register.builder()
            for entry in chunk:
                builder.add(entry)
            new = replace(
                register.with_builder(builder),
                revision=register.revision + 1,
                updated_at=self.now,
                updated_by=self.user,
            )
            register_actions = self.repository.register_actions(new, register.revision)
            actions.extend(register_actions)
            owners.extend([("register", position_id)] * len(register_actions))
            seen.append(register.revision)
            updated[position_id] = new
        return actions, owners, seen, updated


def _owner_keys(owners: list[tuple[str, Any]]) -> list[str]:
    return [owner[1].sk + owner[1].document_id if owner[0] == "entry" else owner[1] for owner in owners]


def _hash(*parts: str) -> str:
    """A ClientRequestToken (at most 36 characters) from what a transaction writes."""
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
