"""IRR of a position's dated cash flows, per currency.

The flows are the builder's (`FiguresBuilder(flows=True).flows(currency)`): for each date, the
distributions minus the calls of that date (a call is money paid in: negative; a distribution is
money paid out: positive), the date being the entry's due date when set, else its document's
as-of date. Pending calls and distributions are in the flows, as they are in "called" and
"distributed" (and DPI); Cancelled never. A value enters as a positive terminal flow at its date
(what the LP would receive if the position were realised then) and the IRR is as of that date:
flows dated after it are left out. Every figure passes the adjusted NAV at the date D it is valued
as of (`fundportal.domain.valuation.irr_as_of`), so IRR and TVPI read the same flows and value.

IRR is the annual rate r with sum(flow / (1 + r) ** (days / 365)) = 0 (XIRR, actual/365), solved
by `pyxirr.xirr`. It is None ("—") when it is undefined: no NAV (the residual value is unknown,
so any rate would be a guess), no call and no distribution of opposite sign, or no solution; and
when it is not meaningful: a rate above `MEANINGFUL_RATE` (100,000,000 % a year) only comes from
a gain annualised over a few days between the money paid and its valuation (2x in two days is
a rate of about 10^55), a number no page, export or table attribute can hold.
pyxirr computes in binary floating point; the result is converted to a Decimal rounded to 0.0001
(0.01 %) at once, and never flows back into any money figure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal

import pyxirr

_BASIS_POINT = Decimal("0.0001")
MEANINGFUL_RATE = 1_000_000.0  # an annual rate of 100,000,000 %: above it, None (see the module doc)


def irr(flows: Iterable[tuple[date, Decimal]], nav: Decimal | None, nav_as_of: date | None) -> Decimal | None:
    """The IRR as a fraction (0.1234 = 12.34 %) of `flows` up to `nav_as_of` with `nav` the
    terminal value then, or None when undefined (see the module doc)."""
    if nav is None or nav_as_of is None:
        return None
    by_date: dict[date, Decimal] = {}
    for on, amount in flows:
        if on > nav_as_of:  # after the terminal value's date: the IRR is as of that date
            continue
        by_date[on] = by_date.get(on, Decimal(0)) + amount
    by_date[nav_as_of] = by_date.get(nav_as_of, Decimal(0)) + nav
    dates = sorted(d for d, amount in by_date.items() if amount)
    amounts = [by_date[d] for d in dates]
    if not any(a < 0 for a in amounts) or not any(a > 0 for a in amounts):
        return None
    try:
        rate = pyxirr.xirr(dates, [float(a) for a in amounts])
    except (pyxirr.InvalidPaymentsError, ValueError):
        return None
    if rate is None or not math.isfinite(rate) or rate > MEANINGFUL_RATE:
        return None
    return Decimal(repr(rate)).quantize(_BASIS_POINT, rounding=ROUND_HALF_EVEN)


def as_percent(rate: Decimal | None) -> Decimal | None:
    """A rate as a percentage to 0.1 (0.12345 -> 12.3)."""
    if rate is None:
        return None
    return (rate * 100).quantize(Decimal("0.1"), rounding=ROUND_HALF_EVEN)
