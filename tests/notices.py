"""Notice files for the import tests (CSV text built row by row)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path

from imports.reader import COLUMNS

KINDS = ("capital_call", "distribution", "unfunded_commitment")


def row(**values: str) -> dict[str, str]:
    base = {
        "document_id": "NOTICE_1",
        "title": "Q1 2026 capital call",
        "fund_id": "FUND_N",
        "as_of_date": "2026-03-31",
        "currency": "USD",
        "position_id": "NP_000",
        "investor_id": "NI_000",
        "kind": "capital_call",
        "amount": "1,000.00",
        "status": "Pending",
        "due_date": "",
        "new_position": "yes",  # the notices open their positions (a row may, once it says so)
        "document_type": "",
    }
    return {**base, **values}


def notice_rows(positions: int, *, document_id: str = "NOTICE_1", currency: str = "USD", **extra: str):
    """3 rows per position: call 1,250,000.00 + n, distribution 1,000.50, commitment 5,000,000."""
    decimals = "" if currency == "JPY" else ".00"
    rows = []
    for n in range(positions):
        ids = {"position_id": f"NP_{n:03d}", "investor_id": f"NI_{n:03d}"}
        for kind, amount in (
            ("capital_call", f"{1_250_000 + n:,}{decimals}"),
            ("distribution", "1,000" + (".50" if decimals else "")),
            ("unfunded_commitment", f"5,000,000{decimals}"),
        ):
            rows.append(row(document_id=document_id, currency=currency, kind=kind, amount=amount, **ids, **extra))
    return rows


def csv_bytes(rows: Iterable[dict[str, str]]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def upload_storage_in(location: Path) -> dict[str, object]:
    """`STORAGES["imports"]` as a directory of the test's own (the upload storage the import uses)."""
    return {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(location), "allow_overwrite": True},
    }
