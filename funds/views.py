"""Analyst pages about funds and investors, read from the position register.

Requests: `/funds/<fund>/` one Query, `/investors/<investor>/` one Query, `/funds/` one Query
of the funds catalog plus one Query per fund (fund totals are summed at read time)."""

from __future__ import annotations

from typing import Any

from django.views.generic import TemplateView

from fundportal.web.mixins import ScopedMixin
from fundportal.web.time_travel import TimeTravelMixin
from funds import selectors
from funds.as_of import as_of_page


class FundListView(ScopedMixin, TemplateView):
    template_name = "funds/list.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["funds"] = selectors.fund_list(scope=self.scope)
        return context


class FundDetailView(ScopedMixin, TimeTravelMixin, TemplateView):
    """`?as_of=`: the lines valued then, one BatchGetItem more (`funds.as_of`)."""

    template_name = "funds/detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        page = selectors.fund_detail(fund_id=kwargs["fund_id"], scope=self.scope)
        context["page"] = as_of_page(page, self.time_travel)
        return context


class InvestorDetailView(ScopedMixin, TimeTravelMixin, TemplateView):
    """`?as_of=`: the lines valued then, one BatchGetItem more (`funds.as_of`)."""

    template_name = "funds/investor.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        page = selectors.investor_detail(investor_id=kwargs["investor_id"], scope=self.scope)
        context["page"] = as_of_page(page, self.time_travel)
        context["fund_pages"] = self.scope.sees_fund_totals  # an LP user has no fund pages
        return context
