"""Computed unfunded and the reconciliation flags: pure rules over figures and entries.

Rules (the README's "Reconciliation" section repeats them):

- Computed unfunded = commitment - contributions + add-backs, per position and currency
  (`computed_unfunded`). Contributions are the position's calls, settled and pending (a called
  amount is no longer uncalled; Cancelled never counts). Add-backs: the fee and expense parts of
  calls made outside the commitment, and recallable distributions
  (`fundportal.domain.statement_kinds`). None without a commitment in that currency. The GP-reported
  unfunded (the latest Unfunded commitment entry, `Figures.unfunded`) is shown beside it.
- Reported vs computed unfunded: flagged when a position reports an unfunded commitment that
  differs from the computed one (difference = reported - computed).
- Contributions above commitment: flagged when called - add-backs > commitment (difference =
  called - add-backs - commitment).
- A document's capital activity vs the sum of its positions' counted capital calls in the
  activity's currency: flagged when they differ (difference = calls - activity). Nothing to
  compare without a capital activity.
- NAV roll-forward, per position and currency, between two consecutive NAV entries (by as-of
  date): previous NAV + calls - distributions + the allocations' NAV change
  (`statement_kinds.nav_change`: - net fees - expenses + gains - accrued carry) whose flow date
  falls after the previous NAV's date and on or before the new one's, against the new NAV; the
  difference (new - rolled forward) is the gain or loss not recorded as an allocation.
  Informational: a valuation change is not an error.
- Entry vs its holder: a counted entry whose fund or currency disagrees with the position
  register (or, on a document, with the document) that holds it.

Every amount is `Money` of one currency: nothing here adds two currencies. A flag carries data
only; its sentence is chosen at the edge (`fundportal.messages.explain_flag`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum
from itertools import pairwise
from typing import Protocol

from moneyed import Money

from .entries import EntryLike, aware, counts
from .figures import Figures
from .kinds import Kind
from .money import checked_amount, known_money, money
from .statement_kinds import activity_of, nav_change


class FlagKind(StrEnum):
    UNFUNDED_DIFFERS = "unfunded_differs"
    ABOVE_COMMITMENT = "above_commitment"
    ACTIVITY_VS_CALLS = "activity_vs_calls"
    NAV_ROLL_FORWARD = "nav_roll_forward"
    FUND_MISMATCH = "fund_mismatch"
    CURRENCY_MISMATCH = "currency_mismatch"


# Kinds that describe, not accuse: listed, but not counted as flagged unless asked.
INFORMATIONAL = frozenset({FlagKind.NAV_ROLL_FORWARD})


@dataclass(frozen=True, slots=True)
class Flag:
    """One reconciliation finding. `expected`/`actual` are amounts, or ids/codes for a mismatch;
    `difference` is actual - expected for amounts; `holder` names what a mismatched entry was
    compared with ("register" or "document")."""

    kind: FlagKind
    position_id: str = ""
    document_id: str = ""
    expected: Money | str | None = None
    actual: Money | str | None = None
    difference: Money | None = None
    since: date | None = None  # roll-forward: the previous NAV's date
    on: date | None = None  # the date of the figure compared (new NAV, reported unfunded)
    holder: str = ""

    @property
    def informational(self) -> bool:
        return self.kind in INFORMATIONAL

    @property
    def subject(self) -> tuple[str, ...]:
        """The ids it is about, document first."""
        document_id, position_id = self.document_id, self.position_id
        if document_id:
            return (document_id, position_id) if position_id else (document_id,)
        return (position_id,) if position_id else ()


class HeldEntry(EntryLike, Protocol):
    """What the rules read from a position entry (`fundportal.domain.position_entries.PositionEntry`): what
    the figures read, and whose it is."""

    @property
    def position_id(self) -> str: ...
    @property
    def fund_id(self) -> str: ...


def _minus(a: Money, b: Money) -> Money:
    """a - b of one currency (TypeError across currencies), without py-moneyed's slower operator
    (a fund page computes it for every position)."""
    code = a.currency.code
    if b.currency.code != code:
        raise TypeError(f"{a.currency.code} - {b.currency.code}")
    return known_money(a.amount - b.amount, code)


def computed_unfunded(commitment: Money | None, figures: Figures) -> Money | None:
    """Unfunded = commitment - contributions (called, settled + pending) + add-backs (call parts
    outside the commitment, recallable distributed) in the figures' currency; None without a
    commitment of that currency. May be negative (called above commitment)."""
    if commitment is None or commitment.currency.code != figures.currency:
        return None
    unfunded = _minus(commitment, figures.called)
    if figures.activity is not None and (add_back := figures.activity.unfunded_add_back):
        return known_money(unfunded.amount + add_back, unfunded.currency.code)
    return unfunded


def total_unfunded(values: Iterable[Money | None], currency: str) -> Money | None:
    """The positions' (computed or reported) unfunded of `currency` summed: a fund's or an
    investor's total; None when no position has one. Another currency is a TypeError, never added."""
    total, seen = Decimal(0), False
    for value in values:
        if value is None:
            continue
        if value.currency.code != currency:
            raise TypeError(f"unfunded of {value.currency.code} in a total of {currency}")
        total += value.amount
        seen = True
    return known_money(total, currency) if seen else None


def unfunded_differs(computed: Money | None, reported: Money | None) -> bool:
    """The reported unfunded disagrees with the computed one (both known, amounts differ)."""
    if computed is None or reported is None:
        return False
    # `computed != reported` without py-moneyed's operator (a fund page asks twice a line):
    # currencies are its registry's singletons, so identity settles almost every call.
    if computed.currency is not reported.currency and computed.currency != reported.currency:
        return True
    return computed.amount != reported.amount


def unfunded_difference(computed: Money | None, reported: Money | None) -> Money | None:
    """reported - computed, when both are known."""
    return _minus(reported, computed) if computed is not None and reported is not None else None


def unfunded_flags(
    position_id: str, commitment: Money | None, figures: Figures, *, computed: Money | None = None
) -> list[Flag]:
    """Reported vs computed unfunded, and contributions above commitment, for one currency
    (`computed`: `computed_unfunded(commitment, figures)` when the caller has it already)."""
    if computed is None:
        computed = computed_unfunded(commitment, figures)
    if computed is None or commitment is None:
        return []
    flags = []
    reported = figures.unfunded
    if unfunded_differs(computed, reported):
        assert reported is not None  # differs only when both are known
        flags.append(
            Flag(
                FlagKind.UNFUNDED_DIFFERS,
                position_id=position_id,
                expected=computed,
                actual=reported,
                difference=_minus(reported, computed),
                on=figures.unfunded_as_of,
            )
        )
    # Against the commitment count the calls less the add-backs (parts called outside it,
    # recallable capital): the same as computed unfunded below zero.
    against = figures.called
    if figures.activity is not None and (add_back := figures.activity.unfunded_add_back):
        against = known_money(against.amount - add_back, against.currency.code)
    if against.amount > commitment.amount:
        flags.append(
            Flag(
                FlagKind.ABOVE_COMMITMENT,
                position_id=position_id,
                expected=commitment,
                actual=against,
                difference=_minus(against, commitment),
            )
        )
    return flags


def register_currency_flags(position_id: str, currency: str, figures: Sequence[Figures]) -> list[Flag]:
    """Figures in a currency other than the register's: entries that disagree with it (seen from
    the register alone, without the entries)."""
    return [
        Flag(
            FlagKind.CURRENCY_MISMATCH, position_id=position_id, expected=currency, actual=f.currency, holder="register"
        )
        for f in figures
        if f.currency != currency and (f.called.amount or f.distributed.amount or f.unfunded or f.nav)
    ]


def unnamed(register_flags: Iterable[Flag], held: Iterable[Flag]) -> list[Flag]:
    """`register_flags` less the currency flags an entry's flag in `held` already names (the
    entry's says the same, with its document)."""
    named = {f.actual for f in held if f.kind is FlagKind.CURRENCY_MISMATCH}
    return [f for f in register_flags if not (f.kind is FlagKind.CURRENCY_MISMATCH and f.actual in named)]


def entry_flags(entries: Iterable[HeldEntry], fund_id: str, currency: str, *, holder: str) -> list[Flag]:
    """Counted entries whose fund or currency disagrees with their holder's (`holder`: "register"
    or "document"); an empty `fund_id` is not compared."""
    flags = []
    for entry in entries:
        if not counts(entry.status):
            continue
        if fund_id and entry.fund_id != fund_id:
            flags.append(_mismatch(FlagKind.FUND_MISMATCH, entry, fund_id, entry.fund_id, holder))
        if entry.currency != currency:
            flags.append(_mismatch(FlagKind.CURRENCY_MISMATCH, entry, currency, entry.currency, holder))
    return flags


def _mismatch(kind: FlagKind, entry: HeldEntry, expected: str, actual: str, holder: str) -> Flag:
    return Flag(
        kind,
        position_id=entry.position_id,
        document_id=entry.document_id,
        expected=expected,
        actual=actual,
        holder=holder,
    )


def document_calls(entries: Iterable[HeldEntry], currency: str) -> Money:
    """The sum of a document's counted capital calls in `currency` (what its activity should be)."""
    # Each amount checked (`checked_amount`), the Decimals added and made Money once.
    call = Kind.CAPITAL_CALL  # looked up once (a descriptor call on Python 3.11), not per entry
    total = sum(
        (
            checked_amount(entry.amount)
            for entry in entries
            if entry.kind is call and counts(entry.status) and entry.currency == currency
        ),
        Decimal(0),
    )
    return money(total, currency)


def activity_flags(
    document_id: str, activity: Money | None, entries: Iterable[HeldEntry], *, calls: Money | None = None
) -> list[Flag]:
    """A document's capital activity vs the sum of its counted capital calls in its currency
    (`calls`: that sum when the caller has it already, `document_calls(entries, ...)`)."""
    if activity is None:
        return []
    if calls is None:
        calls = document_calls(entries, activity.currency.code)
    if calls == activity:
        return []
    return [
        Flag(
            FlagKind.ACTIVITY_VS_CALLS,
            document_id=document_id,
            expected=activity,
            actual=calls,
            difference=calls - activity,
        )
    ]


def nav_roll_forward(position_id: str, entries: Iterable[HeldEntry]) -> list[Flag]:
    """Per currency, each pair of consecutive NAV entries: previous NAV + calls - distributions +
    the allocations' NAV change with a flow date in (previous date, new date] against the new NAV; the difference is the
    implied gain (positive) or loss. NAV entries without an as-of date are not compared."""
    by_currency: dict[str, list[HeldEntry]] = {}
    for entry in entries:
        if counts(entry.status):
            by_currency.setdefault(entry.currency, []).append(entry)
    flags = []
    for code in sorted(by_currency):
        held = by_currency[code]
        navs = sorted(
            (e for e in held if e.kind is Kind.NAV and e.as_of_date is not None),
            key=lambda e: (e.as_of_date, aware(e.updated_at), e.document_id),
        )
        for previous, new in pairwise(navs):
            start, end = previous.as_of_date, new.as_of_date
            assert start is not None and end is not None  # filtered above
            if start == end:
                continue
            rolled = money(previous.amount, code)
            for entry in held:
                on = entry.flow_date
                if on is None or not start < on <= end:
                    continue
                if entry.kind is Kind.CAPITAL_CALL:
                    rolled = rolled + money(entry.amount, code)
                elif entry.kind is Kind.DISTRIBUTION:
                    rolled = rolled - money(entry.amount, code)
                elif (vector := activity_of(entry)) is not None:
                    rolled = rolled + money(nav_change(vector), code)
            actual = money(new.amount, code)
            flags.append(
                Flag(
                    FlagKind.NAV_ROLL_FORWARD,
                    position_id=position_id,
                    document_id=new.document_id,
                    expected=rolled,
                    actual=actual,
                    difference=actual - rolled,
                    since=start,
                    on=end,
                )
            )
    return flags


def flagged(flags: Iterable[Flag], *, informational: bool = False) -> list[Flag]:
    """The flags that count as findings (informational ones only when asked)."""
    return [f for f in flags if informational or not f.informational]
