"""A speed-up, kept apart: the Jinja2 `build_chart()` global keeps each chart's view model per
process, keyed by everything it is made of.

`fundportal.charts.build_chart` is a function of its points (dates and Decimal amounts), the
currency and the chart's id alone, and its result is frozen (tuples of texts and numbers). A
position page builds its chart on every view: the pixel positions, grid, labels and legend
computed anew with Decimal arithmetic. The memo is keyed by the points themselves (not by the
position), so a changed entry makes other points and another chart: it can never show a chart
of data the page no longer holds. Bounded (`KEPT` charts); points that cannot be hashed are
drawn without it.

On by default; `FUNDPORTAL_TEMPLATE_CHART_MEMO=false` (or `FUNDPORTAL_SPEED_TRICKS=off`) leaves
`build_chart` itself. `PerfConfig.ready()` installs it through
`fundportal.jinja2.add_environment_customizer`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from jinja2 import Environment

from fundportal.charts import ChartPoint, CumulativeChart, build_chart

GLOBAL = "build_chart"
KEPT = 512


@functools.lru_cache(maxsize=KEPT)
def _chart(points: tuple[ChartPoint, ...], currency: str, chart_id: str) -> CumulativeChart | None:
    return build_chart(points, currency, chart_id)


def cached_chart(
    points: Sequence[ChartPoint], currency: str = "USD", chart_id: str = "chart"
) -> CumulativeChart | None:
    """`build_chart(points, currency, chart_id)`, once per distinct (points, currency, id)."""
    try:
        return _chart(tuple(points), currency, chart_id)
    except TypeError:  # something in the points cannot be hashed
        return build_chart(points, currency, chart_id)


def install(env: Environment) -> None:
    env.globals[GLOBAL] = cached_chart
