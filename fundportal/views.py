"""Project-level views: health check and error pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from fundportal.dynamo import tables
from fundportal.dynamo.errors import StoreUnavailable


@login_not_required
@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when DynamoDB answers and the table and its indexes are ACTIVE, else 503."""
    try:
        status = tables.describe()
    except StoreUnavailable as error:
        return JsonResponse({"status": "unavailable", "reason": error.reason}, status=503)
    body = {"table": status.name, "table_status": status.status, "item_count": status.item_count}
    if status.status == "MISSING":
        return JsonResponse({**body, "status": "unavailable", "reason": "table does not exist"}, status=503)
    if not status.active:
        return JsonResponse({**body, "status": "unavailable", "reason": "table or index not ACTIVE"}, status=503)
    return JsonResponse({**body, "status": "ok"})


def bad_request(request: HttpRequest, exception: Exception | None = None):
    return render(request, "400.html", {"message": "The request could not be understood."}, status=400)


def permission_denied(request: HttpRequest, exception: Exception | None = None):
    return render(request, "403.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception | None = None):
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest):
    return render(request, "500.html", status=500)
