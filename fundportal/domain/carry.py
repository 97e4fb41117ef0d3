"""Figures carried from one page of a position's documents to the next, inside its signed cursor:
JSON-safe strings out (`to_carry`), validated figures back (`from_carry`)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from .entries import MIN_AT, aware
from .figures import AMOUNT_FIELDS, Figures
from .money import currency_code, money

_RANK = ("unfunded_as_of", "unfunded_updated_at", "unfunded_document_id")
_FIELDS = frozenset(("currency", *AMOUNT_FIELDS, "unfunded", *_RANK))


def to_carry(figures: Figures) -> dict[str, str | None]:
    """JSON-safe strings (for a signed page cursor); `from_carry` is the inverse."""
    key, unfunded = figures.unfunded_key, figures.unfunded
    carry: dict[str, str | None] = {name: str(getattr(figures, name).amount) for name in AMOUNT_FIELDS}
    return {
        "currency": figures.currency,
        **carry,
        "unfunded": None if unfunded is None else str(unfunded.amount),
        "unfunded_as_of": None if figures.unfunded_as_of is None else figures.unfunded_as_of.isoformat(),
        "unfunded_updated_at": None if key is None or key[1] == MIN_AT else key[1].isoformat(),
        "unfunded_document_id": None if key is None else key[2],
    }


def from_carry(data: dict[str, Any]) -> Figures:
    """Rebuild carried figures; ValueError on any malformed input."""
    if not isinstance(data, dict) or set(data) != _FIELDS:
        raise ValueError("malformed carried figures")
    text = {name: value for name, value in data.items() if value is not None}
    if not all(isinstance(value, str) for value in text.values()):
        raise ValueError("malformed carried figures: values are strings or null")
    try:
        code = currency_code(text["currency"])
        called_settled, called_pending, distributed_settled, distributed_pending = (
            money(Decimal(text[name]), code) for name in AMOUNT_FIELDS
        )
        if "unfunded" not in text:
            if any(name in text for name in _RANK):
                raise ValueError("an unfunded rank without an unfunded amount")
            return Figures(code, called_settled, called_pending, distributed_settled, distributed_pending)
        as_of = date.fromisoformat(text["unfunded_as_of"]) if "unfunded_as_of" in text else None
        at = datetime.fromisoformat(text["unfunded_updated_at"]) if "unfunded_updated_at" in text else None
        key = (as_of or date.min, aware(at), text["unfunded_document_id"])
        unfunded = money(Decimal(text["unfunded"]), code)
        return Figures(
            code, called_settled, called_pending, distributed_settled, distributed_pending, unfunded, as_of, key
        )
    except (KeyError, TypeError, InvalidOperation) as exc:
        raise ValueError(f"malformed carried figures: {exc!r}") from None
