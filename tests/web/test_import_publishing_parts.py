"""A file whose publishing needs more than DynamoDB's 100 actions in a transaction is accepted by
the preview and published in parts of at most 100 actions, each part's documents whole; a run
killed between two parts (a worker that dies) is run again to the same final state, and a file
that fits publishes in one transaction as before."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from documents import selectors
from fundportal.domain.kinds import import_marker
from fundportal.ops.register_repair import verify_positions
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories.documents import DocumentRepository
from fundportal.store.repositories.imports import MAX_TRANSACTION_ITEMS, ImportRepository
from fundportal.store.repositories.register import RegisterRepository
from imports import jobs, publishing
from imports.models import ImportJob
from imports.services import checksum_of, import_apply, import_prepare
from tests.conftest import signed_in_editor
from tests.notices import csv_bytes, row

pytestmark = pytest.mark.django_db

MONTHS = 25  # 25 new documents in 25 months: 103 actions in one transaction


class Killed(BaseException):
    """The worker process dies between two publishing parts: nothing of its code runs after."""


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
                amount=f"{1_000 + n:,}.00",
            )
        )
    return rows


@pytest.fixture
def transactions(monkeypatch) -> list[int]:
    """The number of actions of every TransactWriteItems sent."""
    sizes: list[int] = []
    real = TableGateway.transact

    def counted(self, actions, token):
        sizes.append(len(actions))
        return real(self, actions, token)

    monkeypatch.setattr(TableGateway, "transact", counted)
    return sizes


def _documents() -> list[str]:
    return [f"MONTHLY_{n:02d}" for n in range(MONTHS)]


def assert_published_once(data: bytes) -> None:
    """Every document of the file is published with one import audit item, the import record is
    written, and the position's register counts each entry once."""
    repository = ImportRepository()
    assert sorted(repository.documents(_documents())) == _documents()
    for document_id in _documents():
        trail = DocumentRepository().audit_trail(document_id)
        assert [a.action for a in trail] == ["import"]
    record = repository.record(checksum_of(data))
    assert record is not None and record["documents"] == _documents()
    assert verify_positions().differences == []
    register = RegisterRepository().get("NP_000")
    assert register is not None and register.revision == 1
    (totals,) = selectors.document_overview(document_id="MONTHLY_24").totals
    assert str(totals.called.amount) == "1024.00"


def test_twenty_five_new_documents_in_twenty_five_months_are_accepted_in_the_preview(
    backend, django_user_model, uploads
):
    data = csv_bytes(monthly_documents(MONTHS))
    editor = signed_in_editor(django_user_model, "importer")
    preview = editor.post("/documents/import/", {"file": SimpleUploadedFile("months.csv", data)})
    html = preview.content.decode()
    assert preview.status_code == 200
    assert "/documents/import/confirm/" in html
    assert ImportRepository().record(checksum_of(data)) is None  # the preview writes nothing


def test_a_file_too_large_for_one_publishing_transaction_is_published_in_parts(backend, transactions):
    data = csv_bytes(monthly_documents(MONTHS))
    prepared = import_prepare(data=data, filename="months.csv")
    assert prepared.ok
    result = import_apply(prepared=prepared, user="importer")
    assert result.documents == _documents()
    assert max(transactions) <= MAX_TRANSACTION_ITEMS
    # Two parts (each with its documents, their audit items, the run check and the part's item),
    # then the closing transaction: the import record and the run marked published.
    assert transactions[-1] == 2
    assert ImportRepository().published_parts(import_marker(checksum_of(data)), 3) == {0, 1}
    assert_published_once(data)


def test_a_file_that_fits_publishes_in_one_transaction_without_part_items(backend, transactions):
    data = csv_bytes(monthly_documents(20))
    prepared = import_prepare(data=data, filename="months.csv")
    import_apply(prepared=prepared, user="importer")
    publishing_size = transactions[-1]
    assert publishing_size <= MAX_TRANSACTION_ITEMS
    # 20 documents, each with its item, month listing and search items, and an audit item; the
    # import record and the run: all in the last transaction.
    assert publishing_size > 20 * 2
    assert ImportRepository().published_parts(import_marker(checksum_of(data)), 3) == set()


def _killed_after_the_first_part(monkeypatch) -> None:
    real = publishing.Publisher._commit

    def commit(self, plans, *, closing=False, part=None):
        real(self, plans, closing=closing, part=part)
        if part == 0:
            raise Killed

    monkeypatch.setattr(publishing.Publisher, "_commit", commit)


def test_a_run_killed_between_two_publishing_parts_is_run_again_to_the_same_final_state(backend, monkeypatch):
    data = csv_bytes(monthly_documents(MONTHS))
    _killed_after_the_first_part(monkeypatch)
    with pytest.raises(Killed):
        import_apply(prepared=import_prepare(data=data, filename="months.csv"), user="importer")
    monkeypatch.undo()
    published = ImportRepository().documents(_documents())
    assert 0 < len(published) < MONTHS  # the first part's documents are visible, whole
    assert ImportRepository().record(checksum_of(data)) is None

    again = import_prepare(data=data, filename="months.csv")
    assert again.ok  # the published documents' entries are this file's own: "already in"
    result = import_apply(prepared=again, user="importer")
    assert result.documents == _documents()
    assert_published_once(data)


def test_a_part_another_run_published_meanwhile_is_skipped(backend, monkeypatch):
    data = csv_bytes(monthly_documents(MONTHS))
    _killed_after_the_first_part(monkeypatch)
    with pytest.raises(Killed):
        import_apply(prepared=import_prepare(data=data, filename="months.csv"), user="importer")
    monkeypatch.undo()
    # The re-run does not see the part the first run published (as if both ran at once).
    monkeypatch.setattr(ImportRepository, "published_parts", lambda self, marker, parts: set())
    again = import_prepare(data=data, filename="months.csv")
    monkeypatch.setattr(publishing.Publisher, "resumes", lambda self, new_ids: True)
    import_apply(prepared=again, user="importer")
    monkeypatch.undo()
    assert_published_once(data)


def test_a_job_killed_midway_through_publishing_is_run_again_to_done(backend, django_user_model, uploads, monkeypatch):
    data = csv_bytes(monthly_documents(MONTHS))
    editor = signed_in_editor(django_user_model, "importer")
    editor.post("/documents/import/", {"file": SimpleUploadedFile("months.csv", data)})
    _killed_after_the_first_part(monkeypatch)
    job = ImportJob.objects.create(checksum=checksum_of(data), filename="months.csv", user="importer")
    with pytest.raises(Killed):
        jobs.run_import_job.call(str(job.pk))
    monkeypatch.undo()
    jobs.run_again(job)
    job.refresh_from_db()
    assert job.state == "done" and job.attempts == 2
    assert job.documents == _documents()
    assert_published_once(data)
