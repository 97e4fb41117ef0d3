"""The ILPA capital account statement on the seed sample (moto): POSITION_1's QTD / YTD / ITD
columns hand-computed, the flagged unreconciled difference, the PDF's text and the XLSX read back
with openpyxl, the period parameters' 400s, request counts, the investor's statement and the
fund's ZIP of every LP's statement."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from documents import services
from exports.capital_account import position_capital_account
from fundportal.domain.periods import quarter
from fundportal.domain.position_entries import NetAssetValue
from tests.approving import approve_by_another

pytestmark = pytest.mark.django_db

Q3, Q4 = date(2025, 9, 30), date(2025, 12, 31)
STATEMENT = "/positions/POSITION_1/statement"


def record_nav(document_id: str, amount: int, on: date) -> None:
    """Records the NAV into the seed's approved document and has another user approve the
    restatement it starts, with whatever else was recorded into it: only approved values count."""
    nav = NetAssetValue(document_id, "POSITION_1", "FUND_A", "INVESTOR_1", Decimal(amount), "Active", as_of_date=on)
    services.entry_record(entry=nav, user="setup")
    approve_by_another(document_id)


def pdf_text(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages).split())


def amounts(statement, key: str) -> list[Decimal]:
    (account,) = statement.positions[0].accounts
    return [a.amount for a in account.line(key).amounts]


def test_q4_statement_of_the_sample_with_a_q3_nav_flags_the_unexplained_gain(sample):
    """POSITION_1: DOC001 (2025-09-30) call 500,000 (Pending), distribution 75,000, NAV 445,000;
    DOC002 (2025-12-31) call 750,000, distribution 120,000 (Pending).
    QTD: 445,000 + 750,000 - 120,000 = 1,075,000, reconciles.
    YTD and ITD: 0 + 1,250,000 - 195,000 = 1,055,000 against an ending 1,075,000: the 20,000 the
    September NAV holds beyond its flows (a gain nobody recorded) is the unreconciled difference."""
    record_nav("DOC001", 445_000, Q3)
    statement = position_capital_account(position_id="POSITION_1", period=quarter(2025, 4))
    (account,) = statement.positions[0].accounts
    assert [c.key for c in account.columns] == ["qtd", "ytd", "itd"]
    assert amounts(statement, "beginning_nav") == [Decimal(445_000), 0, 0]
    assert amounts(statement, "contributions") == [Decimal(750_000), Decimal(1_250_000), Decimal(1_250_000)]
    assert amounts(statement, "distributions") == [Decimal(-120_000), Decimal(-195_000), Decimal(-195_000)]
    assert amounts(statement, "ending_nav") == [Decimal(1_075_000)] * 3
    assert amounts(statement, "difference") == [0, Decimal(20_000), Decimal(20_000)]
    assert account.line("difference").flagged and not account.reconciles
    assert account.commitment.amount == Decimal(2_000_000)
    assert account.contributions_to_date.amount == Decimal(1_250_000)
    assert account.unfunded.amount == Decimal(750_000)
    assert (account.dpi, account.tvpi) == (Decimal("0.16"), Decimal("1.02"))
    assert account.irr_percent == Decimal("20.0")  # the position page's IRR as of 2025-12-31


def test_the_pdf_states_the_columns_names_and_the_flagged_line(sample, analyst_client):
    record_nav("DOC001", 445_000, Q3)
    response = analyst_client.get(f"{STATEMENT}.pdf?period=2025Q4")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert 'filename="statement-POSITION_1-2025Q4.pdf"' in response["Content-Disposition"]
    text = pdf_text(response)
    assert "Capital account statement" in text and "Period 2025Q4: 2025-10-01 to 2025-12-31" in text
    assert re.search(r"QTD .*YTD .*ITD", text)
    assert "Beginning NAV USD 445,000.00 USD 0.00 USD 0.00" in text
    assert "Ending NAV USD 1,075,000.00 USD 1,075,000.00 USD 1,075,000.00" in text
    assert "Unreconciled difference — flagged" in text and "USD 20,000.00" in text
    assert "IRR 20.0 %" in text


def test_the_summary_statement_stays_at_its_url_without_a_period(sample, analyst_client):
    response = analyst_client.get(f"{STATEMENT}.pdf")
    text = pdf_text(response)
    assert "Cash flows and statements" in text and "QTD" not in text


def test_the_xlsx_holds_the_columns_as_numbers_with_formats(sample, analyst_client):
    record_nav("DOC001", 445_000, Q3)
    response = analyst_client.get(f"{STATEMENT}.xlsx?period=2025Q4")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content))["Capital account"]
    rows = {row[0].value: row for row in sheet.iter_rows() if isinstance(row[0].value, str)}
    header = next(r for label, r in rows.items() if label.startswith("POSITION_1 (FUND_A / INVESTOR_1) USD"))
    assert [c.value for c in header[1:4]] == ["QTD", "YTD", "ITD"]
    ending = rows["Ending NAV"]
    assert [c.value for c in ending[1:4]] == [1_075_000] * 3
    assert ending[1].number_format == '#,##0.00 "USD"'
    assert [c.value for c in rows["Unreconciled difference (flagged: does not reconcile)"][1:4]] == [0, 20_000, 20_000]
    assert rows["TVPI"][1].value == pytest.approx(1.016) and rows["TVPI"][1].number_format == '0.0000"x"'
    assert rows["IRR"][1].number_format == "0.00%" and rows["IRR"][1].value == pytest.approx(0.2, abs=0.001)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("period=2025Q5", "period must be a quarter (2025Q4) or a year (2025)"),
        ("period=25", "period must be a quarter (2025Q4) or a year (2025)"),
        ("start=2025-10-01", "give both start and end (YYYY-MM-DD), or a period"),
        ("start=2025-12-01&end=2025-10-01", "start must be on or before end"),
        ("start=2025-13-01&end=2025-12-31", "start must be a date, YYYY-MM-DD"),
        ("period=2025&start=2025-01-01&end=2025-03-31", "give either period or start and end, not both"),
        ("period=1800", "period must be between 1900-01-01 and 2100-12-31"),
    ],
)
def test_a_bad_period_is_a_400_with_its_message(sample, analyst_client, query, message):
    response = analyst_client.get(f"{STATEMENT}.xlsx?{query}")
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_position_statement_reads_one_query_and_the_names(sample, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(2, ["Query", "BatchGetItem"]):
        response = analyst_client.get(f"{STATEMENT}.xlsx?period=2025")
    assert response.status_code == 200


def test_a_custom_period_adds_its_own_column(sample):
    from fundportal.domain.periods import parse_period

    period = parse_period(None, "2025-11-15", "2025-12-31")
    statement = position_capital_account(position_id="POSITION_1", period=period)
    (account,) = statement.positions[0].accounts
    assert [c.label for c in account.columns] == ["Period", "QTD", "YTD", "ITD"]
    assert amounts(statement, "contributions")[0] == Decimal(750_000)


def test_an_investor_statement_has_a_block_per_position_and_totals_per_currency(sample, analyst_client):
    record_nav("DOC001", 445_000, Q3)
    response = analyst_client.get("/investors/INVESTOR_1/statement.pdf?period=2025Q4")
    assert response.status_code == 200
    text = pdf_text(response)
    assert "Investor INVESTOR_1" in text and "POSITION_1 · FUND_A · USD" in text
    assert "Total across funds (USD)" in text
    xlsx = analyst_client.get("/investors/INVESTOR_1/statement.xlsx?period=2025Q4")
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    labels = [row[0].value for row in sheet.iter_rows()]
    assert "Total (USD)" in labels


def test_a_fund_zip_holds_every_lp_statement(sample, analyst_client):
    response = analyst_client.get("/funds/FUND_A/statements.zip?period=2025Q4")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert sorted(archive.namelist()) == ["statement-POSITION_1-2025Q4.pdf", "statement-POSITION_2-2025Q4.pdf"]
    assert all(archive.read(name).startswith(b"%PDF") for name in archive.namelist())


def test_an_unknown_fund_zip_is_a_404_before_the_download_starts(sample, analyst_client):
    assert analyst_client.get("/funds/NO_FUND/statements.zip?period=2025Q4").status_code == 404


@pytest.mark.parametrize(
    ("page", "action"),
    [
        ("/positions/POSITION_1/", "/positions/POSITION_1/statement.pdf"),
        ("/investors/INVESTOR_1/", "/investors/INVESTOR_1/statement.pdf"),
        ("/funds/FUND_A/", "/funds/FUND_A/statements.zip"),
    ],
)
def test_the_pages_link_their_statement_with_a_period_picker(sample, analyst_client, page, action):
    content = analyst_client.get(page).content.decode()
    assert 'data-testid="statement-picker"' in content and f'action="{action}"' in content
    assert 'name="period"' in content


def test_above_the_inline_limit_the_zip_is_built_by_a_job_its_user_downloads(
    sample, analyst_client, client, django_user_model, settings
):
    settings.STATEMENTS_ZIP_INLINE_MAX = 1
    response = analyst_client.get("/funds/FUND_A/statements.zip?period=2025Q4")
    assert response.status_code == 302 and "/funds/FUND_A/statements/" in response["Location"]
    page = analyst_client.get(response["Location"])
    assert 'data-state="done"' in page.content.decode() and "2 of 2 statements built" in page.content.decode()
    download = analyst_client.get(response["Location"].rstrip("/") + ".zip")
    archive = zipfile.ZipFile(io.BytesIO(b"".join(download.streaming_content)))
    assert sorted(archive.namelist()) == ["statement-POSITION_1-2025Q4.pdf", "statement-POSITION_2-2025Q4.pdf"]
    other = django_user_model.objects.create_user("other-analyst", password="pw-other-1234")
    client.force_login(other)
    assert client.get(response["Location"]).status_code == 404


def record(entry) -> None:
    services.entry_record(entry=entry, user="setup")


def allocations_in_the_sample(q4_nav: int) -> None:
    """The sample's POSITION_1 with a Q3 NAV its activity explains and, in DOC002 (Q4), a
    management fee of 10,000, a partnership expense of 2,500 and an unrealized gain of 50,000,
    and a Q4 NAV of `q4_nav`:
    Q3: 500,000 called - 75,000 distributed + 20,000 realized gain = 445,000 (the Q3 NAV).
    Q4: 445,000 + 750,000 - 120,000 - 10,000 - 2,500 + 50,000 = 1,112,500."""
    from fundportal.domain.position_entries import ManagementFee, PartnershipExpense, RealizedGain, UnrealizedGain

    ids = ("POSITION_1", "FUND_A", "INVESTOR_1")
    record(RealizedGain("DOC001", *ids, Decimal(20_000), "Active", as_of_date=Q3))
    record_nav("DOC001", 445_000, Q3)
    record(ManagementFee("DOC002", *ids, Decimal(10_000), "Completed", as_of_date=Q4, fee_line="gross"))
    record(PartnershipExpense("DOC002", *ids, Decimal(2_500), "Completed", as_of_date=Q4))
    record(UnrealizedGain("DOC002", *ids, Decimal(50_000), "Active", as_of_date=Q4))
    record_nav("DOC002", q4_nav, Q4)


def test_position_1_q4_after_a_fee_an_expense_and_a_gain_reconciles_in_every_column(sample, analyst_client):
    allocations_in_the_sample(1_112_500)
    statement = position_capital_account(position_id="POSITION_1", period=quarter(2025, 4))
    assert amounts(statement, "beginning_nav") == [Decimal(445_000), 0, 0]
    assert amounts(statement, "contributions") == [Decimal(750_000), Decimal(1_250_000), Decimal(1_250_000)]
    assert amounts(statement, "distributions") == [Decimal(-120_000), Decimal(-195_000), Decimal(-195_000)]
    assert amounts(statement, "management_fees") == [Decimal(-10_000)] * 3
    assert amounts(statement, "fees_gross") == [Decimal(-10_000)] * 3
    assert amounts(statement, "partnership_expenses") == [Decimal(-2_500)] * 3
    assert amounts(statement, "realized_gain") == [0, Decimal(20_000), Decimal(20_000)]
    assert amounts(statement, "unrealized_gain") == [Decimal(50_000)] * 3
    assert amounts(statement, "ending_nav") == [Decimal(1_112_500)] * 3
    (account,) = statement.positions[0].accounts
    assert account.reconciles and "difference" not in [line.key for line in account.lines]
    assert account.figures.adjusted_nav.amount == Decimal(1_112_500)  # RVPI/TVPI on the same NAV
    text = pdf_text(analyst_client.get(f"{STATEMENT}.pdf?period=2025Q4"))
    assert "Management fees (net) USD -10,000.00 USD -10,000.00 USD -10,000.00" in text
    assert "Reconciles: beginning NAV + activity = ending NAV in every column." in text
    assert "Unreconciled difference" not in text


def test_an_inconsistent_q4_nav_shows_the_flagged_difference_line(sample, analyst_client):
    allocations_in_the_sample(1_100_000)  # 12,500 below what the activity explains
    statement = position_capital_account(position_id="POSITION_1", period=quarter(2025, 4))
    assert amounts(statement, "difference") == [Decimal(-12_500)] * 3
    (account,) = statement.positions[0].accounts
    assert account.line("difference").flagged and not account.reconciles
    xlsx = analyst_client.get(f"{STATEMENT}.xlsx?period=2025Q4")
    sheet = load_workbook(io.BytesIO(xlsx.content))["Capital account"]
    flagged = next(
        r for r in sheet.iter_rows() if r[0].value == "Unreconciled difference (flagged: does not reconcile)"
    )
    assert [c.value for c in flagged[1:4]] == [-12_500] * 3
    assert flagged[0].fill.fgColor.rgb.endswith("FFC7CE")


def test_an_investor_statement_reads_its_index_the_fund_names_and_each_position(
    sample, analyst_client, django_assert_dynamodb_requests
):
    # INVESTOR_1 holds POSITION_1 only in the sample.
    with django_assert_dynamodb_requests(3, ["Query", "BatchGetItem", "Query"]):
        response = analyst_client.get("/investors/INVESTOR_1/statement.xlsx?period=2025Q4")
    assert response.status_code == 200


def test_names_from_the_records_head_the_statement(sample, analyst_client):
    from fundportal.domain.records import FundRecord, InvestorRecord
    from funds.record_services import fund_record_set, investor_record_set

    fund_record_set(FundRecord("FUND_A", "Alpha Growth Fund I"), expected_revision=0, user="setup")
    investor_record_set(InvestorRecord("INVESTOR_1", "Teachers Pension Plan"), expected_revision=0, user="setup")
    text = pdf_text(analyst_client.get(f"{STATEMENT}.pdf?period=2025Q4"))
    assert "Fund Alpha Growth Fund I (FUND_A)" in text and "Investor Teachers Pension Plan (INVESTOR_1)" in text


def test_known_at_states_the_period_as_the_portal_knew_it_then(sample):
    """The Q3 NAV is recorded now: as known at 2026-01-01 there is none, and the capital account
    is its flows rolled forward from zero (1,250,000 - 195,000), reconciling."""
    from datetime import UTC, datetime

    record_nav("DOC001", 445_000, Q3)
    then = datetime(2026, 1, 1, tzinfo=UTC)
    statement = position_capital_account(position_id="POSITION_1", period=quarter(2025, 4), known_at=then)
    assert amounts(statement, "beginning_nav") == [Decimal(425_000), 0, 0]
    assert amounts(statement, "ending_nav") == [Decimal(1_055_000)] * 3
    assert statement.reconciles and statement.known_at == then


def test_without_a_period_the_xlsx_states_the_quarter_holding_today(sample, analyst_client):
    today = date.today()
    response = analyst_client.get(f"{STATEMENT}.xlsx")
    assert response.status_code == 200
    label = f"{today.year}Q{(today.month - 1) // 3 + 1}"
    assert f'filename="statement-POSITION_1-{label}.xlsx"' in response["Content-Disposition"]
