"""The ratios of a position's figures: the one division (`ratio`, 0.01 half-even, None for a
zero divisor, TypeError across currencies), % called, and DPI, RVPI and TVPI read from a
`Figures` (`fundportal.domain.figures` states the rules)."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING

from .money import Money, known_money

if TYPE_CHECKING:
    from .figures import Figures

_CENT = Decimal("0.01")
_TENTH = Decimal("0.1")


def ratio(numerator: Money, denominator: Money, *, exact: bool = False) -> Decimal | None:
    """The one division, to 0.01 half-even (`exact`: unrounded, for exports); None for a zero
    divisor; TypeError across currencies."""
    # Currencies are py-moneyed's registry singletons: the identity test settles almost every call.
    if numerator.currency is not denominator.currency and numerator.currency != denominator.currency:
        raise TypeError(f"ratio across currencies: {numerator.currency.code} / {denominator.currency.code}")
    if not denominator.amount:
        return None
    value = numerator.amount / denominator.amount
    return value if exact else value.quantize(_CENT, rounding=ROUND_HALF_EVEN)


def called_fraction(called: Money, commitment: Money | None) -> Decimal | None:
    """called / commitment unrounded (0.625 for 62.5 %); None without a commitment."""
    if commitment is None or not commitment.amount:
        return None
    return ratio(called, commitment, exact=True)


def percent_called(called: Money, commitment: Money | None) -> Decimal | None:
    """`called_fraction` as a percentage to 0.1 (half-even); None without a commitment."""
    fraction = called_fraction(called, commitment)
    return None if fraction is None else (fraction * 100).quantize(_TENTH, rounding=ROUND_HALF_EVEN)


def residual_value(figures: Figures) -> Money | None:
    """The value RVPI and TVPI use: the adjusted NAV of figures valued as of a date
    (`fundportal.domain.valuation`), else the NAV itself."""
    return figures.nav if figures.adjusted_nav is None else figures.adjusted_nav


def dpi(figures: Figures, *, exact: bool = False) -> Decimal | None:
    """Distributed to paid-in: distributed / called (pending included); None without a call."""
    return ratio(figures.distributed, figures.called, exact=exact)


def rvpi(figures: Figures, *, exact: bool = False) -> Decimal | None:
    """Residual value to paid-in: (adjusted) NAV / called; None without a NAV or a call."""
    value = residual_value(figures)
    if value is None:
        return None
    return ratio(value, figures.called, exact=exact)


def tvpi(figures: Figures, *, exact: bool = False) -> Decimal | None:
    """Total value to paid-in: (distributed + (adjusted) NAV) / called; None without a NAV or a call."""
    value = residual_value(figures)
    if value is None:
        return None
    # Both amounts are the figures' currency (checked when the figures were built).
    total = known_money(figures.distributed.amount + value.amount, figures.currency)
    return ratio(total, figures.called, exact=exact)
