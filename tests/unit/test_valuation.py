"""One date basis (`fundportal.domain.valuation`): flows up to D, the NAV rolled forward to D,
TVPI and IRR on the same cash and value, hand-computed on the seed's POSITION_1."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fundportal.domain.figures import sum_figures
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import Kind
from fundportal.domain.money import money
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.returns import irr
from fundportal.domain.valuation import irr_as_of, value_as_of
from funds.lines import totals
from tests.unit.test_returns import D, E, sample_position_1

Q3, Q4 = date(2025, 9, 30), date(2025, 12, 31)


def position_1_with_q3_nav() -> FiguresBuilder:
    """The seed's POSITION_1 with a NAV of 445,000 in DOC001 (as of 2025-09-30): the value at
    which its statement as of the NAV date shows TVPI (75,000 + 445,000) / 500,000 = 1.04x."""
    builder = sample_position_1()
    builder.add(E(Kind.NAV, D(445000), "Active", document_id="DOC001", as_of_date=Q3))
    return builder


def valued(builder: FiguresBuilder, on: date):
    return value_as_of(builder.figures("USD"), builder.dated_flows("USD"), on)


def test_position_1_tvpi_and_irr_share_one_date_basis():
    """POSITION_1 of the seed sample: call 500,000 (Pending) and distribution 75,000 in DOC001
    (2025-09-30), call 750,000 and distribution 120,000 (Pending) in DOC002 (2025-12-31), and a
    NAV of 445,000 as of 2025-09-30.

    Before (two bases): TVPI added DOC002's flows to the September NAV, IRR left them out.
      TVPI = (75,000 + 120,000 + 445,000) / (500,000 + 750,000) = 640,000 / 1,250,000 = 0.512
      -> 0.51x, as if the 750,000 called in December had been lost; IRR of -500,000 + 75,000 and
      the NAV, all on 2025-09-30, is a single net flow of +20,000: undefined ("—"). The two
      figures answer different questions (the issue's 0.93x beside +49.1 %).

    After (one basis, D = 2025-12-31):
      adjusted NAV = 445,000 + 750,000 (called after the NAV date) - 120,000 (distributed after
      it) = 1,075,000
      RVPI = 1,075,000 / 1,250,000 = 0.86x
      TVPI = (195,000 + 1,075,000) / 1,250,000 = 1,270,000 / 1,250,000 = 1.016 -> 1.02x
      IRR flows: -425,000 on 2025-09-30 (-500,000 + 75,000); on 2025-12-31 -750,000 + 120,000
      + 1,075,000 = +445,000 (92 days later): r = (445,000 / 425,000) ** (365 / 92) - 1
      = 0.20014 -> 20.01 %. A gain of 20,000 on both: TVPI above 1.00x, IRR positive.
    As of the NAV date (D = 2025-09-30) nothing is rolled forward: TVPI 1.04x, as the
    statement said, and IRR undefined (all flows on one day).
    """
    builder = position_1_with_q3_nav()
    before = builder.figures("USD")
    assert before.tvpi == D("0.51")
    assert irr(builder.flows("USD"), before.nav.amount, before.nav_as_of) is None

    after = valued(builder, Q4)
    assert after.nav == money(D(445000), "USD") and after.nav_as_of == Q3
    assert after.adjusted_nav == money(D(1075000), "USD") and after.as_of == Q4
    assert (after.rvpi, after.tvpi, after.dpi) == (D("0.86"), D("1.02"), D("0.16"))
    expected = Decimal(str(round((445000 / 425000) ** (365 / 92) - 1, 4)))
    assert irr_as_of(after, builder.flows("USD")) == expected == D("0.2001")

    at_nav_date = valued(builder, Q3)
    assert at_nav_date.called == money(D(500000), "USD") and at_nav_date.adjusted_nav == money(D(445000), "USD")
    assert at_nav_date.tvpi == D("1.04")
    assert irr_as_of(at_nav_date, builder.flows("USD")) is None


def test_a_later_date_keeps_the_value_and_lowers_the_irr_with_time():
    """D = 2026-03-31, no flow and no NAV since December: the adjusted NAV stays 1,075,000 and
    TVPI 1.02x; the IRR's terminal value moves to D (flows -425,000 on 2025-09-30, -630,000 on
    2025-12-31, +1,075,000 on 2026-03-31), so the same gain over a longer time: 5.54 %."""
    builder = position_1_with_q3_nav()
    later = valued(builder, date(2026, 3, 31))
    assert later.adjusted_nav == money(D(1075000), "USD") and later.tvpi == D("1.02")
    assert irr_as_of(later, builder.flows("USD")) == D("0.0554")


def test_flows_after_the_date_are_left_out_pending_first():
    """A call of 100 settled on 2025-09-30 and one of 40, Pending, due 2025-11-15; a distribution
    of 30 settled on 2025-09-30 and one of 5, Pending, due 2025-12-01. As of 2025-10-31 the later
    call and distribution have not moved: called 100 (all settled), distributed 30, DPI 0.30x.
    The register keeps its flows by date without their status, so a later flow comes off the
    pending amount first (a flow not yet due is not yet settled)."""
    builder = FiguresBuilder(flows=True)
    builder.add(E(Kind.CAPITAL_CALL, D(100)))
    builder.add(E(Kind.CAPITAL_CALL, D(40), "Pending", due_date=date(2025, 11, 15)))
    builder.add(E(Kind.DISTRIBUTION, D(30)))
    builder.add(E(Kind.DISTRIBUTION, D(5), "Pending", due_date=date(2025, 12, 1)))
    october = valued(builder, date(2025, 10, 31))
    usd = lambda amount: money(D(amount), "USD")  # noqa: E731
    assert (october.called_settled, october.called_pending, october.called) == (usd(100), usd(0), usd(100))
    assert (october.distributed_settled, october.distributed_pending) == (usd(30), usd(0))
    assert october.dpi == D("0.30")
    november = valued(builder, date(2025, 11, 30))  # the call has moved, the distribution not yet
    assert (november.called_pending, november.called, november.distributed) == (usd(40), usd(140), usd(30))
    # The seed's POSITION_1 as of 2025-10-31: DOC002's flows (2025-12-31) are not in yet.
    seed = valued(position_1_with_q3_nav(), date(2025, 10, 31))
    assert (seed.called, seed.distributed) == (usd(500000), usd(75000))
    assert seed.adjusted_nav == usd(445000) and seed.tvpi == D("1.04")


def test_a_nav_dated_after_the_date_is_not_known_then():
    builder = sample_position_1(nav="1400000")  # NAV as of 2025-12-31
    before_nav = valued(builder, Q3)
    assert (before_nav.nav, before_nav.adjusted_nav, before_nav.tvpi) == (None, None, None)
    assert irr_as_of(before_nav, builder.flows("USD")) is None
    on_nav_date = valued(builder, Q4)  # nothing after the NAV: the adjusted NAV is the NAV
    assert on_nav_date.adjusted_nav == on_nav_date.nav == money(D(1400000), "USD")
    assert on_nav_date.tvpi == D("1.28")  # (195,000 + 1,400,000) / 1,250,000 = 1.276


def test_the_register_values_its_figures_and_irr_as_of_the_date_asked():
    register = PositionRegister("POSITION_1", "FUND_A", "INVESTOR_1", commitment=D(2000000)).with_builder(
        position_1_with_q3_nav()
    )
    (figures,) = register.figures(Q4)
    assert figures.adjusted_nav == money(D(1075000), "USD") and figures.tvpi == D("1.02")
    assert register.irr("USD", Q4) == D("0.2001")
    assert register.figures_of("USD", Q3).tvpi == D("1.04")
    (today,) = register.figures()  # default: today, long after every flow of the sample
    assert today.as_of == date.today() and today.adjusted_nav == money(D(1075000), "USD")


def test_fund_totals_sum_adjusted_navs_and_pool_the_irr_at_the_date():
    """POSITION_1 as above; POSITION_2 (calls 300,000 on 2025-09-30 and 400,000 on 2025-12-31,
    distribution 45,000 on 2025-09-30) with a NAV of 700,000 as of 2025-12-31. At D = 2025-12-31:
    adjusted NAVs 1,075,000 + 700,000 = 1,775,000; called 1,950,000; distributed 240,000;
    TVPI = (240,000 + 1,775,000) / 1,950,000 = 1.0333 -> 1.03x. Pooled IRR flows: 2025-09-30
    -425,000 - 255,000 = -680,000; 2025-12-31 -630,000 - 400,000 + 1,775,000 = +745,000:
    r = (745,000 / 680,000) ** (365 / 92) - 1 = 0.436470 -> 0.4365 -> 43.65 -> 43.6 % (half-even)."""
    position_2 = FiguresBuilder(flows=True)
    for entry in (
        E(Kind.CAPITAL_CALL, D(300000), "Pending", document_id="DOC001", as_of_date=Q3),
        E(Kind.DISTRIBUTION, D(45000), document_id="DOC001", as_of_date=Q3),
        E(Kind.CAPITAL_CALL, D(400000), "Pending", document_id="DOC002", as_of_date=Q4),
        E(Kind.NAV, D(700000), "Active", document_id="DOC002", as_of_date=Q4),
    ):
        position_2.add(entry)
    registers = [
        PositionRegister("POSITION_1", "FUND_A", "INVESTOR_1", commitment=D(2000000)).with_builder(
            position_1_with_q3_nav()
        ),
        PositionRegister("POSITION_2", "FUND_A", "INVESTOR_2", commitment=D(1150000)).with_builder(position_2),
    ]
    (total,) = totals(registers, Q4)
    assert total.figures.adjusted_nav == money(D(1775000), "USD") and total.figures.as_of == Q4
    assert total.figures.tvpi == D("1.03")
    assert total.irr_percent == D("43.6")
    # Figures valued on different dates are never pooled into one adjusted NAV.
    (mixed,) = sum_figures([registers[0].figures(Q4), registers[1].figures(date(2026, 1, 31))])
    assert mixed.as_of is None and mixed.adjusted_nav is None


def _fields(figures):
    """Every field of `figures`, the ones left out of its equality included."""
    return {name: getattr(figures, name) for name in figures.__dataclass_fields__}


def test_the_builder_values_its_sums_as_value_as_of_values_its_figures():
    """`FiguresBuilder.valued` (one Figures straight from the sums: a register's lines) equals
    `value_as_of` of the builder's figures on every date: before, between and after the flows
    and NAVs, with allocations rolling the NAV forward, and from a register's restored state."""
    from fundportal.domain.position_entries import CarriedInterest, ManagementFee, NetAssetValue, RealizedGain
    from tests.unit.test_figures_statement_kinds import NOV, OCT, builder_of, entry

    with_activity = builder_of(
        entry(NetAssetValue, 1000000, Q3),
        entry(ManagementFee, 5000, OCT, fee_line="gross"),
        entry(RealizedGain, 30000, NOV),
        entry(CarriedInterest, 4000, NOV, carry_stage="accrued"),
    )
    builders = [position_1_with_q3_nav(), sample_position_1(nav="1400000"), sample_position_1(), with_activity]
    builders.append(FiguresBuilder.restore(position_1_with_q3_nav().state(), read_only=True))
    for builder in builders:
        for on in (date(2025, 1, 1), Q3, OCT, NOV, Q4, date(2026, 3, 31)):
            flows, activity = builder.dated_flows("USD"), builder.dated_activity("USD")
            expected = value_as_of(builder.figures("USD", on), flows, on, activity)
            assert _fields(builder.valued("USD", on)) == _fields(expected), on
