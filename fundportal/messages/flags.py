"""The sentence of a reconciliation flag (its data in `fundportal.domain.reconciliation`)."""

from __future__ import annotations

from moneyed import Money

from fundportal.domain.money import format_money
from fundportal.domain.reconciliation import Flag, FlagKind


def _amount(value: Money | str | None) -> str:
    return format_money(value) if isinstance(value, Money) else str(value or "—")


def _signed(value: Money | None) -> str:
    """'USD +750,000.00' for a positive difference, 'USD -100,000.00' for a negative one."""
    text = format_money(value)
    if value is None or value.amount <= 0:
        return text
    code, amount = text.split(" ", 1)
    return f"{code} +{amount}"


def explain_flag(flag: Flag) -> str:
    """One line saying what a reconciliation flag found, with its figures."""
    expected, actual, difference = _amount(flag.expected), _amount(flag.actual), _signed(flag.difference)
    where = " ".join(flag.subject)
    if flag.kind is FlagKind.UNFUNDED_DIFFERS:
        on = f" ({flag.on.isoformat()})" if flag.on else ""
        return (
            f"{where}: reported unfunded {actual}{on} differs from computed unfunded {expected} "
            f"(commitment - called), by {difference}."
        )
    if flag.kind is FlagKind.ABOVE_COMMITMENT:
        return f"{where}: called {actual} is above the commitment {expected}, by {difference}."
    if flag.kind is FlagKind.ACTIVITY_VS_CALLS:
        return (
            f"{where}: capital activity {expected} differs from the sum of its positions' calls {actual}, "
            f"by {difference}."
        )
    if flag.kind is FlagKind.NAV_ROLL_FORWARD:
        since = flag.since.isoformat() if flag.since else "—"
        on = flag.on.isoformat() if flag.on else "—"
        return (
            f"{where}: NAV {since} rolled forward by calls and distributions is {expected}; reported NAV {on} "
            f"is {actual}: implied gain/loss {difference} (informational)."
        )
    if flag.kind is FlagKind.FUND_MISMATCH:
        return f"{where}: entry is for fund {actual}, but its {flag.holder} is in fund {expected}."
    if flag.kind is FlagKind.CURRENCY_MISMATCH:
        return f"{where}: amounts in {actual}, but its {flag.holder}'s currency is {expected}."
    return f"{where}: {flag.kind.value}"
