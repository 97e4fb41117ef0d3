"""The cumulative chart: data computed in Python (fundportal/charts.py), the <svg> rendered by its
Jinja2 template as the position page includes it."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.template import engines

from fundportal.charts import ChartPoint, build_chart, compact

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


def test_many_points_have_at_most_eight_date_labels():
    points = [
        ChartPoint(date(2024, 1, 1) + timedelta(days=30 * i), Decimal(1000 * i), Decimal(100 * i)) for i in range(20)
    ]
    svg = render("points, 'USD'", points=points)
    dates = re.findall(r'text-anchor="middle" class="tick">([^<]*)<', svg)
    assert len(dates) == 8
    assert dates[0] == "2024-01-01" and dates[-1] == points[-1].as_of.isoformat()
    assert svg.count("<circle ") == 40


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
