"""Reconciliation flags as pages list them (fundportal/web/flags.py) and the flags list template
(templates/jinja2/reconciliation/_flags.html): findings first, the first `limit` listed as plain
rows, the rest counted, every value escaped."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

from jinja2 import FileSystemLoader
from markupsafe import escape

from fundportal import jinja2 as portal_jinja2
from fundportal.domain.money import money
from fundportal.domain.reconciliation import Flag, FlagKind
from fundportal.messages import explain_flag
from fundportal.web.flags import flag_lines

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "jinja2"


def usd(amount: str):
    return money(Decimal(amount), "USD")


def differs(position_id: str) -> Flag:
    return Flag(
        FlagKind.UNFUNDED_DIFFERS,
        position_id=position_id,
        expected=usd("100"),
        actual=usd("90"),
        difference=usd("-10"),
        on=date(2024, 3, 31),
    )


def roll_forward(document_id: str) -> Flag:
    return Flag(
        FlagKind.NAV_ROLL_FORWARD, position_id="P_1", document_id=document_id, expected=usd("5"), actual=usd("6")
    )


def test_findings_come_first_and_are_counted_apart_from_informational_lines():
    flags = flag_lines([roll_forward("DOC_1"), differs("P_2"), differs("P_3")])
    assert [line.flag.position_id for line in flags] == ["P_2", "P_3", "P_1"]
    assert flags.findings == 2
    assert [row[0] for row in flags.rows] == [False, False, True]


def test_a_row_holds_what_the_list_shows_of_a_flag():
    flag = roll_forward("DOC_1")
    (row,) = flag_lines([flag]).rows
    assert row == (True, "nav_roll_forward", "P_1", "DOC_1", explain_flag(flag))
    (without_document,) = flag_lines([differs("P_2")]).rows
    assert without_document[2:4] == ("P_2", "")


def test_only_the_first_limit_are_rows_the_rest_are_counted():
    flags = flag_lines([differs(f"P_{n}") for n in range(60)])
    assert len(flags.rows) == flags.limit == 50
    assert flags.more == 10
    assert flags.findings == 60


def render(flags) -> str:
    template = portal_jinja2.environment(loader=FileSystemLoader(TEMPLATES)).get_template("reconciliation/_flags.html")
    return template.render(flags=flags, flags_id="group-flags")


def test_the_list_escapes_every_value_and_marks_each_kind():
    flag = Flag(
        FlagKind.FUND_MISMATCH, position_id="P_1", document_id="DOC_1", expected="F<1>", actual="F&2", holder="register"
    )
    html = render(flag_lines([flag, roll_forward("DOC_2")]))
    assert f">{escape(explain_flag(flag))}</li>" in html
    assert "F<1>" not in html
    assert '<li class="flag error" data-kind="fund_mismatch" data-position="P_1" data-document="DOC_1">' in html
    assert '<li class="flag muted" data-kind="nav_roll_forward" data-position="P_1" data-document="DOC_2">' in html


def test_an_empty_list_says_nothing_is_to_reconcile_and_more_are_counted():
    assert 'data-kind="none">Nothing to reconcile: every figure agrees.</li>' in render(flag_lines([]))
    html = render(flag_lines([differs(f"P_{n}") for n in range(51)]))
    assert html.count('class="flag error"') == 50
    assert "… and 1 more: <code>manage.py reconcile</code> lists them all." in html
