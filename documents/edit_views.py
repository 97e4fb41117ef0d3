"""Analyst writes: create a document, record/change/remove position entries, restate a
document, and read its audit trail.

Every write view requires `fundportal.edit_fund_data`; the permission is checked in
`dispatch`, before any DynamoDB request, so a viewer's POST gets 403 and writes nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import cached_property
from django.views.generic import FormView, TemplateView

from documents import selectors, services
from documents.forms import CreateDocumentForm, EntryDeleteForm, EntryForm, RestateForm
from fundportal.domain.errors import (
    AlreadyExists,
    Conflict,
    InvalidId,
    LeftoverEntries,
    NotFound,
    NotPermitted,
    PositionMismatch,
    RestatementRefused,
    SpelledOtherwise,
)
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from fundportal.domain.money import format_money
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.restatement import shown
from fundportal.messages import describe as describe_error
from fundportal.web.cells import KIND_LABELS
from fundportal.web.mixins import EditorRequiredMixin, ScopedMixin


def entry_kind(slug: str) -> Kind:
    """The position-entry kind named in a URL (400 for anything else)."""
    kind = Kind.from_slug(slug)
    if not kind.is_position_entry:
        raise InvalidId("entry kind", slug)
    return kind


def describe(entry: PositionEntry) -> str:
    return f"{KIND_LABELS[entry.kind]} for {entry.position_id}"


def conflict_response(request: HttpRequest, error: Conflict, document_id: str) -> HttpResponse:
    """The 409 page: who changed the data and when; nothing was written."""
    context = {"error": error, "document_id": document_id, "retry_url": request.get_full_path()}
    return render(request, "409.html", context, status=409)


class DocumentCreateView(EditorRequiredMixin, FormView):
    """Conditional put of a new document; an existing id is a form error."""

    form_class = CreateDocumentForm
    template_name = "documents/edit/document_form.html"

    def form_valid(self, form: CreateDocumentForm) -> HttpResponse:
        try:
            document = services.document_create(
                document=form.document(),
                activity=form.activity(),
                user=self.username,
                token=form.token,
                scope=self.scope,
            )
        except AlreadyExists:
            form.add_error("document_id", f"A document with id '{form.cleaned_data['document_id']}' already exists.")
            return self.form_invalid(form)
        except (NotFound, NotPermitted):  # a fund the user does not cover (or may only read)
            form.add_error("fund_id", f"You may not create documents in fund '{form.cleaned_data['fund_id']}'.")
            return self.form_invalid(form)
        except LeftoverEntries as error:
            form.add_error("document_id", describe_error(error))
            return self.form_invalid(form)
        except SpelledOtherwise as error:
            form.add_error("fund_id" if error.what == "fund id" else "document_id", describe_error(error))
            return self.form_invalid(form)
        messages.success(self.request, f"Document {document.document_id} created.")
        return self.to_document(document.document_id)


class EntryEditView(EditorRequiredMixin, FormView):
    """Record a new position entry (`entries/new/`) or change one (`entries/<kind>/<pos>/edit/`)."""

    form_class = EntryForm
    template_name = "documents/edit/entry_form.html"

    @property
    def document_id(self) -> str:
        return self.kwargs["document_id"]

    @property
    def is_new(self) -> bool:
        return "kind" not in self.kwargs

    @cached_property
    def document(self) -> Document:
        document = selectors.document_header(document_id=self.document_id, scope=self.scope)
        self.scope.require_edit(document.fund_id, "Document", self.document_id)
        return document

    @cached_property
    def existing(self) -> PositionEntry | None:
        if self.is_new:
            return None
        kind = entry_kind(self.kwargs["kind"])
        return selectors.entry(
            document_id=self.document_id, kind=kind, position_id=self.kwargs["position_id"], scope=self.scope
        )

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs = super().get_form_kwargs()
        kwargs["fixed"] = not self.is_new
        return kwargs

    def get_initial(self) -> dict[str, Any]:
        if self.request.method == "POST":
            # The fixed fields of a change come from the URL; put_entry checks the entry exists.
            return {} if self.is_new else {"kind": self.kwargs["kind"], "position_id": self.kwargs["position_id"]}
        if self.existing is not None:
            return EntryForm.initial_for(self.existing)
        initial: dict[str, Any] = {"fund_id": self.document.fund_id}
        if self.request.GET.get("kind") in {kind.slug for kind in KIND_LABELS}:
            initial["kind"] = self.request.GET["kind"]
        if self.request.GET.get("position"):
            initial["position_id"] = self.request.GET["position"]
        return initial

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        label = describe(self.existing) if self.existing else None
        context.update(document=self.document, entry=self.existing, is_new=self.is_new, label=label)
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not self.is_new:
            entry_kind(kwargs["kind"])  # 400 for a kind that is not a position entry
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: EntryForm) -> HttpResponse:
        entry = form.entry(self.document_id)
        try:
            if self.is_new:
                saved = services.entry_record(entry=entry, user=self.username, token=form.token, scope=self.scope)
            else:
                saved = services.entry_change(
                    entry=entry,
                    user=self.username,
                    token=form.token,
                    expected_revision=form.cleaned_data.get("revision"),
                    scope=self.scope,
                )
        except AlreadyExists:
            form.add_error(
                None,
                f"{describe(entry)} already exists in {self.document_id}; change it instead.",
            )
            return self.form_invalid(form)
        except SpelledOtherwise as error:
            form.add_error("investor_id" if error.what == "investor id" else "position_id", describe_error(error))
            return self.form_invalid(form)
        except PositionMismatch as error:  # fund or investor not the position's: 400
            form.add_error(error.field if error.field in form.fields else None, describe_error(error))
            return self.form_invalid(form)
        except Conflict as error:
            return conflict_response(self.request, error, self.document_id)
        verb = "recorded" if self.is_new else "changed"
        if saved.restated is not None:  # an approved document: the change waits for approval
            pending = shown(saved) or saved
            messages.success(
                self.request,
                f"{describe(saved)} {verb}: {format_money(pending.money)}, awaiting approval by another user;"
                " the approved amounts count until then.",
            )
            return self.to_document(self.document_id)
        messages.success(self.request, f"{describe(saved)} {verb}: {format_money(saved.money)}.")
        return self.to_document(self.document_id)


class EntryDeleteView(EditorRequiredMixin, TemplateView):
    """Removal asks for confirmation (GET); only POST deletes."""

    template_name = "documents/edit/entry_confirm_delete.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        entry = selectors.entry(
            document_id=kwargs["document_id"],
            kind=entry_kind(kwargs["kind"]),
            position_id=kwargs["position_id"],
            scope=self.scope,
        )
        self.scope.require_edit(entry.fund_id, "Document", kwargs["document_id"])
        form = EntryDeleteForm(initial={"revision": entry.revision})
        context.update(entry=entry, label=describe(entry), form=form)
        return context

    def post(self, request: HttpRequest, document_id: str, kind: str, position_id: str) -> HttpResponse:
        """Removes the revision the confirmation page showed; a newer one is a 409, never deleted."""
        entry_type = entry_kind(kind)
        form = EntryDeleteForm(request.POST)
        if not form.is_valid():
            raise InvalidId("removal form", "")
        try:
            removed = services.entry_remove(
                document_id=document_id,
                kind=entry_type,
                position_id=position_id,
                user=self.username,
                token=form.token,
                expected_revision=form.cleaned_data.get("revision"),
                scope=self.scope,
            )
        except Conflict as error:
            return conflict_response(request, error, document_id)
        if removed is not None and removed.restated is not None:
            messages.success(
                request,
                f"{KIND_LABELS[entry_type]} for {position_id} removed, awaiting approval by another user;"
                " it counts until then.",
            )
            return self.to_document(document_id)
        messages.success(request, f"{KIND_LABELS[entry_type]} for {position_id} removed.")
        return self.to_document(document_id)


class RestateView(EditorRequiredMixin, TemplateView):
    """Publish a restated document, conditioned on the revision the form was loaded with."""

    template_name = "documents/edit/restate_form.html"

    def get(self, request: HttpRequest, document_id: str) -> HttpResponse:
        document, activity = selectors.document_for_restatement(document_id=document_id, scope=self.scope)
        form = RestateForm(initial=RestateForm.initial_for(document, activity))
        return self.render_to_response(self.get_context_data(form=form, document=document, activity=activity))

    def post(self, request: HttpRequest, document_id: str) -> HttpResponse:
        form = RestateForm(request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form), status=400)
        try:
            document = services.document_restate(
                document_id=document_id,
                expected_revision=form.cleaned_data["expected_revision"],
                changes=form.changes(),
                activity_changes=form.activity_changes(),
                entries=form.restated_entries(document_id),
                user=self.username,
                token=form.token,
                scope=self.scope,
            )
        except Conflict as error:
            return conflict_response(request, error, document_id)
        except RestatementRefused as error:
            form.add_error(None, describe_error(error))
            return self.render_to_response(self.get_context_data(form=form), status=400)
        again = " It goes back through approval; the approved amounts count until then." if document.restating else ""
        messages.success(request, f"Document {document_id} restated: now revision {document.revision}.{again}")
        return self.to_document(document_id)


class AuditTrailView(ScopedMixin, TemplateView):
    """Who changed what and when in a document (any signed-in analyst may read it)."""

    template_name = "documents/edit/audit.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        page = selectors.audit_trail(
            document_id=kwargs["document_id"], cursor=self.request.GET.get("cursor") or None, scope=self.scope
        )
        context.update(document=page.document, entries=page.entries, next_cursor=page.next_cursor)
        return context
