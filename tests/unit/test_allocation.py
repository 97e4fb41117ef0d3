"""The largest-remainder allocation of a fund-wide call or distribution (fundportal.domain.allocation)."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fundportal.domain.allocation import (
    Purpose,
    allocate,
    basis_weights,
    check_total,
    custom_weights,
    minor_unit,
    natural_key,
    unfunded_around,
)
from fundportal.domain.errors import AllocationRefused
from fundportal.domain.money import money
from fundportal.messages import describe


def usd(amount: str) -> object:
    return money(Decimal(amount), "USD")


def test_a_total_split_pro_rata_adds_up_to_exactly_the_total():
    shares = allocate(usd("100.00"), {"P1": Decimal(1), "P2": Decimal(1), "P3": Decimal(1)})
    assert sum(m.amount for m in shares.values()) == Decimal("100.00")
    assert sorted(m.amount for m in shares.values()) == [Decimal("33.33"), Decimal("33.33"), Decimal("33.34")]


def test_the_leftover_unit_goes_to_the_largest_remainder():
    # exact shares 3.333..., 6.666...: the second has the larger remainder
    shares = allocate(usd("0.10"), {"P1": Decimal(1), "P2": Decimal(2)})
    assert shares == {"P1": usd("0.03"), "P2": usd("0.07")}


def test_equal_remainders_are_broken_by_position_id_in_natural_order():
    weights = {"POSITION_10": Decimal(1), "POSITION_2": Decimal(1), "POSITION_1": Decimal(1)}
    shares = allocate(usd("0.02"), weights)
    assert shares["POSITION_1"] == usd("0.01")
    assert shares["POSITION_2"] == usd("0.01")
    assert shares["POSITION_10"] == usd("0.00")


def test_natural_order_compares_digit_runs_as_numbers():
    ids = ["POSITION_10", "POSITION_2", "POSITION_1"]
    assert sorted(ids, key=natural_key) == ["POSITION_1", "POSITION_2", "POSITION_10"]


def test_a_zero_weight_gets_nothing():
    shares = allocate(usd("1.00"), {"P1": Decimal(0), "P2": Decimal(3)})
    assert shares == {"P1": usd("0.00"), "P2": usd("1.00")}


def test_yen_are_allocated_in_whole_yen():
    shares = allocate(money(Decimal(1000), "JPY"), {"P1": Decimal(1), "P2": Decimal(2)})
    assert {p: m.amount for p, m in shares.items()} == {"P1": Decimal(333), "P2": Decimal(667)}
    assert minor_unit("JPY") == Decimal(1)


def test_a_total_with_more_decimals_than_the_currency_is_refused():
    with pytest.raises(AllocationRefused) as refused:
        allocate(usd("100.001"), {"P1": Decimal(1)})
    assert refused.value.reason == AllocationRefused.TOO_PRECISE
    wording = "USD amounts have at most 2 decimals; the total 100.001 has more. Nothing was written."
    assert describe(refused.value) == wording
    with pytest.raises(AllocationRefused):
        check_total(money(Decimal("10.5"), "JPY"))


@pytest.mark.parametrize("total", ["0.00", "-5.00"])
def test_a_total_of_zero_or_less_is_refused(total):
    with pytest.raises(AllocationRefused) as refused:
        allocate(usd(total), {"P1": Decimal(1)})
    assert refused.value.reason == AllocationRefused.NOT_POSITIVE


def test_a_basis_adding_up_to_zero_is_refused():
    with pytest.raises(AllocationRefused) as refused:
        allocate(usd("10.00"), {"P1": Decimal(0), "P2": Decimal(0)})
    assert refused.value.reason == AllocationRefused.ZERO_BASIS
    with pytest.raises(AllocationRefused) as refused:
        basis_weights({"P1": None, "P2": usd("0.00")}, "USD")
    assert refused.value.reason == AllocationRefused.ZERO_BASIS
    assert "adds up to zero" in describe(refused.value)


def test_a_negative_weight_is_refused():
    with pytest.raises(AllocationRefused) as refused:
        allocate(usd("10.00"), {"P1": Decimal(-1), "P2": Decimal(2)})
    assert refused.value.reason == AllocationRefused.NEGATIVE_WEIGHT
    assert refused.value.position_id == "P1"


def test_a_basis_in_another_currency_is_refused_never_mixed():
    with pytest.raises(AllocationRefused) as refused:
        basis_weights({"P1": usd("10.00"), "P2": money(Decimal(5), "EUR")}, "USD")
    assert refused.value.reason == AllocationRefused.MIXED_CURRENCIES
    assert "EUR" in describe(refused.value) and "USD" in describe(refused.value)


def test_a_basis_below_zero_weighs_zero():
    weights = basis_weights({"P1": usd("-5.00"), "P2": usd("10.00"), "P3": None}, "USD")
    assert weights == {"P1": Decimal(0), "P2": Decimal("10.00"), "P3": Decimal(0)}


def test_custom_weights_must_add_up_to_one_hundred_percent():
    positions = {"P1", "P2"}
    assert custom_weights({"P1": Decimal(60), "P2": Decimal(40)}, positions) == {"P1": Decimal(60), "P2": Decimal(40)}
    with pytest.raises(AllocationRefused) as refused:
        custom_weights({"P1": Decimal(60), "P2": Decimal(30)}, positions)
    assert refused.value.reason == AllocationRefused.WEIGHTS_NOT_WHOLE
    assert describe(refused.value) == "The weights add up to 90 %, not 100 %. Nothing was written."


def test_custom_weights_refuse_negative_and_unknown_positions():
    with pytest.raises(AllocationRefused) as refused:
        custom_weights({"P1": Decimal(110), "P2": Decimal(-10)}, {"P1", "P2"})
    assert refused.value.reason == AllocationRefused.NEGATIVE_WEIGHT
    with pytest.raises(AllocationRefused) as refused:
        custom_weights({"P9": Decimal(100)}, {"P1"})
    assert refused.value.reason == AllocationRefused.UNKNOWN_POSITION


def test_a_call_lowers_the_unfunded_and_a_distribution_leaves_it():
    awaiting = unfunded_around(usd("1000.00"), usd("250.00"), call=True, counted=False)
    assert (awaiting.before, awaiting.after) == (usd("1000.00"), usd("750.00"))
    counted = unfunded_around(usd("750.00"), usd("250.00"), call=True, counted=True)
    assert (counted.before, counted.after) == (usd("1000.00"), usd("750.00"))
    paid = unfunded_around(usd("750.00"), usd("250.00"), call=False, counted=False)
    assert (paid.before, paid.after) == (usd("750.00"), usd("750.00"))
    assert unfunded_around(None, usd("1.00"), call=True, counted=False).after is None


def test_purposes_become_calls_or_distributions():
    assert {p.kind.slug for p in Purpose if p.is_call} == {"capital_call"}
    assert {p.kind.slug for p in Purpose if not p.is_call} == {"distribution"}


_cents = st.integers(min_value=1, max_value=10**15)
_weights = st.dictionaries(
    st.from_regex(r"POSITION_[0-9]{1,3}", fullmatch=True),
    st.decimals(min_value=0, max_value=10**12, places=2, allow_nan=False, allow_infinity=False),
    min_size=1,
    max_size=40,
).filter(lambda w: sum(w.values()) > 0)


@given(units=_cents, weights=_weights, currency=st.sampled_from(["USD", "JPY"]))
def test_every_allocation_adds_up_exactly_and_stays_within_a_minor_unit_of_its_share(units, weights, currency):
    unit = minor_unit(currency)
    total = money(units * unit, currency)
    shares = allocate(total, weights)
    assert set(shares) == set(weights)
    assert sum(m.amount for m in shares.values()) == total.amount
    whole = sum(Fraction(w) for w in weights.values())
    for position_id, amount in shares.items():
        exact = Fraction(units) * Fraction(weights[position_id]) / whole  # in minor units
        assert abs(Fraction(amount.amount / unit) - exact) < 1
        assert amount.amount >= 0 and amount.amount % unit == 0


@given(cents=_cents, weights=_weights)
def test_allocation_does_not_depend_on_the_order_positions_come_in(cents, weights):
    total = money(Decimal(cents) / 100, "USD")
    assert allocate(total, dict(reversed(list(weights.items())))) == allocate(total, weights)
