"""The fund page's slim register copy (`Lines` on GSI_Fund_Position): only the flows after the
NAV date, yet every figure valued as of today or later is the whole register's."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue
from fundportal.domain.position_register import PositionRegister
from fundportal.store.mapping.entities import from_item, to_item
from fundportal.store.repositories.register import slim_register
from fundportal.store.schema import FUND_INDEX, FUND_PROJECTION, TABLE

AT = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
TODAY = date.today()


def _entry(cls, amount, on, status="Completed"):
    return cls(f"DOC_{on.isoformat()}", "P1", "FUND_A", "I1", Decimal(amount), status, as_of_date=on, updated_at=AT)


def _register(entries) -> PositionRegister:
    builder = FiguresBuilder(flows=True)
    for entry in entries:
        builder.add(entry)
    return PositionRegister("P1", "FUND_A", "I1", commitment=Decimal(1_000_000), revision=3).with_builder(builder)


def _projected(register: PositionRegister) -> dict:
    """What the fund page's Query returns: the index keys, the table keys and the projection."""
    index = TABLE.index(FUND_INDEX)
    item = to_item(register)
    return {k: v for k, v in item.items() if k in (*FUND_PROJECTION, "PK", "SK", index.pk, index.sk)}


def test_the_slim_copy_values_every_figure_as_the_whole_register_does():
    old = [_entry(CapitalCall, str(100_000 + n), date(2020, 1 + n % 12, 28)) for n in range(40)]
    register = _register(
        [
            *old,
            _entry(NetAssetValue, "3000000", date(2024, 6, 30)),
            _entry(CapitalCall, "50000", date(2024, 9, 30)),
            _entry(Distribution, "20000", date(2024, 12, 31)),
            _entry(CapitalCall, "7000", TODAY + timedelta(days=40), status="Pending"),  # after today
        ]
    )
    slim = slim_register(_projected(register))
    for on in (TODAY, TODAY + timedelta(days=60)):
        assert slim.figures(on) == register.figures(on)
    assert len(slim.flows("USD")) == 3 < len(register.flows("USD"))  # only those after the NAV date


def test_the_slim_copy_is_small_whatever_the_history():
    short = _register([_entry(NetAssetValue, "1", date(2024, 6, 30))])
    long = _register(
        [
            *(_entry(CapitalCall, "1000", date(2000 + n // 12, 1 + n % 12, 28)) for n in range(240)),
            _entry(NetAssetValue, "1", date(2024, 6, 30)),
        ]
    )
    assert len(str(_projected(long))) < len(str(_projected(short))) + 100
    assert len(str(to_item(long))) > 5 * len(str(_projected(long)))


def test_when_entries_moved_in_rides_in_the_rollup_and_stays_out_of_the_slim_copy():
    moved = {("DOC_A", Kind.CAPITAL_CALL): AT, ("DOC_A", Kind.NAV): AT, ("DOC_B", Kind.NAV): AT + timedelta(days=1)}
    register = _register([_entry(CapitalCall, 100, date(2025, 3, 31))])
    register = register.with_moved_in(list(moved)[:2], AT).with_moved_in(
        [("DOC_B", Kind.NAV)], moved[("DOC_B", Kind.NAV)]
    )
    item = to_item(register)
    assert from_item(PositionRegister, item).moved_in == moved
    assert from_item(PositionRegister, item).figures() == register.figures()
    assert "MovedIn" not in item["Lines"]
