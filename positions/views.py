"""Analyst pages about one position across documents (GSI_Position_Document)."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse
from django.views import View
from django.views.generic import TemplateView

from fundportal.dynamo import FundRepository, NotFound
from fundportal.dynamo.entities import PositionEntry, PositionInDocument, dpi
from fundportal.templatetags.charts import ChartPoint


@dataclass(frozen=True, slots=True)
class RunningTotals:
    """Totals carried from page to page (inside the signed cursor) and from row to row."""

    called: Decimal = Decimal(0)
    distributed: Decimal = Decimal(0)
    unfunded: Decimal | None = None  # latest unfunded commitment seen (by as-of date)
    unfunded_as_of: date | None = None

    @property
    def dpi(self) -> Decimal | None:
        return dpi(self.distributed, self.called)

    def add(self, row: PositionInDocument, as_of: date | None) -> RunningTotals:
        totals = row.totals
        unfunded, unfunded_as_of = self.unfunded, self.unfunded_as_of
        commitment = row.unfunded_commitment
        newer = unfunded_as_of is None or as_of is None or as_of >= unfunded_as_of
        if commitment is not None and commitment.counts_in_totals and newer:
            unfunded, unfunded_as_of = commitment.amount, as_of
        return RunningTotals(
            self.called + totals.called, self.distributed + totals.distributed, unfunded, unfunded_as_of
        )

    def to_carry(self) -> dict[str, Any]:
        return {
            "called": str(self.called),
            "distributed": str(self.distributed),
            "unfunded": None if self.unfunded is None else str(self.unfunded),
            "unfunded_as_of": self.unfunded_as_of.isoformat() if self.unfunded_as_of else None,
        }

    @classmethod
    def from_carry(cls, carry: dict[str, Any]) -> RunningTotals:
        """The carry comes from a signed cursor, so it is ours; still parse defensively."""
        try:
            return cls(
                Decimal(carry.get("called") or 0),
                Decimal(carry.get("distributed") or 0),
                Decimal(carry["unfunded"]) if carry.get("unfunded") else None,
                date.fromisoformat(carry["unfunded_as_of"]) if carry.get("unfunded_as_of") else None,
            )
        except (ArithmeticError, ValueError, TypeError):
            return cls()


@dataclass(frozen=True, slots=True)
class DocumentRow:
    """The position in one document, with the running totals after it."""

    entries: PositionInDocument
    as_of_date: date | None
    currency: str
    to_date: RunningTotals

    @property
    def document_id(self) -> str:
        return self.entries.document_id


def document_rows(entries: Iterable[PositionEntry], start: RunningTotals) -> list[DocumentRow]:
    """Group entries by document, order by as-of date, and accumulate running totals.

    The position index sorts by entity type, then document; the page regroups per document.
    """
    groups: dict[str, PositionInDocument] = {}
    for entry in entries:
        group = groups.setdefault(entry.document_id, PositionInDocument(entry.document_id, entry.position_id))
        group.set(entry)

    def as_of(group: PositionInDocument) -> date | None:
        return next((e.as_of_date for e in group.entries if e.as_of_date), None)

    ordered = sorted(groups.values(), key=lambda g: (as_of(g) or date.min, g.document_id))
    rows = []
    totals = start
    for group in ordered:
        totals = totals.add(group, as_of(group))
        rows.append(DocumentRow(group, as_of(group), group.entries[0].currency, totals))
    return rows


class PositionDetailView(LoginRequiredMixin, TemplateView):
    """A position across all documents: headline figures, chart, one row per document.

    One Query per page. `POSITION_PAGE_SIZE` (items per page) defaults to None: one page is
    whatever DynamoDB returns in one response (up to 1 MB, thousands of documents).
    """

    template_name = "positions/detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        position_id = kwargs["position_id"]
        cursor = self.request.GET.get("cursor") or None
        repository = FundRepository()
        page = repository.position_page(position_id, cursor=cursor, limit=getattr(settings, "POSITION_PAGE_SIZE", None))
        if not page.entries and cursor is None:
            raise NotFound("Position", position_id)
        start = RunningTotals.from_carry(page.extra)
        rows = document_rows(page.entries, start)
        totals = rows[-1].to_date if rows else start
        page_number = int(page.extra.get("page") or 1)
        next_cursor = None
        if page.next_cursor:
            # The next page starts from this page's totals and knows the way back to this one.
            carry = {**totals.to_carry(), "page": page_number + 1, "prev": cursor}
            next_cursor = repository.reseal_position_cursor(page.next_cursor, position_id, carry)
        first = page.entries[0] if page.entries else None
        context.update(
            position_id=position_id,
            fund_id=first.fund_id if first else "",
            investor_id=first.investor_id if first else "",
            currency=rows[0].currency if rows else "USD",
            rows=rows,
            start=start,
            totals=totals,
            page_number=page_number,
            next_cursor=next_cursor,
            newer_cursor=page.extra.get("prev"),
            chart_points=[
                ChartPoint(r.as_of_date, r.to_date.called, r.to_date.distributed) for r in rows if r.as_of_date
            ],
        )
        return context


class PositionExportView(LoginRequiredMixin, View):
    """CSV of the position page's rows over every page, amounts as exact decimals."""

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
    )

    def get(self, request, position_id: str) -> HttpResponse:
        entries = FundRepository().position_entries(position_id)
        if not entries:
            raise NotFound("Position", position_id)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="position-{position_id}.csv"'
        writer = csv.writer(response)
        writer.writerow(self.COLUMNS)
        for row in document_rows(entries, RunningTotals()):
            cells = row.entries
            writer.writerow(
                [
                    row.document_id,
                    row.as_of_date.isoformat() if row.as_of_date else "",
                    row.currency,
                    *_amount_and_status(cells.capital_call),
                    *_amount_and_status(cells.distribution),
                    *_amount_and_status(cells.unfunded_commitment),
                    row.to_date.called,
                    row.to_date.distributed,
                    row.to_date.dpi if row.to_date.dpi is not None else "",
                ]
            )
        return response


def _amount_and_status(entry: PositionEntry | None) -> tuple[Decimal | str, str]:
    return (entry.amount, entry.status) if entry is not None else ("", "")
