"""The Jinja2 environment of the project's page templates (`templates/jinja2/`: the layout and
every page, error page and fragment); its filters and functions: `when` and `url` here, the
others in fundportal/jinja_globals.py."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone
from jinja2 import Environment

from fundportal import jinja_globals

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
    """`{% url name arg %}`: Django's `reverse()`."""
    return reverse(name, args=[str(arg) for arg in args])


def url_for(name: str) -> Callable[..., str]:
    """The URLs of one route, for a table's rows: `{% set position_url = url_for("positions:detail") %}`
    before the loop, `{{ position_url|href(row.position_id) }}` in it (each is `url(name, *args)`)."""
    return functools.partial(url, name)


def href(route: Callable[..., str], *args: Any) -> str:
    """`{{ route|href(id) }}`: the URL of a `url_for` route for these arguments. A filter, so a
    long table's rows call it directly (a template's function calls go through its context)."""
    return route(*args)


EnvironmentCustomizer = Callable[[Environment], None]
_customizers: list[EnvironmentCustomizer] = []


def add_environment_customizer(customizer: EnvironmentCustomizer) -> None:
    """Call `customizer(env)` on every environment made from now on (optional parts, e.g.
    `fundportal.perf`'s URL cache, replace a global or a filter this way)."""
    if customizer not in _customizers:
        _customizers.append(customizer)


def environment_customizers() -> tuple[EnvironmentCustomizer, ...]:
    return tuple(_customizers)


def remove_environment_customizer(customizer: EnvironmentCustomizer) -> None:
    if customizer in _customizers:
        _customizers.remove(customizer)


def environment(**options: Any) -> Environment:
    options.pop("autoescape", None)  # always on, whatever the settings say
    env = Environment(autoescape=True, **options)
    env.filters.update(when=when, href=href)
    env.globals.update(url=url, url_for=url_for)
    jinja_globals.install(env)
    for customize in _customizers:
        customize(env)
    return env
