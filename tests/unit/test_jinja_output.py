"""The Jinja2 environment's output escaping (fundportal/jinja2.py): every `{{ value }}` writes
exactly what Jinja2's own autoescaping writes, only without a `Markup` object per value."""

from __future__ import annotations

from decimal import Decimal

import jinja2
import pytest
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from markupsafe import Markup, escape

from fundportal.jinja2 import environment, escape_output

VALUES = [
    "plain",
    "",
    "<script>alert('x')</script>",
    "a \"quoted\" & <tagged> 'single'",
    "ünïcödé — €",
    Markup("<b>already safe</b>"),
    mark_safe("<i>Django safe</i>"),
    gettext_lazy("Documents"),
    42,
    Decimal("-1234.50"),
    None,
    True,
    ["<a>", "b"],
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_escape_output_writes_what_markupsafe_escape_writes(value):
    written = escape_output(value)
    assert isinstance(written, str)
    assert str(written) == str(escape(value))
    if not hasattr(value, "__html__"):
        assert type(written) is str  # no Markup built for a plain value


SOURCE = (
    "<p title='{{ value }}'>{{ value }}</p>{{ value|upper }}{% set joined %}[{{ value }}]{% endset %}{{ joined }}"
    "{% macro shown(v) %}<m>{{ v }}</m>{% endmacro %}{{ shown(value) }}{% for v in [value, value] %}{{ v }}{% endfor %}"
    "{% autoescape false %}{{ '<raw>' }}{% endautoescape %}{{ '<b>'|safe }}{{ value ~ '<' }}"
)


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_templates_render_exactly_as_jinja2_autoescaping_does(value):
    reference = jinja2.Environment(autoescape=True)
    portal = environment()
    context = {"value": value}
    assert portal.from_string(SOURCE).render(context) == reference.from_string(SOURCE).render(context)


def test_the_compiled_template_calls_escape_output_not_markup_escape():
    code = environment().compile("{{ value }}", raw=True)
    assert "environment.escape_output(" in code
    assert "escape(" not in code.replace("escape_output(", "")
