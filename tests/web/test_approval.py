"""Four eyes on the seed's sample: a Draft NAV changes no headline figure until another user
approves it; self-approval, approving twice and a draft not submitted are refused and write
nothing; the Submit/Approve buttons and `approve_document`; verify_positions stays clean."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from documents import approval, services
from documents.book_reconciliation import book_reconciliation
from exports.statement import position_statement
from fundportal.access.models import APPROVE_PERMISSION
from fundportal.domain.errors import ApprovalRefused, Conflict
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.documents import DocumentRepository
from fundportal.store.repositories.register import RegisterRepository
from funds.selectors import fund_detail
from tests.conftest import signed_in_editor

pytestmark = pytest.mark.django_db

NAV = Decimal(5_000_000)


def draft_nav(document_id: str = "DOC_NAV", user: str = "editor") -> None:
    """A Q4 statement (Draft) with a 5,000,000 NAV for POSITION_1, entered by `user`."""
    document = Document(document_id=document_id, title="Q4 statement", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=document, user=user)
    nav = NetAssetValue(document_id, "POSITION_1", "FUND_A", "INVESTOR_1", NAV, "Active")
    services.entry_record(entry=nav, user=user)


def position_1():
    (figures,) = RegisterRepository().get("POSITION_1").figures()
    return figures


def test_a_draft_nav_changes_no_headline_figure_until_another_user_approves_it(sample):
    before = fund_detail(fund_id="FUND_A")
    # The sample: POSITION_1 called 500,000 + 750,000 = 1,250,000, distributed 195,000, no NAV.
    assert (position_1().called.amount, position_1().distributed.amount, position_1().nav) == (
        Decimal(1_250_000),
        Decimal(195_000),
        None,
    )
    draft_nav()
    assert position_1().nav is None and position_1().tvpi is None
    assert fund_detail(fund_id="FUND_A").totals == before.totals
    register = RegisterRepository().get("POSITION_1")
    assert register.awaiting_documents == ("DOC_NAV",)
    assert register.awaiting_figures()[0].nav.amount == NAV  # shown apart, awaiting approval

    approval.document_submit(document_id="DOC_NAV", user="editor")
    assert position_1().nav is None  # submitted is not approved
    approved = approval.document_approve(document_id="DOC_NAV", user="approver")

    assert (approved.approval, approved.approval_by) == ("Approved", "approver")
    figures = position_1()
    assert figures.nav.amount == NAV and figures.nav_as_of == date(2025, 12, 31)
    # TVPI = (195,000 + 5,000,000) / 1,250,000 = 4.156 -> 4.16x; RVPI = 5,000,000 / 1,250,000 = 4.00x
    assert (figures.tvpi, figures.rvpi) == (Decimal("4.16"), Decimal("4.00"))
    assert RegisterRepository().get("POSITION_1").awaiting_documents == ()
    assert verify_positions().differences == []


def test_approving_ones_own_change_is_refused_and_writes_nothing(sample):
    draft_nav(user="editor")
    approval.document_submit(document_id="DOC_NAV", user="editor")
    before = DocumentRepository().get("DOC_NAV")
    with pytest.raises(ApprovalRefused) as refused:
        approval.document_approve(document_id="DOC_NAV", user="editor")
    assert refused.value.reason == ApprovalRefused.OWN_CHANGE
    assert DocumentRepository().get("DOC_NAV") == before
    assert position_1().nav is None


def test_the_last_editor_is_who_changed_an_entry_not_who_created_the_document(sample):
    draft_nav(user="editor")
    call = CapitalCall("DOC_NAV", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(1000), "Pending")
    services.entry_record(entry=call, user="second")
    approval.document_submit(document_id="DOC_NAV", user="editor")
    with pytest.raises(ApprovalRefused):
        approval.document_approve(document_id="DOC_NAV", user="second")
    assert approval.document_approve(document_id="DOC_NAV", user="editor").approval == "Approved"
    assert position_1().called.amount == Decimal(1_251_000)


def test_approving_twice_or_a_draft_or_submitting_twice_is_refused(sample):
    draft_nav()
    with pytest.raises(ApprovalRefused) as draft:
        approval.document_approve(document_id="DOC_NAV", user="approver")
    assert draft.value.reason == ApprovalRefused.NOT_SUBMITTED
    approval.document_submit(document_id="DOC_NAV", user="editor")
    with pytest.raises(ApprovalRefused) as twice:
        approval.document_submit(document_id="DOC_NAV", user="editor")
    assert twice.value.reason == ApprovalRefused.ALREADY_SUBMITTED
    approval.document_approve(document_id="DOC_NAV", user="approver")
    register = RegisterRepository().get("POSITION_1")
    with pytest.raises(ApprovalRefused) as again:
        approval.document_approve(document_id="DOC_NAV", user="approver")
    assert again.value.reason == ApprovalRefused.ALREADY_APPROVED
    assert RegisterRepository().get("POSITION_1") == register  # counted once


def test_an_approval_racing_a_restatement_is_a_conflict_naming_who_changed_it(sample):
    draft_nav()
    submitted = approval.document_submit(document_id="DOC_NAV", user="editor")
    services.document_restate(
        document_id="DOC_NAV", expected_revision=submitted.revision, changes={"title": "Q4 (restated)"}, user="other"
    )
    with pytest.raises(Conflict) as raced:
        approval.document_approve(document_id="DOC_NAV", user="approver", expected_revision=submitted.revision)
    assert raced.value.updated_by == "other"
    assert position_1().nav is None


def test_the_sample_loads_approved_with_nothing_awaiting(sample):
    for document_id in ("DOC001", "DOC002"):
        assert DocumentRepository().get(document_id).approval == "Approved"
    assert RegisterRepository().get("POSITION_1").awaiting_documents == ()
    assert verify_positions().differences == []


def test_a_large_document_is_approved_in_stages_and_counted_once(sample, monkeypatch):
    monkeypatch.setattr(approval, "POSITIONS_PER_TRANSACTION", 2)
    document = Document(document_id="DOC_BIG", title="Big", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=document, user="editor")
    for n in range(5):
        call = CapitalCall("DOC_BIG", f"POS_{n}", "FUND_A", f"INV_{n}", Decimal(100 + n), "Completed")
        services.entry_record(entry=call, user="editor")
    approval.document_submit(document_id="DOC_BIG", user="editor")
    approval.document_approve(document_id="DOC_BIG", user="approver")
    for n in range(5):
        register = RegisterRepository().get(f"POS_{n}")
        assert register.figures()[0].called.amount == Decimal(100 + n) and register.awaiting_documents == ()
    assert DocumentRepository().get("DOC_BIG").approval == "Approved"
    assert verify_positions().differences == []


def test_the_document_page_buttons_submit_and_approve(sample, django_user_model):
    draft_nav(user="editor")
    editor = signed_in_editor(django_user_model, "editor")
    page = editor.get("/documents/DOC_NAV/").content.decode()
    assert 'data-testid="submit-for-approval"' in page and 'data-testid="approve"' not in page
    response = editor.post("/documents/DOC_NAV/submit/", follow=True)
    assert "submitted for approval" in response.content.decode()
    # The editor may approve (permission) but not their own change: refused, nothing written.
    django_user_model.objects.get(username="editor").user_permissions.add(_approve_permission())
    response = editor.post("/documents/DOC_NAV/approve/", follow=True)
    assert "another user must approve it" in response.content.decode()
    assert position_1().nav is None
    approver = signed_in_editor(django_user_model, "approver")
    django_user_model.objects.get(username="approver").user_permissions.add(_approve_permission())
    assert 'data-testid="approve"' in approver.get("/documents/DOC_NAV/").content.decode()
    response = approver.post("/documents/DOC_NAV/approve/", follow=True)
    assert "approved: its entries now count" in response.content.decode()
    assert position_1().nav.amount == NAV


def test_approving_needs_the_approve_permission(sample, django_user_model):
    draft_nav(user="editor")
    approval.document_submit(document_id="DOC_NAV", user="editor")
    other = signed_in_editor(django_user_model, "other")
    assert 'data-testid="approve"' not in other.get("/documents/DOC_NAV/").content.decode()
    assert other.post("/documents/DOC_NAV/approve/").status_code == 403
    assert position_1().nav is None


def test_approve_document_command(sample):
    draft_nav(user="editor")
    out = io.StringIO()
    call_command("approve_document", "DOC_NAV", "--user", "editor", "--submit", stdout=out)
    with pytest.raises(CommandError, match="another user must approve it"):
        call_command("approve_document", "DOC_NAV", "--user", "editor", stdout=io.StringIO())
    call_command("approve_document", "DOC_NAV", "--user", "approver", stdout=out)
    assert "DOC_NAV approved by approver" in out.getvalue()
    assert position_1().nav.amount == NAV
    with pytest.raises(CommandError, match="already approved"):
        call_command("approve_document", "DOC_NAV", "--user", "approver", stdout=io.StringIO())


def _approve_permission():
    from django.contrib.auth.models import Permission

    app_label, codename = APPROVE_PERMISSION.split(".")
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


def test_pages_show_draft_amounts_apart_as_awaiting_approval_without_more_requests(
    sample, analyst_client, django_assert_dynamodb_requests
):
    draft_nav()
    pages = {
        "/positions/POSITION_1/": ["Query"],
        "/funds/FUND_A/": ["BatchGetItem", "Query"],  # the fund's summary, one page of positions
        "/investors/INVESTOR_1/": ["Query"],
    }
    for url, operations in pages.items():
        with django_assert_dynamodb_requests(len(operations), operations):
            html = analyst_client.get(url).content.decode()
        assert 'data-testid="awaiting-approval"' in html and "NAV USD 5,000,000.00" in html, url
    with django_assert_dynamodb_requests(1, ["Query"]):
        html = analyst_client.get("/documents/DOC_NAV/").content.decode()
    assert 'data-testid="approval"' in html and "Draft" in html


def test_reconcile_as_of_leaves_out_documents_awaiting_approval(sample):
    document = Document(document_id="DOC_Q4", title="Q4", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=document, user="editor")
    call = CapitalCall("DOC_Q4", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(900_000), "Completed")
    services.entry_record(entry=call, user="editor")

    def kinds() -> list[str]:
        report = book_reconciliation(as_of=date(2026, 1, 31))
        return sorted(f"{line.kind}" for line in report.findings())

    # The draft call (1,250,000 + 900,000 = 2,150,000 > the 2,000,000 commitment) is not counted.
    waiting = kinds()
    approval.document_submit(document_id="DOC_Q4", user="editor")
    approval.document_approve(document_id="DOC_Q4", user="approver")
    added = list(kinds())
    for kind in waiting:
        added.remove(kind)
    assert waiting == ["activity_vs_calls", "unfunded_differs", "unfunded_differs"]  # the sample's three
    assert added == ["above_commitment"]


def test_exports_statements_and_position_report_count_only_approved_documents(sample, analyst_client):
    draft_nav()
    call = CapitalCall("DOC_NAV", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(1000), "Completed")
    services.entry_record(entry=call, user="editor")
    assert "DOC_NAV" not in analyst_client.get("/positions/POSITION_1/export.csv").content.decode()
    statement = position_statement(position_id="POSITION_1")
    (usd,) = statement.currencies
    assert usd.figures.called.amount == Decimal(1_250_000) and usd.figures.nav is None
    out = io.StringIO()
    call_command("position_report", "POSITION_1", "--entity", "capital_call", "--format", "csv", stdout=out)
    assert "DOC_NAV" not in out.getvalue()
    approval.document_submit(document_id="DOC_NAV", user="editor")
    approval.document_approve(document_id="DOC_NAV", user="approver")
    assert "DOC_NAV" in analyst_client.get("/positions/POSITION_1/export.csv").content.decode()
    (usd,) = position_statement(position_id="POSITION_1").currencies
    assert usd.figures.called.amount == Decimal(1_251_000) and usd.figures.nav.amount == NAV


def test_a_position_with_only_draft_entries_exports_no_rows(sample, analyst_client):
    document = Document(document_id="DOC_NEW", title="New LP", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=document, user="editor")
    call = CapitalCall("DOC_NEW", "POSITION_9", "FUND_A", "INVESTOR_9", Decimal(10), "Pending")
    services.entry_record(entry=call, user="editor")
    response = analyst_client.get("/positions/POSITION_9/export.csv")
    assert response.status_code == 200
    assert "DOC_NEW" not in response.content.decode()
