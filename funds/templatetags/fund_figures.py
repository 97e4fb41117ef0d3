"""Formatting of the register's percentages (% called, IRR) on the fund and investor pages."""

from __future__ import annotations

from decimal import Decimal

from django import template

from fundportal.domain.money import EM_DASH, format_percent

register = template.Library()


@register.filter
def percent(value: Decimal | None) -> str:
    """Decimal('62.5') -> '62.5 %'; None -> '—' (undefined)."""
    return EM_DASH if value == "" else format_percent(value)
