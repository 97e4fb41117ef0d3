"""Section 4: bulk load. `manage.py seed_demo --documents N --positions M` (generation, typing,
parallel BatchWriteItem through the data layer, end to end) against raw boto3
batch_write_item in one thread on the very same items, generated and typed beforehand."""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.management import call_command

from fundportal.store import tables
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository
from fundportal.store.serialization import to_item

from . import data
from .common import load, raw_client

POSITIONS = 20
VERSIONS = 1
WORKERS = 8
SEED_DEMO, LAYER, RAW = (
    "seed_demo (8 workers)",
    "DocumentRepository.bulk_load (8 workers)",
    "raw batch_write_item, 1 thread",
)


def _synthetic(documents: int) -> tuple[Callable[[], list[dict[str, Any]]], Callable[[str], None]] | None:
    """(items, loader) using seed_demo's synthetic mode, or None if it is not available."""
    try:
        from fundportal.ops.synthetic import SyntheticSpec, generate
    except ImportError:
        return None
    spec = SyntheticSpec(documents=documents, positions=POSITIONS, versions=VERSIONS)

    def seed_demo(table: str) -> None:
        settings.DYNAMODB_TABLE = table
        call_command(
            "seed_demo",
            documents=documents,
            positions=POSITIONS,
            versions=VERSIONS,
            workers=WORKERS,
            verbosity=0,
            stdout=io.StringIO(),
        )

    return (lambda: list(generate(spec))), seed_demo


def run(endpoint: str, items_wanted: int, rounds: int = 3) -> dict[str, Any]:
    per_document = 3 * POSITIONS + 2 + 2 * VERSIONS
    documents = max(1, items_wanted // per_document)
    synthetic = _synthetic(documents)
    if synthetic is not None:
        make_items, contender = synthetic
        name = SEED_DEMO
        description = (
            f"`seed_demo --documents {documents} --positions {POSITIONS} --versions {VERSIONS} --workers {WORKERS}` "
            "timed end to end (generating the items included) vs raw boto3 `batch_write_item` in one thread on the "
            "same items, generated and typed before the clock starts (raw's best case)."
        )
    else:
        positions = [f"POS_{n:04d}" for n in range(POSITIONS)]

        def make_items() -> list[dict[str, Any]]:
            return [i for n in range(documents) for i in data.document(f"BL_{n:05d}", positions, n)]

        def contender(table: str) -> None:
            DocumentRepository(TableGateway(table)).bulk_load(make_items(), workers=WORKERS)

        name = LAYER
        description = (
            f"seed_demo's synthetic mode was not available: DocumentRepository.bulk_load with {WORKERS} workers vs raw "
            "boto3 `batch_write_item` in one thread on the same items."
        )
    typed = [to_item(i) for i in make_items()]
    client = raw_client(endpoint)
    for table in ("bench_bulk_layer", "bench_bulk_raw"):
        tables.create(table)
    rates: dict[str, list[float]] = {name: [], RAW: []}
    seconds: dict[str, list[float]] = {name: [], RAW: []}
    for round_number in range(rounds):
        order = [name, RAW] if round_number % 2 == 0 else [RAW, name]
        for who in order:
            started = time.perf_counter()
            if who == RAW:
                load(client, "bench_bulk_raw", typed, workers=1)
            else:
                contender("bench_bulk_layer")
            elapsed = time.perf_counter() - started
            seconds[who].append(elapsed)
            rates[who].append(len(typed) / elapsed)
    runs = {
        who: {
            "items": len(typed),
            "seconds": round(statistics.median(seconds[who]), 2),
            "items_per_s": round(statistics.median(rates[who])),
            "rounds": rounds,
        }
        for who in (name, RAW)
    }
    return {
        "description": description,
        "runs": runs,
        "ratio": round(runs[name]["items_per_s"] / runs[RAW]["items_per_s"], 2),
    }
