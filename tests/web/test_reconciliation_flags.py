"""Flags beyond the sample, on the pages and in `reconcile`: the NAV roll-forward's implied gain
(informational), calls above commitment, and entries in a currency other than their register's.
Documents, entries and commitments are written through the services.

POSITION_N (FUND_N, USD, commitment 1,000,000): DOCN1 (2025-09-30) NAV 400,000 and a call of
400,000; DOCN2 (2025-12-31) a call of 700,000, a distribution of 50,000 and NAV 1,120,000.
Roll-forward: 400,000 + 700,000 - 50,000 = 1,050,000 against 1,120,000: +70,000 implied gain.
Called 400,000 + 700,000 = 1,100,000 > 1,000,000 committed: 100,000 above; computed unfunded
-100,000.
"""

from __future__ import annotations

import io
import re
from datetime import date
from decimal import Decimal
from html import unescape

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from documents import approval, services
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue
from fundportal.store.repositories.register import RegisterRepository
from positions.services import commitment_set

pytestmark = pytest.mark.django_db

IDS = {"position_id": "POSITION_N", "fund_id": "FUND_N", "investor_id": "INVESTOR_N"}


def document(document_id: str, as_of: date, currency: str = "USD") -> None:
    """A draft document: its entries are recorded directly, and count once `approve`d."""
    services.document_create(
        document=Document(document_id=document_id, fund_id="FUND_N", as_of_date=as_of, currency=currency),
        user="seed",
    )


def approve(document_id: str) -> None:
    approval.document_submit(document_id=document_id, user="seed")
    approval.document_approve(document_id=document_id, user="approver")


def record(cls, document_id: str, amount: int, currency: str = "USD") -> None:
    entry = cls(document_id=document_id, **IDS, amount=Decimal(amount), status="Completed", currency=currency)
    services.entry_record(entry=entry, user="seed")


@pytest.fixture
def valued(backend):
    document("DOCN1", date(2025, 9, 30))
    record(NetAssetValue, "DOCN1", 400_000)
    record(CapitalCall, "DOCN1", 400_000)
    document("DOCN2", date(2025, 12, 31))
    record(CapitalCall, "DOCN2", 700_000)
    record(Distribution, "DOCN2", 50_000)
    record(NetAssetValue, "DOCN2", 1_120_000)
    approve("DOCN1")
    approve("DOCN2")
    register = RegisterRepository().get("POSITION_N")
    commitment_set(
        position_id="POSITION_N",
        amount=Decimal(1_000_000),
        reason="Subscription",
        expected_revision=register.revision,
        user="e",
    )
    return backend


def flags(response) -> list[tuple[str, str]]:
    """(kind, sentence) of each flag listed on a page."""
    found = re.findall(r'<li class="flag[^"]*" data-kind="([a-z_]+)"[^>]*>(.*?)</li>', response.content.decode(), re.S)
    return [(kind, unescape(text)) for kind, text in found]


def reconcile(**options) -> tuple[list[str], CommandError | None]:
    out = io.StringIO()
    try:
        call_command("reconcile", stdout=out, stderr=io.StringIO(), **options)
    except CommandError as error:
        return out.getvalue().splitlines(), error
    return out.getvalue().splitlines(), None


def test_position_page_lists_findings_then_the_roll_forward_in_one_query(
    valued, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/positions/POSITION_N/")
    assert flags(response) == [
        (
            "above_commitment",
            "POSITION_N: called USD 1,100,000.00 is above the commitment USD 1,000,000.00, by USD +100,000.00.",
        ),
        (
            "nav_roll_forward",
            "DOCN2 POSITION_N: NAV 2025-09-30 rolled forward by calls and distributions is USD 1,050,000.00; "
            "reported NAV 2025-12-31 is USD 1,120,000.00: implied gain/loss USD +70,000.00 (informational).",
        ),
    ]
    assert "Reconciliation 1 flag " in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    assert "USD -100,000.00" in response.content.decode()  # computed unfunded: 1,000,000 - 1,100,000


def test_reconcile_counts_the_roll_forward_only_when_strict(valued):
    lines, error = reconcile(fund="FUND_N")
    assert [line.split(":")[0] for line in lines] == ["flag above_commitment", "info nav_roll_forward"]
    assert error is not None and str(error) == "1 flag in 1 fund, 1 position, 2 documents."
    _, strict = reconcile(fund="FUND_N", strict=True)
    assert strict is not None and str(strict) == "2 flags in 1 fund, 1 position, 2 documents."


def test_entries_in_another_currency_than_the_register_are_flagged(valued, analyst_client):
    document("DOCN3", date(2026, 3, 31), currency="EUR")
    record(Distribution, "DOCN3", 10_000, currency="EUR")
    approve("DOCN3")
    position = flags(analyst_client.get("/positions/POSITION_N/"))
    # named once, by the entry (the register's own flag says the same without the document)
    assert [f for f in position if f[0] == "currency_mismatch"] == [
        ("currency_mismatch", "DOCN3 POSITION_N: amounts in EUR, but its register's currency is USD.")
    ]
    fund = flags(analyst_client.get("/funds/FUND_N/"))
    assert ("currency_mismatch", "POSITION_N: amounts in EUR, but its register's currency is USD.") in fund
    lines, _ = reconcile(fund="FUND_N")
    assert [line for line in lines if "currency_mismatch" in line] == [
        "flag currency_mismatch: DOCN3 POSITION_N: amounts in EUR, but its register's currency is USD."
    ]
