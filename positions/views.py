"""Analyst pages about one position across documents (`GSI_Position_Document`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.views.generic import TemplateView

from fundportal.viewmodels import vars_of
from fundportal.web.mixins import ScopedMixin
from fundportal.web.time_travel import TimeTravelMixin
from positions import selectors
from positions.as_of import position_history_as_of
from positions.document_filters import filtered


class PositionDetailView(ScopedMixin, TimeTravelMixin, TemplateView):
    """A position across all documents: headline figures, a chart per currency, a row per document.

    One Query per page. `POSITION_PAGE_SIZE` (items per Query) defaults to `PAGE_ITEMS`: the
    register plus 100 documents' four entries. The index sorts by kind, then document (the seed's
    `CAPITAL_CALL#DOC001`), so a page is 400 entries in that order, not exactly 100 documents: a
    document's call and distribution can fall on different pages. The headline figures come from
    the register (first item of the first page), so they are the whole position's on every page.

    `?as_of=` / `?known_at=`: every document up to that date on one page, the figures valued
    then (`positions.as_of`), from one Query as well.
    """

    PAGE_ITEMS = 1 + 100 * 4

    template_engine = "jinja2"  # templates/jinja2/positions/detail.html
    template_name = "positions/detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        travel = self.time_travel
        if travel.active:  # every document up to the date on one page, from the same one Query
            history = position_history_as_of(
                position_id=kwargs["position_id"], as_of=travel.as_of, known_at=travel.known_at, scope=self.scope
            )
        else:
            history = selectors.position_history(
                position_id=kwargs["position_id"],
                cursor=self.request.GET.get("cursor") or None,
                page_size=getattr(settings, "POSITION_PAGE_SIZE", self.PAGE_ITEMS),
                with_edit_urls=True,  # where the scope may edit the position's fund
                scope=self.scope,
            )
        can_edit = bool(history.fund_id) and self.scope.can_edit(history.fund_id)
        context.update(history=history, can_edit=can_edit, fund_pages=self.scope.sees_fund_totals, **vars_of(history))
        # `?from_date=&to_date=&document_type=`: the page's documents in a period and of a type,
        # filtered in memory on the Query's rows (no request more).
        filter_form, filters, shown_rows = filtered(self.request.GET, history.rows)
        context.update(filter_form=filter_form, filters=filters, shown_rows=shown_rows)
        return context
