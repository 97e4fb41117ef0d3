"""Registers and a fund's summary as they stood at a moment (`fundportal.domain.register_versions`),
and how a register version is stored (`fundportal.store.mapping.register_history`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from fundportal.domain import summary
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.position_entries import CapitalCall, NetAssetValue
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.register_versions import (
    RegisterVersion,
    Registrations,
    changed_after,
    registers_known_at,
    summary_known_at,
)
from fundportal.store.mapping import keys
from fundportal.store.mapping.entities import from_item, to_item

T0 = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
Q3 = date(2025, 9, 30)


def _register(position_id: str, *entries, revision: int = 1) -> PositionRegister:
    builder = FiguresBuilder(flows=True)
    for entry in entries:
        builder.add(entry)
    register = PositionRegister(
        position_id, "FUND_A", position_id.replace("P", "I"), commitment=Decimal(1_000_000), revision=revision
    )
    return register.with_builder(builder)


def _call(position_id: str, amount: int) -> CapitalCall:
    return CapitalCall(
        "DOC001", position_id, "FUND_A", position_id.replace("P", "I"), Decimal(amount), "Completed", as_of_date=Q3
    )


def _written(before: PositionRegister | None, after: PositionRegister | None, at: datetime) -> RegisterVersion:
    """The version a write from `before` to `after` at `at` keeps (as the unit of work does)."""
    held = after or before
    assert held is not None
    return RegisterVersion(
        held.position_id,
        held.fund_id,
        held.investor_id,
        at,
        before,
        summary.delta(before, after),
        before.revision if before else 0,
    )


def _story() -> tuple[list[PositionRegister], list[RegisterVersion], dict[str, PositionRegister]]:
    """P1 called 100,000 (T0+1h), then 250,000 (T0+3h); P2 registered with 40,000 (T0+2h)."""
    p1_first = _register("P1", _call("P1", 100_000))
    p1_now = _register("P1", _call("P1", 250_000), revision=2)
    p2_now = _register("P2", _call("P2", 40_000))
    versions = [
        _written(None, p1_first, T0 + timedelta(hours=1)),
        _written(None, p2_now, T0 + timedelta(hours=2)),
        _written(p1_first, p1_now, T0 + timedelta(hours=3)),
    ]
    return [p1_now, p2_now], versions, {"p1_first": p1_first}


def _called(vector) -> Decimal:
    return vector.get(("USD", "called_settled", None), Decimal(0))


def test_a_register_changed_after_the_moment_is_the_state_it_replaced():
    current, versions, held = _story()
    at = T0 + timedelta(hours=2, minutes=30)
    assert registers_known_at(current, versions, at) == [held["p1_first"], current[1]]


def test_a_register_registered_after_the_moment_is_left_out():
    current, versions, held = _story()
    assert registers_known_at(current, versions, T0 + timedelta(hours=1, minutes=30)) == [held["p1_first"]]
    assert registers_known_at(current, versions, T0) == []
    assert registers_known_at(current, versions, T0 + timedelta(hours=4)) == current


def test_the_earliest_version_after_the_moment_holds_the_state_then():
    _, versions, _ = _story()
    found = changed_after(versions, T0 + timedelta(minutes=30))
    assert found["P1"].replaced_at == T0 + timedelta(hours=1) and found["P1"].before is None
    assert changed_after(versions, T0 + timedelta(hours=1)).get("P1") is versions[2]  # replaced at: not after


def test_a_removed_position_is_back_only_when_asked_for():
    p1 = _register("P1", _call("P1", 100_000))
    removal = _written(p1, None, T0 + timedelta(hours=1))
    assert registers_known_at([], [removal], T0) == []
    assert registers_known_at([], [removal], T0, with_removed=True) == [p1]
    assert registers_known_at([], [removal], T0 + timedelta(hours=2), with_removed=True) == []


def test_the_summary_at_a_moment_is_today_less_the_later_deltas():
    current, versions, held = _story()
    now = summary.add(*(summary.contribution(r) for r in current))
    assert _called(now) == Decimal(290_000)
    at_two_thirty = summary_known_at(now, versions, T0 + timedelta(hours=2, minutes=30))
    assert at_two_thirty == summary.add(summary.contribution(held["p1_first"]), summary.contribution(current[1]))
    assert _called(at_two_thirty) == Decimal(140_000)
    assert _called(summary_known_at(now, versions, T0 + timedelta(hours=1, minutes=30))) == Decimal(100_000)
    assert summary_known_at(now, versions, T0) == {}
    assert summary_known_at(now, versions, T0 + timedelta(hours=5)) == now


def test_a_version_is_stored_with_its_state_and_delta_and_read_back_whole():
    before = _register("P1", _call("P1", 100_000), NetAssetValue("DOC001", "P1", "FUND_A", "I1", Decimal(90_000)))
    after = replace(_register("P1", _call("P1", 250_000)), revision=2)
    version = _written(before, after, T0)
    item = to_item(version)
    assert (item["PK"], item["SK"]) == ("REGHIST#P1", "2025-10-01T09:00:00.000000+00:00#000001")
    assert (item["GSI5_PK"], item["GSI4_PK"]) == ("REGHIST#FUND#FUND_A", "REGHIST#INVESTOR#I1")
    assert item["GSI5_SK"] == item["GSI4_SK"] == "2025-10-01T09:00:00.000000+00:00#P1#000001"
    assert "PositionId" not in item and "GSI6_PK" not in item["Before"] and "Lines" not in item["Before"]
    assert item["Delta"]["USD|called_settled"] == Decimal(150_000)
    back = from_item(RegisterVersion, item)
    assert back.before == before and back.delta == version.delta and back.replaced_at == T0
    registered = from_item(RegisterVersion, to_item(_written(None, after, T0)))
    assert registered.before is None and registered.revision == 0


def test_the_query_bound_sorts_after_every_version_replaced_at_the_moment():
    at = "2025-10-01T09:00:00.000000+00:00"
    bound = keys.register_history_after(at)
    assert keys.register_history_index_sk(at, "ZZ_9", 999999) < bound
    assert bound < keys.register_history_index_sk("2025-10-01T09:00:00.000001+00:00", "A", 1)


def test_positions_registered_together_are_left_out_before_their_registration():
    """An import's new registers keep their registration on themselves and in ONE item of their
    fund: before that moment the fund page (its versions) and the investor page (the registers)
    leave them out, and the fund's summary takes their sum out."""
    at = T0 + timedelta(hours=1)
    p1_first = replace(_register("P1", _call("P1", 100_000)), registered_at=at)
    p2_now = replace(_register("P2", _call("P2", 40_000)), registered_at=at)
    p1_now = replace(_register("P1", _call("P1", 250_000), revision=2), registered_at=at)
    delta = summary.add(summary.delta(None, p1_first), summary.delta(None, p2_now))
    together = Registrations("FUND_A", at, ("P1", "P2"), delta)
    changed = _written(p1_first, p1_now, T0 + timedelta(hours=3))
    fund_versions = [*together.as_versions(), changed]
    today = summary.add(summary.contribution(p1_now), summary.contribution(p2_now))
    assert registers_known_at([p1_now, p2_now], fund_versions, T0) == []
    assert registers_known_at([p1_now, p2_now], [changed], T0) == []  # the investor page's versions
    assert registers_known_at([p1_now, p2_now], [changed], T0 + timedelta(hours=2)) == [p1_first, p2_now]
    assert summary_known_at(today, fund_versions, T0) == {}
    assert _called(summary_known_at(today, fund_versions, T0 + timedelta(hours=2))) == Decimal(140_000)


def test_registrations_are_stored_in_their_funds_history_and_read_back_as_versions():
    from fundportal.store.mapping.register_history import replaced_at_text, versions_of_item

    together = Registrations("FUND_A", T0, ("P1", "P2"), {("USD", "positions", None): Decimal(2)})
    item = to_item(together)
    assert item["PK"] == keys.register_history_fund_pk("FUND_A") and item["GSI5_PK"] == item["PK"]
    assert item["GSI5_SK"] > keys.register_history_after(replaced_at_text(T0 - timedelta(seconds=1)))
    assert item["GSI5_SK"] < keys.register_history_after(replaced_at_text(T0))
    versions = versions_of_item(item)
    assert [(v.position_id, v.before, v.replaced_at) for v in versions] == [("P1", None, T0), ("P2", None, T0)]
    assert [dict(v.delta) for v in versions] == [{("USD", "positions", None): Decimal(2)}, {}]
