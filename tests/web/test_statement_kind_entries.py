"""Recording the capital account's kinds (fees, expenses, gains, carry) and the split of calls and
distributions, by form and by import: what is stored, what the pages show, what the figures
count, and the refusals of bad input (nothing written). Runs on moto and DynamoDB Local."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from html import unescape

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from documents import approval, services
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, Distribution, ManagementFee
from fundportal.domain.reconciliation import computed_unfunded
from fundportal.models import EDITORS_GROUP
from fundportal.store.repositories.register import RegisterRepository
from imports.services import import_apply, import_prepare
from tests.approving import approve_by_another
from tests.notices import csv_bytes, row

pytestmark = pytest.mark.django_db

BASE = {"position_id": "POSITION_1", "fund_id": "FUND_A", "investor_id": "INVESTOR_1", "status": "Completed"}


@pytest.fixture
def editor_client(django_user_model) -> Client:
    user = django_user_model.objects.create_user("editor", password="editor-pass-123")
    user.groups.add(Group.objects.get(name=EDITORS_GROUP))
    client = Client()
    client.force_login(user)
    return client


def add_url(document_id: str = "DOC002") -> str:
    return reverse("documents:entry_add", kwargs={"document_id": document_id})


def test_an_editor_records_a_fee_a_loss_and_accrued_carry_and_the_position_page_lists_them(sample, editor_client):
    for data in (
        {"kind": "management_fee", "amount": "25,000.00", "fee_line": "gross"},
        {"kind": "unrealized_gain", "amount": "-12,500.00"},
        {"kind": "carried_interest", "amount": "3,500.00", "carry_stage": "accrued"},
        {"kind": "partnership_expense", "amount": "4,200.00"},
    ):
        response = editor_client.post(add_url(), {**BASE, **data})
        assert response.status_code == 302, response.content.decode()[:2000]
    approve_by_another("DOC002")  # the seed's DOC002 is approved: the new entries count once approved
    fee = sample.repository.entry("DOC002", Kind.MANAGEMENT_FEE, "POSITION_1")
    assert isinstance(fee, ManagementFee) and (fee.amount, fee.fee_line) == (Decimal(25000), "gross")
    assert sample.repository.entry("DOC002", Kind.UNREALIZED_GAIN, "POSITION_1").amount == Decimal(-12500)
    register = RegisterRepository().get("POSITION_1")
    (usd,) = register.figures()
    assert usd.activity.management_fee_net == Decimal(25000)
    assert usd.activity.unrealized_gain == Decimal(-12500)
    assert usd.activity.carry_accrued == Decimal(3500)
    assert usd.activity.partnership_expenses == Decimal(4200)
    html = editor_client.get(reverse("positions:detail", args=("POSITION_1",))).content.decode()
    assert "Fees, expenses, gains, carry" in html
    assert "Management fee (gross) USD 25,000.00" in html
    assert "Unrealized gain/loss USD -12,500.00" in html
    assert "Carried interest (accrued) USD 3,500.00" in html
    document_page = editor_client.get(reverse("documents:detail", args=("DOC002",))).content.decode()
    assert ">Management fee</a></th>" in document_page and ">Partnership expense</a></th>" in document_page
    seed_page = editor_client.get(reverse("documents:detail", args=("DOC001",))).content.decode()
    assert ">Management fee</a></th>" not in seed_page  # a column only where the page holds the kind


def test_a_split_distribution_and_a_call_with_fees_outside_the_commitment_count_once_approved(sample, editor_client):
    services.document_create(
        document=Document(document_id="DOC003", title="Q4 statement", fund_id="FUND_A", as_of_date=date(2025, 12, 31)),
        user="editor",
    )
    registered = RegisterRepository().get("POSITION_2")
    (before,) = registered.figures()
    unfunded_before = computed_unfunded(registered.commitment_money, before)
    call = {"kind": "capital_call", "amount": "100,000.00", "management_fee": "2,000.00", "outside_commitment": "on"}
    distribution = {
        "kind": "distribution",
        "amount": "60,000.00",
        "return_of_capital": "40,000.00",
        "gain": "15,000.00",
        "income": "5,000.00",
        "recallable": "10,000.00",
    }
    ids = {"position_id": "POSITION_2", "investor_id": "INVESTOR_2"}
    for data in (call, distribution):
        assert editor_client.post(add_url("DOC003"), {**BASE, **ids, **data}).status_code == 302
    approval.document_submit(document_id="DOC003", user="editor")
    approval.document_approve(document_id="DOC003", user="approver")  # four eyes: then they count
    stored = sample.repository.entry("DOC003", Kind.CAPITAL_CALL, "POSITION_2")
    assert isinstance(stored, CapitalCall) and stored.outside_commitment and stored.investment == Decimal(98000)
    split = sample.repository.entry("DOC003", Kind.DISTRIBUTION, "POSITION_2")
    assert isinstance(split, Distribution) and split.recallable == Decimal(10000)
    # Both ride in the position index's Query with their parts.
    on_index = {e.kind: e for e in sample.positions.entries("POSITION_2") if e.document_id == "DOC003"}
    parts = ("return_of_capital", "gain", "income", "recallable")
    assert [getattr(on_index[Kind.DISTRIBUTION], name) for name in parts] == [getattr(split, name) for name in parts]
    assert (on_index[Kind.CAPITAL_CALL].management_fee, on_index[Kind.CAPITAL_CALL].outside_commitment) == (
        Decimal(2000),
        True,
    )
    register = RegisterRepository().get("POSITION_2")
    (after,) = register.figures()
    # unfunded: less the call, plus its fee part called outside the commitment, plus the recallable part
    expected = unfunded_before.amount - Decimal(100000) + Decimal(2000) + Decimal(10000)
    assert computed_unfunded(register.commitment_money, after).amount == expected
    html = editor_client.get(reverse("positions:detail", args=("POSITION_2",))).content.decode()
    assert "return of capital 40,000.00 · gain 15,000.00 · income 5,000.00 · recallable 10,000.00" in html
    assert "fees 2,000.00, outside the commitment" in html


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"kind": "management_fee", "amount": "-1.00"}, "amount", "management fee is zero or more"),
        ({"kind": "partnership_expense", "amount": "-1.00"}, "amount", "partnership expense is zero or more"),
        ({"kind": "carried_interest", "amount": "-1.00", "carry_stage": "paid"}, "amount", "Carried interest paid"),
        (
            {"kind": "distribution", "amount": "100.00", "return_of_capital": "60.00", "gain": "30.00"},
            "return_of_capital",
            "add up to 90.00, not the distribution's 100.00",
        ),
        ({"kind": "distribution", "amount": "100.00", "recallable": "101.00"}, "recallable", "cannot exceed"),
        ({"kind": "capital_call", "amount": "100.00", "management_fee": "101.00"}, "management_fee", "cannot exceed"),
        ({"kind": "capital_call", "amount": "100.00", "gain": "1.00"}, "gain", "applies to a distribution only"),
    ],
)
def test_bad_entries_get_a_clear_message_and_nothing_is_written(sample, editor_client, data, field, message):
    before = RegisterRepository().get("POSITION_1")
    response = editor_client.post(add_url(), {**BASE, **data, "position_id": "POSITION_1"})
    assert response.status_code == 400
    page = unescape(response.content.decode())
    assert message in page and f'name="{field}"' in page
    assert sample.repository.audit_trail("DOC002") == []
    assert RegisterRepository().get("POSITION_1").revision == before.revision


def test_an_import_carries_the_new_kinds_and_the_split(sample):
    common = {"document_id": "CAS_1", "title": "Q4 statement", "fund_id": "FUND_A", "as_of_date": "2025-12-31"}
    common |= {"position_id": "POSITION_1", "investor_id": "INVESTOR_1", "new_position": "", "status": "Completed"}
    rows = [
        row(**common, kind="distribution", amount="1,000.00", return_of_capital="600.00", gain="400.00"),
        row(**common, kind="management_fee", amount="250.00", fee_line="offset"),
        row(**common, kind="realized_gain", amount="-75.50"),
        row(**common, kind="carried_interest", amount="20.00", carry_stage="paid"),
    ]
    prepared = import_prepare(data=csv_bytes(rows), filename="cas.csv")
    assert prepared.ok, prepared.validation.errors
    import_apply(prepared=prepared, user="importer")
    fee = sample.repository.entry("CAS_1", Kind.MANAGEMENT_FEE, "POSITION_1")
    assert (fee.fee_line, fee.amount) == ("offset", Decimal(250))
    assert sample.repository.entry("CAS_1", Kind.REALIZED_GAIN, "POSITION_1").amount == Decimal("-75.50")
    split = sample.repository.entry("CAS_1", Kind.DISTRIBUTION, "POSITION_1")
    assert (split.return_of_capital, split.gain, split.income) == (Decimal(600), Decimal(400), None)


@pytest.mark.parametrize(
    ("values", "column", "message"),
    [
        ({"kind": "distribution", "return_of_capital": "10.00"}, "return_of_capital", "add up to 10.00"),
        ({"kind": "management_fee", "amount": "-5.00"}, "amount", "zero or more"),
        ({"kind": "management_fee", "fee_line": "rebate"}, "fee_line", "not one of gross, offset, waiver"),
        ({"kind": "capital_call", "recallable": "1.00"}, "recallable", "applies to a distribution row only"),
        ({"kind": "carried_interest", "carry_stage": "owed"}, "carry_stage", "not one of accrued, paid"),
        ({"kind": "capital_call", "outside_commitment": "maybe"}, "outside_commitment", "not yes or no"),
    ],
)
def test_an_import_row_breaking_its_kinds_rules_is_refused_on_its_column(sample, values, column, message):
    prepared = import_prepare(data=csv_bytes([row(**values)]), filename="bad.csv")
    assert not prepared.ok
    reasons = [(e.column, e.reason) for e in prepared.validation.errors]
    assert any(c == column and message in reason for c, reason in reasons), reasons
