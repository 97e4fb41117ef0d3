"""Downloads: XLSX and CSV of the document and position pages, the fund roll-up workbook, and the
capital account statement PDF. Each reads the same selector as its page (never a second formula)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views import View

from documents import selectors as document_selectors
from documents.time_travel import check_dated_by
from fundportal.domain.access import AccessScope
from fundportal.web.mixins import ScopedMixin
from fundportal.web.time_travel import TimeTravelMixin
from funds.as_of import as_of_page
from funds.selectors import fund_detail
from positions import selectors as position_selectors
from positions.as_of import position_report_as_of
from positions.selectors import PositionReport

from .notice import notice_pdf, position_notice
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


class DocumentXlsxView(ScopedMixin, TimeTravelMixin, View):
    def get(self, request, document_id: str) -> HttpResponse:
        page = document_selectors.document_overview(document_id=document_id, scope=self.scope)
        check_dated_by(page.document, self.time_travel.as_of)
        return _download(xlsx_bytes([document_table(page)]), XLSX, f"document-{document_id}.xlsx")


class DocumentCsvView(ScopedMixin, TimeTravelMixin, View):
    def get(self, request, document_id: str) -> HttpResponse:
        page = document_selectors.document_overview(document_id=document_id, scope=self.scope)
        check_dated_by(page.document, self.time_travel.as_of)
        return csv_response(document_table(page), f"document-{document_id}.csv")


def _position_report(view: TimeTravelMixin, position_id: str, scope: AccessScope) -> PositionReport:
    """The position page's rows: today's, or as of `?as_of=` / as known at `?known_at=`."""
    travel = view.time_travel
    if travel.active:
        return position_report_as_of(position_id=position_id, as_of=travel.as_of, known_at=travel.known_at, scope=scope)
    return position_selectors.position_report(position_id=position_id, scope=scope)


class PositionCsvView(ScopedMixin, TimeTravelMixin, View):
    """CSV of the position page's rows over every page: ids, fund and investor on every row,
    amounts with exactly their currency's decimals, running figures of each row's currency (never
    a sum across currencies), formula-like text neutralised (exports.writers)."""

    def get(self, request: HttpRequest, position_id: str) -> HttpResponse:
        report = _position_report(self, position_id, self.scope)
        return csv_response(position_table(report), f"position-{position_id}.csv")


class PositionXlsxView(ScopedMixin, TimeTravelMixin, View):
    def get(self, request, position_id: str) -> HttpResponse:
        report = _position_report(self, position_id, self.scope)
        return _download(xlsx_bytes([position_table(report)]), XLSX, f"position-{position_id}.xlsx")


class FundXlsxView(ScopedMixin, TimeTravelMixin, View):
    """The fund page's roll-up: one Query, as a workbook (`?as_of=`: valued then, as the page)."""

    def get(self, request, fund_id: str) -> HttpResponse:
        page = as_of_page(fund_detail(fund_id=fund_id, scope=self.scope), self.time_travel)
        return _download(xlsx_bytes([fund_table(page)]), XLSX, f"fund-{fund_id}.xlsx")


class StatementPdfView(ScopedMixin, TimeTravelMixin, View):
    """`?as_of=YYYY-MM-DD` states the position as of that date, `?known_at=` as the portal knew
    it then (a malformed date: 400 with its message, `fundportal.web.time_travel`)."""

    def get(self, request, position_id: str) -> HttpResponse:
        travel = self.time_travel
        statement = position_statement(
            position_id=position_id, as_of=travel.as_of, known_at=travel.known_at, scope=self.scope
        )
        pdf = statement_pdf(statement, generated_by=request.user.get_username())
        suffix = f"-{travel.as_of.isoformat()}" if travel.as_of else ""
        return _download(pdf, "application/pdf", f"statement-{position_id}{suffix}.pdf")


class NoticePdfView(ScopedMixin, View):
    """An LP's capital call or distribution notice in a document (ILPA notice template)."""

    def get(self, request: HttpRequest, document_id: str, position_id: str) -> HttpResponse:
        notice = position_notice(document_id=document_id, position_id=position_id, scope=self.scope)
        pdf = notice_pdf(notice, generated_by=request.user.get_username())
        return _download(pdf, "application/pdf", notice.filename)
