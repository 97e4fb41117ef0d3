"""The row macros' `{% autoescape false %}` regions (fundportal/perf/unescaped_figures.py): they
output nothing but `|figure` values and `|escaped` ones (escaped always: fundportal/perf/escape_memo.py),
the formatters behind the figures never make a character HTML escapes, and the page is the same
with the trick on and off."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from jinja2 import nodes
from markupsafe import escape

from fundportal import jinja2 as portal_jinja2
from fundportal.charts import ChartPoint, build_chart
from fundportal.domain.figures import Figures
from fundportal.domain.money import CURRENCIES, format_amount, format_money, format_percent, format_ratio, money
from fundportal.perf import unescaped_figures
from funds.lines import line_text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "jinja2"
ESCAPED = set("<>&\"'")
AMOUNTS = [
    Decimal(0),
    Decimal("-0.001"),
    Decimal("0.005"),
    Decimal("-1250000.5"),
    Decimal("12345678901234567890.123"),
    Decimal("1E+3"),
    Decimal("-7E-9"),
]


def plain_and_fast():
    plain = portal_jinja2.environment()
    plain.filters["figure"] = escape  # whatever PerfConfig installed in this process
    fast = portal_jinja2.environment()
    unescaped_figures.install(fast)
    return plain, fast


@pytest.mark.parametrize("code", CURRENCIES)
def test_a_formatted_amount_holds_no_character_html_escapes(code):
    for amount in AMOUNTS:
        for text in (format_money(money(amount, code)), format_amount(amount, code)):
            assert not ESCAPED & set(text), text


def test_a_formatted_ratio_or_percent_holds_no_character_html_escapes():
    for value in [*AMOUNTS, None]:
        assert not ESCAPED & set(format_ratio(value))
        assert not ESCAPED & set(format_percent(value))
    assert not ESCAPED & set(format_money(None))


def test_a_fund_lines_shown_figures_hold_no_character_html_escapes():
    usd = lambda amount: money(Decimal(amount), "USD")  # noqa: E731
    figures = Figures(
        "USD",
        usd("600000.5"),
        usd("-100"),
        usd("20000"),
        usd("5"),
        unfunded=usd("400000"),
        unfunded_as_of=date(2024, 3, 31),
        nav=usd("700000"),
        nav_as_of=date(2024, 3, 31),
        as_of=date(2024, 6, 30),
        adjusted_nav=usd("650000"),
    )
    shown = line_text(usd("1000000"), figures, Decimal("60.05"), Decimal("-12.5"), usd("399999.5"))
    for text in shown:
        assert not ESCAPED & set(text), text


def _regions(node: nodes.Node):
    for region in node.find_all(nodes.ScopedEvalContextModifier):
        options = {keyword.key: keyword.value for keyword in region.options}
        value = options.get("autoescape")
        if isinstance(value, nodes.Const) and value.value is False:
            yield region
        else:
            assert value is None or isinstance(value, nodes.Const), "autoescape takes a constant here"


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_an_unescaped_region_outputs_only_figures(path):
    env = portal_jinja2.environment()
    tree = env.parse(path.read_text(), name=str(path))
    for region in _regions(tree):
        for output in region.find_all(nodes.Output):
            for child in output.nodes:
                if isinstance(child, nodes.TemplateData):
                    continue
                assert isinstance(child, nodes.Filter) and child.name in ("figure", "escaped"), (
                    f"{path.name} line {child.lineno}: only `|figure` and `|escaped` in an autoescape false region"
                )


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_escaped_values_are_output_only_in_unescaped_regions(path):
    """Elsewhere autoescape would escape `|escaped`'s text a second time (the trick's is a `str`)."""
    tree = portal_jinja2.environment().parse(path.read_text(), name=str(path))
    inside = {id(node) for region in _regions(tree) for node in region.find_all(nodes.Filter)}
    for node in tree.find_all(nodes.Filter):
        if node.name == "escaped":
            assert id(node) in inside, f"{path.name} line {node.lineno}: `|escaped` outside an autoescape false region"


def test_the_regions_are_where_the_long_tables_are():
    with_regions = {
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*.html")
        if any(_regions(portal_jinja2.environment().parse(path.read_text())))
    }
    assert with_regions == {
        "funds/line_rows.html",
        "documents/detail.html",
        "positions/detail.html",
        "charts/cumulative.html",
        "reconciliation/_flags.html",
    }


def test_a_charts_numbers_hold_no_character_html_escapes():
    """The chart's `|figure` values: pixel positions, axis labels, ISO dates and the polylines'
    points, for amounts of every size and sign."""
    days = [date(2020, 1, 1), date(2020, 1, 2), date(2024, 6, 30), date(2031, 12, 31)]
    for amount in AMOUNTS:
        points = [ChartPoint(day, abs(amount) * i, amount * i, amount) for i, day in enumerate(days, 1)]
        chart = build_chart(points, "USD")
        assert chart is not None
        numbers = [chart.width, chart.height, chart.plot_left, chart.plot_right, chart.tick_x, chart.axis_y]
        numbers += [chart.date_label_y, chart.legend_y, chart.legend_text_y]
        numbers += [value for line in chart.grid for value in line]
        numbers += [value for label in chart.x_labels for value in label]
        numbers += [series.points for series in chart.series]
        numbers += [value for dot in chart.dots for value in (dot.x, dot.y)]
        numbers += [value for entry in chart.legend for value in (entry.x, entry.text_x)]
        for number in numbers:
            assert not ESCAPED & set(str(number)), number


def test_the_figure_filter_escapes_on_the_plain_path_and_not_with_the_trick():
    plain, fast = plain_and_fast()
    source = "{% autoescape false %}<td>{{ value|figure }}</td>{% endautoescape %}"
    assert plain.from_string(source).render(value="<b>") == "<td>&lt;b&gt;</td>"
    assert fast.from_string(source).render(value="<b>") == "<td><b></td>"  # figures only: see above


def test_a_figures_cell_renders_the_same_with_the_trick_and_without():
    plain, fast = plain_and_fast()
    source = '{% autoescape false %}<td class="num">{{ value|figure }}</td>{% endautoescape %}<th>{{ name }}</th>'
    for value in (format_money(money(Decimal("-1250000.5"), "JPY")), format_ratio(Decimal("0.16")), "—"):
        context = {"value": value, "name": "<POSITION_1>"}
        assert plain.from_string(source).render(context) == fast.from_string(source).render(context)
        assert "&lt;POSITION_1&gt;" in fast.from_string(source).render(context)  # outside: escaped


def test_the_chart_renders_the_same_with_the_trick_and_without():
    from django.template import engines

    plain, fast = plain_and_fast()
    for env in (plain, fast):
        env.loader = engines["jinja2"].env.loader
    points = [
        ChartPoint(date(2024, 3, 31), Decimal(500_000), Decimal(0), Decimal(450_000)),
        ChartPoint(date(2025, 3, 31), Decimal(1_000_000), Decimal(200_000), Decimal(1_300_000)),
    ]
    context = {"chart": build_chart(points, "<b>", 'x"<y')}
    svg = fast.get_template("charts/cumulative.html").render(context)
    assert svg == plain.get_template("charts/cumulative.html").render(context)
    assert "capital (&lt;b&gt;)</title>" in svg and 'id="x&#34;&lt;y-title"' in svg
