"""On the web (moto): the import pages (editors only; upload → preview → confirm), the
templates, XLSX/CSV exports read back and compared with the pages' figures, the statement PDF,
and forms that accept thousands separators."""

from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pypdf import PdfReader

from documents import selectors
from documents.approval import document_approve
from documents.forms import EntryForm
from fundportal.domain.errors import NotFound
from positions.selectors import position_report
from tests.approving import approve_by_another
from tests.conftest import signed_in_editor
from tests.notices import csv_bytes, notice_rows, row

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uploads")]


@pytest.fixture
def editor_client(django_user_model) -> Client:
    return signed_in_editor(django_user_model, "importer")


def _upload(client: Client, data: bytes, name: str = "notice.csv"):
    return client.post("/documents/import/", {"file": SimpleUploadedFile(name, data)})


# --- import ------------------------------------------------------------------------------------


def test_viewers_cannot_import(backend, analyst_client, django_assert_dynamodb_requests):
    with django_assert_dynamodb_requests(0):
        assert analyst_client.get("/documents/import/").status_code == 403
        assert _upload(analyst_client, csv_bytes(notice_rows(1))).status_code == 403
        assert analyst_client.post("/documents/import/confirm/", {}).status_code == 403


def test_upload_preview_confirm(backend, editor_client, uploads):
    data = csv_bytes(notice_rows(2))
    preview = _upload(editor_client, data)
    assert preview.status_code == 200
    html = preview.content.decode()
    assert html.count('<tr data-row="') == 6 and "OK" in html
    assert "USD 2,500,001.00" in html  # the calls' control total
    assert 'action="/documents/import/confirm/"' in html
    stored = list(uploads.iterdir())
    assert [p.suffix for p in stored] == [".csv"] and stored[0].read_bytes() == data
    checksum = stored[0].stem
    with pytest.raises(NotFound):
        selectors.document_overview(document_id="NOTICE_1")  # nothing written before confirming
    done = editor_client.post(
        "/documents/import/confirm/", {"checksum": checksum, "filename": "notice.csv"}, follow=True
    )
    assert done.redirect_chain[-1][0].startswith("/documents/import/jobs/")  # the job's progress page
    html = done.content.decode()
    assert "Imported 6 rows from notice.csv into NOTICE_1" in html and 'href="/documents/NOTICE_1/"' in html
    (totals,) = selectors.document_overview(document_id="NOTICE_1").totals
    assert totals.called.amount == Decimal("2500001.00")
    assert not stored[0].exists()
    again = _upload(editor_client, data)
    assert 'data-testid="import-done"' in again.content.decode()


def test_a_bad_row_is_shown_with_row_column_and_reason_and_cannot_be_confirmed(backend, editor_client, uploads):
    rows = notice_rows(2)
    rows[3] = {**rows[3], "amount": "1,000"}
    response = _upload(editor_client, csv_bytes(rows))
    assert response.status_code == 400
    html = response.content.decode()
    assert "Row 5, <code>amount</code>: USD amounts have exactly 2 decimals (&#39;1,000&#39;)." in html
    assert "/documents/import/confirm/" not in html
    assert not uploads.exists() or not list(uploads.iterdir())


def test_confirm_needs_the_stored_file(backend, editor_client):
    response = editor_client.post(
        "/documents/import/confirm/", {"checksum": "0" * 64, "filename": "x.csv"}, follow=True
    )
    assert "no longer here" in response.content.decode()


def test_a_file_that_is_not_a_notice_is_refused(backend, editor_client):
    assert _upload(editor_client, b"a,b\n1,2\n").status_code == 400
    assert "Missing column(s)" in _upload(editor_client, b"a,b\n1,2\n").content.decode()
    assert _upload(editor_client, b"x", "notice.pdf").status_code == 400


def test_templates_download_and_validate(sample, analyst_client):
    """The example rows are the sample fund's: its two positions and one opened by new_position,
    then a capital account statement with every allocation kind and a split distribution."""
    text = analyst_client.get("/documents/import/template.csv").content.decode()
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert header[:3] == ["document_id", "title", "fund_id"] and len(rows) == 10
    assert header[11:13] == ["new_position", "document_type"]
    assert header[13:] == [
        "management_fee",
        "partnership_expense",
        "outside_commitment",
        "return_of_capital",
        "gain",
        "income",
        "recallable",
        "fee_line",
        "carry_stage",
    ]
    kinds = {row[header.index("kind")] for row in rows}
    assert {"management_fee", "partnership_expense", "realized_gain", "unrealized_gain", "carried_interest"} <= kinds
    workbook = openpyxl.load_workbook(io.BytesIO(analyst_client.get("/documents/import/template.xlsx").content))
    sheet = workbook.active
    assert [c.value for c in sheet[1]][:2] == ["document_id", "title"] and sheet.freeze_panes == "A2"
    from imports.services import import_prepare

    assert import_prepare(data=text.encode(), filename="t.csv").ok


# --- exports -----------------------------------------------------------------------------------


def test_document_xlsx_has_numbers_equal_to_the_page(sample, analyst_client):
    response = analyst_client.get("/documents/DOC001/export.xlsx")
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert response.streaming  # written row by row to a temporary file, then streamed
    sheet = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content))).active
    assert sheet.freeze_panes == "A2"
    header = [c.value for c in sheet[1]]
    rows = [dict(zip(header, (c.value for c in r), strict=True)) for r in sheet.iter_rows(min_row=2)]
    page = selectors.document_overview(document_id="DOC001")
    by_position = {r["position_id"]: r for r in rows}
    for position in page.rows:
        got = by_position[position.position_id]
        (f,) = position.figures
        assert (got["document_id"], got["fund_id"], got["investor_id"]) == ("DOC001", "FUND_A", position.investor_id)
        assert Decimal(str(got["called"])) == f.called.amount
        assert Decimal(str(got["distributed"])) == f.distributed.amount
    (total,) = page.totals
    totals = by_position["TOTAL"]
    assert Decimal(str(totals["called"])) == total.called.amount
    assert Decimal(str(totals["distributed"])) == total.distributed.amount
    called = header.index("called") + 1
    cell = sheet.cell(row=2, column=called)
    assert isinstance(cell.value, (int, float)) and '"USD"' in cell.number_format and "0.00" in cell.number_format


def test_position_xlsx_and_csv_carry_ids_and_exact_decimals(sample, analyst_client):
    report = position_report(position_id="POSITION_1")
    sheet = openpyxl.load_workbook(io.BytesIO(analyst_client.get("/positions/POSITION_1/export.xlsx").content)).active
    header = [c.value for c in sheet[1]]
    rows = [dict(zip(header, (c.value for c in r), strict=True)) for r in sheet.iter_rows(min_row=2)]
    assert [r["document_id"] for r in rows] == ["DOC001", "DOC002", "TOTAL"]
    assert {(r["position_id"], r["fund_id"], r["investor_id"]) for r in rows} == {
        ("POSITION_1", "FUND_A", "INVESTOR_1")
    }
    (f,) = report.figures
    assert Decimal(str(rows[-1]["called_to_date"])) == f.called.amount == Decimal(1_250_000)
    assert Decimal(str(rows[-1]["distributed_to_date"])) == f.distributed.amount

    text = analyst_client.get("/positions/POSITION_1/export.csv").content.decode()
    csv_rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["position_id"], r["fund_id"], r["investor_id"]) for r in csv_rows] == [
        ("POSITION_1", "FUND_A", "INVESTOR_1")
    ] * 2
    assert [(r["capital_call"], r["called_to_date"]) for r in csv_rows] == [
        ("500000.00", "500000.00"),
        ("750000.00", "1250000.00"),
    ]


def test_document_csv_and_formula_like_ids_are_neutralised(backend, editor_client):
    from imports.services import import_apply, import_prepare

    rows = [row(position_id="-SUM1", investor_id="-1", currency="JPY", amount="50,000,000")]
    prepared = import_prepare(data=csv_bytes(rows), filename="f.csv")
    import_apply(prepared=prepared, user="t", workers=1)
    response = editor_client.get("/documents/NOTICE_1/export.csv")
    assert response.streaming
    text = b"".join(response.streaming_content).decode()
    (only,) = list(csv.DictReader(io.StringIO(text)))
    assert (only["position_id"], only["investor_id"]) == ("'-SUM1", "'-1")
    assert (only["capital_call"], only["called"], only["currency"]) == ("50000000", "50000000", "JPY")


def test_statement_pdf_carries_the_position_figures(sample, analyst_client):
    response = analyst_client.get("/positions/POSITION_1/statement.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    text = " ".join(text.split())
    assert "Capital account statement" in text and "POSITION_1" in text and "INVESTOR_1" in text
    assert "Paid-in (called) USD 1,250,000.00" in text
    assert "Distributed USD 195,000.00" in text
    assert "DPI 0.16x" in text and "IRR" in text and "TVPI" in text
    early = analyst_client.get("/positions/POSITION_1/statement.pdf?as_of=2025-09-30")
    early_text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(early.content)).pages).split())
    assert "Paid-in (called) USD 500,000.00" in early_text and "DOC002" not in early_text
    assert analyst_client.get("/positions/POSITION_1/statement.pdf?as_of=30-09-2025").status_code == 400


# --- forms -------------------------------------------------------------------------------------


def test_entry_form_accepts_thousands_separators_and_shows_amounts_formatted():
    data = {
        "kind": "capital_call",
        "position_id": "P1",
        "fund_id": "F1",
        "investor_id": "I1",
        "amount": "1,250,000.00",
        "status": "Pending",
    }
    form = EntryForm(data)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["amount"] == Decimal("1250000.00")
    shown = EntryForm(initial={"amount": Decimal("500000")})
    assert 'value="500,000.00"' in str(shown["amount"])


def test_fund_xlsx_equals_the_fund_page(backend, analyst_client):
    from funds.selectors import fund_detail
    from imports.services import import_apply, import_prepare

    prepared = import_prepare(data=csv_bytes(notice_rows(3)), filename="f.csv")
    import_apply(prepared=prepared, user="t", workers=1)
    document_approve(document_id="NOTICE_1", user="approver")  # imported: counted once approved
    response = analyst_client.get("/funds/FUND_N/export.xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header = [c.value for c in sheet[1]]
    rows = [dict(zip(header, (c.value for c in r), strict=True)) for r in sheet.iter_rows(min_row=2)]
    page = fund_detail(fund_id="FUND_N")
    assert [r["position_id"] for r in rows] == ["NP_000", "NP_001", "NP_002", "TOTAL"]
    (total,) = page.totals
    assert Decimal(str(rows[-1]["called"])) == total.figures.called.amount == Decimal("3750003.00")
    assert Decimal(str(rows[-1]["unfunded"])) == total.figures.unfunded.amount
    assert all(r["fund_id"] == "FUND_N" for r in rows) and rows[0]["investor_id"] == "NI_000"


def test_statement_pdf_values_every_figure_as_of_its_date(sample, editor_client):
    """POSITION_1 with a NAV of 445,000 in DOC001 (2025-09-30). As of 2025-12-31 (D = the
    statement's date): adjusted NAV = 445,000 + 750,000 - 120,000 = 1,075,000; RVPI 0.86x;
    TVPI (195,000 + 1,075,000) / 1,250,000 = 1.02x; IRR (445,000 / 425,000) ** (365 / 92) - 1
    = 20.0 % (hand-computed in tests/unit/test_valuation.py). As of the NAV date: TVPI
    (75,000 + 445,000) / 500,000 = 1.04x, nothing rolled forward."""
    response = editor_client.post("/documents/DOC001/entries/new/", {**POSITION_1_NAV, "amount": "445000"})
    approve_by_another("DOC001")  # DOC001 is approved: the NAV counts once another user approves it
    assert response.status_code == 302

    def pdf(as_of: str) -> str:
        got = editor_client.get(f"/positions/POSITION_1/statement.pdf?as_of={as_of}")
        return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(got.content)).pages).split())

    year_end = pdf("2025-12-31")
    assert "NAV (2025-09-30) USD 445,000.00" in year_end
    assert "Adjusted NAV (2025-12-31) USD 1,075,000.00" in year_end
    assert "RVPI 0.86x TVPI 1.02x IRR 20.0 %" in year_end
    at_nav_date = pdf("2025-09-30")
    assert "Adjusted NAV (2025-09-30) USD 445,000.00" in at_nav_date and "TVPI 1.04x" in at_nav_date


def test_fund_xlsx_carries_the_nav_date_and_the_adjusted_nav(sample, editor_client):
    """The fund export's figures are the page's: NAV 445,000 as of 2025-09-30 for POSITION_1,
    adjusted to today by DOC002's call and distribution: 445,000 + 750,000 - 120,000 = 1,075,000."""
    nav = {**POSITION_1_NAV, "amount": "445000"}
    assert editor_client.post("/documents/DOC001/entries/new/", nav).status_code == 302
    approve_by_another("DOC001")
    sheet = openpyxl.load_workbook(io.BytesIO(editor_client.get("/funds/FUND_A/export.xlsx").content)).active
    rows = list(sheet.iter_rows(values_only=True))
    header = next(r for r in rows if r and "adjusted_nav" in r)
    first = next(dict(zip(header, r, strict=True)) for r in rows if r and "POSITION_1" in r)
    assert first["nav"] == 445000 and first["adjusted_nav"] == 1075000
    assert str(first["nav_as_of"])[:10] == "2025-09-30" and str(first["as_of"])[:10] == date.today().isoformat()
    assert first["tvpi"] == 1.016  # unrounded: (195,000 + 1,075,000) / 1,250,000


POSITION_1_NAV = {
    "kind": "nav",
    "position_id": "POSITION_1",
    "fund_id": "FUND_A",
    "investor_id": "INVESTOR_1",
    "status": "Active",
}
