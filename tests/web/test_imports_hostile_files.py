"""Files built to break an import, on the web preview and through `import_notice`: huge number
cells are refused with a reason (never a 500 nor a traceback) and nothing is written."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from documents import selectors
from fundportal.domain.errors import NotFound
from imports.reader import COLUMNS
from tests.conftest import signed_in_editor

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uploads")]

HUGE = [1e25, 1e26, 1e300]


@pytest.fixture
def editor_client(django_user_model) -> Client:
    return signed_in_editor(django_user_model, "importer")


def _xlsx(amount: float) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(COLUMNS))
    header = ["NOTICE_1", "Q1 call", "FUND_N", "2026-03-31", "USD", "NP_000", "NI_000", "capital_call"]
    sheet.append([*header, amount, "Pending"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.mark.parametrize("amount", HUGE, ids=str)
def test_the_preview_refuses_a_huge_number_cell_with_a_reason(backend, editor_client, amount):
    upload = SimpleUploadedFile("huge.xlsx", _xlsx(amount))
    response = editor_client.post("/documents/import/", {"file": upload})
    assert response.status_code == 400
    html = response.content.decode()
    assert "type the amount as text" in html and "/documents/import/confirm/" not in html
    with pytest.raises(NotFound):
        selectors.document_overview(document_id="NOTICE_1")


@pytest.mark.parametrize("amount", HUGE, ids=str)
def test_import_notice_refuses_a_huge_number_cell_in_one_line(backend, tmp_path, amount):
    path = tmp_path / "huge.xlsx"
    path.write_bytes(_xlsx(amount))
    errors = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("import_notice", str(path), stdout=io.StringIO(), stderr=errors)
    assert "1 bad row(s) of 1; nothing was written" in str(refused.value)
    assert "row 2, amount:" in errors.getvalue() and "type the amount as text" in errors.getvalue()
