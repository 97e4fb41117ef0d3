"""Effective-dated commitments on the pages (moto, the seed sample): the commitment form's
effective date and reason, the history table on the position page (still one Query), an
as-of statement and `reconcile --as-of` using the commitment effective then, edit rights, and
verify_positions clean after dated changes."""

from __future__ import annotations

import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader

from fundportal.access import grants
from fundportal.domain.model import utcnow
from fundportal.store.repositories.register import RegisterRepository
from positions.services import commitment_set
from tests.web.coverage_data import covering

pytestmark = pytest.mark.django_db

FORM = "/positions/POSITION_1/commitment/"


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def pdf_text(response) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages).split())


def change(amount: int, effective_on: date, reason: str, user: str = "setup") -> None:
    """A dated change of POSITION_1's commitment, at the register's current revision."""
    revision = RegisterRepository().get("POSITION_1", consistent=True).revision
    commitment_set(
        position_id="POSITION_1",
        amount=Decimal(amount),
        effective_on=effective_on,
        reason=reason,
        expected_revision=revision,
        user=user,
    )


def test_the_form_defaults_the_effective_date_to_today_and_lists_the_history(sample, editor_client):
    form = editor_client.get(FORM)
    page = form.content.decode()
    assert f'name="effective_on" value="{utcnow().date().isoformat()}"' in page
    assert 'name="reason"' in page
    assert "Commitment history" in text(form)
    assert "from the start USD 2,000,000.00 in effect today" in text(form)


def test_a_change_without_reason_or_in_the_future_is_refused_and_nothing_written(sample, editor_client):
    no_reason = editor_client.post(
        FORM, {"commitment": "2500000", "effective_on": "2025-10-15", "reason": " ", "expected_revision": "1"}
    )
    assert "This field is required." in text(no_reason)
    tomorrow = date.fromordinal(utcnow().date().toordinal() + 1).isoformat()
    future = editor_client.post(
        FORM, {"commitment": "2500000", "effective_on": tomorrow, "reason": "Agreed", "expected_revision": "1"}
    )
    assert future.status_code == 400
    assert "takes effect on or before today" in text(future)
    register = RegisterRepository().get("POSITION_1", consistent=True)
    assert (register.revision, register.commitment, register.commitments) == (1, Decimal(2_000_000), ())


def test_the_position_page_shows_the_dated_history_from_its_one_query(
    sample, editor_client, analyst_client, django_assert_dynamodb_requests
):
    response = editor_client.post(
        FORM,
        {"commitment": "2,500,000", "effective_on": "2025-10-15", "reason": "Side letter", "expected_revision": "1"},
    )
    assert response.status_code == 302
    with django_assert_dynamodb_requests(1, ["Query"]):
        page = text(analyst_client.get("/positions/POSITION_1/"))
    assert "Commitment USD 2,500,000.00" in page
    history = page[page.index("Commitment history") :]
    assert "Effective from Commitment Reason Recorded by Recorded at" in history
    assert "2025-10-15 USD 2,500,000.00 in effect today Side letter editor " in history
    assert "from the start USD 2,000,000.00 recorded before commitments were dated —" in history
    assert history.index("2025-10-15") < history.index("from the start")


def test_a_backdated_change_keeps_today_s_commitment_on_the_page(sample, analyst_client):
    change(2_500_000, date(2025, 10, 15), "Side letter")
    change(1_800_000, date(2025, 6, 30), "Transfer to INVESTOR_9")
    page = text(analyst_client.get("/positions/POSITION_1/"))
    assert "Commitment USD 2,500,000.00" in page
    history = page[page.index("Commitment history") :]
    assert history.index("2025-10-15") < history.index("2025-06-30") < history.index("from the start")


def test_an_as_of_2025_09_30_statement_uses_the_commitment_effective_then(sample, analyst_client):
    change(2_500_000, date(2025, 10, 15), "Side letter")
    early = pdf_text(analyst_client.get("/positions/POSITION_1/statement.pdf?as_of=2025-09-30"))
    # Through 2025-09-30: 500,000 called of the 2,000,000 then in effect: 25 %.
    assert "Commitment USD 2,000,000.00" in early and "Paid-in (called) USD 500,000.00" in early
    assert "25.0 %" in early
    today = pdf_text(analyst_client.get("/positions/POSITION_1/statement.pdf"))
    assert "Commitment USD 2,500,000.00" in today
    change(1_800_000, date(2025, 6, 30), "Transfer to INVESTOR_9")
    backdated = pdf_text(analyst_client.get("/positions/POSITION_1/statement.pdf?as_of=2025-09-30"))
    assert "Commitment USD 1,800,000.00" in backdated


def reconcile(**options) -> str:
    out = io.StringIO()
    with pytest.raises(CommandError):  # the sample's capital activity is always flagged
        call_command("reconcile", stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def test_reconcile_as_of_uses_the_commitment_effective_then(sample):
    change(2_500_000, date(2025, 10, 15), "Side letter")
    # 2025-09-30: 2,000,000 - 500,000 called = 1,500,000 computed, as reported: not flagged.
    assert "POSITION_1" not in reconcile(fund="FUND_A", as_of="2025-09-30")
    # Today: 2,500,000 - 1,250,000 = 1,250,000 computed against 1,500,000 reported.
    assert (
        "POSITION_1: reported unfunded USD 1,500,000.00 (2025-09-30) differs from computed unfunded "
        "USD 1,250,000.00 (commitment - called), by USD +250,000.00." in reconcile(fund="FUND_A")
    )
    change(1_800_000, date(2025, 6, 30), "Transfer to INVESTOR_9")
    # 2025-09-30 now: 1,800,000 - 500,000 = 1,300,000 computed against 1,500,000 reported.
    assert "computed unfunded USD 1,300,000.00" in reconcile(fund="FUND_A", as_of="2025-09-30")


@pytest.mark.coverage_as_granted
def test_an_editor_of_another_fund_cannot_change_the_commitment(sample):
    data = {"commitment": "1", "effective_on": "2025-10-15", "reason": "Attempt", "expected_revision": "1"}
    reader = covering("reader", "FUND_A", can_edit=False)
    grants.grant_funds(funds=["FUND_B"], user=reader.user, can_edit=True)
    assert reader.post(FORM, data).status_code == 403  # reads FUND_A, may not edit it
    outsider = covering("outsider", "FUND_B")
    assert outsider.post(FORM, data).status_code == 404  # FUND_A is not covered at all
    assert RegisterRepository().get("POSITION_1", consistent=True).revision == 1


def test_verify_positions_is_clean_after_dated_changes(sample):
    change(2_500_000, date(2025, 10, 15), "Side letter")
    change(1_800_000, date(2025, 6, 30), "Transfer to INVESTOR_9")
    call_command("verify_positions", stdout=io.StringIO())
