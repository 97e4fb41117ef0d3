"""Idempotency that compares, writes conditioned on the revision the
user saw, and ids/dates refused. Each test reproduces a finding of the outside review."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from documents import entry_writes, services
from fundportal.domain.kinds import Kind
from fundportal.store.repositories import DocumentRepository

pytestmark = pytest.mark.django_db


def _entry_url(name: str, kind: str = "capital_call", position_id: str = "POSITION_1") -> str:
    return reverse(f"documents:{name}", kwargs={"document_id": "DOC001", "kind": kind, "position_id": position_id})


def _hidden(page: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', page).group(1)


def _change(page: str, amount: str) -> dict[str, str]:
    """POSITION_1's capital call with a new amount, posted with the form's hidden fields."""
    return {
        "fund_id": "FUND_A",
        "investor_id": "INVESTOR_1",
        "amount": amount,
        "status": "Pending",
        "due_date": "2025-10-15",
        "request_token": _hidden(page, "request_token"),
        "revision": _hidden(page, "revision"),
    }


def _amount(repo, kind=Kind.CAPITAL_CALL, position="POSITION_1") -> Decimal:
    return repo.entry("DOC001", kind, position).amount


# --- 1. idempotency that compares ---------------------------------------------------------------


def test_resubmitted_form_with_changed_values_is_saved_not_dropped(draft_sample, editor_client):
    """Back, edit, submit again (same token, new amount): was 302 'changed' and the value kept."""
    repo = draft_sample.repository
    page = editor_client.get(_entry_url("entry_edit")).content.decode()
    assert editor_client.post(_entry_url("entry_edit"), _change(page, "600000")).status_code == 302
    again = editor_client.post(_entry_url("entry_edit"), _change(page, "700000"), follow=True)
    assert again.status_code == 200
    assert "USD 700,000.00" in again.content.decode()
    assert _amount(repo) == Decimal(700000)
    entry = repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1")
    assert entry.revision == 3  # two writes, each a new revision
    assert [a.changes["amount"] for a in repo.audit_trail("DOC001")] == [
        [Decimal(600000), Decimal(700000)],
        [Decimal(500000), Decimal(600000)],
    ]


def test_repeated_token_with_the_same_values_is_success_and_written_once(draft_sample, editor_client):
    repo = draft_sample.repository
    page = editor_client.get(_entry_url("entry_edit")).content.decode()
    data = _change(page, "600000")
    assert [editor_client.post(_entry_url("entry_edit"), data).status_code for _ in range(3)] == [302] * 3
    assert _amount(repo) == Decimal(600000)
    assert len(repo.audit_trail("DOC001")) == 1


def test_the_stored_token_carries_a_hash_of_the_request(sample, editor_client):
    from fundportal.store.repositories.documents import REQUEST_HASH, REQUEST_TOKEN

    page = editor_client.get(_entry_url("entry_edit")).content.decode()
    editor_client.post(_entry_url("entry_edit"), _change(page, "600000"))
    item = sample.repository.gateway.get(("DOC001", "CAPITAL_CALL#POSITION_1"), consistent=True)
    assert item[REQUEST_TOKEN] == _hidden(page, "request_token")
    assert re.fullmatch(r"[0-9a-f]{64}", item[REQUEST_HASH])


def test_double_delete_by_one_form_is_success_not_a_404_or_409(draft_sample, editor_client):
    url = _entry_url("entry_delete", "distribution", "POSITION_2")
    page = editor_client.get(url).content.decode()
    data = {"request_token": _hidden(page, "request_token"), "revision": _hidden(page, "revision")}
    first = editor_client.post(url, data)
    second = editor_client.post(url, data, follow=True)
    assert first.status_code == 302
    assert second.status_code == 200
    assert "Distribution for POSITION_2 removed." in second.content.decode()
    assert [a.action for a in draft_sample.repository.audit_trail("DOC001")] == ["delete"]


def test_a_delete_of_an_entry_someone_else_removed_is_still_not_found(draft_sample, editor_client):
    url = _entry_url("entry_delete", "distribution", "POSITION_2")
    page = editor_client.get(url).content.decode()
    services.entry_remove(document_id="DOC001", kind=Kind.DISTRIBUTION, position_id="POSITION_2", user="alice")
    data = {"request_token": _hidden(page, "request_token"), "revision": _hidden(page, "revision")}
    assert editor_client.post(url, data).status_code == 404


def test_double_submitted_create_is_success_not_already_exists(sample, editor_client):
    page = editor_client.get(reverse("documents:create")).content.decode()
    data = {
        "document_id": "DOC777",
        "title": "Q4 statement",
        "fund_id": "FUND_A",
        "as_of_date": "2025-12-31",
        "currency": "USD",
        "status": "Active",
        "document_type": "other",  # a field of the document types (ignored without it)
        "request_token": _hidden(page, "request_token"),
    }
    assert editor_client.post(reverse("documents:create"), data).status_code == 302
    assert editor_client.post(reverse("documents:create"), data).status_code == 302
    other = dict(data, request_token="f" * 32)
    assert editor_client.post(reverse("documents:create"), other).status_code == 400  # a different form


# --- 2. conditioned on the version the user saw ------------------------------------------------


def test_delete_confirmation_removes_only_the_version_it_showed(draft_sample, editor_client):
    """The page showed USD 45,000.00; a colleague changed it; confirming must not delete it."""
    repo = draft_sample.repository
    url = _entry_url("entry_delete", "distribution", "POSITION_2")
    page = editor_client.get(url).content.decode()
    assert "USD 45,000.00" in page
    shown = repo.entry("DOC001", Kind.DISTRIBUTION, "POSITION_2")
    services.entry_change(entry=replace(shown, amount=Decimal("987654.32")), user="alice", expected_revision=1)
    data = {"request_token": _hidden(page, "request_token"), "revision": _hidden(page, "revision")}
    response = editor_client.post(url, data)
    assert response.status_code == 409
    assert "alice" in response.content.decode()
    assert _amount(repo, Kind.DISTRIBUTION, "POSITION_2") == Decimal("987654.32")


def test_two_saves_in_the_same_second_cannot_both_win(draft_sample, editor_client, monkeypatch):
    """Both editors loaded revision 1; every timestamp is the same second (UpdatedAt is cut to
    seconds): before, both got 302 and the first save was silently lost."""
    frozen = datetime(2025, 10, 1, 12, 0, 0, tzinfo=UTC)
    monkeypatch.setattr(entry_writes, "utcnow", lambda: frozen)
    repo = draft_sample.repository
    entry = repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1")
    services.entry_change(entry=entry, user="setup")  # UpdatedAt = the frozen second, revision 2
    first_page = editor_client.get(_entry_url("entry_edit")).content.decode()
    second_page = editor_client.get(_entry_url("entry_edit")).content.decode()
    assert editor_client.post(_entry_url("entry_edit"), _change(first_page, "600000")).status_code == 302
    lost = editor_client.post(_entry_url("entry_edit"), _change(second_page, "650000"))
    assert lost.status_code == 409
    assert "revision 3" in lost.content.decode()
    assert _amount(repo) == Decimal(600000)


def test_every_change_increments_the_entry_revision(sample):
    repo = sample.repository
    entry = repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1")
    assert entry.revision == 1
    for expected in (1, 2, 3):
        entry = services.entry_change(
            entry=replace(entry, amount=entry.amount + 1), user="u", expected_revision=expected
        )
    assert repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1").revision == 4


# --- 6. ids and dates ------------------------------------------------------------------------


@pytest.mark.parametrize("document_id", [".", "..", "...."])
def test_ids_of_only_dots_are_refused_by_the_create_form(backend, editor_client, document_id):
    page = editor_client.get(reverse("documents:create")).content.decode()
    data = {
        "document_id": document_id,
        "title": "t",
        "fund_id": "FUND_A",
        "as_of_date": "2025-12-31",
        "currency": "USD",
        "status": "Active",
        "request_token": _hidden(page, "request_token"),
    }
    response = editor_client.post(reverse("documents:create"), data)
    assert response.status_code == 400
    assert "not only dots" in response.content.decode()


@pytest.mark.parametrize("as_of", ["0001-01-01", "1899-12-31", "2101-01-01", "9999-12-31"])
def test_as_of_dates_outside_1900_2100_are_refused(backend, editor_client, as_of):
    data = {
        "document_id": "DOC900",
        "title": "t",
        "fund_id": "FUND_A",
        "as_of_date": as_of,
        "currency": "USD",
        "status": "Active",
    }
    response = editor_client.post(reverse("documents:create"), data)
    assert response.status_code == 400
    assert "between 1900-01-01 and 2100-12-31" in response.content.decode()


def test_services_refuse_an_as_of_date_outside_the_range(backend):
    from datetime import date

    from fundportal.domain.errors import InvalidId
    from fundportal.domain.model import Document

    with pytest.raises(InvalidId):
        services.document_create(document=Document("DOC901", as_of_date=date(1, 1, 1)), user="u")


def test_commands_refuse_dates_outside_the_range(sample):
    with pytest.raises(CommandError, match="between 1900-01-01 and 2100-12-31"):
        call_command("document_history", "DOC001", "--from", "0001-01-01")


# --- 9. synthetic data never collides with the sample ---------------------------------------------


def test_synthetic_data_refuses_to_write_into_the_sample(sample):
    """Was: `seed_demo --sample` then the README's synthetic `seed_demo` merged a USD version
    into DOC001/DOC002."""
    before = sample.repository.overview("DOC001")
    with pytest.raises(CommandError, match=r"refusing to write synthetic data into existing documents.*DOC001"):
        call_command("seed_demo", documents=3, positions=2, stdout=open(os.devnull, "w"))
    after = sample.repository.overview("DOC001")
    assert after == before


def test_synthetic_data_may_be_reloaded_over_itself(backend):
    call_command("seed_demo", documents=3, positions=2, workers=1, stdout=open(os.devnull, "w"))
    call_command("seed_demo", documents=3, positions=2, workers=1, stdout=open(os.devnull, "w"))
    assert DocumentRepository().get("DOC001").revision == 3
