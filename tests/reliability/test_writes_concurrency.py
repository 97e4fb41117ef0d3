"""Concurrent and failing writes on DynamoDB Local (the real engine's transaction semantics):
two editors restating one document at once, and a failure injected into each transaction."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from documents import services
from fundportal.domain.errors import Conflict
from fundportal.domain.kinds import Kind
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import CapitalCall
from fundportal.store import DataLayerError
from fundportal.store.gateway import TableGateway, call

pytestmark = [pytest.mark.django_db, pytest.mark.local_only]


def all_items(table: str) -> list[dict[str, Any]]:
    """Every item of the table, sorted (Scan is fine in a test)."""
    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {"TableName": table, "ConsistentRead": True}
    while True:
        response = call("Scan", **params)
        items.extend(response["Items"])
        if "LastEvaluatedKey" not in response:
            break
        params["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    return sorted(items, key=lambda item: (item["PK"]["S"], item["SK"]["S"]))


def restate_concurrently(expected_revision: int, editors: list[str]) -> dict[str, Any]:
    """Each editor restates from the same loaded revision, released together by a barrier."""
    barrier = threading.Barrier(len(editors))
    outcomes: dict[str, Any] = {}

    def restate(user: str) -> None:
        barrier.wait()
        try:
            outcomes[user] = services.document_restate(
                document_id="DOC001",
                expected_revision=expected_revision,
                changes={"title": f"Restated by {user}"},
                activity_changes={"amount": Decimal(1000)},
                user=user,
            )
        except Exception as error:  # recorded and asserted below
            outcomes[user] = error

    threads = [threading.Thread(target=restate, args=(user,)) for user in editors]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.fixture
def meet_at_the_transaction(monkeypatch):
    """Hold both editors until each has read revision 2 and built its transaction, so the
    race is decided by DynamoDB's condition on Revision, not by the service's pre-check."""
    barrier = threading.Barrier(2, timeout=30)
    original = TableGateway.transact

    def transact_together(self, actions, token):
        barrier.wait()
        return original(self, actions, token)

    monkeypatch.setattr(TableGateway, "transact", transact_together)


@pytest.mark.parametrize("round_", range(3))
def test_two_editors_restating_at_once_make_exactly_one_version(local_sample, meet_at_the_transaction, round_):
    repo = local_sample.repository
    _, history_before = repo.all_versions("DOC001")

    outcomes = restate_concurrently(2, ["alice", "bob"])

    published = {user: o for user, o in outcomes.items() if isinstance(o, Document)}
    refused = {user: o for user, o in outcomes.items() if not isinstance(o, Document)}
    assert len(published) == 1, outcomes
    [(winner, document)] = published.items()
    [(loser, error)] = refused.items()
    assert isinstance(error, Conflict), repr(error)
    assert error.updated_by == winner  # the other editor is told who published first
    assert (error.expected_revision, error.current_revision) == (2, 3)

    current, history_after = repo.all_versions("DOC001")
    assert (current.revision, current.title, current.updated_by) == (3, f"Restated by {winner}", winner)
    assert len(history_after) == len(history_before) + 1
    assert current == document
    activity = repo.overview("DOC001").capital_activity
    assert (activity.revision, activity.updated_by) == (3, winner)
    assert [(a.user, a.action) for a in repo.audit_trail("DOC001")] == [(winner, "restate")]
    assert loser not in {d.updated_by for d in history_after}


def test_many_editors_on_one_revision_still_make_one_version(local_sample):
    repo = local_sample.repository
    outcomes = restate_concurrently(2, [f"editor{i}" for i in range(6)])
    assert sum(isinstance(o, Document) for o in outcomes.values()) == 1
    assert all(isinstance(o, (Document, Conflict)) for o in outcomes.values()), outcomes
    current, history = repo.all_versions("DOC001")
    assert current.revision == 3
    assert len(history) == 2


FAILING_CHECK_TARGET = ("DOC002", "DOCUMENT#LATEST")


@pytest.fixture
def failing_transactions(monkeypatch, local_draft_sample):
    """Append to every transaction a ConditionCheck that fails (DOC002 exists), as the last
    action, so the real writes before it would apply unless the transaction is atomic (on the
    sample with its documents as drafts: entries are written directly)."""
    original = TableGateway.transact
    attempts = []

    def transact_with_failure(self, actions, token):
        pk, sk = FAILING_CHECK_TARGET
        check = {
            "ConditionCheck": {
                "TableName": self.table,
                "Key": {"PK": {"S": pk}, "SK": {"S": sk}},
                "ConditionExpression": "attribute_not_exists(PK)",
            }
        }
        attempts.append(len(actions) + 1)
        return original(self, [*actions, check], token)

    monkeypatch.setattr(TableGateway, "transact", transact_with_failure)
    return attempts


def _new_entry() -> CapitalCall:
    return CapitalCall("DOC001", "POSITION_3", "FUND_A", "INVESTOR_3", Decimal("250000.00"))


WRITES = {
    "create": lambda repo: services.document_create(
        document=Document("DOC003", title="New", fund_id="FUND_A", as_of_date=date(2025, 10, 31)),
        activity=CapitalActivity("DOC003", amount=Decimal(5)),
        user="editor",
    ),
    "restate": lambda repo: services.document_restate(
        document_id="DOC001",
        expected_revision=2,
        changes={"title": "Restated"},
        activity_changes={"amount": Decimal(1)},
        user="editor",
    ),
    "record": lambda repo: services.entry_put(entry=_new_entry(), user="editor"),
    "change": lambda repo: services.entry_put(
        entry=replace(repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1"), amount=Decimal(1)), user="editor"
    ),
    "remove": lambda repo: services.entry_remove(
        document_id="DOC001", kind=Kind.DISTRIBUTION, position_id="POSITION_1", user="editor"
    ),
}


@pytest.mark.parametrize("write", WRITES)
def test_failure_injected_into_a_transaction_leaves_nothing_partial(local_draft_sample, failing_transactions, write):
    repo = local_draft_sample.repository
    before = all_items(local_draft_sample.table)

    with pytest.raises(DataLayerError) as raised:
        WRITES[write](repo)

    assert not isinstance(raised.value, Conflict)  # not blamed on a colleague: nobody else wrote
    assert failing_transactions and failing_transactions[0] >= 3  # real writes + the failing check
    assert all_items(local_draft_sample.table) == before
