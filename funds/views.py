"""Analyst pages about funds and investors, read from the position register.

Requests: `/funds/<fund>/` one Query, `/investors/<investor>/` one Query, `/funds/` one Query
of the funds catalog plus one Query per fund (fund totals are summed at read time)."""

from __future__ import annotations

from typing import Any

from django.views.generic import TemplateView

from fundportal.web.mixins import ScopedMixin
from funds import selectors


class FundListView(ScopedMixin, TemplateView):
    template_name = "funds/list.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["funds"] = selectors.fund_list(scope=self.scope)
        return context


class FundDetailView(ScopedMixin, TemplateView):
    template_name = "funds/detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["page"] = selectors.fund_detail(fund_id=kwargs["fund_id"], scope=self.scope)
        context["edits_records"] = self.scope.can_edit(kwargs["fund_id"])  # the record header's edit link
        return context


class InvestorDetailView(ScopedMixin, TemplateView):
    template_name = "funds/investor.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["page"] = selectors.investor_detail(investor_id=kwargs["investor_id"], scope=self.scope)
        context["fund_pages"] = self.scope.sees_fund_totals  # an LP user has no fund pages
        context["edits_records"] = any(self.scope.can_edit(line.fund_id) for line in context["page"].lines)
        return context
