"""The accumulator of a position's figures (`FiguresBuilder`): counts entries per currency by
the rules stated in `fundportal.domain.figures`, un-counts them, keeps the dated flows, NAVs and
activity when asked, and stores and restores its state (the position register)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from .entries import CANCELLED, LATEST_KINDS, PENDING, EntryLike, Rank, UnfundedKey, counts, rank
from .figures import AMOUNT_FIELDS, Figures
from .kinds import STATEMENT_KINDS, Kind
from .money import Money, checked_amount, currency_code, known_money, money
from .statement_kinds import UNDATED, WIDTH, AccountActivity, activity_of, add_into
from .valuation import value_amounts_as_of

_ZEROS = (Decimal(0),) * 4
# The kinds `FiguresBuilder.add` tells apart, looked up once (`Kind.X` is a descriptor call on
# Python 3.11, and `add` runs per entry of every page).
_CALL, _DISTRIBUTION, _UNFUNDED, _NAV = Kind.CAPITAL_CALL, Kind.DISTRIBUTION, Kind.UNFUNDED_COMMITMENT, Kind.NAV


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
        unfunded, unfunded_as_of, unfunded_key = self._latest_unfunded(code)
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

    def _latest_unfunded(self, code: str) -> tuple[Money | None, date | None, UnfundedKey | None]:
        """The latest unfunded figure of `code`, its as-of date and its rank key (all None: none)."""
        if (latest_unfunded := self._unfunded.get(code)) is None:
            return None, None, None
        unfunded_key, amount = latest_unfunded  # the key's date is the as-of date, date.min standing for none
        return known_money(amount, code), None if unfunded_key[0] == date.min else unfunded_key[0], unfunded_key

    def valued(self, currency: str, on: date) -> Figures:
        """`value_as_of(figures(currency, on), dated_flows(currency), on, dated_activity(currency))`
        (`fundportal.domain.valuation`) built straight from the sums held: one `Figures`, not two
        (a fund page values a hundred registers)."""
        code = currency if currency in self._sums else currency_code(currency)
        nav = nav_as_of = nav_key = None
        if (latest_nav := self.nav_on(code, on)) is not None:
            nav_key, nav = latest_nav
            nav_as_of = None if nav_key[0] == date.min else nav_key[0]
        unfunded, unfunded_as_of, unfunded_key = self._latest_unfunded(code)
        dated = self._activity.get(code)
        # The total of every allocation, unless valuing leaves later ones out (and totals them itself).
        activity = AccountActivity.of(code, _total_of(dated)) if dated and max(dated) <= on else None
        return value_amounts_as_of(
            code,
            self._sums.get(code, _ZEROS),
            (self._flows or {}).get(code, {}),
            on,
            dated or {},
            unfunded=unfunded,
            unfunded_as_of=unfunded_as_of,
            unfunded_key=unfunded_key,
            nav=nav,
            nav_as_of=nav_as_of,
            nav_key=nav_key,
            activity=activity,
        )

    def currencies(self) -> list[str]:
        """Every currency seen (Cancelled-only currencies are not seen), by code."""
        return sorted(self._sums.keys() | self._nav.keys())

    def by_currency(self, on: date | None = None) -> list[Figures]:
        """Figures of every currency seen (`currencies`), by currency code; `on`: with the NAV
        of that date (`nav_on`)."""
        return [self.figures(code, on) for code in self.currencies()]

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


def _total_of(dated: Mapping[date, Sequence[Decimal]]) -> list[Decimal]:
    sums = [Decimal(0)] * WIDTH
    for vector in dated.values():
        add_into(sums, vector)
    return sums


def _widened(vector: Sequence[Decimal]) -> list[Decimal]:
    """A stored activity vector as a list of `WIDTH` (a shorter one, kept before a sum was
    appended, is padded with zeros)."""
    return [*vector, *([Decimal(0)] * (WIDTH - len(vector)))]
