"""The one computation of every figure: hand-computed cases (no DynamoDB, no Django)."""

import itertools
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from fundportal.domain.carry import from_carry, to_carry
from fundportal.domain.entries import CANCELLED, PENDING, SETTLED, counts, is_pending, latest_unfunded
from fundportal.domain.figures import Figures
from fundportal.domain.figures_builder import FiguresBuilder, figures_by_currency
from fundportal.domain.kinds import Kind
from fundportal.domain.money import money, zero
from fundportal.domain.ratios import ratio

CALL, DIST, UNF = Kind.CAPITAL_CALL, Kind.DISTRIBUTION, Kind.UNFUNDED_COMMITMENT
LOADED_AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
Q3, Q4 = date(2025, 9, 30), date(2025, 12, 31)


@dataclass(frozen=True)
class Entry:
    kind: Kind
    amount: Decimal
    status: str
    document_id: str = "DOC001"
    as_of_date: date | None = Q3
    currency: str = "USD"
    updated_at: datetime | None = LOADED_AT


def e(kind, amount, status, document_id="DOC001", as_of=Q3, currency="USD", at=LOADED_AT):
    return Entry(kind, Decimal(amount), status, document_id, as_of, currency, at)


POSITION_1 = [  # the seed sample
    e(CALL, 500000, "Pending"),
    e(DIST, 75000, "Completed"),
    e(UNF, 1500000, "Active"),
    e(CALL, 750000, "Completed", "DOC002", Q4),
    e(DIST, 120000, "Pending", "DOC002", Q4),
]


def usd(amount):
    return money(Decimal(amount), "USD")


def test_status_helpers():
    assert (PENDING, CANCELLED, SETTLED) == ("Pending", "Cancelled", ("Completed", "Active"))
    assert [counts(s) for s in ("Pending", "Completed", "Active", "Cancelled")] == [True, True, True, False]
    assert [is_pending(s) for s in ("Pending", "Completed", "Active", "Cancelled")] == [True, False, False, False]


def test_seed_position_1():
    [fig] = figures_by_currency(POSITION_1)
    assert fig.currency == "USD"
    assert (fig.called, fig.called_settled, fig.called_pending) == (usd(1250000), usd(750000), usd(500000))
    assert (fig.distributed, fig.distributed_settled, fig.distributed_pending) == (usd(195000), usd(75000), usd(120000))
    assert fig.dpi == Decimal("0.16")  # 0.156, half-even
    assert fig.dpi_settled == Decimal("0.10")
    assert (fig.unfunded, fig.unfunded_as_of) == (usd(1500000), Q3)
    assert fig == Figures("USD", usd(750000), usd(500000), usd(75000), usd(120000), usd(1500000), Q3)
    assert hash(fig) == hash(Figures("USD", usd(750000), usd(500000), usd(75000), usd(120000), usd(1500000), Q3))
    with pytest.raises(AttributeError):
        fig.currency = "EUR"


def test_two_currencies_are_never_summed():
    entries = [
        e(CALL, 1000, "Completed"),
        e(CALL, 200000, "Completed", currency="JPY"),
        e(DIST, 100, "Pending"),
        e(DIST, 50000, "Completed", currency="JPY"),
        e(UNF, 900000, "Active", currency="JPY"),
    ]
    jpy, usd_fig = figures_by_currency(entries)
    assert (jpy.currency, usd_fig.currency) == ("JPY", "USD")
    assert jpy.called == money(Decimal(200000), "JPY")
    assert jpy.dpi == Decimal("0.25")
    assert jpy.unfunded == money(Decimal(900000), "JPY")
    assert usd_fig.called == usd(1000) and usd_fig.distributed == usd(100)
    assert usd_fig.dpi == Decimal("0.10") and usd_fig.dpi_settled == Decimal("0.00")
    assert usd_fig.unfunded is None and usd_fig.unfunded_as_of is None
    with pytest.raises(TypeError):
        Figures("USD", usd(1), usd(1), usd(1), money(Decimal(1), "JPY"))


def test_cancelled_never_counts():
    cancelled = [
        e(CALL, 999, "Cancelled"),
        e(DIST, 999, "Cancelled"),
        e(UNF, 999, "Cancelled", "DOC009", date(2030, 1, 1)),
        e(CALL, 999, "Cancelled", currency="EUR"),
    ]
    assert figures_by_currency(POSITION_1 + cancelled) == figures_by_currency(POSITION_1)
    assert latest_unfunded(cancelled) is None
    assert figures_by_currency(cancelled) == []  # a Cancelled-only currency is not seen


def test_active_and_unknown_statuses_are_settled():
    [fig] = figures_by_currency([e(CALL, 10, "Active"), e(DIST, 5, "Completed")])
    assert (fig.called_settled, fig.called_pending, fig.distributed_settled) == (usd(10), usd(0), usd(5))


def test_unfunded_is_the_latest_not_a_sum():
    entries = [e(UNF, 1500000, "Active", "DOC001", Q3), e(UNF, 1000000, "Active", "DOC002", Q4)]
    [fig] = figures_by_currency(entries)
    assert (fig.unfunded, fig.unfunded_as_of) == (usd(1000000), Q4)
    assert latest_unfunded(entries) is entries[1]
    assert latest_unfunded([e(CALL, 1, "Pending")]) is None


def test_unfunded_pick_is_deterministic_in_any_order():
    later = datetime(2025, 10, 2, tzinfo=UTC)
    same_day = [
        e(UNF, 100, "Active", "DOC001", Q3, at=later),
        e(UNF, 200, "Active", "DOC003", Q3, at=LOADED_AT),
        e(UNF, 300, "Active", "DOC002", Q3, at=later),  # latest: same date, same time, greatest id
    ]
    for order in itertools.permutations(same_day):
        assert latest_unfunded(order) is same_day[2]
        [fig] = figures_by_currency(order)
        assert (fig.unfunded, fig.unfunded_as_of) == (usd(300), Q3)


def test_unfunded_missing_dates_rank_lowest():
    naive = datetime(2025, 10, 1, 10, 0)  # read as UTC: later than LOADED_AT
    entries = [
        e(UNF, 1, "Active", "DOC1", None, at=None),
        e(UNF, 2, "Active", "DOC2", Q3, at=naive),
        e(UNF, 3, "Active"),
    ]
    for order in itertools.permutations(entries):
        assert latest_unfunded(order) is entries[1]
    [fig] = figures_by_currency(entries[:1])
    assert (fig.unfunded, fig.unfunded_as_of) == (usd(1), None)


def test_ratio():
    assert ratio(usd(195000), usd(1250000)) == Decimal("0.16")
    assert ratio(usd(1), usd(8)) == Decimal("0.12")  # 0.125 half-even
    assert ratio(usd(3), usd(8)) == Decimal("0.38")  # 0.375 half-even
    assert ratio(usd(5), zero("USD")) is None
    assert figures_by_currency([e(DIST, 5, "Completed")])[0].dpi is None
    with pytest.raises(TypeError):
        ratio(usd(1), money(Decimal(1), "JPY"))
    with pytest.raises(TypeError):
        ratio(usd(1), zero("EUR"))


def test_builder_zero_figures_and_currency_spelling():
    builder = FiguresBuilder()
    assert builder.by_currency() == []
    assert builder.figures("eur") == Figures("EUR", *[zero("EUR")] * 4)
    builder.add(e(CALL, 7, "Pending", currency="usd"))
    assert builder.figures("USD").called_pending == usd(7)


def test_builder_refuses_floats():
    with pytest.raises(TypeError):
        FiguresBuilder().add(Entry(CALL, 1.5, "Pending"))


def test_snapshot_is_independent():
    builder = FiguresBuilder()
    builder.add(POSITION_1[0])
    snap = builder.snapshot()
    builder.add(POSITION_1[3])
    assert snap.figures("USD").called == usd(500000)
    assert builder.figures("USD").called == usd(1250000)


def test_carry_round_trip():
    for fig in [*figures_by_currency(POSITION_1), Figures("JPY", *[zero("JPY")] * 4)]:
        carried = json.loads(json.dumps(to_carry(fig)))
        assert all(value is None or isinstance(value, str) for value in carried.values())
        back = from_carry(carried)
        assert back == fig and back.unfunded_key == fig.unfunded_key


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("currency"),
        lambda d: d.update(extra="1"),
        lambda d: d.update(currency="XXZ"),
        lambda d: d.update(called_settled="abc"),
        lambda d: d.update(called_settled=None),
        lambda d: d.update(called_pending=1.5),
        lambda d: d.update(unfunded_as_of="2025-13-01"),
        lambda d: d.update(unfunded_updated_at="yesterday"),
        lambda d: d.update(unfunded_document_id=None),
        lambda d: d.update(unfunded=None),
        lambda d: d.update(distributed_pending="NaN"),
    ],
)
def test_from_carry_rejects_malformed(mutate):
    data = to_carry(figures_by_currency(POSITION_1)[0])
    mutate(data)
    with pytest.raises(ValueError):
        from_carry(data)
    with pytest.raises(ValueError):
        from_carry(["not", "a", "dict"])


def test_carried_builder_continues_as_one_pass():
    entries = [
        *POSITION_1,
        e(CALL, 10, "Completed", "DOC003", Q4, currency="JPY"),
        e(UNF, 800, "Active", "DOC004", Q4, "JPY", datetime(2026, 1, 2, tzinfo=UTC)),  # latest JPY, on page 1
        e(UNF, 1000000, "Active", "DOC002", Q4, at=datetime(2026, 1, 1, tzinfo=UTC)),  # latest USD, on page 2
        e(UNF, 700, "Active", "DOC003", Q4, "JPY", datetime(2026, 1, 1, tzinfo=UTC)),
        e(DIST, 3, "Pending", "DOC003", Q4, currency="JPY"),
        e(CALL, 1, "Cancelled", "DOC005", Q4),
    ]
    one_pass = figures_by_currency(entries)
    for cut in range(len(entries) + 1):
        first = FiguresBuilder()
        for entry in entries[:cut]:
            first.add(entry)
        cursor = json.dumps([to_carry(fig) for fig in first.by_currency()])
        second = FiguresBuilder(from_carry(data) for data in json.loads(cursor))
        for entry in entries[cut:]:
            second.add(entry)
        assert second.by_currency() == one_pass
        assert [f.unfunded_key for f in second.by_currency()] == [f.unfunded_key for f in one_pass]


def test_hand_built_figures_carry_a_weak_rank():
    start = Figures("USD", *[zero("USD")] * 4, unfunded=usd(5), unfunded_as_of=Q4)
    builder = FiguresBuilder([start])
    builder.add(e(UNF, 6, "Active", "DOC001", Q3))  # older as-of date: the carried one stays
    assert builder.figures("USD").unfunded == usd(5)
    builder.add(e(UNF, 7, "Active", "DOC001", Q4))  # same date, a real timestamp: wins
    assert builder.figures("USD").unfunded == usd(7)
    assert from_carry(to_carry(start)) == start


def test_sum_figures_adds_positions_per_currency_unfunded_included():
    from decimal import Decimal as D

    from fundportal.domain.figures import Figures, sum_figures
    from fundportal.domain.money import money as m

    usd_1 = Figures(
        "USD",
        m(D(750000), "USD"),
        m(D(500000), "USD"),
        m(D(75000), "USD"),
        m(D(0), "USD"),
        m(D(1500000), "USD"),
        date(2025, 9, 30),
    )
    usd_2 = Figures(
        "USD",
        m(D(0), "USD"),
        m(D(300000), "USD"),
        m(D(45000), "USD"),
        m(D(0), "USD"),
        m(D(850000), "USD"),
        date(2025, 9, 30),
    )
    jpy = Figures("JPY", m(D(1000), "JPY"), m(D(0), "JPY"), m(D(0), "JPY"), m(D(0), "JPY"))
    yen, usd = sum_figures([[usd_1], [usd_2, jpy]])  # sorted by currency code
    assert usd.currency == "USD" and yen.currency == "JPY"
    assert usd.called.amount == D(1550000) and usd.distributed.amount == D(120000)
    assert usd.unfunded.amount == D(2350000) and usd.unfunded_as_of == date(2025, 9, 30)
    assert yen.called.amount == D(1000) and yen.unfunded is None
    assert sum_figures([]) == []
