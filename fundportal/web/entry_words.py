"""An entry's kind and own fields in words, for tables and lists: "Management fee (offset)",
"fees 25,000.00 · expenses 5,000.00, outside the commitment", "return of capital 80,000.00 ·
gain 30,000.00 · income 10,000.00 · recallable 20,000.00"."""

from __future__ import annotations

from fundportal.domain.amounts import typed_amount
from fundportal.domain.kinds import Kind
from fundportal.domain.position_entries import PositionEntry

_CALL_PARTS = (("management_fee", "fees"), ("partnership_expense", "expenses"))
_DISTRIBUTION_PARTS = (
    ("return_of_capital", "return of capital"),
    ("gain", "gain"),
    ("income", "income"),
    ("recallable", "recallable"),
)


_NAMED_PARTS = {Kind.CAPITAL_CALL: _CALL_PARTS, Kind.DISTRIBUTION: _DISTRIBUTION_PARTS}
# The field shown for the kinds with one word-field of their own (`Kind.X` is a descriptor call on
# Python 3.11: looked up once, not per cell).
_NAMED_FIELD = {Kind.MANAGEMENT_FEE: "fee_line", Kind.CARRIED_INTEREST: "carry_stage"}


def parts_text(entry: PositionEntry) -> str:
    """The entry's own fields in words ('' when it has none)."""
    kind = entry.KIND  # the class's kind (`entry.kind` is a property returning it)
    named = _NAMED_PARTS.get(kind)
    if named is None:  # the other kinds: a fee line, a carry stage or no field of their own
        field = _NAMED_FIELD.get(kind)
        return "" if field is None else str(getattr(entry, field, ""))
    shown = [
        f"{words} {typed_amount(value, entry.currency)}"
        for name, words in named
        if (value := getattr(entry, name, None)) is not None
    ]
    if not shown:
        return ""
    text = " · ".join(shown)
    if getattr(entry, "outside_commitment", False):
        text += ", outside the commitment"
    return text
