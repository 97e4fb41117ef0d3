"""A position with entries in two currencies (the fix of the domain-core refactor): every figure
is per currency on the position page, its CSV and `position_report`; amounts in USD and JPY are
never added together. Documents and entries are written through `documents.services`.

POSITION_FX: DOCUSD (USD, as of 2025-09-30) calls 1,000,000 and distributes 250,000 (both
settled); DOCJPY (JPY, as of 2025-12-31) calls 50,000,000 (settled) and distributes 10,000,000
(pending). USD DPI 0.25x (settled 0.25x); JPY DPI 0.20x (settled 0.00x). A mixed sum would be
51,000,000 called and 10,250,000 distributed: neither may appear anywhere.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command

from documents import approval, services
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, Distribution, UnfundedCommitment
from fundportal.store.repositories.documents import document_items

pytestmark = pytest.mark.django_db

POSITION = "POSITION_FX"
MIXED_SUMS = ("51,000,000", "51000000", "10,250,000", "10250000")


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def create_document(document_id: str, currency: str, as_of: date, call: int, distribution: int, status: str) -> None:
    document = Document(
        document_id=document_id,
        title=f"{currency} statement",
        fund_id="FUND_FX",
        as_of_date=as_of,
        currency=currency,
        status="Active",
    )
    services.document_create(document=document, user="seed")
    common = {"document_id": document_id, "position_id": POSITION, "fund_id": "FUND_FX", "investor_id": "INVESTOR_FX"}
    services.entry_record(entry=CapitalCall(**common, amount=Decimal(call), status="Completed"), user="seed")
    services.entry_record(entry=Distribution(**common, amount=Decimal(distribution), status=status), user="seed")
    approval.document_submit(document_id=document_id, user="seed")
    approval.document_approve(document_id=document_id, user="approver")


@pytest.fixture
def two_currencies(backend):
    create_document("DOCUSD", "USD", date(2025, 9, 30), 1_000_000, 250_000, "Completed")
    create_document("DOCJPY", "JPY", date(2025, 12, 31), 50_000_000, 10_000_000, "Pending")
    return backend


def figures_blocks(html: str) -> dict[str, str]:
    """The position page's headline figures: currency -> the block's visible text."""
    section = html.split('id="figures-heading"', 1)[1].split("</section>", 1)[0]
    chunks = section.split('<div class="figures" data-currency="')[1:]
    return {chunk[:3]: text(chunk[3:]) for chunk in chunks}


def totals_rows(html: str) -> dict[str, str]:
    """A document page's tfoot: currency -> the totals row's visible text."""
    rows = re.findall(r'<tr class="total" data-testid="document-totals" data-currency="(\w+)">(.*?)</tr>', html, re.S)
    return {currency: text(row) for currency, row in rows}


def test_entries_take_their_document_currency(two_currencies):
    entries = two_currencies.positions.entries(POSITION)
    assert sorted((e.document_id, e.kind.slug, e.currency) for e in entries) == [
        ("DOCJPY", "capital_call", "JPY"),
        ("DOCJPY", "distribution", "JPY"),
        ("DOCUSD", "capital_call", "USD"),
        ("DOCUSD", "distribution", "USD"),
    ]


def test_position_page_shows_a_total_and_dpi_per_currency(
    two_currencies, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get(f"/positions/{POSITION}/")
    assert response.status_code == 200
    html = response.content.decode()
    blocks = figures_blocks(html)
    assert list(blocks) == ["JPY", "USD"]  # two blocks, by currency code
    usd, jpy = blocks["USD"], blocks["JPY"]
    assert "Paid-in (called) USD 1,000,000.00" in usd
    assert "Distributed USD 250,000.00" in usd
    assert "DPI 0.25x" in usd and "DPI (settled) 0.25x" in usd
    assert "JPY" not in usd
    assert "Paid-in (called) JPY 50,000,000.00" in jpy
    assert "Distributed JPY 10,000,000.00 pending JPY 10,000,000.00" in jpy
    assert "DPI 0.20x" in jpy and "DPI (settled) 0.00x" in jpy
    assert "USD" not in jpy
    assert html.count('data-testid="dpi"') == 2 and html.count('data-testid="total-called"') == 2
    # A chart per currency, and the rows' running figures are those of each row's currency.
    assert html.count('<svg class="chart"') == 2
    page = text(html)
    assert (
        "DOCUSD 2025-09-30 USD statement Other USD 1,000,000.00 Completed USD 250,000.00 Completed — — — "
        "USD 1,000,000.00 USD 250,000.00 0.25x"
    ) in page
    assert (
        "DOCJPY 2025-12-31 JPY statement Other JPY 50,000,000.00 Completed JPY 10,000,000.00 Pending — — — "
        "JPY 50,000,000.00 JPY 10,000,000.00 0.20x"
    ) in page
    for mixed in MIXED_SUMS:
        assert mixed not in page


def test_position_csv_running_columns_are_per_currency(two_currencies, analyst_client):
    response = analyst_client.get(f"/positions/{POSITION}/export.csv")
    content = response.content.decode()
    rows = list(csv.DictReader(io.StringIO(content)))
    assert [(r["document_id"], r["currency"]) for r in rows] == [("DOCUSD", "USD"), ("DOCJPY", "JPY")]
    running = [
        (Decimal(r["called_to_date"]), Decimal(r["distributed_to_date"]), r["dpi_to_date"], r["dpi_settled_to_date"])
        for r in rows
    ]
    assert running == [
        (Decimal(1_000_000), Decimal(250_000), "0.2500", "0.2500"),
        (Decimal(50_000_000), Decimal(10_000_000), "0.2000", "0.0000"),  # JPY only: not 51,000,000
    ]
    for mixed in MIXED_SUMS:
        assert mixed not in content


def test_position_report_json_gives_a_total_per_currency(two_currencies):
    out = io.StringIO()
    call_command("position_report", POSITION, format="json", stdout=out)
    payload = json.loads(out.getvalue())
    assert payload["documents"] == 2 and len(payload["entries"]) == 4
    totals = {t["currency"]: t for t in payload["totals"]}
    assert list(totals) == ["JPY", "USD"]
    usd, jpy = totals["USD"], totals["JPY"]
    assert (Decimal(usd["called"]), Decimal(usd["distributed"])) == (Decimal(1_000_000), Decimal(250_000))
    assert (usd["dpi"], usd["dpi_settled"]) == ("0.25", "0.25")
    assert (Decimal(jpy["called"]), Decimal(jpy["distributed"])) == (Decimal(50_000_000), Decimal(10_000_000))
    assert Decimal(jpy["distributed_pending"]) == Decimal(10_000_000)
    assert (jpy["dpi"], jpy["dpi_settled"]) == ("0.20", "0.00")


def test_document_page_tfoot_is_in_the_document_currency(two_currencies, analyst_client):
    html = analyst_client.get("/documents/DOCJPY/").content.decode()
    rows = totals_rows(html)
    assert list(rows) == ["JPY"]
    assert rows["JPY"] == (
        "Document total JPY 50,000,000.00 JPY 10,000,000.00 pending JPY 10,000,000.00 — — 0.20x settled 0.00x"
    )


def test_document_page_tfoot_has_one_row_per_currency(backend, analyst_client, django_assert_dynamodb_requests):
    """A document holding entries in two currencies (loaded as items, as a bulk load may):
    one totals row per currency, labelled with it, never one mixed row."""
    document = Document(document_id="DOCMIX", title="Mixed", fund_id="FUND_FX", as_of_date=date(2025, 9, 30))
    common = {"document_id": "DOCMIX", "fund_id": "FUND_FX", "as_of_date": date(2025, 9, 30), "status": "Completed"}
    entries = [
        CapitalCall(**common, position_id="POS_USD", investor_id="I1", amount=Decimal(800_000), currency="USD"),
        Distribution(**common, position_id="POS_USD", investor_id="I1", amount=Decimal(120_000), currency="USD"),
        UnfundedCommitment(
            **{**common, "status": "Active"}, position_id="POS_USD", investor_id="I1", amount=Decimal(2_000_000)
        ),
        CapitalCall(**common, position_id="POS_JPY", investor_id="I2", amount=Decimal(30_000_000), currency="JPY"),
        Distribution(**common, position_id="POS_JPY", investor_id="I2", amount=Decimal(3_000_000), currency="JPY"),
    ]
    backend.repository.bulk_load(document_items(document, None, entries), workers=1)
    with django_assert_dynamodb_requests(1, ["Query"]):
        response = analyst_client.get("/documents/DOCMIX/")
    html = response.content.decode()
    rows = totals_rows(html)
    assert list(rows) == ["JPY", "USD"]
    assert rows["USD"] == "Document total (USD) USD 800,000.00 USD 120,000.00 USD 2,000,000.00 — 0.15x settled 0.15x"
    assert rows["JPY"] == "Document total (JPY) JPY 30,000,000.00 JPY 3,000,000.00 — — 0.10x settled 0.10x"
    page = text(html)
    for mixed in ("30,800,000", "3,120,000"):
        assert mixed not in page
