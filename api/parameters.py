"""What the endpoints share of a request: the query parameters of the lists and filters, the
caller's access scope (the token's user's, as on the pages), and the link to the next page."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Query

from api import paging
from fundportal.access.scope import request_scope
from fundportal.domain.access import AccessScope

Limit = Query(paging.DEFAULT_LIMIT, ge=1, le=paging.MAX_LIMIT, description="rows a page")
Cursor = Query(None, max_length=4000, description="the `next` link's cursor")
FundFilter = Query(None, max_length=64, description="a fund id: only its documents or positions")
InvestorFilter = Query(None, max_length=64, description="only this investor's positions")
FromDate = Query(None, alias="from", description="as-of date from")
ToDate = Query(None, alias="to", description="as-of date to")


def scope_of(request: HttpRequest) -> AccessScope:
    return request_scope(request)


def next_link(request: HttpRequest, cursor: str | None) -> str | None:
    if not cursor:
        return None
    params = request.GET.copy()
    params["cursor"] = cursor
    return request.build_absolute_uri(f"{request.path}?{params.urlencode()}")
