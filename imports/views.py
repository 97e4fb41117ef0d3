"""`/documents/import/`: upload a notice → preview of every row and the totals → confirm.

The uploaded file is kept in the shared upload storage (`STORAGES["imports"]`: a directory
locally, an S3 bucket across machines) named by its sha256, so the confirm may reach any worker
or machine (the confirm form carries only the checksum and the file name); confirming reads it
back, checks the checksum, validates again against the table as it is now, writes, and deletes
it. Editors only (403 before anything is read or written for everyone else)."""

from __future__ import annotations

import re
from pathlib import Path

from django import forms
from django.contrib import messages
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views import View

from fundportal.messages import describe
from fundportal.web.mixins import EditorRequiredMixin, ScopedMixin

from . import samples
from .reader import MAX_BYTES, FileError, kind_of
from .services import (
    AlreadyImported,
    ImportConflict,
    ImportUnfinished,
    Prepared,
    checksum_of,
    import_apply,
    import_prepare,
)

_CHECKSUM = re.compile(r"[0-9a-f]{64}")
_NAME = re.compile(r"[^A-Za-z0-9_.\- ]")


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


def upload_storage() -> Storage:
    """Where uploads wait for their confirm: one storage every server process shares."""
    return storages["imports"]


def _stored_name(checksum: str, filename: str) -> str:
    return f"{checksum}.{kind_of(filename)}"


def _read_stored(name: str) -> bytes | None:
    """The stored upload's bytes, or None when it is not (or no longer) there."""
    storage = upload_storage()
    try:
        if not storage.exists(name):
            return None
        with storage.open(name, "rb") as stored:
            return stored.read()
    except OSError:
        return None


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
            upload_storage().save(_stored_name(checksum, filename), ContentFile(data))
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
    def post(self, request: HttpRequest) -> HttpResponse:
        form = ConfirmForm(request.POST)
        if not form.is_valid():
            messages.error(request, "The import form was incomplete; upload the file again.")
            return redirect("documents:imports:upload")
        checksum, filename = form.cleaned_data["checksum"], form.cleaned_data["filename"]
        name = _stored_name(checksum, filename)
        data = _read_stored(name)
        if data is None:
            messages.error(request, "The uploaded file is no longer here; upload it again.")
            return redirect("documents:imports:upload")
        if checksum_of(data) != checksum:
            upload_storage().delete(name)  # a damaged copy: the next upload stores it afresh
            messages.error(request, "The uploaded file changed; upload it again.")
            return redirect("documents:imports:upload")
        # Validated again: the table (and the user's coverage) may have moved.
        prepared = import_prepare(data=data, filename=filename, scope=self.scope)
        if not prepared.ok:
            return preview(request, prepared)
        try:
            result = import_apply(prepared=prepared, user=request.user.get_username())
        except ImportConflict as error:
            messages.error(request, describe(error))
            return preview(request, import_prepare(data=data, filename=filename, scope=self.scope))
        except ImportUnfinished as error:  # the upload stays: confirming again finishes it
            messages.error(request, describe(error))
            return preview(request, prepared)
        except AlreadyImported as error:  # another confirm of the same file published it first
            upload_storage().delete(name)
            messages.warning(request, describe(error))
            return redirect("documents:detail", document_id=error.documents[0])
        upload_storage().delete(name)
        messages.success(
            request,
            f"Imported {result.rows} rows from {filename} into {', '.join(result.documents)} "
            f"({result.written} written, {result.already} already in).",
        )
        return redirect("documents:detail", document_id=result.documents[0])


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
