"""Staff-only DynamoDB pages inside the Django admin: table and indexes, access patterns with
their live cost, the item-collection explorer and the request log.

Every view is wrapped in `admin.site.admin_view` (see urls.py), so the admin's own
permission check applies: active staff only, others go to the admin login.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.views.generic import TemplateView

from fundportal.access.scope import request_scope
from fundportal.domain.errors import BadCursor, InvalidId, NotFound
from fundportal.messages import describe
from fundportal.ops import access_patterns, explorer
from fundportal.store import tables
from fundportal.store.instrumentation import page_log
from fundportal.store.schema import TABLE

from .forms import ExplorerForm, PatternRunForm, RequestLogForm

SECTIONS = (
    ("dynamodb_admin:table", "Table and indexes", "Status, billing, item counts, key schemas and drift."),
    ("dynamodb_admin:patterns", "Access patterns", "The catalog, run live against a document and position."),
    ("dynamodb_admin:explorer", "Item-collection explorer", "Raw items of a document or a position collection."),
    ("dynamodb_admin:requests", "Request log", "Recent pages and what each cost in DynamoDB."),
)


class DashboardView(TemplateView):
    """Adds the admin's context (site header, sidebar, user tools) and the page title."""

    title = "DynamoDB"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context.update(admin.site.each_context(self.request))
        context.update(
            title=self.title,
            sections=[(reverse(name), label, text) for name, label, text in SECTIONS],
            dynamodb=getattr(self.request, "dynamodb", None),
        )
        return context


class IndexView(DashboardView):
    template_name = "admin/dynamodb/index.html"


def _key_schema(key_schema: list[dict[str, str]]) -> list[tuple[str, str]]:
    return [(k["AttributeName"], "partition" if k["KeyType"] == "HASH" else "sort") for k in key_schema]


@dataclass
class IndexRow:
    """An index as DynamoDB reports it, beside the project's definition of it."""

    name: str
    key_schema: list[tuple[str, str]]
    projection: str
    non_key_attributes: list[str]
    status: str
    item_count: int | None
    size_bytes: int | None
    why: str = ""
    problems: list[str] = field(default_factory=list)


def index_rows(status: tables.TableStatus) -> list[IndexRow]:
    live = {index["IndexName"]: index for index in status.indexes}
    defined = [index.physical_name for index in TABLE.indexes]
    names = defined + [name for name in live if name not in defined]
    rows = []
    for name in names:
        got = live.get(name)
        definition = next((i for i in TABLE.indexes if i.physical_name == name), None)
        problems = [p for p in status.problems if p.startswith(f"index {name} ")]
        if got is None:
            assert definition is not None
            rows.append(
                IndexRow(
                    name,
                    _key_schema(definition.to_api()["KeySchema"]),
                    definition.projection,
                    list(definition.non_key_attributes),
                    "MISSING",
                    None,
                    None,
                    definition.why,
                    problems,
                )
            )
            continue
        projection = got.get("Projection", {})
        rows.append(
            IndexRow(
                name,
                _key_schema(got.get("KeySchema", [])),
                projection.get("ProjectionType", "?"),
                sorted(projection.get("NonKeyAttributes", [])),
                got.get("IndexStatus", "ACTIVE"),
                got.get("ItemCount"),
                got.get("IndexSizeBytes"),
                definition.why if definition else "",
                problems,
            )
        )
    return rows


class TableView(DashboardView):
    title = "Table and indexes"
    template_name = "admin/dynamodb/table.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        status = tables.describe()
        raw = status.raw or {}
        index_problems = {p for row in index_rows(status) for p in row.problems} if status.raw else set()
        return super().get_context_data(
            status=status,
            billing_mode=raw.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED" if raw else None),
            key_schema=_key_schema(raw.get("KeySchema", [])),
            attribute_definitions=raw.get("AttributeDefinitions", []),
            created=raw.get("CreationDateTime"),
            indexes=index_rows(status) if status.raw else [],
            table_problems=[p for p in status.problems if p not in index_problems],
            **kwargs,
        )


class PatternsView(DashboardView):
    """The catalog, and every read pattern run live against a document and position
    (`access_patterns.run_patterns`, the code behind `manage.py access_patterns`). Write patterns are
    listed catalog-only: a page view never writes."""

    title = "Access patterns"
    template_name = "admin/dynamodb/patterns.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = PatternRunForm(request.GET or None, initial={"document": "DOC001", "position": "POSITION_1"})
        context: dict[str, Any] = {"form": form, "catalog": access_patterns.CATALOG}
        status = 200
        if form.is_bound and form.is_valid():
            data = form.cleaned_data
            try:
                results = access_patterns.run_patterns(data["document"], data["position"])
            except InvalidId as error:
                form.add_error(None, describe(error))
                status = 400
            except NotFound as error:
                form.add_error(None, describe(error))
                status = 404
            else:
                executed = [r for r in results if r.executed]
                context.update(
                    results=results,
                    total_requests=sum(r.requests for r in executed),
                    total_rcu=sum(r.consumed_rcu for r in executed),
                    total_ms=sum(r.ms for r in executed),
                    any_scan=any(r.scan for r in results),
                )
        elif form.is_bound:
            status = 400
        return self.render_to_response(self.get_context_data(**context), status=status)


@dataclass
class ExplorerRow:
    item: dict[str, Any]
    sort_key: str
    attributes: list[tuple[str, Any]]
    index_keys: list[explorer.IndexKeys]
    json: str


class ExplorerView(DashboardView):
    title = "Item-collection explorer"
    template_name = "admin/dynamodb/explorer.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = ExplorerForm(request.GET or None)
        context: dict[str, Any] = {"form": form}
        status = 200
        if form.is_bound and form.is_valid():
            try:
                context.update(self.explore(form.cleaned_data))
            except (InvalidId, BadCursor) as error:
                form.add_error(None, describe(error))
                status = 400
        elif form.is_bound:
            status = 400
        return self.render_to_response(self.get_context_data(**context), status=status)

    def explore(self, data: dict[str, Any]) -> dict[str, Any]:
        page_size = data.get("page_size") or explorer.DEFAULT_PAGE_SIZE
        if data["document"]:
            page = explorer.document_collection(data["document"], data.get("cursor") or None, page_size)
            sort_key_attribute = TABLE.sk
        else:
            page = explorer.position_collection(data["position"], data.get("cursor") or None, page_size)
            sort_key_attribute = TABLE.index(page.index).sk
        page = explorer.within_scope(page, request_scope(self.request))
        rows = [
            ExplorerRow(
                item=item,
                sort_key=item.get(sort_key_attribute, ""),
                attributes=sorted(item.items()),
                index_keys=explorer.index_keys(item),
                json=explorer.to_json(item),
            )
            for item in page.items
        ]
        next_url = None
        if page.next_cursor:
            query = {page.collection: page.collection_id, "page_size": page_size, "cursor": page.next_cursor}
            next_url = f"{reverse('dynamodb_admin:explorer')}?{urlencode(query)}"
        return {
            "page": page,
            "rows": rows,
            "sort_key_attribute": sort_key_attribute,
            "next_url": next_url,
            "continued": bool(data.get("cursor")),
            "indexes": TABLE.indexes,
        }


class RequestLogView(DashboardView):
    title = "Request log"
    template_name = "admin/dynamodb/requests.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = RequestLogForm(request.GET or None)
        n = 50
        if form.is_bound:
            if not form.is_valid():
                return self.render_to_response(self.get_context_data(form=form, entries=[]), status=400)
            n = form.cleaned_data["n"] or n
        entries = page_log.latest(n)
        if not request_scope(request).all_funds:  # a path names no fund: staff covering some see their own
            entries = [entry for entry in entries if entry.user == request.user.get_username()]
        context = self.get_context_data(
            form=form,
            n=n,
            entries=entries,
            flagged=sum(1 for entry in entries if entry.flagged),
        )
        return self.render_to_response(context)
