"""How a register's commitment and its dated history are kept (fundportal.store.mapping): a
plain number while there is no dated history, a map {Current, History} once there is, both in
the one attribute the position index projects."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from fundportal.domain.commitments import CommitmentChange, history_of
from fundportal.domain.position_register import PositionRegister
from fundportal.store.mapping.register_maps import REGISTER
from fundportal.store.schema import POSITION_PROJECTION

AT = datetime(2025, 11, 3, 14, 30, tzinfo=UTC)


def test_a_register_without_dated_history_keeps_its_commitment_as_a_number():
    item = REGISTER.to_item(PositionRegister("P1", "F1", "I1", commitment=Decimal(2_000_000)))
    assert item["Commitment"] == Decimal(2_000_000)
    back = REGISTER.from_item(item)
    assert (back.commitment, back.commitments) == (Decimal(2_000_000), ())


def test_a_register_without_commitment_keeps_no_commitment_attribute():
    item = REGISTER.to_item(PositionRegister("P1", "F1", "I1"))
    assert "Commitment" not in item
    assert REGISTER.from_item(item).commitments == ()


def test_the_dated_history_is_kept_in_the_projected_commitment_attribute_and_read_back():
    history = (
        *history_of(Decimal(2_000_000), ()),
        CommitmentChange(date(2025, 10, 15), Decimal(2_500_000), "Side letter", AT, "ann"),
    )
    register = PositionRegister("P1", "F1", "I1", commitment=Decimal(2_500_000), commitments=history)
    item = REGISTER.to_item(register)
    assert "Commitment" in POSITION_PROJECTION
    assert item["Commitment"] == {
        "Current": Decimal(2_500_000),
        "History": [
            {"EffectiveOn": "", "Amount": Decimal(2_000_000), "Reason": "", "RecordedAt": "", "RecordedBy": ""},
            {
                "EffectiveOn": "2025-10-15",
                "Amount": Decimal(2_500_000),
                "Reason": "Side letter",
                "RecordedAt": "2025-11-03T14:30:00+00:00",
                "RecordedBy": "ann",
            },
        ],
    }
    back = REGISTER.from_item(item)
    assert back.commitment == Decimal(2_500_000)
    assert back.commitments == history
