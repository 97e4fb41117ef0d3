"""Entries no page may count: those of an import that cannot finish, of one the operator
abandons, and entries whose document does not exist (left behind). `verify_positions` reports
them; `verify_positions --repair` deletes them, one audit item per document, before it
recomputes the registers (which then drop them and the import's marker).

- An import **cannot finish** when one of the documents it creates exists anyway (someone
  created it with that id meanwhile): its entries there would otherwise be adopted by that
  document: another fund's, currency's and date's rows.
- An **unfinished** import (its documents still missing) is left to its re-run unless the
  operator names it (`--abandon <marker>`): a running import is never cleared from under it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.kinds import POSITION_KINDS, Kind
from fundportal.domain.position_entries import PositionEntry
from fundportal.store.gateway import TableGateway
from fundportal.store.mapping import keys
from fundportal.store.mapping.entities import from_item
from fundportal.store.repositories.documents import REQUEST_TOKEN
from fundportal.store.repositories.imports import IMPORT_RUN_TYPE, MAX_TRANSACTION_ITEMS, ImportRun, marker_of_token
from fundportal.store.uow import NEW, UnitOfWork

ENTRY_TYPES = frozenset(kind.entity_type for kind in POSITION_KINDS)
REPAIR_USER = "verify_positions"


@dataclass
class Stranded:
    """A document's entries no page may count, and why."""

    document_id: str
    marker: str | None  # the import that wrote them (None: no import, or one long published)
    reason: str
    entries: list[PositionEntry] = field(default_factory=list)

    @property
    def positions(self) -> list[str]:
        return sorted({e.position_id for e in self.entries})


def stranded_entries(items: list[dict[str, Any]], abandon: Iterable[str] = ()) -> list[Stranded]:
    """The groups of entries (per document and import) to clear, from a maintenance Scan's items."""
    abandoned = set(abandon)
    runs = {
        run.marker: run for run in (ImportRun.from_item(i) for i in items if i.get("EntityType") == IMPORT_RUN_TYPE)
    }
    latest = keys.latest_sk(Kind.DOCUMENT)
    documents = {item["PK"] for item in items if item.get("SK") == latest}
    groups: dict[tuple[str, str | None], Stranded] = {}
    for item in items:
        if item.get("EntityType") not in ENTRY_TYPES:
            continue
        entry = from_item(PositionEntry, item)
        marker = marker_of_token(item.get(REQUEST_TOKEN))
        run = runs.get(marker or "")
        exists = keys.document_pk(entry.document_id) in documents
        creating = run is not None and not run.published and entry.document_id in run.new_documents
        if creating and exists:
            reason = f"import {marker} cannot finish: {entry.document_id} was created by someone else meanwhile"
        elif creating and marker in abandoned:
            reason = f"import {marker} was abandoned"
        elif not exists and not creating:
            reason = f"{entry.document_id} does not exist: its entries were left behind"
        else:
            continue  # a published document's entry, or an unfinished import's (its re-run counts it)
        key = (entry.document_id, marker if creating else None)
        group = groups.setdefault(key, Stranded(entry.document_id, key[1], reason))
        group.entries.append(entry)
    return [groups[key] for key in sorted(groups, key=lambda k: (k[0], k[1] or ""))]


def without(items: list[dict[str, Any]], stranded: list[Stranded]) -> list[dict[str, Any]]:
    """The Scan's items less the stranded entries (what the registers are recomputed from)."""
    gone = {
        (keys.document_pk(e.document_id), keys.entry_sk(e.kind, e.position_id)) for s in stranded for e in s.entries
    }
    return [item for item in items if (item.get("PK"), item.get("SK")) not in gone]


def clear(stranded: list[Stranded], table: str | None = None) -> int:
    """Delete each group's entries, with one audit item per group (who, when, which import and
    how many entries), in transactions of at most 100 items. Returns the entries deleted."""
    gateway = TableGateway(table)
    deleted = 0
    for group in stranded:
        audit = AuditEntry(
            group.document_id,
            datetime.now(UTC),
            REPAIR_USER,
            "clear",
            f"Import {group.marker}" if group.marker else "Entries without a document",
            {
                "entries": [len(group.entries), 0],
                "positions": [", ".join(group.positions)[:1000], None],
                "reason": [group.reason, None],
            },
        )
        room = MAX_TRANSACTION_ITEMS - 1
        chunks = [group.entries[i : i + room] for i in range(0, len(group.entries), room)]
        for number, chunk in enumerate(chunks):
            with UnitOfWork(gateway) as uow:
                for entry in chunk:
                    uow.delete(entry, name="stranded entry")
                if number == 0:
                    uow.put(audit, expect=NEW, name="audit")
                uow.commit()
            deleted += len(chunk)
    return deleted
