"""The position page's document filter fields are drawn by its own template from
`DocumentFilterForm.inputs`: the same HTML as Django's widgets draw, whatever was asked for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest
from django.http import QueryDict
from django.template import engines

from positions.document_filters import DocumentFilterForm

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
