"""Analyst pages about documents."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.views import View
from django.views.generic import TemplateView

from fundportal.dynamo import FundRepository, InvalidId, NotFound
from fundportal.dynamo.keys import parse_month, validate_id


class DocumentListView(LoginRequiredMixin, TemplateView):
    """Current documents of one as-of month (month-sharded sparse index), newest first."""

    template_name = "documents/list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        repository = FundRepository()
        months = repository.months()
        requested = self.request.GET.get("month")
        if requested:
            year, month = parse_month(requested)
        elif months:
            year, month = parse_month(months[0])
        else:
            today = date.today()
            year, month = today.year, today.month
        current = f"{year:04d}-{month:02d}"
        older = [m for m in months if m < current]
        newer = [m for m in months if m > current]
        context.update(
            month=date(year, month, 1),
            month_key=current,
            months=months,
            older=older[0] if older else None,
            newer=newer[-1] if newer else None,
            documents=repository.documents_in_month(year, month),
        )
        return context


class SearchView(LoginRequiredMixin, View):
    """Jump to a document or position by id."""

    def get(self, request):
        query = request.GET.get("q", "").strip()
        try:
            validate_id(query, "document or position id")
        except InvalidId as error:
            messages.error(request, error.user_message)
            return redirect("documents:list")
        repository = FundRepository()
        try:
            repository.get_document(query)
            return redirect("documents:detail", document_id=query)
        except NotFound:
            pass
        if repository.position_page(query, limit=1).entries:
            return redirect("positions:detail", position_id=query)
        messages.error(request, f"No document or position with id '{query}'.")
        return redirect("documents:list")
