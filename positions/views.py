"""Analyst pages about one position across documents (`GSI_Position_Document`)."""

from __future__ import annotations

import csv
from typing import Any

from django.conf import settings
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse
from django.views import View
from django.views.generic import TemplateView

from documents.views import vars_of
from fundportal.dynamo.entities import PositionEntry
from fundportal.dynamo.keys import POSITION_KINDS
from fundportal.models import EDIT_PERMISSION
from positions import selectors


class PositionDetailView(LoginRequiredMixin, TemplateView):
    """A position across all documents: headline figures, a chart per currency, a row per document.

    One Query per page. `POSITION_PAGE_SIZE` (items per page) defaults to None: one page is
    whatever DynamoDB returns in one response (up to 1 MB, thousands of documents).
    """

    template_name = "positions/detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        history = selectors.position_history(
            position_id=kwargs["position_id"],
            cursor=self.request.GET.get("cursor") or None,
            page_size=getattr(settings, "POSITION_PAGE_SIZE", None),
            with_edit_urls=self.request.user.has_perm(EDIT_PERMISSION),
        )
        context.update(history=history, **vars_of(history))
        return context


class PositionExportView(LoginRequiredMixin, View):
    """CSV of the position page's rows over every page: exact decimals, running figures of each
    row's currency (never a sum across currencies)."""

    COLUMNS = (
        "document_id",
        "as_of_date",
        "currency",
        "capital_call",
        "capital_call_status",
        "distribution",
        "distribution_status",
        "unfunded_commitment",
        "unfunded_commitment_status",
        "called_to_date",
        "distributed_to_date",
        "dpi_to_date",
        "dpi_settled_to_date",
    )

    def get(self, request, position_id: str) -> HttpResponse:
        report = selectors.position_report(position_id=position_id)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="position-{position_id}.csv"'
        writer = csv.writer(response)
        writer.writerow(self.COLUMNS)
        for row in report.rows:
            amounts = [value for kind in POSITION_KINDS for value in _amount_and_status(row.entry(kind))]
            to_date = row.to_date
            writer.writerow(
                [
                    row.document_id,
                    row.as_of_date.isoformat() if row.as_of_date else "",
                    row.currency,
                    *amounts,
                    to_date.called.amount,
                    to_date.distributed.amount,
                    "" if to_date.dpi is None else to_date.dpi,
                    "" if to_date.dpi_settled is None else to_date.dpi_settled,
                ]
            )
        return response


def _amount_and_status(entry: PositionEntry | None) -> tuple[Any, str]:
    return (entry.amount, entry.status) if entry is not None else ("", "")
