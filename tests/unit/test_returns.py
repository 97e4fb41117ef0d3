"""The figures, hand-computed: NAV (latest rule), % called, RVPI, TVPI, IRR, and the
register's add/remove/recount arithmetic (no DynamoDB)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from fundportal.domain.figures import sum_figures
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import Kind
from fundportal.domain.money import money
from fundportal.domain.ratios import percent_called, rvpi, tvpi
from fundportal.domain.returns import as_percent, irr
from fundportal.store.mapping.entities import from_item

AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class E:
    kind: Kind
    amount: Decimal
    status: str = "Completed"
    currency: str = "USD"
    document_id: str = "DOC1"
    as_of_date: date | None = date(2025, 9, 30)
    updated_at: datetime | None = AT
    due_date: date | None = None

    @property
    def flow_date(self) -> date | None:
        return self.due_date or self.as_of_date


def D(value) -> Decimal:
    return Decimal(str(value))


def sample_position_1(nav: str | None = None) -> FiguresBuilder:
    """The seed's POSITION_1 (+ an optional NAV in DOC002)."""
    builder = FiguresBuilder(flows=True)
    q3, q4 = date(2025, 9, 30), date(2025, 12, 31)
    for entry in (
        E(Kind.CAPITAL_CALL, D(500000), "Pending", document_id="DOC001", as_of_date=q3),
        E(Kind.DISTRIBUTION, D(75000), document_id="DOC001", as_of_date=q3),
        E(Kind.UNFUNDED_COMMITMENT, D(1500000), "Active", document_id="DOC001", as_of_date=q3),
        E(Kind.CAPITAL_CALL, D(750000), document_id="DOC002", as_of_date=q4),
        E(Kind.DISTRIBUTION, D(120000), "Pending", document_id="DOC002", as_of_date=q4),
    ):
        builder.add(entry)
    if nav is not None:
        builder.add(E(Kind.NAV, D(nav), "Active", document_id="DOC002", as_of_date=q4))
    return builder


def test_rvpi_and_tvpi_by_hand():
    f = sample_position_1(nav="1400000").figures("USD")
    assert f.nav == money(D(1400000), "USD") and f.nav_as_of == date(2025, 12, 31)
    assert rvpi(f) == D("1.12")  # 1,400,000 / 1,250,000
    assert tvpi(f) == D("1.28")  # (195,000 + 1,400,000) / 1,250,000 = 1.276
    assert (f.rvpi, f.tvpi, f.dpi) == (D("1.12"), D("1.28"), D("0.16"))


def test_rvpi_tvpi_irr_are_undefined_without_a_nav_or_a_call():
    f = sample_position_1().figures("USD")
    assert (rvpi(f), tvpi(f)) == (None, None)
    nothing_called = FiguresBuilder()
    nothing_called.add(E(Kind.NAV, D(10)))
    g = nothing_called.figures("USD")
    assert (g.rvpi, g.tvpi) == (None, None)
    assert irr([(date(2025, 1, 1), D(-100))], None, None) is None


def test_nav_is_the_latest_by_the_unfunded_rule_and_cancelled_never_counts():
    builder = FiguresBuilder()
    builder.add(E(Kind.NAV, D(100), as_of_date=date(2025, 6, 30), document_id="B"))
    builder.add(E(Kind.NAV, D(300), as_of_date=date(2025, 9, 30), document_id="A"))
    builder.add(E(Kind.NAV, D(999), "Cancelled", as_of_date=date(2025, 12, 31), document_id="C"))
    assert builder.figures("USD").nav == money(D(300), "USD")


def test_percent_called():
    assert percent_called(money(D(1250000), "USD"), money(D(2000000), "USD")) == D("62.5")
    assert percent_called(money(D(700000), "USD"), money(D(1150000), "USD")) == D("60.9")  # 60.869...
    assert percent_called(money(D(1), "USD"), None) is None
    with pytest.raises(TypeError):
        percent_called(money(D(1), "USD"), money(D(1), "EUR"))


def test_irr_of_known_flows():
    # -1,000 on 2020-01-01, +1,100 on 2021-01-01 (366 days): 1.1 ** (365 / 366) - 1 = 9.97 %
    assert irr([(date(2020, 1, 1), D(-1000))], D(1100), date(2021, 1, 1)) == D("0.0997")
    expected = D(str(round(1.1 ** (365 / 366) - 1, 4)))
    assert irr([(date(2020, 1, 1), D(-1000))], D(1100), date(2021, 1, 1)) == expected
    # Two years at exactly 10 % a year (365-day years): -100, +121 after 730 days.
    assert irr([(date(2021, 1, 1), D(-100))], D(121), date(2023, 1, 1)) == D("0.1000")
    # A distribution midway: -1,000; +500 after 365 days; NAV 600 after 730 days.
    # 1000 = 500/(1+r) + 600/(1+r)^2  ->  r = (0.5 + sqrt(0.25 + 2.4)) / 2 - 1 = 6.39 %
    rate = irr([(date(2021, 1, 1), D(-1000)), (date(2022, 1, 1), D(500))], D(600), date(2023, 1, 1))
    assert rate == D(str(round((0.5 + math.sqrt(0.25 + 2.4)) / 2 - 1, 4)))
    assert as_percent(rate) == D("6.4")


def test_irr_is_undefined_without_both_signs():
    assert irr([(date(2021, 1, 1), D(100))], D(1), date(2022, 1, 1)) is None  # money only comes back
    assert irr([], D(0), date(2022, 1, 1)) is None


def test_flows_are_calls_negative_distributions_positive_on_the_due_date_else_as_of():
    builder = FiguresBuilder(flows=True)
    builder.add(E(Kind.CAPITAL_CALL, D(100), due_date=date(2025, 10, 15)))
    builder.add(E(Kind.DISTRIBUTION, D(30)))
    builder.add(E(Kind.CAPITAL_CALL, D(999), "Cancelled"))
    builder.add(E(Kind.CAPITAL_CALL, D(50), "Pending"))  # pending flows count, as in "called"
    assert builder.flows("USD") == [(date(2025, 9, 30), D(-20)), (date(2025, 10, 15), D(-100))]


def test_remove_is_the_inverse_of_add_and_a_removed_latest_is_recounted():
    entries = [
        E(Kind.CAPITAL_CALL, D(100)),
        E(Kind.DISTRIBUTION, D(40), "Pending"),
        E(Kind.UNFUNDED_COMMITMENT, D(900), "Active", document_id="A", as_of_date=date(2025, 3, 31)),
        E(Kind.UNFUNDED_COMMITMENT, D(800), "Active", document_id="B", as_of_date=date(2025, 6, 30)),
    ]
    builder = FiguresBuilder(flows=True)
    for entry in entries:
        builder.add(entry)
    assert builder.remove(entries[1]) is None
    assert builder.remove(entries[2]) is None  # not the latest: nothing to recount
    assert builder.remove(entries[3]) is Kind.UNFUNDED_COMMITMENT  # the latest: recount
    builder.reconsider(Kind.UNFUNDED_COMMITMENT, [entries[2]])
    fresh = FiguresBuilder(flows=True)
    for entry in (entries[0], entries[2]):
        fresh.add(entry)
    assert builder.state() == fresh.state()
    assert FiguresBuilder.restore(builder.state()).state() == builder.state()
    everything_gone = FiguresBuilder(flows=True)
    everything_gone.add(entries[0])
    everything_gone.remove(entries[0])
    assert everything_gone.state() == {}


def test_fund_totals_sum_navs_per_currency():
    a, b = sample_position_1(nav="1400000").figures("USD"), sample_position_1(nav="100").figures("USD")
    (total,) = sum_figures([[a], [b]])
    assert total.nav == money(D(1400100), "USD")
    assert total.tvpi == D("0.72")  # (390,000 + 1,400,100) / 2,500,000 = 0.71604


def test_synthetic_positions_are_coherent_with_their_commitments():
    """seed_demo's synthetic data: several funds and investors, a register per position
    with its commitment, NAV statements, and called <= commitment."""
    from fundportal.domain.position_register import PositionRegister
    from fundportal.ops.synthetic import SyntheticSpec, generate

    spec = SyntheticSpec(documents=24, positions=5, versions=0, funds=3, seed=7)
    items = list(generate(spec))
    assert len(items) == spec.item_count
    registers = [from_item(PositionRegister, i) for i in items if i["EntityType"] == "PositionRegister"]
    assert (
        len(registers) == 15
        and len({r.fund_id for r in registers}) == 3
        and len({r.investor_id for r in registers}) == 5
    )
    for register in registers:
        (figures,) = register.figures()
        assert figures.called.amount <= register.commitment
        assert figures.nav is not None
    # Documents are independent draws (a distribution may come before the first call), so some
    # positions' flows have no IRR; most have one.
    assert sum(r.irr(r.currency) is not None for r in registers) >= len(registers) // 2
    assert sum(1 for i in items if i["EntityType"] == "FundCatalog") == 3


def test_an_irr_annualised_over_a_few_days_past_any_meaningful_rate_is_undefined():
    # 2x in two days is an annual rate of about 10^55: no page, export or attribute can hold it.
    assert irr([(date(2023, 1, 1), D(-100))], D(200), date(2023, 1, 3)) is None
    # A large but meaningful short-period rate is still given: +1 % in a week is about 68 % a year.
    assert irr([(date(2023, 1, 1), D(-100))], D(101), date(2023, 1, 8)) == D("0.6801")
