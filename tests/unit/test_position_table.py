"""Natural order of ids and the document page's sorting and filtering (no DynamoDB)."""

from __future__ import annotations

import random
from decimal import Decimal

from documents.position_table import TableQuery, arrange, natural_key
from documents.selectors import PositionRow, figures_text
from fundportal.domain.figures_builder import figures_by_currency
from fundportal.domain.kinds import POSITION_KINDS
from fundportal.domain.position_entries import CapitalCall, Distribution
from fundportal.web.cells import entry_cell


def test_natural_order_puts_position_2_before_position_10():
    ids = [f"POSITION_{n}" for n in range(1, 101)]
    shuffled = random.Random(3).sample(ids, len(ids))
    assert sorted(shuffled, key=natural_key) == ids
    assert sorted(["a10b2", "a10b10", "a9", "A9", "b1"], key=natural_key) == ["A9", "a9", "a10b2", "a10b10", "b1"]


def row(n: int, call: int | None, distribution: int, status: str = "Completed", investor: str = "INVESTOR_1"):
    common = dict(document_id="D", position_id=f"POSITION_{n}", fund_id="F", investor_id=investor)
    entries = [Distribution(**common, amount=Decimal(distribution), status="Completed")]
    if call is not None:
        entries.insert(0, CapitalCall(**common, amount=Decimal(call), status=status))
    by_kind = {e.kind: e for e in entries}
    cells = [entry_cell(by_kind[k]) if k in by_kind else None for k in POSITION_KINDS]
    figures = figures_by_currency(entries)
    return PositionRow(
        document_id="D",
        position_id=f"POSITION_{n}",
        fund_id="F",
        investor_id=investor,
        cells=cells,
        figures=figures,
        shown=figures_text(figures),
    )


ROWS = [
    row(10, 500, 50),
    row(2, 900, 10, investor="INVESTOR_2"),
    row(1, None, 5),
    row(3, 700, 70, "Pending", "INVESTOR_2"),
]


def ids(table):
    return [r.position_id for r in table.rows]


def test_sort_by_amount_missing_last_and_natural_by_default():
    assert ids(arrange(ROWS, TableQuery())) == ["POSITION_1", "POSITION_2", "POSITION_3", "POSITION_10"]
    assert ids(arrange(ROWS, TableQuery(descending=True))) == ["POSITION_10", "POSITION_3", "POSITION_2", "POSITION_1"]
    by_call = arrange(ROWS, TableQuery(sort="capital_call", descending=True))
    assert ids(by_call) == ["POSITION_2", "POSITION_3", "POSITION_10", "POSITION_1"]  # no call: last
    assert ids(arrange(ROWS, TableQuery(sort="capital_call")))[-1] == "POSITION_1"
    assert ids(arrange(ROWS, TableQuery(sort="distribution"))) == [
        "POSITION_1",
        "POSITION_2",
        "POSITION_10",
        "POSITION_3",
    ]
    assert ids(arrange(ROWS, TableQuery(sort="dpi", descending=True)))[0] == "POSITION_3"  # 70/700 = 0.10


def test_filters_and_the_subtotal_of_the_rows_shown():
    table = arrange(ROWS, TableQuery(investor="investor_2"))
    assert ids(table) == ["POSITION_2", "POSITION_3"] and table.total_count == 4
    (subtotal,) = table.subtotal
    assert subtotal.called.amount == 1600 and subtotal.called_pending.amount == 700
    assert subtotal.distributed.amount == 80
    assert ids(arrange(ROWS, TableQuery(status="Pending"))) == ["POSITION_3"]
    assert ids(arrange(ROWS, TableQuery(position="position_1"))) == ["POSITION_1", "POSITION_10"]
    assert arrange(ROWS, TableQuery()).subtotal is None  # unfiltered: the document total says it all
