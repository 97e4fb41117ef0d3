"""The page filters of fundportal/jinja_globals.py that stand in for Django's: the same text."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.template.defaultfilters import floatformat

from fundportal.jinja_globals import tenths

EDGES = [0, 1, 7, 0.0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 1.05, 2.5, 3.0, 99.95, 12345.65, 1e-7, 1e21]
EDGES += [Decimal("2.25"), Decimal("0.05"), -0.04, -0.05, -2.25, 10**12]


@pytest.mark.parametrize("value", EDGES)
def test_tenths_is_djangos_floatformat_to_one_decimal(value):
    assert tenths(value) == str(floatformat(value, 1))


def test_tenths_agrees_with_floatformat_on_read_units_and_timings():
    rng = random.Random(8)
    values = [rng.random() * 10 ** rng.randint(0, 6) for _ in range(2000)]
    values += [round(rng.random() * 1000, 2) for _ in range(2000)] + [n / 2 for n in range(400)]
    assert [tenths(v) for v in values] == [str(floatformat(v, 1)) for v in values]
