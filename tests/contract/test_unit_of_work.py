"""The unit of work on both backends: each named action's refusal becomes its typed error, the
request token is kept across retries, a resubmitted request is success, a `with` block that
raises writes nothing, and each write still costs the same requests."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from documents import services
from fundportal.domain.audit_trail import AuditEntry
from fundportal.domain.errors import AlreadyExists, Conflict, NotFound
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document, utcnow
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.store import gateway
from fundportal.store.errors import TransactionCancelled
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.uow import EXISTS, NEW, UnitOfWork
from positions.services import commitment_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def token() -> str:
    """A fresh form token per test: DynamoDB remembers tokens for 10 minutes across tables."""
    return uuid.uuid4().hex


@pytest.fixture
def no_sleep(monkeypatch) -> list[int]:
    attempts: list[int] = []
    monkeypatch.setattr(gateway, "backoff", attempts.append)
    return attempts


def _audit(document_id: str = "DOC001") -> AuditEntry:
    return AuditEntry(document_id, utcnow(), "u", "check", "Document", {})


def test_a_missing_document_check_is_not_found_and_nothing_is_written(sample):
    with pytest.raises(NotFound) as raised, UnitOfWork() as uow:
        uow.check(Document("DOC404"), EXISTS, name="document")
        uow.put(_audit("DOC404"), expect=NEW, name="audit")
        uow.commit()
    assert (raised.value.action, raised.value.key) == ("document", "DOC404")
    assert DocumentRepository().audit_trail("DOC404") == []


def test_a_new_put_on_a_taken_id_is_already_exists(sample):
    taken = replace(DocumentRepository().get("DOC001"), title="Another")
    with pytest.raises(AlreadyExists) as raised, UnitOfWork() as uow:
        uow.put(taken, expect=NEW, name="document")
        uow.put(_audit(), expect=NEW, name="audit")
        uow.commit()
    assert raised.value.action == "document"
    assert DocumentRepository().get("DOC001", consistent=True).title != "Another"
    assert DocumentRepository().audit_trail("DOC001") == []


def test_a_stale_revision_is_a_conflict_naming_who_changed_it_and_when(sample):
    current = DocumentRepository().get("DOC001", consistent=True)
    with pytest.raises(Conflict) as raised, UnitOfWork() as uow:
        uow.put(replace(current, title="Late"), expect=current.revision - 1, name="document")
        uow.commit()
    conflict = raised.value
    assert (conflict.action, conflict.expected_revision, conflict.current_revision) == (
        "document",
        current.revision - 1,
        current.revision,
    )
    assert (conflict.updated_by, conflict.updated_at) == (current.updated_by, current.updated_at)


def test_a_register_moved_by_another_writer_is_reread_and_the_write_retried(draft_sample, monkeypatch, no_sleep):
    """Another entry of the position lands between our read and our transaction: the register's
    condition refuses ours, the unit of work re-reads and retries under a derived token."""
    read = DocumentRepository.load_for_entry_with_register
    tokens: list[str] = []
    transact = TableGateway.transact

    def colleague_writes_after_our_first_read(self, *args):
        found = read(self, *args)
        if not tokens:
            tokens.append("read")
            nav = NetAssetValue("DOC001", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(1_000_000), status="Active")
            monkeypatch.setattr(DocumentRepository, "load_for_entry_with_register", read)
            services.entry_record(entry=nav, user="colleague")
            monkeypatch.setattr(
                DocumentRepository, "load_for_entry_with_register", colleague_writes_after_our_first_read
            )
        return found

    def recording(self, actions, token):
        tokens.append(token)
        return transact(self, actions, token)

    monkeypatch.setattr(DocumentRepository, "load_for_entry_with_register", colleague_writes_after_our_first_read)
    monkeypatch.setattr(TableGateway, "transact", recording)
    nav = NetAssetValue("DOC002", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(1_400_000), status="Active")
    before = RegisterRepository().get("POSITION_1", consistent=True).revision

    services.entry_record(entry=nav, user="u", token="form-" + uuid.uuid4().hex[:8])

    ours = [t for t in tokens[1:] if t != tokens[1]]  # after the colleague's own transaction
    assert len(ours) == 2 and ours[0] != ours[1]  # refused once, retried under a derived token
    assert no_sleep == [0]
    assert RegisterRepository().get("POSITION_1", consistent=True).revision == before + 2
    assert DocumentRepository().entry("DOC002", Kind.NAV, "POSITION_1").amount == Decimal(1_400_000)


def test_a_conflicted_transaction_is_retried_with_the_same_token(sample, monkeypatch, no_sleep, token):
    transact = TableGateway.transact
    tokens: list[str] = []

    def conflict_once(self, actions, client_token):
        tokens.append(client_token)
        if len(tokens) == 1:
            raise TransactionCancelled(["TransactionConflict"] + ["None"] * (len(actions) - 1))
        return transact(self, actions, client_token)

    monkeypatch.setattr(TableGateway, "transact", conflict_once)
    entry = DocumentRepository().entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1")
    services.entry_change(entry=replace(entry, amount=Decimal(525_000)), user="u", token=token, expected_revision=1)
    assert tokens == [token, token] and no_sleep == [0]
    assert [a.token for a in DocumentRepository().audit_trail("DOC001")] == [token]


def test_the_same_request_resubmitted_is_success_with_one_read(sample, token, django_assert_dynamodb_requests):
    entry = replace(DocumentRepository().entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1"), amount=Decimal(610_000))
    first = services.entry_change(entry=entry, user="u", token=token, expected_revision=1)
    with django_assert_dynamodb_requests(1, ["BatchGetItem"]):
        again = services.entry_change(entry=entry, user="u", token=token, expected_revision=1)
    assert again == first
    assert len(DocumentRepository().audit_trail("DOC001")) == 1


def test_leaving_the_with_block_by_an_error_writes_nothing(sample, django_assert_dynamodb_requests):
    current = DocumentRepository().get("DOC001", consistent=True)
    with django_assert_dynamodb_requests(0), pytest.raises(RuntimeError), UnitOfWork() as uow:
        uow.put(replace(current, title="Never"), expect=current.revision, name="document")
        uow.put(_audit(), expect=NEW, name="audit")
        raise RuntimeError("the rule failed after the actions were added")
    assert uow.actions == [] and not uow.committed
    assert DocumentRepository().get("DOC001", consistent=True).title == current.title


def test_each_write_still_costs_the_same_requests(draft_sample, token, django_assert_dynamodb_requests):
    new = CapitalCall("DOC001", "POSITION_3", "FUND_A", "INVESTOR_3", Decimal(250_000))
    # A new position: also how its position and investor ids are already spelled (one Query each).
    with django_assert_dynamodb_requests(4, ["BatchGetItem", "Query", "Query", "TransactWriteItems"]):
        services.entry_record(entry=new, user="u")
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "TransactWriteItems"]):
        services.entry_remove(document_id="DOC001", kind=Kind.CAPITAL_CALL, position_id="POSITION_3", user="u")
    # A new title: the document's entries are read too (one Query), their copies refreshed in the transaction.
    with django_assert_dynamodb_requests(3, ["BatchGetItem", "Query", "TransactWriteItems"]):
        services.document_restate(document_id="DOC001", expected_revision=2, changes={"title": "R"}, user="u")
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "TransactWriteItems"]):  # the same title and type
        services.document_restate(document_id="DOC001", expected_revision=3, changes={"status": "Final"}, user="u")
    # A new document: no entries left in its partition, no other spelling of its id.
    with django_assert_dynamodb_requests(3, ["Query", "Query", "TransactWriteItems"]):
        services.document_create(document=Document("DOC009", as_of_date=date(2025, 9, 30)), user="u", token=token)
    revision = RegisterRepository().get("POSITION_1", consistent=True).revision
    with django_assert_dynamodb_requests(2, ["GetItem", "TransactWriteItems"]):
        commitment_set(
            position_id="POSITION_1", amount=Decimal(2_100_000), reason="Top-up", expected_revision=revision, user="u"
        )
