"""Server-side SVG chart of cumulative called vs distributed capital (no JavaScript).

Amounts stay Decimal; only pixel positions are computed from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

WIDTH, HEIGHT = 720, 280
LEFT, RIGHT, TOP, BOTTOM = 84, 24, 20, 56
SERIES = (("called", "Called (paid-in)", "#1f5fa8"), ("distributed", "Distributed", "#1e7a3c"))


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """Cumulative figures as of one date."""

    as_of: date
    called: Decimal
    distributed: Decimal


def _px(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


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


@register.simple_tag
def cumulative_chart(points: Sequence[ChartPoint], currency: str = "USD") -> SafeString:
    """An accessible step chart of cumulative called and distributed capital over time."""
    if not points:
        return mark_safe("")
    plot_w, plot_h = Decimal(WIDTH - LEFT - RIGHT), Decimal(HEIGHT - TOP - BOTTOM)
    top_value = _nice_max(max(max(p.called, p.distributed) for p in points))
    first, last = points[0].as_of.toordinal(), points[-1].as_of.toordinal()
    span = Decimal(max(last - first, 1))

    def x(day: date) -> Decimal:
        if last == first:
            return LEFT + plot_w / 2
        return LEFT + plot_w * (day.toordinal() - first) / span

    def y(amount: Decimal) -> Decimal:
        return TOP + plot_h - plot_h * amount / top_value

    grid = []
    for i in range(5):
        value = top_value * i / 4
        grid.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
                '<text x="{}" y="{}" text-anchor="end" class="tick">{}</text>',
                LEFT,
                WIDTH - RIGHT,
                _px(y(value)),
                _px(y(value)),
                LEFT - 8,
                _px(y(value) + 4),
                compact(value),
            )
        )
    ticks = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="3" fill="{}"/>',
        ((_px(x(p.as_of)), _px(y(getattr(p, name))), color) for p in points for name, _, color in SERIES),
    )
    labels = format_html_join(
        "",
        '<text x="{}" y="{}" text-anchor="middle" class="tick">{}</text>',
        ((_px(x(p.as_of)), HEIGHT - BOTTOM + 18, p.as_of.isoformat()) for p in _spread(points)),
    )
    lines = []
    for name, _label, color in SERIES:
        coords = []
        previous = None
        for p in points:
            if previous is not None:  # step: hold the previous total until the next document
                coords.append(f"{_px(x(p.as_of))},{_px(y(previous))}")
            previous = getattr(p, name)
            coords.append(f"{_px(x(p.as_of))},{_px(y(previous))}")
        lines.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5" data-series="{}"/>',
                " ".join(coords),
                color,
                name,
            )
        )
    legend = format_html_join(
        "",
        '<rect x="{}" y="{}" width="12" height="12" fill="{}"/><text x="{}" y="{}" class="legend">{}</text>',
        (
            (LEFT + i * 170, HEIGHT - 22, color, LEFT + i * 170 + 18, HEIGHT - 12, label)
            for i, (_, label, color) in enumerate(SERIES)
        ),
    )
    final = points[-1]
    description = (
        f"From {points[0].as_of.isoformat()} to {final.as_of.isoformat()}: cumulative called "
        f"{currency} {final.called:,.2f}, cumulative distributed {currency} {final.distributed:,.2f}."
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-labelledby="chart-title chart-desc" '
        'xmlns="http://www.w3.org/2000/svg">'
        '<title id="chart-title">Cumulative called vs distributed capital ({})</title>'
        '<desc id="chart-desc">{}</desc>{}'
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="axis"/>{}{}{}{}</svg>',
        WIDTH,
        HEIGHT,
        currency,
        description,
        mark_safe("".join(grid)),  # noqa: S308 - built with format_html above
        LEFT,
        WIDTH - RIGHT,
        HEIGHT - BOTTOM,
        HEIGHT - BOTTOM,
        mark_safe("".join(lines)),  # noqa: S308 - built with format_html above
        ticks,
        labels,
        legend,
    )


def _spread(points: Sequence[ChartPoint], most: int = 8) -> list[ChartPoint]:
    """At most `most` evenly spread points to label on the time axis."""
    if len(points) <= most:
        return list(points)
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]
