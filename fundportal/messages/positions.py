"""The wording of a position's refusals: its fund and investor, commitment changes, merges and
pro-rata allocations across positions."""

from __future__ import annotations

from fundportal.domain.commitments import REASON_MAX_LENGTH
from fundportal.domain.errors import (
    AllocationRefused,
    InvalidCommitmentChange,
    PositionChangeRefused,
    PositionMismatch,
)

from .dispatch import describe


@describe.register
def _(error: InvalidCommitmentChange) -> str:
    if error.field == "effective_on":
        return "A commitment change takes effect on or before today; record a later one on its date."
    if error.problem == "too_long":
        return f"Keep the reason of a commitment change to {REASON_MAX_LENGTH} characters."
    return "Give the reason of the commitment change (a side letter, a transfer, a correction...)."


@describe.register
def _(error: PositionMismatch) -> str:
    if error.holder == "document":
        return f"{error.key} is a document of fund {error.expected}; an entry in it cannot be for fund {error.given}."
    if error.field == "investor_id":
        return f"{error.key} is held by investor {error.expected}, not {error.given}."
    return f"{error.key} is a position in fund {error.expected}, not {error.given}."


@describe.register
def _(error: PositionChangeRefused) -> str:
    position, other, detail = error.position_id, error.other_id, error.detail
    if error.reason == PositionChangeRefused.HAS_ENTRIES:
        return (
            f"{position} still has {detail} entries: only a position with no entries can be removed. "
            "Merge it into the right position instead. Nothing was changed."
        )
    if error.reason == PositionChangeRefused.SAME_POSITION:
        return f"A position cannot be merged into itself ({position}). Nothing was changed."
    if error.reason == PositionChangeRefused.CLASHING_ENTRIES:
        return (
            f"{position} and {other} both have an entry of the same kind in {detail}: remove or correct one "
            "of them first. Nothing was changed."
        )
    if error.reason == PositionChangeRefused.IMPORT_UNFINISHED:
        return (
            f"An unfinished import still writes into {position}: finish it (run the same file again) or clear it "
            "with verify_positions --repair --abandon first. Nothing was changed."
        )
    if error.reason == PositionChangeRefused.HAS_COMMITMENT:
        return (
            f"{position} holds a commitment ({detail}): record it on {other or 'the right position'} and set "
            f"{position}'s to 0 first. Nothing was changed."
        )
    mine, theirs = detail if isinstance(detail, tuple) else (detail, None)
    what = {"fund_id": "fund", "investor_id": "investor", "currency": "currency"}.get(error.reason, error.reason)
    return (
        f"{position} ({what} {mine}) and {other} ({what} {theirs}) are of different {what}s: only a position "
        f"of the same fund, investor and currency can be merged. Nothing was changed."
    )


@describe.register
def _(error: AllocationRefused) -> str:
    nothing = " Nothing was written."
    if error.reason == AllocationRefused.ZERO_BASIS:
        return "The basis adds up to zero: no position has any, nothing to allocate pro rata." + nothing
    if error.reason == AllocationRefused.NEGATIVE_WEIGHT:
        return f"The weight of {error.position_id} is negative ({error.given}); weights are zero or more." + nothing
    if error.reason == AllocationRefused.WEIGHTS_NOT_WHOLE:
        return f"The weights add up to {error.given} %, not {error.expected} %." + nothing
    if error.reason == AllocationRefused.TOO_PRECISE:
        places = "no decimals" if error.expected == "0" else f"at most {error.expected} decimals"
        return f"{error.currency} amounts have {places}; the total {error.given} has more." + nothing
    if error.reason == AllocationRefused.NOT_POSITIVE:
        return f"The total must be more than zero, not {error.given}." + nothing
    if error.reason == AllocationRefused.UNKNOWN_POSITION:
        return f"{error.position_id} is not a position of this fund; weights name the fund's positions only." + nothing
    where = f" ({error.position_id})" if error.position_id else ""
    return (
        f"The positions are in {error.given}{where}, the total in {error.expected}: amounts of two currencies "
        "are never allocated together." + nothing
    )
