"""The ILPA capital account statement's downloads: a position's and an investor's as PDF or XLSX
(`?period=2025Q4`, `?period=2025` or `?start=…&end=…`; `?known_at=` composes), and a fund's
statements for every LP as one streamed ZIP. A bad period is a 400 with its message
(`fundportal.domain.periods.parse_period`). Without a period a position's `statement.pdf` is the
summary statement it always was (`exports.statement`); the other downloads state the quarter
holding today."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from uuid import UUID

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.views import View

from fundportal.domain.periods import END, PERIOD, START, Period, parse_period, quarter, quarter_start_of
from fundportal.web.mixins import ScopedMixin
from fundportal.web.time_travel import TimeTravelMixin

from . import statement_jobs
from .capital_account import (
    CapitalAccountStatement,
    fund_position_ids,
    fund_statements,
    investor_capital_account,
    position_capital_account,
)
from .capital_account_files import statement_pdf, statement_xlsx
from .models import StatementJob
from .statement_zip import zip_stream

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF = "application/pdf"


def period_asked(request: HttpRequest) -> Period | None:
    """The period of `?period=` or `?start=&end=` (None: none asked; InvalidPeriod: a 400)."""
    return parse_period(request.GET.get(PERIOD), request.GET.get(START), request.GET.get(END))


def period_or_this_quarter(request: HttpRequest, today: date | None = None) -> Period:
    """The period asked for, else the quarter holding today."""
    asked = period_asked(request)
    if asked is not None:
        return asked
    on = today or date.today()
    return quarter(on.year, (quarter_start_of(on).month - 1) // 3 + 1)


def download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _pdf(statement: CapitalAccountStatement, request: HttpRequest) -> HttpResponse:
    pdf = statement_pdf(statement, generated_by=request.user.get_username())
    return download(pdf, PDF, f"{statement.filename_stem}.pdf")


def _xlsx(statement: CapitalAccountStatement) -> HttpResponse:
    return download(statement_xlsx(statement), XLSX, f"{statement.filename_stem}.xlsx")


class PositionStatementMixin(ScopedMixin, TimeTravelMixin):
    def statement(self, position_id: str, period: Period) -> CapitalAccountStatement:
        return position_capital_account(
            position_id=position_id, period=period, known_at=self.time_travel.known_at, scope=self.scope
        )


class PositionStatementXlsxView(PositionStatementMixin, View):
    def get(self, request: HttpRequest, position_id: str) -> HttpResponse:
        return _xlsx(self.statement(position_id, period_or_this_quarter(request)))


def position_statement_pdf(view: PositionStatementMixin, request: HttpRequest, position_id: str) -> HttpResponse | None:
    """The ILPA statement PDF when a period is asked for (None: the summary statement's turn)."""
    period = period_asked(request)
    if period is None:
        return None
    return _pdf(view.statement(position_id, period), request)


class InvestorStatementMixin(ScopedMixin, TimeTravelMixin):
    def statement(self, request: HttpRequest, investor_id: str) -> CapitalAccountStatement:
        return investor_capital_account(
            investor_id=investor_id,
            period=period_or_this_quarter(request),
            known_at=self.time_travel.known_at,
            scope=self.scope,
        )


class InvestorStatementPdfView(InvestorStatementMixin, View):
    def get(self, request: HttpRequest, investor_id: str) -> HttpResponse:
        return _pdf(self.statement(request, investor_id), request)


class InvestorStatementXlsxView(InvestorStatementMixin, View):
    def get(self, request: HttpRequest, investor_id: str) -> HttpResponse:
        return _xlsx(self.statement(request, investor_id))


class FundStatementsZipView(ScopedMixin, TimeTravelMixin, View):
    """Every LP's statement PDF of the fund as one ZIP, streamed: the fund's positions and names
    are read before the response starts (an unknown or uncovered fund is a 404), each statement
    while the file is sent. Above `STATEMENTS_ZIP_INLINE_MAX` LPs (default 100) it is built by a
    background job instead, and this redirects to the job's page."""

    def get(self, request: HttpRequest, fund_id: str) -> HttpResponseBase:
        period = period_or_this_quarter(request)
        known_at = self.time_travel.known_at
        fund_name, positions = fund_position_ids(fund_id=fund_id, scope=self.scope)
        user = request.user.get_username()
        if len(positions) > getattr(settings, "STATEMENTS_ZIP_INLINE_MAX", statement_jobs.INLINE_MAX):
            job = statement_jobs.enqueue(
                fund_id=fund_id, period=period, known_at=known_at, user=user, positions=len(positions)
            )
            return redirect("funds:statements_job", fund_id, job.pk)
        statements = fund_statements(
            fund_id=fund_id,
            period=period,
            known_at=known_at,
            scope=self.scope,
            positions=positions,
            fund_name=fund_name,
        )

        def files() -> Iterator[tuple[str, bytes]]:
            for statement in statements.statements:
                yield f"{statement.filename_stem}.pdf", statement_pdf(statement, generated_by=user)

        response = StreamingHttpResponse(zip_stream(files()), content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="statements-{fund_id}-{period.slug}.zip"'
        response["X-Content-Type-Options"] = "nosniff"
        return response


class StatementJobMixin(ScopedMixin):
    def job(self, request: HttpRequest, fund_id: str, job_id: UUID) -> StatementJob:
        """The job, if it is this user's and of a fund in the scope (else 404)."""
        self.scope.require_fund(fund_id, "Fund", fund_id)
        job = StatementJob.objects.filter(pk=job_id, fund_id=fund_id, user=request.user.get_username()).first()
        if job is None:
            raise Http404("No such statements job")
        return job


class StatementJobView(StatementJobMixin, View):
    """The job's page: its state and progress, and the ZIP's link once ready."""

    def get(self, request: HttpRequest, fund_id: str, job_id: UUID) -> HttpResponse:
        job = self.job(request, fund_id, job_id)
        return render(request, "exports/statement_job.html", {"job": job, "refresh": 3})


class StatementJobZipView(StatementJobMixin, View):
    def get(self, request: HttpRequest, fund_id: str, job_id: UUID) -> HttpResponseBase:
        job = self.job(request, fund_id, job_id)
        if job.state != StatementJob.State.DONE or not job.stored_name:
            raise Http404("The statements are not ready")
        stored = statement_jobs.statement_storage().open(job.stored_name, "rb")
        response = FileResponse(stored, content_type="application/zip", as_attachment=True, filename=job.filename)
        response["X-Content-Type-Options"] = "nosniff"
        return response
