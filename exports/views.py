"""Downloads: XLSX and CSV of the document, investor and position pages (a document's streamed), the
fund roll-up workbook, and the capital account statement PDF. Each reads the same selector as its
page (never a second formula)."""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import date
from itertools import chain
from typing import Any

from django.http import FileResponse, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views import View

from documents import paging
from documents.time_travel import check_dated_by
from fundportal.domain.access import AccessScope
from fundportal.domain.cash_flows import cash_flow_schedules
from fundportal.domain.records import FundRecord, InvestorRecord, RecordNames
from fundportal.domain.time_travel import valuation_date
from fundportal.web.mixins import ScopedMixin
from fundportal.web.time_travel import TimeTravel, TimeTravelMixin
from funds import investor_pages
from funds.as_of import as_of_page
from funds.lines import position_lines, totals
from funds.record_selectors import ExportNames, record_names
from funds.selectors import GroupPage, fund_export
from positions import selectors as position_selectors
from positions.as_of import position_report_as_of
from positions.selectors import PositionReport

from .capital_account_views import PositionStatementMixin, position_statement_pdf
from .notice import notice_pdf, position_notice
from .notice_zip import document_notices, notices_zip
from .statement import position_statement, statement_pdf
from .tables import (
    DOCUMENT_COLUMNS,
    Cell,
    Table,
    by_position,
    cash_flow_table,
    document_rows,
    document_totals,
    fund_table,
    position_table,
)
from .writers import csv_lines, write_csv, xlsx_bytes, xlsx_streamed

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


def _attachment(response: HttpResponseBase, filename: str) -> HttpResponseBase:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def csv_stream(columns: list[str], rows: Iterable[list[Cell]], filename: str) -> HttpResponseBase:
    """A CSV download written as its rows are read (the rows may come page by page)."""
    response = StreamingHttpResponse(csv_lines(columns, rows), content_type="text/csv; charset=utf-8")
    return _attachment(response, filename)


def xlsx_stream(
    name: str, columns: list[str], rows: Iterable[list[Cell]], totals: Callable[[], list[list[Cell]]], filename: str
) -> HttpResponseBase:
    """An XLSX download built row by row in a temporary file (xlsxwriter's constant_memory) and
    streamed from it: a long list is never held in memory."""
    spooled = tempfile.TemporaryFile(suffix=".xlsx")
    xlsx_streamed(spooled, name, columns, rows, totals)
    spooled.seek(0)
    return _attachment(FileResponse(spooled, content_type=XLSX), filename)


class DocumentXlsxView(ScopedMixin, TimeTravelMixin, View):
    """Every position of the document: a short one from its one Query, a long one streamed from
    the page index page by page; totals summed over every row written."""

    def get(self, request, document_id: str) -> HttpResponseBase:
        export = paging.document_export(document_id=document_id, scope=self.scope)
        check_dated_by(export.document.document, self.time_travel.as_of)
        document = export.document.document
        return xlsx_stream(
            document.document_id,
            list(DOCUMENT_COLUMNS),
            document_rows(document, _in_order(export), ExportNames()),
            lambda: document_totals(document, export.totals()),
            f"document-{document_id}.xlsx",
        )


class DocumentCsvView(ScopedMixin, TimeTravelMixin, View):
    """Every position of the document, streamed (one row per position and currency)."""

    def get(self, request, document_id: str) -> HttpResponseBase:
        export = paging.document_export(document_id=document_id, scope=self.scope)
        check_dated_by(export.document.document, self.time_travel.as_of)
        rows = document_rows(export.document.document, _in_order(export), ExportNames())
        return csv_stream(list(DOCUMENT_COLUMNS), rows, f"document-{document_id}.csv")


def _in_order(export: paging.DocumentExport) -> Iterable[Any]:
    """A short document's rows (read whole by its one Query) in natural order; a long one's as
    streamed from the page index, in its key order (sorting would hold the document in memory)."""
    return by_position(export.rows) if export.document.whole else export.rows


class InvestorCsvView(ScopedMixin, TimeTravelMixin, View):
    """Every position of the investor within the scope (the investor page's rows over all its
    pages), with the totals' figures kept to the page (a CSV is a plain list of records);
    `?as_of=` / `?known_at=` as the page."""

    def get(self, request, investor_id: str) -> HttpResponseBase:
        table = fund_table(*_investor_group(investor_id, self.scope, self.time_travel))
        return csv_stream(table.columns, table.rows, f"investor-{investor_id}.csv")


class InvestorXlsxView(ScopedMixin, TimeTravelMixin, View):
    def get(self, request, investor_id: str) -> HttpResponseBase:
        table = fund_table(*_investor_group(investor_id, self.scope, self.time_travel))
        return xlsx_stream(table.name, table.columns, table.rows, lambda: table.totals, f"investor-{investor_id}.xlsx")


def _investor_group(investor_id: str, scope: Any, travel: TimeTravel) -> tuple[GroupPage, RecordNames]:
    """Every position of the investor (bounded: `investor_pages.MAX_INVESTOR_POSITIONS`) and its
    record, one Query (as known at `known_at`: one more), valued as of the page's date; the names
    of its funds, one BatchGetItem per 100 funds."""
    registers, record = investor_pages.investor_registers_and_record(
        investor_id=investor_id, scope=scope, known_at=travel.known_at
    )
    on = valuation_date(travel.as_of, travel.known_at, date.today())
    page = GroupPage(
        group_id=investor_id,
        lines=[line for r in registers for line in position_lines(r, on)],
        totals=totals(registers, on),
    )
    return page, record_names(fund_ids=[r.fund_id for r in registers], known=_known(record))


def _known(record: FundRecord | InvestorRecord | None) -> RecordNames:
    """The name a page's own read brought (a fund's record, an investor's), as export names."""
    if isinstance(record, FundRecord):
        return RecordNames(funds={record.fund_id: record.name})
    if isinstance(record, InvestorRecord):
        return RecordNames(investors={record.investor_id: record.name})
    return RecordNames()


def _position_report(view: TimeTravelMixin, position_id: str, scope: AccessScope) -> PositionReport:
    """The position page's rows: today's, or as of `?as_of=` / as known at `?known_at=`."""
    travel = view.time_travel
    if travel.active:
        return position_report_as_of(position_id=position_id, as_of=travel.as_of, known_at=travel.known_at, scope=scope)
    return position_selectors.position_report(position_id=position_id, scope=scope)


def _position_names(report: PositionReport) -> RecordNames:
    """The position's fund and investor names: one BatchGetItem of their two records."""
    return record_names(fund_ids=[report.fund_id], investor_ids=[report.investor_id])


class PositionCsvView(ScopedMixin, TimeTravelMixin, View):
    """CSV of the position page's rows over every page: ids, fund and investor on every row,
    amounts with exactly their currency's decimals, running figures of each row's currency (never
    a sum across currencies), formula-like text neutralised (exports.writers)."""

    def get(self, request: HttpRequest, position_id: str) -> HttpResponse:
        report = _position_report(self, position_id, self.scope)
        return csv_response(position_table(report, _position_names(report)), f"position-{position_id}.csv")


class PositionXlsxView(ScopedMixin, TimeTravelMixin, View):
    """The position's rows, and a second sheet of IRR's dated cash flows ending with the NAV on
    the valuation date (today, or `?as_of=`): XIRR over them in Excel is the page's IRR."""

    def get(self, request, position_id: str) -> HttpResponse:
        report = _position_report(self, position_id, self.scope)
        schedules = cash_flow_schedules(report.entries, self.time_travel.as_of or date.today())
        tables = [position_table(report, _position_names(report)), cash_flow_table(position_id, schedules)]
        return _download(xlsx_bytes(tables), XLSX, f"position-{position_id}.xlsx")


def _fund_page(fund_id: str, scope: AccessScope, travel: TimeTravel) -> GroupPage:
    """Every line of the fund and its totals, as the page shows them (`?as_of=`, `?known_at=`)."""
    first, later = fund_export(fund_id=fund_id, as_of=travel.as_of, scope=scope, known_at=travel.known_at)
    page = replace(first, lines=[*first.lines, *(line for lines in later for line in lines)])
    return as_of_page(page, travel)


class FundXlsxView(ScopedMixin, TimeTravelMixin, View):
    """Every line of the fund (the fund page's 100-line pages, one Query each) and its totals
    (its summary), as a workbook; `?as_of=` / `?known_at=`: as the page."""

    def get(self, request, fund_id: str) -> HttpResponse:
        page = _fund_page(fund_id, self.scope, self.time_travel)
        # The fund's record rode in its summary's BatchGetItem; the investors' names: one per 100 lines.
        names = ExportNames(_known(page.record), funds_read=[fund_id]).every(by_position(page.lines))
        return _download(xlsx_bytes([fund_table(page, names)]), XLSX, f"fund-{fund_id}.xlsx")


class FundCsvView(ScopedMixin, TimeTravelMixin, View):
    """Every line of the fund, streamed: the first page is read before the response starts (a
    fund that does not exist or is out of scope is a 404, not a broken download), each later
    page of 100 while the file is sent (one Query each). `?as_of=` / `?known_at=`: as the page
    (the lines are valued before the response starts)."""

    def get(self, request, fund_id: str) -> StreamingHttpResponse:
        travel = self.time_travel
        if travel.active:
            first, later = _fund_page(fund_id, self.scope, travel), iter(())
        else:
            first, later = fund_export(fund_id=fund_id, scope=self.scope)
        response = StreamingHttpResponse(_fund_csv(first, later), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="fund-{fund_id}.csv"'
        response["X-Content-Type-Options"] = "nosniff"
        return response


def _fund_csv(first: Any, later: Iterator[list[Any]]) -> Iterator[str]:
    """A page of 100 lines at a time, with its investors' names (one BatchGetItem a page)."""
    names = ExportNames(_known(first.record), funds_read=[first.group_id])  # read with its summary
    for index, lines in enumerate(chain([first.lines], later)):
        out = io.StringIO()
        write_csv(out, fund_table(replace(first, lines=lines, totals=[]), names(lines)))
        text = out.getvalue()
        yield text.split("\r\n", 1)[1] if index else text  # the header once


class StatementPdfView(PositionStatementMixin, View):
    """`?period=` (or `?start=&end=`): the ILPA capital account statement for that period
    (`exports.capital_account_views`). Without one, the summary statement: `?as_of=YYYY-MM-DD`
    states the position as of that date, `?known_at=` as the portal knew it then (a malformed
    date: 400 with its message, `fundportal.web.time_travel`)."""

    def get(self, request, position_id: str) -> HttpResponse:
        ilpa = position_statement_pdf(self, request, position_id)
        if ilpa is not None:
            return ilpa
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


class NoticesZipView(ScopedMixin, View):
    """Every LP notice of a document as one ZIP, streamed (`exports.notice_zip`)."""

    def get(self, request: HttpRequest, document_id: str) -> HttpResponseBase:
        notices = document_notices(document_id=document_id, scope=self.scope)
        response = StreamingHttpResponse(
            notices_zip(notices, generated_by=request.user.get_username()), content_type="application/zip"
        )
        response["Content-Disposition"] = f'attachment; filename="{notices.filename}"'
        response["X-Content-Type-Options"] = "nosniff"
        return response
