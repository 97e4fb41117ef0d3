"""Fund-wide calls and distributions written as one notice awaiting approval, on moto and on
DynamoDB Local (imports.fund_calls)."""

from datetime import date
from decimal import Decimal

import pytest

from documents.approval import document_approve
from fundportal.domain.access import AccessScope
from fundportal.domain.allocation import Basis, Purpose
from fundportal.domain.errors import AllocationRefused, NotFound, NotPermitted
from fundportal.domain.kinds import SUBMITTED, Kind
from fundportal.domain.money import money
from fundportal.store.repositories.register import RegisterRepository
from imports.fund_calls import FundCallRefused, fund_call_create, fund_call_plan

ON = date(2026, 3, 31)


def plan(**changes):
    values = {
        "fund_id": "FUND_A",
        "on": ON,
        "total": Decimal("5000000.01"),
        "purpose": Purpose.INVESTMENT,
        "basis": Basis.COMMITMENT,
        "token": "token-1",
    }
    return fund_call_plan(**{**values, **changes})


def test_a_5000000_01_usd_call_across_fund_a_pro_rata_to_commitment_adds_up_exactly_and_awaits_approval(sample):
    planned = plan()
    # commitments 2,000,000 and 1,150,000: exact shares 3,174,603.1809... and 1,825,396.8290...
    assert [(line.position_id, line.amount) for line in planned.lines] == [
        ("POSITION_1", money(Decimal("3174603.18"), "USD")),
        ("POSITION_2", money(Decimal("1825396.83"), "USD")),
    ]
    assert sum(line.amount.amount for line in planned.lines) == Decimal("5000000.01")

    result = fund_call_create(plan=planned, user="editor")

    assert result.created
    overview = sample.repository.overview(result.document_id)
    document = overview.document
    assert document.approval == SUBMITTED and not document.approved
    assert document.purpose == "investment"
    assert document.document_type == "capital_call_notice"
    calls = [e for row in overview.positions for e in row.by_kind.values()]
    assert {e.kind for e in calls} == {Kind.CAPITAL_CALL}
    assert sum(e.amount for e in calls) == Decimal("5000000.01")
    assert {e.due_date for e in calls} == {ON}
    register = RegisterRepository().get("POSITION_1")
    assert register is not None and not register.counts_document(result.document_id)


def test_a_second_submit_of_the_same_request_creates_no_second_notice(sample):
    first = fund_call_create(plan=plan(), user="editor")
    again = fund_call_create(plan=plan(), user="editor")
    assert again.document_id == first.document_id and not again.created
    other = fund_call_create(plan=plan(token="token-2"), user="editor")
    assert other.created and other.document_id != first.document_id


def test_the_same_request_with_other_values_is_refused_not_written_twice(sample):
    fund_call_create(plan=plan(), user="editor")
    with pytest.raises(FundCallRefused):
        fund_call_create(plan=plan(total=Decimal("10.00")), user="editor")


def test_a_distribution_becomes_distribution_entries_and_counts_once_approved(sample):
    planned = plan(total=Decimal("300.00"), purpose=Purpose.RETURN_OF_CAPITAL)
    assert planned.lines[0].unfunded_before == planned.lines[0].unfunded_after
    result = fund_call_create(plan=planned, user="editor")
    overview = sample.repository.overview(result.document_id)
    assert overview.document.document_type == "distribution_notice"
    assert {k for row in overview.positions for k in row.by_kind} == {Kind.DISTRIBUTION}
    document_approve(document_id=result.document_id, user="approver")
    register = RegisterRepository().get("POSITION_2")
    assert register is not None and register.counts_document(result.document_id)


def test_pro_rata_to_unfunded_uses_the_computed_unfunded_on_the_date(sample):
    planned = plan(total=Decimal("1000.00"), basis=Basis.UNFUNDED)
    unfunded = {line.position_id: line.unfunded_before for line in planned.lines}
    assert {line.position_id: line.basis for line in planned.lines} == unfunded
    for line in planned.lines:
        assert line.unfunded_after == line.unfunded_before - line.amount


def test_custom_weights_must_add_up_to_one_hundred(sample):
    planned = plan(
        total=Decimal("100.00"), basis=Basis.CUSTOM, weights={"POSITION_1": Decimal(25), "POSITION_2": Decimal(75)}
    )
    assert [line.amount.amount for line in planned.lines] == [Decimal("25.00"), Decimal("75.00")]
    with pytest.raises(AllocationRefused):
        plan(basis=Basis.CUSTOM, weights={"POSITION_1": Decimal(25)})


def test_a_fund_outside_the_users_coverage_or_rights_is_refused_before_any_read(sample):
    reader = AccessScope(all_funds=True)
    with pytest.raises(NotPermitted):
        plan(scope=reader)
    with pytest.raises(NotFound):
        plan(scope=AccessScope(funds=frozenset({"FUND_B"}), edit_funds=frozenset({"FUND_B"})))
    with pytest.raises(NotFound):
        plan(fund_id="FUND_NONE")


@pytest.mark.local_only
@pytest.mark.slow
def test_a_call_across_150_lps_is_written_in_transactions_of_at_most_100_items(local_backend, monkeypatch):
    """On DynamoDB Local only: moto takes minutes over a 100-item TransactWriteItems."""
    import os

    from django.core.management import call_command

    from fundportal.store.gateway import TableGateway

    call_command("seed_demo", documents=1, positions=150, versions=0, funds=1, stdout=open(os.devnull, "w"))
    sizes: list[int] = []
    transact = TableGateway.transact

    def recorded(self, actions, token):
        sizes.append(len(actions))
        return transact(self, actions, token)

    def no_batch(self, *args, **kwargs):
        raise AssertionError("a fund call writes in transactions only")

    monkeypatch.setattr(TableGateway, "transact", recorded)
    monkeypatch.setattr(TableGateway, "batch_write", no_batch)
    planned = plan(total=Decimal("1234567.89"))
    currency = planned.total.currency.code
    result = fund_call_create(plan=planned, user="editor")

    assert len(planned.lines) == 150 and sizes and max(sizes) <= 100 and len(sizes) >= 3
    entries = [
        e for row in local_backend.repository.overview(result.document_id).positions for e in row.by_kind.values()
    ]
    assert len(entries) == 150 and {e.currency for e in entries} == {currency}
    assert sum(e.amount for e in entries) == Decimal("1234567.89")
