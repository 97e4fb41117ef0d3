"""The Jinja2 environment of the project's page templates (`templates/jinja2/`: the layout and
every page, error page and fragment); its filters and functions: `when` and `url` here, the
others in fundportal/jinja_globals.py."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.utils import timezone
from jinja2 import Environment
from jinja2.compiler import CodeGenerator
from markupsafe import _escape_inner  # the routine markupsafe's escape() uses (C, else Python)

from fundportal import jinja_globals
from fundportal.viewmodels import memo_reverse

ISO_DATE = "%Y-%m-%d"


def when(value: date | datetime | None, fmt: str = ISO_DATE) -> str:
    """Django's `|date:"Y-m-d"`: a datetime is shown in the current time zone; "" for None."""
    if value is None or value == "":
        return ""
    if type(value) is date and fmt == ISO_DATE:
        return value.isoformat()  # the same text, without strftime's format parsing
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return value.strftime(fmt)


def url(name: str, *args: Any) -> str:
    """`{% url name arg %}`: reverse() through the process-wide cache (fundportal.viewmodels)."""
    return memo_reverse()(name, *(str(arg) for arg in args))


def escape_output(value: Any) -> str:
    """What `{{ value }}` writes: exactly markupsafe's `escape(value)`, as a plain `str`.

    markupsafe's `escape` wraps every result in a new `Markup` object, which the template then
    joins into one string and drops: half of the document page's Jinja time (~2,400 values).
    The same routine escapes the same characters; values with `__html__` (Markup, forms,
    Django's safe strings) are written as they are, like `escape` does.
    """
    if type(value) is str:
        return _escape_inner(value)
    html = getattr(value, "__html__", None)
    if html is not None:
        return html()
    return _escape_inner(str(value))


class OutputCodeGenerator(CodeGenerator):
    """Compiles an autoescaped `{{ value }}` to `environment.escape_output(value)` instead of
    `escape(value)` (Jinja2's documented extension point for the Python a template compiles to).
    `{% autoescape %}` blocks (volatile) and non-escaping output keep Jinja2's own code."""

    def _output_child_pre(self, node: Any, frame: Any, finalize: Any) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape:
            super()._output_child_pre(node, frame, finalize)
            return
        self.write("environment.escape_output(")
        if finalize.src is not None:
            self.write(finalize.src)


class PortalEnvironment(Environment):
    code_generator_class = OutputCodeGenerator
    escape_output = staticmethod(escape_output)


def environment(**options: Any) -> Environment:
    options.pop("autoescape", None)  # always on, whatever the settings say
    env = PortalEnvironment(autoescape=True, **options)
    env.filters.update(when=when)
    env.globals.update(url=url)
    jinja_globals.install(env)
    return env
