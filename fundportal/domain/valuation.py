"""One date basis for every figure: a position's figures valued as of a date D (default today).

The rule, written once here and used by every page, export, statement and command:

- Flows count up to D: a call or distribution whose flow date (due date, else its document's
  as-of date) is after D is left out of called, distributed, DPI, RVPI, TVPI and the IRR. It is
  taken off the pending amount first (a flow not yet due is not yet settled), then the settled one.
  An entry with no date at all has no place in time and always counts.
- NAV is the latest NAV at or before D. The position register keeps only the latest NAV: when
  that one is dated after D, the NAV at D is unknown here (None: RVPI, TVPI and IRR are "—").
- Adjusted NAV = NAV + calls after the NAV date up to D - distributions after the NAV date up
  to D: the NAV rolled forward to D by the cash that moved since (money called is in the fund at
  cost; money distributed has left it). RVPI = adjusted NAV / called; TVPI = (distributed +
  adjusted NAV) / called.
- The allocations (management fees, expenses, gains, accrued carry; `statement_kinds`) dated
  after the NAV date up to D roll the NAV forward too: adjusted NAV += their `nav_change`. Those
  dated after D are left out of the figures' activity sums. They are no cash flows.
- IRR (`fundportal.domain.returns.irr`) of the same flows up to D, with the adjusted NAV as the
  terminal value at D. So TVPI and IRR see the same cash and the same value on the same date,
  and a TVPI below 1.00x always comes with a negative IRR.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from decimal import Decimal

from .entries import UnfundedKey
from .figures import Figures
from .money import Money, known_money
from .returns import irr
from .statement_kinds import AccountActivity, rolled_nav_change, total

_ZERO = Decimal(0)


def value_as_of(
    figures: Figures,
    dated_flows: Mapping[date, Sequence[Decimal]],
    on: date,
    dated_activity: Mapping[date, Sequence[Decimal]] | None = None,
) -> Figures:
    """`figures` (all of a position's entries in one currency) valued as of `on`: the flows after
    `on` taken out and the NAV rolled forward to `on` (see the module doc). `dated_flows` are the
    date -> [calls, distributions] of that currency (`FiguresBuilder.dated_flows`);
    `dated_activity` its allocations by date (`FiguresBuilder.dated_activity`; None: none)."""
    nav = figures.nav
    return value_amounts_as_of(
        figures.currency,
        (
            figures.called_settled.amount,
            figures.called_pending.amount,
            figures.distributed_settled.amount,
            figures.distributed_pending.amount,
        ),
        dated_flows,
        on,
        dated_activity,
        unfunded=figures.unfunded,
        unfunded_as_of=figures.unfunded_as_of,
        unfunded_key=figures.unfunded_key,
        nav=None if nav is None else nav.amount,
        nav_as_of=figures.nav_as_of,
        nav_key=figures.nav_key,
        activity=figures.activity,
    )


def value_amounts_as_of(
    code: str,
    sums: Sequence[Decimal],
    dated_flows: Mapping[date, Sequence[Decimal]],
    on: date,
    dated_activity: Mapping[date, Sequence[Decimal]] | None = None,
    *,
    unfunded: Money | None = None,
    unfunded_as_of: date | None = None,
    unfunded_key: UnfundedKey | None = None,
    nav: Decimal | None = None,
    nav_as_of: date | None = None,
    nav_key: UnfundedKey | None = None,
    activity: AccountActivity | None = None,
) -> Figures:
    """`value_as_of` of figures held as amounts of a `currency_code` `code` (the builder's state,
    `FiguresBuilder.valued`: one `Figures` built instead of two): `sums` are called settled,
    called pending, distributed settled and distributed pending; `nav` the latest NAV's amount
    (None: none) dated `nav_as_of`; the unfunded figure and `activity` are kept as they are
    (`activity` unless allocations dated after `on` are left out)."""
    if nav is not None and nav_as_of is not None and nav_as_of > on:
        nav = nav_as_of = None
    called_settled, called_pending, distributed_settled, distributed_pending = sums
    later_calls = later_distributions = _ZERO  # after `on`: left out
    rolled_calls = rolled_distributions = _ZERO  # after the NAV date, up to `on`: rolled forward
    since = on if nav_as_of is None else min(nav_as_of, on)
    # Usually nothing moved after the NAV date: one C-level max instead of a loop per line.
    if dated_flows and max(dated_flows) > since:
        for flow_date, (calls, distributions) in dated_flows.items():
            if flow_date > on:
                later_calls += calls
                later_distributions += distributions
            elif flow_date > since:
                rolled_calls += calls
                rolled_distributions += distributions
    if later_calls:
        called_settled, called_pending = _take_out(called_settled, called_pending, later_calls)
    if later_distributions:
        distributed_settled, distributed_pending = _take_out(
            distributed_settled, distributed_pending, later_distributions
        )
    rolled_allocations = _ZERO
    if dated_activity:
        if nav is not None:
            rolled_allocations = rolled_nav_change(dated_activity, since, on)
        if max(dated_activity) > on:
            activity = AccountActivity.of(code, total(dated_activity, up_to=on))
    # Every amount here is in `code`: its currency is looked up once (`known_money`) and shared.
    first = known_money(called_settled, code)
    currency = first.currency
    held = held_nav = None
    if nav is not None:
        held = held_nav = Money(nav, currency)
        if rolled_calls or rolled_distributions or rolled_allocations:
            held_nav = Money(nav + rolled_calls - rolled_distributions + rolled_allocations, currency)
    # Built positionally, in `Figures`' field order, not by `dataclasses.replace` (a fund page
    # values a hundred lines a page).
    return Figures(
        code,
        first,
        Money(called_pending, currency),
        Money(distributed_settled, currency),
        Money(distributed_pending, currency),
        unfunded,
        unfunded_as_of,
        unfunded_key,
        held,
        nav_as_of,
        nav_key if held is not None else None,
        on,
        held_nav,
        activity,
    )


def irr_as_of(valued: Figures, flows: Iterable[tuple[date, Decimal]]) -> Decimal | None:
    """The IRR of figures valued by `value_as_of`: the net `flows` (`FiguresBuilder.flows`) up to
    their date, the adjusted NAV the terminal value at that date; None when not valued."""
    if valued.as_of is None or valued.adjusted_nav is None:
        return None
    return irr(flows, valued.adjusted_nav.amount, valued.as_of)


def _take_out(settled: Decimal, pending: Decimal, later: Decimal) -> tuple[Decimal, Decimal]:
    """(settled, pending) with `later` taken off pending first, then settled."""
    from_pending = min(pending, later) if later > 0 else Decimal(0)
    return settled - (later - from_pending), pending - from_pending
