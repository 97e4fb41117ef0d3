"""The `|escaped` filter of the row macros' unescaped regions: markupsafe's `escape` on the plain
path, a memo of its results with the trick (fundportal/perf/escape_memo.py); both give the same
text for every value, and a row renders the same either way."""

from __future__ import annotations

import pytest
from markupsafe import Markup, escape

from fundportal import jinja2 as portal_jinja2
from fundportal.perf import escape_memo

VALUES = [
    "POSITION_1",
    "/documents/DOC001/positions/POSITION_1/",
    "Pending",
    "<script>alert('x')</script>",
    'a "quoted" & <tagged> value',
    "",
    "é — ü",
    Markup("<b>already safe</b>"),
    Markup("&amp;"),
    "&amp;",
    42,
    None,
]


def plain_and_memo():
    plain = portal_jinja2.environment()
    plain.filters["escaped"] = escape  # whatever PerfConfig installed in this process
    memo = portal_jinja2.environment()
    escape_memo.install(memo)
    return plain, memo


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_the_memo_gives_what_escape_gives(value):
    assert escape_memo.escape_once(value) == str(escape(value))
    assert escape_memo.escape_once(value) == str(escape(value))  # the second time, from the memo


def test_a_plain_string_equal_to_a_markup_is_still_escaped():
    assert escape_memo.escape_once(Markup("&amp;")) == "&amp;"
    assert escape_memo.escape_once("&amp;") == "&amp;amp;"  # not the Markup's memoised text


def test_the_memo_is_bounded():
    assert escape_memo._escaped_text.cache_info().maxsize == escape_memo.MEMOISED


def test_a_row_renders_the_same_with_the_memo_and_without():
    plain, memo = plain_and_memo()
    source = (
        '{% for row in rows %}{% autoescape false %}<tr data-position="{{ row.id|escaped }}">'
        '<a href="{{ row.url|escaped }}">{{ row.id|escaped }}</a>{{ row.status|escaped }}</tr>'
        "{% endautoescape %}{% endfor %}<p>{{ name }}</p>"
    )
    rows = [{"id": value, "url": f"/p/{value}/", "status": "Pending"} for value in VALUES]
    context = {"rows": rows, "name": "<NAME>"}
    for _ in range(2):
        html = memo.from_string(source).render(context)
        assert html == plain.from_string(source).render(context)
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert "&lt;NAME&gt;" in html  # outside the region: autoescaped
