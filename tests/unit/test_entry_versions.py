"""Every LP amount versioned: an entry's kept values give its state at any moment, and two
moments compare per position (fundportal.domain.entry_versions)."""

from datetime import UTC, date, datetime
from decimal import Decimal

from fundportal.domain.entry_versions import EntryVersion, amount_changes, entries_at
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import CapitalCall, Distribution

T0 = datetime(2025, 10, 1, 9, tzinfo=UTC)
T1 = datetime(2025, 10, 2, 9, tzinfo=UTC)
T2 = datetime(2025, 10, 3, 9, tzinfo=UTC)
T3 = datetime(2025, 10, 4, 9, tzinfo=UTC)


def call(amount: int, at: datetime | None, revision: int = 1, position: str = "POSITION_2") -> CapitalCall:
    return CapitalCall(
        document_id="DOC002",
        position_id=position,
        fund_id="FUND_A",
        investor_id="INVESTOR_2",
        amount=Decimal(amount),
        as_of_date=date(2025, 12, 31),
        updated_at=at,
        updated_by="ana",
        revision=revision,
    )


def test_a_version_keeps_the_value_who_set_it_and_who_replaced_it():
    before = call(400000, T0)
    version = EntryVersion.of(before, T1, "ben")
    assert (version.amount, version.updated_by, version.replaced_by, version.replaced_at) == (
        Decimal(400000),
        "ana",
        "ben",
        T1,
    )
    assert version.entry() == before
    assert EntryVersion.of(before, T1, "ben", removed=True).removed


def test_the_entries_at_a_moment_take_the_value_held_then():
    current = [call(420000, T2, revision=3)]
    versions = [EntryVersion.of(call(400000, T0), T1, "ben"), EntryVersion.of(call(410000, T1, 2), T2, "cy")]
    assert entries_at(current, versions, None)[(Kind.CAPITAL_CALL, "POSITION_2")].amount == 420000
    assert entries_at(current, versions, T0)[(Kind.CAPITAL_CALL, "POSITION_2")].amount == 400000
    assert entries_at(current, versions, T1)[(Kind.CAPITAL_CALL, "POSITION_2")].amount == 410000
    assert entries_at(current, versions, T3)[(Kind.CAPITAL_CALL, "POSITION_2")].amount == 420000


def test_an_entry_recorded_later_is_absent_before_and_a_removed_one_after():
    added = call(100, T2, position="POSITION_9")
    removed = EntryVersion.of(call(400000, T0), T2, "ben", removed=True)
    before = entries_at([added], [removed], T1)
    after = entries_at([added], [removed], T3)
    assert list(before) == [(Kind.CAPITAL_CALL, "POSITION_2")]
    assert list(after) == [(Kind.CAPITAL_CALL, "POSITION_9")]


def test_an_entry_loaded_without_a_time_counts_as_always_there():
    assert entries_at([call(500000, None)], [], T0)[(Kind.CAPITAL_CALL, "POSITION_2")].amount == 500000


def test_amount_changes_list_only_what_differs_by_position_then_kind():
    distribution = Distribution(document_id="DOC002", position_id="POSITION_1", amount=Decimal(120000))
    before = {
        (Kind.CAPITAL_CALL, "POSITION_2"): call(400000, T0),
        (Kind.DISTRIBUTION, "POSITION_1"): distribution,
        (Kind.CAPITAL_CALL, "POSITION_1"): call(750000, T0, position="POSITION_1"),
    }
    after = {
        (Kind.CAPITAL_CALL, "POSITION_2"): call(410000, T1, revision=2),
        (Kind.CAPITAL_CALL, "POSITION_1"): call(750000, T0, position="POSITION_1"),
        (Kind.CAPITAL_CALL, "POSITION_3"): call(5, T1, position="POSITION_3"),
    }
    changes = amount_changes(before, after)
    assert [(c.position_id, c.kind, c.what) for c in changes] == [
        ("POSITION_1", Kind.DISTRIBUTION, "removed"),
        ("POSITION_2", Kind.CAPITAL_CALL, "changed"),
        ("POSITION_3", Kind.CAPITAL_CALL, "added"),
    ]
    assert changes[1].difference == Decimal(10000)
    assert changes[0].difference is None
