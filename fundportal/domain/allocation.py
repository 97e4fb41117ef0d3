"""Fund-wide calls and distributions allocated across a fund's positions.

Rules (the README's "Fund-wide calls and distributions" section repeats them):

- A total is allocated in the currency's minor unit (USD cents, JPY yen: CLDR's decimals) by the
  **largest-remainder method**: each position's exact share `total x weight / sum of weights` is
  floored to a whole minor unit; the units left over go one each to the positions with the
  largest remainders, ties broken by position id in natural order (POSITION_2 before
  POSITION_10). The amounts add up to exactly the total and each is within one minor unit of
  its exact share. Shares are computed with exact fractions, never floats nor rounded decimals.
- The basis: pro rata to the **commitment** effective on the call's date
  (`commitments.commitment_as_of`), to the **computed unfunded** on that date
  (`reconciliation.computed_unfunded`; a position called above its commitment has none left:
  weight zero), or **custom** weights in percent that add up to exactly 100. A position without
  a commitment on that date weighs zero and gets nothing.
- Refused (`AllocationRefused`, nothing written): a total of zero or less, a total with more
  decimals than the currency's minor unit, a basis that adds up to zero, a negative weight,
  custom weights that do not add up to 100, a basis in another currency than the total.
- A call (investment, management fee, expenses) becomes capital call entries and lowers the
  unfunded by its amount; a distribution (return of capital, gain, income) becomes distribution
  entries and leaves the unfunded as it is (no distribution is recallable yet).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from babel.numbers import get_currency_precision
from moneyed import Money

from .errors import AllocationRefused
from .kinds import Kind
from .money import money
from .ordering import natural_key

WHOLE_PERCENT = Decimal(100)  # custom weights are percentages adding up to this


class Basis(StrEnum):
    COMMITMENT = "commitment"
    UNFUNDED = "unfunded"
    CUSTOM = "custom"

    @property
    def label(self) -> str:
        return _BASIS_LABELS[self]


_BASIS_LABELS = {
    Basis.COMMITMENT: "Pro rata to commitment",
    Basis.UNFUNDED: "Pro rata to unfunded commitment",
    Basis.CUSTOM: "Custom weights",
}


class Purpose(StrEnum):
    """What a fund-wide call or distribution is for (ILPA's split of contributions and distributions)."""

    INVESTMENT = "investment"
    MANAGEMENT_FEE = "management_fee"
    EXPENSES = "expenses"
    RETURN_OF_CAPITAL = "return_of_capital"
    GAIN = "gain"
    INCOME = "income"

    @property
    def is_call(self) -> bool:
        return self in CALL_PURPOSES

    @property
    def kind(self) -> Kind:
        """The entries it becomes: capital calls or distributions."""
        return Kind.CAPITAL_CALL if self.is_call else Kind.DISTRIBUTION

    @property
    def label(self) -> str:
        return _PURPOSE_LABELS[self]


CALL_PURPOSES = frozenset((Purpose.INVESTMENT, Purpose.MANAGEMENT_FEE, Purpose.EXPENSES))
_PURPOSE_LABELS = {
    Purpose.INVESTMENT: "Investment",
    Purpose.MANAGEMENT_FEE: "Management fee",
    Purpose.EXPENSES: "Partnership expenses",
    Purpose.RETURN_OF_CAPITAL: "Return of capital",
    Purpose.GAIN: "Gain",
    Purpose.INCOME: "Income",
}


def minor_unit(currency: str) -> Decimal:
    """The currency's smallest amount: Decimal('0.01') for USD, Decimal('1') for JPY."""
    return Decimal(1).scaleb(-int(get_currency_precision(currency)))


def check_total(total: Money) -> int:
    """The total in whole minor units; refused when zero or less or finer than the minor unit."""
    code = total.currency.code
    unit = minor_unit(code)
    amount = Decimal(total.amount)
    if amount <= 0:
        raise AllocationRefused(AllocationRefused.NOT_POSITIVE, currency=code, given=str(amount))
    units = amount / unit
    if units != units.to_integral_value():
        places = -unit.as_tuple().exponent  # type: ignore[operator]
        raise AllocationRefused(AllocationRefused.TOO_PRECISE, currency=code, expected=str(places), given=str(amount))
    return int(units)


def allocate(total: Money, weights: Mapping[str, Decimal]) -> dict[str, Money]:
    """`total` split across the keys of `weights` (position ids) pro rata by largest remainder;
    every key gets an amount (zero for a zero weight). See the module's rules."""
    code = total.currency.code
    units = check_total(total)
    for position_id, weight in weights.items():
        if weight < 0:
            raise AllocationRefused(AllocationRefused.NEGATIVE_WEIGHT, position_id=position_id, given=str(weight))
    whole = sum((Fraction(w) for w in weights.values()), Fraction(0))
    if whole == 0:
        raise AllocationRefused(AllocationRefused.ZERO_BASIS, currency=code, given="0")
    exact = {p: units * Fraction(w) / whole for p, w in weights.items()}
    floors = {p: int(share) for p, share in exact.items()}  # int() floors a non-negative Fraction
    left = units - sum(floors.values())
    by_remainder = sorted(exact, key=lambda p: (-(exact[p] - floors[p]), natural_key(p), p))
    for position_id in by_remainder[:left]:
        floors[position_id] += 1
    unit = minor_unit(code)
    return {p: money(n * unit, code) for p, n in floors.items()}


def basis_weights(bases: Mapping[str, Money | None], currency: str) -> dict[str, Decimal]:
    """Weights from a Money basis per position (commitment or computed unfunded on the date):
    None or below zero weighs zero; a basis in another currency than `currency` is refused."""
    weights = {}
    for position_id, value in bases.items():
        if value is not None and value.currency.code != currency:
            raise AllocationRefused(
                AllocationRefused.MIXED_CURRENCIES,
                expected=currency,
                given=value.currency.code,
                position_id=position_id,
            )
        weights[position_id] = max(Decimal(value.amount), Decimal(0)) if value is not None else Decimal(0)
    if not any(weights.values()):
        raise AllocationRefused(AllocationRefused.ZERO_BASIS, currency=currency, given="0")
    return weights


def custom_weights(weights: Mapping[str, Decimal], positions: frozenset[str] | set[str]) -> dict[str, Decimal]:
    """Custom weights in percent: each zero or more, for positions of the fund, adding up to 100."""
    for position_id, weight in weights.items():
        if position_id not in positions:
            raise AllocationRefused(AllocationRefused.UNKNOWN_POSITION, position_id=position_id)
        if weight < 0:
            raise AllocationRefused(AllocationRefused.NEGATIVE_WEIGHT, position_id=position_id, given=str(weight))
    whole = sum(weights.values(), Decimal(0))
    if whole == 0:
        raise AllocationRefused(AllocationRefused.ZERO_BASIS, given="0")
    if whole != WHOLE_PERCENT:
        raise AllocationRefused(AllocationRefused.WEIGHTS_NOT_WHOLE, expected=str(WHOLE_PERCENT), given=str(whole))
    return {p: weights.get(p, Decimal(0)) for p in positions}


def share_percent(weight: Decimal, weights: Mapping[str, Decimal]) -> Decimal:
    """A weight as a percentage of all weights (shown in the preview), to 4 decimals."""
    whole = sum(weights.values(), Decimal(0))
    return (weight * WHOLE_PERCENT / whole).quantize(Decimal("0.0001")) if whole else Decimal(0)


@dataclass(frozen=True, slots=True)
class UnfundedChange:
    """A position's unfunded commitment before and after a notice (None: no commitment)."""

    before: Money | None
    after: Money | None


def unfunded_around(computed: Money | None, amount: Money, *, call: bool, counted: bool) -> UnfundedChange:
    """The unfunded before and after a notice's `amount`. `computed` is the position's computed
    unfunded on the notice's flow date; `counted`: whether the notice is already in it (approved).
    A call (`call`) lowers the unfunded by its amount; a distribution leaves it as it is."""
    if computed is None:
        return UnfundedChange(None, None)
    if not call:
        return UnfundedChange(computed, computed)
    if counted:
        return UnfundedChange(computed + amount, computed)
    return UnfundedChange(computed, computed - amount)
