"""The optional columns of a notice row that belong to one kind, and the kind's rules on a row.

- `management_fee`, `partnership_expense` (amounts, zero or more) and `outside_commitment`
  (yes/no) on a `capital_call` row: the parts of the call that pay fees and expenses, and whether
  they are called outside the commitment;
- `return_of_capital`, `gain`, `income` and `recallable` (amounts, zero or more) on a
  `distribution` row: its split (when any of the first three is given they add up to the
  amount) and the part that may be called again;
- `fee_line` (gross, offset or waiver; empty: gross) on a `management_fee` row, `carry_stage`
  (accrued or paid; empty: accrued) on a `carried_interest` row.

A column given on a row of another kind is refused (its value would be lost). The amount of a
`realized_gain`, `unrealized_gain` or accrued `carried_interest` row may be negative (a loss, a
reversal): "-1,250.00". The kind's rules (`fundportal.domain.statement_kinds.check_entry`) run
on every row, each refusal named by its column."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from fundportal.domain.amounts import AmountError, number_cell_amount, parse_amount
from fundportal.domain.errors import InvalidEntry
from fundportal.domain.kinds import CARRY_ACCRUED, CARRY_STAGES, FEE_GROSS, FEE_LINES, Kind
from fundportal.domain.position_entries import ENTRY_CLASSES
from fundportal.domain.statement_kinds import check_entry
from fundportal.messages import describe

AMOUNT_PARTS = {
    "management_fee": Kind.CAPITAL_CALL,
    "partnership_expense": Kind.CAPITAL_CALL,
    "return_of_capital": Kind.DISTRIBUTION,
    "gain": Kind.DISTRIBUTION,
    "income": Kind.DISTRIBUTION,
    "recallable": Kind.DISTRIBUTION,
}
CHOICE_PARTS = {
    "fee_line": (Kind.MANAGEMENT_FEE, FEE_LINES, FEE_GROSS),
    "carry_stage": (Kind.CARRIED_INTEREST, CARRY_STAGES, CARRY_ACCRUED),
}
FLAG_PARTS = {"outside_commitment": Kind.CAPITAL_CALL}
PART_COLUMNS = (*AMOUNT_PARTS, *FLAG_PARTS, *CHOICE_PARTS)
_YES, _NO = ("yes", "y", "true", "1", "x"), ("no", "n", "false", "0", "")
# The kinds whose amount may be negative (the domain still checks which stage of carry).
SIGNED_KINDS = (Kind.REALIZED_GAIN, Kind.UNREALIZED_GAIN, Kind.CARRIED_INTEREST)


def signed_amount(text: str, currency: str, numeric: bool, kind: Kind | None) -> Decimal:
    """A row's amount: as `parse_amount` (or an exact number cell), with a leading '-' allowed for
    the kinds that may be negative."""
    value = text.strip()
    negative = kind in SIGNED_KINDS and value.startswith("-")
    body = value[1:].strip() if negative else value
    if not body:
        raise AmountError("The amount is missing.")
    amount = number_cell_amount(body, currency) if numeric else parse_amount(body, currency, exact=True)
    return -amount if negative else amount


def parse_parts(
    values: dict[str, str],
    numeric: frozenset[str],
    kind: Kind | None,
    currency: str,
    bad: Callable[[str, str], None],
) -> dict[str, Any]:
    """The kind's own fields of one row (none given: the kind's defaults); every bad cell reported."""
    parts: dict[str, Any] = {}
    for column, owner in AMOUNT_PARTS.items():
        text = values.get(column, "").strip()
        if not text:
            continue
        if owner is not kind:
            bad(column, f"{column} applies to a {owner.slug} row only.")
            continue
        try:
            if column in numeric:
                parts[column] = number_cell_amount(text, currency)
            else:
                parts[column] = parse_amount(text, currency, exact=True)
        except (AmountError, ValueError) as error:
            bad(column, str(error))
    for column, owner in FLAG_PARTS.items():
        text = values.get(column, "").strip().lower()
        if text not in _NO and owner is not kind:
            bad(column, f"{column} applies to a {owner.slug} row only.")
        elif text in _YES:
            parts[column] = True
        elif text not in _NO:
            bad(column, f"'{text[:20]}' is not yes or no.")
    for column, (owner, choices, default) in CHOICE_PARTS.items():
        text = values.get(column, "").strip().lower()
        if text and owner is not kind:
            bad(column, f"{column} applies to a {owner.slug} row only.")
        elif text and text not in choices:
            bad(column, f"'{text[:20]}' is not one of {', '.join(choices)}.")
        elif owner is kind:
            parts[column] = text or default
    return parts


def check_row(
    kind: Kind, amount: Decimal, currency: str, parts: dict[str, Any], bad: Callable[[str, str], None]
) -> None:
    """The kind's rules on a parsed row; a refusal is reported on the column at fault."""
    entry = ENTRY_CLASSES[kind](document_id="ROW", amount=amount, currency=currency, **parts)
    try:
        check_entry(entry)
    except InvalidEntry as error:
        column = "return_of_capital" if error.field == "split" else error.field
        bad(column, describe(error).removesuffix(" Nothing was written."))
