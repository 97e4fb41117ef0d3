"""The fund call page (preview, confirm, permissions) and each LP's notice PDF."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from pypdf import PdfReader

from documents.approval import document_approve
from fundportal.access.grants import grant_funds
from fundportal.domain.kinds import SUBMITTED

URL = "/documents/import/fund-call/"
TOKEN = "0123456789abcdef0123456789abcdef"
FORM = {
    "fund_id": "FUND_A",
    "on": "2026-03-31",
    "due": "2026-04-15",
    "total": "5,000,000.01",
    "purpose": "investment",
    "basis": "commitment",
    "weights": "",
    "request_token": TOKEN,
}


def pdf_text(content: bytes) -> str:
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    return " ".join(text.split())


def test_the_page_shows_the_form_to_editors(sample, editor_client):
    response = editor_client.get(URL)
    assert response.status_code == 200
    assert 'data-testid="fund-call-form"' in response.content.decode()


def test_the_preview_shows_each_lps_amount_and_writes_nothing(sample, editor_client):
    response = editor_client.post(URL, FORM)
    page = response.content.decode()
    assert response.status_code == 200
    assert "USD 3,174,603.18" in page and "USD 1,825,396.83" in page and "USD 5,000,000.01" in page
    assert 'name="confirm"' in page and TOKEN in page
    assert not [d for d in _documents(sample) if d.startswith("CALL-")]


def test_confirming_creates_one_notice_awaiting_approval_and_shows_it(sample, editor_client):
    response = editor_client.post(URL, {**FORM, "confirm": "1"})
    assert response.status_code == 302
    document_id = response["Location"].strip("/").split("/")[-1]
    assert document_id.startswith("CALL-FUND_A-20260331-")
    overview = sample.repository.overview(document_id)
    assert overview.document.approval == SUBMITTED and overview.document.purpose == "investment"
    assert sum(e.amount for row in overview.positions for e in row.by_kind.values()) == Decimal("5000000.01")
    page = editor_client.get(response["Location"]).content.decode()
    assert "awaits another user" in page
    assert f"/documents/{document_id}/notices/POSITION_1.pdf" in page


def test_a_second_confirm_of_the_same_form_creates_no_second_notice(sample, editor_client):
    first = editor_client.post(URL, {**FORM, "confirm": "1"})
    second = editor_client.post(URL, {**FORM, "confirm": "1"})
    assert second.status_code == 302 and second["Location"] == first["Location"]
    page = editor_client.get(second["Location"]).content.decode()
    assert "already created" in page
    assert len([d for d in _documents(sample) if d.startswith("CALL-")]) == 1


@pytest.mark.parametrize(
    ("changes", "wording"),
    [
        ({"total": "100.001"}, "USD amounts have at most 2 decimals"),
        ({"basis": "custom", "weights": "POSITION_1=60, POSITION_2=30"}, "The weights add up to 90 %"),
        ({"basis": "custom", "weights": ""}, "The basis adds up to zero"),
        ({"fund_id": "FUND_NONE"}, "FUND_NONE&#39; was not found."),
        ({"total": "lots"}, "is not an amount"),
    ],
)
def test_bad_input_is_shown_on_the_form_and_nothing_is_written(sample, editor_client, changes, wording):
    response = editor_client.post(URL, {**FORM, **changes, "confirm": "1"})
    assert response.status_code == 400
    assert wording in response.content.decode()
    assert not [d for d in _documents(sample) if d.startswith("CALL-")]


def test_custom_weights_are_allocated_as_typed(sample, editor_client):
    form = {**FORM, "total": "100.00", "basis": "custom", "weights": "POSITION_1=25\nPOSITION_2=75"}
    page = editor_client.post(URL, form).content.decode()
    assert "USD 25.00" in page and "USD 75.00" in page


def test_a_viewer_may_not_open_the_page(sample, analyst_client):
    assert analyst_client.get(URL).status_code == 403
    assert analyst_client.post(URL, {**FORM, "confirm": "1"}).status_code == 403


@pytest.mark.coverage_as_granted
def test_an_editor_of_another_fund_is_refused_and_nothing_is_written(sample, django_user_model, client):
    bob = django_user_model.objects.create_user("bob", password="bob-pass-12345")
    grant_funds(funds=["FUND_B"], user=bob, can_edit=True)
    grant_funds(funds=["FUND_A"], user=bob, can_edit=False)
    client.force_login(bob)
    response = client.post(URL, {**FORM, "confirm": "1"})
    assert response.status_code == 400
    assert "not edit" in response.content.decode()
    assert not [d for d in _documents(sample) if d.startswith("CALL-")]


def test_each_lps_notice_pdf_carries_amount_purpose_due_date_wire_reference_and_unfunded(sample, editor_client):
    document_id = editor_client.post(URL, {**FORM, "confirm": "1"})["Location"].strip("/").split("/")[-1]
    response = editor_client.get(f"/documents/{document_id}/notices/POSITION_1.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Capital call notice" in text and "INVESTOR_1" in text and "FUND_A" in text
    assert "Amount due from you USD 3,174,603.18" in text
    assert "Purpose Investment" in text
    assert "2026-04-15" in text
    assert f"{document_id}/INVESTOR_1" in text, text
    # commitment 2,000,000.00, called 1,250,000.00: unfunded 750,000.00 before, less the call after
    assert "Commitment USD 2,000,000.00" in text
    assert "before this notice USD 750,000.00" in text
    assert "after this notice USD -2,424,603.18" in text
    assert "awaits approval" in text


def test_an_approved_notice_pdf_shows_the_same_unfunded_before_and_after(sample, editor_client):
    form = {**FORM, "total": "1,000.00"}
    document_id = editor_client.post(URL, {**form, "confirm": "1"})["Location"].strip("/").split("/")[-1]
    before = pdf_text(editor_client.get(f"/documents/{document_id}/notices/POSITION_2.pdf").content)
    document_approve(document_id=document_id, user="approver")
    after = pdf_text(editor_client.get(f"/documents/{document_id}/notices/POSITION_2.pdf").content)
    assert "awaits approval" in before and "awaits approval" not in after
    for text in (before, after):
        assert "before this notice USD 450,000.00" in text  # 1,150,000 committed - 700,000 called
        assert "after this notice USD 449,634.92" in text  # less 365.08 (1,150,000 / 3,150,000 of 1,000.00)


def test_a_position_without_a_call_or_distribution_in_the_document_has_no_notice(sample, editor_client):
    # DOC001's POSITION_1 holds a capital call: its notice renders; an unknown position is a 404
    assert editor_client.get("/documents/DOC001/notices/POSITION_1.pdf").status_code == 200
    assert editor_client.get("/documents/DOC001/notices/POSITION_9.pdf").status_code == 404


@pytest.mark.coverage_as_granted
def test_another_lps_user_cannot_read_the_notice(sample, analyst_client, django_user_model):
    from django.test import Client

    from fundportal.access.grants import link_investors

    lp = django_user_model.objects.create_user("lp2", password="lp2-pass-12345")
    link_investors(user=lp, investors=["INVESTOR_2"])
    client = Client()
    client.force_login(lp)
    assert client.get("/documents/DOC001/notices/POSITION_1.pdf").status_code == 404


def _documents(sample) -> list[str]:
    from tests.web.test_commands import scan_all

    return sorted({i["PK"] for i in scan_all(sample.table) if i.get("EntityType") == "Document"})
