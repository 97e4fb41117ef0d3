"""A fund's statements ZIP built in the background (above `STATEMENTS_ZIP_INLINE_MAX` LPs): its
state in Django's database, so any web server shows its progress while a worker on another
machine builds the file into the shared storage (`exports.statement_jobs`)."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone


class StatementJob(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Building"
        DONE = "done", "Ready"
        FAILED = "failed", "Stopped"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    fund_id = models.CharField(max_length=64)
    period_start = models.DateField()
    period_end = models.DateField()
    period_label = models.CharField(max_length=40)
    known_at = models.DateTimeField(null=True, blank=True)
    user = models.CharField(max_length=150)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    positions_total = models.PositiveIntegerField(default=0)
    positions_done = models.PositiveIntegerField(default=0)
    stored_name = models.CharField(max_length=200, blank=True)  # the ZIP in the shared storage
    message = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.fund_id} {self.period_label} ({self.get_state_display()})"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)

    @property
    def filename(self) -> str:
        return f"statements-{self.fund_id}-{self.period_label.replace(' to ', '_')}.zip"
