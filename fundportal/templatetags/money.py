"""Money and ratio formatting for the analyst pages: Decimal in, text out, never float."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import template

register = template.Library()

EMPTY = "—"


def _decimal(value: object) -> Decimal | None:
    if value is None or value == "":
        return None
    if isinstance(value, Decimal):
        return value
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


@register.filter
def money(value: object, currency: str = "USD") -> str:
    """`{{ amount|money:"USD" }}` → 'USD 1,250,000.00' (thousands separators, two decimals)."""
    amount = _decimal(value)
    if amount is None:
        return EMPTY
    text = f"{amount:,.2f}"
    return f"{currency} {text}" if currency else text


@register.filter
def multiple(value: object) -> str:
    """A ratio such as DPI: Decimal('0.16') → '0.16x'."""
    ratio = _decimal(value)
    return EMPTY if ratio is None else f"{ratio:.2f}x"
