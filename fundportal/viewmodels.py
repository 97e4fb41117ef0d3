"""Small helpers the selectors and views share to build view models."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.urls import reverse


def vars_of(model: Any) -> dict[str, Any]:
    """A view model's fields as template variables (slots dataclasses have no __dict__)."""
    return {name: getattr(model, name) for name in model.__dataclass_fields__}


def memo_reverse() -> Callable[[str, str], str]:
    """`reverse(name, args=(value,))`, each (name, value) reversed once for the page being built:
    a fund page's thousand rows share one fund URL, a document's rows one fund and few investors."""

    @functools.cache
    def url(name: str, value: str) -> str:
        return reverse(name, args=(value,))

    return url
