"""The money type: py-moneyed amounts with their currency, and how figures are shown."""

from decimal import Decimal

import pytest
from moneyed import Money

from fundportal.domain.money import CURRENCIES, currency_code, format_amount, format_money, format_ratio, money, zero


def test_currencies():
    assert CURRENCIES == ("USD", "EUR", "GBP", "CHF", "JPY")


def test_money_builds_decimal_money():
    value = money(Decimal("1250000.00"), "USD")
    assert isinstance(value, Money)
    assert value.amount == Decimal("1250000")
    assert value.currency.code == "USD"
    assert money(5, "EUR") == Money(Decimal(5), "EUR")
    assert money(Decimal(1), "usd").currency.code == "USD"


@pytest.mark.parametrize("amount", [1.5, 0.0, "12", None, True])
def test_money_refuses_float_and_other_types(amount):
    with pytest.raises(TypeError):
        money(amount, "USD")


@pytest.mark.parametrize("amount", [Decimal("NaN"), Decimal("Infinity"), Decimal("-Infinity")])
def test_money_refuses_non_finite(amount):
    with pytest.raises(ValueError):
        money(amount, "USD")


def test_unknown_currency():
    with pytest.raises(ValueError):
        money(Decimal(1), "XXZ")
    with pytest.raises(ValueError):
        currency_code("nope")
    assert currency_code("jpy") == "JPY"


def test_zero():
    assert zero("JPY") == Money(Decimal(0), "JPY")
    assert not zero("USD")


def test_adding_two_currencies_raises():
    with pytest.raises(TypeError):
        Money(1, "USD") + Money(1, "JPY")
    with pytest.raises(TypeError):
        money(Decimal(1), "USD") + money(Decimal(1), "EUR")
    assert money(Decimal(1), "USD") + money(Decimal(2), "USD") == money(Decimal(3), "USD")


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (money(Decimal(1250000), "USD"), "USD 1,250,000.00"),
        (money(Decimal(-1000), "USD"), "USD -1,000.00"),
        (money(Decimal("0.5"), "EUR"), "EUR 0.50"),
        (money(Decimal("195000.005"), "GBP"), "GBP 195,000.00"),  # half-even
        (money(Decimal("0.015"), "CHF"), "CHF 0.02"),
        (money(Decimal(1500000), "JPY"), "JPY 1,500,000.00"),  # 2 decimals for every currency, for now
        (money(Decimal("-0.001"), "USD"), "USD 0.00"),
        (zero("USD"), "USD 0.00"),
        (None, "—"),
    ],
)
def test_format_money(value, text):
    assert format_money(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(Decimal("0.16"), "0.16x"), (Decimal("0.1"), "0.10x"), (Decimal(2), "2.00x"), (None, "—")],
)
def test_format_ratio(value, text):
    assert format_ratio(value) == text


@pytest.mark.parametrize(
    "amount, currency",
    [(Decimal("1250000"), "USD"), (Decimal("-0.001"), "EUR"), (Decimal("30000"), "jpy"), (7, "GBP")],
)
def test_format_amount_is_format_money_without_the_money(amount, currency):
    assert format_amount(amount, currency) == format_money(money(amount, currency))


def test_format_amount_refuses_what_money_refuses():
    with pytest.raises(TypeError):
        format_amount(1.5, "USD")
    with pytest.raises(ValueError):
        format_amount(Decimal(1), "XXX1")
