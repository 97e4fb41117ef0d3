"""An import job's state, in Django's database: every web server and every worker reads and
writes the same row, so the progress page may be served by any of them while a worker on
another machine writes the file."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone


class ImportJob(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Writing"
        DONE = "done", "Imported"
        REFUSED = "refused", "Refused"
        FAILED = "failed", "Stopped"

    FINISHED = (State.DONE, State.REFUSED, State.FAILED)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    checksum = models.CharField(max_length=64, db_index=True)
    filename = models.CharField(max_length=200)
    user = models.CharField(max_length=150)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    rows_total = models.PositiveIntegerField(default=0)  # entries this run has to write
    rows_written = models.PositiveIntegerField(default=0)
    already = models.PositiveIntegerField(default=0)  # entries an earlier run of the file wrote
    documents = models.JSONField(default=list)
    message = models.TextField(blank=True)  # the outcome, in the user's words
    errors = models.JSONField(default=list)  # "Row N, column: reason" of a refused file
    attempts = models.PositiveIntegerField(default=0)  # how often a worker started it
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heard_at = models.DateTimeField(default=timezone.now)  # the worker's last progress report

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["checksum", "state"])]

    def __str__(self) -> str:
        return f"{self.filename} ({self.get_state_display()})"

    @property
    def finished(self) -> bool:
        return self.state in self.FINISHED

    def seconds(self, now: datetime | None = None) -> float:
        if self.started_at is None:
            return 0.0
        end = self.finished_at or now or timezone.now()
        return max((end - self.started_at).total_seconds(), 0.0)

    def rate(self, now: datetime | None = None) -> float:
        """Rows written a second since the worker started it."""
        seconds = self.seconds(now)
        return self.rows_written / seconds if seconds > 0 else 0.0

    def eta_seconds(self, now: datetime | None = None) -> float | None:
        """Seconds left at the current rate (None before a rate is known or once finished)."""
        rate = self.rate(now)
        if self.finished or rate <= 0:
            return None
        return max(self.rows_total - self.rows_written, 0) / rate

    @property
    def percent(self) -> int:
        if self.state == self.State.DONE:
            return 100
        return int(100 * self.rows_written / self.rows_total) if self.rows_total else 0

    def stale(self, now: datetime | None = None) -> bool:
        """Writing and not heard from for longer than a worker reports: its worker is gone
        (killed, restarted), so it may be run again. (A queued job waits for a free worker.)"""
        limit = timedelta(seconds=settings.IMPORT_JOB_STALE_SECONDS)
        return self.state == self.State.RUNNING and (now or timezone.now()) - self.heard_at > limit

    def status(self, now: datetime | None = None) -> dict[str, object]:
        """What the progress page and its JSON endpoint show."""
        now = now or timezone.now()
        eta = self.eta_seconds(now)
        return {
            "id": str(self.id),
            "state": self.state,
            "label": self.get_state_display(),
            "finished": self.finished,
            "stale": self.stale(now),
            "filename": self.filename,
            "rows_total": self.rows_total,
            "rows_written": self.rows_written,
            "already": self.already,
            "percent": self.percent,
            "rows_per_second": round(self.rate(now), 1),
            "eta_seconds": None if eta is None else round(eta),
            "documents": list(self.documents),
            "message": self.message,
            "errors": list(self.errors),
        }
