"""The access-pattern catalog of DESIGN.md and a runner that measures each against the live table.

Used by `manage.py access_patterns` and the admin dashboard.

Read patterns (1-9) run against the document and position you name, each inside its own
`instrumentation.collect()`, so requests, items, consumed read units and time are measured,
not estimated.

Write patterns (10-12) must never change the data being explained. With `writes=True` they
run for real, but inside a throwaway document and a throwaway position (ids starting
`EXPLAIN-`, no as-of date, so they never enter the month index or the month catalog): the
runner creates that document, measures the restatement (10), the position-entry write (11) and
a bulk load of one batch (12), and then deletes the throwaway partitions again (document and
audit trail). Only the throwaway ids ever receive writes. With `writes=False` (the default, safe
for a page view) the write patterns are reported catalog-only: their request shape and key
condition, `executed=False`, and zero measurements - never invented figures.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import asdict, dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from documents import services
from fundportal.domain.errors import NotFound
from fundportal.domain.kinds import POSITION_KINDS, THROWAWAY_PREFIX, Kind, SearchKind, validate_id
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall
from fundportal.messages import describe
from fundportal.ops import maintenance
from fundportal.store.instrumentation import Collector, collect
from fundportal.store.mapping import keys
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories import DocumentRepository, PositionRepository
from fundportal.store.repositories.summaries import shard_count as summary_shard_count
from fundportal.store.schema import ENTITY_INDEX, MONTH_INDEX, POSITION_INDEX

if TYPE_CHECKING:
    from collections.abc import Callable


log = logging.getLogger("fundportal.dynamodb")

BULK_LOAD_SAMPLE = 24  # one BatchWriteItem (25 a request)


@dataclass(frozen=True, slots=True)
class Pattern:
    """One access pattern of DESIGN.md and the request that serves it."""

    number: int
    name: str
    request: str  # the request shape, as in DESIGN.md
    operation: str  # the DynamoDB operation that serves it
    index: str | None  # None = base table
    key_condition: str  # template; placeholders filled from the key codec (see `key_values`)
    writes: bool = False


CATALOG: tuple[Pattern, ...] = (
    Pattern(1, "document overview", "Query PK = doc (follow LastEvaluatedKey)", "Query", None, "PK = {document}"),
    Pattern(
        2,
        "position in a document",
        "BatchGetItem of the three known keys",
        "BatchGetItem",
        None,
        "PK = {document} AND SK IN ({entry_sks})",
    ),
    Pattern(
        3,
        "capital call of a position in a document",
        "GetItem",
        "GetItem",
        None,
        "PK = {document} AND SK = {capital_call_sk}",
    ),
    Pattern(
        4,
        "capital items of a document",
        "Query PK = doc AND begins_with(SK, 'CAPITAL_')",
        "Query",
        None,
        "PK = {document} AND begins_with(SK, '{capital_prefix}')",
    ),
    Pattern(
        5,
        "current document",
        "GetItem DOCUMENT#LATEST",
        "GetItem",
        None,
        "PK = {document} AND SK = {latest_document_sk}",
    ),
    Pattern(
        6,
        "position entity in a document via the entity index",
        "Query GSI_Entity_Document",
        "Query",
        ENTITY_INDEX,
        "GSI_PK = {entity_gsi_pk}",
    ),
    Pattern(
        7,
        "position across all documents",
        "Query GSI_Position_Document, cursor-paginated (first page)",
        "Query",
        POSITION_INDEX,
        "GSI2_PK = {position}",
    ),
    Pattern(
        8,
        "document versions in a date range",
        "Query SK BETWEEN",
        "Query",
        None,
        "PK = {document} AND SK BETWEEN {history_lo} AND {history_hi}",
    ),
    Pattern(
        9,
        "current documents by month",
        "Query the month-sharded sparse index",
        "Query",
        MONTH_INDEX,
        "GSI3_PK = {month_shard}",
    ),
    Pattern(
        10,
        "publish a restated document",
        "TransactWriteItems: archive current + replace current, conditioned on Revision",
        "TransactWriteItems",
        None,
        "Put PK = {document}, SK = {latest_document_sk} IF Revision = :expected; "
        "Put archive IF attribute_not_exists(PK)",
        writes=True,
    ),
    Pattern(
        11,
        "record or change a position entry",
        "conditional write; the document must exist",
        "TransactWriteItems",
        None,
        "ConditionCheck PK = {document}, SK = {latest_document_sk} attribute_exists(PK); "
        "Put PK = {document}, SK = {capital_call_sk}",
        writes=True,
    ),
    Pattern(
        12,
        "bulk load",
        "BatchWriteItem, 25 a request, unprocessed items retried with backoff, parallel",
        "BatchWriteItem",
        None,
        "PutRequest x 25 per request",
        writes=True,
    ),
)


@dataclass(frozen=True, slots=True)
class PatternResult:
    """What one pattern cost against the live table."""

    number: int
    name: str
    operation: str  # operations actually made, e.g. "Query" or "GetItem, GetItem, TransactWriteItems"
    index: str | None
    key_condition: str
    items: int
    requests: int
    consumed_rcu: float
    consumed_wcu: float
    ms: float
    scan: bool  # True if any request was a Scan (never expected)
    executed: bool = True  # False: catalog-only (write pattern not run)
    note: str = ""

    @property
    def pattern(self) -> str:
        return self.name

    @property
    def used_scan(self) -> bool:
        return self.scan

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: the command's --format json and the dashboard use these keys."""
        data = asdict(self)
        data["pattern"] = data.pop("name")
        data["consumed_rcu"] = round(self.consumed_rcu, 2)
        data["consumed_wcu"] = round(self.consumed_wcu, 2)
        data["ms"] = round(self.ms, 2)
        return {"number": data.pop("number"), "pattern": data.pop("pattern"), **data}


def key_values(document_id: str, position_id: str, month: date | None = None) -> dict[str, str]:
    """Concrete key strings for the catalog's templates, all built by the key codec."""
    lo, hi = keys.history_range(Kind.DOCUMENT, None, None)
    entry_sks = [keys.entry_sk(kind, position_id) for kind in POSITION_KINDS]
    return {
        "document": keys.document_pk(document_id),
        "position": keys.position_index_pk(position_id),
        "entry_sks": ", ".join(entry_sks),
        "capital_call_sk": keys.entry_sk(Kind.CAPITAL_CALL, position_id),
        "capital_prefix": keys.CAPITAL_PREFIX,
        "latest_document_sk": keys.latest_sk(Kind.DOCUMENT),
        "entity_gsi_pk": keys.entity_index_keys(Kind.CAPITAL_CALL, document_id, position_id)[0],
        "history_lo": lo,
        "history_hi": hi,
        "month_shard": keys.month_shard(month or date.today()),
    }


def _measure(pattern: Pattern, values: dict[str, str], action: Callable[[], int]) -> PatternResult:
    """Run `action` (returns the number of items it produced) inside its own collector."""
    note = ""
    with collect() as collector:
        started = time.perf_counter()
        try:
            items = action()
        except NotFound as error:
            items, note = 0, describe(error)
        elapsed = (time.perf_counter() - started) * 1000
    return _result(pattern, values, collector, items, note, elapsed)


def _result(
    pattern: Pattern, values: dict[str, str], collector: Collector, items: int, note: str, elapsed: float
) -> PatternResult:
    operations = collector.operations
    indexes = {r.index for r in collector.records}
    return PatternResult(
        number=pattern.number,
        name=pattern.name,
        operation=", ".join(operations) or pattern.operation,
        index=indexes.pop() if len(indexes) == 1 else pattern.index,
        key_condition=pattern.key_condition.format(**values),
        items=items,
        requests=collector.count,
        consumed_rcu=collector.read_units,
        consumed_wcu=collector.write_units,
        ms=collector.ms or elapsed,
        scan="Scan" in operations,
        note=note,
    )


def catalog_only(pattern: Pattern, values: dict[str, str], note: str) -> PatternResult:
    return PatternResult(
        number=pattern.number,
        name=pattern.name,
        operation=pattern.operation,
        index=pattern.index,
        key_condition=pattern.key_condition.format(**values),
        items=0,
        requests=0,
        consumed_rcu=0.0,
        consumed_wcu=0.0,
        ms=0.0,
        scan=False,
        executed=False,
        note=note,
    )


def run_patterns(document_id: str, position_id: str, *, writes: bool = False) -> list[PatternResult]:
    """Run every pattern of CATALOG against the live table; one PatternResult per pattern.

    Raises InvalidId for malformed ids and NotFound when the document does not exist (the
    explanation would be meaningless). A position missing from the document is reported in
    the rows' `note` with items=0: the request was still made and measured.
    """
    validate_id(document_id, "document id")
    validate_id(position_id, "position id")
    by_number = {p.number: p for p in CATALOG}
    repository, positions = DocumentRepository(), PositionRepository()
    overview_holder: dict[str, Any] = {}

    def overview() -> int:
        result = overview_holder["overview"] = repository.overview(document_id)
        return (
            1
            + (result.capital_activity is not None)
            + len(result.document_history)
            + len(result.activity_history)
            + sum(len(p.entries) for p in result.positions)
        )

    # Pattern 1 first: a missing document stops the run with NotFound.
    with collect() as collector:
        started = time.perf_counter()
        items = overview()
        elapsed = (time.perf_counter() - started) * 1000
    as_of = overview_holder["overview"].document.as_of_date
    values = key_values(document_id, position_id, as_of)
    results = [_result(by_number[1], values, collector, items, "", elapsed)]

    month = as_of or date.today()
    reads: list[tuple[int, Callable[[], int]]] = [
        (2, lambda: len(repository.position_in_document(document_id, position_id).entries)),
        (3, lambda: int(bool(repository.entry(document_id, Kind.CAPITAL_CALL, position_id)))),
        (4, lambda: len(repository.capital_items(document_id))),
        (5, lambda: int(bool(repository.get(document_id)))),
        (6, lambda: int(bool(repository.entry_via_index(Kind.CAPITAL_CALL, position_id, document_id)))),
        (7, lambda: len(positions.page(position_id).entries)),
        (8, lambda: len(repository.versions(document_id))),
        (9, lambda: len(repository.in_month(month.year, month.month))),
    ]
    results += [_measure(by_number[n], values, action) for n, action in reads]

    write_patterns = [p for p in CATALOG if p.writes]
    if writes:
        results += _run_write_patterns(repository, write_patterns)
    else:
        results += [catalog_only(p, values, "catalog only: write pattern not run") for p in write_patterns]
    return sorted(results, key=lambda r: r.number)


def _run_write_patterns(repository: DocumentRepository, patterns: list[Pattern]) -> list[PatternResult]:
    """Measure the write patterns inside a throwaway document and position, then delete them."""
    suffix = uuid.uuid4().hex[:12]
    document_id, position_id = f"{THROWAWAY_PREFIX}{suffix}", f"{THROWAWAY_PREFIX}P-{suffix}"
    values = key_values(document_id, position_id)
    by_number = {p.number: p for p in patterns}
    note = f"measured on throwaway document {document_id} (deleted afterwards)"

    def entry(position: str, amount: str) -> CapitalCall:
        return CapitalCall(
            document_id=document_id,
            position_id=position,
            fund_id="EXPLAIN",
            investor_id="EXPLAIN",
            amount=Decimal(amount),
        )

    def bulk_load() -> int:
        items = [to_item(entry(f"{position_id}-{n}", "1000.00")) for n in range(BULK_LOAD_SAMPLE)]
        return repository.bulk_load(items, workers=1)  # workers=1: its requests are recorded here

    results: list[PatternResult] = []
    try:
        explain = Document(document_id=document_id, title="access-pattern explain")
        services.document_create(document=explain, user="explain")
        restated = {"title": "restated"}
        actions: list[tuple[int, Callable[[], int]]] = [
            (
                10,
                lambda: int(
                    bool(
                        services.document_restate(
                            document_id=document_id, expected_revision=1, changes=restated, user="explain"
                        )
                    )
                ),
            ),
            (11, lambda: int(bool(services.entry_put(entry=entry(position_id, "2500.00"), user="explain")))),
            (12, bulk_load),
        ]
        for number, action in actions:
            result = _measure(by_number[number], values, action)
            results.append(PatternResult(**{**_fields(result), "note": result.note or note}))
    finally:
        removed = maintenance.delete_partitions(
            [keys.document_pk(document_id), keys.audit_pk(document_id), keys.entry_history_pk(document_id)],
            repository.gateway.table,
        )
        # the search items its document and entry named
        search = [
            keys.search_keys(kind, target)
            for kind, target in (
                (SearchKind.DOCUMENT, document_id),
                (SearchKind.POSITION, position_id),
                (SearchKind.FUND, "EXPLAIN"),
                (SearchKind.INVESTOR, "EXPLAIN"),
            )
        ]
        repository.gateway.batch_write((), delete_keys=search)
        removed += len(search)
        # the position register its entry created (and the versions it kept) and the fund catalog entry
        removed += maintenance.delete_partitions(
            [keys.register_pk(position_id), keys.register_history_pk(position_id)], repository.gateway.table
        )
        # and the summary shards of its fund (the register went without a delta: they go whole)
        shards = [keys.summary_keys("EXPLAIN", shard) for shard in range(summary_shard_count())]
        repository.gateway.batch_write((), delete_keys=[keys.fund_catalog_keys("EXPLAIN"), *shards])
        log.debug("access-pattern explain removed %d throwaway items of %s", removed, document_id)
    return results


def _fields(result: PatternResult) -> dict[str, Any]:
    return {name: getattr(result, name) for name in PatternResult.__slots__}
