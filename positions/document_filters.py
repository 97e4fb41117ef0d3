"""The position page's documents filtered by period (`?from_date=&to_date=`, the documents'
as-of dates, both ends included), in memory on the rows the page's one Query returned: no
request more. The headline figures, the running figures and the chart stay the whole
position's (the page says so while a filter is on)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django import forms

from positions.selectors import DocumentRow


class DocumentPeriodForm(forms.Form):
    from_date = forms.DateField(required=False, label="From (as of)", widget=forms.DateInput(attrs={"type": "date"}))
    to_date = forms.DateField(required=False, label="To (as of)", widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        start, end = data.get("from_date"), data.get("to_date")
        if start and end and start > end:
            raise forms.ValidationError("The period's start is after its end.", code="period_reversed")
        return data


@dataclass(frozen=True, slots=True)
class DocumentPeriod:
    """The period asked for (either end may be open); the empty one keeps every row."""

    start: date | None = None
    end: date | None = None

    @property
    def active(self) -> bool:
        return self.start is not None or self.end is not None

    @property
    def params(self) -> dict[str, str]:
        """The query parameters that keep the filter on a link (a page of the same position)."""
        held = {}
        if self.start is not None:
            held["from_date"] = self.start.isoformat()
        if self.end is not None:
            held["to_date"] = self.end.isoformat()
        return held

    def keeps(self, row: DocumentRow) -> bool:
        """A row dated within the period; an undated row only when no filter is on."""
        if not self.active:
            return True
        if row.as_of_date is None:
            return False
        return (self.start is None or row.as_of_date >= self.start) and (self.end is None or row.as_of_date <= self.end)


def document_period(form: DocumentPeriodForm) -> DocumentPeriod:
    """The period of a bound form: empty when it is not valid (its errors are shown instead)."""
    if not form.is_valid():
        return DocumentPeriod()
    return DocumentPeriod(form.cleaned_data.get("from_date"), form.cleaned_data.get("to_date"))


def filter_rows(rows: list[DocumentRow], period: DocumentPeriod) -> list[DocumentRow]:
    return [row for row in rows if period.keeps(row)]
