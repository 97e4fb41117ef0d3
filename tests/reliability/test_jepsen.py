"""Concurrency on DynamoDB Local, checked Jepsen-style.

8 threads each run 20 operations (restatements of one document and changes to its positions'
capital calls) against DynamoDB Local. Every operation is logged when invoked and when it
completes as ok (acknowledged), fail (definitely not applied) or unknown (may have applied).
The final state is then checked against the log: no acknowledged write is lost, the version
history holds exactly the acknowledged restatements, and totals agree with the items.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from documents import services
from documents.selectors import document_overview
from fundportal.domain.errors import Conflict
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall
from fundportal.store import StoreUnavailable
from fundportal.store.repositories import DocumentRepository, PositionRepository

pytestmark = pytest.mark.local_only

THREADS = 8
OPERATIONS_PER_THREAD = 20
DOCUMENT = "JEPSEN_DOC"
POSITIONS = [f"JP_{n}" for n in range(4)]


@dataclass
class Operation:
    process: int
    kind: str  # "restate" or "entry"
    key: str  # document id or position id
    value: Any  # the title or amount written
    invoked: float
    completed: float = 0.0
    outcome: str = "invoked"  # ok / fail / unknown
    result: Any = None  # revision of an acknowledged restatement
    token: str = ""


class History:
    def __init__(self) -> None:
        self.operations: list[Operation] = []
        self.crashes: list[str] = []
        self._lock = threading.Lock()

    def invoke(self, operation: Operation) -> Operation:
        with self._lock:
            self.operations.append(operation)
        return operation

    def of(self, kind: str, outcome: str | None = None) -> list[Operation]:
        return [op for op in self.operations if op.kind == kind and (outcome is None or op.outcome == outcome)]

    def counts(self) -> Counter:
        return Counter(op.outcome for op in self.operations)


def run_process(process: int, history: History, barrier: threading.Barrier) -> None:
    try:
        run_operations(process, history, barrier)
    except Exception as error:  # an untyped or unexpected error is itself a finding
        history.crashes.append(repr(error))


def run_operations(process: int, history: History, barrier: threading.Barrier) -> None:
    repository = DocumentRepository()
    rng = random.Random(process)
    barrier.wait()
    for step in range(OPERATIONS_PER_THREAD):
        token = f"p{process}-s{step}"
        if rng.random() < 0.5:
            title = f"Restated by p{process} step {step}"
            op = history.invoke(Operation(process, "restate", DOCUMENT, title, time.monotonic(), token=token))
            try:
                seen = repository.get(DOCUMENT, consistent=True).revision
                op.result = services.document_restate(
                    document_id=DOCUMENT,
                    expected_revision=seen,
                    changes={"title": title},
                    user=f"p{process}",
                    token=token,
                ).revision
                op.outcome = "ok"
            except Conflict:
                op.outcome = "fail"
            except StoreUnavailable:
                op.outcome = "unknown"
        else:
            position = rng.choice(POSITIONS)
            amount = Decimal(process * 1000 + step) + Decimal("0.25")
            op = history.invoke(Operation(process, "entry", position, amount, time.monotonic(), token=token))
            try:
                entry = repository.entry(DOCUMENT, Kind.CAPITAL_CALL, position)
                services.entry_put(entry=replace(entry, amount=amount), user=f"p{process}", token=token)
                op.outcome = "ok"
            except Conflict:
                op.outcome = "fail"
            except StoreUnavailable:
                op.outcome = "unknown"
        op.completed = time.monotonic()


def setup_document() -> None:
    services.document_create(
        document=Document(document_id=DOCUMENT, title="Original", fund_id="FUND_J", as_of_date=date(2025, 9, 30)),
        user="setup",
    )
    for n, position in enumerate(POSITIONS):
        services.entry_put(
            entry=CapitalCall(DOCUMENT, position, "FUND_J", f"INV_{n}", Decimal(100 * (n + 1))), user="setup"
        )


def test_concurrent_restatements_and_entry_updates_lose_nothing(local_backend):
    repository = DocumentRepository()
    setup_document()
    history = History()
    barrier = threading.Barrier(THREADS)
    threads = [threading.Thread(target=run_process, args=(p, history, barrier)) for p in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert history.crashes == []
    counts = history.counts()
    assert len(history.operations) == THREADS * OPERATIONS_PER_THREAD
    assert counts["invoked"] == 0  # every operation completed one way or another

    # --- restatements: the history holds exactly the acknowledged versions -----------------
    current, superseded = repository.all_versions(DOCUMENT)
    versions = {d.revision: d for d in [current, *superseded]}
    assert len(versions) == 1 + len(superseded), "a revision appears twice"
    acknowledged = {op.result: op for op in history.of("restate", "ok")}
    unknown_titles = {op.value for op in history.of("restate", "unknown")}
    assert len(acknowledged) == len(history.of("restate", "ok")), "two restatements acknowledged one revision"
    assert sorted(versions) == list(range(1, current.revision + 1)), "a version is missing"
    lost = [op for revision, op in acknowledged.items() if versions.get(revision) is None]
    lost += [
        op for revision, op in acknowledged.items() if revision in versions and versions[revision].title != op.value
    ]
    assert lost == [], f"acknowledged restatements lost: {lost}"
    for revision, document in versions.items():
        if revision > 1:
            assert revision in acknowledged or document.title in unknown_titles, f"unacknowledged version {revision}"

    # --- entries: each final value is a write that was not overtaken in real time ----------
    lost_entries = 0
    for position in POSITIONS:
        final = repository.entry(DOCUMENT, Kind.CAPITAL_CALL, position).amount
        writes = [op for op in history.of("entry") if op.key == position and op.outcome in ("ok", "unknown")]
        acked = [op for op in writes if op.outcome == "ok"]
        if not acked:
            continue
        candidates = [
            op for op in writes if not any(later.invoked > op.completed for later in acked if later is not op)
        ]
        if final not in {op.value for op in candidates}:
            lost_entries += 1
    assert lost_entries == 0

    # Every acknowledged write is in the audit trail, once, under its own token.
    audit = Counter(entry.token for entry in repository.audit_trail(DOCUMENT, limit=1000))
    for op in history.of("restate", "ok") + history.of("entry", "ok"):
        assert audit[op.token] == 1, f"audit entries for {op.token}: {audit[op.token]}"

    # --- totals agree with the items -----------------------------------------------------------
    page = document_overview(document_id=DOCUMENT)
    [totals] = page.totals  # one currency
    items_total = sum(repository.entry(DOCUMENT, Kind.CAPITAL_CALL, p).amount for p in POSITIONS)
    index_total = sum(
        e.amount
        for p in POSITIONS
        for e in PositionRepository().entries(p, Kind.CAPITAL_CALL)
        if e.document_id == DOCUMENT
    )
    assert totals.called.amount == items_total == index_total
    assert page.document.revision == current.revision

    print(
        f"\nJepsen-style history: {len(history.operations)} operations logged; "
        f"ok={counts['ok']} failed={counts['fail']} unknown={counts['unknown']}; "
        f"restatements ok={len(acknowledged)} (revision now {current.revision}), "
        f"entry updates ok={len(history.of('entry', 'ok'))}; lost writes={len(lost) + lost_entries}"
    )
