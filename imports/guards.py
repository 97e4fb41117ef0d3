"""The import's guard rails for positions and document types (pure: reads nothing).

- A row's position must be registered in the row's fund, unless the row says it opens a new
  position (`new_position` = yes/true/1). A position id that is neither (a typo such as
  POSITON_1 for POSITION_1) is an error of its row, naming the closest registered id of that
  fund when one is close ("did you mean POSITION_1?"): importing it would silently start a new
  LP position and change the fund's figures.
- A row may name its document's type (`document_type`, one of the known types); all rows of a
  document agree, and an existing document's type is not changed by an import.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from fundportal.domain.kinds import DOCUMENT_TYPES, validate_id

from .reader import RawRow

YES = frozenset({"yes", "y", "true", "1"})
NO = frozenset({"", "no", "n", "false", "0"})
CLOSE_ENOUGH = 0.8  # difflib's ratio: POSITON_1 / POSITION_1 is 0.95, POSITION_1 / POSITION_2 0.9


def opens_new(text: str) -> bool:
    """Whether a `new_position` cell says the row opens a new position; ValueError for anything
    that is neither a yes nor a no."""
    value = text.strip().lower()
    if value in YES:
        return True
    if value in NO:
        return False
    raise ValueError(f"'{text[:20]}' is not yes or no (leave it empty, or write yes to open a new position).")


def document_type_of(text: str) -> str | None:
    """A `document_type` cell: None when empty, the type when known; ValueError otherwise."""
    value = text.strip().lower()
    if not value:
        return None
    if value not in DOCUMENT_TYPES:
        raise ValueError(f"'{text[:40]}' is not one of {', '.join(DOCUMENT_TYPES)}.")
    return value


def closest(given: str, candidates: Iterable[str]) -> str | None:
    """The candidate spelled most like `given` (case-insensitive), when one is close enough."""
    by_normal: dict[str, str] = {}
    for candidate in sorted(set(candidates)):
        by_normal.setdefault(candidate.lower(), candidate)
    by_normal.pop(given.lower(), None)
    found = difflib.get_close_matches(given.lower(), list(by_normal), n=1, cutoff=CLOSE_ENOUGH)
    return by_normal[found[0]] if found else None


def unregistered_reason(position_id: str, fund_id: str, suggestion: str | None) -> str:
    """What a row naming a position its fund does not hold is told."""
    meant = f" Did you mean {suggestion}?" if suggestion else ""
    return (
        f"{position_id} is not a position of {fund_id}.{meant} To open a new position, write yes in its "
        "new_position column."
    )


def unregistered_rows(
    rows: Iterable[tuple[int, str, str, bool]], registered: Iterable[str], fund_positions: dict[str, set[str]]
) -> dict[int, str]:
    """Of `rows` (row number, position id, fund id, says new_position), the rows naming a
    position that is not registered and that no row of the file opens, each with its reason.
    `registered`: the file's positions registered anywhere (a register in another fund is the
    fund check's error); `fund_positions`: per fund, the positions registered in it (read only
    for the funds this check needs: `funds_to_read`)."""
    rows = list(rows)
    known = set(registered)
    opened: dict[str, set[str]] = {}
    for _, position_id, fund_id, new in rows:
        if new:
            opened.setdefault(fund_id, set()).add(position_id)
    found = {}
    for number, position_id, fund_id, _ in rows:
        if position_id in known or position_id in opened.get(fund_id, set()):
            continue
        candidates = fund_positions.get(fund_id, set()) | opened.get(fund_id, set())
        found[number] = unregistered_reason(position_id, fund_id, closest(position_id, candidates))
    return found


def funds_to_read(rows: Iterable[tuple[int, str, str, bool]], registered: Iterable[str]) -> list[str]:
    """The funds whose registered positions the check needs: those with a row naming a position
    that is not registered and not opened by the file (a file of known positions reads nothing)."""
    rows = list(rows)
    opened = {(fund_id, position_id) for _, position_id, fund_id, new in rows if new}
    known = set(registered)
    return sorted({fund for _, position, fund, _ in rows if position not in known and (fund, position) not in opened})


def document_type_reasons(rows: Iterable[tuple[int, str, str | None]], stored: dict[str, str]) -> dict[int, str]:
    """Of `rows` (row number, document id, document type given or None), the rows whose type
    differs from an earlier row's for the same document, or from the existing document's
    (`stored`: document id -> its type), each with its reason."""
    first: dict[str, tuple[int, str]] = {}
    found = {}
    for number, document_id, given in rows:
        if given is None:
            continue
        existing = stored.get(document_id)
        if existing is not None and given != existing:
            found[number] = f"{document_id} exists with document_type '{existing}'; an import does not change it."
            continue
        earlier = first.setdefault(document_id, (number, given))
        if earlier[1] != given:
            found[number] = f"{document_id}'s document_type differs from row {earlier[0]} ('{earlier[1]}')."
    return found


def position_claims(rows: Iterable[RawRow]) -> list[tuple[int, str, str, bool]]:
    """(row number, position id, fund id, says new_position) of the rows whose ids and
    new_position cell are well formed (the others are their cells' errors)."""
    found = []
    for row in rows:
        try:
            position_id = validate_id(row.values["position_id"], "position id")
            fund_id = validate_id(row.values["fund_id"], "fund id")
            new = opens_new(row.values.get("new_position", ""))
        except ValueError:
            continue
        found.append((row.number, position_id, fund_id, new))
    return found
