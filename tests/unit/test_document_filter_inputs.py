"""The position page's document filter fields are drawn by its own template from
`DocumentFilterForm.inputs`: the same HTML as Django's widgets draw, whatever was asked for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest
from django.http import QueryDict
from django.template import engines

from positions import document_filters
from positions.document_filters import DocumentFilter, DocumentFilterForm, document_filter, filter_rows, filtered

FIELDS = '{% for field in (form["from_date"], form["to_date"], form["document_type"]) %}{{ field }}|{% endfor %}'


@dataclass
class Row:
    document_type: str | None
    as_of_date: date | None = None


ROWS = [Row("capital_call"), Row("distribution_notice"), Row(None)]


@pytest.mark.parametrize(
    "query",
    [
        "",
        "from_date=&to_date=&document_type=",
        "from_date=2025-01-01",
        "from_date=2025-01-01&to_date=2025-12-31&document_type=capital_call",
        "from_date=not-a-date&document_type=nonsense",
        "from_date=2025-12-31&to_date=2025-01-01",
        "document_type=capital_call&document_type=distribution_notice",
        'from_date="><script>',
    ],
)
def test_the_filter_fields_are_drawn_as_djangos_widgets_draw_them(query):
    form = DocumentFilterForm(QueryDict(query), rows=ROWS)  # type: ignore[arg-type]
    form.is_valid()
    env = engines["jinja2"]
    django_drawn = env.from_string(FIELDS).render({"form": form})
    page = env.from_string(
        "{% with filter_form=form, filters=filters, time_travel=travel, shown_rows=[], rows=[] %}"
        '{% include "positions/_document_filters.html" %}{% endwith %}'
    ).render({"form": form, "filters": Filters(), "travel": Travel()})
    widgets = django_drawn.split("|")[:-1]
    assert len(widgets) == 3 and widgets[2].startswith("<select")
    for widget in widgets:
        assert widget in page, widget


@dataclass
class Filters:
    active: bool = False


class Travel:
    params: dict[str, str] = {}

    def query(self) -> str:
        return ""


@pytest.mark.parametrize("query", ["", "cursor=abc", "as_of=2025-09-30"])
def test_a_page_asked_for_no_filter_draws_the_form_django_draws_for_its_rows(query):
    params = QueryDict(query)
    form, filters, shown = filtered(params, ROWS)  # type: ignore[arg-type]
    assert form.inputs == tuple(DocumentFilterForm(params, rows=ROWS).inputs)  # type: ignore[arg-type]
    assert form.non_field_errors() == []
    assert (filters, filters.active, shown) == (DocumentFilter(), False, ROWS)


@pytest.mark.parametrize("query", ["from_date=", "document_type=capital_call", "to_date=not-a-date"])
def test_a_page_asked_for_a_filter_binds_and_checks_its_form(query):
    form, filters, shown = filtered(QueryDict(query), ROWS)  # type: ignore[arg-type]
    assert isinstance(form, DocumentFilterForm)
    assert filters == document_filter(form)
    assert shown == filter_rows(ROWS, filters)  # type: ignore[arg-type]


def test_the_unasked_form_is_kept_per_set_of_types_with_the_speed_trick():
    from fundportal.perf import filter_form_memo

    before = document_filters._unasked
    try:
        filter_form_memo.install()
        first, _, _ = filtered(QueryDict(""), ROWS)  # type: ignore[arg-type]
        again, _, _ = filtered(QueryDict(""), list(reversed(ROWS)))  # type: ignore[arg-type]
        other, _, _ = filtered(QueryDict(""), ROWS[:1])  # type: ignore[arg-type]
        assert first is again and other is not first
        assert other.inputs == tuple(DocumentFilterForm(QueryDict(""), rows=ROWS[:1]).inputs)  # type: ignore[arg-type]
        filter_form_memo.uninstall()
        assert filtered(QueryDict(""), ROWS)[0] is not filtered(QueryDict(""), ROWS)[0]  # type: ignore[arg-type]
    finally:
        document_filters.draw_unasked_with(before)
