"""The ILPA capital account statement as files: a PDF (WeasyPrint, from the Jinja2 template
`exports/capital_account.html`) and an XLSX (xlsxwriter: one sheet, a block per position and
currency; amounts numbers with their currency's format, ratios `0.0000"x"`, IRR a fraction with
`0.00%`, dates real dates)."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string

from fundportal.domain.amounts import excel_format
from fundportal.domain.capital_account import ACTIVITY, BALANCE, DETAIL, CurrencyAccount
from fundportal.domain.ratios import dpi, rvpi, tvpi

from .capital_account import CapitalAccountStatement, PositionAccount
from .writers import PERCENT_FORMAT, RATIO_FORMAT, neutralised

TEMPLATE = "exports/capital_account.html"


def statement_html(statement: CapitalAccountStatement, *, generated_by: str) -> str:
    return render_to_string(TEMPLATE, {"statement": statement, "generated_by": generated_by})


def statement_pdf(statement: CapitalAccountStatement, *, generated_by: str) -> bytes:
    from weasyprint import HTML

    return HTML(string=statement_html(statement, generated_by=generated_by)).write_pdf()


def statement_xlsx(statement: CapitalAccountStatement) -> bytes:
    import xlsxwriter

    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False})
    sheet = workbook.add_worksheet("Capital account")
    sheet.set_column(0, 0, 34)
    sheet.set_column(1, 4, 18)
    formats: dict[tuple[str, bool, bool], Any] = {}

    def fmt(kind: str, *, bold: bool = False, flagged: bool = False) -> Any:
        key = (kind, bold, flagged)
        if key not in formats:
            spec: dict[str, Any] = {"bold": bold}
            if kind == "date":
                spec["num_format"] = "yyyy-mm-dd"
            elif kind == "ratio":
                spec["num_format"] = RATIO_FORMAT
            elif kind == "percent":
                spec["num_format"] = PERCENT_FORMAT
            elif kind != "text":
                spec["num_format"] = excel_format(kind)
            if flagged:
                spec.update(font_color="#9c0006", bg_color="#ffc7ce")
            formats[key] = workbook.add_format(spec)
        return formats[key]

    row = 0
    title = "Capital account statement"
    sheet.write(row, 0, title, fmt("text", bold=True))
    row += 1
    subject = f"{statement.subject.capitalize()} {statement.subject_id}"
    if statement.investor_name:
        subject += f" · {statement.investor_name}"
    sheet.write(row, 0, neutralised(subject))
    row += 1
    sheet.write(row, 0, "Period")
    sheet.write(row, 1, statement.period.label)
    sheet.write_datetime(row, 2, _datetime(statement.period.start), fmt("date"))
    sheet.write_datetime(row, 3, _datetime(statement.period.end), fmt("date"))
    row += 1
    sheet.write(row, 0, "As of")
    sheet.write_datetime(row, 1, _datetime(statement.as_of), fmt("date"))
    if statement.known_at is not None:
        sheet.write(row, 2, "As known at")
        sheet.write(row, 3, f"{statement.known_at.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC")
    row += 2
    blocks: list[tuple[PositionAccount | None, CurrencyAccount]] = [
        (p, a) for p in statement.positions for a in p.accounts
    ]
    if statement.subject == "investor":
        blocks += [(None, a) for a in statement.totals]
    for position, account in blocks:
        if position is None:
            heading = f"Total ({account.currency})"
        else:
            names = " · ".join(filter(None, [position.fund_name, position.investor_name]))
            heading = f"{position.position_id} ({position.fund_id} / {position.investor_id}) {account.currency}"
            heading += f" — {names}" if names else ""
        sheet.write(row, 0, neutralised(heading), fmt("text", bold=True))
        for index, column in enumerate(account.columns):
            sheet.write(row, 1 + index, column.label, fmt("text", bold=True))
        row += 1
        row = _write_block(sheet, fmt, row, account) + 1
    workbook.close()
    return buffer.getvalue()


def _write_block(sheet: Any, fmt: Any, row: int, account: CurrencyAccount) -> int:
    code = account.currency
    sheet.write(row, 0, "From")
    for index, column in enumerate(account.columns):
        if column.start is None:
            sheet.write(row, 1 + index, "inception")
        else:
            sheet.write_datetime(row, 1 + index, _datetime(column.start), fmt("date"))
    row += 1
    for line in account.lines:
        bold = line.role in (BALANCE, ACTIVITY)
        label = f"    {line.label}" if line.role == DETAIL else line.label
        if line.flagged:
            label += " (flagged: does not reconcile)"
        sheet.write(row, 0, label, fmt("text", bold=bold, flagged=line.flagged))
        for index, amount in enumerate(line.amounts):
            sheet.write_number(row, 1 + index, float(amount.amount), fmt(code, bold=bold, flagged=line.flagged))
        row += 1
    row += 1
    sheet.write(row, 0, f"As of {account.columns[-1].end.isoformat()}", fmt("text", bold=True))
    row += 1
    figures: list[tuple[str, Any, str]] = [
        ("Commitment", account.commitment.amount if account.commitment else None, code),
        ("Contributions to date", account.contributions_to_date.amount, code),
        ("Distributions to date", account.figures.distributed.amount, code),
        ("Recallable distributions", account.recallable.amount, code),
        ("Unfunded commitment", account.unfunded.amount if account.unfunded else None, code),
        ("DPI", _exact(account, "dpi"), "ratio"),
        ("RVPI", _exact(account, "rvpi"), "ratio"),
        ("TVPI", _exact(account, "tvpi"), "ratio"),
        ("IRR", account.irr, "percent"),
    ]
    for label, value, kind in figures:
        sheet.write(row, 0, label)
        if value is None:
            sheet.write(row, 1, "—")
        else:
            sheet.write_number(row, 1, float(value), fmt(kind))
        row += 1
    return row


def _exact(account: CurrencyAccount, name: str) -> Decimal | None:
    """The ratio unrounded (the file's format shows 4 places)."""
    function = {"dpi": dpi, "rvpi": rvpi, "tvpi": tvpi}[name]
    return function(account.figures, exact=True)


def _datetime(on: date) -> datetime:
    return datetime(on.year, on.month, on.day)
