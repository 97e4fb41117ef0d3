"""Concurrent writes on DynamoDB Local only (moto loses updates under threads).

Eight threads restate one document at once; every acknowledged restatement must leave
exactly one historical version, one revision step and one audit entry. TransactionConflict
is retried by the layer with the same ClientRequestToken (shown with botocore event hooks).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from botocore.awsrequest import AWSResponse

from documents import services
from fundportal.domain.errors import Conflict
from fundportal.domain.kinds import Kind
from fundportal.store import gateway
from fundportal.store.client import get_client
from fundportal.store.errors import DataLayerError

pytestmark = pytest.mark.local_only

THREADS = 8
RESTATEMENTS_PER_THREAD = 3
TRIES_PER_RESTATEMENT = 15  # re-read and retry on Conflict, at most this often


def test_eight_threads_restating_one_document_lose_nothing(local_sample):
    repo = local_sample.repository
    initial, initial_history = repo.all_versions("DOC001")
    initial_activity_history = len(repo.overview("DOC001").activity_history)
    start = threading.Barrier(THREADS)
    lock = threading.Lock()
    acknowledged: list[tuple[int, str]] = []  # (new revision, title) of every successful restate
    conflicts = 0

    def restate_repeatedly(thread: int) -> None:
        nonlocal conflicts
        start.wait()
        for n in range(RESTATEMENTS_PER_THREAD):
            title = f"thread {thread} restatement {n}"
            for _ in range(TRIES_PER_RESTATEMENT):
                current = repo.get("DOC001", consistent=True)
                try:
                    restated = services.document_restate(
                        document_id="DOC001",
                        expected_revision=current.revision,
                        changes={"title": title},
                        activity_changes={"amount": Decimal(1000 * thread + n)},
                        user=f"analyst{thread}",
                    )
                except Conflict:
                    with lock:
                        conflicts += 1
                    continue
                with lock:
                    acknowledged.append((restated.revision, title))
                break

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for future in [pool.submit(restate_repeatedly, t) for t in range(THREADS)]:
            future.result()  # re-raises anything unexpected from a thread

    final, history = repo.all_versions("DOC001")
    assert acknowledged, "no restatement was acknowledged"
    # one revision step per acknowledged write, and no two writes got the same revision
    assert final.revision == initial.revision + len(acknowledged)
    assert sorted(r for r, _ in acknowledged) == list(range(initial.revision + 1, final.revision + 1))
    # one archived version per acknowledged write; each revision archived exactly once
    new_versions = [v for v in history if v not in initial_history]
    assert len(new_versions) == len(acknowledged)
    assert sorted(v.revision for v in new_versions) == list(range(initial.revision, final.revision))
    # the last acknowledged write is the current one; every archive holds the title it replaced
    titles = dict(acknowledged)
    assert final.title == titles[final.revision]
    assert all(v.title == titles.get(v.revision, initial.title) for v in new_versions)
    overview = repo.overview("DOC001")
    assert len(overview.activity_history) == initial_activity_history + len(acknowledged)
    assert overview.capital_activity.revision == final.revision
    # the audit trail has one restatement per acknowledged write
    trail = repo.audit_trail("DOC001", limit=THREADS * RESTATEMENTS_PER_THREAD + 10)
    restates = [a for a in trail if a.action == "restate"]
    assert len(restates) == len(acknowledged)
    assert sorted(a.changes["title"][1] for a in restates) == sorted(t for _, t in acknowledged)
    print(f"\n{len(acknowledged)} restatements acknowledged, {conflicts} conflicts retried")


# --- TransactionConflict: retried by the layer with the same token ------------------------------


def _transaction_conflict(actions: int) -> tuple[AWSResponse, dict[str, Any]]:
    """The response DynamoDB sends when another transaction holds one of the items."""
    reasons = [{"Code": "None"}] * actions
    reasons[0] = {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}
    parsed = {
        "Error": {"Code": "TransactionCanceledException", "Message": "Transaction cancelled [TransactionConflict]"},
        "CancellationReasons": reasons,
        "ResponseMetadata": {"HTTPStatusCode": 400},
    }
    return AWSResponse("http://dynamodb.local/", 400, {}, None), parsed


@contextmanager
def transaction_conflicts(first_attempts: int) -> Iterator[list[str]]:
    """Make the next `first_attempts` TransactWriteItems calls fail with TransactionConflict
    before they are sent, then let calls through; yield the ClientRequestToken of every attempt."""
    events = get_client().meta.events
    tokens: list[str] = []

    def before_call(params: dict[str, Any], **_: Any) -> tuple[AWSResponse, dict[str, Any]] | None:
        body = json.loads(params["body"])
        tokens.append(body["ClientRequestToken"])
        if len(tokens) <= first_attempts:
            return _transaction_conflict(len(body["TransactItems"]))
        return None

    events.register("before-call.dynamodb.TransactWriteItems", before_call)
    try:
        yield tokens
    finally:
        events.unregister("before-call.dynamodb.TransactWriteItems", before_call)


@pytest.fixture
def no_sleep(monkeypatch) -> list[int]:
    attempts: list[int] = []
    monkeypatch.setattr(gateway, "backoff", attempts.append)
    return attempts


def test_restatement_retries_a_transaction_conflict_with_the_same_token(local_sample, no_sleep):
    repo = local_sample.repository
    _, history_before = repo.all_versions("DOC001")
    with transaction_conflicts(first_attempts=2) as tokens:
        restated = services.document_restate(
            document_id="DOC001", expected_revision=2, changes={"title": "After two conflicts"}, user="ana"
        )
    assert len(tokens) == 3 and len(set(tokens)) == 1  # three attempts, one token
    assert no_sleep == [0, 1]
    current, history = repo.all_versions("DOC001")
    assert (current.revision, current.title) == (restated.revision, restated.title) == (3, "After two conflicts")
    assert len(history) == len(history_before) + 1  # applied once
    trail = repo.audit_trail("DOC001")
    assert [(a.action, a.token) for a in trail] == [("restate", tokens[0])]


def test_entry_write_retries_a_transaction_conflict_with_the_same_token(local_draft_sample, no_sleep):
    repo = local_draft_sample.repository
    entry = repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1")
    with transaction_conflicts(first_attempts=1) as tokens:
        services.entry_put(entry=replace(entry, amount=Decimal(525000)), user="ben")
    assert len(tokens) == 2 and len(set(tokens)) == 1
    assert repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal(525000)
    assert [a.token for a in repo.audit_trail("DOC001")] == [tokens[0]]


def test_persistent_transaction_conflict_gives_up_with_a_typed_error_and_writes_nothing(local_sample, no_sleep):
    repo = local_sample.repository
    with transaction_conflicts(first_attempts=100) as tokens, pytest.raises(DataLayerError):
        services.document_restate(
            document_id="DOC001", expected_revision=2, changes={"title": "Never lands"}, user="ana"
        )
    assert len(tokens) == gateway.TRANSACTION_CONFLICT_RETRIES + 1 and len(set(tokens)) == 1
    assert repo.get("DOC001", consistent=True).revision == 2
    assert repo.audit_trail("DOC001") == []
