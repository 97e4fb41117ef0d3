"""Fault injection through botocore's event hooks (see faults.py), on DynamoDB Local.

The retry policy is pinned: botocore retry mode "standard" with settings.DYNAMODB_MAX_ATTEMPTS
attempts in all. TransactionConflict is never retried by botocore; the table gateway retries it
with the same ClientRequestToken. A write whose reply is lost may have landed: retrying it must
neither apply it twice nor report a conflict with itself.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from botocore.exceptions import ClientError
from botocore.retries import standard

from documents import services
from fundportal.domain.errors import Conflict, IdempotencyMismatch
from fundportal.domain.kinds import Kind
from fundportal.store import StoreUnavailable
from fundportal.store.client import reset_clients
from fundportal.store.gateway import call
from fundportal.store.repositories import DocumentRepository
from tests.reliability.faults import (
    Attempt,
    inject,
    internal_error,
    landed_then_timed_out,
    throttled,
    transaction_conflict,
)

pytestmark = pytest.mark.local_only


@pytest.fixture(autouse=True)
def pinned_policy(settings, monkeypatch):
    """The production policy (4 attempts), fresh clients (a fresh retry quota), and no sleeping
    between attempts: botocore's backoff delay is the only thing replaced, to keep tests fast."""
    settings.DYNAMODB_MAX_ATTEMPTS = 4
    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0)
    reset_clients()
    yield
    reset_clients()


def always(reply):
    return lambda number, attempt: reply()


def first(n, fault):
    """Apply `fault` to the first n attempts, then let requests through to DynamoDB Local."""

    def apply(number: int, attempt: Attempt):
        return fault(attempt) if number <= n else None

    return apply


@pytest.mark.parametrize(
    ("reply", "reason"),
    [(throttled, "throttled"), (internal_error, "internal server error")],
)
def test_throttling_and_5xx_retried_per_policy_then_unavailable(local_sample, reply, reason):
    with inject(always(reply), {"GetItem"}) as faults, pytest.raises(StoreUnavailable) as raised:
        DocumentRepository().get("DOC001")
    assert faults.count == 4  # settings.DYNAMODB_MAX_ATTEMPTS, no more, no fewer
    assert raised.value.reason == reason


def test_attempts_follow_the_setting(local_sample, settings):
    settings.DYNAMODB_MAX_ATTEMPTS = 2
    with inject(always(throttled), {"Query"}) as faults, pytest.raises(StoreUnavailable):
        DocumentRepository().overview("DOC001")
    assert faults.count == 2


def test_transient_throttling_is_absorbed_by_retries(local_sample):
    with inject(first(3, lambda a: throttled()), {"GetItem"}) as faults:
        document = DocumentRepository().get("DOC001")
    assert document.revision == 2
    assert faults.count == 4  # three throttled attempts, the fourth answered


def test_pages_answer_503_naming_the_problem_when_throttled(local_sample, analyst_client, staff_client, caplog):
    """The page says it in plain words; the cause is logged and shown to staff on /healthz only
    (no internals on public pages)."""
    with inject(always(throttled)):
        page = analyst_client.get("/documents/DOC001/")
        health = staff_client.get("/healthz")
    assert page.status_code == 503
    text = page.content.decode()
    assert "Temporarily unavailable" in text
    assert "throttled" not in text and "Traceback" not in text and "botocore" not in text
    assert any("throttled" in r.getMessage() for r in caplog.records)
    assert health.status_code == 503
    assert health.json()["reason"] == "throttled"


def test_transaction_conflict_retried_with_the_same_token(local_sample):
    repository = DocumentRepository()
    with inject(first(2, lambda a: transaction_conflict()), {"TransactWriteItems"}) as faults:
        document = services.document_restate(
            document_id="DOC001", expected_revision=2, changes={"title": "Restated after conflicts"}, user="ana"
        )
    assert document.revision == 3
    # botocore does not retry a cancelled transaction: 2 conflicts + 1 success = 3 attempts.
    assert faults.count == 3
    assert len({a.body["ClientRequestToken"] for a in faults.attempts}) == 1
    current, history = repository.all_versions("DOC001")
    assert current.title == "Restated after conflicts"
    assert [d.revision for d in history] == [2, 1]


def test_restatement_whose_reply_was_lost_applies_once(local_sample):
    """The first attempt lands but times out; botocore resends the same token: no double apply."""
    repository = DocumentRepository()
    with inject(first(1, landed_then_timed_out), {"TransactWriteItems"}) as faults:
        document = services.document_restate(
            document_id="DOC001", expected_revision=2, changes={"title": "Landed once"}, user="ana"
        )
    assert faults.count == 2
    assert document.revision == 3
    current, history = repository.all_versions("DOC001")
    assert (current.revision, current.title) == (3, "Landed once")
    assert [d.revision for d in history] == [2, 1]
    restatements = [e for e in repository.audit_trail("DOC001") if e.action == "restate"]
    assert len(restatements) == 1


def test_restatement_retried_by_the_caller_with_its_token_is_not_a_false_conflict(local_sample, settings):
    """Every attempt timed out after the write landed; the caller (a resubmitted form) retries
    with the same token: that is success, not "someone else changed it"."""
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    reset_clients()
    repository = DocumentRepository()

    def restate(**kwargs):
        return services.document_restate(document_id="DOC001", expected_revision=2, **kwargs)

    with inject(first(1, landed_then_timed_out), {"TransactWriteItems"}), pytest.raises(StoreUnavailable):
        restate(changes={"title": "Lost reply"}, user="ana", token="tok-restate-1")
    document = restate(changes={"title": "Lost reply"}, user="ana", token="tok-restate-1")
    assert (document.revision, document.title) == (3, "Lost reply")
    current, history = repository.all_versions("DOC001")
    assert current.revision == 3
    assert [d.revision for d in history] == [2, 1]
    # A different restatement from the same stale revision is still a real conflict.
    with pytest.raises(Conflict):
        restate(changes={"title": "Someone else"}, user="bob", token="tok-restate-2")


def test_entry_write_whose_reply_was_lost_applies_once(local_draft_sample):
    repository = DocumentRepository()
    entry = repository.entry("DOC002", Kind.CAPITAL_CALL, "POSITION_1")
    with inject(first(1, landed_then_timed_out), {"TransactWriteItems"}) as faults:
        services.entry_put(entry=replace(entry, amount=Decimal("812345.50")), user="ana")
    assert faults.count == 2
    assert repository.entry("DOC002", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal("812345.50")
    assert len([e for e in repository.audit_trail("DOC002") if e.action == "update"]) == 1


def test_entry_write_retried_by_the_caller_with_its_token_applies_once(local_draft_sample, settings):
    settings.DYNAMODB_MAX_ATTEMPTS = 1
    reset_clients()
    repository = DocumentRepository()
    entry = repository.entry("DOC002", Kind.CAPITAL_CALL, "POSITION_1")
    changed = replace(entry, amount=Decimal("900000"))
    with inject(first(1, landed_then_timed_out), {"TransactWriteItems"}), pytest.raises(StoreUnavailable):
        services.entry_put(entry=changed, user="ana", token="tok-entry-1")
    saved = services.entry_put(entry=changed, user="ana", token="tok-entry-1")
    assert saved.amount == Decimal("900000")
    assert repository.entry("DOC002", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal("900000")
    assert len([e for e in repository.audit_trail("DOC002") if e.action == "update"]) == 1


def test_dynamodb_local_honours_a_repeated_client_request_token(local_backend):
    """What the layer relies on: the same token within 10 minutes is a no-op success (even
    though the repeat's condition would now fail); other parameters with it are refused."""
    item = {"PK": {"S": "TOKEN_PROBE"}, "SK": {"S": "PROBE"}, "EntityType": {"S": "Probe"}}
    put = {"Put": {"TableName": local_backend.table, "Item": item, "ConditionExpression": "attribute_not_exists(PK)"}}
    call("TransactWriteItems", TransactItems=[put], ClientRequestToken="tok-probe")
    call("TransactWriteItems", TransactItems=[put], ClientRequestToken="tok-probe")
    other = {"Put": {**put["Put"], "Item": {**item, "SK": {"S": "OTHER"}}}}
    with pytest.raises(IdempotencyMismatch) as raised:
        call("TransactWriteItems", TransactItems=[other], ClientRequestToken="tok-probe")
    # typed by the gateway; the botocore error it came from is kept as the cause
    assert isinstance(raised.value.__cause__, ClientError)
    assert raised.value.__cause__.response["Error"]["Code"] == "IdempotentParameterMismatchException"
