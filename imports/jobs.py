"""A web import as a background job: the confirm enqueues `run_import_job` (django-tasks, the
database backend) and returns at once; a `db_worker` process runs it.

The job validates the stored upload again (the table and the user's coverage may have moved
since the preview), then writes it with `import_apply`, paced (botocore's `adaptive` retry mode)
and outside any page's time budget, reporting its progress to its `ImportJob` row. A job whose
worker was killed midway is run again from its page (or by confirming the file again): the
import's run record, markers and tokens make the re-run skip what landed and finish to the same
final state, nothing lost and nothing counted twice.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F
from django.utils import timezone
from django_tasks import task

from fundportal.access.scope import resolve_scope
from fundportal.domain.access import AccessScope
from fundportal.domain.errors import AlreadyImported, ImportConflict, ImportUnfinished
from fundportal.messages import describe
from fundportal.store import budget, instrumentation
from fundportal.store.client import paced

from .models import ImportJob
from .services import Prepared, import_apply, import_prepare
from .uploads import discard, read_stored, stored_name

log = logging.getLogger(__name__)
REPORT_EVERY = 0.5  # seconds between two progress writes to the job's row
MAX_ERRORS_KEPT = 200  # a refused file's first errors, as shown on its page


def enqueue(*, checksum: str, filename: str, user: str) -> ImportJob:
    """The job importing this upload: the user's own one already queued or running for the same
    file (a double click, a second confirm) or a new one, enqueued. Another user's confirm of the
    same file gets a job of its own: it ends "already imported by ..." (or lands it first)."""
    active = ImportJob.objects.filter(
        checksum=checksum, user=user, state__in=[ImportJob.State.QUEUED, ImportJob.State.RUNNING]
    )
    for job in active:
        if not job.stale():
            return job
    job = ImportJob.objects.create(checksum=checksum, filename=filename, user=user)
    run_import_job.enqueue(str(job.pk))
    return ImportJob.objects.get(pk=job.pk)  # the immediate backend has run it already


def run_again(job: ImportJob) -> None:
    """Enqueue a job whose worker went away (or that stopped) once more."""
    ImportJob.objects.filter(pk=job.pk).update(state=ImportJob.State.QUEUED, message="", heard_at=timezone.now())
    run_import_job.enqueue(str(job.pk))


@task()
def run_import_job(job_id: str) -> None:
    """The task a worker runs (its only argument is the job's id: the state is in the row)."""
    job = ImportJob.objects.get(pk=job_id)
    if job.state in (ImportJob.State.DONE, ImportJob.State.REFUSED):
        return  # delivered twice: the first delivery finished it
    # Run as in a worker process even when enqueued from a page: no page budget, not its cost.
    with instrumentation.detached(), budget.limit(None), paced():
        ImportJobRun(job).run()


class ImportJobRun:
    """One run of a job: validate, write, and record the outcome on the job's row."""

    def __init__(self, job: ImportJob) -> None:
        self.job = job
        self.reported = 0.0

    def run(self) -> None:
        job = self.job
        now = timezone.now()
        self._save(state=ImportJob.State.RUNNING, started_at=now, heard_at=now, finished_at=None, rows_written=0)
        ImportJob.objects.filter(pk=job.pk).update(attempts=F("attempts") + 1)
        name = stored_name(job.checksum, job.filename)
        data = read_stored(name)
        if data is None:
            self._finish(ImportJob.State.FAILED, "The uploaded file is no longer here; upload it again.")
            return
        prepared = import_prepare(data=data, filename=job.filename, scope=self._scope())
        if prepared.done is not None:
            discard(name)
            done = prepared.done
            message = f"{job.filename} was already imported by {done['by']} at {done['at']}; nothing to do."
            self._finish(ImportJob.State.DONE, message, documents=list(done["documents"]))
            return
        if not prepared.ok:
            self._refuse(prepared)
            return
        assert prepared.validation is not None
        self._save(rows_total=prepared.validation.to_write, already=prepared.validation.already)
        self._write(prepared, name)

    def _write(self, prepared: Prepared, name: str) -> None:
        job = self.job
        try:
            result = import_apply(prepared=prepared, user=job.user, progress=self._progress)
        except AlreadyImported as error:  # another run of the same file published it first
            discard(name)
            self._finish(ImportJob.State.DONE, describe(error), documents=list(error.documents))
            return
        except (ImportConflict, ImportUnfinished) as error:  # the upload stays: run it again
            self._finish(ImportJob.State.FAILED, describe(error))
            return
        except Exception:
            log.exception("import job %s failed", job.pk)
            self._finish(ImportJob.State.FAILED, "The import stopped on an unexpected error; run it again.")
            raise
        discard(name)
        message = (
            f"Imported {result.rows} rows from {job.filename} into {', '.join(result.documents)} "
            f"({result.written} written, {result.already} already in)."
        )
        self._finish(ImportJob.State.DONE, message, documents=result.documents, rows_written=result.written)

    def _scope(self) -> AccessScope:
        user = get_user_model().objects.filter(username=self.job.user).first()
        return resolve_scope(user)

    def _progress(self, rows: int) -> None:
        self.job.rows_written += rows
        now = time.monotonic()
        if now - self.reported >= REPORT_EVERY:
            self.reported = now
            self._save(rows_written=self.job.rows_written, heard_at=timezone.now())

    def _refuse(self, prepared: Prepared) -> None:
        if prepared.file_error:
            errors = [prepared.file_error]
        else:
            assert prepared.validation is not None
            errors = [
                f"{f'Row {e.row}' if e.row else 'File'}, {e.column}: {e.reason}" for e in prepared.validation.errors
            ]
        count = len(errors)
        message = f"{count} problem{'s' if count != 1 else ''}: nothing was written. Fix the file and upload it again."
        self._finish(ImportJob.State.REFUSED, message, errors=errors[:MAX_ERRORS_KEPT])

    def _finish(self, state: str, message: str, **fields: Any) -> None:
        now = timezone.now()
        self._save(state=state, message=message, finished_at=now, heard_at=now, **fields)

    def _save(self, **fields: Any) -> None:
        for name, value in fields.items():
            setattr(self.job, name, value)
        ImportJob.objects.filter(pk=self.job.pk).update(**fields)
