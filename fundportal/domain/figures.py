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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from .entries import CANCELLED, LATEST_KINDS, MIN_AT, PENDING, EntryLike, Rank, UnfundedKey, counts, rank
from .kinds import STATEMENT_KINDS, Kind
from .money import Money, checked_amount, currency_code, known_money, money
from .statement_kinds import UNDATED, WIDTH, AccountActivity, activity_of, add_into, sum_activities

_CENT = Decimal("0.01")
_TENTH = Decimal("0.1")
_ZEROS = (Decimal(0),) * 4
# The kinds `FiguresBuilder.add` tells apart, looked up once (`Kind.X` is a descriptor call on
# Python 3.11, and `add` runs per entry of every page).
_CALL, _DISTRIBUTION, _UNFUNDED, _NAV = Kind.CAPITAL_CALL, Kind.DISTRIBUTION, Kind.UNFUNDED_COMMITMENT, Kind.NAV


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
        # Same currency checked above: the Decimals are added and made Money once.
        object.__setattr__(self, "called", known_money(self.called_settled.amount + self.called_pending.amount, code))
        object.__setattr__(
            self, "distributed", known_money(self.distributed_settled.amount + self.distributed_pending.amount, code)
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


class FiguresBuilder:
    """The accumulator every page, CSV and command uses; may continue from carried figures."""

    __slots__ = ("_activity", "_flows", "_nav", "_navs", "_sums", "_unfunded")

    def __init__(self, start: Iterable[Figures] = (), *, flows: bool = False) -> None:
        # currency -> [called settled, called pending, distributed settled, distributed pending]
        self._sums: dict[str, list[Decimal]] = {}
        # currency -> (key, amount) of the latest unfunded entry so far
        self._unfunded: dict[str, tuple[UnfundedKey, Decimal]] = {}
        # currency -> (key, amount) of the latest NAV entry so far
        self._nav: dict[str, Rank] = {}
        # currency -> flow date -> [calls, distributions] (IRR's cash flows), when asked for
        self._flows: dict[str, dict[date, list[Decimal]]] | None = {} if flows else None
        # currency -> every NAV entry's (key, amount), kept with the flows: the NAV at any date
        self._navs: dict[str, list[Rank]] | None = {} if flows else None
        # currency -> flow date (UNDATED: none) -> the activity sums (`statement_kinds`), always kept
        self._activity: dict[str, dict[date, list[Decimal]]] = {}
        for figures in start:
            sums = self._bucket(figures.currency)
            for index, name in enumerate(AMOUNT_FIELDS):
                sums[index] += getattr(figures, name).amount
            if figures.unfunded is not None and figures.unfunded_key is not None:  # always both or neither
                self._offer_unfunded(figures.currency, (figures.unfunded_key, figures.unfunded.amount))
            if figures.nav is not None and figures.nav_key is not None:
                self._offer(self._nav, figures.currency, (figures.nav_key, figures.nav.amount))
            if figures.activity is not None:  # carried figures: their dates are not known here
                self._count_activity(figures.currency, UNDATED, figures.activity.vector(), 1)

    def _bucket(self, currency: str) -> list[Decimal]:
        sums = self._sums.get(currency)
        return sums if sums is not None else self._sums.setdefault(currency_code(currency), [Decimal(0)] * 4)

    def _offer_unfunded(self, currency: str, rank: tuple[UnfundedKey, Decimal]) -> None:
        current = self._unfunded.get(currency)
        if current is None or rank > current:
            self._unfunded[currency] = rank

    @staticmethod
    def _offer(latest: dict[str, Rank], currency: str, rank: Rank) -> None:
        current = latest.get(currency)
        if current is None or rank > current:
            latest[currency] = rank

    def _flow(self, code: str, entry: EntryLike, column: int, amount: Decimal) -> None:
        if self._flows is None or (on := entry.flow_date) is None:
            return
        by_date = self._flows.setdefault(code, {})
        flow = by_date.setdefault(on, [Decimal(0), Decimal(0)])
        flow[column] += amount
        if not flow[0] and not flow[1]:
            del by_date[on]

    def _count_activity(self, code: str, on: date, vector: list[Decimal], sign: int) -> None:
        by_date = self._activity.setdefault(code, {})
        held = by_date.setdefault(on, [Decimal(0)] * WIDTH)
        add_into(held, vector, sign)
        if not any(held):
            del by_date[on]
            if not by_date:
                del self._activity[code]

    def _activity_of(self, code: str, entry: EntryLike, sign: int) -> None:
        vector = activity_of(entry)
        if vector is not None:
            self._count_activity(code, entry.flow_date or UNDATED, vector, sign)

    def add(self, entry: EntryLike) -> None:
        """Count one entry: Cancelled is ignored; unfunded keeps the latest by the rule."""
        status = entry.status
        if status == CANCELLED:
            return
        amount, code = checked_amount(entry.amount), currency_code(entry.currency)  # validates both
        sums = self._bucket(code)
        kind = entry.kind
        if kind is _CALL:
            sums[1 if status == PENDING else 0] += amount
            if self._flows is not None:
                self._flow(code, entry, 0, amount)
            self._activity_of(code, entry, 1)
        elif kind is _DISTRIBUTION:
            sums[3 if status == PENDING else 2] += amount
            if self._flows is not None:
                self._flow(code, entry, 1, amount)
            self._activity_of(code, entry, 1)
        elif kind is _UNFUNDED:
            self._offer_unfunded(code, rank(entry))
        elif kind is _NAV:
            self._offer(self._nav, code, held := rank(entry))
            if self._navs is not None:
                self._navs.setdefault(code, []).append(held)
        elif kind in STATEMENT_KINDS:
            self._activity_of(code, entry, 1)
        else:
            raise ValueError(f"{kind} is not a position entry")

    def remove(self, entry: EntryLike) -> Kind | None:
        """Un-count an entry counted before (a change or removal), the exact inverse of `add` for
        sums and flows. If it was the latest unfunded/NAV entry, that figure is dropped and its
        kind returned: the caller must `reconsider` the remaining entries of that kind."""
        if entry.status == CANCELLED:
            return None
        value = money(entry.amount, entry.currency)
        code = value.currency.code
        kind = entry.kind
        if kind in LATEST_KINDS:
            latest = self._unfunded if kind is Kind.UNFUNDED_COMMITMENT else self._nav
            if kind is Kind.NAV and self._navs is not None and rank(entry) in (navs := self._navs.get(code, [])):
                navs.remove(rank(entry))
            if latest.get(code) == rank(entry):
                del latest[code]
                return kind
            return None
        sums = self._bucket(code)
        if kind is Kind.CAPITAL_CALL:
            sums[1 if entry.status == PENDING else 0] -= value.amount
            self._flow(code, entry, 0, -value.amount)
            self._activity_of(code, entry, -1)
        elif kind is Kind.DISTRIBUTION:
            sums[3 if entry.status == PENDING else 2] -= value.amount
            self._flow(code, entry, 1, -value.amount)
            self._activity_of(code, entry, -1)
        elif kind in STATEMENT_KINDS:
            self._activity_of(code, entry, -1)
        else:
            raise ValueError(f"{kind} is not a position entry")
        return None

    def reconsider(self, kind: Kind, entries: Iterable[EntryLike]) -> None:
        """Offer every counted entry of `kind` (unfunded or NAV) as the latest again (after `remove`
        dropped the latest): only the latest rule runs, no sums are touched."""
        latest = self._unfunded if kind is Kind.UNFUNDED_COMMITMENT else self._nav
        for entry in entries:
            if entry.kind is kind and counts(entry.status):
                self._offer(latest, money(entry.amount, entry.currency).currency.code, rank(entry))

    # --- the builder's state (the position register stores it; `restore` is the inverse) ---

    def state(self) -> dict[str, dict[str, Any]]:
        """Per currency: sums, latest unfunded and NAV (key, amount), and flows if kept."""
        codes = sorted(set(self._sums) | set(self._unfunded) | set(self._nav) | set(self._activity))
        flows = self._flows or {}
        # A currency with nothing left (its last entry removed) is dropped: the state equals a
        # fresh count of the entries, whatever was added and removed before.
        codes = [
            c
            for c in codes
            if any(self._sums.get(c, ()))
            or c in self._unfunded
            or c in self._nav
            or flows.get(c)
            or c in self._activity
        ]
        state: dict[str, dict[str, Any]] = {
            code: {
                "sums": list(self._sums.get(code, [Decimal(0)] * 4)),
                "unfunded": self._unfunded.get(code),
                "nav": self._nav.get(code),
                "flows": dict(sorted((self._flows or {}).get(code, {}).items())),
            }
            for code in codes
        }
        for code, navs in (self._navs or {}).items():
            if navs and code in state:  # only when held: a state without NAVs is as it always was
                state[code]["navs"] = sorted(navs)
        for code, dated in self._activity.items():  # likewise: only when any activity is held
            state[code]["activity"] = {on: list(vector) for on, vector in sorted(dated.items())}
        return state

    @classmethod
    def restore(cls, state: dict[str, dict[str, Any]], *, read_only: bool = False) -> FiguresBuilder:
        """A builder holding `state`; `read_only`: it shares the state's lists instead of copying
        them (a register's figures are read a thousand times on a fund page, never added to)."""
        builder = cls(flows=True)
        for code, data in state.items():
            builder._bucket(code)[:] = data["sums"]
            if data.get("unfunded") is not None:
                builder._unfunded[code] = data["unfunded"]
            if data.get("nav") is not None:
                builder._nav[code] = data["nav"]
            held = data.get("flows") or {}
            flows = held if read_only else {on: list(pair) for on, pair in held.items()}
            if flows:
                assert builder._flows is not None
                builder._flows[code] = flows
            if data.get("navs"):
                assert builder._navs is not None
                builder._navs[code] = list(data["navs"])
            if data.get("activity"):
                held_activity = data["activity"]
                builder._activity[code] = (
                    held_activity if read_only else {on: _widened(vector) for on, vector in held_activity.items()}
                )
        return builder

    def nav_on(self, currency: str, on: date) -> Rank | None:
        """The (key, amount) of the latest NAV dated on or before `on` (None: none known; a
        builder without the NAV list knows only the latest NAV)."""
        code = currency if currency in self._sums else currency_code(currency)
        latest = self._nav.get(code)
        if latest is None or latest[0][0] <= on:
            return latest
        return max((r for r in (self._navs or {}).get(code, ()) if r[0][0] <= on), default=None)

    def dated_flows(self, currency: str) -> Mapping[date, Sequence[Decimal]]:
        """date -> [calls, distributions] of `currency`: what valuing as of a date needs (the
        builder's own mapping, not a copy: read it, never change it)."""
        return (self._flows or {}).get(currency if currency in self._sums else currency_code(currency), {})

    def dated_activity(self, currency: str) -> Mapping[date, Sequence[Decimal]]:
        """flow date (`statement_kinds.UNDATED`: none) -> the activity sums of `currency` (the
        builder's own mapping: read it, never change it); empty when none is recorded."""
        return self._activity.get(currency if currency in self._sums else currency_code(currency), {})

    def flows(self, currency: str) -> list[tuple[date, Decimal]]:
        """IRR's cash flows of `currency` by date: calls negative, distributions positive."""
        by_date = (self._flows or {}).get(currency_code(currency), {})
        return [(on, pair[1] - pair[0]) for on, pair in sorted(by_date.items()) if pair[1] - pair[0]]

    def figures(self, currency: str, on: date | None = None) -> Figures:
        """The figures of `currency` (zero figures if it has nothing); `on`: with the NAV of that
        date (`nav_on`) instead of the latest."""
        # A code the builder holds is canonical already (a document page asks for 100 rows').
        code = currency if currency in self._sums else currency_code(currency)
        # Every amount held (sums, NAV, unfunded) was checked when added (or restored from a checked state).
        called, called_pending, distributed, distributed_pending = [
            known_money(value, code) for value in self._sums.get(code, _ZEROS)
        ]
        nav = nav_as_of = nav_key = None
        if (latest_nav := self._nav.get(code) if on is None else self.nav_on(code, on)) is not None:
            nav_key, amount = latest_nav
            nav, nav_as_of = known_money(amount, code), None if nav_key[0] == date.min else nav_key[0]
        unfunded = unfunded_as_of = unfunded_key = None
        if (latest_unfunded := self._unfunded.get(code)) is not None:
            unfunded_key, amount = latest_unfunded  # the key's date is the as-of date, date.min standing for none
            unfunded = known_money(amount, code)
            unfunded_as_of = None if unfunded_key[0] == date.min else unfunded_key[0]
        dated = self._activity.get(code)
        return Figures(
            code,
            called,
            called_pending,
            distributed,
            distributed_pending,
            unfunded,
            unfunded_as_of,
            unfunded_key,
            nav,
            nav_as_of,
            nav_key,
            activity=None if not dated else AccountActivity.of(code, _total_of(dated)),
        )

    def by_currency(self, on: date | None = None) -> list[Figures]:
        """Figures of every currency seen (Cancelled-only currencies are not seen), by currency
        code; `on`: with the NAV of that date (`nav_on`)."""
        return [self.figures(code, on) for code in sorted(self._sums.keys() | self._nav.keys())]

    def snapshot(self) -> FiguresBuilder:
        """An independent copy (running totals after each row)."""
        copy = FiguresBuilder.__new__(FiguresBuilder)
        copy._sums = {code: sums.copy() for code, sums in self._sums.items()}
        copy._unfunded = self._unfunded.copy()
        copy._nav = self._nav.copy()
        copy._activity = {c: {d: v.copy() for d, v in a.items()} for c, a in self._activity.items()}
        navs = self._navs
        copy._navs = None if navs is None else {c: list(n) for c, n in navs.items()}
        flows = self._flows
        copy._flows = None if flows is None else {c: {d: p.copy() for d, p in f.items()} for c, f in flows.items()}
        return copy


def figures_by_currency(entries: Iterable[EntryLike]) -> list[Figures]:
    """Figures per currency of `entries`, sorted by currency code."""
    builder = FiguresBuilder()
    for entry in entries:
        builder.add(entry)
    return builder.by_currency()


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


def _total_of(dated: Mapping[date, Sequence[Decimal]]) -> list[Decimal]:
    sums = [Decimal(0)] * WIDTH
    for vector in dated.values():
        add_into(sums, vector)
    return sums


def _widened(vector: Sequence[Decimal]) -> list[Decimal]:
    """A stored activity vector as a list of `WIDTH` (a shorter one, kept before a sum was
    appended, is padded with zeros)."""
    return [*vector, *([Decimal(0)] * (WIDTH - len(vector)))]


def _sum(amounts: Iterable[Decimal]) -> Decimal:
    return sum(amounts, Decimal(0))


def _total(dated: list[tuple[Money, date | None]], code: str) -> tuple[Money | None, date | None]:
    """The sum of `dated` amounts of `code`, as of their latest date; (None, None) for none."""
    if not dated:
        return None, None
    return money(_sum(value.amount for value, _ in dated), code), max((on for _, on in dated if on), default=None)
