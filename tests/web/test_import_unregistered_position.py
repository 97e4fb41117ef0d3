"""The import preview refuses a row whose position its fund does not hold (the typo POSITON_1
into FUND_A), naming the close registered id, and nothing is written; a row that says
new_position = yes opens one."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from fundportal.store.instrumentation import collect
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.schema import FUND_INDEX
from imports.services import import_prepare
from tests.notices import csv_bytes, row

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uploads")]


def _sample_fund_row(**values: str) -> dict[str, str]:
    base = {"document_id": "CALL_TYPO", "fund_id": "FUND_A", "investor_id": "INVESTOR_1", "new_position": ""}
    return row(**{**base, "amount": "10,000.00", **values})


def test_the_typo_position_is_refused_in_the_preview_naming_position_1_and_nothing_is_written(
    sample, editor_client, uploads
):
    data = csv_bytes([_sample_fund_row(position_id="POSITON_1")])
    response = editor_client.post("/documents/import/", {"file": SimpleUploadedFile("typo.csv", data)})
    html = response.content.decode()
    assert response.status_code == 400
    assert "POSITON_1 is not a position of FUND_A. Did you mean POSITION_1?" in html
    assert 'name="checksum"' not in html  # no confirm button
    # Confirming anyway (a hand-made POST) validates again and writes nothing.
    checksum = hashlib.sha256(data).hexdigest()
    editor_client.post("/documents/import/confirm/", {"checksum": checksum, "filename": "typo.csv"}, follow=True)
    assert RegisterRepository().get("POSITON_1", consistent=True) is None
    assert editor_client.get("/documents/CALL_TYPO/").status_code == 404


def test_a_row_that_opens_a_new_position_passes_the_preview(sample, editor_client):
    data = csv_bytes([_sample_fund_row(position_id="POSITION_9", investor_id="INVESTOR_9", new_position="yes")])
    response = editor_client.post("/documents/import/", {"file": SimpleUploadedFile("new.csv", data)})
    html = response.content.decode()
    assert response.status_code == 200 and "is not a position of" not in html
    assert 'name="checksum"' in html


def test_import_notice_refuses_the_typo_naming_the_row_and_writes_nothing(sample, tmp_path):
    notice = tmp_path / "typo.csv"
    notice.write_bytes(csv_bytes([_sample_fund_row(position_id="POSITON_1")]))
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 bad row"):
        call_command("import_notice", str(notice), stdout=io.StringIO(), stderr=err)
    assert "row 2, position_id: POSITON_1 is not a position of FUND_A. Did you mean POSITION_1?" in err.getvalue()
    assert RegisterRepository().get("POSITON_1", consistent=True) is None


def _index_reads(rows: list[dict[str, str]]) -> list[str]:
    """The requests on the fund's slim register copies and any Scan made while previewing `rows`."""
    with collect() as collector:
        import_prepare(data=csv_bytes(rows), filename="n.csv")
    return [r.operation for r in collector.records if r.index == FUND_INDEX or r.operation == "Scan"]


def test_the_funds_positions_are_read_with_one_query_per_fund_and_only_when_needed(sample):
    known = _sample_fund_row(position_id="POSITION_1")
    assert _index_reads([known]) == []  # every position registered: nothing more is read
    opened = _sample_fund_row(position_id="POSITION_9", investor_id="INVESTOR_9", new_position="yes")
    assert _index_reads([known, opened]) == []
    typos = [
        _sample_fund_row(position_id="POSITON_1"),
        _sample_fund_row(position_id="POSITON_2", investor_id="INVESTOR_2", kind="nav"),
        _sample_fund_row(document_id="CALL_B", fund_id="FUND_B", position_id="POS_B", investor_id="INVESTOR_B"),
    ]
    assert _index_reads(typos) == ["Query", "Query"]  # FUND_A and FUND_B, once each
