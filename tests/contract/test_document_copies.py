"""Every position entry carries its document's title and type (`DocumentTitle`, `DocumentType`),
set by every write path, refreshed by a restatement that changes them and filled by
`backfill_indexes` for entries written before: on moto and on DynamoDB Local."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command

from documents.entry_writes import entry_change, entry_record
from documents.services import document_create, document_restate
from fundportal.domain.allocation import Basis, Purpose
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, PositionEntry
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories import DocumentRepository, PositionRepository
from imports.fund_calls import fund_call_create, fund_call_plan
from imports.services import import_apply, import_prepare
from tests.copies import strip_copies
from tests.notices import csv_bytes, notice_rows

pytestmark = pytest.mark.django_db


def copies(entries: list[PositionEntry]) -> set[tuple[str | None, str | None]]:
    return {(e.document_title, e.document_type) for e in entries}


def stored(backend, document_id: str) -> list[PositionEntry]:
    return DocumentRepository().entries_of(document_id)


def import_notice(positions: int, **extra: str) -> None:
    prepared = import_prepare(data=csv_bytes(notice_rows(positions, **extra)), filename="notice.csv")
    assert prepared.ok, prepared.validation.errors if prepared.validation else prepared.file_error
    import_apply(prepared=prepared, user="importer", workers=1)


def test_an_entry_recorded_in_a_created_document_copies_its_title_and_type(backend):
    document = Document(
        document_id="DOC_T",
        title="Q1 2026 quarterly report",
        fund_id="FUND_T",
        as_of_date=date(2026, 3, 31),
        document_type="quarterly_report",
    )
    document_create(document=document, user="editor")
    entry_record(entry=CapitalCall("DOC_T", "POS_T", "FUND_T", "INV_T", Decimal("100.00"), "Pending"), user="editor")
    (entry,) = stored(backend, "DOC_T")
    assert (entry.document_title, entry.document_type) == ("Q1 2026 quarterly report", "quarterly_report")
    (on_index,) = PositionRepository().entries("POS_T")  # projected onto the position index
    assert (on_index.document_title, on_index.document_type) == ("Q1 2026 quarterly report", "quarterly_report")


def test_imported_entries_copy_their_documents_title_and_type(backend):
    import_notice(2, document_type="capital_call_notice")
    entries = stored(backend, "NOTICE_1")
    assert len(entries) == 6
    assert copies(entries) == {("Q1 2026 capital call", "capital_call_notice")}


def test_a_fund_calls_entries_copy_the_notices_title_and_type(sample):
    planned = fund_call_plan(
        fund_id="FUND_A",
        on=date(2026, 3, 31),
        total=Decimal("1000.00"),
        purpose=Purpose.INVESTMENT,
        basis=Basis.COMMITMENT,
        token="token-copies",
    )
    result = fund_call_create(plan=planned, user="editor")
    document = DocumentRepository().get(result.document_id)
    entries = stored(sample, result.document_id)
    assert len(entries) == 2
    assert copies(entries) == {(document.title, "capital_call_notice")} and document.title


def test_a_restated_title_is_copied_onto_every_entry_in_parts_of_100_with_revisions_kept(backend):
    import_notice(40)  # 120 entries: the restatement's transaction takes what fits, one more the rest
    before = {(e.kind, e.position_id): e.revision for e in stored(backend, "NOTICE_1")}
    document_restate(
        document_id="NOTICE_1",
        expected_revision=1,
        changes={"title": "Q1 2026 capital call (restated)", "document_type": "capital_call_notice"},
        user="editor",
    )
    entries = stored(backend, "NOTICE_1")
    assert len(entries) == 120
    assert copies(entries) == {("Q1 2026 capital call (restated)", "capital_call_notice")}
    assert {(e.kind, e.position_id): e.revision for e in entries} == before  # a form open on one still saves


def test_a_restatement_keeping_title_and_type_reads_and_writes_no_entry(backend):
    import_notice(1)
    strip_copies(backend.table, "NOTICE_1")  # would be refreshed if the restatement touched them
    document_restate(document_id="NOTICE_1", expected_revision=1, changes={"status": "Final"}, user="editor")
    assert copies(stored(backend, "NOTICE_1")) == {(None, None)}


def test_an_entry_changed_after_a_retitle_takes_the_new_title(backend):
    import_notice(1)
    document_restate(document_id="NOTICE_1", expected_revision=1, changes={"title": "Renamed"}, user="editor")
    (call,) = [e for e in stored(backend, "NOTICE_1") if isinstance(e, CapitalCall)]
    changed = entry_change(entry=CapitalCall(**_ids(call), amount=Decimal("5.00"), status="Pending"), user="editor")
    assert changed.document_title == "Renamed"
    (again,) = [e for e in stored(backend, "NOTICE_1") if isinstance(e, CapitalCall)]
    assert (again.amount, again.document_title) == (Decimal("5.00"), "Renamed")


def _ids(entry: PositionEntry) -> dict[str, str]:
    return {
        "document_id": entry.document_id,
        "position_id": entry.position_id,
        "fund_id": entry.fund_id,
        "investor_id": entry.investor_id,
    }


def _backfill() -> str:
    out = io.StringIO()
    call_command("backfill_indexes", segments=2, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_backfill_fills_the_copies_of_entries_written_before_them_once(sample):
    assert strip_copies(sample.table, "DOC001") == 6
    assert copies(stored(sample, "DOC001")) == {(None, None)}
    items_before = {(i["PK"], i["SK"]): i for i in map(to_item, stored(sample, "DOC002"))}

    first = _backfill()
    assert "entries given their document's title and type 6." in first
    assert copies(stored(sample, "DOC001")) == {("Q3 2025 capital account statement", "capital_account_statement")}
    assert {(i["PK"], i["SK"]): i for i in map(to_item, stored(sample, "DOC002"))} == items_before  # left alone

    second = _backfill()
    assert "entries given their document's title and type 0." in second
    on_index = PositionRepository().entries("POSITION_1")
    assert {e.document_id: e.document_type for e in on_index} == {
        "DOC001": "capital_account_statement",
        "DOC002": "capital_call_notice",
    }


def test_an_entry_write_that_read_the_document_before_a_retitle_runs_again_with_the_new_title(backend, monkeypatch):
    import_notice(1)
    read_before = DocumentRepository().get("NOTICE_1")
    document_restate(document_id="NOTICE_1", expected_revision=1, changes={"title": "Renamed"}, user="editor")
    original = DocumentRepository.load_for_entry_with_register
    reads: list[str] = []

    def stale_first(self, *args):
        document, loaded, register = original(self, *args)
        reads.append(document.title)
        return (read_before if len(reads) == 1 else document), loaded, register

    monkeypatch.setattr(DocumentRepository, "load_for_entry_with_register", stale_first)
    (call,) = [e for e in stored(backend, "NOTICE_1") if isinstance(e, CapitalCall)]
    changed = entry_change(entry=CapitalCall(**_ids(call), amount=Decimal("7.00"), status="Pending"), user="editor")
    assert len(reads) == 2  # refused on the title it copied, then run again on the document as it is
    assert changed.document_title == "Renamed"
    (again,) = [e for e in stored(backend, "NOTICE_1") if isinstance(e, CapitalCall)]
    assert (again.amount, again.document_title) == (Decimal("7.00"), "Renamed")
