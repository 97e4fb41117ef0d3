"""A speed-up, kept apart: the long tables' ids, links and statuses are HTML-escaped once per
distinct text, not once per output.

A 100-position document page outputs about two thousand of them (each position id four times,
its links, each entry's status), and markupsafe's `escape()` builds a new `Markup` each time.
The row macros put those values in their `{% autoescape false %}` regions through the
`|escaped` filter (`fundportal.jinja_globals`: markupsafe's `escape` on the plain path), so they
are still escaped, every one. This trick makes `|escaped` look the escaped text up in a bounded,
process-wide memo of `escape()`'s results: the same text for the same input, computed by
markupsafe the first time (escaping depends on nothing but the text). Only plain `str` values are
memoised; anything else (a `Markup`, a number, None) goes to `escape()` as before.

On by default; `FUNDPORTAL_TEMPLATE_ESCAPE_MEMO=false` (or `FUNDPORTAL_SPEED_TRICKS=off`) leaves
`|escaped` as `escape`. `PerfConfig.ready()` installs it through
`fundportal.jinja2.add_environment_customizer`.
"""

from __future__ import annotations

import functools
from typing import Any

from jinja2 import Environment
from markupsafe import escape

FILTER = "escaped"
MEMOISED = 50_000  # distinct texts kept (ids and links: about 100 characters each at most)


@functools.lru_cache(maxsize=MEMOISED)
def _escaped_text(text: str) -> str:
    return str(escape(text))


def escape_once(value: Any) -> str:
    """`str(escape(value))`, from the memo for a plain `str`."""
    return _escaped_text(value) if type(value) is str else str(escape(value))


def install(env: Environment) -> None:
    env.filters[FILTER] = escape_once
