"""Import a notice file: `import_prepare` (read, validate against the table; writes nothing) and
`import_apply` (write it). The web import and `import_notice` call exactly these.

All or nothing, from the user's point of view:
- any bad row: nothing is written (validation runs over the whole file first);
- a run record is written first: the import's time and user (a re-run or a concurrent run of
  the same file stamps the very same items) and the documents it creates;
- entries of new documents (no one else can write into a missing document) go in by parallel
  BatchWriteItem with the search items of new positions; then, once all of them are in, their
  registers, in transactions of 99 positions, each conditioned on the revision read
  and marked with the import's marker, so a re-run counts an entry in its register exactly
  once (`imports.writing`);
- entries of existing documents go in transactions with their registers, conditioned on not
  existing: someone else's entry is never overwritten (ImportConflict names it);
- a new document's item is written last, in one publishing transaction with the audit items and
  the import record: until then the document has no page and is in no list;
- every entry is stamped with the import's token (from the file's sha256): a re-run of an
  interrupted import skips what landed and writes the rest; a re-run of a finished one finds
  the import record and writes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.errors import (
    AlreadyExists,
    AlreadyImported,
    ImportConflict,
    ImportUnfinished,
    InvalidId,
    NotFound,
)
from fundportal.domain.kinds import import_marker, validate_id
from fundportal.domain.model import utcnow
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.store.errors import DataLayerError, TransactionCancelled
from fundportal.store.repositories.imports import (
    ImportRepository,
    ImportRun,
    import_token,
)
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.spellings import SpellingRepository
from fundportal.store.uow import NEW, UnitOfWork

from . import guards
from .pacing import import_pacing
from .publishing import Publication, Publisher
from .reader import FileError, RawRow, read_rows
from .validation import ID_COLUMNS, validate
from .validation_values import Existing, Known, Registered, RowError, Validation
from .writing import (
    ExistingWriter,
    PublishedElsewhere,
    RegisterPhase,
    Stamp,
)

__all__ = [
    "AlreadyImported",
    "ImportConflict",
    "ImportResult",
    "ImportUnfinished",
    "Prepared",
    "checksum_of",
    "import_apply",
    "import_prepare",
]

log = logging.getLogger(__name__)
READ_WORKERS = 4  # parallel BatchGetItem of the registers while validating


def checksum_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Prepared:
    filename: str
    checksum: str
    size: int
    rows: list[RawRow]
    validation: Validation | None = None
    file_error: str | None = None
    done: dict[str, Any] | None = None  # the record of an earlier, completed import of this file
    # The registers read for validation (consistent): `import_apply` starts from them; every
    # register write is conditioned on the revision read, so a register moved since is re-read.
    registers: dict[str, PositionRegister] = field(default_factory=dict)

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


def import_prepare(
    *, data: bytes, filename: str, scope: AccessScope = OPERATOR, repository: ImportRepository | None = None
) -> Prepared:
    """Read and validate a file against the table (reads only). A row in a fund `scope` may not
    edit is an error of its row, worded the same whether or not the fund exists."""
    repository = repository or ImportRepository()
    checksum = checksum_of(data)
    try:
        rows = read_rows(data, filename)
    except FileError as error:
        return Prepared(filename, checksum, len(data), [], file_error=str(error))
    prepared = Prepared(filename, checksum, len(data), rows)
    prepared.done = repository.record(checksum)
    if prepared.done is None:
        prepared.registers = repository.registers(_ids(rows, "position_id", "position id"), workers=READ_WORKERS)
        prepared.validation = validate(rows, _known(rows, prepared.registers, repository), import_token(checksum))
        _refuse_outside(prepared.validation, scope)
    return prepared


def _refuse_outside(validation: Validation, scope: AccessScope) -> None:
    for result in validation.results:
        fund_id = result.row.values.get("fund_id", "").strip()
        if fund_id and not scope.can_edit(fund_id):
            result.errors.append(RowError(result.row.number, "fund_id", f"You may not import into fund '{fund_id}'."))


def _ids(rows: list[RawRow], column: str, what: str) -> list[str]:
    found = []
    for row in rows:
        try:
            found.append(validate_id(row.values[column], what))
        except InvalidId:
            continue  # reported by validation
    return sorted(set(found))


def _known(rows: list[RawRow], registers: dict[str, PositionRegister], repository: ImportRepository) -> Known:
    document_ids = _ids(rows, "document_id", "document id")
    entries = {
        d: {(e.kind, e.position_id): Existing(e, token) for e, token in repository.entries(d)} for d in document_ids
    }
    registered = {p: Registered(r.fund_id, r.investor_id) for p, r in registers.items()}
    named = [(kind, found) for column, kind, what in ID_COLUMNS for found in _ids(rows, column, what)]
    spellings = SpellingRepository(repository.gateway).existing(named)
    # One Query per fund (paged, ids only), and only for the funds where a row names a position
    # that is neither registered nor opened by the file: a file of known positions reads nothing more.
    funds = RegisterRepository(repository.gateway)
    needed = guards.funds_to_read(guards.position_claims(rows), registers)
    fund_positions = {fund_id: funds.fund_position_ids(fund_id) for fund_id in needed}
    return Known(repository.documents(document_ids), entries, registered, spellings, fund_positions)


def import_apply(
    *,
    prepared: Prepared,
    user: str,
    workers: int = 8,
    progress: Callable[[int], None] | None = None,
    repository: ImportRepository | None = None,
) -> ImportResult:
    """Write a prepared (valid) file. Raises ValueError when it is not valid, ImportConflict when
    someone else's write stands in its way, ImportUnfinished when the table stops it half-way,
    AlreadyImported when another run of the same file
    (another user's confirm) published it first: the loser is never told it wrote the rows."""
    if not prepared.ok:
        raise ValueError("only a valid file that was not imported before can be applied")
    repository = repository or ImportRepository()
    started = time.perf_counter()
    validation = prepared.validation
    assert validation is not None
    token, marker = import_token(prepared.checksum), import_marker(prepared.checksum)
    new_ids = tuple(p.document.document_id for p in validation.plans if p.is_new)
    stamp = Stamp(token, marker, utcnow(), user)
    run = _start(ImportRun(marker, prepared.checksum, stamp.at, user, new_ids), stamp.unit_of_work(repository))
    awaiting = frozenset(p.document.document_id for p in validation.plans if not p.document.counts_entries)
    stamp = Stamp(token, marker, run.at, run.by, awaiting)
    publication = Publication(
        prepared.filename, prepared.checksum, len(prepared.rows), tuple(validation.plans), stamp, run, user
    )
    publisher = Publisher(publication, repository)
    # A re-run after some parts were published finds those documents in the table: still this run's.
    if run.new_documents != new_ids and not publisher.resumes(new_ids):
        raise ImportConflict(ImportConflict.DOCUMENTS_CHANGED)
    if not run.published:
        # PublishedElsewhere: another run of this file finished it; publishing finds its record.
        try:
            with contextlib.suppress(PublishedElsewhere), import_pacing():
                _write(validation, prepared.registers, run, stamp, repository, workers, progress)
        except DataLayerError as error:  # part of the file is in, nothing published: say how to go on
            log.error("import %s stopped: %r", marker, error)
            raise ImportUnfinished(marker, written=True) from error
    written = validation.to_write
    _publish(publisher, prepared)
    return ImportResult(
        prepared.filename,
        prepared.checksum,
        len(prepared.rows),
        written,
        validation.already,
        [plan.document.document_id for plan in validation.plans],
        time.perf_counter() - started,
    )


def _start(run: ImportRun, uow: UnitOfWork) -> ImportRun:
    """Put the run record unless a run of this file already did; returns the one stored."""
    try:
        with uow:
            uow.put(run, expect=NEW, name="import run")
            uow.commit()
    except AlreadyExists:
        return uow.imports.run(run.marker)
    return run


def _write(
    validation: Validation,
    registers: dict[str, PositionRegister],
    run: ImportRun,
    stamp: Stamp,
    repository: ImportRepository,
    workers: int,
    progress: Callable[[int], None] | None,
) -> None:
    """Entries of new documents with their registers, then entries of existing ones."""
    counted: dict[str, list[PositionEntry]] = defaultdict(list)  # every entry of new documents
    fresh: dict[str, list[PositionEntry]] = defaultdict(list)  # those still to write
    existing: dict[str, list[PositionEntry]] = defaultdict(list)
    for plan in validation.plans:
        stamped = [replace(e, updated_at=stamp.at, updated_by=stamp.by) for e in plan.entries]
        if not plan.is_new:
            for entry in stamped:
                existing[entry.position_id].append(entry)
            continue
        for entry in stamped:
            fresh[entry.position_id].append(entry)
        for entry in (*plan.landed, *stamped):
            counted[entry.position_id].append(entry)
    # The positions this import registers, by their first entry: their companions go in before them.
    first = {p: (counted.get(p) or existing[p])[0] for p in sorted({*counted, *existing} - set(registers))}
    catalogs = repository.catalog_items(first)
    registers = dict(registers)

    def land(positions: list[str]) -> int:
        """A group's entries and the constant items of its new positions, before the registers."""
        entries = [e for p in positions for e in fresh.get(p, ())]
        repository.put_entries(entries, stamp.token, [i for p in positions for i in catalogs.pop(p, ())])
        return len(entries)

    if counted:
        RegisterPhase(repository, run, stamp, registers).write(counted, land, workers, progress)
    if catalogs:  # positions only in existing documents
        repository.put_entries((), stamp.token, [i for items in catalogs.values() for i in items], workers)
    if existing:
        ExistingWriter(repository, stamp, registers).write_all(existing, workers, progress)


def _publish(publisher: Publisher, prepared: Prepared) -> None:
    """Publishing (`imports.publishing`: one transaction, or parts when it needs more than 100
    actions); a concurrent run of the same file may have done it first."""
    try:
        publisher.publish()
    except (NotFound, AlreadyExists, TransactionCancelled) as error:
        done = publisher.repository.record(prepared.checksum)
        if done is None:  # not a concurrent run of the same file
            raise ImportConflict(ImportConflict.NOT_PUBLISHED) from error
        raise AlreadyImported(prepared.filename, done["by"], str(done["at"]), tuple(done["documents"])) from error
