"""A position's and a group's lines as view models: a `PositionLine` per position and currency
(its commitment, figures, returns and their text as shown), a `TotalLine` per currency of a
group (fund, investor), and what awaits approval. Built from position registers by
`position_lines` / `totals`, from a fund's summary by `summary_totals`; no request is made here
(the selectors read the registers: `funds.selectors`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import NamedTuple

from moneyed import Money

from fundportal.domain.figures import Figures, sum_figures
from fundportal.domain.money import format_money, format_percent, format_ratio, zero
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.ratios import percent_called
from fundportal.domain.reconciliation import computed_unfunded, total_unfunded, unfunded_differs
from fundportal.domain.returns import as_percent
from fundportal.domain.summary import SummaryTotals
from fundportal.domain.valuation import irr_as_of
from fundportal.web.links import PositionLinks


class LineText(NamedTuple):
    """A line's figures as shown (formatted once here: a fund page has a thousand lines). A named
    tuple: the rows template unpacks it in one statement instead of looking up thirteen fields."""

    commitment: str
    called: str
    called_pending: str  # "" when nothing is pending
    percent_called: str
    unfunded: str
    unfunded_computed: str  # commitment - called (fundportal.domain.reconciliation)
    unfunded_flag: str  # "flagged" when the reported unfunded differs from the computed one
    distributed: str
    distributed_pending: str
    nav: str
    nav_as_of: str
    adjusted_nav: str  # "" unless calls or distributions since the NAV date roll it forward
    dpi: str
    rvpi: str
    tvpi: str
    irr: str


def _pending_text(pending: Money, whole: Money, whole_text: str) -> str:
    """The pending part of a sum as shown: "" when nothing is pending, the whole sum's text when it
    is all of it (one currency: `Figures`)."""
    if not pending.amount:
        return ""
    return whole_text if pending.amount == whole.amount else format_money(pending)


def line_text(
    commitment: Money | None,
    figures: Figures,
    called: Decimal | None,
    irr_value: Decimal | None,
    computed: Money | None,
) -> LineText:
    """`computed`: the line's `computed_unfunded(commitment, figures)`. A figure equal to one
    already formatted (a pending sum that is the whole sum, a reported unfunded that agrees with
    the computed one) takes that one's text: the same amount in the same currency reads the same."""
    called_money, distributed_money, unfunded = figures.called, figures.distributed, figures.unfunded
    nav, adjusted = figures.nav, figures.adjusted_nav  # the same Money when nothing rolled the NAV forward
    called_text, distributed_text, computed_text = (
        format_money(called_money),
        format_money(distributed_money),
        format_money(computed),
    )
    pending_called_text = _pending_text(figures.called_pending, called_money, called_text)
    pending_distributed_text = _pending_text(figures.distributed_pending, distributed_money, distributed_text)
    flagged = unfunded_differs(computed, unfunded)
    # Both known and not differing: one amount in one currency (`unfunded_differs`).
    unfunded_text = (
        computed_text if not flagged and computed is not None and unfunded is not None else format_money(unfunded)
    )
    # Positional, in `LineText`'s order (a hundred lines a page).
    return LineText(
        format_money(commitment),  # commitment
        called_text,  # called
        pending_called_text,  # called_pending
        format_percent(called),  # percent_called
        unfunded_text,  # unfunded
        computed_text,  # unfunded_computed
        "flagged" if flagged else "",  # unfunded_flag
        distributed_text,  # distributed
        pending_distributed_text,  # distributed_pending
        format_money(nav),  # nav
        figures.nav_as_of.isoformat() if figures.nav_as_of else "",  # nav_as_of
        format_money(adjusted) if adjusted is not nav and adjusted != nav else "",  # adjusted_nav
        format_ratio(figures.dpi),  # dpi
        format_ratio(figures.rvpi),  # rvpi
        format_ratio(figures.tvpi),  # tvpi
        format_percent(irr_value),  # irr
    )


# A fund page builds a PositionLine per position (a thousand of them): slotted, not frozen, as
# documents.selectors' row view models are (faster to build).
@dataclass(slots=True)
class PositionLine(PositionLinks):
    """One position in one currency: commitment, the figures and the returns."""

    position_id: str
    fund_id: str
    investor_id: str
    currency: str
    commitment: Money | None
    figures: Figures
    percent_called: Decimal | None
    irr_percent: Decimal | None
    unfunded_computed: Money | None  # commitment - called (`computed_unfunded`), once per line
    register_currency: str = ""  # the position register's currency (reconciliation)
    # The amounts of documents not approved yet, apart from the figures ("" when none).
    awaiting: str = ""
    irr: Decimal | None = None  # the IRR as a fraction (irr_percent is it rounded for the page)
    # The figures as shown (`text()`); None until a page asks: the API never shows them as text.
    shown: LineText | None = None

    def text(self) -> LineText:
        """The line's figures as shown (`line_text`), formatted on the first call and kept."""
        shown = self.shown
        if shown is None:
            shown = self.shown = line_text(
                self.commitment, self.figures, self.percent_called, self.irr_percent, self.unfunded_computed
            )
        return shown


# A line as its table row shows it: (position id, fund id, investor id, currency, what awaits
# approval, then the `LineText` fields in their order). A plain tuple, so the rows macro unpacks
# it in its `for` statement (no lookup on the line, no undefined-value checks per cell).
ShownRow = tuple[str, ...]


def shown_rows(lines: Iterable[PositionLine]) -> list[ShownRow]:
    """The lines' rows as shown (`ShownRow`), their figures formatted once (`PositionLine.text`)."""
    return [
        (line.position_id, line.fund_id, line.investor_id, line.currency, line.awaiting, *line.text()) for line in lines
    ]


@dataclass(frozen=True, slots=True)
class TotalLine:
    """A group's totals in one currency (fund, investor): sums of the positions' figures."""

    currency: str
    positions: int
    commitment: Money | None
    figures: Figures
    percent_called: Decimal | None
    irr_percent: Decimal | None
    unfunded_computed: Money | None = None  # the positions' commitment - called, summed
    irr: Decimal | None = None  # the pooled IRR as a fraction (irr_percent is it rounded)


def awaiting_text(figures: Figures) -> str:
    """What documents not approved yet hold, in one currency, as shown beside the figures."""
    parts = [
        f"{label} {format_money(value)}"
        for label, value in (("called", figures.called), ("distributed", figures.distributed))
        if value.amount
    ]
    if figures.nav is not None:
        parts.append(f"NAV {format_money(figures.nav)}")
    if figures.unfunded is not None:
        parts.append(f"unfunded {format_money(figures.unfunded)}")
    return ", ".join(parts)


def awaiting_by_currency(register: PositionRegister) -> dict[str, str]:
    """Per currency, the register's awaiting-approval amounts as shown (empty: nothing awaits)."""
    shown = {f.currency: awaiting_text(f) for f in register.awaiting_figures()}
    return {code: text for code, text in shown.items() if text}


def valued_line(
    position_id: str,
    fund_id: str,
    investor_id: str,
    figures: Figures,
    commitment: Money | None,
    rate: Decimal | None,
    *,
    register_currency: str,
    awaiting: str = "",
) -> PositionLine:
    """A position's line in one currency from its valued `figures`, its `commitment` (register's
    currency only, else None) and its IRR `rate` (a fraction, None: not computed): % called,
    the IRR as a percent and commitment - called (`computed_unfunded`) worked out once here."""
    # Positional, in `PositionLine`'s field order (a fund page builds a hundred a request).
    return PositionLine(
        position_id,
        fund_id,
        investor_id,
        figures.currency,
        commitment,
        figures,
        percent_called(figures.called, commitment),
        as_percent(rate),
        computed_unfunded(commitment, figures),
        register_currency,
        awaiting,
        rate,
    )


def position_lines(register: PositionRegister, as_of: date | None = None, *, irr: bool = True) -> list[PositionLine]:
    """The register's figures valued as of `as_of` (None: today), a line per currency; each line
    names what awaits approval in its currency (a currency only awaiting approval is named on the
    first line). `irr=False` for a slim copy (the fund page's: no full flow history, no IRR)."""
    held = register.figures(as_of)
    lines = []
    awaiting = awaiting_by_currency(register) if register.awaiting_documents else {}
    for figures in held:
        commitment = register.commitment_on(as_of) if figures.currency == register.currency else None
        rate = register.irr(figures.currency, as_of) if irr else None
        lines.append(
            valued_line(
                register.position_id,
                register.fund_id,
                register.investor_id,
                figures,
                commitment,
                rate,
                register_currency=register.currency,
                awaiting=awaiting.pop(figures.currency, ""),
            )
        )
    if awaiting and lines:
        lines[0].awaiting = "; ".join(filter(None, [lines[0].awaiting, *awaiting.values()]))
    return lines


def totals(registers: Iterable[PositionRegister], as_of: date | None = None) -> list[TotalLine]:
    """Per currency, valued as of `as_of` (None: today): the positions' figures summed
    (`sum_figures`), commitments summed, and the pooled IRR (every position's flows up to the
    date, the positions' adjusted NAVs summed as the terminal value at that date)."""
    registers = list(registers)
    on = as_of or date.today()
    # One pass: each currency's positions (those with figures in it) and their own figures there.
    held: dict[str, list[tuple[PositionRegister, Figures]]] = {}
    for register in registers:
        for own in register.figures(on):
            held.setdefault(own.currency, []).append((register, own))
    lines = []
    for figures in sum_figures(r.figures(on) for r in registers):
        code = figures.currency
        group = held[code]
        commitments = [
            held_commitment
            for r, _ in group
            if r.currency == code and (held_commitment := r.commitment_on(as_of)) is not None
        ]
        commitment = sum(commitments, zero(code)) if commitments else None
        computed = total_unfunded(
            (computed_unfunded(r.commitment_on(as_of) if r.currency == code else None, own) for r, own in group), code
        )
        flows: list[tuple[date, Decimal]] = []
        for register, _ in group:
            flows += register.flows(code)
        pooled = None
        # Every position valued (its adjusted NAV known): otherwise the residual is unknown.
        if all(own.adjusted_nav is not None for _, own in group):
            pooled = irr_as_of(figures, flows)
        lines.append(
            TotalLine(
                currency=code,
                positions=len(group),
                commitment=commitment,
                figures=figures,
                percent_called=percent_called(figures.called, commitment),
                irr_percent=as_percent(pooled),
                unfunded_computed=computed,
                irr=pooled,
            )
        )
    return lines


def summary_totals(summary: SummaryTotals) -> TotalLine:
    """A fund's totals from its summary, as a total line."""
    return TotalLine(
        currency=summary.currency,
        positions=summary.positions,
        commitment=summary.commitment,
        figures=summary.figures,
        percent_called=summary.percent_called,
        irr_percent=as_percent(summary.irr),
        unfunded_computed=summary.unfunded_computed,
        irr=summary.irr,
    )
