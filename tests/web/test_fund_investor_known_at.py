"""The fund and investor pages (and their downloads) as the portal knew them at a moment T, from
the register versions every register write keeps (moto, the seed sample).

FUND_A holds POSITION_1 (INVESTOR_1: DOC001 call 500,000, distribution 75,000; DOC002 call
750,000, distribution 120,000; commitment 2,000,000) and POSITION_2 (INVESTOR_2: DOC001 call
300,000, distribution 45,000; DOC002 call 400,000; commitment 1,150,000). Today's totals: called
1,950,000 of 3,150,000 (61.9 %), distributed 240,000, no NAV.

Then, in order:
- T0, then a NAV of 445,000 for POSITION_1 in DOC001 (2025-09-30) is recorded: T1;
- DOC002's call for POSITION_2 is restated 400,000 -> 410,000: T2 (awaiting approval);
- the restatement is approved: T3. Called 1,960,000 (62.2 %), computed unfunded 1,190,000.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal

import openpyxl
import pytest

from documents import approval, services
from documents.selectors import document_header, entry
from fundportal.domain.entry_versions import instant
from fundportal.domain.kinds import Kind
from fundportal.domain.model import Document
from tests.approving import approve_by_another
from tests.fund_loading import load_fund

pytestmark = pytest.mark.django_db

FUND = "/funds/FUND_A/"
NAV = {
    "kind": "nav",
    "position_id": "POSITION_1",
    "fund_id": "FUND_A",
    "investor_id": "INVESTOR_1",
    "status": "Active",
    "amount": "445000",
}
TOTAL_BEFORE = "Total USD (2 positions) USD 3,150,000.00 USD 1,950,000.00 61.9 % USD 2,350,000.00 USD 1,200,000.00"
TOTAL_RESTATED = "Total USD (2 positions) USD 3,150,000.00 USD 1,960,000.00 62.2 % USD 2,350,000.00 USD 1,190,000.00"


def text(response) -> str:
    assert response.status_code == 200, response.content[:500]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def row(response, position_id: str) -> str:
    match = re.search(rf'<tr data-position="{position_id}"[^>]*>.*?</tr>', response.content.decode(), re.S)
    assert match, f"no row for {position_id}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0)))


def csv_called(client, url: str) -> Decimal:
    """POSITION_2's `called` in a fund's or investor's CSV download."""
    response = client.get(url)
    assert response.status_code == 200
    body = b"".join(response.streaming_content).decode()
    found = {r["position_id"]: r for r in csv.DictReader(io.StringIO(body)) if r.get("position_id")}
    return Decimal(found["POSITION_2"]["called"])


def moment() -> str:
    """Now, to the microsecond, as a `known_at` (UTC without an offset)."""
    return instant().replace(tzinfo=None).isoformat(timespec="microseconds")


def restate_call(amount: int) -> None:
    call = entry(document_id="DOC002", kind=Kind.CAPITAL_CALL, position_id="POSITION_2")
    services.document_restate(
        document_id="DOC002",
        expected_revision=document_header(document_id="DOC002").revision,
        changes={},
        entries=[replace(call, amount=Decimal(amount))],
        user="ana",
    )


@pytest.fixture
def history(sample, editor_client) -> dict[str, str]:
    """The moments T0..T3 of the module's story."""
    moments = {"T0": moment()}
    assert editor_client.post("/documents/DOC001/entries/new/", NAV).status_code == 302
    approve_by_another("DOC001")  # DOC001 is approved: the NAV counts once its restatement is
    moments["T1"] = moment()
    restate_call(410_000)
    moments["T2"] = moment()
    approval.document_submit(document_id="DOC002", user="ana")
    approval.document_approve(document_id="DOC002", user="ben")
    moments["T3"] = moment()
    return moments


# --- the fund page ------------------------------------------------------------------------------


def test_the_fund_page_known_before_a_later_entry_leaves_it_out(history, analyst_client):
    then = analyst_client.get(f"{FUND}?known_at={history['T0']}")
    assert TOTAL_BEFORE in text(then)
    assert "445,000.00" not in text(then)  # no NAV on any line, nor in the totals
    assert "— 0.16x — —" in row(then, "POSITION_1")  # DPI 195,000 / 1,250,000 = 0.16x, no RVPI/TVPI


def test_the_fund_page_known_after_the_entry_shows_it_and_the_restatement_only_once_approved(history, analyst_client):
    after_nav = analyst_client.get(f"{FUND}?known_at={history['T1']}")
    # POSITION_1: NAV 445,000 (2025-09-30) rolled forward by DOC002's flows: 445,000 + 750,000 -
    # 120,000 = 1,075,000; TVPI (195,000 + 1,075,000) / 1,250,000 = 1.016 -> 1.02x.
    assert TOTAL_BEFORE in text(after_nav)
    assert "USD 445,000.00" in row(after_nav, "POSITION_1") and "1.02x" in row(after_nav, "POSITION_1")
    awaiting = text(analyst_client.get(f"{FUND}?known_at={history['T2']}"))
    assert TOTAL_BEFORE in awaiting  # the restated 410,000 awaits approval: 400,000 still counts
    approved = analyst_client.get(f"{FUND}?known_at={history['T3']}")
    assert TOTAL_RESTATED in text(approved)
    assert "USD 710,000.00" in row(approved, "POSITION_2")  # 300,000 + 410,000
    assert TOTAL_RESTATED in text(analyst_client.get(FUND))  # as today


def test_the_fund_page_known_at_costs_one_query_more(history, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(2, ["BatchGetItem", "Query"]):
        assert analyst_client.get(FUND).status_code == 200  # today's page: unchanged
    with django_assert_dynamodb_requests(3, ["Query", "Query", "BatchGetItem"]):
        assert analyst_client.get(f"{FUND}?known_at={history['T0']}").status_code == 200


def test_the_fund_page_known_at_composes_with_as_of_for_one_query_more(
    history, analyst_client, django_assert_dynamodb_requests
):
    """As of 2025-09-30 only DOC001 counts: called 800,000 (25.4 % of 3,150,000), distributed
    120,000; as known after the NAV, POSITION_1's TVPI (75,000 + 445,000) / 500,000 = 1.04x."""
    with django_assert_dynamodb_requests(3, ["Query", "Query", "BatchGetItem"]):
        before = analyst_client.get(f"{FUND}?as_of=2025-09-30&known_at={history['T0']}")
    assert "Total USD (2 positions) USD 3,150,000.00 USD 800,000.00 25.4 %" in text(before)
    assert "445,000.00" not in text(before)
    with django_assert_dynamodb_requests(3, ["Query", "Query", "BatchGetItem"]):
        after = analyst_client.get(f"{FUND}?as_of=2025-09-30&known_at={history['T1']}")
    assert "USD 445,000.00" in row(after, "POSITION_1") and "1.04x" in row(after, "POSITION_1")
    page = after.content.decode()
    assert 'name="as_of" value="2025-09-30"' in page and 'name="known_at" value="' + history["T1"][:19] in page


def test_a_position_registered_after_the_moment_is_not_on_the_fund_page_then(sample, editor_client, analyst_client):
    document = Document(document_id="DOC003", title="Q4", fund_id="FUND_A", as_of_date=date(2025, 12, 31))
    services.document_create(document=document, user="editor")  # a new position enters in a draft
    before = moment()
    call = {
        "kind": "capital_call",
        "position_id": "POSITION_3",
        "fund_id": "FUND_A",
        "investor_id": "INVESTOR_1",
        "status": "Pending",
        "amount": "100000",
    }
    assert editor_client.post("/documents/DOC003/entries/new/", call).status_code == 302
    approve_by_another("DOC003")
    now = analyst_client.get(FUND)
    assert "Total USD (3 positions)" in text(now) and 'data-position="POSITION_3"' in now.content.decode()
    then = analyst_client.get(f"{FUND}?known_at={before}")
    assert TOTAL_BEFORE in text(then) and 'data-position="POSITION_3"' not in then.content.decode()
    investor = analyst_client.get(f"/investors/INVESTOR_1/?known_at={before}")
    assert 'data-position="POSITION_3"' not in investor.content.decode()


def test_the_fund_downloads_keep_known_at(history, analyst_client):
    page = analyst_client.get(f"{FUND}?known_at={history['T2']}").content.decode()
    assert f'href="/funds/FUND_A/export.csv?known_at={history["T2"][:10]}' in page
    workbook = analyst_client.get(f"/funds/FUND_A/export.xlsx?known_at={history['T2']}")
    rows = list(openpyxl.load_workbook(io.BytesIO(workbook.content)).active.iter_rows(values_only=True))
    header = next(r for r in rows if r and "called" in r)
    second = next(dict(zip(header, r, strict=True)) for r in rows if r and "POSITION_2" in r)
    assert second["called"] == 700000  # the restatement was not approved yet
    assert csv_called(analyst_client, f"/funds/FUND_A/export.csv?known_at={history['T2']}") == Decimal(700000)
    assert csv_called(analyst_client, f"/funds/FUND_A/export.csv?known_at={history['T3']}") == Decimal(710000)


# --- the investor page --------------------------------------------------------------------------


def test_the_investor_page_known_at_shows_the_registers_as_they_stood(
    history, analyst_client, django_assert_dynamodb_requests
):
    with django_assert_dynamodb_requests(2, ["Query", "Query"]):  # the page's, the versions'
        then = analyst_client.get(f"/investors/INVESTOR_1/?known_at={history['T0']}")
    assert "445,000.00" not in text(then)
    after = analyst_client.get(f"/investors/INVESTOR_1/?known_at={history['T1']}")
    assert "USD 445,000.00" in row(after, "POSITION_1")
    awaiting = analyst_client.get(f"/investors/INVESTOR_2/?known_at={history['T2']}")
    assert "USD 700,000.00" in row(awaiting, "POSITION_2") and "USD 710,000.00" not in row(awaiting, "POSITION_2")
    approved = analyst_client.get(f"/investors/INVESTOR_2/?known_at={history['T3']}")
    assert "USD 710,000.00" in row(approved, "POSITION_2")


def test_the_investor_page_known_at_composes_with_as_of(history, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(2, ["Query", "Query"]):
        before = analyst_client.get(f"/investors/INVESTOR_1/?as_of=2025-09-30&known_at={history['T0']}")
    line = row(before, "POSITION_1")
    assert "USD 500,000.00" in line and "445,000.00" not in line  # DOC001's call, no NAV known
    after = row(analyst_client.get(f"/investors/INVESTOR_1/?as_of=2025-09-30&known_at={history['T1']}"), "POSITION_1")
    assert "USD 445,000.00" in after and "1.04x" in after


def test_the_investor_downloads_keep_known_at(history, analyst_client):
    page = analyst_client.get(f"/investors/INVESTOR_2/?known_at={history['T2']}").content.decode()
    assert f'href="/investors/INVESTOR_2/export.csv?known_at={history["T2"][:10]}' in page
    assert csv_called(analyst_client, f"/investors/INVESTOR_2/export.csv?known_at={history['T2']}") == 700000


def test_a_slim_line_valued_before_its_nav_date_is_read_whole_once(
    sample, editor_client, analyst_client, django_assert_dynamodb_requests
):
    """POSITION_1's NAV of 1,400,000 in DOC002 (2025-12-31): its slim copy holds only the flows
    after that date, so as of 2025-09-30 its line is read whole, in the summary's BatchGetItem
    (3 requests in all): called 500,000, no NAV at that date."""
    assert editor_client.post("/documents/DOC002/entries/new/", {**NAV, "amount": "1400000"}).status_code == 302
    approve_by_another("DOC002")  # DOC002 is approved: the NAV counts once its restatement is
    now = moment()
    with django_assert_dynamodb_requests(3, ["Query", "Query", "BatchGetItem"]):
        response = analyst_client.get(f"{FUND}?as_of=2025-09-30&known_at={now}")
    line = row(response, "POSITION_1")
    assert "USD 500,000.00" in line and "1,400,000.00" not in line
    assert row(response, "POSITION_1") == row(analyst_client.get(f"{FUND}?as_of=2025-09-30"), "POSITION_1")


@pytest.mark.parametrize(("positions", "requests"), [(89, 3), (100, 4)])
def test_as_of_before_every_nav_and_known_at_reads_whole_lines_with_the_summary_while_they_fit(
    moto_backend, analyst_client, django_assert_dynamodb_requests, positions, requests
):
    """Every line's NAV (2025-12-31) is after D (2025-06-30), so each is read whole: with the 10
    summary shards and the record, 89 lines fit the summary's BatchGetItem (3 requests); a full
    page of 100 does not (111 keys: a second BatchGetItem, sent in parallel; `funds.known_at`
    says why no design does better). Called as of D: each line's call dated 2024-12-31."""
    registers = load_fund("FUND_W", positions, nav_on=date(2025, 12, 31))
    url = f"/funds/FUND_W/?as_of=2025-06-30&known_at={moment()}"
    with django_assert_dynamodb_requests(requests, ["Query", "Query", *["BatchGetItem"] * (requests - 2)]):
        response = analyst_client.get(url)
    assert response.status_code == 200
    line = row(response, registers[0].position_id)
    assert "USD 1,000.00" in line and "2,000.00" not in line  # the call, no NAV as of D
