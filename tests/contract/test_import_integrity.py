"""Imports that cannot corrupt figures: one investor with several new positions, an abandoned
import's entries never counted nor adopted, two confirms of the same file at once, and ids that
differ only by case from what the table holds."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.core.management import CommandError, call_command

from documents import selectors
from documents.services import document_create
from fundportal.domain.errors import ImportUnfinished
from fundportal.domain.model import Document
from fundportal.messages import describe
from fundportal.ops.register_repair import verify_positions
from fundportal.store.errors import RequestRejected
from fundportal.store.repositories import PositionRepository
from fundportal.store.repositories.imports import ImportRepository
from fundportal.store.repositories.register import RegisterRepository
from imports import writing
from imports.services import import_apply, import_prepare
from tests.notices import csv_bytes, row

pytestmark = pytest.mark.django_db


def _one_investor_rows(positions: int) -> list[dict[str, str]]:
    """A new investor holding `positions` new positions of one new document."""
    return [
        row(position_id=f"NP_{n:03d}", investor_id="NI_SHARED", amount=f"{1_000 + n:,}.00") for n in range(positions)
    ]


def test_one_new_investor_with_many_new_positions_imports(backend):
    data = csv_bytes(_one_investor_rows(40))
    prepared = import_prepare(data=data, filename="shared.csv")
    assert prepared.ok
    result = import_apply(prepared=prepared, user="importer", workers=backend.workers(4))
    assert (result.written, result.documents) == (40, ["NOTICE_1"])
    page = selectors.document_overview(document_id="NOTICE_1")
    assert len(page.rows) == 40
    assert RegisterRepository().get("NP_039").investor_id == "NI_SHARED"
    assert verify_positions().differences == []


@pytest.mark.parametrize(
    ("change", "column", "meant"),
    [
        ({"position_id": "np_000"}, "position_id", "NP_000"),
        ({"investor_id": "ni_000"}, "investor_id", "NI_000"),
        ({"fund_id": "Fund_N"}, "fund_id", "FUND_N"),
        ({"document_id": "notice_1"}, "document_id", "NOTICE_1"),
    ],
)
def test_an_id_differing_only_by_case_from_the_table_is_refused_with_did_you_mean(backend, change, column, meant):
    import_apply(prepared=import_prepare(data=csv_bytes([row()]), filename="first.csv"), user="importer")
    others = {"document_id": "NOTICE_2", "position_id": "NP_001", "investor_id": "NI_001"}
    others = {k: v for k, v in others.items() if k not in change}
    prepared = import_prepare(data=csv_bytes([row(**others, **change)]), filename="second.csv")
    assert not prepared.ok
    reasons = [e.reason for e in prepared.validation.errors if e.column == column]
    assert reasons and f"did you mean {meant}?" in reasons[0]


def test_two_spellings_of_one_new_id_in_a_file_are_refused(backend):
    rows = [row(position_id="NP_000"), row(position_id="np_000", kind="distribution")]
    prepared = import_prepare(data=csv_bytes(rows), filename="both.csv")
    (error,) = prepared.validation.errors
    assert (error.row, error.column) == (3, "position_id") and "did you mean NP_000?" in error.reason


def test_an_id_spelled_as_the_table_holds_it_is_taken(backend):
    import_apply(prepared=import_prepare(data=csv_bytes([row()]), filename="first.csv"), user="importer")
    again = [row(document_id="NOTICE_2", kind="distribution")]  # NP_000, NI_000, FUND_N as stored
    assert import_prepare(data=csv_bytes(again), filename="second.csv").ok


def _stuck_import(monkeypatch, rows: list[dict[str, str]]) -> str:
    """An import whose process died after its entries, before its registers: its marker."""

    def crash(*args):
        raise ConnectionError("the import's process died before its registers")

    prepared = import_prepare(data=csv_bytes(rows), filename="stuck.csv")
    monkeypatch.setattr(writing, "put_registers", crash)
    with pytest.raises(ConnectionError):
        import_apply(prepared=prepared, user="importer", workers=1)
    monkeypatch.undo()
    return prepared.checksum[:16]


def test_another_file_naming_an_unfinished_imports_new_document_is_refused(backend, monkeypatch):
    _stuck_import(monkeypatch, [row(fund_id="FUND_O")])
    other = import_prepare(data=csv_bytes([row(position_id="NP_100", investor_id="NI_100")]), filename="o.csv")
    (error,) = other.validation.errors
    assert error.column == "document_id" and "NOTICE_1 already holds 1 position entries" in error.reason


def test_an_abandoned_import_is_cleared_by_the_repair_audited_and_its_id_freed(backend, monkeypatch):
    marker = _stuck_import(monkeypatch, _one_investor_rows(3))
    waiting = verify_positions()
    assert {d.problem for d in waiting.differences} == {
        f"import {marker} is unfinished: run the same file again, or clear it with "
        f"verify_positions --repair --abandon {marker}"
    }
    assert verify_positions(repair=True).cleared == 0  # never cleared unless named: it may still run
    report = verify_positions(repair=True, abandon=[marker])
    assert report.cleared == 3 and report.stranded[0].reason == f"import {marker} was abandoned"
    assert verify_positions().differences == []
    assert PositionRepository().page("NP_000").entries == []  # no entry left for a page to count
    (audit,) = backend.repository.audit_trail("NOTICE_1")
    assert (audit.action, audit.target, audit.changes["entries"]) == ("clear", f"Import {marker}", [3, 0])
    created = document_create(document=Document("NOTICE_1", fund_id="FUND_Q", as_of_date=date(2026, 3, 31)), user="u")
    assert created.revision == 1 and selectors.document_overview(document_id="NOTICE_1").rows == []


def test_verify_positions_abandon_takes_a_marker_and_needs_repair(backend):
    with pytest.raises(CommandError, match="16-hex-digit marker"):
        call_command("verify_positions", "--repair", "--abandon", "NOTICE_1", stdout=io.StringIO())
    with pytest.raises(CommandError, match="use it with --repair"):
        call_command("verify_positions", "--abandon", "0123456789abcdef", stdout=io.StringIO())


def test_an_import_the_table_stops_half_way_says_how_to_finish_or_clear_it(backend, monkeypatch):
    data = csv_bytes(_one_investor_rows(3))
    prepared = import_prepare(data=data, filename="half.csv")
    real = ImportRepository.put_entries

    def refused_after_the_first(self, entries, token, extra=(), workers=1, progress=None):
        real(self, list(entries)[:1], token)
        raise RequestRejected("ValidationException", "Provided list of item keys contains duplicates")

    monkeypatch.setattr(ImportRepository, "put_entries", refused_after_the_first)
    with pytest.raises(ImportUnfinished) as stopped:
        import_apply(prepared=prepared, user="importer", workers=1)
    marker = prepared.checksum[:16]
    message = describe(stopped.value)
    assert stopped.value.marker == marker and "Confirm the same file again to finish it" in message
    assert f"verify_positions --repair --abandon {marker}" in message
    monkeypatch.undo()
    result = import_apply(prepared=import_prepare(data=data, filename="half.csv"), user="importer", workers=1)
    assert (result.written, result.already) == (2, 1) and verify_positions().differences == []
