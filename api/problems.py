"""Errors as RFC 9457 problem details (`application/problem+json`): never HTML, never a stack
trace. The typed errors map to the same statuses as the pages' (`fundportal.middleware`), with the
same words (`fundportal.messages.describe`)."""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from fundportal.domain.errors import (
    ApprovalRefused,
    BadCursor,
    Conflict,
    CursorExpired,
    DomainError,
    ImportConflict,
    InvalidId,
    InvalidTimeParameter,
    NotFound,
    NotPermitted,
)
from fundportal.messages import describe
from fundportal.store.errors import DataLayerError, StoreUnavailable
from fundportal.store.uow import RegisterChanged
from fundportal.web.json_bodies import dumps

log = logging.getLogger("fundportal.api")

CONTENT_TYPE = "application/problem+json"
TITLES = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    429: "Too many requests",
    500: "Server error",
    503: "Service unavailable",
}


def problem(request: HttpRequest, status: int, detail: str = "", **extra: Any) -> HttpResponse:
    body = {"type": "about:blank", "title": TITLES.get(status, "Error"), "status": status, "instance": request.path}
    if detail:
        body["detail"] = detail
    body.update(extra)
    response = HttpResponse(dumps(body), status=status, content_type=CONTENT_TYPE)
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def _field(location: list[Any]) -> str:
    """`["query", "as_of"]` -> "as_of" (the parameter a client sent)."""
    names = [str(part) for part in location if part not in ("query", "path", "body", "header")]
    return ".".join(names) or ".".join(str(part) for part in location)


def validation_error(request: HttpRequest, error: ValidationError) -> HttpResponse:
    errors = [{"field": _field(list(e.get("loc", ()))), "message": e.get("msg", "invalid")} for e in error.errors]
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
    return problem(request, 400, detail, errors=errors)


def authentication_error(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    return problem(request, 401, "Send a valid, unexpired and unrevoked token: Authorization: Bearer <token>.")


def throttled(request: HttpRequest, error: Throttled) -> HttpResponse:
    return problem(request, 429, "Too many calls with this token; retry after the Retry-After seconds.")


def http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    return problem(request, error.status_code, str(error))


def domain_error(request: HttpRequest, error: Exception) -> HttpResponse:
    """A typed error that escaped an endpoint: the pages' status and words."""
    if isinstance(error, StoreUnavailable):
        log.error("503 for %s: %s (%s)", request.path, error.reason, type(error).__name__)
        return problem(request, 503, "The data store is unavailable; try again shortly.")
    if isinstance(error, (Conflict, RegisterChanged, ImportConflict, ApprovalRefused)):
        return problem(request, 409, describe(error))
    if isinstance(error, NotFound):
        return problem(request, 404, describe(error))
    if isinstance(error, NotPermitted):
        return problem(request, 403, describe(error))
    if isinstance(error, InvalidTimeParameter):  # the page's words, named by its parameter
        message = describe(error)
        return problem(
            request, 400, message, field=error.parameter, errors=[{"field": error.parameter, "message": message}]
        )
    if isinstance(error, CursorExpired):
        return problem(request, 400, describe(error), field="cursor")
    if isinstance(error, (InvalidId, BadCursor)):
        field = "cursor" if isinstance(error, BadCursor) else None
        return problem(request, 400, describe(error), **({"field": field} if field else {}))
    if isinstance(error, (DomainError, DataLayerError)):
        log.error("503 for %s: %r", request.path, error)
        return problem(request, 503, "The data store refused the request; try again shortly.")
    log.exception("500 for %s", request.path, exc_info=error)
    return problem(request, 500, "Something went wrong on our side; it has been logged.")


def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Any path under the API that names no endpoint."""
    return problem(request, 404, "No such API endpoint; see /api/v1/openapi.json.")
