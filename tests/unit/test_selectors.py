"""View models of `documents.selectors` and `positions.selectors` over the in-memory fakes."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from documents import selectors
from fundportal.domain.errors import NotFound
from fundportal.domain.figures_builder import figures_by_currency
from fundportal.domain.kinds import POSITION_KINDS, STATEMENT_KINDS, Kind
from fundportal.domain.model import Document
from fundportal.domain.money import money
from fundportal.domain.position_entries import CapitalCall, Distribution, UnfundedCommitment
from positions import selectors as position_selectors

from .fakes import FakeDocumentRepository, FakePositionRepository

AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
SEP, OCT, DEC = date(2025, 9, 30), date(2025, 10, 31), date(2025, 12, 31)


def _entry(cls, document_id, position_id, amount, currency, as_of, status="Completed"):
    return cls(
        document_id,
        position_id=position_id,
        fund_id="FUND_A",
        investor_id=position_id.replace("POSITION", "INVESTOR"),
        amount=Decimal(amount),
        currency=currency,
        status=status,
        as_of_date=as_of,
        updated_at=AT,
    )


def _m(amount: str, currency: str):
    return money(Decimal(amount), currency)


@pytest.fixture
def repo() -> FakeDocumentRepository:
    repo = FakeDocumentRepository()
    repo.add(
        Document("DOC1", title="Q3", as_of_date=SEP),
        entries=(
            _entry(Distribution, "DOC1", "POSITION_2", "30000", "JPY", SEP),  # mixed only by bulk load
            _entry(CapitalCall, "DOC1", "POSITION_2", "1000", "USD", SEP),
            _entry(UnfundedCommitment, "DOC1", "POSITION_1", "5000", "USD", SEP),
            _entry(CapitalCall, "DOC1", "POSITION_1", "250", "USD", SEP),
            _entry(CapitalCall, "DOC1", "POSITION_3", "999", "USD", SEP, status="Cancelled"),
        ),
    )
    repo.add(
        Document("DOC2", title="Q4", as_of_date=DEC),
        entries=(
            _entry(CapitalCall, "DOC2", "POSITION_1", "200", "USD", DEC, status="Pending"),
            _entry(Distribution, "DOC2", "POSITION_1", "50", "USD", DEC),
        ),
    )
    repo.add(
        Document("DOC3", title="October, in yen", as_of_date=OCT, currency="JPY"),
        entries=(_entry(CapitalCall, "DOC3", "POSITION_1", "100000", "JPY", OCT),),
    )
    return repo


@pytest.fixture
def positions(repo) -> FakePositionRepository:
    return FakePositionRepository(repo)


# --- documents.selectors ----------------------------------------------------------------------


def test_document_overview_rows_in_position_order_cells_in_kind_order(repo):
    page = selectors.document_overview(document_id="DOC1", repository=repo)

    assert [row.position_id for row in page.rows] == ["POSITION_1", "POSITION_2", "POSITION_3"]
    first, second = page.rows[:2]
    kinds = [cell.entry.kind if cell else None for cell in first.cells]
    # no NAV entry, none of the capital account's allocations
    assert kinds == [POSITION_KINDS[0], None, POSITION_KINDS[2], None] + [None] * len(STATEMENT_KINDS)
    assert [cell.entry.kind for cell in second.cells[:2]] == list(POSITION_KINDS[:2])
    assert [cell.amount for cell in second.cells[:2]] == [_m("1000", "USD"), _m("30000", "JPY")]
    assert second.cells[2] is None
    assert (first.fund_id, first.investor_id) == ("FUND_A", "INVESTOR_1")
    assert first.url == reverse("documents:position", args=("DOC1", "POSITION_1"))
    assert first.history_url == reverse("positions:detail", args=("POSITION_1",))
    assert [(f.currency, f.called, f.distributed) for f in second.figures] == [
        ("JPY", _m("0", "JPY"), _m("30000", "JPY")),
        ("USD", _m("1000", "USD"), _m("0", "USD")),
    ]
    cancelled = page.rows[2].cells[0]
    assert (cancelled.counts, cancelled.edit_url) == (False, "")


def test_document_overview_totals_are_per_currency_never_summed(repo):
    page = selectors.document_overview(document_id="DOC1", repository=repo)

    jpy, usd = page.totals
    assert (jpy.currency, usd.currency) == ("JPY", "USD")
    assert (jpy.called, jpy.distributed, jpy.unfunded) == (_m("0", "JPY"), _m("30000", "JPY"), None)
    assert (usd.called, usd.distributed) == (_m("1250", "USD"), _m("0", "USD"))  # Cancelled never counts
    assert usd.unfunded == _m("5000", "USD")
    assert (page.history_count, page.activity, page.currency) == (0, None, "USD")


def test_document_overview_with_edit_urls(repo):
    page = selectors.document_overview(document_id="DOC1", with_edit_urls=True, repository=repo)
    cell = page.rows[0].cells[0]
    assert cell.edit_url == reverse("documents:entry_edit", args=("DOC1", "capital_call", "POSITION_1"))
    assert cell.label == "Capital call of POSITION_1"


def test_document_overview_of_a_missing_document(repo):
    with pytest.raises(NotFound):
        selectors.document_overview(document_id="NOPE", repository=repo)


def test_position_in_document(repo):
    page = selectors.position_in_document(document_id="DOC1", position_id="POSITION_2", repository=repo)
    assert [(kind, cell is not None) for kind, _, cell in page.items] == [
        (Kind.CAPITAL_CALL, True),
        (Kind.DISTRIBUTION, True),
        (Kind.UNFUNDED_COMMITMENT, False),
        (Kind.NAV, False),
        *((kind, False) for kind in STATEMENT_KINDS),
    ]
    assert [f.called for f in page.figures] == [_m("0", "JPY"), _m("1000", "USD")]


def test_entry_and_header(repo):
    assert selectors.entry(document_id="DOC2", kind=Kind.DISTRIBUTION, position_id="POSITION_1", repository=repo)
    assert selectors.document_header(document_id="DOC3", repository=repo).currency == "JPY"


# --- positions.selectors ----------------------------------------------------------------------


def test_position_history_rows_by_as_of_date_with_running_figures_per_currency(positions):
    history = position_selectors.position_history(position_id="POSITION_1", repository=positions)

    assert [(r.document_id, r.as_of_date, r.currency) for r in history.rows] == [
        ("DOC1", SEP, "USD"),
        ("DOC3", OCT, "JPY"),
        ("DOC2", DEC, "USD"),
    ]
    doc1, doc3, doc2 = (row.to_date for row in history.rows)
    assert (doc1.currency, doc1.called, doc1.unfunded) == ("USD", _m("250", "USD"), _m("5000", "USD"))
    assert (doc3.currency, doc3.called, doc3.unfunded) == ("JPY", _m("100000", "JPY"), None)
    assert (doc2.called, doc2.called_pending, doc2.distributed) == (
        _m("450", "USD"),
        _m("200", "USD"),
        _m("50", "USD"),
    )
    assert [f.currency for f in history.figures] == ["JPY", "USD"]
    assert history.figures[1] == doc2
    assert (history.fund_id, history.start, history.page_number) == ("FUND_A", [], 1)
    assert (history.next_cursor, history.newer_cursor, history.is_paged) == (None, None, False)


def test_position_history_draws_one_chart_per_currency(positions):
    history = position_selectors.position_history(position_id="POSITION_1", repository=positions)

    jpy, usd = history.charts
    assert (jpy.currency, jpy.chart_id, usd.currency, usd.chart_id) == ("JPY", "chart", "USD", "chart-usd")
    assert [(p.as_of, p.called) for p in usd.points] == [(SEP, Decimal("250")), (DEC, Decimal("450"))]
    assert [(p.as_of, p.called) for p in jpy.points] == [(OCT, Decimal("100000"))]


def test_position_history_without_text_leaves_the_cells_words_empty_and_the_figures_alike(positions):
    shown = position_selectors.position_history(position_id="POSITION_1", repository=positions)
    bare = position_selectors.position_history(position_id="POSITION_1", repository=positions, text=False)

    shown_cells = [c for r in shown.rows for c in r.cells if c]
    bare_cells = [c for r in bare.rows for c in r.cells if c]
    assert [c.amount_text for c in shown_cells][:2] == ["USD 250.00", "USD 5,000.00"]
    assert {(c.amount_text, c.restated_text, c.parts_text) for c in bare_cells} == {("", "", "")}
    assert [(c.amount, c.status, c.counts, c.pending) for c in bare_cells] == [
        (c.amount, c.status, c.counts, c.pending) for c in shown_cells
    ]
    assert [r.to_date for r in bare.rows] == [r.to_date for r in shown.rows]


def test_a_position_row_shows_its_title_and_type_words_with_fallbacks(positions):
    row = position_selectors.position_history(position_id="POSITION_1", repository=positions).rows[0]

    document_id, position_id, as_of, title, document_type, type_words, flow, allocations, to_date = row.shown
    assert (document_id, position_id, as_of, title) == ("DOC1", "POSITION_1", SEP, row.document_title or "DOC1")
    assert (document_type, type_words) == (row.document_type or "", row.type_label or "—")
    assert (flow, allocations, to_date) == (row.flow_cells, row.allocation_cells, row.to_date)


def test_position_history_of_an_unknown_position(positions):
    with pytest.raises(NotFound):
        position_selectors.position_history(position_id="POSITION_9", repository=positions)


def test_position_report_figures_are_figures_by_currency(positions):
    report = position_selectors.position_report(position_id="POSITION_1", repository=positions)

    assert report.figures == figures_by_currency(report.entries)
    assert [(e.as_of_date, e.document_id, e.kind) for e in report.entries] == [
        (SEP, "DOC1", Kind.CAPITAL_CALL),
        (SEP, "DOC1", Kind.UNFUNDED_COMMITMENT),
        (OCT, "DOC3", Kind.CAPITAL_CALL),
        (DEC, "DOC2", Kind.CAPITAL_CALL),
        (DEC, "DOC2", Kind.DISTRIBUTION),
    ]
    assert [r.document_id for r in report.rows] == ["DOC1", "DOC3", "DOC2"]
    only_calls = position_selectors.position_report(
        position_id="POSITION_1", kind=Kind.CAPITAL_CALL, repository=positions
    )
    assert {e.kind for e in only_calls.entries} == {Kind.CAPITAL_CALL}
