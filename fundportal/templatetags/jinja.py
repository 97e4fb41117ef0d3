"""`{% jinja "name" %}`: render part of a page (a long table's rows) with a compiled Jinja2
template from `templates/jinja2/`, given the surrounding template's context.

Why: Django's template language resolves every `{{ row.x }}` at run time (about 5 µs each); the
rows of a 100-position document or a 1,000-position fund are thousands of such lookups, most of
the page's time. Jinja2 compiles the same markup to Python once. The fragment autoescapes like a
Django template (values Django marked safe stay safe: both honour `__html__`).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template import engines

register = template.Library()


def render_jinja(name: str, context: dict[str, Any]) -> str:
    """The Jinja2 template `name` (compiled once, then cached) rendered with `context`."""
    return engines["jinja2"].env.get_template(name).render(context)


class JinjaNode(template.Node):
    def __init__(self, name: str) -> None:
        self.name = name

    def render(self, context: template.Context) -> str:
        return render_jinja(self.name, context.flatten())


@register.tag
def jinja(parser: template.base.Parser, token: template.base.Token) -> JinjaNode:
    bits = token.split_contents()
    if len(bits) != 2 or len(bits[1]) < 3 or bits[1][0] != bits[1][-1] or bits[1][0] not in "'\"":
        raise template.TemplateSyntaxError('{% jinja "name" %} takes one quoted template name')
    return JinjaNode(bits[1][1:-1])
