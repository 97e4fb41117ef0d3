"""Analyst pages about documents: each view validates input, calls one selector, renders."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.views.generic import TemplateView

from documents import list_selectors, paging, position_table, selectors, version_compare
from documents.forms import DateRangeQueryForm
from documents.time_travel import check_dated_by
from fundportal.domain.errors import InvalidId
from fundportal.domain.kinds import POSITION_KINDS, STATEMENT_KINDS, parse_version_id
from fundportal.messages import describe
from fundportal.viewmodels import vars_of
from fundportal.web.mixins import ScopedMixin
from fundportal.web.paging import page_links
from fundportal.web.time_travel import TimeTravelMixin


class DocumentDetailView(ScopedMixin, TimeTravelMixin, TemplateView):
    """Everything a document contains, grouped by position, from one Query (pattern 1);
    `?as_of=` before the document's date: a 404 saying so (`documents.time_travel`)."""

    template_engine = "jinja2"  # templates/jinja2/documents/detail.html
    template_name = "documents/detail.html"

    def get(self, request, *args: Any, **kwargs: Any):
        context = self.get_context_data(**kwargs)
        return self.render_to_response(context, status=400 if context["table_errors"] else 200)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # Editing happens on the position-in-document page: one "Edit" link a row.
        # The table's form is bound only when the query asks for one of its parameters: without
        # any, it is the default table (what the bound form would clean to).
        asked = any(name in self.request.GET for name in PositionTableForm.base_fields)
        form = PositionTableForm(self.request.GET) if asked else None
        if form is None:
            query = position_table.TableQuery()
        else:
            query = form.table_query() if form.is_valid() else position_table.TableQuery()
        view = paging.document_view(
            document_id=kwargs["document_id"],
            query=query,
            cursor=self.request.GET.get("cursor") or None,
            scope=self.scope,
        )
        page, table = view.page, view.table
        check_dated_by(page.document, self.time_travel.as_of)
        can_edit = self.scope.can_edit(page.document.fund_id)
        can_approve = self.scope.can_approve(page.document.fund_id)
        context.update(page=page, **vars_of(page), currency=page.currency, can_edit=can_edit, can_approve=can_approve)
        shown = shown_entry_columns(view.rows)
        entry_columns = [(POSITION_KINDS[i].slug, selectors.KIND_LABELS[POSITION_KINDS[i]]) for i in shown]
        context["sort_links"] = sort_links(self.request.GET, ("position", *(slug for slug, _ in entry_columns), "dpi"))
        context.update(
            rows=view.rows,
            table_rows=position_table.table_rows(view.rows, shown),
            pager=view.pager,
            page_links=page_links(self.request.GET, view.pager),
            long_document=view.long,
            page_positions=paging.PAGE_POSITIONS,
            table=table,
            table_errors=form.errors if form is not None else {},
            status_choices=PositionTableForm.base_fields["status"].choices,
            table_query=query,
            entry_columns=entry_columns,
            type_label=list_selectors.type_label(page.document.document_type),
            sort_label=next(
                (selectors.KIND_LABELS[k] for k in POSITION_KINDS if k.slug == query.sort), query.sort.upper()
            ),
        )
        return context


def shown_entry_columns(rows: Any) -> list[int]:
    """The entry columns the document table shows (indexes into POSITION_KINDS): the seed's kinds
    and NAV always, a capital account kind only when a row on the page holds one."""
    first = POSITION_KINDS.index(STATEMENT_KINDS[0])
    return [i for i in range(len(POSITION_KINDS)) if i < first or any(row.cells[i] for row in rows)]


class OneOfField(forms.CharField):
    """A `ChoiceField`'s check (the same message) on a text field whose choices are one tuple
    shared by every bound copy of the form: Django copies a form's fields for each request, and a
    `ChoiceField` (and its `Select` widget) deep-copies its choices every time. The page renders
    the choices itself (`fields.status.choices`)."""

    default_error_messages = {"invalid_choice": forms.ChoiceField.default_error_messages["invalid_choice"]}

    def __init__(self, *, choices: Iterable[tuple[str, str]], **kwargs: Any) -> None:
        self.choices = tuple(choices)
        self._values = frozenset(value for value, _ in self.choices)
        super().__init__(strip=False, **kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value and value not in self._values:
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice", params={"value": value}
            )


class PositionTableForm(forms.Form):
    """`?sort=&order=&position=&investor=&status=` of the document page's positions table."""

    sort = OneOfField(required=False, choices=[(c, c) for c in position_table.SORT_COLUMNS])
    order = OneOfField(required=False, choices=[("asc", "ascending"), ("desc", "descending")])
    position = forms.CharField(required=False, max_length=64, label="Position")
    investor = forms.CharField(required=False, max_length=64, label="Investor")
    status = OneOfField(required=False, choices=[("", "Any status"), *((s, s) for s in position_table.STATUS_CHOICES)])

    def table_query(self) -> position_table.TableQuery:
        data = self.cleaned_data
        return position_table.TableQuery(
            sort=data.get("sort") or "position",
            descending=data.get("order") == "desc",
            position=(data.get("position") or "").strip(),
            investor=(data.get("investor") or "").strip(),
            status=data.get("status") or "",
        )


def sort_links(data: Any, columns: Iterable[str] = position_table.SORT_COLUMNS) -> dict[str, str]:
    """Per column of `columns` (default: every sortable one), the query string that sorts the
    table by it (toggling the order if it is the current one), keeping the query's filters;
    `data`: the query (a `QueryDict`)."""
    current = data.get("sort") or "position"
    descending = data.get("order") == "desc"
    kept = {key: data.getlist(key) for key in data if key not in ("sort", "order", "cursor")}
    links = {}
    for column in columns:
        # The current column toggles its order; another opens in id order, or largest amount first.
        first = "asc" if column == "position" else "desc"
        order = ("asc" if descending else "desc") if column == current else first
        links[column] = urlencode({**kept, "sort": column, "order": order}, doseq=True)
    return links


class PositionInDocumentView(ScopedMixin, TemplateView):
    """One position's entries in one document: one BatchGetItem (pattern 2)."""

    template_name = "documents/position.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # Edit links where the scope may edit the position's fund (the selector knows it once read).
        page = selectors.position_in_document(
            document_id=kwargs["document_id"], position_id=kwargs["position_id"], with_edit_urls=True, scope=self.scope
        )
        context.update(page=page, **vars_of(page))
        return context


class HistoryForm(DateRangeQueryForm):
    """`?from=&to=` date range, `?compare=<version id>` and `?with=<version id>` (the other
    side, default the current document); field names map to those parameters."""

    PARAMETERS = {**DateRangeQueryForm.PARAMETERS, "against": "with"}

    start = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, label="To", widget=forms.DateInput(attrs={"type": "date"}))
    compare = forms.CharField(required=False, widget=forms.HiddenInput)
    against = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_compare(self) -> str:
        return _version_id(self.cleaned_data["compare"])

    def clean_against(self) -> str:
        return _version_id(self.cleaned_data["against"])


def _version_id(value: str) -> str:
    if value:
        try:
            parse_version_id(value)
        except InvalidId as error:
            raise forms.ValidationError(describe(error)) from None
    return value


class DocumentHistoryView(ScopedMixin, TemplateView):
    """Superseded versions in a date range (SK BETWEEN, pattern 8) and any two versions compared,
    header and per-position amounts (`documents.version_compare`).

    Requests: GetItem (current) + one Query per versioned kind (+ for `compare`: one Query of the
    partition and one of its entry history).
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
        context["comparison"] = None
        if form.is_bound and not form.is_valid():
            # Errors are shown beside the form; only the current document is read.
            document = selectors.document_header(document_id=document_id, scope=self.scope)
            history = selectors.DocumentHistory(document, [], [])
        else:
            data = form.cleaned_data if form.is_bound else {}
            history = selectors.document_history(
                document_id=document_id, start=data.get("start"), end=data.get("end"), scope=self.scope
            )
            if data.get("compare"):
                context["comparison"] = version_compare.compare_versions(
                    document_id=document_id,
                    older_id=data["compare"],
                    newer_id=data.get("against") or version_compare.CURRENT,
                    scope=self.scope,
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
        params.pop("with", None)
        return params.urlencode()
