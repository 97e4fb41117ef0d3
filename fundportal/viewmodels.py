"""Small helpers the selectors and views share to build view models."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def vars_of(model: Any) -> dict[str, Any]:
    """A view model's fields as template variables (slots dataclasses have no __dict__)."""
    return {name: getattr(model, name) for name in model.__dataclass_fields__}


@functools.lru_cache(maxsize=50_000)
def _reversed(urlconf: str, prefix: str, name: str, args: tuple[str, ...]) -> str:
    return reverse(name, urlconf=urlconf, args=args)


def memo_reverse() -> Callable[..., str]:
    """`url(name, *args)` is `reverse(name, args=args)` through a process-wide cache: a URL depends only on the
    URLconf, the script prefix, the name and the id, all part of the key, so a fund page's
    thousand rows cost one `reverse()` each the first time and a dictionary look-up after
    (Django's `reverse()` is ~15 µs; a document page needs 300 of them)."""
    urlconf, prefix = get_urlconf() or settings.ROOT_URLCONF, get_script_prefix()

    def url(name: str, *args: str) -> str:
        return _reversed(urlconf, prefix, name, args)

    return url
