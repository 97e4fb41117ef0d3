"""Analyst pages about funds and investors, read from the position register.

Requests: `/funds/<fund>/` one BatchGetItem (the fund's summary shards) and one Query (a page
of 100 positions), `/investors/<investor>/` one Query, `/funds/` one Query of the funds catalog
plus one BatchGetItem per 100 summary shards."""

from __future__ import annotations

from typing import Any

from django.views.generic import TemplateView

from fundportal.web.mixins import ScopedMixin
from fundportal.web.paging import page_links
from fundportal.web.time_travel import TimeTravelMixin
from funds import investor_pages, selectors
from funds.as_of import as_of_page
from funds.line_sorting import LineSort, sort_headers


class FundListView(ScopedMixin, TemplateView):
    template_name = "funds/list.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["funds"] = selectors.fund_list(scope=self.scope)
        return context


class FundDetailView(ScopedMixin, TimeTravelMixin, TemplateView):
    """`?as_of=`: the lines valued then, one BatchGetItem more (`funds.as_of`); `?known_at=`: the
    summary and lines as they stood then, one Query more (`funds.known_at`)."""

    template_name = "funds/detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        cursor = self.request.GET.get("cursor") or None
        travel = self.time_travel
        page = selectors.fund_detail(
            fund_id=kwargs["fund_id"], as_of=travel.as_of, cursor=cursor, scope=self.scope, known_at=travel.known_at
        )
        context["page"] = as_of_page(page, self.time_travel)
        context["edits_records"] = self.scope.can_edit(kwargs["fund_id"])  # the record header's edit link
        return context


class InvestorDetailView(ScopedMixin, TimeTravelMixin, TemplateView):
    """`?as_of=`: valued then from the whole registers the page already reads (no further request);
    `?known_at=`: the registers as they stood then, one Query more (`funds.known_at`)."""

    template_name = "funds/investor.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        sort = LineSort.parse(self.request.GET.get("sort"))  # across every position (`funds.line_sorting`)
        view = investor_pages.investor_view(
            investor_id=kwargs["investor_id"],
            cursor=self.request.GET.get("cursor") or None,
            as_of=self.time_travel.as_of,
            scope=self.scope,
            known_at=self.time_travel.known_at,
            sort=sort,
        )
        context.update(
            page=view.page,
            pager=view.pager,
            page_links=page_links(self.request.GET, view.pager),
            positions=view.positions,
            reconciliation=view.reconciliation,
            sorting=sort,
            sort_headers=sort_headers(dict(self.request.GET.lists()), sort),
        )
        context["fund_pages"] = self.scope.sees_fund_totals  # an LP user has no fund pages
        context["edits_records"] = any(self.scope.can_edit(r.fund_id) for r in view.registers)
        return context
