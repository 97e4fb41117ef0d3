"""Server-side SVG chart of cumulative called vs distributed capital, with the NAV beside them
(the J-curve: value against the cash put in and taken out), no JavaScript.

`build_chart` computes only data (a frozen view model); ``templates/jinja2/charts/cumulative.html``
renders the ``<svg>`` from it (pages include it with `chart=build_chart(...)`). Amounts stay
Decimal; only pixel positions are computed from them (quantized to 0.1). The drawing's parts
(grid lines, labels, series, dots, legend entries) are named tuples the template unpacks in its
loops. Their numbers (pixel positions as plain text, axis labels, ISO dates) hold no character
HTML escapes: the template outputs them through `|figure`, and its texts and colours through
`|escaped` (`fundportal/perf/unescaped_figures.py`, `escape_memo.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

WIDTH, HEIGHT = 720, 280
LEFT, RIGHT, TOP, BOTTOM = 84, 24, 20, 56
SERIES = (("called", "Called (paid-in)", "#1f5fa8"), ("distributed", "Distributed", "#1e7a3c"))
NAV_SERIES = ("nav", "NAV", "#8a5a00")
# A date label ("2025-09-30" at 12px) is about 66 px wide: label centres at least this far apart
# never overlap, on the page or drawn smaller on a phone (the text scales with the drawing).
LABEL_WIDTH = 66
LABEL_GAP = 80
TENTH = Decimal("0.1")  # pixel positions are quantized to this


class ChartPoint(NamedTuple):
    """Cumulative figures as of one date."""

    as_of: date
    called: Decimal
    distributed: Decimal
    nav: Decimal | None = None  # the NAV reported at this date (None: none reported then)


class GridLine(NamedTuple):
    """A horizontal grid line at `y` with its amount label (drawn at `label_y`)."""

    y: str
    label_y: str
    label: str


class AxisLabel(NamedTuple):
    """A date label on the time axis."""

    x: str
    text: str
    anchor: str = "middle"  # "end" at the right edge, "start" at the left: never cut off


class Series(NamedTuple):
    """One polyline: `points` is the SVG points list ("x,y x,y ...")."""

    name: str
    label: str
    color: str
    points: str


class Dot(NamedTuple):
    """A marker at one data point of one series."""

    x: str
    y: str
    color: str


class LegendEntry(NamedTuple):
    """A colour swatch at `x` and its label at `text_x`."""

    x: int
    text_x: int
    label: str
    color: str


@dataclass(frozen=True, slots=True)
class CumulativeChart:
    """Everything the chart template needs; numbers are pixel positions, text is plain text."""

    chart_id: str
    width: int
    height: int
    plot_left: int
    plot_right: int
    axis_y: int
    tick_x: int
    date_label_y: int
    legend_y: int
    legend_text_y: int
    title: str
    description: str
    grid: tuple[GridLine, ...]
    x_labels: tuple[AxisLabel, ...]
    series: tuple[Series, ...]
    dots: tuple[Dot, ...]
    legend: tuple[LegendEntry, ...]


def _px(value: Decimal | int) -> str:
    return str(Decimal(value).quantize(TENTH, rounding=ROUND_HALF_UP))


def compact(amount: Decimal) -> str:
    """Axis label: 1250000 → '1.25M', 75000 → '75K'."""
    for size, suffix in ((Decimal(10) ** 9, "B"), (Decimal(10) ** 6, "M"), (Decimal(10) ** 3, "K")):
        if abs(amount) >= size:
            return f"{(amount / size).quantize(Decimal('0.01')).normalize():f}{suffix}"
    return f"{amount.normalize():f}"


def _nice_max(value: Decimal) -> Decimal:
    """A round axis maximum at or above `value` (1, 2, 2.5, 5 x 10^n)."""
    if value <= 0:
        return Decimal(1)
    magnitude = Decimal(10) ** (len(str(int(value))) - 1)
    for step in (1, 2, Decimal("2.5"), 5, 10):
        if value <= magnitude * step:
            return magnitude * step
    return magnitude * 10


def thin_labels(xs: Sequence[tuple[Decimal, date]], gap: int = LABEL_GAP) -> list[tuple[Decimal, date]]:
    """The dates to label, each once, no two centres closer than `gap` px: the first always, then
    each next date far enough from the last kept; the last date always (dropping the kept ones
    too close before it). `xs`: (x, date) in date order."""
    kept: list[tuple[Decimal, date]] = []
    for x, day in xs:
        if kept and kept[-1][1] == day:
            continue
        if not kept or x - kept[-1][0] >= gap:
            kept.append((x, day))
    if xs and kept[-1][1] != xs[-1][1]:
        last = xs[-1]
        while len(kept) > 1 and last[0] - kept[-1][0] < gap:
            kept.pop()
        kept.append(last)
    return kept


def _by_date(points: Sequence[ChartPoint]) -> list[ChartPoint]:
    """One point per date (documents of one date drawn once): the cumulative figures after the
    last of them, the NAV the last reported that day."""
    merged: dict[date, ChartPoint] = {}
    for p in points:
        before = merged.get(p.as_of)
        nav = p.nav if p.nav is not None else (before.nav if before else None)
        merged[p.as_of] = ChartPoint(p.as_of, p.called, p.distributed, nav)
    return list(merged.values())


def _anchor(at: Decimal) -> str:
    """Where a date label hangs from its tick: centred, unless that would cut it off an edge."""
    if at + LABEL_WIDTH // 2 > WIDTH:
        return "end"
    if at - LABEL_WIDTH // 2 < 0:
        return "start"
    return "middle"


def build_chart(points: Sequence[ChartPoint], currency: str = "USD", chart_id: str = "chart") -> CumulativeChart | None:
    """The view model of the step chart of `points`, or None when there is nothing to draw."""
    if not points:
        return None
    points = _by_date(points)
    navs = [p for p in points if p.nav is not None]
    plot_w, plot_h = Decimal(WIDTH - LEFT - RIGHT), Decimal(HEIGHT - TOP - BOTTOM)
    top_value = _nice_max(max(max(p.called, p.distributed, p.nav or Decimal(0)) for p in points))
    first, last = points[0].as_of.toordinal(), points[-1].as_of.toordinal()
    span = Decimal(max(last - first, 1))

    def x(day: date) -> Decimal:
        if last == first:
            return LEFT + plot_w / 2
        return LEFT + plot_w * (day.toordinal() - first) / span

    def y(amount: Decimal) -> Decimal:
        return TOP + plot_h - plot_h * amount / top_value

    # Each date's x and each amount's y are drawn several times (steps, dots, labels): once each.
    xs = {p.as_of: _px(x(p.as_of)) for p in points}
    ys: dict[Decimal, str] = {}

    def y_px(amount: Decimal) -> str:
        text = ys.get(amount)
        if text is None:
            text = ys[amount] = _px(y(amount))
        return text

    grid = tuple(
        GridLine(y=_px(y(value)), label_y=_px(y(value) + 4), label=compact(value))
        for value in (top_value * i / 4 for i in range(5))
    )
    series = []
    for name, label, color in SERIES:
        coords: list[tuple[str, str]] = []
        previous = None
        for p in points:
            if previous is not None:  # step: hold the previous total until the next document
                coords.append((xs[p.as_of], y_px(previous)))
            previous = getattr(p, name)
            coords.append((xs[p.as_of], y_px(previous)))
        series.append(Series(name=name, label=label, color=color, points=" ".join(",".join(c) for c in coords)))
    dots = [Dot(x=xs[p.as_of], y=y_px(getattr(p, name)), color=color) for p in points for name, _, color in SERIES]
    drawn: tuple[tuple[str, str, str], ...] = SERIES
    if navs:  # a valuation line from NAV to NAV (not a step: value moves between reports)
        name, label, color = NAV_SERIES
        nav_points = " ".join(f"{xs[p.as_of]},{y_px(p.nav)}" for p in navs if p.nav is not None)
        series.append(Series(name=name, label=label, color=color, points=nav_points))
        dots += [Dot(x=xs[p.as_of], y=y_px(p.nav), color=color) for p in navs if p.nav is not None]
        drawn = (*SERIES, NAV_SERIES)
    x_labels = tuple(
        AxisLabel(x=_px(at), text=day.isoformat(), anchor=_anchor(at))
        for at, day in thin_labels([(x(p.as_of), p.as_of) for p in points])
    )
    legend = tuple(
        LegendEntry(x=LEFT + i * 170, text_x=LEFT + i * 170 + 18, label=label, color=color)
        for i, (_, label, color) in enumerate(drawn)
    )
    final = points[-1]
    description = (
        f"From {points[0].as_of.isoformat()} to {final.as_of.isoformat()}: cumulative called "
        f"{currency} {final.called:,.2f}, cumulative distributed {currency} {final.distributed:,.2f}."
    )
    if navs and navs[-1].nav is not None:
        description += f" NAV {currency} {navs[-1].nav:,.2f} at {navs[-1].as_of.isoformat()}."
    return CumulativeChart(
        chart_id=str(chart_id),
        width=WIDTH,
        height=HEIGHT,
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        axis_y=HEIGHT - BOTTOM,
        tick_x=LEFT - 8,
        date_label_y=HEIGHT - BOTTOM + 18,
        legend_y=HEIGHT - 22,
        legend_text_y=HEIGHT - 12,
        title=f"Cumulative called vs distributed capital ({currency})",
        description=description,
        grid=grid,
        x_labels=x_labels,
        series=tuple(series),
        dots=tuple(dots),
        legend=legend,
    )
