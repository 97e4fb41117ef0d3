"""The cumulative chart: data computed in Python (fundportal/charts.py), the <svg> rendered by its
Jinja2 template as the position page includes it."""

from __future__ import annotations

import itertools
import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.template import engines

from fundportal.charts import LABEL_GAP, LABEL_WIDTH, ChartPoint, build_chart, compact

TWO_POINTS = [
    ChartPoint(date(2025, 9, 30), Decimal(500000), Decimal(75000)),
    ChartPoint(date(2025, 12, 31), Decimal(1250000), Decimal(195000)),
]


def render(arguments: str, **context) -> str:
    """The chart of `build_chart(<arguments>)` as a page includes it."""
    source = f'{{% with chart = build_chart({arguments}) %}}{{% include "charts/cumulative.html" %}}{{% endwith %}}'
    return engines["jinja2"].from_string(source).render(context)


def test_two_points_render_an_accessible_svg_with_both_series():
    svg = render("points, 'USD'", points=TWO_POINTS)
    assert svg.startswith('<svg class="chart" viewBox="0 0 720 280" preserveAspectRatio="xMidYMid meet" role="img"')
    assert svg.endswith("</svg>")
    assert 'aria-labelledby="chart-title chart-desc"' in svg
    assert '<title id="chart-title">Cumulative called vs distributed capital (USD)</title>' in svg
    assert (
        '<desc id="chart-desc">From 2025-09-30 to 2025-12-31: cumulative called USD 1,250,000.00, '
        "cumulative distributed USD 195,000.00.</desc>"
    ) in svg
    assert re.findall(r'<polyline [^>]*data-series="(\w+)"', svg) == ["called", "distributed"]
    # Step line: hold the previous total until the next date (axis 0..2M over y 224..20).
    assert '<polyline points="84.0,173.0 696.0,173.0 696.0,96.5" ' in svg
    assert '<polyline points="84.0,216.4 696.0,216.4 696.0,204.1" ' in svg
    assert svg.count('class="grid"') == 5 and svg.count('class="axis"') == 1
    assert [t for t in re.findall(r'class="tick">([^<]*)<', svg) if "-" not in t] == ["0", "500K", "1M", "1.5M", "2M"]
    assert svg.count("<circle ") == 4
    assert re.findall(r'class="legend">([^<]*)<', svg) == ["Called (paid-in)", "Distributed"]
    assert "2025-09-30</text>" in svg and "2025-12-31</text>" in svg


def test_chart_id_makes_ids_unique_per_chart():
    svg = render("points, 'JPY', 'chart-jpy'", points=TWO_POINTS)
    assert 'aria-labelledby="chart-jpy-title chart-jpy-desc"' in svg
    assert '<title id="chart-jpy-title">' in svg and '<desc id="chart-jpy-desc">' in svg
    assert "chart-title" not in svg
    assert "cumulative called JPY 1,250,000.00" in svg


def test_currency_and_chart_id_are_escaped():
    svg = render("points, currency, chart_id", points=TWO_POINTS, currency="<b>", chart_id='x"<y')
    assert "<b>" not in svg and 'x"<y' not in svg
    assert "capital (&lt;b&gt;)</title>" in svg
    assert "cumulative called &lt;b&gt; 1,250,000.00" in svg
    assert 'id="x&#34;&lt;y-title"' in svg  # Jinja2 (markupsafe) writes " as &#34;


@pytest.mark.parametrize("points", [[], ()])
def test_no_points_render_nothing(points):
    assert render("points, 'USD'", points=points) == ""
    assert build_chart(points) is None


def date_labels(svg: str) -> list[tuple[float, str]]:
    return [(float(x), text) for x, text in re.findall(r'<text x="([\d.]+)"[^>]*class="tick date-label">([^<]*)<', svg)]


def test_many_points_have_date_labels_far_enough_apart_never_to_overlap():
    points = [
        ChartPoint(date(2024, 1, 1) + timedelta(days=30 * i), Decimal(1000 * i), Decimal(100 * i)) for i in range(20)
    ]
    svg = render("points, 'USD'", points=points)
    labels = date_labels(svg)
    assert labels[0][1] == "2024-01-01" and labels[-1][1] == points[-1].as_of.isoformat()
    assert all(b[0] - a[0] >= LABEL_GAP > LABEL_WIDTH for a, b in itertools.pairwise(labels))
    assert 'text-anchor="end" class="tick date-label">' + points[-1].as_of.isoformat() in svg  # not cut off
    assert svg.count("<circle ") == 40


def test_documents_of_one_date_are_drawn_once_with_the_figures_after_the_last():
    points = [
        ChartPoint(date(2025, 3, 31), Decimal(100), Decimal(0)),
        ChartPoint(date(2025, 3, 31), Decimal(300), Decimal(50)),
        ChartPoint(date(2025, 3, 31), Decimal(300), Decimal(80)),
        ChartPoint(date(2025, 6, 30), Decimal(400), Decimal(80)),
    ]
    chart = build_chart(points)
    assert chart is not None
    assert [label.text for label in chart.x_labels] == ["2025-03-31", "2025-06-30"]
    assert len(chart.dots) == 4  # two dates, two series
    assert "cumulative called USD 400.00" in chart.description


def test_dates_crowded_together_keep_the_first_and_last_labels_only_where_they_fit():
    days = [date(2025, 1, 1), date(2025, 1, 3), date(2025, 1, 5), date(2026, 12, 29), date(2026, 12, 31)]
    points = [ChartPoint(day, Decimal(i), Decimal(0)) for i, day in enumerate(days)]
    labels = [label.text for label in build_chart(points).x_labels]
    assert labels == ["2025-01-01", "2026-12-31"]


def test_reported_navs_draw_a_nav_line_beside_calls_and_distributions():
    points = [
        ChartPoint(date(2024, 3, 31), Decimal(500_000), Decimal(0), Decimal(450_000)),
        ChartPoint(date(2024, 9, 30), Decimal(800_000), Decimal(50_000)),
        ChartPoint(date(2025, 3, 31), Decimal(1_000_000), Decimal(200_000), Decimal(1_300_000)),
    ]
    chart = build_chart(points)
    assert chart is not None
    assert [s.name for s in chart.series] == ["called", "distributed", "nav"]
    nav = chart.series[2]
    assert len(nav.points.split()) == 2  # from NAV to NAV, only where one is reported
    assert [line.label for line in chart.grid][-1] == "2M"  # the axis holds the NAV (called alone: 1M)
    assert [e.label for e in chart.legend] == ["Called (paid-in)", "Distributed", "NAV"]
    assert "NAV USD 1,300,000.00 at 2025-03-31." in chart.description
    svg = render("points, 'USD'", points=points)
    assert re.findall(r'<polyline [^>]*data-series="(\w+)"', svg) == ["called", "distributed", "nav"]


def test_view_model_is_data_only():
    chart = build_chart(TWO_POINTS, "USD")
    assert chart is not None
    assert (chart.width, chart.height) == (720, 280)
    assert [s.name for s in chart.series] == ["called", "distributed"]
    assert [line.label for line in chart.grid] == ["0", "500K", "1M", "1.5M", "2M"]
    assert [label.text for label in chart.x_labels] == ["2025-09-30", "2025-12-31"]
    with pytest.raises(AttributeError):
        chart.title = "changed"  # frozen


def test_single_point_is_centred():
    chart = build_chart(TWO_POINTS[:1])
    assert chart is not None
    assert {dot.x for dot in chart.dots} == {"390.0"}


@pytest.mark.parametrize(
    ("amount", "label"),
    [
        (Decimal(0), "0"),
        (Decimal(999), "999"),
        (Decimal("12.50"), "12.5"),
        (Decimal(75000), "75K"),
        (Decimal(1250000), "1.25M"),
        (Decimal(2500000000), "2.5B"),
        (Decimal(-75000), "-75K"),
    ],
)
def test_compact(amount, label):
    assert compact(amount) == label
