"""Section "data_io": importing a notice and exporting a workbook.

- Import: a generated N-row CSV notice (N/3 positions x call, distribution, commitment) through
  `import_prepare` + `import_apply`, paced as the background import job writes (botocore's
  `adaptive` retry mode, and the per-partition pacer of the production settings:
  `imports/pacing.py`) (validation reads; the run record; in waves of 8 groups of 99 positions,
  the wave's entries and search items by BatchWriteItem on 8 threads, then its registers in
  conditional transactions; then publishing), end to end: rows/s (target ≥ 1,000 on DynamoDB
  Local). The first import, into a table of its own, warms DynamoDB Local's JVM (with
  `--only data_io` it is the first work the server does; its figure is reported as "cold"), and
  what it leaves in its table - every item the import writes - is scanned and typed: raw's items.
  Then, in rounds whose order alternates, the import into a fresh table and raw boto3
  `batch_write_item` of those items on one thread into another fresh table (same schema, same
  indexes): the medians' rows/s and their ratio (target: the import ≥ 0.6x raw). On the last
  import's table a second run of the same file is timed (it writes nothing), then the next
  notice: the same positions in a new document (registers and search items exist).
- Export: the XLSX of a P-position document (`/documents/<doc>/export.xlsx`'s work: the
  overview selector + the workbook) vs the document's Query alone, interleaved trials: p50s and
  their ratio.
- Statement: the ILPA capital account statement PDF of a 75-document position vs the position's
  Query (`bench/statement.py`; target under 1 s).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.conf import settings

from fundportal.store import tables
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository

from . import data
from .common import interleave, load, raw_client
from .statement import run_statement

EXPORT_DOCUMENT = "XL_DOC"
IMPORT_ROUNDS = 3
IMPORT, RAW = "import (8 workers, paced)", "raw batch_write_item, 1 thread"


def notice_csv(rows: int, document_id: str = "BENCH_NOTICE") -> bytes:
    from tests.notices import csv_bytes, notice_rows  # the same generator the tests use

    return csv_bytes(notice_rows(max(1, rows // 3), document_id=document_id))


def run_import(endpoint: str, table: str, rows: int, workers: int = 8, rounds: int = IMPORT_ROUNDS) -> dict[str, Any]:
    """The import against raw single-thread BatchWriteItem of the very items it writes, side by
    side: `rounds` rounds, each an import into a fresh table and a raw load into another, their
    order alternating round by round. Raw's items are what the first (cold) import left in its
    table, scanned and typed before any clock starts (raw's best case: no generation, no typing,
    no reads, no conditions, no transactions)."""
    client = raw_client(endpoint)
    payload = notice_csv(rows)
    cold_table = f"{table}_cold"
    tables.create(cold_table)
    try:
        cold = _timed_import(payload, cold_table, workers)
        typed = table_items(client, cold_table)
    finally:
        tables.delete(cold_table)
    timings: dict[str, list[float]] = {IMPORT: [], RAW: []}
    imported: list[dict[str, Any]] = []
    last: str | None = None
    try:
        for number in range(rounds):
            for who in (IMPORT, RAW) if number % 2 == 0 else (RAW, IMPORT):
                name = f"{table}_{'raw' if who == RAW else 'import'}_{number}"
                tables.create(name)
                if who == RAW:
                    started = time.perf_counter()
                    load(client, name, typed, workers=1)
                    timings[RAW].append(time.perf_counter() - started)
                    tables.delete(name)
                    continue
                imported.append(_timed_import(payload, name, workers))
                timings[IMPORT].append(imported[-1]["total_s"])
                if last:
                    tables.delete(last)
                last = name
        assert last is not None
        result = min(imported, key=lambda r: abs(r["total_s"] - statistics.median(timings[IMPORT])))
        result.update(_again_and_next(payload, last, rows, workers))
    finally:
        if last:
            tables.delete(last)
    import_s, raw_s = statistics.median(timings[IMPORT]), statistics.median(timings[RAW])
    return {
        **result,
        "rounds": rounds,
        "rows_per_s": round(result["rows"] / import_s, 1),
        "cold_rows_per_s": cold["rows_per_s"],
        "raw": {
            "items": len(typed),
            "seconds": round(raw_s, 2),
            "rows_per_s": round(result["rows"] / raw_s, 1),
            "items_per_s": round(len(typed) / raw_s),
        },
        "import_over_raw": round(raw_s / import_s, 2),
        "round_ratios": [round(r / i, 2) for i, r in zip(timings[IMPORT], timings[RAW], strict=True)],
    }


def table_items(client: Any, table: str) -> list[dict[str, Any]]:
    """Every item of `table` as DynamoDB's typed JSON (a Scan: the bench's own table)."""
    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {"TableName": table}
    while True:
        page = client.scan(**params)
        items.extend(page["Items"])
        if "LastEvaluatedKey" not in page:
            return items
        params["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def _timed_import(payload: bytes, table: str, workers: int) -> dict[str, Any]:
    """One import of `payload` into `table` (created), end to end: validation, writes, publishing."""
    from fundportal.store.client import paced
    from imports.services import import_apply, import_prepare

    settings.DYNAMODB_TABLE = table
    started = time.perf_counter()
    prepared = import_prepare(data=payload, filename="bench.csv")
    validated = time.perf_counter()
    if not prepared.ok:
        raise RuntimeError(f"the bench notice did not validate: {prepared.validation.errors[:3]}")
    with paced():  # as the background job writes: botocore's adaptive retry mode
        result = import_apply(prepared=prepared, user="bench", workers=workers)
    finished = time.perf_counter()
    return {
        "rows": result.rows,
        "workers": workers,
        "validate_s": round(validated - started, 2),
        "write_s": round(finished - validated, 2),
        "total_s": round(finished - started, 2),
        "rows_per_s": round(result.rows / (finished - started), 1),
    }


def _again_and_next(payload: bytes, table: str, rows: int, workers: int) -> dict[str, Any]:
    """On an imported table: the same file again (it writes nothing), then the usual next notice,
    the next quarter's: a new document for positions already registered (no search items or fund
    catalog to write; each register is read, added to, put back)."""
    from fundportal.store.client import paced
    from imports.services import import_apply, import_prepare

    settings.DYNAMODB_TABLE = table
    again = time.perf_counter()
    second = import_prepare(data=payload, filename="bench.csv")
    again = time.perf_counter() - again
    following = notice_csv(rows, "BENCH_NOTICE_NEXT")
    next_started = time.perf_counter()
    next_prepared = import_prepare(data=following, filename="next.csv")
    if not next_prepared.ok:
        raise RuntimeError(f"the next notice did not validate: {next_prepared.validation.errors[:3]}")
    with paced():
        next_result = import_apply(prepared=next_prepared, user="bench", workers=workers)
    next_seconds = time.perf_counter() - next_started
    return {
        "second_run_s": round(again, 2),
        "second_run_wrote": 0 if second.done else None,
        "next_notice_rows_per_s": round(next_result.rows / next_seconds, 1),
    }


def run_export(table: str, positions: int, trials: int, warmup: int) -> dict[str, Any]:
    from documents.selectors import document_overview
    from exports.tables import document_table
    from exports.writers import xlsx_bytes

    settings.DYNAMODB_TABLE = table
    tables.create(table)
    try:
        items = data.document(EXPORT_DOCUMENT, [f"XP_{n:04d}" for n in range(positions)])
        DocumentRepository(TableGateway(table)).bulk_load(items, workers=8)
        sizes: list[int] = []

        def export() -> None:
            sizes.append(len(xlsx_bytes([document_table(document_overview(document_id=EXPORT_DOCUMENT))])))

        def query() -> None:
            DocumentRepository(TableGateway(table)).overview(EXPORT_DOCUMENT)

        samples = interleave({"xlsx export": export, "overview query": query}, trials=trials, warmup=warmup)
        p50 = {name: s.median for name, s in samples.items()}
        return {
            "positions": positions,
            "items": len(items),
            "xlsx_bytes": sizes[-1] if sizes else 0,
            "p50_ms": {name: round(ms, 1) for name, ms in p50.items()},
            "ratio": round(p50["xlsx export"] / p50["overview query"], 2) if p50["overview query"] else None,
        }
    finally:
        tables.delete(table)


def run(
    endpoint: str, rows: int, positions: int, trials: int, warmup: int, rounds: int = IMPORT_ROUNDS
) -> dict[str, Any]:
    settings.DYNAMODB_ENDPOINT_URL = endpoint
    return {
        "description": (
            f"import of a {rows:,}-row CSV notice (validate + batch writes and register transactions + publish, "
            f"8 workers; after a first import that warms the server) vs raw single-thread `batch_write_item` of "
            f"the items it writes, interleaved, {rounds} round{'s' if rounds != 1 else ''} (medians), "
            f"and the XLSX export of a {positions:,}-position document vs its overview Query (p50)"
        ),
        "import": run_import(endpoint, "bench_import", rows, rounds=rounds),
        "export": run_export("bench_export", positions, trials, warmup),
        "statement": run_statement("bench_statement", trials, warmup),
    }
