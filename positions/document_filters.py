"""The position page's documents filtered by period (`?from_date=&to_date=`, the documents'
as-of dates, both ends included) and by document type (`?document_type=`, the types the page's
rows hold), in memory on the rows the page's one Query returned: no request more. The type is
the entries' copy of their document's (`PositionEntry.document_type`); a row without one
(written before the copies, not yet backfilled) is kept only with every type. The headline
figures, the running figures and the chart stay the whole position's (the page says so while a
filter is on)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from django import forms

from fundportal.domain.kinds import DOCUMENT_TYPES
from fundportal.web.document_types import type_label
from fundportal.web.forms import JINJA2_WIDGETS
from positions.selectors import DocumentRow

ALL_TYPES = ("", "All types")


class Typed(Protocol):
    """What the form reads of a row: its document type (None: no copy)."""

    @property
    def document_type(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class _Type:
    document_type: str | None


class DocumentFilterForm(forms.Form):
    default_renderer = JINJA2_WIDGETS  # the position page renders the fields in Jinja2
    from_date = forms.DateField(required=False, label="From (as of)", widget=forms.DateInput(attrs={"type": "date"}))
    to_date = forms.DateField(required=False, label="To (as of)", widget=forms.DateInput(attrs={"type": "date"}))
    document_type = forms.ChoiceField(required=False, label="Type", choices=[ALL_TYPES])

    def __init__(self, data: Any, *, rows: Sequence[Typed]) -> None:
        """`rows`: the page's rows, whose types the select offers (and the one asked for, kept
        while paging through pages that hold none of it)."""
        super().__init__(data)
        present = {row.document_type for row in rows if row.document_type}
        asked = data.get("document_type") if data else None
        if asked in DOCUMENT_TYPES:
            present.add(asked)
        field = self.fields["document_type"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [ALL_TYPES, *((t, type_label(t)) for t in sorted(present, key=type_label))]

    @property
    def inputs(self) -> list[FilterInput]:
        """The fields as the page draws them, in order: what Django's own widgets would render
        (`BoundField.build_widget_attrs`, the widget's `format_value` and `optgroups`), drawn by
        the page's template in place instead of through one widget template each."""
        shown = []
        for name in ("from_date", "to_date", "document_type"):
            bound = self[name]
            widget = bound.field.widget
            attrs = bound.build_widget_attrs({}, widget)
            attrs.setdefault("id", bound.auto_id)
            value = widget.format_value(bound.value())
            options: tuple[tuple[str, str, bool], ...] = ()
            if isinstance(widget, forms.Select):
                options = tuple(
                    (str(option["value"]), str(option["label"]), bool(option["selected"]))
                    for _, group, _ in widget.optgroups(bound.html_name, value)
                    for option in group
                )
            shown.append(
                FilterInput(
                    label=str(bound.label),
                    name=bound.html_name,
                    id_for_label=bound.id_for_label,
                    attrs=tuple(attrs.items()),
                    input_type="" if options else getattr(widget, "input_type", "text"),
                    value=None if options else value,
                    options=options,
                    errors=[str(error) for error in bound.errors],
                )
            )
        return shown

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        start, end = data.get("from_date"), data.get("to_date")
        if start and end and start > end:
            raise forms.ValidationError("The period's start is after its end.", code="period_reversed")
        return data


@dataclass(frozen=True, slots=True)
class FilterInput:
    """One field of the filter form as Django's widget would render it: its `attrs` after its
    name and value (Django's order: `aria-invalid`, `aria-describedby`, then `id`; True: the
    name alone), a date input's `value` (None: none), a select's `options` (value, label,
    selected) with `input_type` "". The page's template draws it, autoescaped."""

    label: str
    name: str
    id_for_label: str
    attrs: tuple[tuple[str, Any], ...]
    input_type: str
    value: str | None
    options: tuple[tuple[str, str, bool], ...]
    errors: list[str]


@dataclass(frozen=True, slots=True)
class DocumentFilter:
    """The period asked for (either end may be open) and the type ("": every type); the empty
    filter keeps every row."""

    start: date | None = None
    end: date | None = None
    document_type: str = ""

    @property
    def active(self) -> bool:
        return self.dated or bool(self.document_type)

    @property
    def dated(self) -> bool:
        """Whether a period is asked for."""
        return self.start is not None or self.end is not None

    @property
    def type_label(self) -> str:
        return type_label(self.document_type) if self.document_type else ""

    @property
    def params(self) -> dict[str, str]:
        """The query parameters that keep the filter on a link (a page of the same position)."""
        held = {}
        if self.start is not None:
            held["from_date"] = self.start.isoformat()
        if self.end is not None:
            held["to_date"] = self.end.isoformat()
        if self.document_type:
            held["document_type"] = self.document_type
        return held

    def keeps(self, row: DocumentRow) -> bool:
        """A row dated within the period (an undated row only when no period is asked for) and
        of the type asked for (a row without a type copy only with every type)."""
        if self.document_type and row.document_type != self.document_type:
            return False
        if not self.dated:
            return True
        if row.as_of_date is None:
            return False
        return (self.start is None or row.as_of_date >= self.start) and (self.end is None or row.as_of_date <= self.end)


def document_filter(form: DocumentFilterForm) -> DocumentFilter:
    """The filter of a bound form: empty when it is not valid (its errors are shown instead)."""
    if not form.is_valid():
        return DocumentFilter()
    data = form.cleaned_data
    return DocumentFilter(data.get("from_date"), data.get("to_date"), data.get("document_type") or "")


def filter_rows(rows: list[DocumentRow], filters: DocumentFilter) -> list[DocumentRow]:
    return [row for row in rows if filters.keeps(row)]


@dataclass(frozen=True, slots=True)
class DrawnForm:
    """The filter form as the page draws it when nothing is asked for: its fields
    (`DocumentFilterForm.inputs`) and no error."""

    inputs: tuple[FilterInput, ...]

    def non_field_errors(self) -> list[str]:
        return []


def unasked_form(types: tuple[str, ...]) -> DrawnForm:
    """The form of a page asked for no filter whose rows hold the document types `types`
    (sorted): what `DocumentFilterForm` draws with none of its parameters, a function of the
    types alone."""
    return DrawnForm(tuple(DocumentFilterForm({}, rows=[_Type(t) for t in types]).inputs))


_unasked: Callable[[tuple[str, ...]], DrawnForm] = unasked_form


def draw_unasked_with(builder: Callable[[tuple[str, ...]], DrawnForm] | None) -> None:
    """Build the unasked form with `builder` (None: `unasked_form` again): the speed trick
    `fundportal.perf.filter_form_memo` keeps each one per process."""
    global _unasked
    _unasked = builder or unasked_form


def filtered(
    params: Mapping[str, Any], rows: list[DocumentRow]
) -> tuple[DocumentFilterForm | DrawnForm, DocumentFilter, list[DocumentRow]]:
    """(the form to draw, the filter, the rows it keeps) for the page's query parameters. None of
    the filter's parameters asked for: no filter, every row, and the form drawn for the rows'
    types; else the bound form, its filter (empty when not valid) and the rows it keeps."""
    if not any(name in params for name in DocumentFilterForm.base_fields):
        return _unasked(tuple(sorted({row.document_type for row in rows if row.document_type}))), NO_FILTER, rows
    form = DocumentFilterForm(params, rows=rows)
    filters = document_filter(form)
    return form, filters, filter_rows(rows, filters)


NO_FILTER = DocumentFilter()
