"""The create and entry forms refuse an id that differs only by case from an existing one with a
form error saying which id was meant, and a document id holding an unfinished import's entries."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from fundportal.domain.position_entries import CapitalCall
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories import DocumentRepository

pytestmark = pytest.mark.django_db

DOCUMENT = {"title": "N", "fund_id": "FUND_A", "as_of_date": "2025-10-31", "currency": "USD", "status": "Active"}
ENTRY = {"kind": "capital_call", "fund_id": "FUND_A", "amount": "1.00", "status": "Pending", "due_date": ""}


def test_the_create_form_asks_did_you_mean_for_another_spelling_of_a_document(sample, editor_client):
    response = editor_client.post(reverse("documents:create"), {**DOCUMENT, "document_id": "doc001"})
    assert response.status_code == 400
    assert "did you mean DOC001?" in response.content.decode()


def test_the_create_form_asks_did_you_mean_for_another_spelling_of_a_fund(sample, editor_client):
    response = editor_client.post(
        reverse("documents:create"), {**DOCUMENT, "document_id": "DOC009", "fund_id": "fund_a"}
    )
    assert response.status_code == 400 and "did you mean FUND_A?" in response.content.decode()


def test_the_create_form_refuses_an_id_holding_entries_without_a_document(sample, editor_client):
    left = CapitalCall("DOC009", "POSITION_1", "FUND_A", "INVESTOR_1", Decimal("5.00"), "Pending", "USD")
    DocumentRepository().bulk_load([to_item(left)], workers=1)  # an entry no document holds
    response = editor_client.post(reverse("documents:create"), {**DOCUMENT, "document_id": "DOC009"})
    assert response.status_code == 400
    assert "DOC009 already holds 1 position entries of an import that never finished" in response.content.decode()


def test_the_entry_form_asks_did_you_mean_for_another_spelling_of_a_position(draft_sample, editor_client):
    data = {**ENTRY, "position_id": "position_1", "investor_id": "INVESTOR_1"}
    response = editor_client.post(reverse("documents:entry_add", kwargs={"document_id": "DOC002"}), data)
    assert response.status_code == 400 and "did you mean POSITION_1?" in response.content.decode()
