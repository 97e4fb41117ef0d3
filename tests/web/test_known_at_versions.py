"""The position page as known at a moment reads the kept versions and the approval times
(moto, the seed sample): POSITION_2 was called 300,000 in DOC001 and 400,000 in DOC002; DOC002's
call is restated to 410,000 at R and approved at A. Known before R and between R and A it was
called 700,000; known after A, 710,000."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from documents import approval, services
from documents.selectors import document_header, entry
from fundportal.domain.entry_versions import instant
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall

pytestmark = pytest.mark.django_db

PAGE = "/positions/POSITION_2/"


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def moment() -> str:
    """Now, to the microsecond, as a `known_at` (UTC without an offset)."""
    return instant().replace(tzinfo=None).isoformat(timespec="microseconds")


def restate_call(amount: int) -> None:
    call = entry(document_id="DOC002", kind=Kind.CAPITAL_CALL, position_id="POSITION_2")
    services.document_restate(
        document_id="DOC002",
        expected_revision=document_header(document_id="DOC002").revision,
        changes={},
        entries=[replace(call, amount=Decimal(amount))],
        user="ana",
    )


def paid_in(client, known_at: str) -> str:
    page = text(client.get(f"{PAGE}?known_at={known_at}"))
    found = re.search(r"Paid-in \(called\) USD ([\d,.]+)", page)
    assert found is not None, page
    return found.group(1)


def test_known_at_shows_a_restated_amount_only_from_its_approval(sample, analyst_client):
    before_restatement = moment()
    restate_call(410_000)
    restated_awaiting = moment()
    approval.document_submit(document_id="DOC002", user="ana")
    approval.document_approve(document_id="DOC002", user="ben")
    approved = moment()

    assert paid_in(analyst_client, before_restatement) == "700,000.00"
    assert paid_in(analyst_client, restated_awaiting) == "700,000.00"
    assert paid_in(analyst_client, approved) == "710,000.00"
    assert text(analyst_client.get(PAGE)).count("USD 710,000.00") >= 1


def test_known_at_costs_one_query_more_than_the_page(sample, analyst_client, django_assert_dynamodb_requests):
    at = moment()
    with django_assert_dynamodb_requests(2, ["Query", "Query"]):
        assert analyst_client.get(f"{PAGE}?known_at={at}").status_code == 200


def test_a_document_first_approved_after_the_moment_does_not_count_then(sample, analyst_client):
    """A Q1 2026 call of 50,000 for POSITION_2, recorded (Draft) before T and approved after T:
    as known at T it does not count (700,000); as known after its approval it does (750,000)."""
    document = Document(document_id="DOC_Q1", title="Q1 call", fund_id="FUND_A", as_of_date=date(2026, 3, 31))
    services.document_create(document=document, user="ana")
    call = CapitalCall("DOC_Q1", "POSITION_2", "FUND_A", "INVESTOR_2", Decimal(50_000), "Active")
    services.entry_record(entry=call, user="ana")
    approval.document_submit(document_id="DOC_Q1", user="ana")
    recorded = moment()
    approval.document_approve(document_id="DOC_Q1", user="ben")
    approved = moment()

    assert paid_in(analyst_client, recorded) == "700,000.00"
    assert paid_in(analyst_client, approved) == "750,000.00"
