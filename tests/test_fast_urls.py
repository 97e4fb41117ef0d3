"""fast_reverse gives exactly what reverse() gives for every URL name the tables use."""

from __future__ import annotations

import pytest
from django.urls import reverse

from fundportal.fast_urls import fast_reverse

CASES = [
    ("documents:position", ("DOC001", "POSITION_1")),
    ("documents:entry_edit", ("DOC-1.a", "capital_call", "POS_9")),
    ("documents:entry_delete", ("DOC001", "unfunded_commitment", "P.1-x")),
    ("positions:detail", ("POSITION_1",)),
    ("documents:detail", ("D" * 64,)),
]


@pytest.mark.parametrize(("name", "args"), CASES)
def test_same_as_reverse(name, args):
    assert fast_reverse(name, *args) == reverse(name, args=args)


def test_values_are_quoted_like_reverse():
    assert fast_reverse("positions:detail", "a b#c") == reverse("positions:detail", args=["a b#c"])


def test_script_prefix_is_respected(settings):
    from django.urls import clear_script_prefix, set_script_prefix

    set_script_prefix("/portal/")
    try:
        expected = reverse("positions:detail", args=["P1"])
        assert fast_reverse("positions:detail", "P1") == expected == "/portal/positions/P1/"
    finally:
        clear_script_prefix()
