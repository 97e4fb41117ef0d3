"""Python values to DynamoDB attribute values (`fundportal.store.serialization.to_attr`): the
exact built-in types take a fast path by identity, everything else the `isinstance` path; both
give the same attribute for every value."""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fundportal.store.serialization import _to_attr_of_subclass, from_item, to_attr, to_item

scalars = st.one_of(
    st.text(max_size=8),
    st.integers(),
    st.decimals(allow_nan=False, allow_infinity=False, places=2),
    st.booleans(),
    st.none(),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(values)
def test_the_fast_path_gives_the_attribute_the_isinstance_path_gives(value):
    assert to_attr(value) == _to_attr_of_subclass(value)


class Colour(StrEnum):
    RED = "red"


def test_bools_stay_bools_and_subclasses_take_their_base_types_shape():
    assert to_attr(True) == {"BOOL": True}
    assert to_attr(Colour.RED) == {"S": "red"}
    listed = {"L": [{"N": "1"}, {"N": "2.50"}, {"NULL": True}]}
    assert to_attr({"a": [1, Decimal("2.50"), None]}) == {"M": {"a": listed}}


def test_a_map_leaves_out_none_and_an_item_round_trips():
    item = {"PK": "DOC001", "Amount": Decimal("1250.00"), "Gone": None, "Rollup": {"USD": {"Sums": [Decimal(0)]}}}
    typed = to_item(item)
    assert "Gone" not in typed
    assert from_item(typed) == {"PK": "DOC001", "Amount": Decimal("1250.00"), "Rollup": {"USD": {"Sums": [Decimal(0)]}}}


def test_a_float_is_refused():
    with pytest.raises(TypeError, match="money must be Decimal"):
        to_attr({"Amount": 1.5})
