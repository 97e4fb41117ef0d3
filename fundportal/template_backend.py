"""Django's template engine, letting go of each page's data when its render ends.

Django's `make_context` pushes the view's context into a `RequestContext` and never pops it;
the pushed `ContextDict` points back at the `RequestContext`. That reference cycle keeps every
page's view model (a 100-position document: ~2,500 rows, cells, entities and Money objects)
alive until the cycle collector runs, which then spends milliseconds walking and freeing it.
Emptying the context's stack after rendering breaks the cycle, so reference counting frees the
page's data at once. (Saleor and Baserow break their per-request cycles for the same reason.)
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template import TemplateDoesNotExist
from django.template.backends import django as django_backend
from django.template.context import make_context
from django.utils.safestring import SafeString


class Template(django_backend.Template):
    def render(self, context: dict[str, Any] | None = None, request: HttpRequest | None = None) -> SafeString:
        context = make_context(context, request, autoescape=self.backend.engine.autoescape)
        try:
            return self.template.render(context)
        except TemplateDoesNotExist as exc:
            django_backend.reraise(exc, self.backend)
        finally:
            context.dicts.clear()


class DjangoTemplates(django_backend.DjangoTemplates):
    """`django.template.backends.django.DjangoTemplates` whose templates break the cycle above."""

    def from_string(self, template_code: str) -> Template:
        return Template(self.engine.from_string(template_code), self)

    def get_template(self, template_name: str) -> Template:
        try:
            return Template(self.engine.get_template(template_name), self)
        except TemplateDoesNotExist as exc:
            django_backend.reraise(exc, self)
