"""Import jobs in the admin: who imported which file, how far it got and how it ended (read only:
a job is changed by its worker, or run again from its own page)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import ImportJob


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ("filename", "user", "state", "rows_written", "rows_total", "attempts", "created_at", "finished_at")
    list_filter = ("state",)
    search_fields = ("filename", "user", "checksum")
    readonly_fields = [field.name for field in ImportJob._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ImportJob | None = None) -> bool:
        return False
