"""The read endpoints of funds and investors: each calls the selector its page calls (with the
request's access scope) and shapes the view model as JSON; lists are paged by id (`api.paging`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema

from api import paging, schemas
from api import selectors as api_selectors
from api.parameters import Cursor, Limit, next_link, scope_of
from api.schemas import LineOut, Page, ReconciliationOut, TotalOut
from api.time_travel import AsOf, KnownAt, travel_of
from fundportal.domain.time_travel import valuation_date
from fundportal.web.json_bodies import respond
from fundportal.web.time_travel import TimeTravel
from funds import selectors as fund_selectors
from funds.as_of import as_of_page

router = Router()


def _valued_on(travel: TimeTravel) -> date:
    """The date every figure is valued as of: `as_of`, else `known_at`'s day, else today."""
    return valuation_date(travel.as_of, travel.known_at, date.today())


class FundOut(Schema):
    fund_id: str
    totals: list[TotalOut]


class FundListOut(Page):
    funds: list[FundOut]


@router.get("/funds", response=FundListOut, tags=["funds"])
def fund_list(request: HttpRequest, cursor: str | None = Cursor, limit: int = Limit) -> Any:
    """The covered funds with their totals per currency (the funds page)."""
    funds = fund_selectors.fund_list(scope=scope_of(request))
    page = paging.page_of(funds, lambda f: (f.fund_id,), query=("api-funds",), cursor=cursor, limit=limit)
    return respond(
        request,
        {
            "next": next_link(request, page.next_cursor),
            "funds": [{"fund_id": f.fund_id, "totals": [schemas.total_out(t) for t in f.totals]} for f in page.rows],
        },
    )


class GroupLinesOut(Page):
    as_of: date
    lines: list[LineOut]
    totals: list[TotalOut]


def _lines(
    request: HttpRequest, page: fund_selectors.GroupPage, on: date, kind: str, cursor: str | None, limit: int
) -> Any:
    query = ("api-lines", kind, page.group_id, on.isoformat())
    sliced = paging.page_of(page.lines, lambda x: (x.position_id, x.currency), query=query, cursor=cursor, limit=limit)
    return respond(
        request,
        {
            "next": next_link(request, sliced.next_cursor),
            "as_of": on,
            "lines": [schemas.line_out(line) for line in sliced.rows],
            "totals": [schemas.total_out(t) for t in page.totals],
        },
    )


@router.get("/funds/{fund_id}/lines", response=GroupLinesOut, tags=["funds"])
def fund_lines(
    request: HttpRequest,
    fund_id: str,
    cursor: str | None = Cursor,
    as_of: str | None = AsOf,
    known_at: str | None = KnownAt,
) -> Any:
    """The fund's positions, 100 a page (a line per currency; follow `next`), and its totals
    from the fund's summary: the fund page's own page and signed cursor, so any fund size costs
    the same. `as_of`: the lines valued then, as on the page (one BatchGetItem more). `known_at`:
    the totals and lines as the fund page showed them then (one Query more), valued as of
    `as_of` or its day."""
    travel = travel_of(as_of, known_at)
    on = _valued_on(travel)
    found = fund_selectors.fund_detail(
        fund_id=fund_id, as_of=travel.as_of, cursor=cursor, scope=scope_of(request), known_at=travel.known_at
    )
    page = as_of_page(found, travel)
    return respond(
        request,
        {
            "next": next_link(request, page.next_cursor),
            "as_of": on,
            "lines": [schemas.line_out(line) for line in page.lines],
            "totals": [schemas.total_out(t) for t in page.totals],
        },
    )


class GroupFiguresOut(Schema):
    as_of: date
    totals: list[TotalOut]


@router.get("/funds/{fund_id}/figures", response=GroupFiguresOut, tags=["figures"])
def fund_figures(request: HttpRequest, fund_id: str, as_of: str | None = AsOf, known_at: str | None = KnownAt) -> Any:
    """The fund's totals per currency as of a date: the fund page's totals (from its summary);
    `known_at`: as the fund page showed them then."""
    travel = travel_of(as_of, known_at)
    on = _valued_on(travel)
    page = fund_selectors.fund_detail(
        fund_id=fund_id, as_of=travel.as_of, scope=scope_of(request), known_at=travel.known_at
    )
    return respond(request, {"as_of": on, "totals": [schemas.total_out(t) for t in page.totals]})


@router.get("/funds/{fund_id}/reconciliation", response=ReconciliationOut, tags=["reconciliation"])
def fund_reconciliation(
    request: HttpRequest, fund_id: str, as_of: str | None = AsOf, known_at: str | None = KnownAt
) -> Any:
    """Computed vs reported unfunded per line and the fund's flags (the fund page's section)."""
    travel = travel_of(as_of, known_at)
    page = fund_selectors.fund_detail(
        fund_id=fund_id, as_of=travel.as_of, scope=scope_of(request), known_at=travel.known_at
    )
    found = page.reconciliation
    return respond(request, {"unfunded": schemas.unfunded_lines(found.lines), "flags": schemas.flags_out(found.flags)})


class InvestorListOut(Page):
    investors: list[str]


@router.get("/investors", response=InvestorListOut, tags=["investors"])
def investor_list(request: HttpRequest, cursor: str | None = Cursor, limit: int = Limit) -> Any:
    """The investors of the covered funds (an LP user: their own)."""
    ids = api_selectors.investor_ids(scope=scope_of(request))
    page = paging.page_of(ids, lambda i: (i,), query=("api-investors",), cursor=cursor, limit=limit)
    return respond(request, {"next": next_link(request, page.next_cursor), "investors": page.rows})


@router.get("/investors/{investor_id}/lines", response=GroupLinesOut, tags=["investors"])
def investor_lines(
    request: HttpRequest,
    investor_id: str,
    cursor: str | None = Cursor,
    limit: int = Limit,
    as_of: str | None = AsOf,
    known_at: str | None = KnownAt,
) -> Any:
    """The investor's positions across the covered funds and their totals (the investor page);
    `as_of`: valued then from the registers already read; `known_at`: the registers as they
    stood then (one Query more), as on the investor page."""
    travel = travel_of(as_of, known_at)
    on = _valued_on(travel)
    page = fund_selectors.investor_detail(
        investor_id=investor_id, as_of=on, scope=scope_of(request), known_at=travel.known_at
    )
    return _lines(request, page, on, "investor", cursor, limit)


@router.get("/investors/{investor_id}/figures", response=GroupFiguresOut, tags=["figures"])
def investor_figures(
    request: HttpRequest, investor_id: str, as_of: str | None = AsOf, known_at: str | None = KnownAt
) -> Any:
    """The investor's totals per currency as of a date (`known_at`: as the investor page showed
    them then)."""
    travel = travel_of(as_of, known_at)
    on = _valued_on(travel)
    page = fund_selectors.investor_detail(
        investor_id=investor_id, as_of=on, scope=scope_of(request), known_at=travel.known_at
    )
    return respond(request, {"as_of": on, "totals": [schemas.total_out(t) for t in page.totals]})


@router.get("/investors/{investor_id}/reconciliation", response=ReconciliationOut, tags=["reconciliation"])
def investor_reconciliation(
    request: HttpRequest, investor_id: str, as_of: str | None = AsOf, known_at: str | None = KnownAt
) -> Any:
    """Computed vs reported unfunded per line and the investor's flags (the investor page's section)."""
    travel = travel_of(as_of, known_at)
    page = fund_selectors.investor_detail(
        investor_id=investor_id, as_of=travel.as_of, scope=scope_of(request), known_at=travel.known_at
    )
    found = page.reconciliation
    return respond(request, {"unfunded": schemas.unfunded_lines(found.lines), "flags": schemas.flags_out(found.flags)})
