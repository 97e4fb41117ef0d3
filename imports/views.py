"""`/documents/import/`: upload a notice → preview of every row and the totals → confirm.

The uploaded file is kept in the shared upload storage (`STORAGES["imports"]`: a directory
locally, an S3 bucket across machines) named by its sha256, so the confirm may reach any worker
or machine (the confirm form carries only the checksum and the file name); confirming reads it
back, checks the checksum and enqueues a background job (`imports.jobs`) that validates it again
against the table as it is then, writes it and deletes it; the confirm answers at once with the
job's progress page. Editors only (403 before anything is read or written for everyone else)."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

from django import forms
from django.contrib import messages
from django.core.files.base import ContentFile
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from fundportal.web.mixins import EditorRequiredMixin, ScopedMixin

from . import jobs, samples
from .models import ImportJob
from .reader import MAX_BYTES, FileError, kind_of
from .services import Prepared, checksum_of, import_prepare
from .uploads import discard, read_stored, stored_name, upload_storage

_CHECKSUM = re.compile(r"[0-9a-f]{64}")
_NAME = re.compile(r"[^A-Za-z0-9_.\- ]")
REFRESH_SECONDS = 2  # the progress page reloads itself this often until the job is finished


class UploadForm(forms.Form):
    file = forms.FileField(label="Notice file (CSV or XLSX)")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB.")
        try:
            kind_of(upload.name)
        except FileError as error:
            raise forms.ValidationError(str(error)) from None
        return upload


class ConfirmForm(forms.Form):
    checksum = forms.RegexField(regex=_CHECKSUM, widget=forms.HiddenInput)
    filename = forms.CharField(max_length=200, widget=forms.HiddenInput)

    def clean_filename(self) -> str:
        name = self.cleaned_data["filename"]
        try:
            kind_of(name)
        except FileError as error:
            raise forms.ValidationError(str(error)) from None
        return name


def _safe_name(filename: str) -> str:
    """The uploaded file's own name, as shown and audited (path parts and odd characters dropped)."""
    name = Path(filename).name
    return _NAME.sub("_", name)[:200] or "notice.csv"


class ImportView(EditorRequiredMixin, View):
    template_name = "imports/upload.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, self.template_name, {"form": UploadForm()})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = UploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return render(request, self.template_name, {"form": form}, status=400)
        upload = form.cleaned_data["file"]
        data = upload.read()
        filename = _safe_name(upload.name)
        checksum = checksum_of(data)
        prepared = import_prepare(data=data, filename=filename, scope=self.scope)
        if prepared.ok:
            upload_storage().save(stored_name(checksum, filename), ContentFile(data))
        return preview(request, prepared)


def preview(request: HttpRequest, prepared: Prepared) -> HttpResponse:
    validation = prepared.validation
    confirm = ConfirmForm(initial={"checksum": prepared.checksum, "filename": prepared.filename})
    context = {
        "prepared": prepared,
        "validation": validation,
        "results": validation.results if validation else [],
        "errors": validation.errors if validation else [],
        "confirm": confirm if prepared.ok else None,
    }
    status = 200 if prepared.ok or prepared.done else 400
    return render(request, "imports/preview.html", context, status=status)


class ConfirmView(EditorRequiredMixin, View):
    """Enqueues the import job and answers at once with its progress page; the job validates the
    upload again against the table as it is then and writes it (`imports.jobs`)."""

    def post(self, request: HttpRequest) -> HttpResponse:
        form = ConfirmForm(request.POST)
        if not form.is_valid():
            messages.error(request, "The import form was incomplete; upload the file again.")
            return redirect("documents:imports:upload")
        checksum, filename = form.cleaned_data["checksum"], form.cleaned_data["filename"]
        name = stored_name(checksum, filename)
        data = read_stored(name)
        if data is None:
            messages.error(request, "The uploaded file is no longer here; upload it again.")
            return redirect("documents:imports:upload")
        if checksum_of(data) != checksum:
            discard(name)  # a damaged copy: the next upload stores it afresh
            messages.error(request, "The uploaded file changed; upload it again.")
            return redirect("documents:imports:upload")
        job = jobs.enqueue(checksum=checksum, filename=filename, user=request.user.get_username())
        return redirect("documents:imports:job", job_id=job.pk)


class JobMixin(EditorRequiredMixin):
    """A job of the signed-in user (anyone else's is a 404)."""

    def get_job(self, job_id: uuid.UUID) -> ImportJob:
        return get_object_or_404(ImportJob, pk=job_id, user=self.request.user.get_username())


class JobView(JobMixin, View):
    """The job's progress: rows written, rate, time left, errors; refreshes itself until done."""

    def get(self, request: HttpRequest, job_id: uuid.UUID) -> HttpResponse:
        job = self.get_job(job_id)
        context = {"job": job, "status": job.status(), "refresh": REFRESH_SECONDS}
        return render(request, "imports/job.html", context)

    def post(self, request: HttpRequest, job_id: uuid.UUID) -> HttpResponse:
        """Run again a job that stopped or whose worker went away."""
        job = self.get_job(job_id)
        if job.state == ImportJob.State.FAILED or job.stale():
            jobs.run_again(job)
        return redirect("documents:imports:job", job_id=job.pk)


class JobStatusView(JobMixin, View):
    """The job's progress as JSON (what the page shows), for scripts and pollers."""

    def get(self, request: HttpRequest, job_id: uuid.UUID) -> JsonResponse:
        response = JsonResponse(self.get_job(job_id).status())
        response["Cache-Control"] = "no-store"
        return response


class TemplateDownloadView(ScopedMixin, View):
    """The notice template (header and example rows), as CSV or XLSX."""

    fmt = "csv"

    def get(self, request: HttpRequest) -> HttpResponse:
        fmt = self.fmt
        if fmt == "xlsx":
            content = samples.template_xlsx()
            content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        else:
            content, content_type = samples.template_csv().encode(), "text/csv; charset=utf-8"
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="notice-template.{fmt}"'
        return response
