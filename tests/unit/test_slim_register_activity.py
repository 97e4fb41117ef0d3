"""The fund page's slim register copy keeps the capital account's activity exact: what precedes
the NAV's date is folded into one undated line, what follows it still rolls the NAV forward."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.position_entries import CapitalCall, Distribution, ManagementFee, NetAssetValue, RealizedGain
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.reconciliation import computed_unfunded
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories.register import slim_register
from fundportal.store.schema import FUND_INDEX, FUND_PROJECTION, TABLE

AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
TODAY = date.today()


def _entry(cls, amount, on, **parts):
    return cls(
        f"DOC_{on.isoformat()}",
        "P1",
        "FUND_A",
        "I1",
        Decimal(amount),
        "Completed",
        as_of_date=on,
        updated_at=AT,
        **parts,
    )


def test_the_slim_copy_values_the_activity_as_the_whole_register_does():
    builder = FiguresBuilder(flows=True)
    for entry in (
        *(_entry(ManagementFee, "2500", date(2021 + n // 4, 3 * (n % 4) + 1, 15)) for n in range(12)),
        _entry(CapitalCall, "100000", date(2022, 5, 1), management_fee=Decimal(2000), outside_commitment=True),
        _entry(Distribution, "5000", date(2023, 5, 1), recallable=Decimal(5000)),
        _entry(NetAssetValue, "900000", date(2024, 6, 30)),
        _entry(RealizedGain, "-3000", date(2024, 9, 30)),
        _entry(ManagementFee, "400", date(2024, 12, 31), fee_line="offset"),
    ):
        builder.add(entry)
    register = PositionRegister("P1", "FUND_A", "I1", commitment=Decimal(1_000_000), revision=3).with_builder(builder)
    index = TABLE.index(FUND_INDEX)
    item = to_item(register)
    slim = slim_register({k: v for k, v in item.items() if k in (*FUND_PROJECTION, "PK", "SK", index.pk, index.sk)})
    for on in (TODAY, TODAY + timedelta(days=60)):
        assert slim.figures(on) == register.figures(on)
    (usd,) = slim.figures(TODAY)
    assert usd.activity.management_fee_net == Decimal(12 * 2500 - 400)
    assert usd.adjusted_nav.amount == Decimal(900000 - 3000 + 400)
    assert computed_unfunded(slim.commitment_money, usd).amount == Decimal(1_000_000 - 100000 + 2000 + 5000)
    kept = item["Lines"]["USD"]["Activity"]
    assert len(kept) == 3 < 2 + 12  # the undated fold and the two dates after the NAV's
