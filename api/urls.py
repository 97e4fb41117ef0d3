"""/api/v1/: ninja's URL patterns, each view wrapped to say what it cost and who called it; any
other path under it is a problem-details 404, never the HTML page."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, re_path

from api.problems import not_found, problem
from api.site import api

log = logging.getLogger("fundportal.api")

REQUESTS_HEADER = "X-DynamoDB-Requests"
READ_UNITS_HEADER = "X-DynamoDB-Read-Units"
READ_METHODS = ("GET", "HEAD")


def accounted(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The response names its DynamoDB requests and read units (what `DynamoDBMiddleware`
    collected for this request, as the pages' footer shows); the call is logged with its token's
    name. The API authenticates by token itself, so the site's sign-in redirect is not applied."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in READ_METHODS:
            response = problem(request, 405, "The API is read-only: GET only.")
            response["Allow"] = ", ".join(READ_METHODS)
            return response
        response = view(request, *args, **kwargs)
        collector = getattr(request, "dynamodb", None)
        count = collector.count if collector is not None else 0
        units = collector.read_units if collector is not None else 0.0
        response[REQUESTS_HEADER] = str(count)
        response[READ_UNITS_HEADER] = f"{units:g}"
        token = getattr(request, "api_token", None)
        log.info(
            "api %s %s %s token=%r user=%s dynamodb_requests=%d read_units=%g",
            request.method,
            request.get_full_path()[:300],
            response.status_code,
            token.name if token is not None else "",
            token.user.get_username() if token is not None else "",
            count,
            units,
        )
        return response

    wrapped.login_required = False  # type: ignore[attr-defined]
    # No cookie session here, so nothing for CSRF to protect: a POST gets the API's 405, not the HTML 403.
    wrapped.csrf_exempt = True  # type: ignore[attr-defined]
    return wrapped


def _patterns() -> list[URLPattern]:
    patterns, _, _ = api.urls
    wrapped = []
    for pattern in patterns:
        assert isinstance(pattern, URLPattern)
        wrapped.append(URLPattern(pattern.pattern, accounted(pattern.callback), pattern.default_args, pattern.name))
    missing = accounted(not_found)
    return [*wrapped, re_path(r"^.*$", missing, name="not_found")]


urlpatterns = _patterns()
app_name = "api"
