"""Imports that cannot corrupt figures: one investor with several new positions, an abandoned
import's entries never counted nor adopted, two confirms of the same file at once, and ids that
differ only by case from what the table holds."""

from __future__ import annotations

import pytest

from documents import selectors
from fundportal.ops.register_repair import verify_positions
from fundportal.store.repositories.register import RegisterRepository
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
