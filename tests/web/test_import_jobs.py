"""A web import is a background job: the confirm answers with the job's progress page (rows
written, rate, time left, errors; it refreshes itself until the job is finished, and its JSON
twin), the job validates the upload again and writes it paced and outside the page's budget, and
a job whose worker was killed midway is run again to the same final state. The tests' task
backend is the immediate one: a job has run when the confirm answers."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from documents import selectors, services
from fundportal.domain.model import Document
from fundportal.domain.summary import totals_as_of
from fundportal.ops.register_repair import verify_positions
from fundportal.store import budget
from fundportal.store.client import retry_mode
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.summaries import SummaryRepository
from imports import jobs, writing
from imports.models import ImportJob
from imports.services import checksum_of
from tests.conftest import signed_in_editor
from tests.notices import csv_bytes, notice_rows

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uploads")]

POSITIONS = 80  # two groups of registers (a transaction of new ones holds up to PER_GROUP here)
PER_GROUP = 49


class Killed(BaseException):
    """The worker process dies (SIGKILL, a redeploy): nothing of the job's own code runs after."""


@pytest.fixture
def editor(django_user_model) -> Client:
    return signed_in_editor(django_user_model, "importer")


def _confirm(client: Client, data: bytes, filename: str = "n.csv"):
    preview = client.post("/documents/import/", {"file": SimpleUploadedFile(filename, data)})
    assert preview.status_code == 200, preview.content.decode()[-2000:]
    form = {"checksum": checksum_of(data), "filename": filename}
    return client.post("/documents/import/confirm/", form)


def test_a_running_job_shows_rows_rate_and_time_left_and_refreshes_itself(backend, editor):
    started = timezone.now() - timedelta(seconds=10)
    job = ImportJob.objects.create(
        checksum="a" * 64,
        filename="big.csv",
        user="importer",
        state=ImportJob.State.RUNNING,
        rows_total=3000,
        rows_written=1000,
        started_at=started,
        heard_at=timezone.now(),
    )
    page = editor.get(f"/documents/import/jobs/{job.pk}/")
    html = page.content.decode()
    assert page.status_code == 200 and 'http-equiv="refresh"' in html
    assert "1000 of 3000 (33 %)" in html and "rows/s" in html and "about " in html
    status = json.loads(editor.get(f"/documents/import/jobs/{job.pk}/status.json").content)
    assert status["state"] == "running" and status["percent"] == 33
    assert 50 <= status["rows_per_second"] <= 100  # 1,000 rows in 10 s (and the time the test took)
    assert abs(status["eta_seconds"] - 2000 / status["rows_per_second"]) <= 1  # 2,000 rows left at that rate


def test_another_users_job_is_not_found(backend, editor, django_user_model):
    job = ImportJob.objects.create(checksum="b" * 64, filename="n.csv", user="someone-else")
    assert editor.get(f"/documents/import/jobs/{job.pk}/").status_code == 404
    assert editor.get(f"/documents/import/jobs/{job.pk}/status.json").status_code == 404
    assert editor.post(f"/documents/import/jobs/{job.pk}/").status_code == 404


def test_the_confirm_answers_with_the_finished_job_and_the_document_is_written(backend, editor, uploads):
    confirmed = _confirm(editor, csv_bytes(notice_rows(3)))
    assert confirmed.status_code == 302 and confirmed.url.startswith("/documents/import/jobs/")
    job = ImportJob.objects.get()
    assert (job.state, job.rows_written, job.rows_total, job.documents) == ("done", 9, 9, ["NOTICE_1"])
    assert job.attempts == 1 and not list(uploads.iterdir())
    html = editor.get(confirmed.url).content.decode()
    assert 'http-equiv="refresh"' not in html and "9 of 9 (100 %)" in html
    (totals,) = selectors.document_overview(document_id="NOTICE_1").totals
    assert str(totals.called.amount) == "3750003.00"


def test_confirming_a_file_whose_job_is_under_way_shows_that_job(backend, editor, uploads):
    data = csv_bytes(notice_rows(1))
    checksum = _confirm_preview_only(editor, data)
    under_way = ImportJob.objects.create(checksum=checksum, filename="n.csv", user="importer", state="running")
    again = editor.post("/documents/import/confirm/", {"checksum": checksum, "filename": "n.csv"})
    assert again.url == f"/documents/import/jobs/{under_way.pk}/" and ImportJob.objects.count() == 1


def test_another_users_confirm_of_the_same_file_gets_a_job_of_its_own(backend, editor, django_user_model):
    data = csv_bytes(notice_rows(1))
    checksum = _confirm_preview_only(editor, data)
    ImportJob.objects.create(checksum=checksum, filename="n.csv", user="importer", state="running")
    other = signed_in_editor(django_user_model, "second-importer")
    confirmed = other.post("/documents/import/confirm/", {"checksum": checksum, "filename": "n.csv"})
    mine = ImportJob.objects.get(user="second-importer")
    assert confirmed.url == f"/documents/import/jobs/{mine.pk}/" and other.get(confirmed.url).status_code == 200


def _confirm_preview_only(client: Client, data: bytes) -> str:
    preview = client.post("/documents/import/", {"file": SimpleUploadedFile("n.csv", data)})
    assert preview.status_code == 200
    return checksum_of(data)


def test_the_job_validates_again_and_refuses_a_file_the_table_moved_under(backend, editor, uploads):
    checksum = _confirm_preview_only(editor, csv_bytes(notice_rows(2)))
    # Between the preview and the job, someone creates NOTICE_1 in another fund.
    services.document_create(
        document=Document(document_id="NOTICE_1", fund_id="FUND_X", as_of_date=date(2026, 3, 31)), user="other"
    )
    confirmed = editor.post("/documents/import/confirm/", {"checksum": checksum, "filename": "n.csv"})
    job = ImportJob.objects.get()
    assert job.state == "refused" and job.rows_written == 0
    assert any("fund_id" in error for error in job.errors)
    html = editor.get(confirmed.url).content.decode()
    assert "nothing was written" in html and 'data-testid="import-job-errors"' in html
    assert 'http-equiv="refresh"' not in html
    assert RegisterRepository().get("NP_000") is None and RegisterRepository().get("NP_001") is None


def test_the_job_writes_paced_and_outside_the_pages_budget(backend, editor, monkeypatch):
    seen: list[tuple[str, float | None]] = []
    real = jobs.import_apply

    def observed(**kwargs):
        seen.append((retry_mode(), budget.remaining()))
        return real(**kwargs)

    monkeypatch.setattr(jobs, "import_apply", observed)
    _confirm(editor, csv_bytes(notice_rows(1)))
    assert seen == [("adaptive", None)]  # botocore's adaptive retry mode; no 25 s page budget
    assert retry_mode() == "standard"  # pages keep the standard mode


def test_a_job_killed_midway_is_run_again_to_the_same_final_state(backend, editor, uploads, monkeypatch):
    real = writing.put_registers
    calls: list[int] = []

    def killed_after_the_first_group(uow, run, writes):
        calls.append(1)
        if len(calls) == 2:  # the first group's registers are in; the worker dies
            raise Killed
        real(uow, run, writes)

    data = csv_bytes(notice_rows(POSITIONS))
    checksum = _confirm_preview_only(editor, data)
    monkeypatch.setattr(writing, "put_registers", killed_after_the_first_group)
    monkeypatch.setattr(writing, "POSITIONS_PER_TRANSACTION", PER_GROUP)
    job = ImportJob.objects.create(checksum=checksum, filename="n.csv", user="importer")
    with pytest.raises(Killed):
        jobs.run_import_job.call(str(job.pk))
    monkeypatch.undo()
    job.refresh_from_db()
    assert job.state == "running" and job.rows_written > 0  # as the dead worker left it
    assert not job.stale()
    page = editor.get(f"/documents/import/jobs/{job.pk}/").content.decode()
    assert "Run the import again" not in page  # it may still be running: not offered yet

    ImportJob.objects.filter(pk=job.pk).update(heard_at=timezone.now() - timedelta(hours=1))
    page = editor.get(f"/documents/import/jobs/{job.pk}/").content.decode()
    assert "Its worker stopped answering" in page and "Run the import again" in page
    done = editor.post(f"/documents/import/jobs/{job.pk}/", follow=True)
    assert 'data-state="done"' in done.content.decode()
    job.refresh_from_db()
    assert job.attempts == 2 and job.documents == ["NOTICE_1"]
    assert job.already > 0  # the entries the first run wrote were skipped, not written twice
    # The same final state as an uninterrupted import: every register counts the file once.
    assert verify_positions().differences == []
    registers = [RegisterRepository().get(f"NP_{n:03d}") for n in range(POSITIONS)]
    assert {r.revision for r in registers if r} == {1} and all(registers)
    (totals,) = selectors.document_overview(document_id="NOTICE_1").totals
    assert totals.called.amount == sum(1_250_000 + n for n in range(POSITIONS))
    # The fund's summary counts every position once (the file awaits approval: counted apart).
    (fund,) = totals_as_of(SummaryRepository().fund("FUND_N"), date.today())
    assert fund.positions == POSITIONS and fund.awaiting_called.amount == totals.called.amount
    assert not list(uploads.iterdir())


def test_a_stopped_job_is_offered_again_and_a_finished_one_is_not_run_twice(backend, editor, uploads):
    confirmed = _confirm(editor, csv_bytes(notice_rows(1)))
    job = ImportJob.objects.get()
    assert job.state == "done"
    editor.post(confirmed.url)  # finished: nothing to run again
    jobs.run_import_job.call(str(job.pk))  # a second delivery of the same task
    job.refresh_from_db()
    assert job.attempts == 1 and job.state == "done"


def test_only_a_writing_job_not_heard_from_is_offered_again():
    long_ago = timezone.now() - timedelta(hours=1)
    waiting = ImportJob(checksum="c" * 64, filename="n.csv", user="importer", heard_at=long_ago)
    writing_job = ImportJob(checksum="c" * 64, filename="n.csv", user="importer", state="running", heard_at=long_ago)
    recent = ImportJob(checksum="c" * 64, filename="n.csv", user="importer", state="running")
    assert not waiting.stale()  # queued: waits for a free worker, running it again would not help
    assert writing_job.stale() and not recent.stale()
