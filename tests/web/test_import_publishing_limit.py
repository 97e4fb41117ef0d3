"""A file whose publishing transaction would exceed DynamoDB's 100 items is refused in the
preview, with the reason, before anything is written (publishing it could never succeed, and every
re-run would stop at the same place); a file that fits is accepted."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fundportal.store.repositories.imports import MAX_TRANSACTION_ITEMS, ImportRepository
from imports.services import checksum_of, import_prepare, publishing_items
from tests.conftest import signed_in_editor
from tests.notices import csv_bytes, row, upload_storage_in

pytestmark = pytest.mark.django_db


def monthly_documents(count: int) -> list[dict[str, str]]:
    """One new document a month for `count` months, one entry each."""
    rows = []
    for n in range(count):
        year, month = 2024 + n // 12, n % 12 + 1
        rows.append(
            row(
                document_id=f"MONTHLY_{n:02d}",
                title=f"Call {year}-{month:02d}",
                as_of_date=f"{year}-{month:02d}-28",
                position_id="NP_000",
                investor_id="NI_000",
            )
        )
    return rows


def test_twenty_five_new_documents_in_twenty_five_months_are_refused_in_the_preview(
    backend, django_user_model, settings, tmp_path
):
    settings.STORAGES = {**settings.STORAGES, "imports": upload_storage_in(tmp_path / "imports")}
    data = csv_bytes(monthly_documents(25))
    editor = signed_in_editor(django_user_model, "importer")
    preview = editor.post("/documents/import/", {"file": SimpleUploadedFile("months.csv", data)})
    html = preview.content.decode()
    assert preview.status_code == 400
    assert f"a transaction holds {MAX_TRANSACTION_ITEMS}" in html and "publishing needs 10" in html
    assert "/documents/import/confirm/" not in html  # nothing to confirm
    assert not (tmp_path / "imports").exists() or not list((tmp_path / "imports").iterdir())
    # Nothing was written: no run record, no document.
    repository = ImportRepository()
    assert repository.record(checksum_of(data)) is None
    assert repository.documents(["MONTHLY_00", "MONTHLY_24"]) == {}


def test_publishing_items_grow_with_the_new_documents_and_a_file_that_fits_is_accepted(backend):
    fits = import_prepare(data=csv_bytes(monthly_documents(20)), filename="months.csv")
    too_many = import_prepare(data=csv_bytes(monthly_documents(25)), filename="months.csv")
    assert fits.ok and publishing_items(fits, ImportRepository()) <= MAX_TRANSACTION_ITEMS
    assert not too_many.ok
    (error,) = too_many.validation.errors
    assert error.row == 0 and "25 documents, 25 of them new" in error.reason
