"""Every URL of the site, found by walking the resolver (so new pages are covered as they land),
and a way to fill in its parameters with chosen or dummy valid values."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern

_ROUTE_PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>\w+)>")
_REGEX_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>(?P<body>[^)]*)\)")

# Dummy valid values by parameter name: ids of the seed sample, where they exist.
DUMMY = {
    "document_id": "DOC001",
    "position_id": "POSITION_1",
    "fund_id": "FUND_A",
    "investor_id": "INVESTOR_1",
    "kind": "capital_call",
    "content_type_id": "1",
    "object_id": "1",
    "app_label": "auth",
    "url": "no-such-page/",
    "job_id": "00000000-0000-4000-8000-000000000000",  # no such import job
    "pk": "1",  # an API token (none exists)
}
PUBLIC = {"/healthz", "/accounts/login/", "/admin/login/"}
# The read API signs in by token, not by session, and answers in problem details: its own suite
# (tests/web/api) walks its routes; the site's pages are the routes below.
API_PREFIX = "/api/v1/"


@dataclass(frozen=True)
class Route:
    template: str  # e.g. "/documents/<str:document_id>/", regex parts reduced to plain text
    params: tuple[str, ...]
    name: str | None

    @property
    def is_admin(self) -> bool:
        return self.template.startswith("/admin/")

    def build(self, values: dict[str, str] | Callable[[str], str] | None = None) -> str:
        def value(name: str) -> str:
            if callable(values):
                return values(name)
            if values and name in values:
                return values[name]
            return DUMMY.get(name, "x1")

        return _ROUTE_PARAM.sub(lambda m: value(m["name"]), self.template)


def _plain(pattern) -> str:
    text = str(pattern)
    if isinstance(pattern, RegexPattern):
        text = text.lstrip("^").rstrip("$")
        text = _REGEX_GROUP.sub(lambda m: f"<{m['name']}>", text)
    return text


def routes() -> list[Route]:
    found: list[Route] = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + _plain(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                template = "/" + prefix + _plain(pattern.pattern)
                if template.startswith(API_PREFIX):
                    continue
                params = tuple(m["name"] for m in _ROUTE_PARAM.finditer(template))
                found.append(Route(template, params, pattern.name))

    walk(get_resolver().url_patterns, "")
    return found


def analyst_routes() -> list[Route]:
    """The project's own pages (documents, positions, the DynamoDB admin dashboard)."""
    prefixes = ("/documents/", "/positions/", "/funds/", "/investors/", "/admin/dynamodb/")
    return [r for r in routes() if r.template.startswith(prefixes)]
