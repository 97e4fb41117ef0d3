"""The ILPA capital account statement of a position for a period, per currency, with its QTD,
YTD and ITD columns (`fundportal.domain.periods`). Pure: it reads a position's entries as values.

The rules, written once here:

- What counts: Cancelled never; Pending counts (as in every figure, `entries.counts`). An entry
  falls in a column by its flow date (due date, else its document's as-of date), both bounds
  inclusive; an entry without any date is before every dated one (in ITD only).
- Activity lines are signed by what they do to the capital account (`nav_change`, the one
  roll-forward rule): contributions add; distributions, net management fees, partnership
  expenses and accrued carried interest take off; realized and unrealized gains add (a loss is
  negative). Detail lines (investment / fee / expense parts of contributions; return of capital /
  gain / income and the recallable part of distributions; gross fees, offsets and waivers; carry
  paid) are shown under their line and never added again.
- NAV at a day: the latest counted NAV entry dated on or before it (by the "latest" rule,
  `entries.rank`), rolled forward by `nav_change` of every counted entry whose flow date is
  after that NAV's date and on or before the day; with no NAV by then, the capital account rolled
  forward from zero at inception. So the ending NAV is the reported NAV when one is dated on the
  column's end, else the last one rolled forward.
- Beginning NAV of a column = the NAV at the day before its start (ITD: zero, at inception).
- It reconciles: beginning + activity = ending in every column. When it does not (a reported NAV
  inside the column that the activity does not explain) the difference, ending - (beginning +
  activity), is its own flagged line ("Unreconciled difference").
- As of the period's end D: the commitment effective at D (`commitments.commitment_as_of`),
  contributions to date, recallable distributions to date, unfunded (computed,
  `reconciliation.computed_unfunded`), DPI/RVPI/TVPI and IRR of the figures valued as of D
  (`time_travel.value_entries`: the same functions as every page).
- Money per currency: a position with entries in two currencies has two blocks; a group of
  positions (an investor across funds) adds blocks of one currency only (`combine`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from .commitments import CommitmentChange, commitment_as_of
from .entries import counts, rank
from .figures import Figures, sum_figures
from .figures_builder import FiguresBuilder
from .kinds import Kind
from .money import Money, money
from .periods import Column, Period
from .position_entries import PositionEntry
from .ratios import dpi, rvpi, tvpi
from .reconciliation import computed_unfunded
from .returns import as_percent
from .statement_kinds import activity_of
from .statement_kinds import nav_change as allocation_nav_change
from .time_travel import counts_by
from .valuation import irr_as_of, value_as_of

BALANCE, ACTIVITY, DETAIL, DIFFERENCE = "balance", "activity", "detail", "difference"

# (key, label, role): the statement's lines in order. Activity lines add up to the change of NAV.
LINES: tuple[tuple[str, str, str], ...] = (
    ("beginning_nav", "Beginning NAV", BALANCE),
    ("contributions", "Contributions", ACTIVITY),
    ("contributions_investment", "Investments", DETAIL),
    ("contributions_fees", "Management fees", DETAIL),
    ("contributions_expenses", "Partnership expenses", DETAIL),
    ("distributions", "Distributions", ACTIVITY),
    ("distributions_return_of_capital", "Return of capital", DETAIL),
    ("distributions_gain", "Gain", DETAIL),
    ("distributions_income", "Income", DETAIL),
    ("distributions_unsplit", "Not split", DETAIL),
    ("distributions_recallable", "of which recallable", DETAIL),
    ("management_fees", "Management fees (net)", ACTIVITY),
    ("fees_gross", "Gross", DETAIL),
    ("fees_offset", "Offsets", DETAIL),
    ("fees_waiver", "Waivers", DETAIL),
    ("partnership_expenses", "Partnership expenses", ACTIVITY),
    ("realized_gain", "Realized gain / (loss)", ACTIVITY),
    ("unrealized_gain", "Unrealized gain / (loss)", ACTIVITY),
    ("carried_interest", "Carried interest (accrued)", ACTIVITY),
    ("carry_paid", "Carried interest paid (memo)", DETAIL),
    ("ending_nav", "Ending NAV", BALANCE),
    ("difference", "Unreconciled difference", DIFFERENCE),
)
ACTIVITY_KEYS = tuple(key for key, _, role in LINES if role == ACTIVITY)
# Detail lines shown only when some column has an amount on them.
_OPTIONAL = frozenset(("distributions_unsplit", "fees_waiver", "carry_paid", "difference"))
_NAV_KINDS = frozenset((Kind.NAV, Kind.UNFUNDED_COMMITMENT))
_ZERO = Decimal(0)


def flow_day(entry: PositionEntry) -> date:
    """The day an entry counts on (undated: before every dated entry)."""
    return entry.flow_date or date.min


def statement_lines(entry: PositionEntry) -> dict[str, Decimal]:
    """What one counted entry puts on the statement's lines (activity and detail), signed by its
    effect on the capital account; the parts and allocations as `statement_kinds.activity_of`
    reads them."""
    amount = entry.amount
    kind = entry.kind
    vector = activity_of(entry)
    if kind is Kind.CAPITAL_CALL:
        fees, expenses = (vector[8], vector[9]) if vector else (_ZERO, _ZERO)
        return {
            "contributions": amount,
            "contributions_investment": amount - fees - expenses,
            "contributions_fees": fees,
            "contributions_expenses": expenses,
        }
    if kind is Kind.DISTRIBUTION:
        capital, gain, income, recallable = vector[11:15] if vector else (_ZERO,) * 4
        return {
            "distributions": -amount,
            "distributions_return_of_capital": -capital,
            "distributions_gain": -gain,
            "distributions_income": -income,
            "distributions_unsplit": -(amount - capital - gain - income),
            "distributions_recallable": -recallable,
        }
    if vector is None:
        return {}
    gross, offset, waiver, expenses, realized, unrealized, accrued, paid = vector[:8]
    if kind is Kind.MANAGEMENT_FEE:
        return {
            "management_fees": offset + waiver - gross,
            "fees_gross": -gross,
            "fees_offset": offset,
            "fees_waiver": waiver,
        }
    if kind is Kind.CARRIED_INTEREST:
        return {"carried_interest": -accrued, "carry_paid": -paid}
    return {"partnership_expenses": -expenses, "realized_gain": realized, "unrealized_gain": unrealized}


def nav_change(entry: PositionEntry) -> Decimal:
    """The one roll-forward rule (`statement_kinds.nav_change` for the allocations): what a
    counted entry does to the capital account. The statement's activity lines add up to it."""
    if entry.kind is Kind.CAPITAL_CALL:
        return entry.amount
    if entry.kind is Kind.DISTRIBUTION:
        return -entry.amount
    vector = activity_of(entry)
    return _ZERO if vector is None else allocation_nav_change(vector)


@dataclass(frozen=True, slots=True)
class Line:
    key: str
    label: str
    role: str
    amounts: tuple[Money, ...]  # one per column

    @property
    def flagged(self) -> bool:
        return self.role == DIFFERENCE and any(a.amount for a in self.amounts)


@dataclass(frozen=True, slots=True)
class CurrencyAccount:
    """One currency's capital account: its lines over the columns, and the figures as of the
    period's end."""

    currency: str
    columns: tuple[Column, ...]
    lines: tuple[Line, ...]
    figures: Figures  # valued as of the period's end
    commitment: Money | None
    recallable: Money  # recallable distributions to date
    unfunded: Money | None  # computed
    irr: Decimal | None
    flows: tuple[tuple[date, Decimal], ...] = ()  # IRR's net flows (a group's IRR pools them)

    def line(self, key: str) -> Line:
        return next(line for line in self.lines if line.key == key)

    @property
    def reconciles(self) -> bool:
        return not any(line.flagged for line in self.lines)

    @property
    def contributions_to_date(self) -> Money:
        return self.figures.called

    @property
    def irr_percent(self) -> Decimal | None:
        return as_percent(self.irr)

    @property
    def dpi(self) -> Decimal | None:
        return dpi(self.figures)

    @property
    def rvpi(self) -> Decimal | None:
        return rvpi(self.figures)

    @property
    def tvpi(self) -> Decimal | None:
        return tvpi(self.figures)


def nav_at(entries: Sequence[PositionEntry], on: date | None) -> Decimal:
    """The capital account at the end of `on` (None: inception, zero): see the module doc."""
    if on is None:
        return Decimal(0)
    navs = [e for e in entries if e.kind is Kind.NAV and (e.as_of_date or date.min) <= on]
    since, value = date.min, Decimal(0)
    if navs:
        latest = max(navs, key=rank)
        since, value = latest.as_of_date or date.min, latest.amount
        moved = (e for e in entries if e.kind not in _NAV_KINDS and since < flow_day(e) <= on)
    else:
        moved = (e for e in entries if e.kind not in _NAV_KINDS and flow_day(e) <= on)
    return value + sum((nav_change(e) for e in moved), Decimal(0))


def _column_lines(entries: Sequence[PositionEntry], column: Column) -> dict[str, Decimal]:
    sums: dict[str, Decimal] = {}
    for entry in entries:
        if entry.kind in _NAV_KINDS or not column.holds(flow_day(entry)):
            continue
        for key, amount in statement_lines(entry).items():
            sums[key] = sums.get(key, Decimal(0)) + amount
    beginning = nav_at(entries, column.day_before)
    ending = nav_at(entries, column.end)
    activity = sum((sums.get(key, Decimal(0)) for key in ACTIVITY_KEYS), Decimal(0))
    sums["beginning_nav"], sums["ending_nav"] = beginning, ending
    sums["difference"] = ending - (beginning + activity)
    return sums


def _lines(currency: str, columns: Sequence[dict[str, Decimal]]) -> tuple[Line, ...]:
    lines = []
    for key, label, role in LINES:
        amounts = tuple(money(c.get(key, Decimal(0)), currency) for c in columns)
        if key in _OPTIONAL and not any(a.amount for a in amounts):
            continue
        lines.append(Line(key, label, role, amounts))
    return tuple(lines)


def position_account(
    entries: Iterable[PositionEntry],
    period: Period,
    *,
    commitments: Sequence[CommitmentChange] = (),
    commitment_currency: str = "",
) -> list[CurrencyAccount]:
    """The statement of one position's entries (approved, as known) for `period`, a block per
    currency by code. `commitments` are the position's dated commitment changes, in
    `commitment_currency` (the register's)."""
    end = period.end
    columns = period.columns()
    by_currency: dict[str, list[PositionEntry]] = {}
    for entry in entries:
        if counts(entry.status) and (entry.as_of_date is None or entry.as_of_date <= end):
            by_currency.setdefault(entry.currency, []).append(entry)
    accounts = []
    for code in sorted(by_currency):
        held = by_currency[code]
        builder = FiguresBuilder(flows=True)
        for entry in held:
            if counts_by(entry, end):
                builder.add(entry)
        figures = value_as_of(builder.figures(code), builder.dated_flows(code), end, builder.dated_activity(code))
        committed = commitment_as_of(commitments, end) if code == commitment_currency else None
        commitment = None if committed is None else money(committed, code)
        recallable = money(_recallable(held, end), code)
        accounts.append(
            CurrencyAccount(
                currency=code,
                columns=columns,
                lines=_lines(code, [_column_lines(held, c) for c in columns]),
                figures=figures,
                commitment=commitment,
                recallable=recallable,
                unfunded=_unfunded(commitment, figures),
                irr=irr_as_of(figures, builder.flows(code)),
                flows=tuple(builder.flows(code)),
            )
        )
    return accounts


def _recallable(entries: Iterable[PositionEntry], end: date) -> Decimal:
    """The recallable part of the distributions up to `end` (a positive amount)."""
    total = Decimal(0)
    for entry in entries:
        if flow_day(entry) <= end:
            total -= statement_lines(entry).get("distributions_recallable", Decimal(0))
    return total


def _unfunded(commitment: Money | None, figures: Figures) -> Money | None:
    """Computed unfunded as of the period's end: the one rule of `reconciliation` (commitment -
    calls + call parts outside the commitment + recallable distributed)."""
    return computed_unfunded(commitment, figures)


def combine(blocks: Iterable[CurrencyAccount]) -> list[CurrencyAccount]:
    """Several positions' blocks (an investor across funds) added up per currency, never across
    currencies: lines column by column, the figures (`figures.sum_figures`), commitments,
    recallable and unfunded summed; the IRR pooled over every position's flows with their
    adjusted NAVs summed at the end (only when every position has one, as on the investor page)."""
    grouped: dict[str, list[CurrencyAccount]] = {}
    for block in blocks:
        grouped.setdefault(block.currency, []).append(block)
    combined = []
    for code in sorted(grouped):
        group = grouped[code]
        columns = group[0].columns
        sums: list[dict[str, Decimal]] = [{} for _ in columns]
        for block in group:
            for line in block.lines:
                for index, amount in enumerate(line.amounts):
                    sums[index][line.key] = sums[index].get(line.key, Decimal(0)) + amount.amount
        (figures,) = sum_figures([b.figures] for b in group)
        commitments = [b.commitment.amount for b in group if b.commitment is not None]
        unfundeds = [b.unfunded.amount for b in group if b.unfunded is not None]
        flows = sorted(flow for b in group for flow in b.flows)
        valued = all(b.figures.adjusted_nav is not None for b in group)
        combined.append(
            CurrencyAccount(
                currency=code,
                columns=columns,
                lines=_lines(code, sums),
                figures=figures,
                commitment=money(sum(commitments, Decimal(0)), code) if commitments else None,
                recallable=money(sum((b.recallable.amount for b in group), Decimal(0)), code),
                unfunded=money(sum(unfundeds, Decimal(0)), code) if unfundeds else None,
                irr=irr_as_of(figures, flows) if valued else None,
                flows=tuple(flows),
            )
        )
    return combined
