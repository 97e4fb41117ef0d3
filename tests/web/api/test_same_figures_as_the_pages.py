"""The API and the pages give identical figures: each line of a fund's and an investor's page,
cell by cell, against the API's line formatted the way the page formats it; on the seed sample
and on a synthetic book (`seed_demo`), today and as of a past date for the position's figures,
and as known at a past moment (alone and with `as_of`)."""

from __future__ import annotations

import os
import re
from decimal import Decimal

import pytest
from django.core.management import call_command

from fundportal.domain.entry_versions import instant
from fundportal.domain.money import format_money, format_percent, format_ratio, money
from tests.approving import approve_by_another

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr data-position="([^"]+)" data-currency="([^"]+)">(.*?)</tr>', re.S)
CELL = re.compile(r'<td class="num[^"]*" data-testid="([a-z-]+)">(.*?)</td>', re.S)


def page_cells(html: str) -> dict[tuple[str, str], dict[str, str]]:
    """(position, currency) -> {cell: its first line of text} of a fund's or investor's table."""
    rows = {}
    for position, currency, body in ROW.findall(html):
        rows[(position, currency)] = {
            name: re.sub(r"<[^>]+>", "", value.split("<br>")[0]).strip() for name, value in CELL.findall(body)
        }
    return rows


def shown(value: dict | None) -> str:
    return format_money(None if value is None else money(Decimal(value["amount"]), value["currency"]))


def number(value: str | None) -> Decimal | None:
    return None if value is None else Decimal(value)


def api_cells(lines: list[dict]) -> dict[tuple[str, str], dict[str, str]]:
    """The API's lines formatted as the page formats them."""
    return {
        (line["position_id"], line["currency"]): {
            "commitment": shown(line["commitment"]),
            "called": shown(line["figures"]["called"]),
            "percent-called": format_percent(number(line["percent_called"])),
            "unfunded": shown(line["figures"]["unfunded"]),
            "unfunded-computed": shown(line["unfunded_computed"]),
            "distributed": shown(line["figures"]["distributed"]),
            "nav": shown(line["figures"]["nav"]),
            "dpi": format_ratio(number(line["figures"]["dpi"])),
            "rvpi": format_ratio(number(line["figures"]["rvpi"])),
            "tvpi": format_ratio(number(line["figures"]["tvpi"])),
            "irr": format_percent(number(line["irr_percent"])),
        }
        for line in lines
    }


def walk_lines(api_client, url: str) -> list[dict]:
    lines: list[dict] = []
    while url:
        body = api_client.get(url).json()
        lines += body["lines"]
        url = body["next"]
    return lines


def assert_same(analyst_client, api_client, page: str, endpoint: str) -> int:
    on_page = page_cells(analyst_client.get(page).content.decode())
    on_api = api_cells(walk_lines(api_client, endpoint))
    assert on_page and on_api == on_page
    return len(on_api)


def test_the_sample_funds_and_investors_show_the_same_figures(sample, analyst_client, api_client):
    assert assert_same(analyst_client, api_client, "/funds/FUND_A/", "/api/v1/funds/FUND_A/lines") == 2
    assert assert_same(analyst_client, api_client, "/investors/INVESTOR_1/", "/api/v1/investors/INVESTOR_1/lines")


def test_a_synthetic_book_shows_the_same_figures_page_by_page(backend, analyst_client, api_client):
    call_command("seed_demo", documents=6, positions=5, versions=1, funds=2, seed=7, stdout=open(os.devnull, "w"))
    funds = api_client.get("/api/v1/funds").json()["funds"]
    assert len(funds) == 2
    for fund in funds:
        fund_id = fund["fund_id"]
        count = assert_same(analyst_client, api_client, f"/funds/{fund_id}/", f"/api/v1/funds/{fund_id}/lines?limit=2")
        assert count >= 3  # walked over several API pages
    investors = api_client.get("/api/v1/investors").json()["investors"]
    for investor_id in investors[:3]:
        assert_same(analyst_client, api_client, f"/investors/{investor_id}/", f"/api/v1/investors/{investor_id}/lines")


def test_the_funds_list_shows_the_same_totals(sample, analyst_client, api_client):
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", analyst_client.get("/funds/").content.decode()))
    [fund] = api_client.get("/api/v1/funds").json()["funds"]
    [total] = fund["totals"]
    expected = " ".join(
        [
            fund["fund_id"],
            total["currency"],
            str(total["positions"]),
            shown(total["commitment"]),
            shown(total["figures"]["called"]),
            format_percent(number(total["percent_called"])),
            shown(total["figures"]["distributed"]),
        ]
    )
    assert expected in page


def test_known_at_the_funds_and_investors_show_the_same_figures_as_the_pages(
    sample, editor_client, analyst_client, api_client
):
    """A NAV recorded after T: as known at T (alone and as of 2025-09-30) the pages and the API
    agree line by line, and both differ from today's."""
    before = instant().replace(tzinfo=None).isoformat(timespec="microseconds")
    nav = {"kind": "nav", "position_id": "POSITION_1", "fund_id": "FUND_A", "investor_id": "INVESTOR_1"}
    assert (
        editor_client.post(
            "/documents/DOC001/entries/new/", {**nav, "status": "Active", "amount": "445000"}
        ).status_code
        == 302
    )
    approve_by_another("DOC001")  # DOC001 is approved: the NAV counts once its restatement is
    for query in (f"known_at={before}", f"as_of=2025-09-30&known_at={before}"):
        for page, endpoint in (
            ("/funds/FUND_A/", "/api/v1/funds/FUND_A/lines"),
            ("/investors/INVESTOR_1/", "/api/v1/investors/INVESTOR_1/lines"),
        ):
            assert assert_same(analyst_client, api_client, f"{page}?{query}", f"{endpoint}?{query}")
            then = api_cells(walk_lines(api_client, f"{endpoint}?{query}"))
            assert then[("POSITION_1", "USD")]["nav"] == "—"
    now = api_cells(walk_lines(api_client, "/api/v1/funds/FUND_A/lines"))
    assert now[("POSITION_1", "USD")]["nav"] == "USD 445,000.00"
    totals = api_client.get(f"/api/v1/funds/FUND_A/figures?known_at={before}").json()["totals"]
    assert totals[0]["figures"]["nav"] is None
