"""How an import's entries and position registers are written (`imports.services.import_apply`
decides the order). Two paths, because of who else can write:

- **New documents** (not in the table yet, so no one else can write into them: the entry services
  refuse a missing document): every group's entries go in by BatchWriteItem, then `RegisterPhase`
  adds them to their positions' registers, one transaction per group. A register lists the marker
  of each import whose entries it counts (`PositionRegister.imports`), written in the same
  conditional put as the roll-up; a re-run skips a register that carries its marker and counts
  every entry of the file (those an earlier run wrote included) in one that does not, so a crash
  between the entries and the registers never loses or doubles a count.
- **Existing documents** (anyone may add entries to them meanwhile): `ExistingWriter` writes each
  position's entries (conditioned on not existing) and its register in one transaction, as
  before: a conflicting entry is never overwritten, and its roll-up is never behind its entries.

Registers are always conditioned on the revision read; a moved one is re-read and recomputed.
A register the import creates says when it was registered (`registered_at`, one moment a
transaction), so the transaction keeps ONE registration item per fund for its new registers
instead of a version each (`fundportal.store.uow`; the known-at rule: `register_versions`).
"""

from __future__ import annotations

import contextvars
import hashlib
from collections.abc import Callable, Container
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from fundportal.domain.errors import AlreadyExists, ImportConflict
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.store.repositories.imports import MAX_TRANSACTION_ITEMS, UNPUBLISHED, ImportRepository, ImportRun
from fundportal.store.repositories.summaries import shard_count as summary_shard_count
from fundportal.store.repositories.summaries import summary_shard_of
from fundportal.store.uow import NEW, REGISTER_ACTIONS, ImportUnitOfWork, UnitOfWork, when_registers_move
from positions.services import register_counting

REGISTER_ITEMS = REGISTER_ACTIONS  # the register (in its own indexes) and the version it keeps
NEW_REGISTER_ITEMS = 1  # a new register: its registration is in its fund's one item (+1 a fund)
REGISTER_RETRIES = 8  # a transaction whose registers moved is re-read and recomputed at most this often
# A register transaction: the run check + 49 registers, each with the version it keeps (a new
# one: its fund's one registrations item). More new ones would fit, but the waves of groups keep
# the document's and the fund's index keys at an even write rate (`RegisterPhase`).
POSITIONS_PER_TRANSACTION = (MAX_TRANSACTION_ITEMS - 1) // REGISTER_ITEMS
INTERLEAVE = True  # registers wave by wave, after their wave's entries (`RegisterPhase`)


class PublishedElsewhere(Exception):
    """Another run of the same file published the import while this one was writing."""


@dataclass(frozen=True, slots=True)
class Stamp:
    """What every write of one import carries: its token, marker, time and user."""

    token: str
    marker: str
    at: datetime
    by: str
    # The documents not approved (the file's new ones among them): their entries are counted in
    # the registers' awaiting-approval part.
    awaiting: frozenset[str] = frozenset()

    def unit_of_work(self, repository: ImportRepository) -> UnitOfWork:
        """A unit of work on `repository`'s table stamping this import's token on what it writes."""
        uow = ImportUnitOfWork(repository.gateway)
        uow.request(self.token)
        return uow


@dataclass(frozen=True, slots=True)
class RegisterWrite:
    """A register with an import's entries counted, and the revision it was read at (0: new)."""

    register: PositionRegister
    seen_revision: int
    seen: PositionRegister | None = None  # the register as read (None: new): its fund summary's delta


def stage_registers(uow: UnitOfWork, run: ImportRun, writes: list[RegisterWrite]) -> UnitOfWork:
    """The register transaction's actions in the fresh unit of work `uow` (items typed, fund
    summary deltas summed), built ahead of sending it with `put_registers`."""
    uow.check(run, UNPUBLISHED, name="import run", refused=PublishedElsewhere)
    for write in writes:
        uow.put(write.register, expect=write.seen_revision or NEW, name="register", was=write.seen)
    return uow


def put_registers(uow: UnitOfWork, run: ImportRun, writes: list[RegisterWrite]) -> None:
    """One transaction: the run still unpublished, then each register at the revision read (a
    unit of work `stage_registers` built is sent as built). PublishedElsewhere when the run is
    published; RegisterChanged naming the moved registers."""
    if uow.actions:  # built ahead
        try:
            uow.commit()
        finally:
            uow.rollback()
        return
    with uow:
        stage_registers(uow, run, writes)
        uow.commit()


# A group's register writes and the unit of work holding their transaction (None: nothing to write).
Staged = tuple[list[RegisterWrite], UnitOfWork | None]


def new_register(position_id: str, first: PositionEntry, at: datetime) -> PositionRegister:
    """The register an unregistered position gets from its first entry in the file, registered
    by the write made `at`."""
    return PositionRegister(position_id, first.fund_id, first.investor_id, currency=first.currency, registered_at=at)


def parallel(
    work: Callable[[Any], int],
    tasks: list[Any],
    workers: int,
    progress: Callable[[int], None] | None,
    pool: ThreadPoolExecutor | None = None,
) -> None:
    """Run `work` over `tasks` on up to `workers` threads (each in a copy of this context, so its
    requests reach the caller's collectors), reporting each task's count to `progress`. `pool`:
    threads kept from one call to the next (starting threads anew for each wave costs the
    caller a thread start per task, each waiting for the busy threads' interpreter lock)."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            done = work(task)
            if progress:
                progress(done)
        return
    if pool is None:
        with ThreadPoolExecutor(max_workers=min(workers, len(tasks))) as own:
            parallel(work, tasks, workers, progress, own)
        return
    futures = [pool.submit(contextvars.copy_context().run, work, task) for task in tasks]
    try:
        for future in futures:
            done = future.result()
            if progress:
                progress(done)
    except BaseException:
        for future in futures:  # the first failure stops the tasks not started yet
            future.cancel()
        raise


def summary_groups(
    positions: list[str],
    by_position: dict[str, list[PositionEntry]],
    most: int,
    room: int,
    registered: Container[str] | None = None,
) -> list[list[str]]:
    """`positions` in groups of at most `most` whose registers and fund-summary shard updates
    (one per shard a group touches: `fundportal.store.uow`) fit in `room` actions. A position in
    `registered` (None: every position) has a register that keeps a version of what it replaces;
    any other's is new: one action, and one more for the registrations of its fund."""
    shards = summary_shard_count()
    groups: list[list[str]] = []
    group: list[str] = []
    actions = 0
    touched: set[tuple[str, int]] = set()
    funds: set[str] = set()  # the funds of the group's new registers
    for position_id in positions:
        fund_id = by_position[position_id][0].fund_id
        shard = summary_shard_of(fund_id, position_id, shards)
        new = registered is not None and position_id not in registered
        cost = (NEW_REGISTER_ITEMS + (fund_id not in funds)) if new else REGISTER_ITEMS
        if group and (len(group) == most or actions + cost + len(touched | {shard}) > room):
            groups.append(group)
            group, actions, touched, funds = [], 0, set(), set()
            cost = (NEW_REGISTER_ITEMS + 1) if new else REGISTER_ITEMS
        group.append(position_id)
        actions += cost
        touched.add(shard)
        if new:
            funds.add(fund_id)
    if group:
        groups.append(group)
    return groups


# --- new documents: the registers after the entries ------------------------------------------------


class RegisterPhase:
    """Adds every entry this import puts in new documents to its position's register, once.

    Positions go in groups of up to 49 (a register and its kept version each; new registers
    share one registration item a fund), in waves of 8
    groups (one a thread): the wave's entries and the search items of its new positions by
    BatchWriteItem (`land`), then each of its groups' registers in one transaction (conditioned
    on the revisions read, plus a check that the run is not published), then the next wave.
    Each register is copied into its fund's key on the entity index, so registers written wave
    by wave along the import keep that key's write rate even (all of them after all the entries
    put it past AWS's 1,000 WCU/s a partition:
    `bench/hot_keys.py`); within a wave the batches still go before the transactions (DynamoDB
    Local runs a transaction alone on the table, which stalls the batches beside it). Each
    group's transaction is built (registers recounted, items typed, summary deltas summed) on a
    thread of its own while the wave's entries land, and sent as built once they have; one pool
    of threads serves every wave. `interleave=False` writes every batch first. A crash between a wave's entries
    and its registers is the case the markers already cover: entries in, registers without the
    marker."""

    def __init__(
        self, repository: ImportRepository, run: ImportRun, stamp: Stamp, registers: dict[str, PositionRegister]
    ) -> None:
        self.repository, self.run, self.stamp, self.registers = repository, run, stamp, registers
        self.published: set[str] = set()

    def write(
        self,
        by_position: dict[str, list[PositionEntry]],
        land: Callable[[list[str]], int],
        workers: int,
        progress: Callable[[int], None] | None = None,
        interleave: bool = INTERLEAVE,
    ) -> None:
        """`land(positions)` writes those positions' entries and returns how many. Raises
        PublishedElsewhere when another run of this file published it."""
        foreign = {m for r in self.registers.values() for m in r.imports if m != self.stamp.marker}
        self.published = self.repository.published(foreign) if foreign else set()
        positions = sorted(by_position)
        groups = summary_groups(
            positions, by_position, POSITIONS_PER_TRANSACTION, MAX_TRANSACTION_ITEMS - 1, self.registers
        )
        staged: dict[int, Future[Staged]] = {}

        def registers(number: int) -> int:
            self._count(groups[number], by_position, staged.pop(number).result() if number in staged else None)
            return 0

        def land_group(number: int) -> int:
            return land(groups[number])

        numbers = list(range(len(groups)))
        step = len(groups) if not interleave else max(1, workers)
        pool = ThreadPoolExecutor(max_workers=max(1, min(workers, len(groups))))
        stager = ThreadPoolExecutor(max_workers=1)
        try:
            for start in range(0, len(groups), step):  # a wave of groups' entries, then their registers
                wave = numbers[start : start + step]
                # The wave's register transactions are built on a thread of their own while its
                # entries land: their CPU work overlaps the table's work on the batches.
                for number in wave:
                    staged[number] = stager.submit(
                        contextvars.copy_context().run, self._stage, groups[number], by_position
                    )
                parallel(land_group, wave, workers, progress, pool)
                parallel(registers, wave, workers, progress, pool)  # 0 rows a group: a sign of life
        finally:
            for future in staged.values():
                future.cancel()
            stager.shutdown(wait=True)
            pool.shutdown(wait=True)

    def _writes(self, positions: list[str], by_position: dict[str, list[PositionEntry]]) -> list[RegisterWrite]:
        at = datetime.now(UTC)  # when the group's new registers are registered: one moment
        return [w for p in positions if (w := self._counted(p, by_position[p], at)) is not None]

    def _stage(self, positions: list[str], by_position: dict[str, list[PositionEntry]]) -> Staged:
        """A group's register writes and their transaction, built ahead of sending it."""
        writes = self._writes(positions, by_position)
        if not writes:
            return writes, None
        return writes, stage_registers(self.stamp.unit_of_work(self.repository), self.run, writes)

    def _count(
        self, positions: list[str], by_position: dict[str, list[PositionEntry]], staged: Staged | None = None
    ) -> None:
        writes: list[RegisterWrite] = []

        def count() -> None:
            nonlocal writes, staged
            if staged is not None:  # the first attempt sends what was built ahead
                (writes, uow), staged = staged, None
                if writes and uow is not None:  # none: every register already counts this import (an earlier run)
                    put_registers(uow, self.run, writes)
                return
            writes = self._writes(positions, by_position)  # a register another run counted drops out
            # A position registered by someone else meanwhile now keeps a version: the group may
            # need two transactions (each its own; the markers say which registers count the import).
            existing = {w.register.position_id for w in writes if w.seen is not None}
            ids = [w.register.position_id for w in writes]
            by_id = {w.register.position_id: w for w in writes}
            for part in summary_groups(
                ids, by_position, POSITIONS_PER_TRANSACTION, MAX_TRANSACTION_ITEMS - 1, existing
            ):
                put_registers(self.stamp.unit_of_work(self.repository), self.run, [by_id[p] for p in part])

        when_registers_move(count, self._reread, REGISTER_RETRIES)
        for write in writes:
            self.registers[write.register.position_id] = write.register

    def _reread(self, positions: tuple[str, ...]) -> None:
        self.registers.update(self.repository.registers(positions))

    def _counted(self, position_id: str, entries: list[PositionEntry], at: datetime) -> RegisterWrite | None:
        """The register with `entries` counted and this import's marker, or None when it already
        carries the marker. Markers of published imports are dropped on the way."""
        register = self.registers.get(position_id) or new_register(position_id, entries[0], at)
        if self.stamp.marker in register.imports:
            return None
        kept = tuple(m for m in register.imports if m not in self.published)
        new = replace(
            register_counting(register, entries, self.stamp.awaiting),
            imports=(*kept, self.stamp.marker),
            revision=register.revision + 1,
            updated_at=self.stamp.at,
            updated_by=self.stamp.by,
        )
        return RegisterWrite(new, register.revision, register if register.revision else None)


# --- existing documents: entries and registers together --------------------------------------------

Batch = list[tuple[str, list[PositionEntry]]]


def batches(by_position: dict[str, list[PositionEntry]]) -> tuple[list[Batch], list[Batch]]:
    """Whole positions packed into transactions of at most 100 items (entries, register items and
    one fund-summary update per shard the batch touches); a position too large for one is split
    into chunks written one after the other."""
    room = MAX_TRANSACTION_ITEMS - REGISTER_ITEMS - 1  # a lone position touches one shard
    shards = summary_shard_count()
    small: list[Batch] = []
    large: list[Batch] = []
    batch: Batch = []
    size = 0
    touched: set[tuple[str, int]] = set()
    for position_id in sorted(by_position):
        entries = by_position[position_id]
        if len(entries) > room:
            large.extend([[(position_id, entries[i : i + room])] for i in range(0, len(entries), room)])
            continue
        shard = summary_shard_of(entries[0].fund_id, position_id, shards)
        if batch and size + len(entries) + REGISTER_ITEMS + len(touched | {shard}) > MAX_TRANSACTION_ITEMS:
            small.append(batch)
            batch, size, touched = [], 0, set()
        batch.append((position_id, entries))
        size += len(entries) + REGISTER_ITEMS
        touched.add(shard)
    if batch:
        small.append(batch)
    return small, large


class ExistingWriter:
    """Writes one batch into existing documents: its entries and its positions' registers in
    one transaction (an entry that exists meanwhile cancels it: ImportConflict naming it)."""

    def __init__(self, repository: ImportRepository, stamp: Stamp, registers: dict[str, PositionRegister]) -> None:
        self.repository, self.stamp, self.registers = repository, stamp, registers

    def write_all(
        self, by_position: dict[str, list[PositionEntry]], workers: int, progress: Callable[[int], None] | None
    ) -> None:
        small, large = batches(by_position)
        parallel(self.write, large, 1, progress)  # a position's chunks one after the other
        parallel(self.write, small, workers, progress)

    def write(self, batch: Batch) -> int:
        def write_once() -> dict[str, RegisterWrite]:
            updated = self._counted(batch)
            with self.stamp.unit_of_work(self.repository) as uow:
                for position_id, chunk in batch:
                    for entry in chunk:
                        uow.put(entry, expect=NEW, name="entry", stamped=True)
                    write = updated[position_id]
                    uow.put(write.register, expect=write.seen_revision or NEW, name="register", was=write.seen)
                uow.commit()
            return updated

        try:
            updated = when_registers_move(write_once, self._reread, REGISTER_RETRIES)
        except AlreadyExists as error:
            e = error.entity  # type: ignore[attr-defined]
            raise ImportConflict(ImportConflict.ENTRY_TAKEN, e.document_id, e.kind.slug, e.position_id) from error
        self.registers.update({p: w.register for p, w in updated.items()})
        return sum(len(chunk) for _, chunk in batch)

    def _reread(self, positions: tuple[str, ...]) -> None:
        self.registers.update(self.repository.registers(positions))

    def _counted(self, batch: Batch) -> dict[str, RegisterWrite]:
        """Each position's register with the batch's entries counted."""
        updated: dict[str, RegisterWrite] = {}
        at = datetime.now(UTC)  # when the batch's new registers are registered: one moment
        for position_id, chunk in batch:
            register = self.registers.get(position_id) or new_register(position_id, chunk[0], at)
            new = replace(
                register_counting(register, chunk, self.stamp.awaiting),
                revision=register.revision + 1,
                updated_at=self.stamp.at,
                updated_by=self.stamp.by,
            )
            updated[position_id] = RegisterWrite(new, register.revision, register if register.revision else None)
        return updated


def request_token(*parts: str) -> str:
    """A token (at most 36 characters) made of `parts` (the audit items' SK)."""
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
