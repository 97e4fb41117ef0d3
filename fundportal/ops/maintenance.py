"""Maintenance operations: the only code allowed to Scan the table (index backfill), and
clean-up helpers for throwaway partitions. Never used on a request path."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fundportal.domain.entry_versions import EntryVersion
from fundportal.domain.kinds import Kind
from fundportal.domain.position_register import PositionRegister
from fundportal.ops.document_copies import DocumentCopies
from fundportal.store.client import table_name
from fundportal.store.errors import ConditionFailed
from fundportal.store.gateway import Condition, TableGateway
from fundportal.store.mapping.entities import entity_from_item, from_item, search_items_of_item, to_item
from fundportal.store.mapping.history import ENTRY_VERSION_TYPE
from fundportal.store.mapping.register_maps import REGISTER_TYPE

# Index attributes an entity's to_item() derives from its own fields.
INDEX_ATTRIBUTES = ("GSI_PK", "GSI_SK", "GSI2_PK", "GSI2_SK", "GSI3_PK", "GSI3_SK", "GSI5_PK", "GSI5_SK")
FUND_ENTITY_TYPES = frozenset(Kind(k).entity_type for k in Kind)


# --- deleting whole partitions (throwaway data of the access-pattern explainer, tests) -----------


def partition_keys(pk: str, table: str | None = None) -> list[tuple[str, str]]:
    """Every (PK, SK) key of one partition (Query, all pages, keys only)."""
    items = TableGateway(table).query("PK = :pk", {":pk": pk}, projection="PK, SK")
    return [(item["PK"], item["SK"]) for item in items]


def delete_partitions(pks: list[str], table: str | None = None) -> int:
    """Delete every item of the given partitions with BatchWriteItem; returns how many."""
    doomed = [key for pk in pks for key in partition_keys(pk, table)]
    TableGateway(table).batch_write((), delete_keys=doomed)
    return len(doomed)


# --- index backfill (the one allowed Scan) --------------------------------------------------------


@dataclass
class BackfillCounts:
    scanned: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0  # not a fund entity (catalog, audit) or changed under us
    search_keys: int = 0  # search items (re)written for the ids the fund items name
    copies: int = 0  # entries given their document's title and type (`document_copies`)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **deltas: int) -> None:
        with self._lock:
            for name, delta in deltas.items():
                setattr(self, name, getattr(self, name) + delta)

    def as_dict(self) -> dict[str, int]:
        return {
            "scanned": self.scanned,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "skipped": self.skipped,
            "search_keys": self.search_keys,
            "copies": self.copies,
        }


def expected_index_attributes(item: dict[str, Any]) -> dict[str, Any] | None:
    """The index attributes `item` should carry, re-derived by parsing it into its entity and
    calling to_item(); None when the item is not a fund entity (month catalog, audit trail).
    A register written before it left the entity index loses its GSI_PK/GSI_SK here; an entry
    version kept before the position index held versions gains its `HIST#<position>` keys."""
    if item.get("EntityType") == REGISTER_TYPE:
        derived = to_item(from_item(PositionRegister, item))
    elif item.get("EntityType") == ENTRY_VERSION_TYPE:  # kept before its position's keys existed
        derived = to_item(from_item(EntryVersion, item))
    elif item.get("EntityType") in FUND_ENTITY_TYPES:
        derived = to_item(entity_from_item(item))
    else:
        return None
    return {name: derived.get(name) for name in INDEX_ATTRIBUTES}


@dataclass(frozen=True, slots=True)
class IndexUpdate:
    key: tuple[str, str]
    expression: str
    condition: Condition
    names: dict[str, str]
    values: dict[str, Any]


def _index_update(item: dict[str, Any], expected: dict[str, Any]) -> IndexUpdate | None:
    """An UpdateItem that sets/removes index attributes, conditioned on the item still holding
    exactly the index values we read (so a concurrent writer always wins); None if nothing differs."""
    sets, removes, conditions = [], [], ["attribute_exists(PK)"]
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    for n, attribute in enumerate(INDEX_ATTRIBUTES):
        want, have = expected[attribute], item.get(attribute)
        names[f"#a{n}"] = attribute
        if have is None:
            conditions.append(f"attribute_not_exists(#a{n})")
        else:
            values[f":old{n}"] = have
            conditions.append(f"#a{n} = :old{n}")
        if want == have:
            continue
        if want is None:
            removes.append(f"#a{n}")
        else:
            values[f":new{n}"] = want
            sets.append(f"#a{n} = :new{n}")
    if not sets and not removes:
        return None
    # Pin the item as read: any concurrent write changes Revision or UpdatedAt.
    for name, value, attribute in (("#rev", ":rev", "Revision"), ("#upd", ":upd", "UpdatedAt")):
        if attribute in item:
            names[name] = attribute
            values[value] = item[attribute]
            conditions.append(f"{name} = {value}")
    expression = " ".join(
        part for part in (f"SET {', '.join(sets)}" if sets else "", f"REMOVE {', '.join(removes)}" if removes else "")
    )
    return IndexUpdate((item["PK"], item["SK"]), expression, Condition(" AND ".join(conditions)), names, values)


class ResumeFile:
    """LastEvaluatedKey per segment, saved after every page so an interrupted backfill resumes.

    Format: {"table": name, "segments": N, "positions": {"0": key-or-null, ...}, "done": [0, 3]}.
    """

    def __init__(self, path: Path | None, table: str, segments: int) -> None:
        self.path = path
        self.table = table
        self.segments = segments
        self.positions: dict[int, dict[str, Any] | None] = {}
        self.done: set[int] = set()
        self._lock = threading.Lock()
        if path and path.exists():
            try:
                state = json.loads(path.read_text())
            except (OSError, ValueError) as error:
                raise ValueError(f"resume file {path} cannot be read: {error}") from None
            if state.get("table") != table or state.get("segments") != segments:
                raise ValueError(
                    f"resume file {path} is for table {state.get('table')} with {state.get('segments')} segments; "
                    f"use the same --segments or another file"
                )
            self.positions = {int(k): v for k, v in state.get("positions", {}).items()}
            self.done = set(state.get("done", []))

    @property
    def complete(self) -> bool:
        return len(self.done) == self.segments

    def save(self, segment: int, last_key: dict[str, Any] | None) -> None:
        with self._lock:
            if last_key is None:
                self.done.add(segment)
                self.positions.pop(segment, None)
            else:
                self.positions[segment] = last_key
            if self.path:
                state = {
                    "table": self.table,
                    "segments": self.segments,
                    "positions": {str(k): v for k, v in self.positions.items()},
                    "done": sorted(self.done),
                }
                tmp = self.path.with_suffix(self.path.suffix + ".tmp")
                tmp.write_text(json.dumps(state))
                tmp.replace(self.path)


class RateLimiter:
    """Shared token bucket: at most `rate` items per second across all segments (0 = unlimited)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self._next = time.monotonic()
        self._lock = threading.Lock()

    def acquire(self, items: int) -> None:
        if self.rate <= 0 or items <= 0:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + items / self.rate
        delay = start - now
        if delay > 0:
            time.sleep(delay)


def backfill_indexes(
    segments: int = 4,
    rate: float = 0,
    resume_file: Path | None = None,
    page_size: int = 500,
    progress: Callable[[int], None] | None = None,
    table: str | None = None,
    state: ResumeFile | None = None,
) -> BackfillCounts:
    """Parallel Scan (`segments` workers) recomputing every fund item's index attributes.

    Idempotent: an item is written only when its index attributes differ from what its entity
    derives, with a ConditionExpression on the values read, so a second run updates nothing and
    a concurrent edit is never overwritten (it is counted as skipped). An entry whose copies of
    its document's title and type are missing or stale gets them (`document_copies`, its own
    UpdateItem conditioned on the copies as read). Resumable through `resume_file`;
    rate-limited to `rate` scanned items per second.
    """
    table = table or table_name()
    state = state or ResumeFile(resume_file, table, segments)
    limiter = RateLimiter(rate)
    gateway = TableGateway(table)
    counts = BackfillCounts()
    copies = DocumentCopies(gateway)
    written: set[tuple[str, str]] = set()  # search items already put by this run
    search_lock = threading.Lock()

    def put_search_items(items: list[dict[str, Any]]) -> None:
        """The search items the page's ids need, each put once a run, per page so an
        interrupted run keeps what it wrote; constant items, so a put is idempotent."""
        found: dict[tuple[str, str], dict[str, Any]] = {}
        for item in items:
            found.update(_search_items(item))
        with search_lock:
            new = [s for key, s in found.items() if key not in written]
            written.update(found)
        if new:
            counts.add(search_keys=gateway.batch_write(new))

    def run_segment(segment: int) -> None:
        if segment in state.done:
            return
        start_key = state.positions.get(segment)
        while True:
            page = gateway.scan_page(segment, segments, page_size, start_key)
            items = page.items
            limiter.acquire(len(items))
            for item in items:
                _backfill_item(gateway, item, counts)
                if copies.fill(item):
                    counts.add(copies=1)
            put_search_items(items)
            counts.add(scanned=len(items))
            if progress:
                progress(len(items))
            state.save(segment, page.last_key)
            if not page.last_key:
                return
            start_key = page.last_key

    with ThreadPoolExecutor(max_workers=segments) as pool:
        for future in [pool.submit(run_segment, s) for s in range(segments)]:
            future.result()
    return counts


def _search_items(item: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    try:
        found = [to_item(s) for s in search_items_of_item(item)]
    except (ValueError, KeyError):
        return {}
    return {(s["PK"], s["SK"]): s for s in found}


def _backfill_item(gateway: TableGateway, item: dict[str, Any], counts: BackfillCounts) -> None:
    try:
        expected = expected_index_attributes(item)
    except (ValueError, KeyError):
        expected = None  # an item this codebase cannot parse is left alone and counted
    if expected is None:
        counts.add(skipped=1)
        return
    update = _index_update(item, expected)
    if update is None:
        counts.add(unchanged=1)
        return
    try:
        gateway.update(update.key, update.expression, update.condition, update.names, update.values)
    except ConditionFailed:
        counts.add(skipped=1)  # changed since we read it: the writer recomputed its keys
        return
    counts.add(updated=1)
