"""The capital account's allocations and the splits of calls and distributions: what an LP
statement holds beside the cash flows, and what each does to the figures. Used by the one
figures module (`fundportal.domain.figures_builder.FiguresBuilder` keeps these sums with the others).

Rules, written once here:

- **Which count**: as for every kind (`fundportal.domain.entries`): Cancelled never counts;
  Pending counts (and an unapproved document's entries wait apart, as for the seed's kinds).
- **Management fee** (`ManagementFee`): each entry is one line, gross, offset or waiver, of zero
  or more. Net management fee = gross - offsets - waivers.
- **Partnership expense**: zero or more.
- **Realized and unrealized gain**: signed; a loss is negative.
- **Carried interest**: accrued (may be negative: a reversal or clawback) or paid (zero or more).
- **Calls** (`CapitalCall`): the fee part and the expense part are each zero or more and
  together no more than the call; investment = amount - fee part - expense part. Paid-in
  (contributions) is still every call's whole amount (settled + pending): fees and expenses
  paid through a call are paid-in.
- **Distributions** (`Distribution`): when any of return of capital, gain and income is given,
  they (the missing ones zero, each zero or more) add up to the amount exactly; recallable is
  zero or more and no more than the amount.
- **Computed unfunded** = commitment - calls + the fee and expense parts of calls marked
  outside the commitment + recallable distributed (`AccountActivity.unfunded_add_back`;
  `fundportal.domain.reconciliation.computed_unfunded`).
- **NAV roll-forward** after the last NAV = NAV + calls - distributions - net management fees -
  partnership expenses + realized + unrealized gains - accrued carry (`nav_change`; carry paid is
  no further change to the LP's NAV: it was taken when accrued). Each entry is dated by its flow
  date (due date, else its document's as-of date; `fundportal.domain.valuation`).
- **IRR**: cash flows are calls and distributions only; fees, expenses, gains and carry are
  allocations, not cash. They reach the IRR only through the NAV rolled forward (its terminal value).
- Every sum is per currency, exact (Decimal); nothing here adds two currencies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from .errors import InvalidEntry
from .kinds import CARRY_ACCRUED, CARRY_PAID, CARRY_STAGES, FEE_GROSS, FEE_LINES, FEE_OFFSET, FEE_WAIVER, Kind
from .money import Money, known_money

# The sums an `AccountActivity` holds, in the order the builder keeps them (a register stores the
# list by date: never reorder, only append).
ACTIVITY_FIELDS = (
    "management_fee_gross",
    "management_fee_offset",
    "management_fee_waiver",
    "partnership_expenses",
    "realized_gain",
    "unrealized_gain",
    "carry_accrued",
    "carry_paid",
    "called_fees",  # the fee parts of calls
    "called_expenses",  # the expense parts of calls
    "called_outside",  # the fee and expense parts of calls outside the commitment
    "return_of_capital",
    "distributed_gain",
    "distributed_income",
    "recallable",
)
WIDTH = len(ACTIVITY_FIELDS)
_INDEX = {name: index for index, name in enumerate(ACTIVITY_FIELDS)}
_FEE_INDEX = {FEE_GROSS: 0, FEE_OFFSET: 1, FEE_WAIVER: 2}
_CARRY_INDEX = {CARRY_ACCRUED: 6, CARRY_PAID: 7}
UNDATED = date.min  # the date an entry without a flow date is kept under (it always counts)
_ZERO = Decimal(0)


def _part(value: Any) -> Decimal:
    return _ZERO if value is None else value


# The kinds most entries are, looked up once (`Kind.X` is a descriptor call on Python 3.11, and
# `activity_of` runs for every call and distribution a page counts).
_CALL, _DISTRIBUTION = Kind.CAPITAL_CALL, Kind.DISTRIBUTION


def activity_of(entry: Any) -> list[Decimal] | None:
    """What a counted entry adds to the activity sums (`ACTIVITY_FIELDS` order), or None when it
    adds nothing (a call or distribution without parts, an unfunded commitment, a NAV)."""
    kind = entry.kind
    amount = entry.amount
    if kind is _CALL:
        fee, expense = getattr(entry, "management_fee", None), getattr(entry, "partnership_expense", None)
        if fee is None and expense is None:
            return None
        vector = [_ZERO] * WIDTH
        vector[8], vector[9] = _part(fee), _part(expense)
        if getattr(entry, "outside_commitment", False):
            vector[10] = vector[8] + vector[9]
        return vector
    if kind is _DISTRIBUTION:
        returned, gain = getattr(entry, "return_of_capital", None), getattr(entry, "gain", None)
        income, recallable = getattr(entry, "income", None), getattr(entry, "recallable", None)
        if returned is None and gain is None and income is None and recallable is None:
            return None
        vector = [_ZERO] * WIDTH
        vector[11:15] = [_part(returned), _part(gain), _part(income), _part(recallable)]
        return vector
    index: int | None
    if kind is Kind.MANAGEMENT_FEE:
        index = _FEE_INDEX.get(getattr(entry, "fee_line", FEE_GROSS))
    elif kind is Kind.PARTNERSHIP_EXPENSE:
        index = 3
    elif kind is Kind.REALIZED_GAIN:
        index = 4
    elif kind is Kind.UNREALIZED_GAIN:
        index = 5
    elif kind is Kind.CARRIED_INTEREST:
        index = _CARRY_INDEX.get(getattr(entry, "carry_stage", CARRY_ACCRUED))
    else:
        return None
    if index is None:
        raise ValueError(f"{kind} entry with an unknown line: {entry!r:.200}")
    vector = [_ZERO] * WIDTH
    vector[index] = amount
    return vector


def nav_change(vector: Sequence[Decimal]) -> Decimal:
    """What the allocations of one vector do to the NAV: - net management fee - partnership
    expenses + realized + unrealized gain - accrued carry (splits and carry paid: nothing)."""
    gross, offset, waiver, expenses, realized, unrealized, accrued = vector[:7]
    return -(gross - offset - waiver) - expenses + realized + unrealized - accrued


def unfunded_add_back(vector: Sequence[Decimal]) -> Decimal:
    """What one vector adds back to computed unfunded: call parts outside the commitment +
    recallable distributed."""
    return vector[10] + vector[14]


def add_into(target: list[Decimal], vector: Sequence[Decimal], sign: int = 1) -> None:
    """`target` += sign * `vector`, element by element."""
    for index, value in enumerate(vector):
        if value:
            target[index] += value if sign > 0 else -value


def total(dated: Mapping[date, Sequence[Decimal]], *, up_to: date | None = None) -> list[Decimal]:
    """The sum of the dated vectors (those dated on or before `up_to` when given; undated ones
    always count)."""
    sums = [_ZERO] * WIDTH
    for on, vector in dated.items():
        if up_to is None or on <= up_to:
            add_into(sums, vector)
    return sums


def rolled_nav_change(dated: Mapping[date, Sequence[Decimal]], after: date, up_to: date) -> Decimal:
    """The NAV change of the allocations dated after `after` and on or before `up_to`."""
    return sum((nav_change(v) for on, v in dated.items() if after < on <= up_to and on != UNDATED), _ZERO)


@dataclass(frozen=True, slots=True)
class AccountActivity:
    """The activity sums of one currency (`ACTIVITY_FIELDS`), exact; Money via `money(name)`."""

    currency: str
    management_fee_gross: Decimal = _ZERO
    management_fee_offset: Decimal = _ZERO
    management_fee_waiver: Decimal = _ZERO
    partnership_expenses: Decimal = _ZERO
    realized_gain: Decimal = _ZERO
    unrealized_gain: Decimal = _ZERO
    carry_accrued: Decimal = _ZERO
    carry_paid: Decimal = _ZERO
    called_fees: Decimal = _ZERO
    called_expenses: Decimal = _ZERO
    called_outside: Decimal = _ZERO
    return_of_capital: Decimal = _ZERO
    distributed_gain: Decimal = _ZERO
    distributed_income: Decimal = _ZERO
    recallable: Decimal = _ZERO

    @classmethod
    def of(cls, currency: str, vector: Sequence[Decimal]) -> AccountActivity:
        return cls(currency, *vector)

    def vector(self) -> list[Decimal]:
        return [getattr(self, name) for name in ACTIVITY_FIELDS]

    def money(self, name: str) -> Money:
        """One sum (an `ACTIVITY_FIELDS` name or a property below) as Money of the currency."""
        return known_money(getattr(self, name), self.currency)

    @property
    def management_fee_net(self) -> Decimal:
        """Net management fee = gross - offsets - waivers."""
        return self.management_fee_gross - self.management_fee_offset - self.management_fee_waiver

    @property
    def nav_change(self) -> Decimal:
        """- net management fee - expenses + realized + unrealized gain - accrued carry."""
        return nav_change(self.vector())

    @property
    def unfunded_add_back(self) -> Decimal:
        """Call parts outside the commitment + recallable distributed."""
        return self.called_outside + self.recallable

    def __add__(self, other: AccountActivity) -> AccountActivity:
        if other.currency != self.currency:
            raise TypeError(f"account activity across currencies: {self.currency} + {other.currency}")
        return AccountActivity.of(self.currency, [a + b for a, b in zip(self.vector(), other.vector(), strict=True)])


def sum_activities(activities: Iterable[AccountActivity | None], currency: str) -> AccountActivity | None:
    """The activities of `currency` added up (None when none is given); another currency is a TypeError."""
    held = [a for a in activities if a is not None]
    if not held:
        return None
    result = AccountActivity(currency)
    for activity in held:
        result = result + activity
    return result


def called_investment(called: Money, activity: AccountActivity | None) -> Money:
    """The invested part of the calls: called - fee parts - expense parts."""
    if activity is None:
        return called
    if activity.currency != called.currency.code:
        raise TypeError(f"called {called.currency.code} with activity of {activity.currency}")
    return known_money(called.amount - activity.called_fees - activity.called_expenses, activity.currency)


def unsplit_distributed(distributed: Money, activity: AccountActivity | None) -> Money:
    """The part of the distributions not split into return of capital, gain and income."""
    if activity is None:
        return distributed
    if activity.currency != distributed.currency.code:
        raise TypeError(f"distributed {distributed.currency.code} with activity of {activity.currency}")
    split = activity.return_of_capital + activity.distributed_gain + activity.distributed_income
    return known_money(distributed.amount - split, activity.currency)


# --- what an entry must hold (checked before anything is written) ---------------------------------


def check_entry(entry: Any) -> None:
    """Raise InvalidEntry when `entry` breaks its kind's rules (module doc); every kind but the
    gains and accrued carry needs an amount of zero or more."""
    kind = entry.kind
    slug = kind.slug
    amount = entry.amount
    if kind is Kind.MANAGEMENT_FEE:
        line = getattr(entry, "fee_line", None)
        if line not in FEE_LINES:
            raise InvalidEntry(slug, "fee_line", InvalidEntry.UNKNOWN, expected=", ".join(FEE_LINES), given=str(line))
    if kind is Kind.CARRIED_INTEREST:
        stage = getattr(entry, "carry_stage", None)
        if stage not in CARRY_STAGES:
            raise InvalidEntry(
                slug, "carry_stage", InvalidEntry.UNKNOWN, expected=", ".join(CARRY_STAGES), given=str(stage)
            )
    signed = kind in (Kind.REALIZED_GAIN, Kind.UNREALIZED_GAIN) or (
        kind is Kind.CARRIED_INTEREST and entry.carry_stage == CARRY_ACCRUED
    )
    if amount < 0 and not signed:
        raise InvalidEntry(slug, "amount", InvalidEntry.NEGATIVE, given=str(amount))
    if kind is Kind.CAPITAL_CALL:
        _check_call(slug, entry)
    elif kind is Kind.DISTRIBUTION:
        _check_distribution(slug, entry)


def _check_part(slug: str, field: str, value: Decimal | None, amount: Decimal) -> None:
    if value is None:
        return
    if value < 0:
        raise InvalidEntry(slug, field, InvalidEntry.NEGATIVE, given=str(value))
    if value > amount:
        raise InvalidEntry(slug, field, InvalidEntry.ABOVE_AMOUNT, expected=str(amount), given=str(value))


def _check_call(slug: str, entry: Any) -> None:
    fee, expense = getattr(entry, "management_fee", None), getattr(entry, "partnership_expense", None)
    _check_part(slug, "management_fee", fee, entry.amount)
    _check_part(slug, "partnership_expense", expense, entry.amount)
    if _part(fee) + _part(expense) > entry.amount:
        raise InvalidEntry(
            slug,
            "partnership_expense",
            InvalidEntry.ABOVE_AMOUNT,
            expected=str(entry.amount),
            given=str(_part(fee) + _part(expense)),
        )


def _check_distribution(slug: str, entry: Any) -> None:
    parts = {name: getattr(entry, name, None) for name in ("return_of_capital", "gain", "income")}
    for name, value in parts.items():
        if value is not None and value < 0:
            raise InvalidEntry(slug, name, InvalidEntry.NEGATIVE, given=str(value))
    if any(value is not None for value in parts.values()):
        split = sum((_part(value) for value in parts.values()), _ZERO)
        if split != entry.amount:
            raise InvalidEntry(slug, "split", InvalidEntry.SPLIT_MISMATCH, expected=str(entry.amount), given=str(split))
    _check_part(slug, "recallable", getattr(entry, "recallable", None), entry.amount)


__all__ = [
    "ACTIVITY_FIELDS",
    "AccountActivity",
    "activity_of",
    "add_into",
    "called_investment",
    "check_entry",
    "nav_change",
    "rolled_nav_change",
    "sum_activities",
    "total",
    "unfunded_add_back",
    "unsplit_distributed",
]
