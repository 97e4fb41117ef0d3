"""On DynamoDB Local (real ClientRequestToken semantics): double submissions racing
the first write, and 200 replies that are not DynamoDB's."""

from __future__ import annotations

import json
import threading
import uuid
from dataclasses import replace
from decimal import Decimal

import pytest
from botocore.awsrequest import AWSResponse

from documents import services
from fundportal.domain.kinds import Kind
from fundportal.store.errors import StoreUnavailable
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository
from tests.reliability.faults import _Body, inject

pytestmark = [pytest.mark.django_db, pytest.mark.local_only]


@pytest.fixture
def token() -> str:
    """A fresh form token per test: DynamoDB remembers tokens for 10 minutes across tables."""
    return uuid.uuid4().hex


def _first_read() -> str:
    """The service's first read of an entry write (with the position register)."""
    return next(n for n in ("load_for_entry_with_register", "load_for_entry") if hasattr(DocumentRepository, n))


def test_a_double_submitted_change_racing_the_first_write_is_success(local_draft_sample, monkeypatch, token):
    """Same token, the second attempt read the entry before the first landed: DynamoDB answers
    IdempotentParameterMismatch (new timestamps); that was a 500/409, now it is success."""
    repo = DocumentRepository()
    entry = replace(repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1"), amount=Decimal(600000))
    name = _first_read()
    original = getattr(DocumentRepository, name)
    seen = original(repo, "DOC001", Kind.CAPITAL_CALL, "POSITION_1")  # the second submission's read...
    services.entry_change(entry=entry, user="u", token=token, expected_revision=1)  # ...then the first lands
    used: list[bool] = []

    def stale_once(self, *args, **kwargs):
        if not used:
            used.append(True)
            return seen
        return original(self, *args, **kwargs)

    monkeypatch.setattr(DocumentRepository, name, stale_once)
    second = services.entry_change(entry=entry, user="u", token=token, expected_revision=1)
    assert used  # the stale read was really used
    assert second.amount == Decimal(600000)
    assert repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1").revision == 2
    assert len(repo.audit_trail("DOC001")) == 1


@pytest.fixture
def meet_at_the_transaction(monkeypatch):
    """Hold both submissions until each has read the entry and built its transaction."""
    barrier = threading.Barrier(2, timeout=30)
    original = TableGateway.transact

    def transact_together(self, actions, token):
        barrier.wait()
        return original(self, actions, token)

    monkeypatch.setattr(TableGateway, "transact", transact_together)


def twice_at_once(submit) -> list[object]:
    outcomes: list[object] = []

    def run() -> None:
        try:
            outcomes.append(submit())
        except Exception as error:  # asserted by the caller
            outcomes.append(error)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.parametrize("round_", range(3))
def test_a_double_click_delete_is_success_for_both(local_draft_sample, meet_at_the_transaction, round_, token):
    """The reviewer's (302, 409) on a double delete."""
    repo = DocumentRepository()
    outcomes = twice_at_once(
        lambda: services.entry_remove(
            document_id="DOC001",
            kind=Kind.DISTRIBUTION,
            position_id="POSITION_2",
            user="u",
            token=token,
            expected_revision=1,
        )
    )
    assert [getattr(o, "amount", o) for o in outcomes] == [Decimal(45000)] * 2
    assert [a.action for a in repo.audit_trail("DOC001")] == ["delete"]


@pytest.mark.parametrize("round_", range(3))
def test_two_simultaneous_posts_of_one_form_both_succeed_once(
    local_draft_sample, meet_at_the_transaction, round_, token
):
    """The reviewer's (302, 500): two POSTs of one edit form at once."""
    repo = DocumentRepository()
    entry = replace(repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1"), amount=Decimal(600000))
    outcomes = twice_at_once(lambda: services.entry_change(entry=entry, user="u", token=token, expected_revision=1))
    assert [getattr(o, "amount", o) for o in outcomes] == [Decimal(600000)] * 2
    assert repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1").revision == 2
    assert len(repo.audit_trail("DOC001")) == 1


# --- 7. a 200 reply that is not DynamoDB's ------------------------------------------------------


def foreign_ok(body: dict | None = None) -> AWSResponse:
    """What a misconfigured endpoint (a proxy, another service) answers: 200, JSON, no DynamoDB
    request id."""
    data = json.dumps(body if body is not None else {}).encode()
    return AWSResponse("http://foreign", 200, {"content-type": "application/x-amz-json-1.0"}, _Body(data))


def test_a_create_answered_by_a_foreign_200_is_a_503_not_created(local_sample, editor_client):
    data = {
        "document_id": "DOC500",
        "title": "t",
        "fund_id": "FUND_A",
        "as_of_date": "2025-12-31",
        "currency": "USD",
        "status": "Active",
        "document_type": "other",
    }
    with inject(lambda n, attempt: foreign_ok(), {"TransactWriteItems"}) as injector:
        response = editor_client.post("/documents/new/", data)
    assert injector.count == 1
    assert response.status_code == 503
    assert "Temporarily unavailable" in response.content.decode()


@pytest.mark.parametrize(
    ("operation", "body"),
    [
        ("Query", {"hello": "world"}),
        ("GetItem", {"Item": "not a map"}),
        ("BatchGetItem", {}),
        ("DescribeTable", {"TableName": "x"}),
    ],
)
def test_every_read_checks_the_shape_of_its_reply(local_sample, operation, body):
    repo = DocumentRepository()
    read = {
        "Query": lambda: repo.overview("DOC001"),
        "GetItem": lambda: repo.get("DOC001"),
        "BatchGetItem": lambda: repo.position_in_document("DOC001", "POSITION_1"),
        "DescribeTable": lambda: TableGateway().describe_table(),
    }[operation]
    with inject(lambda n, attempt: foreign_ok(body), {operation}), pytest.raises(StoreUnavailable, match="unexpected"):
        read()
