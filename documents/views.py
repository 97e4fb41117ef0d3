"""Analyst pages about documents."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.views import View
from django.views.generic import TemplateView

from fundportal.dynamo import FundRepository, InvalidId, NotFound
from fundportal.dynamo.entities import Document
from fundportal.dynamo.keys import Kind, parse_month, parse_version_id, validate_id, version_id


class DocumentListView(LoginRequiredMixin, TemplateView):
    """Current documents of one as-of month (month-sharded sparse index), newest first."""

    template_name = "documents/list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        repository = FundRepository()
        months = repository.months()
        requested = self.request.GET.get("month")
        if requested:
            year, month = parse_month(requested)
        elif months:
            year, month = parse_month(months[0])
        else:
            today = date.today()
            year, month = today.year, today.month
        current = f"{year:04d}-{month:02d}"
        older = [m for m in months if m < current]
        newer = [m for m in months if m > current]
        context.update(
            month=date(year, month, 1),
            month_key=current,
            months=months,
            older=older[0] if older else None,
            newer=newer[-1] if newer else None,
            documents=repository.documents_in_month(year, month),
        )
        return context


class SearchView(LoginRequiredMixin, View):
    """Jump to a document or position by id."""

    def get(self, request):
        query = request.GET.get("q", "").strip()
        try:
            validate_id(query, "document or position id")
        except InvalidId as error:
            messages.error(request, error.user_message)
            return redirect("documents:list")
        repository = FundRepository()
        try:
            repository.get_document(query)
            return redirect("documents:detail", document_id=query)
        except NotFound:
            pass
        if repository.position_page(query, limit=1).entries:
            return redirect("positions:detail", position_id=query)
        messages.error(request, f"No document or position with id '{query}'.")
        return redirect("documents:list")


class DocumentDetailView(LoginRequiredMixin, TemplateView):
    """Everything a document contains, grouped by position, from one Query (pattern 1)."""

    template_name = "documents/detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        overview = FundRepository().document_overview(kwargs["document_id"])
        context.update(
            overview=overview,
            document=overview.document,
            activity=overview.capital_activity,
            history_count=len(overview.document_history) + len(overview.activity_history),
            positions=overview.positions,
            totals=overview.totals,
            currency=overview.document.currency,
        )
        return context


class PositionInDocumentView(LoginRequiredMixin, TemplateView):
    """One position's three entries in one document: one BatchGetItem (pattern 2)."""

    template_name = "documents/position.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        row = FundRepository().position_in_document(kwargs["document_id"], kwargs["position_id"])
        entries = row.entries
        context.update(
            row=row,
            position=row.position,
            as_of_date=next((e.as_of_date for e in entries if e.as_of_date), None),
            currency=entries[0].currency,
            items=[(kind, row.get(kind)) for kind in (Kind.CAPITAL_CALL, Kind.DISTRIBUTION, Kind.UNFUNDED_COMMITMENT)],
            totals=row.totals,
        )
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


@dataclass(frozen=True, slots=True)
class ComparedField:
    label: str
    current: Any
    historical: Any

    @property
    def changed(self) -> bool:
        return self.current != self.historical

    @property
    def shown(self) -> tuple[str, str]:
        return _shown(self.current), _shown(self.historical)


def _shown(value: Any) -> str:
    if isinstance(value, datetime):
        return f"{value:%Y-%m-%d %H:%M} UTC"
    if isinstance(value, date):
        return value.isoformat()
    return "—" if value in (None, "") else str(value)


COMPARED_FIELDS = (
    ("Title", "title"),
    ("Fund", "fund_id"),
    ("As of", "as_of_date"),
    ("Status", "status"),
    ("Currency", "currency"),
    ("Revision", "revision"),
    ("Updated at", "updated_at"),
    ("Updated by", "updated_by"),
)


def compare(current: Document, historical: Document) -> list[ComparedField]:
    return [ComparedField(label, getattr(current, name), getattr(historical, name)) for label, name in COMPARED_FIELDS]


def public_version_id(document: Any) -> str:
    """The URL id of a superseded copy (document or capital activity)."""
    return version_id(document.version_date, document.version_revision)


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
        repository = FundRepository()
        current = repository.get_document(document_id)
        form = HistoryForm(self.request.GET or None)
        versions, activities, comparison, compared = [], [], None, None
        if form.is_bound and not form.is_valid():
            pass  # errors are shown beside the form; nothing else is read
        else:
            data = form.cleaned_data if form.is_bound else {}
            start, end = data.get("start"), data.get("end")
            versions = repository.document_versions(document_id, start, end)
            activities = repository.document_versions(document_id, start, end, kind=Kind.CAPITAL_ACTIVITY)
            if data.get("compare"):
                compared = repository.get_document_version(document_id, data["compare"])
                comparison = compare(current, compared)
        context.update(
            document=current,
            form=form,
            range_query=self._range_query(form),
            versions=[(public_version_id(v), v) for v in versions],
            activities=activities,
            compared=compared,
            compared_id=public_version_id(compared) if compared else None,
            comparison=comparison,
            currency=current.currency,
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
