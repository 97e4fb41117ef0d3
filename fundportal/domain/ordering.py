"""Natural order of ids, the one sort key every table, export and allocation uses: POSITION_2
before POSITION_10 (digit runs compare as numbers), the rest case-insensitively, then exactly
(so the order is total)."""

from __future__ import annotations

import functools
import re
from typing import Any

_DIGITS = re.compile(r"([0-9]+)")


@functools.lru_cache(maxsize=100_000)
def natural_key(value: str) -> tuple[Any, ...]:
    """The sort key of `value` in natural order. Cached: a page sorts the same ids on every view
    (a regular-expression split each)."""
    parts = _DIGITS.split(value)
    return (*((int(p), "") if i % 2 else (-1, p.lower()) for i, p in enumerate(parts)), value)
