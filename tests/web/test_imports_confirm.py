"""Confirming an import on the web when it cannot simply succeed: the loser of two confirms of one
file is told who imported it (never "N written"), and a job the table stops half-way says how
to finish it (run it again) or clear it. The confirm answers with the job's progress page (jobs
run at once in tests: the immediate backend)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fundportal.store.errors import RequestRejected
from fundportal.store.repositories.imports import ImportRepository
from imports import writing
from imports.services import import_apply, import_prepare
from tests.conftest import signed_in_editor
from tests.notices import csv_bytes, notice_rows

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uploads")]


@pytest.fixture
def editor_client(django_user_model) -> Client:
    return signed_in_editor(django_user_model, "importer")


def test_the_loser_of_two_confirms_of_one_file_is_told_who_imported_it(backend, editor_client, uploads, monkeypatch):
    data = csv_bytes(notice_rows(2))
    assert editor_client.post("/documents/import/", {"file": SimpleUploadedFile("n.csv", data)}).status_code == 200
    (stored,) = uploads.iterdir()
    real = writing.put_registers
    raced: list[int] = []

    def alice_confirms_first(uow, run, writes):
        if not raced:  # while this confirm writes, alice's confirm of the same file finishes
            raced.append(1)
            import_apply(prepared=import_prepare(data=data, filename="n.csv"), user="alice")
        real(uow, run, writes)

    monkeypatch.setattr(writing, "put_registers", alice_confirms_first)
    done = editor_client.post("/documents/import/confirm/", {"checksum": stored.stem, "filename": "n.csv"}, follow=True)
    html = done.content.decode()
    assert raced == [1] and done.redirect_chain[-1][0].startswith("/documents/import/jobs/")
    assert "already imported by alice" in html and "rows from" not in html
    assert 'href="/documents/NOTICE_1/"' in html
    assert not stored.exists()


def test_a_confirm_the_table_stops_half_way_says_how_to_finish_and_keeps_the_upload(
    backend, editor_client, uploads, monkeypatch
):
    data = csv_bytes(notice_rows(2))
    editor_client.post("/documents/import/", {"file": SimpleUploadedFile("n.csv", data)})
    (stored,) = uploads.iterdir()

    def refused(*args, **kwargs):
        raise RequestRejected("ValidationException", "Provided list of item keys contains duplicates")

    monkeypatch.setattr(ImportRepository, "put_entries", refused)
    response = editor_client.post("/documents/import/confirm/", {"checksum": stored.stem, "filename": "n.csv"})
    job_page = response.url
    html = editor_client.get(job_page).content.decode()
    assert "stopped before it finished" in html and 'data-state="failed"' in html
    assert f"--abandon {stored.stem[:16]}" in html and f'action="{job_page}"' in html
    assert stored.exists()  # running it again finishes it
    monkeypatch.undo()
    done = editor_client.post(job_page, follow=True)
    html = done.content.decode()
    assert done.redirect_chain[-1][0] == job_page and 'data-state="done"' in html
    assert 'href="/documents/NOTICE_1/"' in html and "Imported 6 rows" in html
