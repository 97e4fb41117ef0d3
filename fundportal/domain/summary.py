"""A fund's summary: its totals and dated flows, per currency, kept without reading the fund.

The rule, written once here:

- **A register's contribution.** Every position register contributes a vector of numbers to its
  fund's summary (`contribution`): per currency, its commitment (in the register's currency),
  the four sums (called settled/pending, distributed settled/pending), its latest NAV and latest
  reported unfunded, the awaiting-approval amounts, counts (the position itself, with a NAV, with
  an unfunded, with a commitment) and its dated flows: calls and distributions by flow date, its
  NAV by the NAV's date, and the net flows after its NAV date by date (what rolls its NAV
  forward). The capital account's activity (`fundportal.domain.statement_kinds`: fees,
  expenses, gains, carry, the splits of calls and distributions) goes in by flow date, one
  measure per sum; the allocations' NAV change after the NAV date joins the net flows that roll
  the NAV forward; the add-backs of a position holding a commitment (call parts outside it,
  recallable distributed) are kept beside what it called.
  Nothing in it depends on today: a contribution is a function of the register alone.
- **A fund's summary is the sum of its registers' contributions.** Sums are exact (Decimal), so
  a change is a delta: `delta(before, after) = contribution(after) - contribution(before)`, and
  many changes (an import's registers) are the sum of their deltas (`add`). The store keeps the
  sum write-sharded (each position's share goes to one of N shard items, chosen from the
  position id); the summary is the sum of the shards (`add` again), whatever the shard count.
- **Valued as of a date D** (`totals_as_of`), on the fund level: flows after D are taken out of
  called and distributed (off the fund's pending amount first, then the settled one); the NAV is
  the sum of the NAVs dated at or before D (a NAV dated after D is unknown at D); the adjusted
  NAV adds the positions' net flows after their own NAV date up to D; the pooled IRR runs on the
  fund's net flows by date with the adjusted NAV as terminal value at D, and only when every
  position of the currency has a NAV at D (otherwise the residual is unknown: "—"). The
  activity sums count the entries dated on or before D. Computed unfunded is the commitments
  less what the positions holding them called plus their add-backs (all flows). The same
  numbers a sum of the positions' own valued figures gives, except when flows after D exceed a
  position's own pending amount (taken off the fund's pending first here) — rare, documented.
- Flows are bounded by the fund's distinct flow dates (per currency), not by its positions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

from .figures import Figures
from .figures_builder import FiguresBuilder
from .money import Money, known_money
from .ratios import percent_called
from .statement_kinds import ACTIVITY_FIELDS, AccountActivity, nav_change, unfunded_add_back
from .valuation import irr_as_of

# A measure: (currency, what, date or None). Dated measures are bounded by distinct flow dates.
Measure = tuple[str, str, date | None]
Vector = dict[Measure, Decimal]

COMMITMENT = "commitment"
COMMITTED_CALLED = "committed_called"  # called by the positions holding a commitment (computed unfunded)
COMMITTED_ADD_BACK = "committed_add_back"  # their add-backs (statement_kinds.unfunded_add_back)
SUMS = ("called_settled", "called_pending", "distributed_settled", "distributed_pending")
NAV, UNFUNDED = "nav", "unfunded"
AWAITING_CALLED, AWAITING_DISTRIBUTED, AWAITING_NAV = "awaiting_called", "awaiting_distributed", "awaiting_nav"
POSITIONS, NAVS, UNFUNDEDS, COMMITTED = "positions", "navs", "unfundeds", "committed"
CALL, DISTRIBUTION, NAV_ON, NAVS_ON, ROLL = "call", "distribution", "nav_on", "navs_on", "roll"
UNDATED = date.min  # a NAV without an as-of date
PLAIN = frozenset(
    {
        COMMITMENT,
        COMMITTED_CALLED,
        COMMITTED_ADD_BACK,
        *SUMS,
        NAV,
        UNFUNDED,
        AWAITING_CALLED,
        AWAITING_DISTRIBUTED,
        AWAITING_NAV,
    }
    | {POSITIONS, NAVS, UNFUNDEDS, COMMITTED}
)
DATED = frozenset({CALL, DISTRIBUTION, NAV_ON, NAVS_ON, ROLL, *ACTIVITY_FIELDS})


class RegisterLike(Protocol):
    """What a contribution reads of a position register (`fundportal.domain.position_register.PositionRegister`)."""

    @property
    def currency(self) -> str: ...

    @property
    def commitment(self) -> Decimal | None: ...

    @property
    def rollup(self) -> dict[str, dict[str, Any]]: ...

    @property
    def awaiting(self) -> dict[str, dict[str, Any]]: ...

    @property
    def awaiting_documents(self) -> tuple[str, ...]: ...


def _put(vector: Vector, measure: Measure, amount: Decimal) -> None:
    if amount:
        vector[measure] = vector.get(measure, Decimal(0)) + amount
        if not vector[measure]:
            del vector[measure]


def contribution(register: RegisterLike | None) -> Vector:
    """The register's share of its fund's summary (see the module doc); empty for None."""
    if register is None:
        return {}
    vector: Vector = {}
    builder = FiguresBuilder.restore(register.rollup, read_only=True)
    codes = set(register.rollup) | {register.currency}
    for code in sorted(codes):
        figures = builder.figures(code)
        _put(vector, (code, POSITIONS, None), Decimal(1))
        for name in SUMS:
            _put(vector, (code, name, None), getattr(figures, name).amount)
        if code == register.currency and register.commitment is not None:
            _put(vector, (code, COMMITMENT, None), register.commitment)
            _put(vector, (code, COMMITTED, None), Decimal(1))
            _put(vector, (code, COMMITTED_CALLED, None), figures.called.amount)
        if figures.unfunded is not None:
            _put(vector, (code, UNFUNDED, None), figures.unfunded.amount)
            _put(vector, (code, UNFUNDEDS, None), Decimal(1))
        nav_date = None
        if figures.nav is not None:
            nav_date = figures.nav_as_of or UNDATED
            _put(vector, (code, NAV, None), figures.nav.amount)
            _put(vector, (code, NAVS, None), Decimal(1))
            _put(vector, (code, NAV_ON, nav_date), figures.nav.amount)
            _put(vector, (code, NAVS_ON, nav_date), Decimal(1))
        for on, (calls, distributions) in builder.dated_flows(code).items():
            _put(vector, (code, CALL, on), calls)
            _put(vector, (code, DISTRIBUTION, on), distributions)
            if nav_date is not None and on > nav_date:
                _put(vector, (code, ROLL, on), calls - distributions)
        for on, sums in builder.dated_activity(code).items():
            for name, amount in zip(ACTIVITY_FIELDS, sums, strict=False):
                _put(vector, (code, name, on), amount)
            if nav_date is not None and on > nav_date and on != UNDATED:
                _put(vector, (code, ROLL, on), nav_change(sums))
            if code == register.currency and register.commitment is not None:
                _put(vector, (code, COMMITTED_ADD_BACK, None), unfunded_add_back(sums))
    if register.awaiting_documents:
        apart = FiguresBuilder.restore(register.awaiting, read_only=True)
        for figures in apart.by_currency():
            code = figures.currency
            _put(vector, (code, AWAITING_CALLED, None), figures.called.amount)
            _put(vector, (code, AWAITING_DISTRIBUTED, None), figures.distributed.amount)
            if figures.nav is not None:
                _put(vector, (code, AWAITING_NAV, None), figures.nav.amount)
    return vector


def add(*vectors: Mapping[Measure, Decimal]) -> Vector:
    """The sum of `vectors` (zeros dropped): a shard's deltas, a fund's shards."""
    total: Vector = {}
    for vector in vectors:
        for measure, amount in vector.items():
            _put(total, measure, amount)
    return total


def negate(vector: Mapping[Measure, Decimal]) -> Vector:
    return {measure: -amount for measure, amount in vector.items()}


def delta(before: RegisterLike | None, after: RegisterLike | None) -> Vector:
    """What the fund's summary changes by when `before` (None: absent) becomes `after`."""
    return add(contribution(after), negate(contribution(before)))


def currencies(vector: Mapping[Measure, Decimal]) -> list[str]:
    return sorted({code for code, _, _ in vector})


@dataclass(frozen=True, slots=True)
class SummaryTotals:
    """A fund's totals in one currency valued as of a date, from its summary."""

    currency: str
    positions: int
    commitment: Money | None
    figures: Figures
    percent_called: Decimal | None
    irr: Decimal | None  # a fraction (0.1234 = 12.34 %)
    unfunded_computed: Money | None
    awaiting_called: Money
    awaiting_distributed: Money
    awaiting_nav: Money | None
    flow_dates: int = field(default=0, compare=False)  # how many distinct flow dates the summary holds


def _take_out(settled: Decimal, pending: Decimal, later: Decimal) -> tuple[Decimal, Decimal]:
    from_pending = min(pending, later) if later > 0 else Decimal(0)
    return settled - (later - from_pending), pending - from_pending


def totals_as_of(summary: Mapping[Measure, Decimal], on: date) -> list[SummaryTotals]:
    """Per currency, the fund's totals valued as of `on` (see the module doc)."""
    by_code: dict[str, dict[str, Decimal]] = {}
    dated: dict[str, dict[str, dict[date, Decimal]]] = {}
    for (code, what, when), amount in summary.items():
        if when is None:
            by_code.setdefault(code, {})[what] = amount
        else:
            dated.setdefault(code, {}).setdefault(what, {})[when] = amount
    lines = []
    for code in sorted(set(by_code) | set(dated)):
        plain, flows = by_code.get(code, {}), dated.get(code, {})
        positions = int(plain.get(POSITIONS, 0))
        if positions <= 0:
            continue  # a currency only awaiting approval has no position counted in it
        calls, distributions = flows.get(CALL, {}), flows.get(DISTRIBUTION, {})
        later_calls = sum((a for d, a in calls.items() if d > on), Decimal(0))
        later_distributions = sum((a for d, a in distributions.items() if d > on), Decimal(0))
        called_settled, called_pending = _take_out(
            _of(plain, "called_settled"), _of(plain, "called_pending"), later_calls
        )
        distributed_settled, distributed_pending = _take_out(
            _of(plain, "distributed_settled"), _of(plain, "distributed_pending"), later_distributions
        )
        navs_on, nav_on = flows.get(NAVS_ON, {}), flows.get(NAV_ON, {})
        known = [d for d in navs_on if d <= on]
        nav_count = int(sum((navs_on[d] for d in known), Decimal(0)))
        nav = adjusted = None
        nav_as_of = None
        if nav_count:
            nav_amount = sum((nav_on.get(d, Decimal(0)) for d in known), Decimal(0))
            nav = known_money(nav_amount, code)
            rolled = sum((a for d, a in flows.get(ROLL, {}).items() if d <= on), Decimal(0))
            adjusted = known_money(nav_amount + rolled, code)
            nav_as_of = max((d for d in known if d != UNDATED), default=None)
        unfunded = known_money(_of(plain, UNFUNDED), code) if _of(plain, UNFUNDEDS) else None
        sums = [sum((a for d, a in flows.get(name, {}).items() if d <= on), Decimal(0)) for name in ACTIVITY_FIELDS]
        figures = Figures(
            code,
            known_money(called_settled, code),
            known_money(called_pending, code),
            known_money(distributed_settled, code),
            known_money(distributed_pending, code),
            unfunded,
            nav=nav,
            nav_as_of=nav_as_of,
            as_of=on,
            adjusted_nav=adjusted,
            activity=AccountActivity.of(code, sums) if any(sums) else None,
        )
        commitment = known_money(_of(plain, COMMITMENT), code) if _of(plain, COMMITTED) else None
        computed = (
            known_money(_of(plain, COMMITMENT) - _of(plain, COMMITTED_CALLED) + _of(plain, COMMITTED_ADD_BACK), code)
            if commitment is not None
            else None
        )
        net = {d: distributions.get(d, Decimal(0)) - calls.get(d, Decimal(0)) for d in set(calls) | set(distributions)}
        pooled = irr_as_of(figures, sorted(net.items())) if nav_count == positions else None
        lines.append(
            SummaryTotals(
                currency=code,
                positions=positions,
                commitment=commitment,
                figures=figures,
                percent_called=percent_called(figures.called, commitment),
                irr=pooled,
                unfunded_computed=computed,
                awaiting_called=known_money(_of(plain, AWAITING_CALLED), code),
                awaiting_distributed=known_money(_of(plain, AWAITING_DISTRIBUTED), code),
                awaiting_nav=known_money(_of(plain, AWAITING_NAV), code) if _of(plain, AWAITING_NAV) else None,
                flow_dates=len(set(calls) | set(distributions)),
            )
        )
    return lines


def _of(plain: Mapping[str, Decimal], name: str) -> Decimal:
    return plain.get(name, Decimal(0))


__all__ = [
    "Measure",
    "SummaryTotals",
    "Vector",
    "add",
    "contribution",
    "currencies",
    "delta",
    "negate",
    "totals_as_of",
]
