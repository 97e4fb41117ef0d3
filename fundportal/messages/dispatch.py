"""The dispatcher every area module registers its wording with: `describe(error)`."""

from __future__ import annotations

from functools import singledispatch


@singledispatch
def describe(error: Exception) -> str:
    """The sentence a user is shown for `error` (an error of no known kind: its own text)."""
    return str(error)
