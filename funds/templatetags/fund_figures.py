"""Formatting of the register's percentages (% called, IRR) on the fund and investor pages."""

from __future__ import annotations

from decimal import Decimal

from django import template

from fundportal.domain.money import EM_DASH

register = template.Library()


@register.filter
def percent(value: Decimal | None) -> str:
    """Decimal('62.5') -> '62.5 %'; None -> '—' (undefined)."""
    if value is None or value == "":
        return EM_DASH
    return f"{value:,.1f} %"
