"""Money with its currency (py-moneyed) and the one way figures are shown.

Amounts are always `Decimal`; floats are refused. Adding or dividing two `Money` values of
different currencies raises `TypeError` (py-moneyed's behaviour, relied on, not wrapped):
figures are kept per currency and never summed across currencies.
"""

from __future__ import annotations

from decimal import Decimal

from moneyed import Currency, CurrencyDoesNotExist, Money, get_currency

__all__ = [
    "CURRENCIES",
    "EM_DASH",
    "Money",
    "currency_code",
    "format_amount",
    "format_money",
    "format_percent",
    "format_ratio",
    "money",
    "zero",
]

CURRENCIES = ("USD", "EUR", "GBP", "CHF", "JPY")
EM_DASH = "—"

# Raw code as seen in data -> Currency; `money()` runs per entry, so one dict lookup per call.
_CURRENCY_CACHE: dict[str, Currency] = {}


def _currency(code: str) -> Currency:
    try:
        return _CURRENCY_CACHE[code]
    except (KeyError, TypeError):
        pass
    if not isinstance(code, str):
        raise TypeError(f"currency must be an ISO code string, not {type(code).__name__}")
    try:
        currency = get_currency(code.strip().upper())
    except CurrencyDoesNotExist:
        raise ValueError(f"unknown currency: {code!r}") from None
    _CURRENCY_CACHE[code] = currency
    return currency


def currency_code(code: str) -> str:
    """The canonical ISO code for `code` ('usd' -> 'USD'); ValueError if unknown."""
    return _currency(code).code


def _decimal(amount: Decimal) -> Decimal:
    if isinstance(amount, Decimal):
        if not amount.is_finite():
            raise ValueError(f"amount must be finite, not {amount}")
        return amount
    if isinstance(amount, int) and not isinstance(amount, bool):
        return Decimal(amount)
    raise TypeError(f"amount must be Decimal (or int), not {type(amount).__name__}")


def checked_amount(amount: Decimal) -> Decimal:
    """`amount` as a finite Decimal; TypeError for float (or any non-Decimal, non-int) amounts."""
    return _decimal(amount)


def known_money(amount: Decimal, code: str) -> Money:
    """`Money` of an amount `checked_amount` already accepted, in a `currency_code` (the
    figures' hot path: sums of checked amounts are not checked again)."""
    return Money(amount, _CURRENCY_CACHE.get(code) or _currency(code))


def money(amount: Decimal, currency: str) -> Money:
    """`Money(amount, currency)`; TypeError for float (or any non-Decimal, non-int) amounts."""
    return Money(_decimal(amount), _currency(currency))


def zero(currency: str) -> Money:
    """Zero in `currency`."""
    return Money(Decimal(0), _currency(currency))


def format_money(value: Money | None) -> str:
    """'USD 1,250,000.00' (ISO code, thousands separators, 2 decimals for every currency); '—' for None."""
    if value is None:
        return EM_DASH
    return _formatted(value.amount, value.currency.code)


def format_amount(amount: Decimal, currency: str) -> str:
    """`format_money(money(amount, currency))` without building the Money (a table cell per entry)."""
    return _formatted(_decimal(amount), _currency(currency).code)


def _formatted(amount: Decimal, code: str) -> str:
    text = f"{amount:,.2f}"
    if text == "-0.00":  # a tiny negative rounds to zero: show it unsigned
        text = "0.00"
    return f"{code} {text}"


def format_ratio(value: Decimal | None) -> str:
    """'0.16x'; '—' for None."""
    if value is None:
        return EM_DASH
    text = f"{value:.2f}"
    return f"{'0.00' if text == '-0.00' else text}x"


def format_percent(value: Decimal | None) -> str:
    """Decimal('62.5') -> '62.5 %' (% called, IRR); '—' for None."""
    return EM_DASH if value is None else f"{value:,.1f} %"
