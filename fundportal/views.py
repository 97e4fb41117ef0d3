"""Project-level views: health check and error pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from fundportal.store import tables
from fundportal.store.errors import StoreUnavailable


@login_not_required
@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when DynamoDB answers and the table and its indexes are ACTIVE, else 503 (GET or
    HEAD). Anonymous callers (load balancers) get the status only; staff also get the table,
    its status, item count and the reason: nothing internal is disclosed to the world."""
    try:
        status = tables.describe()
    except StoreUnavailable as error:
        body, code = {"status": "unavailable", "reason": error.reason}, 503
    else:
        body = {"table": status.name, "table_status": status.status, "item_count": status.item_count}
        if status.status == "MISSING":
            body, code = {**body, "status": "unavailable", "reason": "table does not exist"}, 503
        elif not status.active:
            body, code = {**body, "status": "unavailable", "reason": "table or index not ACTIVE"}, 503
        else:
            body, code = {**body, "status": "ok"}, 200
    if not request.user.is_staff:
        body = {"status": body["status"]}
    return JsonResponse(body, status=code)


def bad_request(request: HttpRequest, exception: Exception | None = None):
    return render(request, "400.html", {"message": "The request could not be understood."}, status=400)


def permission_denied(request: HttpRequest, exception: Exception | None = None):
    return render(request, "403.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception | None = None):
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest):
    return render(request, "500.html", status=500)
