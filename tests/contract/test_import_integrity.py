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
