"""The filters and functions the page templates use besides Jinja2's own: how a figure, a ratio,
a percentage or a count's plural is shown, static file URLs and the chart's view model. One
formatting rule each (fundportal.domain.money), registered on the Jinja2 environment by
`install(env)` (fundportal/jinja2.py)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django.template.defaultfilters import floatformat, pluralize
from django.templatetags.static import static
from jinja2 import Environment
from markupsafe import escape
from moneyed import Money

from fundportal.charts import build_chart
from fundportal.domain.money import EM_DASH, format_money, format_percent, format_ratio
from fundportal.domain.money import money as make_money


def money(value: object, currency: str = "USD") -> str:
    """`{{ figure|money }}` for a Money, `{{ amount|money("USD") }}` for a Decimal → 'USD 1,250,000.00'."""
    if isinstance(value, Money) or value is None:
        return format_money(value)
    if value == "":
        return EM_DASH
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value))
        return format_money(make_money(amount, currency))
    except (InvalidOperation, ValueError, TypeError):
        return EM_DASH


def multiple(value: object) -> str:
    """A ratio such as DPI: Decimal('0.16') → '0.16x'; None → '—'."""
    if value is None or value == "":
        return EM_DASH
    try:
        return format_ratio(value if isinstance(value, Decimal) else Decimal(str(value)))
    except InvalidOperation:
        return EM_DASH


TENTH = Decimal("0.1")


def tenths(value: float | int | Decimal) -> str:
    """`{{ ms|tenths }}`: a count or a duration to one decimal, as Django's `floatformat(value, 1)`
    shows it with the portal's settings (no thousand separator): rounded half up from the number's
    shortest text, always one decimal ("3.0"), never "-0.0". The footer's figures on every page:
    without `floatformat`'s general cases (other precisions, grouping, localisation)."""
    try:
        rounded = Decimal(repr(value) if isinstance(value, float) else value).quantize(TENTH, rounding=ROUND_HALF_UP)
    except (InvalidOperation, TypeError, ValueError):
        return str(floatformat(value, 1))
    return str(rounded if rounded else rounded.copy_abs())


def percent(value: Decimal | None) -> str:
    """A register percentage (% called, IRR): Decimal('62.5') → '62.5 %'; None → '—' (undefined)."""
    return EM_DASH if value == "" else format_percent(value)


FILTERS: dict[str, Any] = {
    # A formatted figure in a row macro's `{% autoescape false %}` region, escaped here
    # (fundportal.perf.unescaped_figures makes it `str`: the formatters' output needs no escaping).
    "figure": escape,
    # Any other value in such a region (ids, links, statuses): escaped, always
    # (fundportal.perf.escape_memo escapes each distinct text once).
    "escaped": escape,
    "money": money,
    "multiple": multiple,
    "percent": percent,
    "pluralize": pluralize,  # Django's: `n|pluralize`, `n|pluralize("y,ies")`
    "floatformat": floatformat,  # Django's: `value|floatformat(1)`
    "tenths": tenths,  # `value|floatformat(1)` for the footer's numbers, without floatformat's general cases
}
GLOBALS: dict[str, Any] = {
    "static": static,  # `static('css/portal.css')`: the staticfiles storage's URL
    # `{% with chart=build_chart(points, currency, chart_id) %}{% include "charts/cumulative.html" %}`
    "build_chart": build_chart,
}


def install(env: Environment) -> None:
    """Register the filters and functions above on `env`."""
    env.filters.update(FILTERS)
    env.globals.update(GLOBALS)
