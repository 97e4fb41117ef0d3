"""The downloads as an analyst opens them in Excel (read back with openpyxl): real numbers with
number formats (shares as fractions shown in %, ratios to 4 places, amounts in the currency's
minor unit), real dates, rows in natural order, the TOTAL rows below the autofilter, no column
without a meaning, and a cash-flow sheet from which XIRR gives the portal's IRR."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from decimal import Decimal

import openpyxl
import pytest
import pyxirr
from openpyxl.utils import range_boundaries

from funds.selectors import fund_detail
from imports.services import import_apply, import_prepare
from positions.selectors import position_history
from tests.approving import approve_by_another
from tests.notices import csv_bytes, row

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uploads")]

POSITION_1_NAV = {
    "kind": "nav",
    "position_id": "POSITION_1",
    "fund_id": "FUND_A",
    "investor_id": "INVESTOR_1",
    "currency": "USD",
    "amount": "445000",
    "status": "Active",
}


def _sheet(content: bytes, name: str | None = None):
    workbook = openpyxl.load_workbook(io.BytesIO(content))
    return workbook[name] if name else workbook.active


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _records(sheet) -> list[dict]:
    header = [c.value for c in sheet[1]]
    return [dict(zip(header, (c.value for c in r), strict=False)) for r in sheet.iter_rows(min_row=2)]


def _filtered_last_row(sheet) -> int:
    _, _, _, last = range_boundaries(sheet.auto_filter.ref)
    return last


def _import_positions(ids: list[str]) -> None:
    """One notice of FUND_N with a call for each position id, all held by investor NI_000."""
    rows = [row(position_id=p, amount=f"{1_000 * (n + 1):,}.00") for n, p in enumerate(ids)]
    prepared = import_prepare(data=csv_bytes(rows), filename="natural.csv")
    import_apply(prepared=prepared, user="t", workers=1)


def test_position_cash_flows_give_the_portal_irr_in_xirr(sample, editor_client):
    """XIRR over the cash_flows sheet's dates and amounts (the rows inside its filter) is the
    IRR the position page shows for POSITION_1, to its basis point."""
    assert editor_client.post("/documents/DOC001/entries/new/", POSITION_1_NAV).status_code == 302
    approve_by_another("DOC001")  # DOC001 is approved: the NAV counts once another user approves it
    (line,) = position_history(position_id="POSITION_1").headline
    assert line.irr is not None
    content = editor_client.get("/positions/POSITION_1/export.xlsx").content
    sheet = _sheet(content, "cash_flows")
    last = _filtered_last_row(sheet)
    flows = [r for r in _records(sheet)[: last - 1] if r["currency"] == "USD"]
    assert [r["what"] for r in flows][-1] == "nav_as_of"
    assert all(isinstance(r["date"], datetime) for r in flows)
    assert flows[-1]["date"].date() == date.today()
    rate = pyxirr.xirr([r["date"].date() for r in flows], [r["cash_flow"] for r in flows])
    assert abs(Decimal(repr(rate)) - line.irr) <= Decimal("0.00005")
    total = sheet.cell(row=last + 1, column=6)
    assert total.value == pytest.approx(float(line.irr)) and total.number_format == "0.00%"


def test_position_cash_flows_as_of_a_date_end_with_the_nav_rolled_forward_to_it(sample, editor_client):
    """As of 2025-12-31: 445,000 NAV of 2025-09-30 adjusted by DOC002 to 1,075,000 (the statement's
    figures), IRR 20.0 % (hand-computed in tests/unit/test_valuation.py)."""
    assert editor_client.post("/documents/DOC001/entries/new/", POSITION_1_NAV).status_code == 302
    approve_by_another("DOC001")  # DOC001 is approved: the NAV counts once another user approves it
    content = editor_client.get("/positions/POSITION_1/export.xlsx?as_of=2025-12-31").content
    sheet = _sheet(content, "cash_flows")
    flows = _records(sheet)[: _filtered_last_row(sheet) - 1]
    assert (flows[-1]["date"].date(), flows[-1]["cash_flow"]) == (date(2025, 12, 31), 1_075_000)
    rate = pyxirr.xirr([r["date"].date() for r in flows], [r["cash_flow"] for r in flows])
    assert round(rate, 3) == 0.2


def test_position_rows_carry_the_dates_their_flows_count_on(sample, analyst_client):
    sheet = _sheet(analyst_client.get("/positions/POSITION_1/export.xlsx").content)
    records = _records(sheet)
    assert [r["document_id"] for r in records] == ["DOC001", "DOC002", "TOTAL"]
    assert all(isinstance(r["call_due_date"], datetime) for r in records[:2])
    assert _filtered_last_row(sheet) == 3  # the header and the two documents; TOTAL below
    text = analyst_client.get("/positions/POSITION_1/export.csv").content.decode()
    first = next(csv.DictReader(io.StringIO(text)))
    assert date.fromisoformat(first["call_due_date"]) and first["dpi_to_date"] == "0.1500"


def test_fund_workbook_holds_fractions_ratios_amounts_and_dates_with_formats(sample, analyst_client):
    (line,) = [line for line in fund_detail(fund_id="FUND_A").lines if line.position_id == "POSITION_1"]
    sheet = _sheet(analyst_client.get("/funds/FUND_A/export.xlsx").content)
    header = [c.value for c in sheet[1]]
    assert "percent_called" not in header and "irr_percent" not in header
    at = {name: index + 1 for index, name in enumerate(header)}
    (row_number,) = [r for r in range(2, sheet.max_row + 1) if sheet.cell(r, at["position_id"]).value == "POSITION_1"]
    share = sheet.cell(row_number, at["called_share"])
    assert share.number_format == "0.00%"
    assert Decimal(repr(share.value)) * 100 == line.percent_called == Decimal("62.5")
    called = sheet.cell(row_number, at["called"])
    assert called.value == 1_250_000 and called.number_format == '#,##0.00 "USD"'
    dpi = sheet.cell(row_number, at["dpi"])
    assert dpi.value == 0.156 and dpi.number_format == '0.0000"x"'  # unrounded (0.16x on the page)
    assert isinstance(sheet.cell(row_number, at["as_of"]).value, datetime)
    assert sheet.cell(row_number, at["as_of"]).number_format == "yyyy-mm-dd"
    last = _filtered_last_row(sheet)
    assert sheet.cell(last + 1, at["investor_id"]).value == "TOTAL"
    assert "TOTAL" not in {sheet.cell(r, at["investor_id"]).value for r in range(2, last + 1)}


def test_every_export_lists_positions_in_natural_order(backend, analyst_client):
    _import_positions(["P_10", "P_2", "P_1"])
    natural = ["P_1", "P_2", "P_10"]
    fund = _records(_sheet(analyst_client.get("/funds/FUND_N/export.xlsx").content))
    assert [r["position_id"] for r in fund if r["position_id"] != "TOTAL"] == natural
    fund_csv = _body(analyst_client.get("/funds/FUND_N/export.csv")).decode()
    assert [r["position_id"] for r in csv.DictReader(io.StringIO(fund_csv))] == natural
    investor = _records(_sheet(_body(analyst_client.get("/investors/NI_000/export.xlsx"))))
    assert [r["position_id"] for r in investor if r["position_id"] != "TOTAL"] == natural
    document_csv = _body(analyst_client.get("/documents/NOTICE_1/export.csv")).decode()
    assert [r["position_id"] for r in csv.DictReader(io.StringIO(document_csv))] == natural
    document = _records(_sheet(_body(analyst_client.get("/documents/NOTICE_1/export.xlsx"))))
    assert [r["position_id"] for r in document] == [*natural, "TOTAL"]


def test_document_export_has_one_nav_column_and_no_tvpi_and_its_total_outside_the_filter(sample, analyst_client):
    sheet = _sheet(_body(analyst_client.get("/documents/DOC001/export.xlsx")))
    header = [c.value for c in sheet[1]]
    assert header.count("nav") == 1 and "tvpi" not in header
    last = _filtered_last_row(sheet)
    assert sheet.cell(last + 1, header.index("position_id") + 1).value == "TOTAL"
    assert "TOTAL" not in {sheet.cell(r, header.index("position_id") + 1).value for r in range(2, last + 1)}
