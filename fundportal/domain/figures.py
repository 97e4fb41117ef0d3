"""Every figure of a position, computed once, here. Rules:

- Which entries count and which one is latest: `fundportal.domain.entries` (Cancelled never
  counts; Pending counts and is also reported apart; latest by as-of date, update time, id).
- called = called_settled + called_pending, distributed = distributed_settled +
  distributed_pending.
- DPI = distributed / called (pending included); DPI (settled) = distributed_settled /
  called_settled. Both are None when the divisor is zero, and are quantized to 0.01 with
  ROUND_HALF_EVEN (195,000 / 1,250,000 = 0.156 -> 0.16x).
- Unfunded is the amount of the latest non-cancelled unfunded-commitment entry of the
  currency, not a sum; None when there is none, shown with that entry's as-of date.
  This is the GP-reported figure; the computed one (commitment - called) and the flags that
  compare them are in `fundportal.domain.reconciliation`.
- NAV is the amount of the latest non-cancelled NAV entry of the currency, by the
  same "latest" rule as unfunded. RVPI = NAV / called; TVPI = (distributed + NAV) / called
  (pending included, like DPI); both None without a NAV or with nothing called. Figures valued
  as of a date (`fundportal.domain.valuation`, the one date basis) use the adjusted NAV there.
- % called = called / commitment, as a percentage to 0.1 (None without a commitment).
- Never add across currencies: every figure is per currency (one `Figures` per currency), and
  `Money` raises TypeError if two currencies ever meet in a sum or a ratio.
- The builder that counts entries into figures is `fundportal.domain.figures_builder`; the
  ratios are `fundportal.domain.ratios`.
- IRR is in `fundportal.domain.returns` (dated flows; this builder can keep them per currency).
- Document types (capital_call_notice, distribution_notice, capital_account_statement,
  quarterly_report, other) do not change how an entry is read; the entry's kind does. Capital
  calls and distributions are period flows in every type: the amount called or paid in that
  document's period, never an inception-to-date balance, so they are summed across documents
  (a capital account statement records the period's calls and distributions, not cumulative
  ones). Unfunded commitment (and NAV) are point-in-time balances in every type: the latest
  entry is taken, never a sum, so a capital account statement's unfunded commitment replaces
  the earlier one instead of adding to it. No figure reads `DocumentType`.
- The capital account's allocations (management fees, partnership expenses, realized and
  unrealized gains, carried interest) and the splits of calls (fee and expense parts) and of
  distributions (return of capital, gain, income, recallable): kept beside the sums, per currency
  and by flow date (`Figures.activity`); their rules — paid-in, computed unfunded, the NAV
  roll-forward and IRR — are in `fundportal.domain.statement_kinds`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from .entries import MIN_AT, UnfundedKey
from .money import Money, money
from .ratios import dpi, ratio, rvpi, tvpi
from .statement_kinds import AccountActivity, sum_activities


@dataclass(frozen=True, slots=True)
class Figures:
    """The figures of one currency. `unfunded_key` is the rank of the unfunded entry (for carrying)."""

    currency: str
    called_settled: Money
    called_pending: Money
    distributed_settled: Money
    distributed_pending: Money
    unfunded: Money | None = None
    unfunded_as_of: date | None = None
    unfunded_key: UnfundedKey | None = field(default=None, compare=False, repr=False)
    nav: Money | None = None
    nav_as_of: date | None = None
    nav_key: UnfundedKey | None = field(default=None, compare=False, repr=False)
    # Valued as of a date (`fundportal.domain.valuation.value_as_of`): the date and the NAV rolled
    # forward to it; None for figures not valued (a document's, a page's running figures).
    as_of: date | None = None
    adjusted_nav: Money | None = None
    # The allocations and splits counted (`fundportal.domain.statement_kinds`); None: none recorded.
    activity: AccountActivity | None = None
    # settled + pending, added once here (a fund page reads them for a thousand lines)
    called: Money = field(init=False, compare=False, repr=False)
    distributed: Money = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        code = self.currency
        for value in (
            self.called_settled,
            self.called_pending,
            self.distributed_settled,
            self.distributed_pending,
            self.unfunded,
            self.nav,
            self.adjusted_nav,
        ):
            if value is not None and value.currency.code != code:
                raise TypeError(f"{value!r} in figures of {code}")
        if self.activity is not None and self.activity.currency != code:
            raise TypeError(f"activity of {self.activity.currency} in figures of {code}")
        if self.unfunded is None:  # the key ranks the unfunded entry: none without one
            object.__setattr__(self, "unfunded_key", None)
        elif self.unfunded_key is None:  # built by hand: rank it as weakly as its as-of date allows
            object.__setattr__(self, "unfunded_key", (self.unfunded_as_of or date.min, MIN_AT, ""))
        # Same currency checked above: the Decimals are added and made Money once, in the
        # amounts' own currency (py-moneyed's `Currency`, so nothing is looked up again).
        currency = self.called_settled.currency
        object.__setattr__(self, "called", Money(self.called_settled.amount + self.called_pending.amount, currency))
        object.__setattr__(
            self, "distributed", Money(self.distributed_settled.amount + self.distributed_pending.amount, currency)
        )

    @property
    def dpi(self) -> Decimal | None:
        return dpi(self)

    @property
    def dpi_settled(self) -> Decimal | None:
        return ratio(self.distributed_settled, self.called_settled)

    @property
    def rvpi(self) -> Decimal | None:
        return rvpi(self)

    @property
    def tvpi(self) -> Decimal | None:
        return tvpi(self)


# The four sums every Figures holds, in the builder's order (fundportal.domain.carry serialises them).
AMOUNT_FIELDS = ("called_settled", "called_pending", "distributed_settled", "distributed_pending")


def sum_figures(groups: Iterable[Iterable[Figures]]) -> list[Figures]:
    """Several positions' figures added up per currency: a document's (or fund's) totals.

    The "latest unfunded" rule picks among one position's entries; across positions every
    position has its own commitment, so a total's unfunded is their sum (as of the latest date).
    """
    by_currency: dict[str, list[Figures]] = {}
    for figures in groups:
        for f in figures:
            by_currency.setdefault(f.currency, []).append(f)
    totals = []
    for code in sorted(by_currency):
        group = by_currency[code]
        # Every Figures checked its amounts' currency when built: the group's amounts are all
        # `code`, so their Decimals are added and the sum made Money once.
        called_settled, called_pending, distributed_settled, distributed_pending = (
            money(_sum(getattr(f, name).amount for f in group), code) for name in AMOUNT_FIELDS
        )
        # Every position has its own NAV and commitment: a total is their sum, as of the latest date.
        navs = [(f.nav, f.nav_as_of) for f in group if f.nav is not None]
        unfundeds = [(f.unfunded, f.unfunded_as_of) for f in group if f.unfunded is not None]
        nav, nav_as_of = _total(navs, code)
        unfunded, unfunded_as_of = _total(unfundeds, code)
        # Valued as of one date D: the total's adjusted NAV is the positions' adjusted NAVs at D
        # (a position without a NAV adds none, as its NAV adds none to the total NAV).
        as_of = group[0].as_of if all(f.as_of == group[0].as_of for f in group) else None
        adjusted = [(f.adjusted_nav, as_of) for f in group if f.adjusted_nav is not None]
        adjusted_nav = _total(adjusted, code)[0] if as_of is not None else None
        activity = sum_activities((f.activity for f in group), code)
        totals.append(
            Figures(
                code,
                called_settled,
                called_pending,
                distributed_settled,
                distributed_pending,
                unfunded,
                unfunded_as_of,
                nav=nav,
                nav_as_of=nav_as_of,
                as_of=as_of,
                adjusted_nav=adjusted_nav,
                activity=activity,
            )
        )
    return totals


def _sum(amounts: Iterable[Decimal]) -> Decimal:
    return sum(amounts, Decimal(0))


def _total(dated: list[tuple[Money, date | None]], code: str) -> tuple[Money | None, date | None]:
    """The sum of `dated` amounts of `code`, as of their latest date; (None, None) for none."""
    if not dated:
        return None, None
    return money(_sum(value.amount for value, _ in dated), code), max((on for _, on in dated if on), default=None)
