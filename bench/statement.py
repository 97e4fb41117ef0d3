"""The ILPA capital account statement of a 75-document position (`/positions/<pos>/statement.pdf
?period=`'s work: its one Query, the statement's lines over QTD/YTD/ITD, the names' BatchGetItem
and the WeasyPrint PDF) vs the position's Query alone, interleaved trials: p50s, their ratio and
the 1 s target. Part of section "data_io"; run alone (its own DynamoDB Local, in memory):

    .venv/bin/python -m bench.statement
"""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings

from fundportal.store import tables
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository, PositionRepository

from . import data
from .common import interleave

POSITION = "ST_POS"
DOCUMENTS = 75
TARGET_MS = 1_000


def run_statement(table: str, trials: int, warmup: int, documents: int = DOCUMENTS) -> dict[str, Any]:
    from exports.capital_account import position_capital_account
    from exports.capital_account_files import statement_pdf
    from fundportal.domain.periods import quarter

    settings.DYNAMODB_TABLE = table
    tables.create(table)
    try:
        repository = DocumentRepository(TableGateway(table))
        for number in range(documents):
            repository.bulk_load(data.document(f"ST_{number:03d}", [POSITION], number=number), workers=4)
        period = quarter(2025, 4)
        sizes: list[int] = []

        def statement() -> None:
            found = position_capital_account(position_id=POSITION, period=period)
            sizes.append(len(statement_pdf(found, generated_by="bench")))

        def query() -> None:
            PositionRepository(TableGateway(table)).entries_with_register(POSITION)

        samples = interleave({"statement pdf": statement, "position query": query}, trials=trials, warmup=warmup)
        p50 = {name: s.median for name, s in samples.items()}
        return {
            "documents": documents,
            "pdf_bytes": sizes[-1] if sizes else 0,
            "p50_ms": {name: round(ms, 1) for name, ms in p50.items()},
            "ratio": round(p50["statement pdf"] / p50["position query"], 2) if p50["position query"] else None,
            "target_ms": TARGET_MS,
            "within_target": p50["statement pdf"] < TARGET_MS,
        }
    finally:
        tables.delete(table)


def main() -> int:
    from fundportal.dynamodb_local import start

    from .run import setup_django

    server = start(in_memory=True)
    try:
        setup_django(server.endpoint, "bench_statement")
        result = run_statement("bench_statement", trials=10, warmup=2)
    finally:
        server.stop()
    print(result)
    return 0 if result["within_target"] else 1


if __name__ == "__main__":
    sys.exit(main())
