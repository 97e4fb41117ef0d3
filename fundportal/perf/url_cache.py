"""A speed-up, kept apart: the Jinja2 `url()` global reverses each URL once per process.

A URL depends only on the URLconf, the script prefix, the name and the arguments, all part of
the cache's key, so a fund page's thousand rows cost one `reverse()` each the first time and a
dictionary look-up after (a 100-position document page needs hundreds of them). Selectors and
view models never see it: their URL properties are plain `reverse()`.

On by default; `FUNDPORTAL_TEMPLATE_URL_CACHE=false` turns it off (the global is then
`fundportal.jinja2.url`, Django's `reverse()`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from jinja2 import Environment

CACHED_URLS = 50_000


@functools.lru_cache(maxsize=CACHED_URLS)
def _reversed(urlconf: str, prefix: str, name: str, args: tuple[str, ...]) -> str:
    """The URL under `prefix`, whatever the script prefix is while it is computed (a route's
    builder made during one request may be called after the prefix changed)."""
    url, current = reverse(name, urlconf=urlconf, args=args), get_script_prefix()
    return prefix + url[len(current) :] if url.startswith(current) else url


def cached_url(name: str, *args: Any) -> str:
    """`reverse(name, args=args)`, once per (URLconf, script prefix, name, args)."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    return _reversed(urlconf, get_script_prefix(), name, tuple(map(str, args)))


def cached_url_for(name: str) -> Callable[..., str]:
    """`url_for(name)` through the same cache, the URLconf and script prefix read once (a table's
    rows share them: they are the request's) instead of once a row."""
    urlconf, prefix = get_urlconf() or settings.ROOT_URLCONF, get_script_prefix()

    def url(*args: Any) -> str:
        return _reversed(urlconf, prefix, name, tuple(map(str, args)))

    return url


def install(env: Environment) -> None:
    env.globals["url"] = cached_url
    env.globals["url_for"] = cached_url_for
