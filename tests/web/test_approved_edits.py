"""An approved document's amounts change only through approval: a direct entry change, removal
or new entry on an approved document (services, the entry forms, the remove button) starts or
joins a restatement; the counted figures stay until another user approves it, and
verify_positions stays clean throughout. A draft's entries are still edited directly (sample,
moto)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from documents import approval, services
from documents.selectors import document_header, entry
from fundportal.domain.errors import ApprovalRefused, NotFound, RestatementRefused
from fundportal.domain.kinds import APPROVED, DRAFT, Kind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.messages import describe
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.register import RegisterRepository
from funds.selectors import fund_detail

pytestmark = pytest.mark.django_db


def figures(position_id: str):
    (usd,) = RegisterRepository().get(position_id).figures()
    return usd


def call_of(position_id: str, document_id: str = "DOC002") -> CapitalCall:
    return entry(document_id=document_id, kind=Kind.CAPITAL_CALL, position_id=position_id)


def submit_and_approve(document_id: str = "DOC002", approver: str = "ben", submitter: str = "ana") -> None:
    approval.document_submit(document_id=document_id, user=submitter)
    approval.document_approve(document_id=document_id, user=approver)


def test_approved_edit_is_pending_until_another_user_approves_it(sample):
    # The sample: POSITION_2 called 300,000 (DOC001) + 400,000 (DOC002), DOC002 approved.
    totals = fund_detail(fund_id="FUND_A").totals
    before = call_of("POSITION_2")
    stored = services.entry_change(
        entry=replace(before, amount=Decimal(410_000)), user="ana", expected_revision=before.revision
    )
    assert stored.restated is not None and stored.restated.amount == Decimal(410_000)
    document = document_header(document_id="DOC002")
    assert (document.approval, document.counted_revision) == (DRAFT, 1)
    now = call_of("POSITION_2")
    assert (now.amount, now.restated.amount) == (Decimal(400_000), Decimal(410_000))
    assert figures("POSITION_2").called.amount == Decimal(700_000)
    assert fund_detail(fund_id="FUND_A").totals == totals
    assert verify_positions().differences == []

    submit_and_approve()
    assert figures("POSITION_2").called.amount == Decimal(710_000)
    promoted = call_of("POSITION_2")
    assert (promoted.amount, promoted.restated) == (Decimal(410_000), None)
    document = document_header(document_id="DOC002")
    assert (document.approval, document.counted_revision) == (APPROVED, None)
    assert verify_positions().differences == []


def test_a_second_edit_joins_the_pending_restatement(sample):
    first, second = call_of("POSITION_1"), call_of("POSITION_2")
    services.entry_change(entry=replace(first, amount=Decimal(760_000)), user="ana")
    restating = document_header(document_id="DOC002")
    services.entry_change(entry=replace(second, amount=Decimal(410_000)), user="ana")
    joined = document_header(document_id="DOC002")
    assert (joined.counted_revision, joined.revision) == (restating.counted_revision, restating.revision + 1)
    assert (figures("POSITION_1").called.amount, figures("POSITION_2").called.amount) == (
        Decimal(1_250_000),
        Decimal(700_000),
    )
    submit_and_approve()
    assert (figures("POSITION_1").called.amount, figures("POSITION_2").called.amount) == (
        Decimal(1_260_000),
        Decimal(710_000),
    )
    assert verify_positions().differences == []


def test_self_approval_of_an_approved_edit_is_refused_and_writes_nothing(sample):
    before = call_of("POSITION_2")
    services.entry_change(entry=replace(before, amount=Decimal(410_000)), user="ana")
    approval.document_submit(document_id="DOC002", user="ana")
    with pytest.raises(ApprovalRefused) as own:
        approval.document_approve(document_id="DOC002", user="ana")
    assert own.value.reason == ApprovalRefused.OWN_CHANGE
    assert "last changed by ana" in describe(own.value)
    assert figures("POSITION_2").called.amount == Decimal(700_000)
    assert call_of("POSITION_2").restated.amount == Decimal(410_000)
    assert verify_positions().differences == []


def test_removal_from_an_approved_document_is_pending_until_approved(sample):
    # DOC002 distributes 120,000 to POSITION_1 (75,000 more in DOC001).
    removed = services.entry_remove(document_id="DOC002", kind=Kind.DISTRIBUTION, position_id="POSITION_1", user="ana")
    assert removed is not None and removed.restated is not None and removed.restated.removed
    kept = entry(document_id="DOC002", kind=Kind.DISTRIBUTION, position_id="POSITION_1")
    assert (kept.amount, kept.restated.removed) == (Decimal(120_000), True)
    assert figures("POSITION_1").distributed.amount == Decimal(195_000)
    assert document_header(document_id="DOC002").restating
    assert verify_positions().differences == []

    submit_and_approve()
    assert figures("POSITION_1").distributed.amount == Decimal(75_000)
    with pytest.raises(NotFound):
        entry(document_id="DOC002", kind=Kind.DISTRIBUTION, position_id="POSITION_1")
    assert verify_positions().differences == []


def test_a_new_entry_in_an_approved_document_counts_nothing_until_approved(sample):
    nav = NetAssetValue("DOC002", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(1_100_000), "Active")
    services.entry_record(entry=nav, user="ana")
    held = entry(document_id="DOC002", kind=Kind.NAV, position_id="POSITION_1")
    assert held.restated is not None and held.restated.added and held.restated.amount == Decimal(1_100_000)
    assert figures("POSITION_1").nav is None
    assert verify_positions().differences == []

    submit_and_approve()
    assert figures("POSITION_1").nav.amount == Decimal(1_100_000)
    counted = entry(document_id="DOC002", kind=Kind.NAV, position_id="POSITION_1")
    assert (counted.amount, counted.status, counted.restated) == (Decimal(1_100_000), "Active", None)
    assert verify_positions().differences == []


def test_a_new_position_in_an_approved_document_is_refused_with_the_reason(sample):
    call = CapitalCall("DOC002", "POSITION_9", "FUND_A", "INVESTOR_9", Decimal(5))
    with pytest.raises(RestatementRefused) as refused:
        services.entry_record(entry=call, user="ana")
    assert "POSITION_9 is not a registered position yet" in describe(refused.value)
    assert document_header(document_id="DOC002").approved  # nothing written
    assert verify_positions().differences == []


def test_draft_edit_is_direct(sample):
    draft = Document(document_id="DOC_D", title="draft", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=draft, user="ana")
    call = CapitalCall("DOC_D", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(5))
    services.entry_record(entry=call, user="ana")
    changed = services.entry_change(entry=replace(call, amount=Decimal(6)), user="ana")
    assert changed.restated is None
    stored = entry(document_id="DOC_D", kind=Kind.CAPITAL_CALL, position_id="POSITION_1")
    assert (stored.amount, stored.restated) == (Decimal(6), None)
    assert document_header(document_id="DOC_D").approval == DRAFT
    assert not document_header(document_id="DOC_D").restating
    assert verify_positions().differences == []


def test_the_entry_form_on_an_approved_document_shows_the_pending_value_beside_the_counted(sample, editor_client):
    url = reverse("documents:entry_edit", args=("DOC002", "capital_call", "POSITION_2"))
    form = editor_client.get(url).content.decode()
    revision = re.search(r'name="revision"[^>]*value="(\d+)"', form) or re.search(
        r'value="(\d+)"[^>]*name="revision"', form
    )
    data = {
        "kind": "capital_call",
        "position_id": "POSITION_2",
        "fund_id": "FUND_A",
        "investor_id": "INVESTOR_2",
        "amount": "410000.00",
        "status": "Pending",
        "revision": revision.group(1) if revision else "",
    }
    response = editor_client.post(url, data, follow=True)
    page = response.content.decode()
    assert "awaiting approval by another user" in page
    assert re.findall(r'data-testid="restated">([^<]+)<', page) == [
        "restated USD 410,000.00 Pending, awaiting approval"
    ]
    assert "400,000.00" in page  # the counted value, beside it
    assert figures("POSITION_2").called.amount == Decimal(700_000)
    again = editor_client.get(url).content.decode()
    assert 'name="amount" value="410,000.00"' in again  # the form edits the pending value
    assert verify_positions().differences == []


def test_the_remove_button_on_an_approved_document_is_a_pending_removal(sample, editor_client):
    url = reverse("documents:entry_delete", args=("DOC002", "distribution", "POSITION_1"))
    response = editor_client.post(url, follow=True)
    page = response.content.decode()
    assert "removed, awaiting approval by another user" in page
    assert "removed in a restatement awaiting approval" in page
    assert figures("POSITION_1").distributed.amount == Decimal(195_000)
    assert verify_positions().differences == []


def test_the_draft_sample_counts_its_documents_apart_until_approved(draft_sample):
    """The tests' draft copy of the sample (`tests/draft_sample.py`) is what the services would
    have written: its documents' entries awaiting approval, verify clean, approval counts them."""
    register = RegisterRepository().get("POSITION_2")
    assert register.awaiting_documents == ("DOC001", "DOC002")
    assert all(f.called.amount == 0 for f in register.figures())  # nothing counted yet
    (awaiting,) = register.awaiting_figures()
    assert awaiting.called.amount == Decimal(700_000)
    assert verify_positions().differences == []
    for document_id in ("DOC001", "DOC002"):
        submit_and_approve(document_id)
    assert figures("POSITION_2").called.amount == Decimal(700_000)
    assert verify_positions().differences == []


def test_a_restated_call_split_waits_for_approval_with_its_amount(sample):
    before = call_of("POSITION_2")
    split = replace(before, amount=Decimal(410_000), management_fee=Decimal(10_000), outside_commitment=True)
    services.entry_change(entry=split, user="ana", expected_revision=before.revision)
    held = call_of("POSITION_2")
    # The counted call keeps its parts; the restated parts wait beside the restated amount.
    assert (held.amount, held.management_fee, held.outside_commitment) == (Decimal(400_000), None, False)
    assert dict(held.restated.parts) == {"management_fee": Decimal(10_000), "outside_commitment": True}
    assert verify_positions().differences == []

    submit_and_approve()
    promoted = call_of("POSITION_2")
    assert (promoted.amount, promoted.management_fee, promoted.outside_commitment) == (
        Decimal(410_000),
        Decimal(10_000),
        True,
    )
    assert promoted.investment == Decimal(400_000)
    assert verify_positions().differences == []


def test_a_restatement_that_keeps_the_parts_stores_none(sample):
    before = call_of("POSITION_2")
    services.entry_change(entry=replace(before, amount=Decimal(410_000)), user="ana")
    assert call_of("POSITION_2").restated.parts is None
