"""A speed-up, kept apart: the position page's document filter form, when no filter is asked
for, drawn once per process for each set of document types its rows hold.

With none of its parameters in the query, the form (`positions.document_filters.unasked_form`)
is a function of the rows' document types alone: its fields, their attributes and options come
from the form's class and those types. Django builds it anew on every page (its fields copied, the
form bound and cleaned, each field's widget attributes and options made): a fixed cost of the page.
The drawn form is kept per set of types (a bounded cache; the types are the few of
`DOCUMENT_TYPES`); a page asked for a filter binds and checks its form as before.

On by default; `FUNDPORTAL_FILTER_FORM_MEMO=false` (or `FUNDPORTAL_SPEED_TRICKS=off`) builds it on
every page. `PerfConfig.ready()` installs it (`positions.document_filters.draw_unasked_with`).
"""

from __future__ import annotations

import functools

KEPT = 256


def install() -> None:
    from positions import document_filters

    document_filters.draw_unasked_with(functools.lru_cache(maxsize=KEPT)(document_filters.unasked_form))


def uninstall() -> None:
    from positions import document_filters

    document_filters.draw_unasked_with(None)
