"""Amounts as people type them and as files carry them, per currency.

- A currency's decimals come from CLDR (babel, already installed with py-moneyed): USD, EUR,
  GBP, CHF 2; JPY 0.
- `parse_amount` accepts thousands separators ("1,250,000.00"); `exact=True` (imports) also
  demands exactly the currency's decimals, so "1250000" for USD or "5000.00" for JPY is refused
  rather than guessed.
- `plain_amount` is the one text form of an amount in files: no separators, exactly the
  currency's decimals ("500000.00", JPY "50000000").
- `typed_amount` is the form field's display ("1,250,000.00").
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from babel.numbers import get_currency_precision

from .money import currency_code

MAX_DIGITS = 18  # up to 9,999,999,999,999,999.99, as the forms allow
# Groups of three after the first 1-3 digits, or no separators at all; an optional fraction.
# ASCII digits only (`\d` would take any script's digits: Arabic-Indic 100 read as 100 but shown raw).
_AMOUNT = re.compile(r"(?P<int>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.(?P<frac>[0-9]+))?")
# A spreadsheet number cell is a binary float: a decimal of up to 15 significant digits reads
# back as itself; beyond that the cell may not hold what was typed.
NUMBER_CELL_DIGITS = 15


class AmountError(ValueError):
    """Why a typed amount is refused (the message is shown to the user as is)."""


def currency_decimals(code: str) -> int:
    """How many decimals `code` has (CLDR): 2 for USD, 0 for JPY."""
    return int(get_currency_precision(currency_code(code)))


def parse_amount(text: str, currency: str | None = None, *, exact: bool = False) -> Decimal:
    """'1,250,000.00' -> Decimal('1250000.00'). Negative, malformed, too many digits or (with a
    currency) more decimals than it has raise AmountError; `exact` also refuses fewer."""
    value = (text or "").strip()
    match = _AMOUNT.fullmatch(value)
    if not match:
        if value.startswith("-"):
            raise AmountError("Enter an amount of zero or more.")
        raise AmountError(f"'{value[:40]}' is not an amount; write it with digits 0-9, like 1,250,000.00.")
    fraction = match.group("frac") or ""
    if currency is not None:
        places = currency_decimals(currency)
        if len(fraction) > places or (exact and len(fraction) != places):
            shown = "no decimals" if places == 0 else f"exactly {places} decimals"
            if not exact:
                shown = "no decimals" if places == 0 else f"at most {places} decimals"
            raise AmountError(f"{currency_code(currency)} amounts have {shown} ('{value[:40]}').")
    digits = match.group("int").replace(",", "")
    try:
        amount = Decimal(f"{digits}.{fraction}" if fraction else digits)
    except InvalidOperation:  # pragma: no cover - the pattern only lets digits through
        raise AmountError(f"'{value[:40]}' is not an amount.") from None
    if len(digits.lstrip("0")) + len(fraction) > MAX_DIGITS:
        raise AmountError(f"'{value[:40]}' has more than {MAX_DIGITS} digits.")
    return amount


def number_cell_amount(text: str, currency: str) -> Decimal:
    """The amount of a spreadsheet number cell (its shortest decimal text, as the reader writes
    it), by the same rule as a typed one: taken only when the cell holds it exactly within
    `MAX_DIGITS` digits (then padded to the currency's decimals), otherwise AmountError asking
    for the amount typed as text. Never rounds, never raises anything else."""
    as_text = "type the amount as text (a cell formatted as Text), like 1,250,000.00"
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise AmountError(f"The cell is not a number; {as_text}.") from None
    if not value.is_finite():
        raise AmountError(f"The cell is not a finite number; {as_text}.")
    if value < 0:
        raise AmountError("Enter an amount of zero or more.")
    _sign, digits, exponent = value.normalize().as_tuple()
    assert isinstance(exponent, int)  # finite
    places = currency_decimals(currency)
    if -exponent > places:
        raise AmountError(
            f"{currency_code(currency)} amounts have {places} decimals; the cell holds {text[:40]}; {as_text}."
        )
    whole = max(len(digits) + exponent, 0)
    if whole + places > MAX_DIGITS:
        raise AmountError(f"The cell's number has more than {MAX_DIGITS} digits; {as_text}.")
    if len(digits) > NUMBER_CELL_DIGITS:
        raise AmountError(f"A number cell does not hold {len(digits)} digits exactly; {as_text}.")
    return parse_amount(plain_amount(value, currency), currency, exact=True)


def quantized(amount: Decimal, currency: str) -> Decimal:
    """`amount` with exactly the currency's decimals (ValueError if that would round it)."""
    places = currency_decimals(currency)
    exponent = Decimal(1).scaleb(-places)
    result = amount.quantize(exponent)
    if result != amount:
        raise ValueError(f"{amount} has more decimals than {currency_code(currency)} allows")
    return result


def plain_amount(amount: Decimal, currency: str) -> str:
    """The file form: '500000.00' (USD), '50000000' (JPY)."""
    return f"{amount:.{currency_decimals(currency)}f}"


def typed_amount(amount: Decimal | None, currency: str = "USD") -> str:
    """What an edit form shows: '1,250,000.00' (empty for None)."""
    if amount is None:
        return ""
    return f"{amount:,.{currency_decimals(currency)}f}"


def excel_format(currency: str) -> str:
    """A spreadsheet number format that shows the currency and its decimals: '#,##0.00 "USD"'."""
    places = currency_decimals(currency)
    return f'#,##0{"." + "0" * places if places else ""} "{currency_code(currency)}"'
