"""A speed-up, kept apart: the long tables' formatted figures are output without HTML escaping.

Autoescape runs markupsafe's `escape()` on every `{{ value }}`: a Python call that builds a
`Markup` each time (about a microsecond) for text that never needs it. A fund page's line has
fifteen figures, strings made by `fundportal.domain.money`'s formatters: an ISO currency code,
digits, ",", ".", "-", " ", "x", "%", "—" or an ISO date (`tests/unit/test_unescaped_figures.py`
checks no formatter output holds a character HTML escapes).

The row macros put those cells in an `{% autoescape false %}` region (Jinja2's own statement)
where every value goes through the `|figure` filter, and nothing else is output
(`tests/unit/test_unescaped_figures.py` parses the templates and fails on any other value in
such a region). `|figure` is markupsafe's `escape` (`fundportal.jinja_globals`): the plain path
escapes every figure as before. This trick makes it `str`. Ids, statuses and any other text taken
from the data stay outside those regions, autoescaped.

On by default; `FUNDPORTAL_TEMPLATE_UNESCAPED_FIGURES=false` (or `FUNDPORTAL_SPEED_TRICKS=off`)
leaves `|figure` escaping. `PerfConfig.ready()` installs it through
`fundportal.jinja2.add_environment_customizer`.
"""

from __future__ import annotations

from jinja2 import Environment

FILTER = "figure"


def install(env: Environment) -> None:
    env.filters[FILTER] = str
