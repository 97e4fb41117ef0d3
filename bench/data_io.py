"""Section "data_io": importing a notice and exporting a workbook.

- Import: a generated N-row CSV notice (N/3 positions x call, distribution, commitment) through
  `import_prepare` + `import_apply`, paced as the background import job writes (botocore's
  `adaptive` retry mode, and the per-partition pacer of the production settings:
  `imports/pacing.py`) (validation reads; the run record; in waves of 8 groups of 99 positions,
  the wave's entries and search items by BatchWriteItem on 8 threads, then its registers in
  conditional transactions; then publishing), end to end: rows/s (target ≥ 1,000 on DynamoDB
  Local). The import runs twice, each into a fresh table: the first also warms DynamoDB Local's
  JVM (with `--only data_io` it is the first work the server does; its figure is reported as
  "cold"), the second is the steady-state figure, like the other sections' "after warm-up". A
  second run of the same file is timed too (it writes nothing), then the next notice: the same
  positions in a new document (registers and search items exist).
- Export: the XLSX of a P-position document (`/documents/<doc>/export.xlsx`'s work: the
  overview selector + the workbook) vs the document's Query alone, interleaved trials: p50s and
  their ratio.
- Statement: the ILPA capital account statement PDF of a 75-document position vs the position's
  Query (`bench/statement.py`; target under 1 s).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from fundportal.store import tables
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository

from . import data
from .common import interleave
from .statement import run_statement

EXPORT_DOCUMENT = "XL_DOC"


def notice_csv(rows: int, document_id: str = "BENCH_NOTICE") -> bytes:
    from tests.notices import csv_bytes, notice_rows  # the same generator the tests use

    return csv_bytes(notice_rows(max(1, rows // 3), document_id=document_id))


def run_import(table: str, rows: int, workers: int = 8) -> dict[str, Any]:
    cold = _timed_import(f"{table}_cold", rows, workers, document_id="COLD_NOTICE")
    result = _timed_import(table, rows, workers)
    result["cold_rows_per_s"] = cold["rows_per_s"]
    return result


def _timed_import(table: str, rows: int, workers: int, document_id: str = "BENCH_NOTICE") -> dict[str, Any]:
    from fundportal.store.client import paced
    from imports.services import import_apply, import_prepare

    settings.DYNAMODB_TABLE = table
    tables.create(table)
    try:
        payload = notice_csv(rows, document_id)
        started = time.perf_counter()
        prepared = import_prepare(data=payload, filename="bench.csv")
        validated = time.perf_counter()
        if not prepared.ok:
            raise RuntimeError(f"the bench notice did not validate: {prepared.validation.errors[:3]}")
        with paced():  # as the background job writes: botocore's adaptive retry mode
            result = import_apply(prepared=prepared, user="bench", workers=workers)
        finished = time.perf_counter()
        again = time.perf_counter()
        second = import_prepare(data=payload, filename="bench.csv")
        again = time.perf_counter() - again
        seconds = finished - started
        # The usual notice: the next quarter's, a new document for positions already registered
        # (no search items or fund catalog to write; each register is read, added to, put back).
        following = notice_csv(rows, f"{document_id}_NEXT")
        next_started = time.perf_counter()
        next_prepared = import_prepare(data=following, filename="next.csv")
        if not next_prepared.ok:
            raise RuntimeError(f"the next notice did not validate: {next_prepared.validation.errors[:3]}")
        with paced():
            next_result = import_apply(prepared=next_prepared, user="bench", workers=workers)
        next_seconds = time.perf_counter() - next_started
        return {
            "rows": result.rows,
            "workers": workers,
            "validate_s": round(validated - started, 2),
            "write_s": round(finished - validated, 2),
            "total_s": round(seconds, 2),
            "rows_per_s": round(result.rows / seconds, 1),
            "second_run_s": round(again, 2),
            "second_run_wrote": 0 if second.done else None,
            "next_notice_rows_per_s": round(next_result.rows / next_seconds, 1),
        }
    finally:
        tables.delete(table)


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


def run(endpoint: str, rows: int, positions: int, trials: int, warmup: int) -> dict[str, Any]:
    settings.DYNAMODB_ENDPOINT_URL = endpoint
    return {
        "description": (
            f"import of a {rows:,}-row CSV notice (validate + batch writes and register transactions + publish, "
            "8 workers; after a first import that warms the server), "
            f"and the XLSX export of a {positions:,}-position document vs its overview Query (p50)"
        ),
        "import": run_import("bench_import", rows),
        "export": run_export("bench_export", positions, trials, warmup),
        "statement": run_statement("bench_statement", trials, warmup),
    }
