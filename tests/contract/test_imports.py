"""Notice imports on moto and DynamoDB Local: a good file, every kind of bad row
(nothing written), an interrupted import re-run, a file mixing currencies. Files stay small here
(moto copies the table on every transaction); the 300-row file runs on DynamoDB Local."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from documents import selectors
from documents.entry_writes import entry_record
from documents.services import document_create
from fundportal.domain.errors import AlreadyImported, NotFound
from fundportal.domain.figures_builder import figures_by_currency
from fundportal.domain.model import Document
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.messages import describe
from fundportal.ops.register_repair import verify_positions
from fundportal.store.gateway import TableGateway
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.imports import ImportRepository, ImportRun
from fundportal.store.repositories.register import RegisterRepository
from imports import writing
from imports.services import ImportConflict, import_apply, import_prepare
from tests.notices import csv_bytes, notice_rows, row

pytestmark = pytest.mark.django_db


def _import(data: bytes, name: str = "notice.csv", workers: int = 1):
    prepared = import_prepare(data=data, filename=name)
    assert prepared.ok, prepared.validation.errors if prepared.validation else prepared.file_error
    return import_apply(prepared=prepared, user="importer", workers=workers)


def _items(backend) -> int:
    return backend.repository.count_partition("NOTICE_1")


def test_a_good_file_creates_the_document_with_exact_totals_and_an_audit_entry(backend):
    data = csv_bytes(notice_rows(4))
    result = _import(data)
    assert (result.rows, result.written, result.documents) == (12, 12, ["NOTICE_1"])
    page = selectors.document_overview(document_id="NOTICE_1")
    assert [r.position_id for r in page.rows] == ["NP_000", "NP_001", "NP_002", "NP_003"]
    (totals,) = page.totals
    assert totals.called.amount == Decimal("5000006.00")  # 4 x 1,250,000 + 0 + 1 + 2 + 3
    assert totals.distributed.amount == Decimal("4002.00")
    assert totals.unfunded.amount == Decimal("20000000.00")
    assert page.document.title == "Q1 2026 capital call" and page.document.fund_id == "FUND_N"
    (audit,) = backend.repository.audit_trail("NOTICE_1")
    assert audit.action == "import" and audit.user == "importer"
    assert audit.changes["file"] == [None, "notice.csv"] and audit.changes["rows"] == [None, 12]
    assert audit.changes["checksum"][1] == result.checksum and len(result.checksum) == 64
    # The register holds the same roll-up as the entries, per position.
    register = RegisterRepository().get("NP_001")
    assert (register.fund_id, register.investor_id, register.revision) == ("FUND_N", "NI_001", 1)
    # An imported document awaits approval: its entries are counted apart, not in the figures.
    assert register.figures()[0].called.amount == 0 and register.awaiting_documents == ("NOTICE_1",)
    assert selectors.document_overview(document_id="NOTICE_1").document.approval == "Submitted"
    (figures,) = register.awaiting_figures()
    assert figures.called.amount == Decimal("1250001.00") and figures.unfunded.amount == Decimal("5000000.00")


def test_a_second_run_of_the_same_file_changes_nothing(backend):
    data = csv_bytes(notice_rows(3))
    _import(data)
    before = _items(backend)
    again = import_prepare(data=data, filename="again.csv")
    assert not again.ok and again.done["rows"] == 9 and again.done["documents"] == ["NOTICE_1"]
    with pytest.raises(ValueError):
        import_apply(prepared=again, user="importer")
    assert _items(backend) == before
    assert len(backend.repository.audit_trail("NOTICE_1")) == 1


BAD_ROWS = [
    ({"document_id": "bad#id"}, "document_id", "document id"),
    ({"document_id": "import"}, "document_id", "reserved"),
    ({"title": ""}, "title", "missing"),
    ({"as_of_date": "2026-13-01"}, "as_of_date", "not a date"),
    ({"as_of_date": "1800-01-01"}, "as_of_date", "between 1900"),
    ({"due_date": "31/03/2026"}, "due_date", "YYYY-MM-DD"),
    ({"currency": "XYZ"}, "currency", "not one of"),
    ({"kind": "loan"}, "kind", "not one of"),
    ({"status": "Paid"}, "status", "not one of"),
    ({"amount": "1,250,000"}, "amount", "exactly 2 decimals"),
    ({"amount": "12,50.00"}, "amount", "not an amount"),
    ({"amount": "-5.00"}, "amount", "zero or more"),
    ({"amount": ""}, "amount", "missing"),
    ({"currency": "JPY", "amount": "5,000.00"}, "amount", "JPY amounts have no decimals"),
    ({"position_id": ""}, "position_id", "missing"),
    ({"title": "Another title"}, "title", "differs from row 2"),
    ({"investor_id": "NI_999"}, "investor_id", "differs from row 2"),
    ({"kind": "capital_call"}, "position_id", "Duplicate: row 2"),
]


@pytest.mark.parametrize(("change", "column", "reason"), BAD_ROWS, ids=[c for _, c, _ in BAD_ROWS])
def test_one_bad_row_writes_nothing_and_names_the_row_and_column(backend, change, column, reason):
    rows = notice_rows(2)  # rows 2-7 of the file; the bad one is the file's row 3 (NP_000's distribution)
    rows[1] = {**rows[1], **change}
    prepared = import_prepare(data=csv_bytes(rows), filename="bad.csv")
    assert not prepared.ok
    errors = prepared.validation.errors
    assert any(e.row == 3 and e.column == column and reason in e.reason for e in errors), errors
    assert {e.row for e in errors} == {3}
    with pytest.raises(ValueError):
        import_apply(prepared=prepared, user="importer")
    assert _items(backend) == 0


def test_rows_must_agree_with_the_register_and_an_existing_document(backend):
    _import(csv_bytes(notice_rows(1)))
    # The same position under another investor, in another document: the register refuses it.
    other = [row(document_id="NOTICE_2", position_id="NP_000", investor_id="NI_777", amount="5.00")]
    errors = import_prepare(data=csv_bytes(other), filename="b.csv").validation.errors
    assert [(e.row, e.column) for e in errors] == [(2, "investor_id")]
    assert "registered with investor_id 'NI_000'" in errors[0].reason
    # Adding to an existing document: its header must match, and an entry may not exist twice.
    added = [row(position_id="NP_050", investor_id="NI_050", fund_id="FUND_X", amount="5.00")]
    errors = import_prepare(data=csv_bytes(added), filename="c.csv").validation.errors
    assert ("fund_id", "NOTICE_1 exists with fund_id 'FUND_N'.") in [(e.column, e.reason) for e in errors]
    twice = [row(position_id="NP_000", investor_id="NI_000", amount="5.00")]
    errors = import_prepare(data=csv_bytes(twice), filename="d.csv").validation.errors
    assert errors[0].reason == "NOTICE_1 already has a capital_call for NP_000."


def test_entries_can_be_added_to_an_existing_document(backend):
    _import(csv_bytes(notice_rows(1)))
    _import(csv_bytes([row(position_id="NP_007", investor_id="NI_007", amount="7.00")]), "more.csv")
    (totals,) = selectors.document_overview(document_id="NOTICE_1").totals
    assert totals.called.amount == Decimal("1250007.00")
    assert [a.changes["file"][1] for a in backend.repository.audit_trail("NOTICE_1")] == ["more.csv", "notice.csv"]


def _assert_registers_equal_entries(positions=("NP_000", "NP_048", "NP_049")) -> None:
    """Every register equals its entries' figures (nothing counted twice, nothing missed)."""
    page = selectors.document_overview(document_id="NOTICE_1")
    for position in positions:
        entries = [e for r in page.rows if r.position_id == position for c in r.cells if c for e in [c.entry]]
        assert RegisterRepository().get(position).awaiting_figures()[0] == figures_by_currency(entries)[0]


def test_an_entry_someone_else_writes_into_an_existing_document_meanwhile_is_never_overwritten(backend):
    _import(csv_bytes(notice_rows(1)))  # NOTICE_1 exists: anyone may add entries to it
    rows = [row(position_id="NP_007", investor_id="NI_007", amount="7.00")]
    prepared = import_prepare(data=csv_bytes(rows), filename="more.csv")
    assert prepared.ok
    theirs = CapitalCall(
        document_id="NOTICE_1", position_id="NP_007", fund_id="FUND_N", investor_id="NI_007",
        amount=Decimal("5.00"), status="Active",
    )  # fmt: skip
    entry_record(entry=theirs, user="someone")
    with pytest.raises(ImportConflict) as conflict:
        import_apply(prepared=prepared, user="importer", workers=1)
    assert "NOTICE_1 got a capital_call for NP_007 from someone else" in describe(conflict.value)
    stored = backend.repository.entry("NOTICE_1", theirs.kind, "NP_007", consistent=True)
    assert (stored.amount, stored.updated_by) == (Decimal("5.00"), "someone")
    assert verify_positions().differences == []


def test_an_interrupted_import_rerun_ends_in_the_same_state_never_duplicated(backend, monkeypatch):
    data = csv_bytes(notice_rows(50))  # 150 entries of a new document, by BatchWriteItem
    prepared = import_prepare(data=data, filename="big.csv")
    real = ImportRepository.put_entries

    def crash_midway(self, entries, token, extra=(), workers=1, progress=None):
        real(self, list(entries)[:70], token)
        raise ConnectionError("the import's process died here")

    monkeypatch.setattr(ImportRepository, "put_entries", crash_midway)
    with pytest.raises(ConnectionError):
        import_apply(prepared=prepared, user="importer", workers=1)
    monkeypatch.setattr(ImportRepository, "put_entries", real)
    with pytest.raises(NotFound):  # not published: the document has no page yet
        selectors.document_overview(document_id="NOTICE_1")
    assert _items(backend) == 70
    assert RegisterRepository().get("NP_000") is None  # a register comes after its entries

    again = import_prepare(data=data, filename="big.csv")
    assert again.ok and again.validation.already == 70 and again.validation.to_write == 80
    result = import_apply(prepared=again, user="importer", workers=backend.workers(4))
    assert (result.written, result.already) == (80, 70)
    page = selectors.document_overview(document_id="NOTICE_1")
    assert len(page.rows) == 50 and _items(backend) == 150 + 1  # the entries and the document item
    (totals,) = page.totals
    assert totals.called.amount == sum(Decimal(1_250_000 + n) for n in range(50))
    _assert_registers_equal_entries()
    # Both runs stamped the first run's time: the entries are as one uninterrupted run writes them.
    assert len({r.cells[0].entry.updated_at for r in page.rows}) == 1


def test_a_rerun_refuses_when_someone_created_its_new_document_meanwhile(backend, monkeypatch):
    data = csv_bytes(notice_rows(2))

    def crash(*args):
        raise ConnectionError("the import's process died before its registers")

    monkeypatch.setattr(writing, "put_registers", crash)
    with pytest.raises(ConnectionError):  # the entries are in, the registers and document not
        import_apply(prepared=import_prepare(data=data, filename="n.csv"), user="importer", workers=1)
    monkeypatch.undo()
    header = notice_rows(1)[0]
    # Created in the instant between the create's look at the partition and the import's entries.
    monkeypatch.setattr(DocumentRepository, "leftover_entries", lambda self, document_id: 0)
    document_create(
        document=Document(
            document_id="NOTICE_1", title=header["title"], fund_id="FUND_N",
            as_of_date=date(2026, 3, 31), currency="USD",
        ),
        user="someone",
    )  # fmt: skip
    monkeypatch.undo()
    again = import_prepare(data=data, filename="n.csv")
    assert again.ok and not again.validation.plans[0].is_new
    with pytest.raises(ImportConflict) as conflict:
        import_apply(prepared=again, user="importer", workers=1)
    assert "created or removed by someone else" in describe(conflict.value)
    assert RegisterRepository().get("NP_000") is None  # nothing more was written
    # The import can no longer finish: its entries are never adopted by the document someone
    # created; a repair clears them, audited, and nothing counts them.
    report = verify_positions()
    assert {d.position_id for d in report.differences} == {"NP_000", "NP_001"}
    assert all("cannot finish" in d.problem for d in report.differences)
    assert verify_positions(repair=True).cleared == 6
    assert verify_positions().differences == []
    assert selectors.document_overview(document_id="NOTICE_1").rows == []
    (audit, _created) = backend.repository.audit_trail("NOTICE_1")
    assert (audit.action, audit.user, audit.changes["entries"]) == ("clear", "verify_positions", [6, 0])


@pytest.mark.parametrize("landed", [0, 1], ids=["no-register", "one-register-transaction"])
def test_a_crash_between_the_entries_and_the_registers_is_counted_once_on_rerun(backend, monkeypatch, landed):
    # 50 positions in groups of 40 (49 in production, each register with its kept version;
    # smaller here to keep the file small): each group's entries by BatchWriteItem, then that
    # group's registers' transaction.
    monkeypatch.setattr(writing, "POSITIONS_PER_TRANSACTION", 40)
    data = csv_bytes(notice_rows(50))
    prepared = import_prepare(data=data, filename="big.csv")
    real = writing.put_registers
    calls: list[int] = []

    def crash(uow, run, writes):
        if len(calls) == landed:
            raise ConnectionError("the import's process died between entries and registers")
        real(uow, run, writes)
        calls.append(len(writes))

    monkeypatch.setattr(writing, "put_registers", crash)
    with pytest.raises(ConnectionError):
        import_apply(prepared=prepared, user="importer", workers=1)
    monkeypatch.setattr(writing, "put_registers", real)
    # The first group's entries are in and no register counts them; or both groups' entries and
    # the first group's registers.
    written = 150 if landed else 40 * 3
    assert _items(backend) == written  # and the document is not published
    registered = [p for p in ("NP_000", "NP_040") if RegisterRepository().get(p) is not None]
    assert registered == (["NP_000"] if landed else [])
    # A repair meanwhile leaves the positions the import has not counted yet to the import.
    report = verify_positions(repair=True)
    waiting = {d.position_id for d in report.differences if "is unfinished" in d.problem}
    assert waiting == ({f"NP_{n:03d}" for n in range(40, 50)} if landed else {f"NP_{n:03d}" for n in range(40)})
    assert report.repaired == 0 and [d for d in report.differences if d.position_id not in waiting] == []

    again = import_prepare(data=data, filename="big.csv")
    assert again.ok and (again.validation.already, again.validation.to_write) == (written, 150 - written)
    import_apply(prepared=again, user="importer", workers=backend.workers(4))
    assert _items(backend) == 151
    _assert_registers_equal_entries()
    assert RegisterRepository().get("NP_000").revision == 1  # counted once, by one write
    assert verify_positions().differences == []


def test_a_register_moved_by_someone_else_during_the_import_keeps_both_writes(backend, monkeypatch):
    _import(csv_bytes(notice_rows(2)))  # NOTICE_1 registers NP_000 and NP_001
    rows = notice_rows(2, document_id="NOTICE_2")
    prepared = import_prepare(data=csv_bytes(rows), filename="second.csv")  # reads the registers
    real = writing.put_registers
    calls: list[int] = []

    def web_write_first(uow, run, writes):
        if not calls:  # a web user records a NAV for NP_000 after the import read its register
            entry = NetAssetValue(
                document_id="NOTICE_1", position_id="NP_000", fund_id="FUND_N", investor_id="NI_000",
                amount=Decimal("777.00"), status="Active",
            )  # fmt: skip
            entry_record(entry=entry, user="someone")
        calls.append(len(writes))
        real(uow, run, writes)

    monkeypatch.setattr(writing, "put_registers", web_write_first)
    import_apply(prepared=prepared, user="importer", workers=1)
    assert len(calls) == 2  # the register transaction was refused once, re-read and retried
    register = RegisterRepository().get("NP_000")
    assert register.revision == 3  # NOTICE_1, the web write, NOTICE_2
    (figures,) = register.awaiting_figures()  # both documents await approval
    assert figures.nav.amount == Decimal("777.00")
    assert figures.called.amount == Decimal("2500000.00")  # 2 x 1,250,000 (position 0)
    assert verify_positions().differences == []


def test_a_run_that_finds_its_import_published_by_another_run_counts_nothing_twice(backend, monkeypatch):
    _import(csv_bytes(notice_rows(2, document_id="NOTICE_0")), "first.csv")  # registers NP_000, NP_001
    data = csv_bytes(notice_rows(2))
    slow = import_prepare(data=data, filename="notice.csv")  # reads NP_000's register now
    entry = NetAssetValue(
        document_id="NOTICE_0", position_id="NP_000", fund_id="FUND_N", investor_id="NI_000",
        amount=Decimal("9.00"), status="Active",
    )  # fmt: skip
    entry_record(entry=entry, user="someone")  # the slow run's register of NP_000 would miss this NAV
    real = writing.put_registers
    raced: list[int] = []

    def another_run_first(uow, run, writes):
        if not raced:
            raced.append(1)
            import_apply(prepared=import_prepare(data=data, filename="notice.csv"), user="other")
        real(uow, run, writes)  # the slow run's registers are refused: the run is published

    monkeypatch.setattr(writing, "put_registers", another_run_first)
    with pytest.raises(AlreadyImported) as lost:  # told who published it, not that it wrote the rows
        import_apply(prepared=slow, user="importer", workers=1)
    assert (lost.value.by, lost.value.documents) == ("other", ("NOTICE_1",)) and raced == [1]
    assert "already imported by other" in describe(lost.value)
    assert len(backend.repository.audit_trail("NOTICE_1")) == 1
    assert verify_positions().differences == []  # every register counts each entry once
    (figures,) = RegisterRepository().get("NP_000").awaiting_figures()
    assert figures.nav.amount == Decimal("9.00")


def test_a_later_import_drops_the_marker_of_a_published_one(backend):
    first = _import(csv_bytes(notice_rows(1)))
    assert RegisterRepository().get("NP_000").imports == (first.checksum[:16],)
    second = _import(csv_bytes(notice_rows(1, document_id="NOTICE_2")), "second.csv")
    assert RegisterRepository().get("NP_000").imports == (second.checksum[:16],)


def test_a_file_mixing_currencies_keeps_every_figure_per_currency(backend):
    rows = notice_rows(2, document_id="NOTICE_USD") + notice_rows(2, document_id="NOTICE_JPY", currency="JPY")
    rows = [{**r, "title": r["document_id"]} for r in rows]
    prepared = import_prepare(data=csv_bytes(rows), filename="mixed.csv")
    assert prepared.ok
    totals = {(t.document_id, t.currency, t.kind.slug): t.amount.amount for t in prepared.validation.totals}
    assert totals[("NOTICE_JPY", "JPY", "capital_call")] == Decimal(2_500_001)
    assert totals[("NOTICE_USD", "USD", "distribution")] == Decimal("2001.00")
    import_apply(prepared=prepared, user="importer", workers=1)
    (usd,) = selectors.document_overview(document_id="NOTICE_USD").totals
    (jpy,) = selectors.document_overview(document_id="NOTICE_JPY").totals
    assert (usd.currency, usd.called.amount) == ("USD", Decimal("2500001.00"))
    assert (jpy.currency, jpy.called.amount) == ("JPY", Decimal(2_500_001))
    # One position in both documents: its register keeps a roll-up per currency, never a mixed sum.
    by_currency = {f.currency: f.called.amount for f in RegisterRepository().get("NP_001").awaiting_figures()}
    assert by_currency == {"USD": Decimal("1250001.00"), "JPY": Decimal(1_250_001)}


def test_an_xlsx_notice_reads_like_the_csv(backend):
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    rows = notice_rows(2)
    sheet.append(list(rows[0]))
    for r in rows:
        values = list(r.values())
        values[8] = float(r["amount"].replace(",", ""))  # a number cell, as Excel stores it
        sheet.append(values)
    buffer = io.BytesIO()
    workbook.save(buffer)
    result = _import(buffer.getvalue(), "notice.xlsx")
    assert result.written == 6
    (totals,) = selectors.document_overview(document_id="NOTICE_1").totals
    assert totals.called.amount == Decimal("2500001.00")


@pytest.mark.local_only
def test_import_notice_command_300_rows_twice_and_a_bad_row(local_backend, tmp_path):
    good = tmp_path / "notice.csv"
    good.write_bytes(csv_bytes(notice_rows(100)))
    out = io.StringIO()
    call_command("import_notice", str(good), verbosity=0, stdout=out)
    assert "imported 300 rows (300 written, 0 already in) into NOTICE_1" in out.getvalue()
    (totals,) = selectors.document_overview(document_id="NOTICE_1").totals
    assert totals.called.amount == sum(Decimal(1_250_000 + n) for n in range(100))
    assert totals.distributed.amount == Decimal("100050.00")
    items = local_backend.repository.count_partition("NOTICE_1")
    out = io.StringIO()
    call_command("import_notice", str(good), verbosity=0, stdout=out)
    assert "already imported (300 rows" in out.getvalue() and "nothing written" in out.getvalue()
    assert local_backend.repository.count_partition("NOTICE_1") == items

    bad_rows = notice_rows(100, document_id="NOTICE_2")
    bad_rows[150] = {**bad_rows[150], "amount": "12.5"}
    bad = tmp_path / "bad.csv"
    bad.write_bytes(csv_bytes(bad_rows))
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 bad row"):
        call_command("import_notice", str(bad), verbosity=0, stdout=io.StringIO(), stderr=err)
    assert "row 152, amount: USD amounts have exactly 2 decimals ('12.5')." in err.getvalue()
    assert local_backend.repository.count_partition("NOTICE_2") == 0


def test_a_marker_whose_run_expired_counts_as_published(backend):
    repository = ImportRepository(TableGateway(backend.table))
    at = datetime(2026, 3, 31, tzinfo=UTC)
    writing_run = ImportRun("a" * 16, "a" * 64, at, "importer", ())
    published_run = ImportRun("b" * 16, "b" * 64, at, "importer", (), published=True)
    repository.gateway.batch_write([writing_run.to_item(), published_run.to_item()])
    gone = "c" * 16  # published, then removed by its time to live
    assert repository.published(["a" * 16, "b" * 16, gone]) == {"b" * 16, gone}
