"""Time travel in the domain (`fundportal.domain.time_travel`): as of a date D and as known at a
moment T, hand-computed on the seed's POSITION_1 (DOC001 2025-09-30: call 500,000, distribution
75,000, unfunded 1,500,000; DOC002 2025-12-31: call 750,000, distribution 120,000)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from fundportal.domain.commitments import EARLIEST_EFFECTIVE, CommitmentChange
from fundportal.domain.entry_versions import EntryVersion
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.known_at import entries_counted_at
from fundportal.domain.position_entries import CapitalCall, Distribution, NetAssetValue, UnfundedCommitment
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.time_travel import (
    commitment_known,
    commitments_known_at,
    entries_as_of,
    valuation_date,
    value_entries,
)
from fundportal.store.mapping.codecs import rollup_in, rollup_out

Q3, Q4 = date(2025, 9, 30), date(2025, 12, 31)
LOADED = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
AMENDED = datetime(2026, 1, 20, 9, 0, tzinfo=UTC)
IDS = {"position_id": "POSITION_1", "fund_id": "FUND_A", "investor_id": "INVESTOR_1"}


def position_1(nav: Decimal | None = None):
    entries = [
        CapitalCall("DOC001", amount=Decimal(500000), status="Pending", as_of_date=Q3, updated_at=LOADED, **IDS),
        Distribution("DOC001", amount=Decimal(75000), status="Paid", as_of_date=Q3, updated_at=LOADED, **IDS),
        UnfundedCommitment("DOC001", amount=Decimal(1500000), status="Active", as_of_date=Q3, **IDS),
        CapitalCall("DOC002", amount=Decimal(750000), status="Paid", as_of_date=Q4, updated_at=LOADED, **IDS),
        Distribution("DOC002", amount=Decimal(120000), status="Pending", as_of_date=Q4, updated_at=LOADED, **IDS),
    ]
    if nav is not None:
        entries.append(NetAssetValue("DOC001", amount=nav, status="Active", as_of_date=Q3, updated_at=LOADED, **IDS))
    return entries


def test_as_of_the_first_document_counts_only_its_entries():
    (usd,) = value_entries(entries_as_of(position_1(), Q3), Q3)
    assert usd.figures.called.amount == Decimal(500000)
    assert usd.figures.distributed.amount == Decimal(75000)
    assert usd.figures.unfunded.amount == Decimal(1500000)


def test_a_nav_at_the_first_document_is_rolled_forward_to_a_later_date():
    """As of 2025-12-31: 445,000 + 750,000 - 120,000 = 1,075,000 adjusted; TVPI (195,000 +
    1,075,000) / 1,250,000 = 1.016 -> 1.02x."""
    (usd,) = value_entries(entries_as_of(position_1(Decimal(445000)), Q4), Q4)
    assert usd.figures.nav.amount == Decimal(445000)
    assert usd.figures.adjusted_nav.amount == Decimal(1075000)
    assert round(usd.figures.tvpi, 2) == Decimal("1.02")
    assert usd.irr is not None and usd.irr > 0


def test_a_call_due_after_the_date_is_not_counted():
    late = CapitalCall("DOC001", amount=Decimal(500000), as_of_date=Q3, due_date=date(2025, 10, 15), **IDS)
    (usd,) = value_entries([late], Q3)
    assert usd.figures.called.amount == Decimal(0)


def test_an_entry_recorded_after_the_moment_is_left_out():
    known = entries_counted_at(position_1(), [], {}, datetime(2025, 9, 30, tzinfo=UTC))
    # Only the untimed unfunded commitment (recorded before times were kept) was known then.
    assert [(e.document_id, e.kind.value) for e in known] == [("DOC001", "UNFUNDED_COMMITMENT")]


def test_an_amended_entry_counts_with_the_value_that_stood_then():
    entries = position_1()
    amended = CapitalCall("DOC002", amount=Decimal(760000), as_of_date=Q4, updated_at=AMENDED, revision=2, **IDS)
    current = [e for e in entries if not (e.document_id == "DOC002" and e.kind == amended.kind)] + [amended]
    before = EntryVersion.of(entries[3], AMENDED, "ana")
    then = entries_counted_at(current, [before], {}, datetime(2026, 1, 1, tzinfo=UTC))
    assert sorted(e.amount for e in then if e.kind == amended.kind) == [Decimal(500000), Decimal(750000)]
    now = entries_counted_at(current, [before], {}, datetime(2026, 2, 1, tzinfo=UTC))
    assert sorted(e.amount for e in now if e.kind == amended.kind) == [Decimal(500000), Decimal(760000)]


def test_an_amended_entry_without_its_earlier_value_is_left_out_before_the_amendment():
    amended = CapitalCall("DOC002", amount=Decimal(760000), as_of_date=Q4, updated_at=AMENDED, revision=2, **IDS)
    assert entries_counted_at([amended], [], {}, datetime(2026, 1, 1, tzinfo=UTC)) == []


def test_a_commitment_change_recorded_later_is_not_known_yet():
    history = (
        CommitmentChange(EARLIEST_EFFECTIVE, Decimal(2000000)),
        CommitmentChange(date(2025, 6, 30), Decimal(1800000), "Transfer", recorded_at=AMENDED),
    )
    assert commitments_known_at(history, LOADED) == history[:1]
    assert commitment_known(history, Q3, LOADED) == Decimal(2000000)
    assert commitment_known(history, Q3, None) == Decimal(1800000)


def test_the_valuation_date_is_as_of_else_the_known_at_day_else_today():
    today = date(2026, 3, 1)
    assert valuation_date(Q3, AMENDED, today) == Q3
    assert valuation_date(None, AMENDED, today) == date(2026, 1, 20)
    assert valuation_date(None, None, today) == today


# --- the register keeps every NAV: its figures as of any date -------------------------------------


def register_with_two_navs():
    builder = FiguresBuilder(flows=True)
    for entry in position_1(Decimal(445000)):
        builder.add(entry)
    q4_nav = NetAssetValue("DOC002", amount=Decimal(1100000), status="Active", as_of_date=Q4, updated_at=LOADED, **IDS)
    builder.add(q4_nav)
    register = PositionRegister("POSITION_1", "FUND_A", "INVESTOR_1", "USD", Decimal(2000000))
    return register.with_builder(builder), q4_nav


def test_the_register_values_a_date_between_two_navs_with_the_nav_of_that_date():
    """As of 2025-11-30: the 2025-09-30 NAV of 445,000 (the 2025-12-31 one is later), nothing
    moved between (DOC002's flows are dated 2025-12-31): adjusted NAV 445,000."""
    register, _ = register_with_two_navs()
    (usd,) = register.figures(date(2025, 11, 30))
    assert (usd.nav.amount, usd.nav_as_of, usd.adjusted_nav.amount) == (Decimal(445000), Q3, Decimal(445000))
    (today,) = register.figures(date(2026, 3, 1))
    assert (today.nav.amount, today.nav_as_of) == (Decimal(1100000), Q4)


def test_the_register_forgets_a_removed_nav_and_its_state_survives_the_store():
    register, q4_nav = register_with_two_navs()
    assert rollup_in(rollup_out(register.rollup)) == register.rollup
    builder = register.builder()
    assert builder.remove(q4_nav) is not None
    builder.reconsider(q4_nav.kind, position_1(Decimal(445000)))
    after = PositionRegister("POSITION_1", "FUND_A", "INVESTOR_1", "USD").with_builder(builder)
    assert [nav for (_, nav) in after.rollup["USD"]["navs"]] == [Decimal(445000)]
    (usd,) = after.figures(date(2026, 3, 1))
    assert usd.nav.amount == Decimal(445000)
