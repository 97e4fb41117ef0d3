"""The read endpoints of documents and positions (funds and investors: `api.group_views`). Each
validates its parameters, calls the selector its page calls (with the request's access scope) and
shapes the view model as JSON (`api.schemas`). Nothing here reads DynamoDB itself, so an endpoint
makes the requests its page makes."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from django.conf import settings
from django.http import HttpRequest
from ninja import Router, Schema
from ninja.errors import HttpError, ValidationError

from api import paging, schemas
from api.parameters import Cursor, FromDate, FundFilter, InvestorFilter, Limit, ToDate, next_link, scope_of
from api.schemas import DocumentOut, EntryOut, FiguresOut, FlagOut, LineOut, MoneyOut, Page, ReconciliationOut
from api.time_travel import AsOf, KnownAt, travel_of
from documents import list_selectors
from documents import selectors as document_selectors
from documents.list_views import ListFilterForm
from documents.time_travel import check_dated_by, list_filters_as_of
from fundportal.domain.kinds import DOCUMENT_STATUSES, DOCUMENT_TYPES
from fundportal.domain.time_travel import valuation_date
from fundportal.web.json_bodies import respond
from funds import selectors as fund_selectors
from positions import selectors as position_selectors
from positions.as_of import position_history_as_of
from positions.views import PositionDetailView

router = Router()

# --- documents ------------------------------------------------------------------------------------


class ListedDocumentOut(Schema):
    document_id: str
    title: str
    fund_id: str
    as_of_date: date | None
    document_type: str
    status: str


class DocumentListOut(Page):
    documents: list[ListedDocumentOut]


@router.get("/documents", response=DocumentListOut, tags=["documents"])
def document_list(
    request: HttpRequest,
    fund: str | None = FundFilter,
    type: Literal[DOCUMENT_TYPES] | None = None,  # type: ignore[valid-type]
    status: Literal[DOCUMENT_STATUSES] | None = None,  # type: ignore[valid-type]
    start: date | None = FromDate,
    end: date | None = ToDate,
    cursor: str | None = Cursor,
    as_of: str | None = AsOf,
    known_at: str | None = KnownAt,
) -> Any:
    """Current documents across months, newest first, 50 a page: the documents page's list and
    filters; `as_of`: those dated after it left out, as on the page."""
    travel = travel_of(as_of, known_at)
    form = ListFilterForm(request.GET)  # the page's own checks (a valid fund id, dates in order)
    if not form.is_valid():
        # An error of the whole form is the date range's: named by its first parameter.
        names = {**ListFilterForm.PARAMETERS, "__all__": "from"}
        errors = [
            {"loc": ["query", names.get(n, n)], "msg": m} for n, messages in form.errors.items() for m in messages
        ]
        raise ValidationError(errors)
    filters = list_filters_as_of(form.filters(), travel.as_of)
    page = list_selectors.document_list_page(filters=filters, cursor=cursor, scope=scope_of(request))
    return respond(
        request,
        {
            "next": next_link(request, page.older_cursor),
            "documents": [
                {
                    "document_id": d.summary.document_id,
                    "title": d.summary.title,
                    "fund_id": d.summary.fund_id,
                    "as_of_date": d.summary.as_of_date,
                    "document_type": d.document_type,
                    "status": d.summary.status,
                }
                for d in page.documents
            ],
        },
    )


class DocumentRowOut(Schema):
    position_id: str
    fund_id: str
    investor_id: str
    entries: list[EntryOut]
    figures: list[FiguresOut]


class ActivityOut(Schema):
    amount: MoneyOut
    status: str
    as_of_date: date | None


class DocumentOverviewOut(Schema):
    document: DocumentOut
    capital_activity: ActivityOut | None
    positions: list[DocumentRowOut]
    totals: list[FiguresOut]


@router.get("/documents/{document_id}", response=DocumentOverviewOut, tags=["documents"])
def document_overview(
    request: HttpRequest, document_id: str, as_of: str | None = AsOf, known_at: str | None = KnownAt
) -> Any:
    """Everything a document holds, by position, with figures per currency (the document page);
    `as_of` before the document's date: a 404 saying so, as on the page."""
    travel = travel_of(as_of, known_at)
    page = document_selectors.document_overview(document_id=document_id, scope=scope_of(request))
    check_dated_by(page.document, travel.as_of)
    activity = page.activity
    shown_activity = (
        None
        if activity is None
        else {"amount": schemas.money_out(activity.money), "status": activity.status, "as_of_date": activity.as_of_date}
    )
    return respond(
        request,
        {
            "document": schemas.document_out(page.document),
            "capital_activity": shown_activity,
            "positions": [
                {
                    "position_id": row.position_id,
                    "fund_id": row.fund_id,
                    "investor_id": row.investor_id,
                    "entries": schemas.entries_out(row.cells),
                    "figures": [schemas.figures_out(f) for f in row.figures],
                }
                for row in page.rows
            ],
            "totals": [schemas.figures_out(f) for f in page.totals],
        },
    )


class DocumentReconciliationOut(Schema):
    activity: MoneyOut | None
    calls: MoneyOut | None
    flags: list[FlagOut]


@router.get("/documents/{document_id}/reconciliation", response=DocumentReconciliationOut, tags=["reconciliation"])
def document_reconciliation(request: HttpRequest, document_id: str) -> Any:
    """The document's capital activity against its positions' calls, and its flags."""
    page = document_selectors.document_overview(document_id=document_id, scope=scope_of(request))
    found = page.reconciliation
    return respond(
        request,
        {
            "activity": schemas.money_out(found.activity),
            "calls": schemas.money_out(found.calls),
            "flags": schemas.flags_out(found.flags),
        },
    )


class AuditOut(Schema):
    at: str | None
    user: str
    action: str
    target: str
    changes: dict[str, object] | None


class AuditTrailOut(Page):
    document_id: str
    entries: list[AuditOut]


@router.get("/documents/{document_id}/audit", response=AuditTrailOut, tags=["documents"])
def document_audit(request: HttpRequest, document_id: str, cursor: str | None = Cursor) -> Any:
    """Who changed what and when, newest first, 50 a page (the audit page's; follow `next`)."""
    page = document_selectors.audit_trail(document_id=document_id, cursor=cursor, scope=scope_of(request))
    return respond(
        request,
        {
            "next": next_link(request, page.next_cursor),
            "document_id": page.document.document_id,
            "entries": [
                {
                    "at": e.at.isoformat() if e.at else None,
                    "user": e.user,
                    "action": e.action,
                    "target": e.target,
                    "changes": _jsonable(e.changes),
                }
                for e in page.entries
            ],
        },
    )


def _jsonable(value: object) -> object:
    """An audit change as JSON: Decimals and dates as strings, the rest as kept."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


# --- positions ------------------------------------------------------------------------------------


class HistoryRowOut(Schema):
    document_id: str
    as_of_date: date | None
    currency: str
    entries: list[EntryOut]
    to_date: FiguresOut


class PositionHistoryOut(Page):
    position_id: str
    fund_id: str
    investor_id: str
    headline: list[LineOut]
    rows: list[HistoryRowOut]


@router.get("/positions/{position_id}", response=PositionHistoryOut, tags=["positions"])
def position_history(
    request: HttpRequest,
    position_id: str,
    cursor: str | None = Cursor,
    as_of: str | None = AsOf,
    known_at: str | None = KnownAt,
) -> Any:
    """A position across documents with running figures, a page at a time (the position page);
    with `as_of` / `known_at`: every document up to that date on one page, valued then."""
    history = _history(request, position_id, cursor, as_of, known_at)
    return respond(
        request,
        {
            "next": next_link(request, history.next_cursor),
            "position_id": history.position_id,
            "fund_id": history.fund_id,
            "investor_id": history.investor_id,
            "headline": [schemas.line_out(line) for line in history.headline],
            "rows": [
                {
                    "document_id": row.document_id,
                    "as_of_date": row.as_of_date,
                    "currency": row.currency,
                    "entries": schemas.entries_out(row.cells),
                    "to_date": schemas.figures_out(row.to_date),
                }
                for row in history.rows
            ],
        },
    )


def _history(
    request: HttpRequest, position_id: str, cursor: str | None, as_of: str | None = None, known_at: str | None = None
) -> position_selectors.PositionHistory:
    """The position page's history: as of a date / as known at a moment when asked (the page's
    as-of selector, one Query), else the page of `cursor`. Its cells without their texts: the
    API shows amounts as numbers (`schemas.entries_out`), never the page's words."""
    travel = travel_of(as_of, known_at)
    if travel.active:
        return position_history_as_of(
            position_id=position_id,
            as_of=travel.as_of,
            known_at=travel.known_at,
            text=False,
            scope=scope_of(request),
        )
    return position_selectors.position_history(
        position_id=position_id,
        cursor=cursor,
        page_size=getattr(settings, "POSITION_PAGE_SIZE", PositionDetailView.PAGE_ITEMS),
        text=False,
        scope=scope_of(request),
    )


class FiguresAsOfOut(Schema):
    as_of: date
    known_at: datetime | None
    lines: list[LineOut]


@router.get("/positions/{position_id}/figures", response=FiguresAsOfOut, tags=["figures"])
def position_figures(
    request: HttpRequest, position_id: str, as_of: str | None = AsOf, known_at: str | None = KnownAt
) -> Any:
    """The position's figures per currency as of a date and as known at a moment: the position
    page's headline with the same parameters (valued as of `as_of`, else `known_at`'s day, else today)."""
    travel = travel_of(as_of, known_at)
    history = _history(request, position_id, None, as_of, known_at)
    on = valuation_date(travel.as_of, travel.known_at, date.today())
    return respond(
        request,
        {"as_of": on, "known_at": travel.known_at, "lines": [schemas.line_out(line) for line in history.headline]},
    )


@router.get("/positions/{position_id}/reconciliation", response=ReconciliationOut, tags=["reconciliation"])
def position_reconciliation(request: HttpRequest, position_id: str) -> Any:
    """Computed vs reported unfunded and the flags of the position's register and first page."""
    found = _history(request, position_id, None).reconciliation
    unfunded = schemas.unfunded_lines(found.unfunded.lines)
    return respond(request, {"unfunded": unfunded, "flags": schemas.flags_out(found.flags)})


class PositionOut(Schema):
    position_id: str
    fund_id: str
    investor_id: str
    currencies: list[str]
    commitment: MoneyOut | None


class PositionListOut(Page):
    positions: list[PositionOut]


@router.get("/positions", response=PositionListOut, tags=["positions"])
def position_list(
    request: HttpRequest,
    fund: str | None = FundFilter,
    investor: str | None = InvestorFilter,
    cursor: str | None = Cursor,
    limit: int = Limit,
) -> Any:
    """A fund's or an investor's positions (give one of `fund`, `investor`): the lines of its page, by position."""
    if bool(fund) == bool(investor):
        raise HttpError(400, "Give one of fund or investor.")
    scope = scope_of(request)
    if fund:  # the fund page's own page of 100 positions and its signed cursor
        group = fund_selectors.fund_detail(fund_id=fund, cursor=cursor, scope=scope)
    else:
        group = fund_selectors.investor_detail(investor_id=investor or "", scope=scope)
    held: dict[str, dict[str, Any]] = {}
    for line in group.lines:
        position = held.setdefault(
            line.position_id,
            {
                "position_id": line.position_id,
                "fund_id": line.fund_id,
                "investor_id": line.investor_id,
                "currencies": [],
                "commitment": None,
            },
        )
        position["currencies"].append(line.currency)
        if line.commitment is not None:
            position["commitment"] = schemas.money_out(line.commitment)
    if fund:
        return respond(request, {"next": next_link(request, group.next_cursor), "positions": list(held.values())})
    query = ("api-positions", "", investor or "")
    page = paging.page_of(list(held.values()), lambda p: (p["position_id"],), query=query, cursor=cursor, limit=limit)
    return respond(request, {"next": next_link(request, page.next_cursor), "positions": page.rows})
