"""Restating an approved document goes back through approval: the restated amounts wait apart
and the approved ones keep counting until another user approves; approving promotes them with
the registers recounted; self-approval, approving twice and a restatement racing an approval are
refused with a clear message; verify_positions stays clean throughout (sample, moto)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from documents import approval, services
from documents.selectors import document_header, entry
from fundportal.domain.errors import ApprovalRefused, Conflict, RestatementRefused
from fundportal.domain.kinds import APPROVED, DRAFT, Kind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.messages import describe
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.register import RegisterRepository
from funds.selectors import fund_detail
from tests.contract.test_repository_contract import just_before_next_transaction

pytestmark = pytest.mark.django_db


def called(position_id: str) -> Decimal:
    (figures,) = RegisterRepository().get(position_id).figures()
    return figures.called.amount


def call_of(position_id: str, document_id: str = "DOC002") -> CapitalCall:
    return entry(document_id=document_id, kind=Kind.CAPITAL_CALL, position_id=position_id)


def restate_call(amount: int, user: str = "ana", position_id: str = "POSITION_2") -> None:
    revision = document_header(document_id="DOC002").revision
    restated = replace(call_of(position_id), amount=Decimal(amount))
    services.document_restate(
        document_id="DOC002",
        expected_revision=revision,
        changes={"title": "Q4 2025 capital call notice (restated)"},
        entries=[restated],
        user=user,
    )


def submit_and_approve(approver: str = "ben", submitter: str = "ana") -> None:
    approval.document_submit(document_id="DOC002", user=submitter)
    approval.document_approve(document_id="DOC002", user=approver)


def test_restated_amounts_wait_for_approval_while_the_approved_ones_count(sample):
    # The sample: POSITION_2 called 300,000 (DOC001) + 400,000 (DOC002).
    assert called("POSITION_2") == Decimal(700_000)
    totals = fund_detail(fund_id="FUND_A").totals
    restate_call(410_000)
    document = document_header(document_id="DOC002")
    assert (document.approval, document.counted_revision) == (DRAFT, 1)
    stored = call_of("POSITION_2")
    assert stored.amount == Decimal(400_000)  # the approved value, where every figure reads it
    assert stored.restated is not None and stored.restated.amount == Decimal(410_000)
    assert called("POSITION_2") == Decimal(700_000)
    assert fund_detail(fund_id="FUND_A").totals == totals
    assert verify_positions().differences == []

    submit_and_approve()
    assert called("POSITION_2") == Decimal(710_000)
    promoted = call_of("POSITION_2")
    assert (promoted.amount, promoted.restated) == (Decimal(410_000), None)
    document = document_header(document_id="DOC002")
    assert (document.approval, document.counted_revision, document.approval_by) == (APPROVED, None, "ben")
    assert verify_positions().differences == []


def test_approving_ones_own_restatement_or_twice_is_refused_and_writes_nothing(sample):
    restate_call(410_000)
    approval.document_submit(document_id="DOC002", user="ana")
    with pytest.raises(ApprovalRefused) as own:
        approval.document_approve(document_id="DOC002", user="ana")
    assert "last changed by ana" in describe(own.value)
    assert called("POSITION_2") == Decimal(700_000)
    approval.document_approve(document_id="DOC002", user="ben")
    with pytest.raises(ApprovalRefused) as twice:
        approval.document_approve(document_id="DOC002", user="cy")
    assert twice.value.reason == ApprovalRefused.ALREADY_APPROVED
    assert called("POSITION_2") == Decimal(710_000)
    assert verify_positions().differences == []


def test_a_restatement_racing_an_approval_one_wins_the_other_is_a_conflict_naming_who(sample):
    restate_call(410_000)
    approval.document_submit(document_id="DOC002", user="ana")
    # A second restatement lands just before the approval's transaction: the approval is refused.
    with just_before_next_transaction(lambda: restate_call(420_000, user="cy")), pytest.raises(Conflict) as lost:
        approval.document_approve(document_id="DOC002", user="ben")
    assert lost.value.updated_by == "cy"
    assert "cy" in describe(lost.value)
    assert called("POSITION_2") == Decimal(700_000)
    assert call_of("POSITION_2").restated.amount == Decimal(420_000)
    assert verify_positions().differences == []


def test_an_approval_landing_first_makes_the_restatement_a_conflict_naming_the_approver(sample):
    restate_call(410_000)
    approval.document_submit(document_id="DOC002", user="ana")
    stale = document_header(document_id="DOC002").revision
    approval.document_approve(document_id="DOC002", user="ben")
    with pytest.raises(Conflict) as lost:
        services.document_restate(
            document_id="DOC002",
            expected_revision=stale,
            changes={},
            entries=[replace(call_of("POSITION_2"), amount=Decimal(1))],
            user="ana",
        )
    assert lost.value.updated_by == "ben"
    assert called("POSITION_2") == Decimal(710_000)


def test_entry_writes_to_a_restating_document_wait_too(sample):
    restate_call(410_000)
    before = call_of("POSITION_1")  # 750,000
    services.entry_change(entry=replace(before, amount=Decimal(760_000)), user="ana", expected_revision=before.revision)
    services.entry_remove(document_id="DOC002", kind=Kind.DISTRIBUTION, position_id="POSITION_1", user="ana")
    assert called("POSITION_1") == Decimal(1_250_000)  # 500,000 + 750,000, approved
    assert entry(document_id="DOC002", kind=Kind.DISTRIBUTION, position_id="POSITION_1").restated.removed
    nav = NetAssetValue("DOC002", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(1), "Active")
    services.entry_record(entry=nav, user="ana")  # added: counts nothing until approved
    assert entry(document_id="DOC002", kind=Kind.NAV, position_id="POSITION_1").restated.added
    (figures,) = RegisterRepository().get("POSITION_1").figures()
    assert figures.nav is None
    assert verify_positions().differences == []

    submit_and_approve()
    assert called("POSITION_1") == Decimal(1_260_000)
    (figures,) = RegisterRepository().get("POSITION_1").figures()
    assert figures.distributed.amount == Decimal(75_000)  # DOC002's 120,000 removed on approval
    assert figures.nav.amount == Decimal(1)  # the added NAV, counted once approved
    assert verify_positions().differences == []


def test_a_drafts_amounts_are_not_restated_but_changed_directly(sample):
    draft = Document(document_id="DOC_D", title="draft", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=draft, user="ana")
    services.entry_record(entry=CapitalCall("DOC_D", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(5)), user="ana")
    with pytest.raises(RestatementRefused) as refused:
        services.document_restate(
            document_id="DOC_D",
            expected_revision=document_header(document_id="DOC_D").revision,
            changes={},
            entries=[CapitalCall("DOC_D", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(6))],
            user="ana",
        )
    assert "change its entries directly" in describe(refused.value)
    assert entry(document_id="DOC_D", kind=Kind.CAPITAL_CALL, position_id="POSITION_1").amount == Decimal(5)


def test_the_compare_page_shows_the_restated_amount_before_and_after_approval(sample, analyst_client):
    restate_call(410_000)
    listing = analyst_client.get("/documents/DOC002/history/").content.decode()
    (version,) = re.findall(r'compare=([0-9.-]+)">Compare with current', listing)
    expected = "POSITION_2 Capital call changed USD 400,000.00 USD 410,000.00 +USD 10,000.00"

    def lines() -> list[str]:
        page = analyst_client.get("/documents/DOC002/history/", {"compare": version}).content.decode()
        rows = re.findall(r"<tr data-position.*?</tr>", page, re.S)
        return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip() for row in rows]

    assert lines() == [expected]
    submit_and_approve()
    assert lines() == [expected]


def test_the_document_page_shows_the_restated_value_beside_the_counting_one(sample, analyst_client):
    restate_call(410_000)
    page = analyst_client.get("/documents/DOC002/").content.decode()
    assert 'data-testid="restating"' in page and "the approved revision 1's amounts count" in page
    restated = re.findall(r'data-testid="restated">([^<]+)<', page)
    assert restated == ["restated USD 410,000.00 Pending, awaiting approval"]
    one = analyst_client.get("/documents/DOC002/positions/POSITION_2/").content.decode()
    assert re.findall(r'data-testid="restated">([^<]+)<', one) == restated


def change_call_directly(amount: int, user: str, position_id: str = "POSITION_1") -> None:
    current = call_of(position_id)
    services.entry_change(entry=replace(current, amount=Decimal(amount)), user=user)


def test_an_entry_write_landing_before_the_approval_commits_refuses_the_approval(sample):
    restate_call(410_000)
    approval.document_submit(document_id="DOC002", user="ana")
    with just_before_next_transaction(lambda: change_call_directly(760_000, "cy")), pytest.raises(Conflict) as lost:
        approval.document_approve(document_id="DOC002", user="ben")
    assert lost.value.updated_by == "cy"  # nothing left unpromoted: the approval wrote nothing
    assert (called("POSITION_1"), called("POSITION_2")) == (Decimal(1_250_000), Decimal(700_000))
    assert call_of("POSITION_1").restated.amount == Decimal(760_000)
    assert verify_positions().differences == []


def test_an_approval_landing_before_an_entry_write_makes_the_write_start_a_new_restatement(sample):
    restate_call(410_000)
    approval.document_submit(document_id="DOC002", user="ana")
    with just_before_next_transaction(lambda: approval.document_approve(document_id="DOC002", user="ben")):
        change_call_directly(760_000, "cy")  # re-run on the approved document: pending again
    assert (called("POSITION_1"), called("POSITION_2")) == (Decimal(1_250_000), Decimal(710_000))
    assert call_of("POSITION_1").restated.amount == Decimal(760_000)
    document = document_header(document_id="DOC002")
    assert document.restating and document.updated_by == "cy"
    assert verify_positions().differences == []


def restate_form(**changes: str) -> dict[str, str]:
    return {
        "title": "Q4 2025 capital call notice (restated)",
        "status": "Active",
        "activity_amount": "",
        "activity_status": "Pending",
        "entry_position": "POSITION_2",
        "entry_kind": "capital_call",
        "entry_amount": "410000",
        "entry_status": "",
        "expected_revision": "1",
        **changes,
    }


def test_the_restate_form_restates_an_amount_that_waits_for_approval(sample, editor_client):
    response = editor_client.post("/documents/DOC002/restate/", restate_form(), follow=True)
    assert "It goes back through approval; the approved amounts count until then." in response.content.decode()
    stored = call_of("POSITION_2")
    assert (stored.amount, stored.restated.amount, stored.restated.status) == (
        Decimal(400_000),
        Decimal(410_000),
        "Pending",  # the status as it was: none given
    )
    assert called("POSITION_2") == Decimal(700_000)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"entry_amount": ""}, "A restated amount needs both its position and its amount."),
        ({"entry_position": "POSITION_9"}, "can be recorded once it is approved"),
        ({"entry_position": "bad#id"}, "Invalid position id"),
    ],
)
def test_the_restate_form_explains_a_restated_amount_it_cannot_take(sample, editor_client, changes, message):
    response = editor_client.post("/documents/DOC002/restate/", restate_form(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert document_header(document_id="DOC002").revision == 1  # nothing written
