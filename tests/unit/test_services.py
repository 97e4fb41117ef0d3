"""The write rules of `documents.services`, over the in-memory fake unit of work (no DynamoDB)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from documents import services
from fundportal.domain.errors import AlreadyExists, Conflict, NotFound
from fundportal.domain.kinds import Kind
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import CapitalCall, Distribution

from .fakes import FakeDocumentRepository, FakeUnitOfWork

Q3 = date(2025, 9, 30)


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


@pytest.fixture
def repo(uow) -> FakeDocumentRepository:
    return uow.store


def _create(uow, document_id="DOC1", currency="USD", activity=None):
    document = Document(document_id, title="Q3 report", fund_id="FUND_A", as_of_date=Q3, currency=currency)
    return services.document_create(document=document, activity=activity, user="alice", uow=uow)


def _call(amount="100", document_id="DOC1", position_id="POSITION_1", **fields):
    return CapitalCall(
        document_id,
        position_id=position_id,
        fund_id="FUND_A",
        investor_id="INVESTOR_1",
        amount=Decimal(amount),
        **fields,
    )


# --- document_create --------------------------------------------------------------------------


def test_document_create_is_revision_1_with_activity_and_audited(uow, repo):
    activity = CapitalActivity("ignored", amount=Decimal("500"), revision=7)
    created = _create(uow, activity=activity)

    assert (created.revision, created.latest, created.updated_by) == (1, True, "alice")
    assert repo.get("DOC1") == created
    stored_activity = repo.activities["DOC1"]
    assert (stored_activity.document_id, stored_activity.revision, stored_activity.as_of_date) == ("DOC1", 1, Q3)
    assert repo.months() == ["2025-09"]
    [audit] = repo.audit_trail("DOC1")
    assert (audit.action, audit.user, audit.target) == ("create", "alice", "Document")
    assert audit.changes == {
        "title": [None, "Q3 report"],
        "fund_id": [None, "FUND_A"],
        "as_of_date": [None, "2025-09-30"],
        "status": [None, "Active"],
        "currency": [None, "USD"],
        "document_type": [None, "other"],
    }


def test_document_create_refuses_an_existing_id(uow, repo):
    _create(uow)
    with pytest.raises(AlreadyExists):
        _create(uow)
    assert repo.writes == 1


# --- document_restate -------------------------------------------------------------------------


def _restate(uow, expected_revision=1, token="restate-1", **changes):
    return services.document_restate(
        document_id="DOC1",
        expected_revision=expected_revision,
        changes=changes or {"title": "Q3 restated", "as_of_date": date(2030, 1, 1)},
        activity_changes={"amount": Decimal("750")},
        user="bob",
        token=token,
        on=date(2025, 10, 5),
        uow=uow,
    )


def test_document_restate_archives_and_replaces_with_the_as_of_date_fixed(uow, repo):
    original = _create(uow, activity=CapitalActivity("DOC1", amount=Decimal("500")))
    restated = _restate(uow)

    assert (restated.revision, restated.title, restated.as_of_date) == (2, "Q3 restated", Q3)
    assert repo.get("DOC1") == restated
    [archived] = repo.versions("DOC1")
    assert archived == original.superseded(date(2025, 10, 5), archived.superseded_at)
    assert archived.superseded_at is not None and archived.superseded_at >= restated.updated_at  # to the microsecond
    assert (archived.latest, archived.revision, archived.version_revision) == (False, 1, 1)
    assert repo.version("DOC1", "2025-10-05.1") == archived
    [archived_activity] = repo.versions("DOC1", kind=Kind.CAPITAL_ACTIVITY)
    assert (archived_activity.amount, archived_activity.version_revision) == (Decimal("500"), 1)
    activity = repo.activities["DOC1"]
    assert (activity.amount, activity.revision, activity.latest) == (Decimal("750"), 2, True)
    audit = repo.audit_trail("DOC1")[0]
    assert (audit.action, audit.user, audit.token) == ("restate", "bob", "restate-1")
    assert audit.changes == {"title": ["Q3 report", "Q3 restated"], "activity.amount": [Decimal("500"), Decimal("750")]}


def test_document_restate_on_a_stale_revision_is_a_conflict_naming_who_and_when(uow, repo):
    _create(uow)
    restated = _restate(uow)
    writes = repo.writes

    with pytest.raises(Conflict) as raised:
        _restate(uow, token="someone-else")
    conflict = raised.value
    assert (conflict.expected_revision, conflict.current_revision) == (1, 2)
    assert (conflict.updated_by, conflict.updated_at) == ("bob", restated.updated_at)
    assert "by bob" in str(conflict)
    assert repo.writes == writes


def test_document_restate_losing_the_race_is_a_conflict(uow, repo, monkeypatch):
    """Read at revision 1, someone publishes revision 2, our conditional write fails."""
    _create(uow)
    seen = repo.load_for_restatement("DOC1")
    _restate(uow, token="first")
    monkeypatch.setattr(repo, "load_for_restatement", lambda document_id: seen)

    with pytest.raises(Conflict) as raised:
        _restate(uow, token="second")
    assert (raised.value.current_revision, raised.value.updated_by) == (2, "bob")


def test_document_restate_retried_with_the_same_token_returns_the_current_without_writing(uow, repo):
    _create(uow)
    restated = _restate(uow, token="once")
    writes = repo.writes

    assert _restate(uow, token="once") == restated
    assert repo.writes == writes
    assert len(repo.versions("DOC1")) == 1


def test_document_restate_of_a_missing_document(uow, repo):
    with pytest.raises(NotFound):
        _restate(uow)


# --- entries ----------------------------------------------------------------------------------


def test_entry_record_takes_the_documents_as_of_date_and_currency(uow, repo):
    _create(uow, currency="EUR")
    recorded = services.entry_record(entry=_call(currency="USD"), user="carol", token="t1", uow=uow)

    assert (recorded.as_of_date, recorded.currency, recorded.updated_by) == (Q3, "EUR", "carol")
    assert repo.entry("DOC1", Kind.CAPITAL_CALL, "POSITION_1") == recorded
    audit = repo.audit_trail("DOC1")[0]
    assert (audit.action, audit.target, audit.token) == ("create", "CapitalCall POSITION_1", "t1")
    assert audit.changes["amount"] == [None, Decimal("100")]
    assert audit.changes["currency"] == [None, "EUR"]


def test_entry_record_refuses_an_existing_entry(uow, repo):
    _create(uow)
    services.entry_record(entry=_call(), user="carol", token="t1", uow=uow)
    with pytest.raises(AlreadyExists):
        services.entry_record(entry=_call("200"), user="carol", token="t2", uow=uow)
    assert repo.entry("DOC1", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal("100")


def test_entry_record_in_a_missing_document(uow, repo):
    with pytest.raises(NotFound):
        services.entry_record(entry=_call(), user="carol", uow=uow)


def test_entry_change_of_a_missing_entry_is_not_found(uow, repo):
    _create(uow)
    with pytest.raises(NotFound):
        services.entry_change(entry=_call(), user="carol", uow=uow)


def test_entry_change_applies_when_unchanged_since_loaded(uow, repo):
    _create(uow)
    recorded = services.entry_record(entry=_call(), user="carol", uow=uow)
    changed = services.entry_change(
        entry=_call("250"), user="dave", token="t2", expected_revision=recorded.revision, uow=uow
    )
    assert repo.entry("DOC1", Kind.CAPITAL_CALL, "POSITION_1") == changed
    audit = repo.audit_trail("DOC1")[0]
    assert (audit.action, audit.changes) == ("update", {"amount": [Decimal("100"), Decimal("250")]})


def test_entry_change_when_changed_since_loaded_is_a_conflict(uow, repo):
    _create(uow)
    recorded = services.entry_record(entry=_call(), user="carol", uow=uow)
    writes = repo.writes
    with pytest.raises(Conflict) as raised:
        # the form showed a revision the entry is not at
        services.entry_change(entry=_call("250"), user="dave", expected_revision=recorded.revision + 1, uow=uow)
    assert (raised.value.updated_by, raised.value.updated_at) == ("carol", recorded.updated_at)
    assert repo.writes == writes


def test_entry_change_overtaken_between_read_and_write_is_a_conflict(uow, repo, monkeypatch):
    _create(uow)
    services.entry_record(entry=_call(), user="carol", uow=uow)
    seen = repo.load_for_entry_with_register("DOC1", Kind.CAPITAL_CALL, "POSITION_1")
    services.entry_change(entry=_call("300", status="Completed"), user="erin", uow=uow)
    monkeypatch.setattr(repo, "load_for_entry_with_register", lambda *args: seen)

    with pytest.raises(Conflict) as raised:
        services.entry_change(entry=_call("250"), user="dave", uow=uow)
    assert raised.value.updated_by == "erin"
    assert repo.entry("DOC1", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal("300")


def test_entry_change_retried_with_the_same_token_is_success_without_a_second_write(uow, repo):
    _create(uow)
    recorded = services.entry_record(entry=_call(), user="carol", uow=uow)
    changed = services.entry_change(
        entry=_call("250"), user="dave", token="t2", expected_revision=recorded.revision, uow=uow
    )
    writes = repo.writes

    again = services.entry_change(
        entry=_call("250"), user="dave", token="t2", expected_revision=recorded.revision, uow=uow
    )
    assert again == changed
    assert repo.writes == writes


def test_entry_put_records_then_changes(uow, repo):
    _create(uow)
    services.entry_put(entry=_call(), user="carol", uow=uow)
    services.entry_put(entry=_call("400"), user="carol", uow=uow)
    assert repo.entry("DOC1", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal("400")
    assert [a.action for a in repo.audit_trail("DOC1")] == ["update", "create", "create"]


def test_entry_remove_audits_the_old_values(uow, repo):
    _create(uow)
    entry = Distribution(
        "DOC1",
        position_id="POSITION_1",
        fund_id="FUND_A",
        investor_id="INVESTOR_1",
        amount=Decimal("75"),
        status="Completed",
        due_date=date(2025, 10, 15),
    )
    services.entry_record(entry=entry, user="carol", uow=uow)

    removed = services.entry_remove(
        document_id="DOC1", kind=Kind.DISTRIBUTION, position_id="POSITION_1", user="dave", uow=uow
    )
    assert removed.amount == Decimal("75")
    with pytest.raises(NotFound):
        repo.entry("DOC1", Kind.DISTRIBUTION, "POSITION_1")
    audit = repo.audit_trail("DOC1")[0]
    assert (audit.action, audit.user, audit.target) == ("delete", "dave", "Distribution POSITION_1")
    assert audit.changes == {
        "amount": [Decimal("75"), None],
        "status": ["Completed", None],
        "currency": ["USD", None],
        "due_date": ["2025-10-15", None],
        "fund_id": ["FUND_A", None],
        "investor_id": ["INVESTOR_1", None],
    }


def test_entry_remove_of_a_missing_entry_is_not_found(uow, repo):
    _create(uow)
    with pytest.raises(NotFound):
        services.entry_remove(
            document_id="DOC1", kind=Kind.DISTRIBUTION, position_id="POSITION_1", user="dave", uow=uow
        )
