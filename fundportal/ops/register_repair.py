"""Keeping the position register true: recompute every register from the entries
(a maintenance Scan: never on a request path) and report or repair the differences.

The fund summaries are checked too (`summary_repair`): each shard against the stored registers
that hash to it. `verify_positions` reports; `verify_positions --repair` writes each register that differs (or is
missing: that is how a table written before the register existed gets one), conditioned on the
revision it read, so a concurrent entry write always wins and a second run writes nothing.
A position holding entries that an unfinished import put in its new documents and has not
counted yet (its register lacks the import's marker) is reported and left alone: the import,
or its re-run, counts them; a repair counting them too would count them twice. Entries no page
may count (an import that cannot finish, one the operator abandons, entries without a document:
`abandoned_imports`) are cleared by the repair, audited, before the registers are recomputed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import POSITION_KINDS, Kind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.store.gateway import TableGateway
from fundportal.store.mapping import keys
from fundportal.store.mapping.entities import from_item, to_item
from fundportal.store.mapping.register_maps import LEGACY_INVESTOR_COPY_TYPE, REGISTER_TYPE
from fundportal.store.repositories.documents import REQUEST_TOKEN
from fundportal.store.repositories.imports import IMPORT_RUN_TYPE, ImportRun, marker_of_token
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.schema import ENTITY_INDEX, FUND_INDEX, INVESTOR_INDEX, TABLE
from fundportal.store.uow import NEW, RegisterChanged, UnitOfWork

from .abandoned_imports import Stranded, clear, stranded_entries, without
from .summary_repair import repair_drifts, summary_drifts

ENTRY_TYPES = frozenset(kind.entity_type for kind in POSITION_KINDS)
INVESTOR_INDEX_KEYS = (TABLE.index(INVESTOR_INDEX).pk, TABLE.index(INVESTOR_INDEX).sk)
# The fund page's slim copy: its index keys (every register write puts `Lines` beside them).
FUND_PAGE_KEYS = (TABLE.index(FUND_INDEX).pk, TABLE.index(FUND_INDEX).sk)
# Keys older registers carried: a whole copy on the entity index under FUND#<fund> (the repair's
# put writes the register without them).
WHOLE_COPY_KEYS = (TABLE.index(ENTITY_INDEX).pk, TABLE.index(ENTITY_INDEX).sk)


@dataclass
class Difference:
    position_id: str
    problem: str


@dataclass
class VerifyReport:
    scanned: int = 0
    positions: int = 0
    differences: list[Difference] = field(default_factory=list)
    repaired: int = 0
    skipped: int = 0  # changed by a concurrent write while we repaired: that write wins
    stranded: list[Stranded] = field(default_factory=list)  # entries no page may count
    cleared: int = 0  # of those, deleted by the repair


def _scan(table: str | None, page_size: int, progress: Callable[[int], None] | None) -> list[dict[str, Any]]:
    gateway = TableGateway(table)
    items: list[dict[str, Any]] = []
    start_key = None
    while True:
        page = gateway.scan_page(0, 1, page_size, start_key)
        items += page.items
        if progress:
            progress(len(page.items))
        if not page.last_key:
            return items
        start_key = page.last_key


def expected_registers(items: list[dict[str, Any]]) -> tuple[dict[str, PositionRegister], dict[str, Any]]:
    """(register recomputed from the entries, per position; what is stored, per position:
    {"register": PositionRegister | None, "indexed": whether the stored register item carries
    its investor index keys, "whole_copy": whether it still carries the entity index's keys,
    "legacy_copy": an investor copy from before the investor index,
    "entries": [...]})."""
    entries: dict[str, list[PositionEntry]] = {}
    stored: dict[str, dict[str, Any]] = {}
    latest = keys.latest_sk(Kind.DOCUMENT)
    # Only approved documents' entries are counted; the others (a document not approved yet, or
    # not published yet by its import) are counted apart, in the register's awaiting part.
    approved = {
        document.document_id
        for item in items
        if item.get("SK") == latest and item.get("EntityType") == Kind.DOCUMENT.entity_type
        if (document := from_item(Document, item)).counts_entries  # a restatement's approved values count
    }
    for item in items:
        kind = item.get("EntityType")
        if kind in ENTRY_TYPES:
            entry = from_item(PositionEntry, item)
            entries.setdefault(entry.position_id, []).append(entry)
        elif kind == REGISTER_TYPE:
            register = from_item(PositionRegister, item)
            have = stored.setdefault(register.position_id, {})
            have["register"] = register
            want = to_item(register)
            have["indexed"] = all(item.get(name) == want[name] for name in INVESTOR_INDEX_KEYS)
            have["fund_paged"] = "Lines" in item and all(item.get(name) == want[name] for name in FUND_PAGE_KEYS)
            have["whole_copy"] = any(name in item for name in WHOLE_COPY_KEYS)
        elif kind == LEGACY_INVESTOR_COPY_TYPE:
            stored.setdefault(keys.parse_register_pk(item["PK"]), {})["legacy_copy"] = True
    expected: dict[str, PositionRegister] = {}
    for position_id in sorted(set(entries) | set(stored)):
        found = entries.get(position_id, [])
        current = stored.get(position_id, {}).get("register")
        builder, apart = FiguresBuilder(flows=True), FiguresBuilder(flows=True)
        for entry in found:
            (builder if entry.document_id in approved else apart).add(entry)
        documents = tuple(e.document_id for e in found if e.document_id not in approved)
        if current is not None:
            base = current
        elif not found:
            continue  # a leftover investor copy alone, nothing to recompute from
        else:
            first = min(found, key=lambda e: (e.as_of_date.isoformat() if e.as_of_date else "", e.document_id))
            base = PositionRegister(position_id, first.fund_id, first.investor_id, currency=first.currency)
        expected[position_id] = base.with_builder(builder).with_awaiting(apart, documents)
        stored.setdefault(position_id, {})["entries"] = found
    return expected, stored


def uncounted_imports(items: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Per position, the markers of unpublished imports with entries in their new documents
    (the register counts those only once it carries the marker). A new document that exists
    anyway was created by someone else (an import publishes its documents and its run in one
    transaction): that import can no longer finish, so its entries there are left to repair."""
    runs = [ImportRun.from_item(item) for item in items if item.get("EntityType") == IMPORT_RUN_TYPE]
    by_marker = {run.marker: run for run in runs}
    latest = keys.latest_sk(Kind.DOCUMENT)
    documents = {item["PK"] for item in items if item.get("SK") == latest}
    found: dict[str, set[str]] = {}
    for item in items:
        run = by_marker.get(marker_of_token(item.get(REQUEST_TOKEN)) or "")
        if run is None or run.published or item.get("EntityType") not in ENTRY_TYPES:
            continue
        entry = from_item(PositionEntry, item)
        if entry.document_id in run.new_documents and keys.document_pk(entry.document_id) not in documents:
            found.setdefault(entry.position_id, set()).add(run.marker)
    return found


def _problems(want: PositionRegister, have: dict[str, Any]) -> list[str]:
    register = have.get("register")
    if register is None:
        return ["no register item (unregistered position)"]
    problems = []
    if register.rollup != want.rollup:
        problems.append("roll-up differs from the entries")
    gone = sorted(set(register.imports) - set(want.imports))
    if gone:
        problems.append(f"counts import {', '.join(gone)}, whose entries are cleared")
    if register.awaiting != want.awaiting or not set(want.awaiting_documents) <= set(register.awaiting_documents):
        problems.append("awaiting-approval part differs from the entries of documents not approved")
    others = sorted({(e.fund_id, e.investor_id) for e in have.get("entries", [])} - {(want.fund_id, want.investor_id)})
    for fund_id, investor_id in others:
        problems.append(f"an entry names {fund_id}/{investor_id}, the register {want.fund_id}/{want.investor_id}")
    if not have.get("indexed"):
        problems.append("not in the investor index (written before it)")
    elif not have.get("fund_paged"):
        problems.append("no slim copy on the fund page index (written before it)")
    if have.get("whole_copy"):
        problems.append("copied whole to the entity index under its fund (written before the slim copy)")
    if have.get("legacy_copy"):
        problems.append("an investor copy left from before the investor index")
    return problems


def verify_positions(
    *,
    repair: bool = False,
    abandon: Iterable[str] = (),
    table: str | None = None,
    page_size: int = 1000,
    progress: Callable[[int], None] | None = None,
) -> VerifyReport:
    scanned = _scan(table, page_size, progress)
    stranded = stranded_entries(scanned, abandon)
    cleared = {group.marker for group in stranded if group.marker}
    items = without(scanned, stranded)  # the registers are checked against what may count
    expected, stored = expected_registers(items)
    importing = uncounted_imports(items)
    report = VerifyReport(scanned=len(scanned), positions=len(expected), stranded=stranded)
    for group in stranded:
        for position_id in group.positions:
            report.differences.append(
                Difference(
                    position_id,
                    f"{group.reason}: its entries in {group.document_id} count nowhere; --repair clears them",
                )
            )
    # Fund summaries against the registers as stored (before any register repair, whose own
    # transaction then moves its shard by an exact delta).
    drifts = summary_drifts(items, (h["register"] for h in stored.values() if h.get("register") is not None))
    for drift in drifts:
        report.differences.append(Difference(drift.label, drift.problem))
    if repair and drifts:
        repaired, skipped = repair_drifts(drifts, table)
        report.repaired += repaired
        report.skipped += skipped
    if repair and stranded:
        report.cleared = clear(stranded, table)
    repository = RegisterRepository(TableGateway(table))
    for position_id, want in expected.items():
        have = stored.get(position_id, {})
        counted = set(have["register"].imports) if have.get("register") else set()
        waiting = sorted(importing.get(position_id, set()) - counted)
        if waiting:  # the import (or its re-run) counts these entries; leave the register to it
            for marker in waiting:
                report.differences.append(
                    Difference(
                        position_id,
                        f"import {marker} is unfinished: run the same file again, or clear it with "
                        f"verify_positions --repair --abandon {marker}",
                    )
                )
            continue
        want = replace(want, imports=tuple(m for m in want.imports if m not in cleared))
        problems = _problems(want, have)
        for problem in problems:
            report.differences.append(Difference(position_id, problem))
        repairable = [p for p in problems if not p.startswith("an entry names")]
        if not repair or not repairable:
            continue
        current = have.get("register")
        seen = current.revision if current else 0
        # The moment an import registered it stays (its registration is kept there, not in a version).
        new = replace(want, revision=seen + 1, registered_at=current.registered_at if current else None)
        try:
            with UnitOfWork(repository.gateway) as uow:
                uow.put(new, expect=seen or NEW, name="register", was=current)
                if have.get("legacy_copy"):
                    legacy = (keys.register_pk(position_id), keys.legacy_investor_copy_sk())
                    uow.delete(legacy, name="legacy register copy")
                uow.commit()
        except RegisterChanged:  # a concurrent entry write moved the register: it wins
            report.skipped += 1
            continue
        report.repaired += 1
    return report
