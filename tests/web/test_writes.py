"""Analyst writes: forms, permissions, create, position entries, restatements with
optimistic locking, and the audit trail. Runs on moto and on DynamoDB Local (`sample`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from documents import selectors, services
from documents.forms import CreateDocumentForm, EntryForm, RestateForm
from fundportal.domain.errors import Conflict, NotFound
from fundportal.domain.figures import Figures
from fundportal.domain.kinds import Kind
from fundportal.domain.model import utcnow
from fundportal.domain.position_entries import CapitalCall
from fundportal.models import EDITORS_GROUP
from fundportal.store.repositories import DocumentRepository

pytestmark = pytest.mark.django_db

ENTRY = {
    "kind": "capital_call",
    "position_id": "POSITION_3",
    "fund_id": "FUND_A",
    "investor_id": "INVESTOR_3",
    "amount": "250000.50",
    "status": "Pending",
    "due_date": "2025-10-15",
}


@pytest.fixture
def editor(django_user_model):
    user = django_user_model.objects.create_user("editor", password="editor-pass-123")
    user.groups.add(Group.objects.get(name=EDITORS_GROUP))
    return user


@pytest.fixture
def editor_client(editor) -> Client:
    client = Client()
    client.force_login(editor)
    return client


def url(name: str, **kwargs: str) -> str:
    return reverse(f"documents:{name}", kwargs=kwargs)


def entry_url(name: str, kind: str = "capital_call", position_id: str = "POSITION_1") -> str:
    return url(name, document_id="DOC001", kind=kind, position_id=position_id)


def totals(document_id: str = "DOC001") -> Figures:
    """The document's figures (the sample is all USD: one currency, one Figures)."""
    (usd,) = selectors.document_overview(document_id=document_id).totals
    assert usd.currency == "USD"
    return usd


# --- forms ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("amount", "-1", "is zero or more, not -1"),
        ("amount", "10.125", "no more than 2 decimal places"),
        ("amount", "NaN", "Enter a number"),
        ("amount", "1e3000", "no more than 18 digits"),
        ("position_id", "POS#1", "Invalid position id"),
        ("investor_id", "", "This field is required"),
        ("fund_id", "x" * 65, "use 1-64 letters"),
        ("status", "Paid", "Select a valid choice"),
        ("kind", "document", "Select a valid choice"),
        ("due_date", "2025-13-01", "Enter a valid date"),
    ],
)
def test_entry_form_rejects_bad_input(field, value, message):
    form = EntryForm({**ENTRY, field: value})
    assert not form.is_valid()
    assert message in " ".join(form.errors[field])


def test_entry_form_builds_a_decimal_entry():
    form = EntryForm(ENTRY)
    assert form.is_valid(), form.errors
    entry = form.entry("DOC001")
    assert isinstance(entry, CapitalCall)
    assert entry.amount == Decimal("250000.50") and isinstance(entry.amount, Decimal)
    assert entry.due_date == date(2025, 10, 15)


def test_entry_form_fixed_fields_ignore_posted_values():
    form = EntryForm({**ENTRY, "kind": "distribution", "position_id": "OTHER"}, initial=ENTRY, fixed=True)
    assert form.is_valid(), form.errors
    assert form.entry("DOC001").position_id == "POSITION_3"
    assert form.entry_kind() is Kind.CAPITAL_CALL


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"document_id": "DOC 3"}, "document_id"),
        ({"document_id": "new"}, "document_id"),
        ({"as_of_date": "30/09/2025"}, "as_of_date"),
        ({"currency": "XXX"}, "currency"),
        ({"activity_amount": "1.001"}, "activity_amount"),
        ({"activity_amount": "", "activity_status": "Pending"}, "activity_amount"),
    ],
)
def test_create_form_rejects_bad_input(changes, field):
    data = {"document_id": "DOC003", "title": "Notice", "fund_id": "FUND_A", "as_of_date": "2025-10-31"}
    form = CreateDocumentForm({**data, "currency": "EUR", "status": "Active", **changes})
    assert not form.is_valid()
    assert field in form.errors


def test_restate_form_needs_the_loaded_revision():
    form = RestateForm({"title": "T", "status": "Final", "activity_amount": "1", "activity_status": "Pending"})
    assert not form.is_valid()
    assert "expected_revision" in form.errors


# --- permissions ------------------------------------------------------------------------------

WRITE_URLS = [
    url("create"),
    url("entry_add", document_id="DOC001"),
    entry_url("entry_edit"),
    entry_url("entry_delete"),
    url("restate", document_id="DOC001"),
]


@pytest.mark.parametrize("path", WRITE_URLS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_viewer_gets_403_and_nothing_reaches_dynamodb(
    sample, analyst_client, django_assert_dynamodb_requests, path, method
):
    data = {**ENTRY, "document_id": "DOC009", "title": "x", "as_of_date": "2025-10-31", "expected_revision": "2"}
    with django_assert_dynamodb_requests(0):
        response = getattr(analyst_client, method)(path, data)
    assert response.status_code == 403
    assert "Permission denied" in response.content.decode()
    assert sample.repository.count_partition("DOC001") == 10
    assert sample.repository.audit_trail("DOC001") == []


@pytest.mark.parametrize("path", WRITE_URLS)
def test_anonymous_post_is_sent_to_sign_in(sample, client, django_assert_dynamodb_requests, path):
    with django_assert_dynamodb_requests(0):
        response = client.post(path, ENTRY)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_viewer_sees_no_edit_controls_and_editor_does(sample, analyst_client, editor_client):
    viewer_page = analyst_client.get(url("detail", document_id="DOC001")).content.decode()
    editor_page = editor_client.get(url("detail", document_id="DOC001")).content.decode()
    for control in ("Record an entry", "Restate", 'class="edit-link" href="/documents/DOC001/positions/POSITION_1/"'):
        assert control not in viewer_page
        assert control in editor_page
    # Each entry's Change/Remove live on the position-in-document page the row's "Edit" opens.
    viewer_position = analyst_client.get(url("position", document_id="DOC001", position_id="POSITION_1")).content
    editor_position = editor_client.get(url("position", document_id="DOC001", position_id="POSITION_1")).content
    for control in ("/entries/capital_call/POSITION_1/edit/", "/delete/"):
        assert control not in viewer_position.decode()
        assert control in editor_position.decode()
    assert "Audit trail" in viewer_page
    new_document = url("create")
    assert new_document not in analyst_client.get(url("list")).content.decode()
    assert new_document in editor_client.get(url("list")).content.decode()


def test_fund_editors_group_holds_the_permission(editor, analyst):
    assert editor.has_perm("fundportal.edit_fund_data")
    assert not analyst.has_perm("fundportal.edit_fund_data")


# --- create a document ------------------------------------------------------------------------


def test_editor_creates_a_document_with_capital_activity(sample, editor_client):
    data = {
        "document_id": "DOC003",
        "title": "Q4 2025 distribution notice",
        "fund_id": "FUND_B",
        "as_of_date": "2025-10-31",
        "currency": "EUR",
        "status": "Draft",
        "activity_amount": "1250000.25",
        "activity_status": "Pending",
    }
    response = editor_client.post(url("create"), data, follow=True)
    assert response.redirect_chain[-1][0] == url("detail", document_id="DOC003")
    assert "Document DOC003 created." in response.content.decode()
    repo = sample.repository
    overview = repo.overview("DOC003")
    document = overview.document
    assert (document.title, document.fund_id, document.as_of_date, document.currency) == (
        "Q4 2025 distribution notice",
        "FUND_B",
        date(2025, 10, 31),
        "EUR",
    )
    assert (document.revision, document.updated_by) == (1, "editor")
    assert overview.capital_activity.amount == Decimal("1250000.25")
    assert overview.capital_activity.currency == "EUR"
    assert repo.get_via_index("DOC003") == document
    assert [d.document_id for d in repo.in_month(2025, 10)] == ["DOC003"]
    assert "2025-10" in repo.months()
    [audit] = repo.audit_trail("DOC003")
    assert (audit.user, audit.action, audit.changes["title"]) == ("editor", "create", [None, data["title"]])


def test_existing_document_id_is_a_form_error(sample, editor_client):
    before = sample.repository.overview("DOC001")
    data = {
        "document_id": "DOC001",
        "title": "Overwrite attempt",
        "fund_id": "FUND_A",
        "as_of_date": "2025-09-30",
        "currency": "USD",
        "status": "Active",
        "activity_amount": "1",
        "activity_status": "Pending",
    }
    response = editor_client.post(url("create"), data)
    assert response.status_code == 400
    assert "A document with id &#39;DOC001&#39; already exists." in response.content.decode()
    after = sample.repository.overview("DOC001")
    assert after == before
    assert sample.repository.audit_trail("DOC001") == []


# --- position entries -------------------------------------------------------------------------


def test_record_a_capital_call_for_a_new_position(draft_sample, editor_client):
    repo = draft_sample.repository
    called_before = totals().called.amount
    response = editor_client.post(url("entry_add", document_id="DOC001"), ENTRY, follow=True)
    page = response.content.decode()
    assert "Capital call for POSITION_3 recorded: USD 250,000.50." in page
    assert totals().called.amount == called_before + Decimal("250000.50") == Decimal("1050000.50")
    assert "USD 1,050,000.50" in page
    entry = repo.position_in_document("DOC001", "POSITION_3").get(Kind.CAPITAL_CALL)
    assert entry.as_of_date == date(2025, 9, 30)  # the document's, denormalised
    assert (entry.updated_by, entry.currency, entry.due_date) == ("editor", "USD", date(2025, 10, 15))
    # Index keys were computed: both GSIs find the new entry.
    assert repo.entry_via_index(Kind.CAPITAL_CALL, "POSITION_3", "DOC001") == entry
    assert [e.document_id for e in draft_sample.positions.entries("POSITION_3")] == ["DOC001"]
    [audit] = repo.audit_trail("DOC001")
    assert (audit.action, audit.target, audit.user) == ("create", "CapitalCall POSITION_3", "editor")
    assert audit.changes["amount"] == [None, Decimal("250000.50")]


def test_recording_an_existing_entry_is_a_form_error(draft_sample, editor_client):
    response = editor_client.post(url("entry_add", document_id="DOC001"), {**ENTRY, "position_id": "POSITION_1"})
    assert response.status_code == 400
    assert "already exists in DOC001; change it instead" in response.content.decode()
    assert draft_sample.repository.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal(500000)


def test_change_an_entry_recomputes_totals_and_audits_the_change(draft_sample, editor_client):
    repo = draft_sample.repository
    form_page = editor_client.get(entry_url("entry_edit")).content.decode()
    assert 'value="500,000.00"' in form_page and "disabled" in form_page
    data = {
        **ENTRY,
        "position_id": "POSITION_1",
        "investor_id": "INVESTOR_1",
        "amount": "600000",
        "status": "Completed",
    }
    response = editor_client.post(entry_url("entry_edit"), data)
    assert response.status_code == 302
    assert totals().called.amount == Decimal(900000)
    changed = repo.position_in_document("DOC001", "POSITION_1").get(Kind.CAPITAL_CALL)
    assert (changed.amount, changed.status, changed.updated_by) == (Decimal(600000), "Completed", "editor")
    assert repo.entry_via_index(Kind.CAPITAL_CALL, "POSITION_1", "DOC001").amount == Decimal(600000)
    on_position_index = [
        e for e in draft_sample.positions.entries("POSITION_1", Kind.CAPITAL_CALL) if e.document_id == "DOC001"
    ]
    assert [e.amount for e in on_position_index] == [Decimal(600000)]
    [audit] = repo.audit_trail("DOC001")
    assert audit.action == "update"
    assert audit.changes["amount"] == [Decimal(500000), Decimal(600000)]
    assert audit.changes["status"] == ["Pending", "Completed"]
    assert audit.changes["due_date"] == [None, "2025-10-15"]


def test_cancelled_entry_leaves_the_totals(draft_sample, editor_client):
    data = {
        **ENTRY,
        "position_id": "POSITION_2",
        "investor_id": "INVESTOR_2",
        "amount": "300000",
        "status": "Cancelled",
    }
    editor_client.post(entry_url("entry_edit", position_id="POSITION_2"), data)
    assert totals().called.amount == Decimal(500000)


def test_remove_asks_for_confirmation_then_deletes(draft_sample, editor_client):
    repo = draft_sample.repository
    confirm = editor_client.get(entry_url("entry_delete", "distribution", "POSITION_2"))
    assert confirm.status_code == 200
    assert "Remove Distribution for POSITION_2?" in confirm.content.decode()
    assert repo.entry("DOC001", Kind.DISTRIBUTION, "POSITION_2").amount == Decimal(45000)  # GET deleted nothing
    response = editor_client.post(entry_url("entry_delete", "distribution", "POSITION_2"), follow=True)
    assert "Distribution for POSITION_2 removed." in response.content.decode()
    assert repo.position_in_document("DOC001", "POSITION_2").get(Kind.DISTRIBUTION) is None
    assert totals().distributed.amount == Decimal(75000)
    with pytest.raises(NotFound):
        repo.entry_via_index(Kind.DISTRIBUTION, "POSITION_2", "DOC001")
    assert "DOC001" not in [e.document_id for e in draft_sample.positions.entries("POSITION_2", Kind.DISTRIBUTION)]
    [audit] = repo.audit_trail("DOC001")
    assert (audit.action, audit.changes["amount"]) == ("delete", [Decimal(45000), None])


@pytest.mark.parametrize(
    ("path", "status"),
    [
        (entry_url("entry_edit", position_id="POSITION_9"), 404),
        (entry_url("entry_delete", position_id="POSITION_9"), 404),
        (entry_url("entry_edit", kind="document"), 400),
        (entry_url("entry_edit", position_id="POS.%23"), 400),
        (url("entry_add", document_id="DOC404"), 404),
        (url("restate", document_id="DOC404"), 404),
    ],
)
def test_unknown_targets_are_404_and_bad_ids_400(sample, editor_client, path, status):
    assert editor_client.get(path).status_code == status
    assert editor_client.post(path, {**ENTRY, **restate_data(1)}).status_code == status


def test_entry_in_a_missing_document_is_not_written(sample):
    entry = EntryForm(ENTRY)
    assert entry.is_valid()
    with pytest.raises(NotFound):
        services.entry_put(entry=entry.entry("DOC404"), user="editor")
    assert sample.positions.entries("POSITION_3") == []


def test_entry_changed_since_read_is_a_conflict(draft_sample, monkeypatch):
    """The entry write is conditioned on the values the audit item records as 'before'."""
    repo = draft_sample.repository
    entry = repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1")
    original_read = DocumentRepository.load_for_entry_with_register  # the write's one read
    raced = []

    def read_then_colleague_writes(self, document_id, kind, position_id):
        loaded = original_read(self, document_id, kind, position_id)
        if kind is Kind.CAPITAL_CALL and not raced:
            raced.append(True)
            services.entry_put(entry=replace(entry, amount=Decimal(1)), user="colleague")
        return loaded

    monkeypatch.setattr(DocumentRepository, "load_for_entry_with_register", read_then_colleague_writes)
    with pytest.raises(Conflict) as raised:
        services.entry_put(entry=replace(entry, amount=Decimal(2)), user="editor")
    assert raised.value.updated_by == "colleague"
    monkeypatch.undo()
    assert repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal(1)
    assert [a.user for a in repo.audit_trail("DOC001")] == ["colleague"]


# --- restatements -----------------------------------------------------------------------------


def restate_data(revision: int, **changes: str) -> dict[str, str]:
    return {
        "title": "Q3 2025 capital account statement (restated)",
        "status": "Final",
        "activity_amount": "525000.75",
        "activity_status": "Completed",
        "expected_revision": str(revision),
        **changes,
    }


def test_restate_form_is_preloaded_with_the_current_revision(sample, editor_client):
    page = editor_client.get(url("restate", document_id="DOC001")).content.decode()
    assert 'name="expected_revision" value="2"' in page
    assert 'value="Q3 2025 capital account statement"' in page
    assert 'value="500,000.00"' in page


def test_restate_archives_and_replaces_in_one_go(sample, editor_client):
    repo = sample.repository
    response = editor_client.post(url("restate", document_id="DOC001"), restate_data(2), follow=True)
    assert "Document DOC001 restated: now revision 3." in response.content.decode()
    overview = repo.overview("DOC001")
    assert (overview.document.revision, overview.document.title, overview.document.status) == (
        3,
        "Q3 2025 capital account statement (restated)",
        "Final",
    )
    assert (overview.capital_activity.amount, overview.capital_activity.status) == (Decimal("525000.75"), "Completed")
    today = utcnow().date()
    [archived] = repo.versions("DOC001", today, today)
    assert (archived.revision, archived.title, archived.version_date) == (2, "Q3 2025 capital account statement", today)
    [archived_activity] = repo.versions("DOC001", today, today, kind=Kind.CAPITAL_ACTIVITY)
    assert archived_activity.amount == Decimal(500000)
    assert len(overview.document_history) == 2 and len(overview.activity_history) == 2
    assert repo.get_via_index("DOC001").revision == 3
    assert [d.revision for d in repo.in_month(2025, 9)] == [3]


def test_stale_revision_gets_409_naming_who_and_writes_nothing(sample, editor_client):
    repo = sample.repository
    form_page = editor_client.get(url("restate", document_id="DOC001")).content.decode()
    assert 'name="expected_revision" value="2"' in form_page
    # A colleague publishes first.
    services.document_restate(
        document_id="DOC001", expected_revision=2, changes={"title": "Colleague's restatement"}, user="alice"
    )
    _, history_before = repo.all_versions("DOC001")
    audit_before = repo.audit_trail("DOC001")

    response = editor_client.post(url("restate", document_id="DOC001"), restate_data(2))

    assert response.status_code == 409
    page = response.content.decode()
    current = repo.get("DOC001")
    assert "alice" in page
    assert f"{current.updated_at:%Y-%m-%d %H:%M:%S} UTC" in page
    assert "Nothing was written" in page
    _, history_after = repo.all_versions("DOC001")
    assert len(history_after) == len(history_before) == 2
    assert (current.revision, current.title) == (3, "Colleague's restatement")
    assert repo.audit_trail("DOC001") == audit_before


def test_two_restatements_on_one_day_both_survive(sample, editor_client):
    repo = sample.repository
    assert editor_client.post(url("restate", document_id="DOC001"), restate_data(2, title="First")).status_code == 302
    assert editor_client.post(url("restate", document_id="DOC001"), restate_data(3, title="Second")).status_code == 302
    today = utcnow().date()
    same_day = repo.versions("DOC001", today, today)
    assert [(d.revision, d.title) for d in same_day] == [(3, "First"), (2, "Q3 2025 capital account statement")]
    assert {d.version_date for d in same_day} == {today}
    assert len(repo.versions("DOC001", today, today, kind=Kind.CAPITAL_ACTIVITY)) == 2
    current, history = repo.all_versions("DOC001")
    assert (current.revision, current.title) == (4, "Second")
    assert len(history) == 3  # the seed's 2025-09-01 copy and today's two


def test_restating_without_capital_activity_keeps_it_absent(sample, editor_client):
    data = restate_data(1, activity_amount="")
    assert editor_client.post(url("restate", document_id="DOC002"), data).status_code == 302
    overview = sample.repository.overview("DOC002")
    assert overview.capital_activity is None
    assert overview.document.revision == 2


# --- audit trail ------------------------------------------------------------------------------


def test_audit_trail_records_who_when_and_what(draft_sample, editor_client, analyst_client):
    started = utcnow()
    editor_client.post(url("entry_add", document_id="DOC001"), ENTRY)
    editor_client.post(url("restate", document_id="DOC001"), restate_data(2))
    editor_client.post(entry_url("entry_delete", "unfunded_commitment", "POSITION_1"))
    trail = draft_sample.repository.audit_trail("DOC001")
    assert [(a.action, a.target) for a in trail] == [
        ("delete", "UnfundedCommitment POSITION_1"),
        ("restate", "Document"),
        ("create", "CapitalCall POSITION_3"),
    ]
    assert {a.user for a in trail} == {"editor"}
    assert all(a.at >= started for a in trail)
    assert trail[1].changes["title"] == ["Q3 2025 capital account statement", restate_data(2)["title"]]
    assert trail[1].changes["activity.amount"] == [Decimal(500000), Decimal("525000.75")]
    page = analyst_client.get(url("audit", document_id="DOC001"))  # any signed-in analyst may read it
    assert page.status_code == 200
    text = page.content.decode()
    for expected in ("UnfundedCommitment POSITION_1", "activity.amount", "525000.75", "editor", "restate"):
        assert expected in text


# --- request cost (as documented in the README) -----------------------------------------------


def test_each_write_costs_the_documented_requests(draft_sample, editor_client, django_assert_dynamodb_requests):
    # A new position: also how its position and investor ids are already spelled (one Query each).
    with django_assert_dynamodb_requests(4, ["BatchGetItem", "Query", "Query", "TransactWriteItems"]):
        assert editor_client.post(url("entry_add", document_id="DOC001"), ENTRY).status_code == 302
    # A new title: the document's entries are read (one Query), their copies refreshed in the transaction.
    with django_assert_dynamodb_requests(3, ["BatchGetItem", "Query", "TransactWriteItems"]):
        assert editor_client.post(url("restate", document_id="DOC001"), restate_data(2)).status_code == 302
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "TransactWriteItems"]):  # the same title and type
        assert editor_client.post(url("restate", document_id="DOC001"), restate_data(3)).status_code == 302
    # the entry and its position register in one consistent BatchGetItem
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "TransactWriteItems"]):
        assert editor_client.post(entry_url("entry_delete")).status_code == 302
    data = {"document_id": "DOC003", "title": "N", "fund_id": "F", "as_of_date": "2025-10-31", "currency": "USD"}
    # A new document: no entries left in its partition, no other spelling of its id or its fund's.
    with django_assert_dynamodb_requests(4, ["Query", "Query", "Query", "TransactWriteItems"]):
        assert editor_client.post(url("create"), {**data, "status": "Active"}).status_code == 302
    with django_assert_dynamodb_requests(2, ["GetItem", "Query"]):
        assert editor_client.get(url("audit", document_id="DOC001")).status_code == 200


def test_position_page_offers_editors_the_entry_controls(sample, editor_client, analyst_client):
    edit_link = entry_url("entry_edit")
    assert edit_link in editor_client.get(reverse("positions:detail", args=["POSITION_1"])).content.decode()
    assert edit_link not in analyst_client.get(reverse("positions:detail", args=["POSITION_1"])).content.decode()


# --- resubmission and forms left open ------------------------------------------------------------


def _hidden(page: str, name: str) -> str:
    import re

    return re.search(rf'name="{name}" value="([^"]*)"', page).group(1)


def _change_position_1(form_page: str) -> dict[str, str]:
    """POSITION_1's capital call changed to 600,000, posted with the form's hidden fields."""
    return {
        **ENTRY,
        "position_id": "POSITION_1",
        "investor_id": "INVESTOR_1",
        "amount": "600000",
        "request_token": _hidden(form_page, "request_token"),
        "revision": _hidden(form_page, "revision"),
    }


def test_resubmitted_restatement_is_applied_once(sample, editor_client):
    """A double click (or a reload after a lost reply) posts the same token: one new version,
    and the second post is told it succeeded instead of getting a false 409."""
    repo = sample.repository
    page = editor_client.get(url("restate", document_id="DOC001")).content.decode()
    data = restate_data(2, request_token=_hidden(page, "request_token"))
    first = editor_client.post(url("restate", document_id="DOC001"), data)
    second = editor_client.post(url("restate", document_id="DOC001"), data, follow=True)
    assert first.status_code == 302
    assert second.status_code == 200
    assert "now revision 3" in second.content.decode()
    current, history = repo.all_versions("DOC001")
    assert current.revision == 3
    assert len(history) == 2  # the seed's copy and one new one, not two
    assert [a.action for a in repo.audit_trail("DOC001")] == ["restate"]


def test_resubmitted_entry_change_is_applied_once(draft_sample, editor_client):
    repo = draft_sample.repository
    page = editor_client.get(entry_url("entry_edit")).content.decode()
    data = _change_position_1(page)
    assert editor_client.post(entry_url("entry_edit"), data).status_code == 302
    assert editor_client.post(entry_url("entry_edit"), data).status_code == 302
    assert repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal(600000)
    assert len(repo.audit_trail("DOC001")) == 1


def test_change_form_left_open_does_not_overwrite_a_colleague(draft_sample, editor_client):
    repo = draft_sample.repository
    page = editor_client.get(entry_url("entry_edit")).content.decode()
    colleague = repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1")
    services.entry_put(entry=replace(colleague, amount=Decimal(510000)), user="alice")
    data = _change_position_1(page)
    response = editor_client.post(entry_url("entry_edit"), data)
    assert response.status_code == 409
    assert "alice" in response.content.decode()
    assert repo.entry("DOC001", Kind.CAPITAL_CALL, "POSITION_1").amount == Decimal(510000)
