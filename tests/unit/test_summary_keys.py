"""The fund summary's keys and attribute names (`fundportal.store.mapping.keys`): a stable shard
per position, shard keys that parse back, measure names that parse back."""

from __future__ import annotations

from datetime import date

import pytest

from fundportal.domain.errors import InvalidId
from fundportal.store.mapping import keys


def test_a_position_always_hashes_to_the_same_shard_and_positions_spread_over_all():
    assert keys.summary_shard("POSITION_1", 10) == keys.summary_shard("POSITION_1", 10) == 6
    spread = {keys.summary_shard(f"P{n:05d}", 10) for n in range(1000)}
    assert spread == set(range(10))


def test_shard_keys_parse_back_and_never_take_a_hash_from_an_id():
    pk, sk = keys.summary_keys("FUND_A", 7)
    assert (pk, sk) == ("FUND_SUMMARY#FUND_A#07", "SUMMARY")
    assert keys.parse_summary_pk(pk) == ("FUND_A", 7)
    with pytest.raises(InvalidId):
        keys.summary_keys("FUND#A", 1)
    with pytest.raises(ValueError):
        keys.parse_summary_pk("FUND#FUND_A#07")


def test_measure_attributes_parse_back_and_other_attributes_are_not_measures():
    plain, dated = (
        keys.summary_attribute("USD", "called_settled", None),
        keys.summary_attribute("EUR", "call", date(2025, 9, 30)),
    )
    assert (plain, dated) == ("USD|called_settled", "EUR|call|2025-09-30")
    assert keys.parse_summary_attribute(plain) == ("USD", "called_settled", None)
    assert keys.parse_summary_attribute(dated) == ("EUR", "call", date(2025, 9, 30))
    for other in ("PK", "EntityType", "Writes", "FundId"):
        assert keys.parse_summary_attribute(other) is None
