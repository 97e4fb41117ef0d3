"""The Jinja2 environment of the templates under `templates/jinja2/` (the hot pages' content,
rendered through `{% jinja %}`): the same filters as the Django templates use, so a figure is
shown the same way whichever engine renders it."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.template.defaultfilters import pluralize
from django.utils import timezone
from jinja2 import Environment

from fundportal.templatetags.charts import build_chart
from fundportal.templatetags.money import money, multiple
from fundportal.viewmodels import memo_reverse
from funds.templatetags.fund_figures import percent


def when(value: date | datetime | None, fmt: str = "%Y-%m-%d") -> str:
    """Django's `|date:"Y-m-d"`: a datetime is shown in the current time zone; "" for None."""
    if value is None or value == "":
        return ""
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return value.strftime(fmt)


def url(name: str, *args: Any) -> str:
    """`{% url name arg %}`: reverse() through the process-wide cache (fundportal.viewmodels)."""
    return memo_reverse()(name, *(str(arg) for arg in args))


def environment(**options: Any) -> Environment:
    options.pop("autoescape", None)  # always on, whatever the settings say
    env = Environment(autoescape=True, **options)
    env.filters.update(money=money, multiple=multiple, percent=percent, when=when, pluralize=pluralize)
    env.globals.update(url=url, build_chart=build_chart)
    return env
