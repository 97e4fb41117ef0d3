"""One notice file row's cells parsed and checked (`parse_row`): ids, dates (YYYY-MM-DD only,
in range), currency, kind, status, amount and the kind's own columns; every bad cell is
reported, not only the first. The rules are stated in `imports.validation`."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from documents.forms import RESERVED_DOCUMENT_IDS
from fundportal.domain import dates
from fundportal.domain.amounts import AmountError
from fundportal.domain.errors import InvalidId
from fundportal.domain.kinds import ENTRY_STATUSES, POSITION_KINDS, Kind, validate_id
from fundportal.domain.money import CURRENCIES
from fundportal.messages import describe

from . import entry_columns, guards
from .reader import RawRow
from .validation_values import RowError

KINDS = {kind.slug: kind for kind in POSITION_KINDS}
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True, slots=True)
class Parsed:
    document_id: str
    title: str
    fund_id: str
    as_of_date: date
    currency: str
    position_id: str
    investor_id: str
    kind: Kind
    amount: Decimal
    status: str
    due_date: date | None
    new_position: bool = False
    document_type: str | None = None
    parts: dict[str, Any] = field(default_factory=dict)  # the kind's own fields (`entry_columns`)


def parse_row(row: RawRow) -> tuple[Parsed | None, list[RowError]]:
    """One row's cells; every bad cell is reported, not only the first."""
    v, errors = row.values, []
    out: dict[str, Any] = {}

    def bad(column: str, reason: str) -> None:
        errors.append(RowError(row.number, column, reason))

    for column, what in (
        ("document_id", "document id"),
        ("fund_id", "fund id"),
        ("position_id", "position id"),
        ("investor_id", "investor id"),
    ):
        try:
            out[column] = validate_id(v[column], what)
        except InvalidId as error:
            bad(column, describe(error) if v[column] else f"The {what} is missing.")
    if out.get("document_id", "").lower() in RESERVED_DOCUMENT_IDS:
        bad("document_id", f"'{out.pop('document_id')}' is reserved; choose another document id.")
    title = v["title"].strip()
    if not title or len(title) > 200:
        bad("title", "The title is missing." if not title else "The title is longer than 200 characters.")
    out["title"] = title
    for column, required in (("as_of_date", True), ("due_date", False)):
        out[column] = _date(v[column], column, required, bad)
    currency = v["currency"].strip().upper()
    if currency not in CURRENCIES:
        bad("currency", f"'{v['currency'][:20]}' is not one of {', '.join(CURRENCIES)}.")
    out["currency"] = currency
    kind = KINDS.get(v["kind"].strip().lower())
    if kind is None:
        bad("kind", f"'{v['kind'][:40]}' is not one of {', '.join(KINDS)}.")
    out["kind"] = kind
    status = next((s for s in ENTRY_STATUSES if s.lower() == v["status"].strip().lower()), None)
    if status is None:
        bad("status", f"'{v['status'][:40]}' is not one of {', '.join(ENTRY_STATUSES)}.")
    out["status"] = status
    if currency in CURRENCIES:
        try:
            out["amount"] = entry_columns.signed_amount(v["amount"], currency, "amount" in row.numeric, kind)
        except (AmountError, ValueError) as error:
            bad("amount", str(error))
        out["parts"] = entry_columns.parse_parts(v, row.numeric, kind, currency, bad)
        if not errors and kind is not None:
            entry_columns.check_row(kind, out["amount"], currency, out["parts"], bad)
    for column, read in (("new_position", guards.opens_new), ("document_type", guards.document_type_of)):
        try:
            out[column] = read(v.get(column, ""))
        except ValueError as error:
            bad(column, str(error))
    if errors:
        return None, errors
    return Parsed(**out), []


def _date(text: str, column: str, required: bool, bad: Callable[[str, str], None]) -> date | None:
    text = text.strip()
    if not text:
        if required:
            bad(column, "The date is missing.")
        return None
    try:
        if not _ISO_DATE.fullmatch(text):  # fromisoformat also takes 2026-W01-1 and 20260430
            raise ValueError(text)
        value = date.fromisoformat(text)
    except ValueError:
        bad(column, f"'{text[:40]}' is not a date; write it as YYYY-MM-DD with digits 0-9, like 2026-03-31.")
        return None
    if not dates.in_range(value):
        bad(column, dates.range_message("date"))
        return None
    return value
