"""A fund's statements ZIP as a background job, for a fund above `STATEMENTS_ZIP_INLINE_MAX` LPs
(default 100): the download enqueues `run_statement_job` (django-tasks, as the notice imports)
and shows the job's page; a `db_worker` builds every LP's statement PDF into one ZIP in the shared
storage (`STORAGES["imports"]`, under `statements/`), and the page offers it once ready. The
job's row holds its state, so any server shows it; the job's pages are its own user's only."""

from __future__ import annotations

import logging
import tempfile
import zipfile
from datetime import datetime

from django.contrib.auth import get_user_model
from django.core.files import File
from django.core.files.storage import Storage, storages
from django.utils import timezone
from django_tasks import task

from fundportal.access.scope import resolve_scope
from fundportal.domain.access import AccessScope
from fundportal.domain.periods import Period
from fundportal.store import budget, instrumentation

from .capital_account import fund_statements
from .capital_account_files import statement_pdf
from .models import StatementJob

log = logging.getLogger(__name__)
INLINE_MAX = 100  # up to this many LPs the ZIP is streamed at once (`STATEMENTS_ZIP_INLINE_MAX`)
PREFIX = "statements/"


def statement_storage() -> Storage:
    return storages["imports"]


def enqueue(*, fund_id: str, period: Period, known_at: datetime | None, user: str, positions: int) -> StatementJob:
    """A new job building the fund's statements for `period`, enqueued."""
    job = StatementJob.objects.create(
        fund_id=fund_id,
        period_start=period.start,
        period_end=period.end,
        period_label=period.label,
        known_at=known_at,
        user=user,
        positions_total=positions,
    )
    run_statement_job.enqueue(str(job.pk))
    return StatementJob.objects.get(pk=job.pk)  # the immediate backend has run it already


@task()
def run_statement_job(job_id: str) -> None:
    """The task a worker runs: every LP's statement PDF into one ZIP, then into the storage."""
    job = StatementJob.objects.get(pk=job_id)
    if job.finished:
        return  # delivered twice
    with instrumentation.detached(), budget.limit(None):
        try:
            _build(job)
        except Exception:
            log.exception("statement job %s failed", job.pk)
            _save(
                job, state=StatementJob.State.FAILED, message="Building the statements stopped on an error; ask again."
            )
            raise


def _build(job: StatementJob) -> None:
    _save(job, state=StatementJob.State.RUNNING, positions_done=0)
    period = Period(job.period_start, job.period_end, job.period_label)
    statements = fund_statements(fund_id=job.fund_id, period=period, known_at=job.known_at, scope=_scope(job))
    _save(job, positions_total=len(statements.position_ids))
    with tempfile.TemporaryFile(suffix=".zip") as spooled:
        with zipfile.ZipFile(spooled, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for done, statement in enumerate(statements.statements, start=1):
                archive.writestr(f"{statement.filename_stem}.pdf", statement_pdf(statement, generated_by=job.user))
                _save(job, positions_done=done)
        spooled.seek(0)
        name = statement_storage().save(f"{PREFIX}{job.pk}.zip", File(spooled))
    _save(
        job,
        state=StatementJob.State.DONE,
        stored_name=name,
        message=f"{job.positions_done} statements ready.",
        finished_at=timezone.now(),
    )


def _scope(job: StatementJob) -> AccessScope:
    user = get_user_model().objects.filter(username=job.user).first()
    return resolve_scope(user)


def _save(job: StatementJob, **changes: object) -> None:
    for name, value in changes.items():
        setattr(job, name, value)
    StatementJob.objects.filter(pk=job.pk).update(**changes)
