"""`{% jinja "name" %}`: render part of a page (a long table's rows) with a compiled Jinja2
template from `templates/jinja2/`, given the surrounding template's context.
`{% jinja_layout %}`: put a Django-language page into the one layout, `layout.html` (Jinja2).

Why: Django's template language resolves every `{{ row.x }}` at run time (about 5 µs each); the
rows of a 100-position document or a 1,000-position fund are thousands of such lookups, most of
the page's time. Jinja2 compiles the same markup to Python once. The fragment autoescapes like a
Django template (values Django marked safe stay safe: both honour `__html__`).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template import engines
from django.template.loader_tags import BlockNode
from django.utils.safestring import SafeString

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


# What the layout reads that a bare render (the 500 page: no request, no context processors) lacks.
LAYOUT_DEFAULTS = {"user": None, "request": None, "messages": (), "dynamodb_requests": None, "csrf_token": ""}


class JinjaLayoutNode(template.Node):
    """Renders its `{% block %}`s with Django (so child templates override them as usual) and
    hands them to `django_layout.html` as `slots`: the layout's markup lives once, in Jinja2."""

    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist  # searched by {% extends %} for the blocks a child overrides
        self.blocks = [node for node in nodelist if isinstance(node, BlockNode)]

    def render(self, context: template.Context) -> str:
        slots = {block.name: SafeString(block.render(context)) for block in self.blocks}
        return render_jinja("django_layout.html", {**LAYOUT_DEFAULTS, **context.flatten(), "slots": slots})


@register.tag
def jinja_layout(parser: template.base.Parser, token: template.base.Token) -> JinjaLayoutNode:
    if len(token.split_contents()) != 1:
        raise template.TemplateSyntaxError("{% jinja_layout %} takes no arguments")
    nodelist = parser.parse(("endjinja_layout",))
    parser.delete_first_token()
    strays = [node for node in nodelist if not isinstance(node, BlockNode) and not _blank(node)]
    if strays:
        raise template.TemplateSyntaxError("{% jinja_layout %} holds only {% block %}s")
    return JinjaLayoutNode(nodelist)


def _blank(node: template.Node) -> bool:
    return isinstance(node, template.base.TextNode) and not node.s.strip()
