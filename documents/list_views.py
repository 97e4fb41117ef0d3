"""Finding documents: the documents list across months and the id search.
Each view validates its input with a form, calls one selector and renders."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views import View

from documents import list_selectors
from documents.forms import DateRangeQueryForm
from documents.time_travel import list_filters_as_of
from fundportal.domain.errors import InvalidId
from fundportal.domain.kinds import DOCUMENT_STATUSES, DOCUMENT_TYPES, validate_id
from fundportal.messages import describe
from fundportal.web.mixins import ScopedMixin
from fundportal.web.time_travel import TimeTravelMixin


class ListFilterForm(DateRangeQueryForm):
    """`?fund=&type=&status=&from=&to=&cursor=`; every field optional."""

    PARAMETERS = {"fund_id": "fund", "document_type": "type", "start": "from", "end": "to"}

    fund_id = forms.CharField(required=False, label="Fund", max_length=64)
    document_type = forms.ChoiceField(
        required=False,
        label="Type",
        choices=[("", "Any type"), *((t, list_selectors.type_label(t)) for t in DOCUMENT_TYPES)],
    )
    status = forms.ChoiceField(required=False, choices=[("", "Any status"), *((s, s) for s in DOCUMENT_STATUSES)])
    start = forms.DateField(required=False, label="As of from", widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, label="As of to", widget=forms.DateInput(attrs={"type": "date"}))
    cursor = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_fund_id(self) -> str:
        value = self.cleaned_data["fund_id"].strip()
        if value:
            try:
                validate_id(value, "fund id")
            except InvalidId as error:
                raise forms.ValidationError(describe(error)) from None
        return value

    def filters(self) -> list_selectors.ListFilters:
        data = self.cleaned_data
        return list_selectors.ListFilters(
            fund_id=data.get("fund_id") or "",
            document_type=data.get("document_type") or "",
            status=data.get("status") or "",
            start=data.get("start"),
            end=data.get("end"),
        )

    def query(self, **changes: str | None) -> str:
        """The current filters as a query string, with `changes` applied (None removes)."""
        params = self.data.copy()
        for name, value in changes.items():
            params.pop(name, None)
            if value:
                params[name] = value
        return params.urlencode()


class DocumentListView(ScopedMixin, TimeTravelMixin, View):
    """Current documents across months, newest first, 50 a page (month-sharded index);
    `?as_of=`: those dated after it left out (`documents.time_travel`)."""

    template_name = "documents/list.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        form = ListFilterForm(request.GET)
        if not form.is_valid():
            context = {"form": form, "page": None, "time_travel": self.time_travel, **self.scope_context()}
            return render(request, self.template_name, context, status=400)
        filters = list_filters_as_of(form.filters(), self.time_travel.as_of)
        page = list_selectors.document_list_page(
            filters=filters, cursor=form.cleaned_data["cursor"] or None, scope=self.scope
        )
        context = {
            "form": form,
            "page": page,
            "time_travel": self.time_travel,
            **self.scope_context(),
            "documents": page.documents,
            "filtered": any(form.cleaned_data.get(name) for name in ListFilterForm.PARAMETERS),
            "older_query": form.query(cursor=page.older_cursor) if page.older_cursor else "",
            "newer_query": form.query(cursor=page.newer_cursor),
            "later_query": form.query(cursor=None, to="9999-12-31"),
        }
        return render(request, self.template_name, context)

    def scope_context(self) -> dict[str, Any]:
        """Edit buttons for users who may edit some fund; an LP user's own investor pages."""
        own = sorted(self.scope.investors) if self.scope.is_investor else []
        return {"may_edit": self.scope.may_edit_somewhere, "own_investors": own}


class SearchView(ScopedMixin, View):
    """`?q=`: ids of documents, positions, funds and investors, any case, exact or prefix.
    One match (or one exact match) opens its page; several are listed by kind; none says so."""

    template_name = "documents/search.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        query = request.GET.get("q", "").strip()
        context: dict[str, Any] = {"query": query, "results": None, "error": None}
        if not query:
            return render(request, self.template_name, context)
        try:
            list_selectors.search_text(query, "document, position, fund or investor id")
        except InvalidId as error:
            context["error"] = describe(error)
            return render(request, self.template_name, context)
        results = list_selectors.search(query=query, scope=self.scope)
        if results.target is not None:
            return redirect(results.target.url)
        context["results"] = results
        return render(request, self.template_name, context)
