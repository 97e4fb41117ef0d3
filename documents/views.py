"""Analyst pages about documents: each view validates input, calls one selector, renders."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.views import View
from django.views.generic import TemplateView

from documents import selectors
from fundportal.dynamo import InvalidId
from fundportal.dynamo.keys import parse_version_id, validate_id
from fundportal.models import EDIT_PERMISSION


class DocumentListView(LoginRequiredMixin, TemplateView):
    """Current documents of one as-of month (month-sharded sparse index), newest first."""

    template_name = "documents/list.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        listing = selectors.document_list(month=self.request.GET.get("month"))
        context.update(listing=listing, **vars_of(listing))
        return context


def vars_of(model: Any) -> dict[str, Any]:
    """A view model's fields as template variables (slots dataclasses have no __dict__)."""
    return {name: getattr(model, name) for name in model.__dataclass_fields__}


class SearchView(LoginRequiredMixin, View):
    """Jump to a document or position by id."""

    def get(self, request):
        query = request.GET.get("q", "").strip()
        try:
            validate_id(query, "document or position id")
        except InvalidId as error:
            messages.error(request, error.user_message)
            return redirect("documents:list")
        found = selectors.search(query=query)
        if found == "document":
            return redirect("documents:detail", document_id=query)
        if found == "position":
            return redirect("positions:detail", position_id=query)
        messages.error(request, f"No document or position with id '{query}'.")
        return redirect("documents:list")


class DocumentDetailView(LoginRequiredMixin, TemplateView):
    """Everything a document contains, grouped by position, from one Query (pattern 1)."""

    template_name = "documents/detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        editor = self.request.user.has_perm(EDIT_PERMISSION)
        page = selectors.document_overview(document_id=kwargs["document_id"], with_edit_urls=editor)
        context.update(page=page, **vars_of(page), currency=page.currency)
        return context


class PositionInDocumentView(LoginRequiredMixin, TemplateView):
    """One position's entries in one document: one BatchGetItem (pattern 2)."""

    template_name = "documents/position.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        editor = self.request.user.has_perm(EDIT_PERMISSION)
        page = selectors.position_in_document(
            document_id=kwargs["document_id"], position_id=kwargs["position_id"], with_edit_urls=editor
        )
        context.update(page=page, **vars_of(page))
        return context


class HistoryForm(forms.Form):
    """`?from=&to=` date range and `?compare=<version id>`; field names map to those parameters."""

    PARAMETERS = {"start": "from", "end": "to"}

    start = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, label="To", widget=forms.DateInput(attrs={"type": "date"}))
    compare = forms.CharField(required=False, widget=forms.HiddenInput)

    def add_prefix(self, field_name: str) -> str:
        return self.PARAMETERS.get(field_name, field_name)

    def clean_compare(self) -> str:
        value = self.cleaned_data["compare"]
        if value:
            try:
                parse_version_id(value)
            except InvalidId as error:
                raise forms.ValidationError(error.user_message) from None
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and start > end:
            raise forms.ValidationError("The 'from' date must be on or before the 'to' date.")
        return cleaned


class DocumentHistoryView(LoginRequiredMixin, TemplateView):
    """Superseded versions in a date range (SK BETWEEN, pattern 8) and current vs one of them.

    Requests: GetItem (current) + one Query per versioned kind (+ GetItem for `compare`).
    """

    template_name = "documents/history.html"

    def get(self, request, *args: Any, **kwargs: Any):
        context = self.get_context_data(**kwargs)
        status = 400 if context["form"].errors else 200
        return self.render_to_response(context, status=status)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        document_id = kwargs["document_id"]
        form = HistoryForm(self.request.GET or None)
        if form.is_bound and not form.is_valid():
            # Errors are shown beside the form; only the current document is read.
            document = selectors.document_header(document_id=document_id)
            history = selectors.DocumentHistory(document, [], [], None, None, None)
        else:
            data = form.cleaned_data if form.is_bound else {}
            history = selectors.document_history(
                document_id=document_id,
                start=data.get("start"),
                end=data.get("end"),
                compare_with=data.get("compare") or None,
            )
        context.update(
            **vars_of(history),
            form=form,
            range_query=self._range_query(form),
            currency=history.document.currency,
        )
        return context

    @staticmethod
    def _range_query(form: HistoryForm) -> str:
        """`from=...&to=...` of the current range, kept on compare links."""
        if not form.is_bound:
            return ""
        params = form.data.copy()
        params.pop("compare", None)
        return params.urlencode()
