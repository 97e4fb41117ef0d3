"""Per-request DynamoDB accounting and time budget, and the error page for each typed error that
escapes a view (409, 404, 400, 503)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from fundportal.domain.errors import (
    ApprovalRefused,
    BadCursor,
    Conflict,
    CursorExpired,
    DomainError,
    IdempotencyMismatch,
    ImportConflict,
    InvalidId,
    NotFound,
    NotPermitted,
    PositionChangeRefused,
    RestatementRefused,
)
from fundportal.messages import describe
from fundportal.store import budget
from fundportal.store.errors import DataLayerError, StoreUnavailable
from fundportal.store.instrumentation import collect, page_log
from fundportal.store.uow import RegisterChanged

log = logging.getLogger("fundportal.requests")


class DynamoDBMiddleware:
    """Collects every DynamoDB call made while serving a request into `request.dynamodb`,
    logs the page's cost for the admin request log, gives the request's DynamoDB calls one time
    budget (`DYNAMODB_REQUEST_BUDGET` seconds, below gunicorn's worker timeout), and turns
    typed errors that escape a view into the right error page instead of a stack trace: someone
    else's change first (409, naming who changed what), not found (404), a bad id or page link
    (400), DynamoDB unavailable (503). The 503 page says nothing internal: table names and causes
    go to the log."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with collect() as collector, budget.limit(getattr(settings, "DYNAMODB_REQUEST_BUDGET", None)):
            request.dynamodb = collector
            response = self.get_response(request)
        if collector.count and not request.path.startswith("/static/"):
            user = getattr(request, "user", None)
            page_log.add(
                request.method or "GET",
                request.get_full_path()[:300],
                response.status_code,
                user.get_username() if user is not None and user.is_authenticated else "",
                collector,
            )
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, StoreUnavailable):
            log.error("503 for %s: %s (%s)", request.path, exception.reason, type(exception).__name__)
            return render(request, "503.html", status=503)
        if isinstance(exception, Conflict):
            context = {"error": exception, "retry_url": request.get_full_path()}
            return render(request, "409.html", context, status=409)
        if isinstance(
            exception, (RegisterChanged, ImportConflict, ApprovalRefused, PositionChangeRefused, RestatementRefused)
        ):
            context = {"message": describe(exception), "retry_url": request.get_full_path()}
            return render(request, "409.html", context, status=409)
        if isinstance(exception, NotFound):
            return render(request, "404.html", {"message": describe(exception)}, status=404)
        if isinstance(exception, NotPermitted):
            return render(request, "403.html", {"message": describe(exception)}, status=403)
        if isinstance(exception, CursorExpired):
            context = {"message": describe(exception), "first_page_url": request.path}
            return render(request, "400.html", context, status=400)
        if isinstance(exception, (InvalidId, BadCursor)):
            return render(request, "400.html", {"message": describe(exception)}, status=400)
        if isinstance(exception, IdempotencyMismatch):
            return render(request, "400.html", {"message": describe(exception)}, status=409)
        if isinstance(exception, (DomainError, DataLayerError)):
            # Anything else the data layer refused (a request DynamoDB rejected): logged, and
            # the user sees the plain 503 page rather than a stack trace.
            log.error("503 for %s: %r", request.path, exception)
            return render(request, "503.html", status=503)
        return None
