"""Money and ratio formatting for the pages: the one way figures are shown (domain.money)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import template
from moneyed import Money

from fundportal.domain.money import EM_DASH, format_money, format_ratio
from fundportal.domain.money import money as make_money

register = template.Library()


@register.filter
def money(value: object, currency: str = "USD") -> str:
    """`{{ figure|money }}` for a Money, `{{ amount|money:"USD" }}` for a Decimal → 'USD 1,250,000.00'."""
    if isinstance(value, Money) or value is None:
        return format_money(value)
    if value == "":
        return EM_DASH
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value))
        return format_money(make_money(amount, currency))
    except (InvalidOperation, ValueError, TypeError):
        return EM_DASH


@register.filter
def multiple(value: object) -> str:
    """A ratio such as DPI: Decimal('0.16') → '0.16x'."""
    if value is None or value == "":
        return EM_DASH
    try:
        return format_ratio(value if isinstance(value, Decimal) else Decimal(str(value)))
    except InvalidOperation:
        return EM_DASH
