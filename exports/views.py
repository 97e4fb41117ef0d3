"""Downloads: XLSX and CSV of the document and position pages, the fund roll-up workbook, and the
capital account statement PDF. Each reads the same selector as its page (never a second formula)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from itertools import chain
from typing import Any

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views import View

from documents import selectors as document_selectors
from fundportal.domain import dates
from fundportal.web.mixins import ScopedMixin
from funds.selectors import fund_export
from positions import selectors as position_selectors

from .statement import position_statement, statement_pdf
from .tables import Table, document_table, fund_table, position_table
from .writers import write_csv, xlsx_bytes

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def csv_response(table: Table, filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    write_csv(response, table)
    return response


class DocumentXlsxView(ScopedMixin, View):
    def get(self, request, document_id: str) -> HttpResponse:
        page = document_selectors.document_overview(document_id=document_id, scope=self.scope)
        return _download(xlsx_bytes([document_table(page)]), XLSX, f"document-{document_id}.xlsx")


class DocumentCsvView(ScopedMixin, View):
    def get(self, request, document_id: str) -> HttpResponse:
        page = document_selectors.document_overview(document_id=document_id, scope=self.scope)
        return csv_response(document_table(page), f"document-{document_id}.csv")


class PositionCsvView(ScopedMixin, View):
    """CSV of the position page's rows over every page: ids, fund and investor on every row,
    amounts with exactly their currency's decimals, running figures of each row's currency (never
    a sum across currencies), formula-like text neutralised (exports.writers)."""

    def get(self, request: HttpRequest, position_id: str) -> HttpResponse:
        report = position_selectors.position_report(position_id=position_id, scope=self.scope)
        return csv_response(position_table(report), f"position-{position_id}.csv")


class PositionXlsxView(ScopedMixin, View):
    def get(self, request, position_id: str) -> HttpResponse:
        report = position_selectors.position_report(position_id=position_id, scope=self.scope)
        return _download(xlsx_bytes([position_table(report)]), XLSX, f"position-{position_id}.xlsx")


class FundXlsxView(ScopedMixin, View):
    """Every line of the fund (the fund page's 100-line pages, one Query each) and its totals
    (its summary), as a workbook."""

    def get(self, request, fund_id: str) -> HttpResponse:
        first, later = fund_export(fund_id=fund_id, scope=self.scope)
        page = replace(first, lines=[*first.lines, *(line for lines in later for line in lines)])
        return _download(xlsx_bytes([fund_table(page)]), XLSX, f"fund-{fund_id}.xlsx")


class FundCsvView(ScopedMixin, View):
    """Every line of the fund, streamed: the first page is read before the response starts (a
    fund that does not exist or is out of scope is a 404, not a broken download), each later
    page of 100 while the file is sent (one Query each)."""

    def get(self, request, fund_id: str) -> StreamingHttpResponse:
        first, later = fund_export(fund_id=fund_id, scope=self.scope)
        response = StreamingHttpResponse(_fund_csv(first, later), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="fund-{fund_id}.csv"'
        response["X-Content-Type-Options"] = "nosniff"
        return response


def _fund_csv(first: Any, later: Iterator[list[Any]]) -> Iterator[str]:
    for index, lines in enumerate(chain([first.lines], later)):
        out = io.StringIO()
        write_csv(out, fund_table(replace(first, lines=lines, totals=[])))
        text = out.getvalue()
        yield text.split("\r\n", 1)[1] if index else text  # the header once


class StatementPdfView(ScopedMixin, View):
    """`?as_of=YYYY-MM-DD` limits the statement to documents as of that date (400 if malformed)."""

    def get(self, request, position_id: str) -> HttpResponse:
        as_of = _as_of(request.GET.get("as_of", ""))
        statement = position_statement(position_id=position_id, as_of=as_of, scope=self.scope)
        pdf = statement_pdf(statement, generated_by=request.user.get_username())
        suffix = f"-{as_of.isoformat()}" if as_of else ""
        return _download(pdf, "application/pdf", f"statement-{position_id}{suffix}.pdf")


def _as_of(text: str) -> date | None:
    if not text:
        return None
    try:
        value = date.fromisoformat(text)
    except ValueError:
        raise BadRequest("as_of must be a date: YYYY-MM-DD.") from None
    if not dates.in_range(value):
        raise BadRequest(dates.range_message("as_of date"))
    return value
