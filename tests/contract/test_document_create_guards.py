"""Creating a document or a new position never adopts what is not its own: an id whose partition
holds an unfinished import's entries is refused, and ids that differ only by case from an
existing document, fund, position or investor are refused with "did you mean"."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from documents import selectors
from documents.entry_writes import entry_record
from documents.services import document_create
from fundportal.domain.errors import LeftoverEntries, NotFound, SpelledOtherwise
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall
from fundportal.messages import describe
from imports import writing
from imports.services import import_apply, import_prepare
from tests.notices import csv_bytes, notice_rows

pytestmark = pytest.mark.django_db


def _document(document_id: str = "NOTICE_1", fund_id: str = "FUND_Q") -> Document:
    return Document(document_id=document_id, title="Q1", fund_id=fund_id, as_of_date=date(2026, 3, 31), currency="EUR")


def test_a_document_id_holding_an_unfinished_imports_entries_is_refused(backend, monkeypatch):
    def crash(*args):
        raise ConnectionError("the import's process died before its registers")

    monkeypatch.setattr(writing, "put_registers", crash)
    with pytest.raises(ConnectionError):
        import_apply(prepared=import_prepare(data=csv_bytes(notice_rows(2)), filename="n.csv"), user="importer")
    monkeypatch.undo()
    with pytest.raises(LeftoverEntries) as refused:
        document_create(document=_document(), user="someone")
    assert refused.value.count == 6 and "NOTICE_1 already holds 6 position entries" in describe(refused.value)
    with pytest.raises(NotFound):  # nothing created, nothing adopted
        selectors.document_overview(document_id="NOTICE_1")


def test_a_free_document_id_is_created(backend):
    assert document_create(document=_document("NOTICE_9"), user="someone").revision == 1


@pytest.mark.parametrize(
    ("document_id", "fund_id", "meant"),
    [("notice_1", "FUND_Q", "NOTICE_1"), ("NOTICE_2", "fund_q", "FUND_Q")],
)
def test_a_document_or_fund_id_differing_only_by_case_is_refused(backend, document_id, fund_id, meant):
    document_create(document=_document(), user="someone")
    with pytest.raises(SpelledOtherwise) as refused:
        document_create(document=_document(document_id, fund_id), user="someone")
    assert refused.value.existing == meant and f"did you mean {meant}?" in describe(refused.value)


@pytest.mark.parametrize(
    ("position_id", "investor_id", "meant"),
    [("position_1", "INVESTOR_1", "POSITION_1"), ("POSITION_2", "investor_1", "INVESTOR_1")],
)
def test_a_new_position_or_investor_differing_only_by_case_is_refused(backend, position_id, investor_id, meant):
    document_create(document=_document(fund_id="FUND_A"), user="someone")

    def call(position: str, investor: str) -> CapitalCall:
        return CapitalCall("NOTICE_1", position, "FUND_A", investor, Decimal("100.00"), "Pending")

    entry_record(entry=call("POSITION_1", "INVESTOR_1"), user="someone")
    with pytest.raises(SpelledOtherwise) as refused:
        entry_record(entry=call(position_id, investor_id), user="someone")
    assert f"did you mean {meant}?" in describe(refused.value)
